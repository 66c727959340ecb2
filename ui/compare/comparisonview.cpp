#include "ui/compare/comparisonview.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

using Status = ComparisonRow::Status;

// Translucent, so that they read on light and dark palettes alike.
const QColor differsColor(220, 50, 47, 70);
const QColor onlyOneColor(230, 160, 0, 70);
const QColor firstDifferenceColor(230, 160, 0, 130);
const QColor removedColor(220, 50, 47, 55);
const QColor addedColor(40, 160, 60, 55);

QString statusText(const ComparisonRow &row)
{
    if (!row.counted)
        return row.status == Status::Same ? u"="_s : u"~"_s;
    switch (row.status) {
    case Status::Same: return u"="_s;
    case Status::Differs: return u"≠"_s;
    case Status::OnlyLeft: return ComparisonView::tr("A only");
    case Status::OnlyRight: return ComparisonView::tr("B only");
    }
    return {};
}

QString statusToolTip(const ComparisonRow &row)
{
    if (!row.counted)
        return ComparisonView::tr("Shown, not compared: two runs always differ in tokens, time and cost.");
    switch (row.status) {
    case Status::Same: return ComparisonView::tr("The same in both runs");
    case Status::Differs: return row.difference;
    case Status::OnlyLeft: return ComparisonView::tr("Only run A has this step");
    case Status::OnlyRight: return ComparisonView::tr("Only run B has this step");
    }
    return {};
}

} // namespace

ComparisonView::ComparisonView(const RunComparison &comparison, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_comparison(comparison)
    , m_summary(new QLabel(this))
    , m_sources(new QLabel(this))
    , m_tree(new QTreeWidget(this))
    , m_diff(new QPlainTextEdit(this))
{
    setWindowTitle(tr("Compare Runs — Loopscope"));
    setAttribute(Qt::WA_DeleteOnClose);

    QFont summaryFont = m_summary->font();
    summaryFont.setBold(true);
    summaryFont.setPointSizeF(summaryFont.pointSizeF() * 1.15);
    m_summary->setFont(summaryFont);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setAccessibleName(tr("Summary"));
    m_summary->setText(m_comparison.summary());
    m_sources->setWordWrap(true);
    m_sources->setTextFormat(Qt::PlainText);
    m_sources->setText(tr("A: %1    B: %2").arg(m_comparison.left().source, m_comparison.right().source));

    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Step"), tr("A: %1").arg(m_comparison.left().source), QString(),
                             tr("B: %1").arg(m_comparison.right().source)});
    m_tree->setAccessibleName(tr("Aligned steps"));
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setTextElideMode(Qt::ElideRight);
    QHeaderView *header = m_tree->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(StepColumn, QHeaderView::Interactive);
    header->setSectionResizeMode(LeftColumn, QHeaderView::Stretch);
    header->setSectionResizeMode(StatusColumn, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(RightColumn, QHeaderView::Stretch);
    header->resizeSection(StepColumn, fontMetrics().averageCharWidth() * 28);

    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_diff->setAccessibleName(tr("Request diff"));
    m_diff->setPlaceholderText(tr("Select a model request to see what each run sent: its messages and "
                                  "parameters, lines only A sent in red (−), only B in green (+)."));

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_tree);
    split->addWidget(m_diff);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setChildrenCollapsible(false);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_sources);
    layout->addWidget(split, 1);

    fillTree();
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &ComparisonView::showDetails);
    showFirstDifference();
    resize(1280, 800);
}

int ComparisonView::rowOf(const QTreeWidgetItem *item)
{
    return item ? item->data(StepColumn, Qt::UserRole).toInt() : -1;
}

QTreeWidgetItem *ComparisonView::itemOf(int row) const
{
    return row >= 0 && row < m_items.size() ? m_items.at(row) : nullptr;
}

void ComparisonView::fillTree()
{
    const QList<ComparisonRow> &rows = m_comparison.rows();
    for (int i = 0; i < rows.size(); ++i) {
        const ComparisonRow &row = rows.at(i);
        auto *item
            = row.parent >= 0 ? new QTreeWidgetItem(m_items.at(row.parent)) : new QTreeWidgetItem(m_tree);
        item->setData(StepColumn, Qt::UserRole, i);
        item->setText(StepColumn, row.label);
        item->setText(LeftColumn, row.left);
        item->setToolTip(LeftColumn, row.left);
        item->setText(StatusColumn, statusText(row));
        item->setToolTip(StatusColumn, statusToolTip(row));
        item->setTextAlignment(StatusColumn, Qt::AlignCenter);
        item->setText(RightColumn, row.right);
        item->setToolTip(RightColumn, row.right);
        if (row.counted && row.status == Status::Differs)
            item->setBackground(StatusColumn, differsColor);
        else if (row.counted && row.status != Status::Same)
            item->setBackground(StatusColumn, onlyOneColor);
        if (!row.counted) {
            for (int column = 0; column < ColumnCount; ++column)
                item->setForeground(column, palette().placeholderText());
        }
        m_items.append(item);
    }
    // Iterations open, their tool results folded under the calls.
    for (QTreeWidgetItem *item : std::as_const(m_items)) {
        if (!item->parent())
            item->setExpanded(true);
    }
}

void ComparisonView::showFirstDifference()
{
    QTreeWidgetItem *item = itemOf(m_comparison.firstDifference());
    if (!item) {
        m_tree->setCurrentItem(m_items.value(0));
        return;
    }
    for (int column = 0; column < ColumnCount; ++column) {
        item->setBackground(column, firstDifferenceColor);
        QFont font = item->font(column);
        font.setBold(true);
        item->setFont(column, font);
    }
    for (QTreeWidgetItem *parent = item->parent(); parent; parent = parent->parent())
        parent->setExpanded(true);
    m_tree->setCurrentItem(item);
    m_tree->scrollToItem(item, QAbstractItemView::PositionAtCenter);
}

void ComparisonView::showDetails()
{
    m_diff->clear();
    const QList<RequestDiffLine> lines = m_comparison.requestDiff(rowOf(m_tree->currentItem()));
    if (lines.isEmpty())
        return;
    QTextCursor cursor(m_diff->document());
    int firstChange = -1;
    for (int i = 0; i < lines.size(); ++i) {
        const RequestDiffLine &line = lines.at(i);
        QTextBlockFormat format;
        QString mark = u"  "_s;
        if (line.kind == RequestDiffLine::Kind::OnlyLeft) {
            format.setBackground(removedColor);
            mark = u"− "_s;
        } else if (line.kind == RequestDiffLine::Kind::OnlyRight) {
            format.setBackground(addedColor);
            mark = u"+ "_s;
        }
        if (firstChange < 0 && line.kind != RequestDiffLine::Kind::Same)
            firstChange = i;
        if (i > 0)
            cursor.insertBlock();
        cursor.setBlockFormat(format);
        cursor.insertText(mark + line.text);
    }
    // The first changed line in view, with a little of what comes before it.
    const QTextBlock block = m_diff->document()->findBlockByNumber(std::max(0, firstChange));
    QTextCursor at(block);
    m_diff->setTextCursor(at);
    m_diff->centerCursor();
}

} // namespace Loopscope::Ui
