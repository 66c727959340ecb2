#pragma once

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLineEdit;
class QMenu;
class QToolButton;

namespace Loopscope::Ui {

class TraceFilterProxyModel;

/*!
    The controls for a TraceFilterProxyModel: a menu of kinds, a tool name
    field and an "errors only" switch. The proxy holds the state; the bar
    shows it, so a filter cleared elsewhere (by selecting a hidden node)
    clears the controls too.
*/
class TraceFilterBar final : public QWidget
{
    Q_OBJECT

public:
    explicit TraceFilterBar(TraceFilterProxyModel *filter, QWidget *parent = nullptr);

    QToolButton *kindButton() const { return m_kindButton; }
    QLineEdit *toolNameField() const { return m_toolName; }
    QCheckBox *errorsOnlyBox() const { return m_errorsOnly; }
    QToolButton *clearButton() const { return m_clear; }

private:
    void showFilters();

    QPointer<TraceFilterProxyModel> m_filter;
    QToolButton *m_kindButton;
    QMenu *m_kindMenu;
    QList<QAction *> m_kindActions; // indexed by TraceKind
    QLineEdit *m_toolName;
    QCheckBox *m_errorsOnly;
    QToolButton *m_clear;
};

} // namespace Loopscope::Ui
