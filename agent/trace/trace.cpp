#include "agent/trace/trace.h"

namespace Loopscope {

int Trace::begin(int parent, TraceKind kind, const QString &label, qint64 startedUs, TracePayload payload)
{
    TraceNode node;
    node.parent = parent;
    node.kind = kind;
    node.label = label;
    node.startedUs = startedUs;
    node.payload = std::move(payload);
    return appendNode(std::move(node));
}

int Trace::appendNode(TraceNode node)
{
    Q_ASSERT(node.parent == -1 || isValid(node.parent));
    QList<int> &siblings = node.parent == -1 ? m_roots : m_nodes[size_t(node.parent)].children;
    node.id = size();
    node.row = int(siblings.size());
    emit aboutToAppend(node.parent, node.row);
    siblings.append(node.id);
    m_nodes.push_back(std::move(node));
    emit appended(int(m_nodes.size()) - 1);
    return int(m_nodes.size()) - 1;
}

void Trace::finish(int id, TraceStatus status, qint64 endedUs)
{
    update(id, [&](TraceNode &node) {
        node.status = status;
        node.endedUs = endedUs;
    });
}

const QList<int> &Trace::childrenOf(int parent) const
{
    return parent == -1 ? m_roots : m_nodes[size_t(parent)].children;
}

void Trace::clear()
{
    emit aboutToReset();
    m_nodes.clear();
    m_roots.clear();
    emit reset();
}

} // namespace Loopscope
