#pragma once

#include <QHash>
#include <QPersistentModelIndex>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QScrollArea;
class QSplitter;
class QToolButton;
class QTreeView;

namespace Loopscope {
class Trace;
class TraceModel;
} // namespace Loopscope

namespace Loopscope::Ui {

class TraceDetailsPane;
class TraceFilterBar;
class TraceFilterProxyModel;
class TraceStyleProxy;
class TraceTimeline;

/*!
    The trace panel: a filterable tree of the agent's steps that grows live,
    and below it the selected turn's timeline and the selected step's details.
    While the agent runs the tree opens the running turn and iteration and
    follows new rows, until the user scrolls or selects elsewhere (the Follow
    button resumes it). The Trace and its model come from outside and are not
    owned.
*/
class TraceInspector final : public QWidget
{
    Q_OBJECT

public:
    TraceInspector(Trace *trace, TraceModel *model, QWidget *parent = nullptr);
    ~TraceInspector() override;

    // Selects a node as if the user had (opening its ancestors, scrolling to
    // it, clearing the filter if it hides the node) but without nodeSelected.
    // -1 clears the selection.
    void selectNode(int nodeId);
    int selectedNode() const; // -1 when none

    // Whether the tree scrolls to rows as the agent adds them.
    void setFollowing(bool following);
    bool isFollowing() const;

    QTreeView *treeView() const { return m_tree; }
    TraceDetailsPane *detailsPane() const { return m_details; }
    TraceTimeline *timeline() const { return m_timeline; }
    TraceFilterProxyModel *filterModel() const { return m_filter; }
    TraceFilterBar *filterBar() const { return m_filterBar; }
    QSplitter *splitter() const { return m_splitter; }
    // The user's division of the column, for the next window; restored, it is kept as it was.
    QByteArray splitterState() const;
    bool restoreSplitterState(const QByteArray &state);

    // A panel below the details in the same column (the debugger). Shown, it takes its room from the
    // details pane and the timeline, never from the tree; nothing in the column collapses to nothing.
    // Hidden again, the column goes back to the sizes it had.
    void setSidePanel(QWidget *panel);
    void showSidePanel(bool visible);
    QWidget *sidePanel() const { return m_sidePanel; }

signals:
    // The user picked a node, in the tree or on the timeline.
    void nodeSelected(int nodeId);
    void followingChanged(bool following);

protected:
    void changeEvent(QEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // A narrow pane keeps the names readable: Kind goes first (the icon says it), then Tokens.
    void fitColumnsToWidth();
    // Until the user moves a handle: the timeline its minimum, the details most of the rest.
    void applyDefaultSizes();
    QHash<int, int> m_shortColumnWidths; // column -> the width it is given when shown
    QModelIndex viewIndexForNode(int nodeId) const;
    int turnOf(int nodeId) const;
    void selectInTree(int nodeId);
    void showNode(int nodeId);
    void onCurrentChanged(const QModelIndex &current);
    void onRowsInserted(const QModelIndex &parent, int first, int last);
    void onFiltersChanged();
    void onScrollAction();
    void onTimelineClicked(int nodeId);
    void expandRunning(const QModelIndex &index);
    void followNewRows();

    QPointer<Trace> m_trace;
    QPointer<TraceModel> m_model;
    TraceStyleProxy *m_style;
    TraceFilterProxyModel *m_filter;
    TraceFilterBar *m_filterBar;
    QToolButton *m_followButton;
    QTreeView *m_tree;
    QSplitter *m_splitter;
    QPointer<QWidget> m_sidePanel;
    TraceTimeline *m_timeline;
    QScrollArea *m_timelineArea;
    TraceDetailsPane *m_details;

    QTimer m_followTimer; // one scroll per burst of new rows
    QPersistentModelIndex m_newestRow;
    bool m_following = true;
    bool m_userSized = false;       // a handle was moved, or the user's sizes were restored
    QList<int> m_sizesWithoutPanel; // the column before the side panel took its room
    bool m_movedWithPanel = false;  // a handle was moved while the side panel showed
    int m_selectingInCode = 0;      // > 0 while this class moves the selection itself
    int m_modelChanging = 0;        // > 0 while the filter proxy removes rows or relayouts
};

} // namespace Loopscope::Ui
