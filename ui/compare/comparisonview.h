#pragma once

#include "agent/compare/runcomparison.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
class QTreeWidget;
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    Two runs of a turn side by side, aligned step by step: the summary line
    on top, a tree of the steps with what run A and run B did and a status
    between them, and under it, for a selected model request, a coloured
    diff of the messages and parameters each run sent. The first difference
    is selected and scrolled to. It shows a RunComparison; the alignment
    itself is the agent's.
*/
class ComparisonView final : public QWidget
{
    Q_OBJECT

public:
    enum Column { StepColumn, LeftColumn, StatusColumn, RightColumn, ColumnCount };

    explicit ComparisonView(const RunComparison &comparison, QWidget *parent = nullptr);

    const RunComparison &comparison() const { return m_comparison; }
    QLabel *summaryLabel() const { return m_summary; }
    QTreeWidget *stepTree() const { return m_tree; }
    QPlainTextEdit *requestDiffView() const { return m_diff; }
    // The comparison's row an item shows; -1 for none.
    static int rowOf(const QTreeWidgetItem *item);
    QTreeWidgetItem *itemOf(int row) const;

private:
    void fillTree();
    void showFirstDifference();
    void showDetails();

    RunComparison m_comparison;
    QLabel *m_summary;
    QLabel *m_sources;
    QTreeWidget *m_tree;
    QPlainTextEdit *m_diff;
    QList<QTreeWidgetItem *> m_items; // by row
};

} // namespace Loopscope::Ui
