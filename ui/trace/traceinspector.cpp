#include "ui/trace/traceinspector.h"

#include "agent/model/modelcost.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracemodel.h"
#include "ui/trace/tracedetailspane.h"
#include "ui/trace/tracefilterbar.h"
#include "ui/trace/tracefilterproxymodel.h"
#include "ui/trace/tracestyleproxy.h"
#include "ui/trace/tracetimeline.h"

#include <QAction>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLocale>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace Loopscope::Ui {

TraceInspector::TraceInspector(Trace *trace, TraceModel *model, QWidget *parent)
    : QWidget(parent)
    , m_trace(trace)
    , m_model(model)
    , m_style(new TraceStyleProxy(this))
    , m_filter(new TraceFilterProxyModel(this))
    , m_filterBar(new TraceFilterBar(m_filter, this))
    , m_followButton(new QToolButton(this))
    , m_tree(new QTreeView(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
    , m_timeline(new TraceTimeline(trace, this))
    , m_timelineArea(new QScrollArea(m_splitter))
    , m_details(new TraceDetailsPane(model, this))
{
    Q_ASSERT(trace && model && model->trace() == trace);
    setAccessibleName(tr("Trace inspector"));
    m_style->setPalette(palette());
    m_style->setSourceModel(model);
    m_filter->setSourceModel(m_style);

    m_followButton->setText(tr("Follow"));
    m_followButton->setAccessibleName(tr("Follow new steps"));
    m_followButton->setToolTip(tr("Scroll to new steps as the agent adds them"));
    m_followButton->setCheckable(true);
    m_followButton->setChecked(true);
    connect(m_followButton, &QToolButton::toggled, this, &TraceInspector::setFollowing);

    // Rows the filter removes may take the current row with them; the view
    // then moves it, which is not the user's doing. These begin-guards are
    // connected before setModel() so they run before the view and its
    // selection model react; the matching end-guards after, so they run last.
    connect(m_filter, &QAbstractItemModel::rowsAboutToBeRemoved, this, [this] { ++m_modelChanging; });
    connect(m_filter, &QAbstractItemModel::layoutAboutToBeChanged, this, [this] { ++m_modelChanging; });
    connect(m_filter, &QAbstractItemModel::modelAboutToBeReset, this, [this] { ++m_modelChanging; });

    m_tree->setAccessibleName(tr("Trace tree"));
    m_tree->setModel(m_filter);
    m_tree->setUniformRowHeights(true);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_tree->addActions({m_details->copyJsonAction(), m_details->copyCurlAction()});
    // Resizing to contents measures every row on each change, too slow for a
    // long trace: size the short columns for their widest usual text instead.
    QHeaderView *header = m_tree->header();
    m_tree->viewport()->installEventFilter(this);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setSectionResizeMode(TraceModel::NameColumn, QHeaderView::Stretch);
    const QFontMetrics metrics = m_tree->fontMetrics();
    const int padding = 2 * metrics.averageCharWidth();
    header->resizeSection(TraceModel::KindColumn,
                          metrics.horizontalAdvance(TraceModel::kindDisplayName(TraceKind::ShieldCheck))
                              + padding);
    header->resizeSection(TraceModel::StatusColumn,
                          metrics.horizontalAdvance(TraceModel::statusDisplayName(TraceStatus::Cancelled))
                              + padding);
    header->resizeSection(TraceModel::DurationColumn,
                          metrics.horizontalAdvance(TraceModel::formatDuration(99'999'900)) + padding);
    header->resizeSection(TraceModel::TokensColumn,
                          metrics.horizontalAdvance(QLocale().toString(999'999)) + padding);
    // The widest usual cost: a sum under a dollar that misses a price ("≥$0.1234").
    header->resizeSection(TraceModel::CostColumn,
                          metrics.horizontalAdvance(formatCost(CostSum{0.1234, 1, 1})) + padding);
    for (int column : {TraceModel::KindColumn, TraceModel::StatusColumn, TraceModel::DurationColumn,
                       TraceModel::TokensColumn, TraceModel::CostColumn})
        m_shortColumnWidths.insert(column, header->sectionSize(column));

    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, [this] { --m_modelChanging; });
    connect(m_filter, &QAbstractItemModel::layoutChanged, this, [this] { --m_modelChanging; });
    connect(m_filter, &QAbstractItemModel::modelReset, this, [this] { --m_modelChanging; });
    // After setModel(), so the view knows the new rows before they are opened.
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &TraceInspector::onRowsInserted);
    connect(m_filter, &TraceFilterProxyModel::filtersChanged, this, &TraceInspector::onFiltersChanged);
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &TraceInspector::onCurrentChanged);
    connect(m_tree->verticalScrollBar(), &QAbstractSlider::actionTriggered, this,
            &TraceInspector::onScrollAction);
    connect(m_timeline, &TraceTimeline::nodeClicked, this, &TraceInspector::onTimelineClicked);

    m_followTimer.setSingleShot(true);
    m_followTimer.setInterval(0);
    connect(&m_followTimer, &QTimer::timeout, this, &TraceInspector::followNewRows);

    QScrollArea *timelineArea = m_timelineArea;
    timelineArea->setAccessibleName(tr("Timeline of the turn"));
    timelineArea->setWidget(m_timeline);
    timelineArea->setWidgetResizable(true);
    timelineArea->setFrameShape(QFrame::NoFrame);
    timelineArea->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // Room for a model call and two parallel tools before it scrolls.
    timelineArea->setMinimumHeight(m_timeline->heightForLanes(3));

    m_splitter->addWidget(m_tree);
    m_splitter->addWidget(timelineArea);
    m_splitter->addWidget(m_details);
    // Enough of the tree to pick a step, however small the window.
    const int line = fontMetrics().lineSpacing();
    // The details keep their layout's own minimum, so their header, attempts and tabs never overlap.
    m_tree->setMinimumHeight(6 * line);
    m_splitter->setChildrenCollapsible(false);
    // A taller window grows the tree and the details; the timeline keeps its height.
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 0);
    m_splitter->setStretchFactor(2, 1);
    m_splitter->installEventFilter(this);
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] {
        m_userSized = true;
        if (m_sidePanel && m_sidePanel->isVisibleTo(this))
            m_movedWithPanel = true;
    });

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_filterBar, 1);
    bar->addWidget(m_followButton);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_splitter, 1);

    // A trace that already has rows: open what still runs.
    for (int row = 0; row < m_filter->rowCount(); ++row)
        expandRunning(m_filter->index(row, 0));
}

TraceInspector::~TraceInspector() = default;

void TraceInspector::setSidePanel(QWidget *panel)
{
    m_sidePanel = panel;
    panel->setMinimumHeight(std::max(panel->minimumHeight(), 7 * fontMetrics().lineSpacing()));
    panel->setVisible(false);
    m_splitter->addWidget(panel);
    m_splitter->setStretchFactor(m_splitter->indexOf(panel), 2);
}

void TraceInspector::showSidePanel(bool visible)
{
    if (!m_sidePanel || m_sidePanel->isVisibleTo(this) == visible)
        return;
    const int panelIndex = m_splitter->indexOf(m_sidePanel);
    const int detailsIndex = m_splitter->indexOf(m_details);
    QList<int> sizes = m_splitter->sizes();
    if (!visible) {
        const int panelSize = sizes.value(panelIndex);
        m_sidePanel->setVisible(false);
        if (!m_movedWithPanel && m_sizesWithoutPanel.size() == sizes.size()) {
            // Nothing moved meanwhile: the column as it was.
            m_splitter->setSizes(m_sizesWithoutPanel);
        } else if (sizes.size() > panelIndex) {
            // The panel's room goes to the details it came from.
            sizes[detailsIndex] += panelSize + m_splitter->handleWidth();
            sizes[panelIndex] = 0;
            m_splitter->setSizes(sizes);
        }
        m_sizesWithoutPanel.clear();
        return;
    }
    m_sizesWithoutPanel = sizes;
    m_movedWithPanel = false;
    m_sidePanel->setVisible(true);
    if (sizes.size() <= panelIndex)
        return;
    // Take the panel's room from the details (down to their minimum), then from the timeline.
    // The panel's handle appears with it and needs its own few pixels.
    const int wanted
        = std::max(m_sidePanel->minimumHeight(), m_splitter->height() * 2 / 5) + m_splitter->handleWidth();
    int given = 0;
    for (const int from : {detailsIndex, 1}) {
        const QWidget *widget = m_splitter->widget(from);
        const int spare
            = sizes.at(from) - std::max(widget->minimumHeight(), widget->minimumSizeHint().height());
        const int take = std::clamp(wanted - given, 0, std::max(spare, 0));
        sizes[from] -= take;
        given += take;
    }
    sizes[panelIndex] = given - m_splitter->handleWidth();
    m_splitter->setSizes(sizes);
}

QModelIndex TraceInspector::viewIndexForNode(int nodeId) const
{
    if (!m_model)
        return {};
    return m_filter->mapFromSource(m_style->mapFromSource(m_model->indexForNode(nodeId)));
}

int TraceInspector::turnOf(int nodeId) const
{
    if (!m_trace || !m_trace->isValid(nodeId))
        return -1;
    while (m_trace->node(nodeId).parent != -1)
        nodeId = m_trace->node(nodeId).parent;
    return nodeId;
}

void TraceInspector::selectNode(int nodeId)
{
    if (nodeId < 0) {
        const QScopedValueRollback guard(m_selectingInCode, m_selectingInCode + 1);
        m_tree->selectionModel()->clear();
        return;
    }
    if (!m_trace || !m_trace->isValid(nodeId))
        return;
    setFollowing(false);
    selectInTree(nodeId);
}

void TraceInspector::selectInTree(int nodeId)
{
    QModelIndex index = viewIndexForNode(nodeId);
    if (!index.isValid() && m_filter->isFiltering()) {
        m_filter->clearFilters();
        index = viewIndexForNode(nodeId);
    }
    if (!index.isValid())
        return;
    const QScopedValueRollback guard(m_selectingInCode, m_selectingInCode + 1);
    for (QModelIndex ancestor = index.parent(); ancestor.isValid(); ancestor = ancestor.parent())
        m_tree->expand(ancestor);
    m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect
                                                         | QItemSelectionModel::Rows);
    m_tree->scrollTo(index);
}

int TraceInspector::selectedNode() const
{
    const QModelIndex current = m_tree->selectionModel()->currentIndex();
    if (!current.isValid() || !m_tree->selectionModel()->isSelected(current.siblingAtColumn(0)))
        return -1;
    return current.data(TraceModel::NodeIdRole).toInt();
}

void TraceInspector::setFollowing(bool following)
{
    if (following == m_following)
        return;
    m_following = following;
    {
        const QSignalBlocker blocker(m_followButton);
        m_followButton->setChecked(following);
    }
    if (following && m_newestRow.isValid())
        m_followTimer.start();
    emit followingChanged(following);
}

bool TraceInspector::isFollowing() const
{
    return m_following;
}

void TraceInspector::showNode(int nodeId)
{
    m_details->setNode(nodeId);
    // Without a selection the timeline shows the latest turn, live.
    m_timeline->setTurn(turnOf(nodeId));
    m_timeline->setSelectedNode(nodeId);
}

void TraceInspector::onCurrentChanged(const QModelIndex &current)
{
    const int nodeId = current.isValid() ? current.data(TraceModel::NodeIdRole).toInt() : -1;
    showNode(nodeId);
    if (m_selectingInCode > 0 || m_modelChanging > 0 || nodeId < 0)
        return;
    setFollowing(false);
    emit nodeSelected(nodeId);
}

void TraceInspector::onRowsInserted(const QModelIndex &parent, int first, int last)
{
    for (int row = first; row <= last; ++row)
        expandRunning(m_filter->index(row, 0, parent));
    m_newestRow = m_filter->index(last, 0, parent);
    if (isFollowing())
        m_followTimer.start();
}

void TraceInspector::expandRunning(const QModelIndex &index)
{
    const auto kind = TraceKind(index.data(TraceModel::KindRole).toInt());
    if (kind == TraceKind::Retry) {
        // A retry stays in sight: its model call opens, and stays open once the call succeeds.
        for (QModelIndex open = index.parent(); open.isValid(); open = open.parent())
            m_tree->expand(open);
        return;
    }
    if (kind != TraceKind::Turn && kind != TraceKind::Iteration)
        return;
    if (TraceStatus(index.data(TraceModel::StatusRole).toInt()) == TraceStatus::Running) {
        for (QModelIndex open = index; open.isValid(); open = open.parent())
            m_tree->expand(open);
    }
    // A filter change inserts whole subtrees at once.
    const int rows = m_filter->rowCount(index);
    for (int row = 0; row < rows; ++row)
        expandRunning(m_filter->index(row, 0, index));
}

void TraceInspector::followNewRows()
{
    if (isFollowing() && m_newestRow.isValid())
        m_tree->scrollTo(m_newestRow);
}

void TraceInspector::onScrollAction()
{
    // Emitted for the user's scrolling only; the slider already holds the new position.
    const QScrollBar *bar = m_tree->verticalScrollBar();
    setFollowing(bar->sliderPosition() >= bar->maximum());
}

void TraceInspector::onFiltersChanged()
{
    // A filter is there to find things: show every match.
    if (m_filter->isFiltering())
        m_tree->expandAll();
    const QModelIndex current = m_tree->selectionModel()->currentIndex();
    if (current.isValid())
        m_tree->scrollTo(current);
}

void TraceInspector::onTimelineClicked(int nodeId)
{
    selectInTree(nodeId);
    if (selectedNode() != nodeId)
        return;
    setFollowing(false);
    emit nodeSelected(nodeId);
}

bool TraceInspector::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_tree->viewport() && event->type() == QEvent::Resize)
        fitColumnsToWidth();
    else if (watched == m_splitter && event->type() == QEvent::Resize && !m_userSized)
        applyDefaultSizes();
    return QWidget::eventFilter(watched, event);
}

void TraceInspector::applyDefaultSizes()
{
    // The request and response are what a reader of the trace reads: the details take most of the
    // column, the tree enough to pick a step, the timeline the lanes of a call and two tools.
    const int handles = m_splitter->handleWidth() * (m_splitter->count() - 1);
    const bool panelShown = m_sidePanel && m_sidePanel->isVisibleTo(this);
    const int panelIndex = m_sidePanel ? m_splitter->indexOf(m_sidePanel) : -1;
    QList<int> sizes = m_splitter->sizes();
    const int total = m_splitter->height() - handles;
    if (total <= 0 || sizes.size() < 3)
        return;
    const int timeline = m_timelineArea->minimumHeight();
    int panel = 0;
    if (panelShown && panelIndex >= 0)
        panel = std::max(m_sidePanel->minimumHeight(), total * 2 / 5);
    const int rest = total - timeline - panel;
    const int tree = std::max(m_tree->minimumHeight(), rest / 3);
    sizes[0] = tree;
    sizes[1] = timeline;
    sizes[2] = std::max(rest - tree, 0);
    if (panelIndex >= 0)
        sizes[panelIndex] = panel;
    m_splitter->setSizes(sizes);
}

QByteArray TraceInspector::splitterState() const
{
    return m_splitter->saveState();
}

bool TraceInspector::restoreSplitterState(const QByteArray &state)
{
    if (!m_splitter->restoreState(state))
        return false;
    m_userSized = true;
    return true;
}

void TraceInspector::fitColumnsToWidth()
{
    // The widths they were given, not sectionSize(): a hidden section measures 0.
    const int nameRoom = 18 * m_tree->fontMetrics().averageCharWidth() + m_tree->indentation() * 3;
    int needed = nameRoom;
    for (int width : std::as_const(m_shortColumnWidths))
        needed += width;
    const int width = m_tree->viewport()->width();
    // Kind goes first (the icon says it), then Cost, then Tokens.
    const int kind = m_shortColumnWidths.value(TraceModel::KindColumn);
    const int cost = m_shortColumnWidths.value(TraceModel::CostColumn);
    const bool hideKind = width < needed;
    const bool hideCost = width < needed - kind;
    const bool hideTokens = width < needed - kind - cost;
    for (auto [column, hide] :
         {std::pair{int(TraceModel::KindColumn), hideKind}, std::pair{int(TraceModel::CostColumn), hideCost},
          std::pair{int(TraceModel::TokensColumn), hideTokens}}) {
        if (m_tree->isColumnHidden(column) == hide)
            continue;
        m_tree->setColumnHidden(column, hide);
        if (!hide)
            m_tree->header()->resizeSection(column, m_shortColumnWidths.value(column));
    }
}

void TraceInspector::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        m_style->setPalette(palette());
}

} // namespace Loopscope::Ui
