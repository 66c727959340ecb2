#pragma once

#include "agent/trace/trace.h"
#include "agent/trace/tracetiming.h"

#include <QAbstractItemModel>
#include <QPointer>

namespace Loopscope {

/*!
    The trace as a tree for views: one row per node, the node id as the
    internal id. It follows the Trace live with exact notifications (an append
    is one beginInsertRows/endInsertRows, a change is one dataChanged for the
    row), so a view keeps its selection and expansion while the agent runs.
    Lives on the Trace's thread; the Trace is not owned and may die first.
*/
class TraceModel final : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column {
        NameColumn,
        KindColumn,
        StatusColumn,
        DurationColumn,
        TokensColumn,
        CostColumn,
        ColumnCount
    };
    Q_ENUM(Column)

    enum Role {
        NodeIdRole = Qt::UserRole + 1, // int
        KindRole,                      // int(TraceKind)
        StatusRole,                    // int(TraceStatus)
        StartedUsRole,                 // qint64, microseconds since the epoch
        EndedUsRole,                   // qint64, 0 while running
        DurationUsRole,                // qint64, 0 while running
        IsErrorRole,                   // bool: Error, Blocked or Denied
        ToolNameRole,                  // QString, tool calls only
        PayloadJsonRole,               // QJsonObject: the node's "data", for a details pane
        TokenTimingRole,               // QString: time to first token and tokens/s, model calls only
        CostUsdRole,                   // double: the recorded cost of the subtree's model calls, when known
        WaitingUsRole,                 // qint64: of the duration, the time someone was waited for
        WorkingUsRole,                 // qint64: the duration without the waiting
    };
    Q_ENUM(Role)

    explicit TraceModel(Trace *trace, QObject *parent = nullptr);

    Trace *trace() const { return m_trace; }

    QModelIndex indexForNode(int id, int column = NameColumn) const;
    int nodeId(const QModelIndex &index) const; // -1 for an invalid or foreign index

    // Words for people, e.g. "Model call", "Blocked"; also for filter menus.
    static QString kindDisplayName(TraceKind kind);
    static QString statusDisplayName(TraceStatus status);
    static QString formatDuration(qint64 durationUs);
    // A duration people read at a glance: "23.9 s" from a second on, else as formatDuration().
    static QString formatSpan(qint64 durationUs);
    // "27.0 s: 3.1 s working, 23.9 s waiting for you" for a step that waited for someone; empty
    // for one that did not.
    static QString timingText(const StepTiming &timing);
    // "First token after 412 ms · 38.5 tokens/s" for a model call that streamed; empty otherwise.
    static QString tokenTimingText(const TraceNode &node);
    // "$0.0123" for a model call, iteration or turn whose calls had a price, "—" when none had
    // one, empty for other nodes and calls that reported no usage.
    static QString costText(const Trace &trace, int id);
    // The prices a model call's cost was computed with, for a tooltip; empty without a cost.
    static QString priceBasisText(const TraceNode &node);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

private:
    void onAboutToAppend(int parent, int row);
    void onAppended(int id);
    void onNodeChanged(int id);
    void onAboutToReset();
    void onReset();
    void onTraceDestroyed();

    const TraceNode *nodeAt(const QModelIndex &index) const;
    QVariant displayData(const TraceNode &node, int column) const;
    TokenUsage subAgentUsage(const TraceNode &call) const;

    QPointer<Trace> m_trace;
};

} // namespace Loopscope
