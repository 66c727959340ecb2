#pragma once

#include "agent/trace/tracenode.h"

#include <QHash>
#include <QJsonArray>
#include <QObject>

#include <optional>
#include <vector>

namespace Loopscope {

/*!
    Trace nodes read from JSON and checked, not yet in a Trace. Reading a
    large trace is the slow part of opening a session and may run on any
    thread; a Trace takes the result quickly with assign().
*/
struct TraceForest
{
    std::vector<TraceNode> nodes; // by id
    QList<int> roots;
};

/*!
    The session's trace: a forest of Turn trees, append-only while the agent
    runs. Nodes are never removed (except by clear()), so a node's id is stable
    and models can use it as their internal id. Lives on one thread.
*/
class Trace final : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    int begin(int parent, TraceKind kind, const QString &label, qint64 startedUs, TracePayload payload = {});
    void finish(int id, TraceStatus status, qint64 endedUs);

    // Change a node in place; emits nodeChanged once the editor returns.
    template<typename Editor>
    void update(int id, Editor &&editor)
    {
        Q_ASSERT(id >= 0 && id < int(m_nodes.size()));
        editor(m_nodes[size_t(id)]);
        emit nodeChanged(id);
    }

    const TraceNode &node(int id) const { return m_nodes[size_t(id)]; }
    int size() const { return int(m_nodes.size()); }
    bool isValid(int id) const { return id >= 0 && id < size(); }
    const QList<int> &roots() const { return m_roots; }
    const QList<int> &childrenOf(int parent) const;

    void clear();

    // The whole forest as nested JSON, and back. fromJson() replaces the
    // contents and returns false (leaving the trace empty) on a malformed tree.
    QJsonArray toJson() const;
    bool fromJson(const QJsonArray &json, QString *error = nullptr);
    // The first half of fromJson(): nullopt (*error) on a malformed tree. Thread-safe.
    static std::optional<TraceForest> readJson(const QJsonArray &json, QString *error = nullptr);
    // The second half: replaces the contents with a forest readJson() gave.
    void assign(TraceForest forest);

    // One subtree, e.g. a single turn for export.
    QJsonObject nodeToJson(int id) const;

signals:
    void aboutToAppend(int parent, int row);
    void appended(int id);
    void nodeChanged(int id);
    void aboutToReset();
    void reset();

private:
    int appendNode(TraceNode node);
    // \a bases: the model calls written as deltas, and the earlier call each is a delta of.
    QJsonObject nodeToJson(int id, const QHash<int, int> &bases) const;

    std::vector<TraceNode> m_nodes;
    QList<int> m_roots;
};

} // namespace Loopscope
