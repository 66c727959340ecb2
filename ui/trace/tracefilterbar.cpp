#include "ui/trace/tracefilterbar.h"

#include "agent/trace/tracemodel.h"
#include "ui/trace/tracefilterproxymodel.h"
#include "ui/trace/traceicons.h"

#include <QAction>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QStyle>
#include <QToolButton>

namespace Loopscope::Ui {

TraceFilterBar::TraceFilterBar(TraceFilterProxyModel *filter, QWidget *parent)
    : QWidget(parent)
    , m_filter(filter)
    , m_kindButton(new QToolButton(this))
    , m_kindMenu(new QMenu(m_kindButton))
    , m_toolName(new QLineEdit(this))
    , m_errorsOnly(new QCheckBox(tr("Errors"), this))
    , m_clear(new QToolButton(this))
{
    Q_ASSERT(filter);
    setAccessibleName(tr("Trace filter"));

    m_kindButton->setAccessibleName(tr("Kinds to show"));
    m_kindButton->setToolTip(tr("Show only some kinds of steps"));
    m_kindButton->setPopupMode(QToolButton::InstantPopup);
    m_kindButton->setMenu(m_kindMenu);
    auto *allKinds = m_kindMenu->addAction(tr("All Kinds"));
    connect(allKinds, &QAction::triggered, filter, [filter] { filter->setKinds({}); });
    m_kindMenu->addSeparator();
    for (int kind = int(TraceKind::Turn); kind <= int(LastTraceKind); ++kind) {
        QAction *action = m_kindMenu->addAction(TraceIcons::kindIcon(TraceKind(kind)),
                                                TraceModel::kindDisplayName(TraceKind(kind)));
        action->setCheckable(true);
        connect(action, &QAction::toggled, filter,
                [filter, kind](bool checked) { filter->setKindEnabled(TraceKind(kind), checked); });
        m_kindActions.append(action);
    }

    m_toolName->setAccessibleName(tr("Tool name"));
    m_toolName->setPlaceholderText(tr("Tool name"));
    m_toolName->setToolTip(tr("Show only calls of tools whose name contains this text"));
    m_toolName->setClearButtonEnabled(true);
    // A narrow pane may squeeze it, never below the words that say what it filters ("T…" said nothing).
    // (Its minimum size hint holds the frame, the margins, the clear button and one wide character.)
    const QFontMetrics metrics = m_toolName->fontMetrics();
    m_toolName->setMinimumWidth(m_toolName->minimumSizeHint().width() - metrics.maxWidth()
                                + metrics.horizontalAdvance(m_toolName->placeholderText())
                                + metrics.averageCharWidth());
    connect(m_toolName, &QLineEdit::textChanged, filter, &TraceFilterProxyModel::setToolName);

    m_errorsOnly->setAccessibleName(tr("Errors only"));
    m_errorsOnly->setToolTip(tr("Show only steps that failed, were blocked or were denied"));
    connect(m_errorsOnly, &QCheckBox::toggled, filter, &TraceFilterProxyModel::setErrorsOnly);

    m_clear->setText(tr("Clear"));
    m_clear->setAccessibleName(tr("Clear the filter"));
    m_clear->setToolTip(tr("Show every step again"));
    connect(m_clear, &QToolButton::clicked, filter, &TraceFilterProxyModel::clearFilters);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_kindButton);
    layout->addWidget(m_toolName, 1);
    layout->addWidget(m_errorsOnly);
    layout->addWidget(m_clear);

    connect(filter, &TraceFilterProxyModel::filtersChanged, this, &TraceFilterBar::showFilters);
    showFilters();
}

void TraceFilterBar::showFilters()
{
    if (!m_filter)
        return;
    const QList<TraceKind> kinds = m_filter->kinds();
    for (int kind = 0; kind < m_kindActions.size(); ++kind) {
        const QSignalBlocker blocker(m_kindActions.at(kind));
        m_kindActions.at(kind)->setChecked(kinds.contains(TraceKind(kind)));
    }
    if (kinds.isEmpty())
        m_kindButton->setText(tr("All kinds"));
    else if (kinds.size() == 1)
        m_kindButton->setText(TraceModel::kindDisplayName(kinds.constFirst()));
    else
        m_kindButton->setText(tr("%n kind(s)", nullptr, int(kinds.size())));
    // The style draws the menu arrow over the text unless the button leaves room for it.
    m_kindButton->setMinimumWidth(0);
    m_kindButton->setMinimumWidth(
        m_kindButton->sizeHint().width()
        + style()->pixelMetric(QStyle::PM_MenuButtonIndicator, nullptr, m_kindButton));

    // Only when it differs: resetting the text would move the cursor of someone typing.
    if (m_toolName->text().trimmed() != m_filter->toolName()) {
        const QSignalBlocker blocker(m_toolName);
        m_toolName->setText(m_filter->toolName());
    }
    {
        const QSignalBlocker blocker(m_errorsOnly);
        m_errorsOnly->setChecked(m_filter->errorsOnly());
    }
    m_clear->setEnabled(m_filter->isFiltering());
}

} // namespace Loopscope::Ui
