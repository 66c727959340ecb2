#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QTimer;
QT_END_NAMESPACE

namespace Loopscope {
class McpMessageLog;
}

namespace Loopscope::Ui {

class McpLogFilterModel;

/*!
    The Inspector's Log tab: every JSON-RPC message both ways as the
    McpMessageLog holds it, narrowed by method, direction and text; the
    chosen message in full; Copy (that message) and Copy All (the rows shown,
    as JSON lines). It follows new messages while scrolled to the bottom.
*/
class McpLogPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit McpLogPanel(McpMessageLog *log, QWidget *parent = nullptr);
    ~McpLogPanel() override;

    McpLogFilterModel *filterModel() const { return m_filter; }
    QTableView *table() const { return m_table; }
    QLineEdit *methodFilter() const { return m_method; }
    QLineEdit *textFilter() const { return m_text; }
    QComboBox *directionFilter() const { return m_direction; }

    void copySelected();
    void copyAll();

private:
    void showSelected();

    McpLogFilterModel *m_filter;
    QLineEdit *m_method;
    QComboBox *m_direction;
    QLineEdit *m_text;
    QTableView *m_table;
    QPlainTextEdit *m_detail;
    QPushButton *m_copy;
    QPushButton *m_copyAll;
    QPushButton *m_clear;
    QTimer *m_followTimer;
    bool m_follow = true;
};

} // namespace Loopscope::Ui
