#include "agent/trace/turnnodefinder.h"

#include "agent/trace/trace.h"

#include <algorithm>

namespace Loopscope {

namespace {

// The first node of the subtree, in depth-first order, that matches.
template<typename Predicate>
int findInSubtree(const Trace &trace, int root, Predicate &&matches)
{
    if (!trace.isValid(root))
        return -1;
    if (matches(trace.node(root)))
        return root;
    for (int child : trace.node(root).children) {
        const int found = findInSubtree(trace, child, matches);
        if (found >= 0)
            return found;
    }
    return -1;
}

template<typename Visitor>
void visitSubtree(const Trace &trace, int root, Visitor &&visit)
{
    visit(trace.node(root));
    for (int child : trace.node(root).children)
        visitSubtree(trace, child, visit);
}

// As visitSubtree, without the turns of sub-agents nested in it.
template<typename Visitor>
void visitOwnSteps(const Trace &trace, int root, Visitor &&visit)
{
    visit(trace.node(root));
    for (int child : trace.node(root).children) {
        if (trace.node(child).kind != TraceKind::Turn)
            visitOwnSteps(trace, child, visit);
    }
}

// The turn says where its question stood; in older traces, its first request does: the loop sent
// the whole history with the question last.
int messagesBeforeQuestion(const Trace &trace, int turnNode)
{
    if (const auto *turn = std::get_if<TurnData>(&trace.node(turnNode).payload); turn && turn->messagesBefore)
        return int(*turn->messagesBefore);
    const int call = findInSubtree(trace, turnNode,
                                   [](const TraceNode &node) { return node.kind == TraceKind::ModelCall; });
    if (call < 0)
        return -1;
    const auto &data = trace.node(call).data<ModelCallData>();
    const ModelRequest request = data.originalRequest ? *data.originalRequest : data.request.whole();
    return request.messages.isEmpty()
               ? -1
               : TurnNodeFinder::messagesBefore(request.messages, request.messages.size() - 1);
}

} // namespace

TurnNodeFinder::TurnNodeFinder(const Trace &trace)
    : m_trace(trace)
{
    const QList<int> &roots = trace.roots();
    m_messagesBefore.reserve(roots.size());
    for (int root : roots)
        m_messagesBefore.append(messagesBeforeQuestion(trace, root));
}

int TurnNodeFinder::messagesBefore(const QList<Message> &messages, qsizetype index)
{
    qsizetype leadingSystem = 0;
    while (leadingSystem < index && messages.at(leadingSystem).role == Message::Role::System)
        ++leadingSystem;
    return int(index - leadingSystem);
}

int TurnNodeFinder::nextTurn(int messagesBefore)
{
    const QList<int> &roots = m_trace.roots();
    int found = -1;
    for (int r = m_nextRoot; r < roots.size(); ++r) {
        if (m_messagesBefore.at(r) == messagesBefore)
            found = r;
    }
    // A turn stopped before its first model call left no request to count:
    // the next such turn stands in, unless a shield blocked its question.
    for (int r = m_nextRoot; found < 0 && r < roots.size(); ++r) {
        const TraceNode &node = m_trace.node(roots.at(r));
        if (m_messagesBefore.at(r) < 0 && node.status != TraceStatus::Blocked)
            found = r;
    }
    if (found < 0)
        return -1;
    m_nextRoot = found + 1;
    return roots.at(found);
}

QList<int> TurnNodeFinder::answerNodes(const Trace &trace, int turnNode)
{
    QList<int> nodes;
    if (!trace.isValid(turnNode))
        return nodes;
    visitOwnSteps(trace, turnNode, [&nodes](const TraceNode &node) {
        if (const auto *call = std::get_if<ModelCallData>(&node.payload)) {
            const ModelResponse &response = call->response;
            // A blank answer without tool calls ends the turn with the
            // fallback and leaves no message.
            if (node.status == TraceStatus::Ok && !response.text.isEmpty()
                && (!response.toolCalls.isEmpty() || !response.text.trimmed().isEmpty()))
                nodes.append(node.id);
        } else if (node.kind == TraceKind::Summary) {
            if (const auto *summary = std::get_if<TextData>(&node.payload);
                summary && !summary->text.isEmpty())
                nodes.append(node.id);
        }
    });
    return nodes;
}

int TurnNodeFinder::toolCallNode(const Trace &trace, int turnNode, const QString &callId)
{
    return findInSubtree(trace, turnNode, [&callId](const TraceNode &node) {
        const auto *data = std::get_if<ToolCallData>(&node.payload);
        return data && data->call.id == callId;
    });
}

QHash<QString, int> TurnNodeFinder::toolCallNodes(const Trace &trace, int turnNode)
{
    QHash<QString, int> nodes;
    if (!trace.isValid(turnNode))
        return nodes;
    visitSubtree(trace, turnNode, [&nodes](const TraceNode &node) {
        // The walk's order is findInSubtree's: the first node of an id is the one toolCallNode finds.
        if (const auto *data = std::get_if<ToolCallData>(&node.payload);
            data && !nodes.contains(data->call.id))
            nodes.insert(data->call.id, node.id);
    });
    return nodes;
}

QList<int> TurnNodeFinder::turnSteps(const Trace &trace, int turnNode)
{
    QList<int> steps;
    if (!trace.isValid(turnNode))
        return steps;
    for (int child : trace.node(turnNode).children) {
        steps.append(child);
        if (trace.node(child).kind == TraceKind::Handoff)
            steps.append(trace.node(child).children);
    }
    return steps;
}

namespace {

// The node whose agent's part holds \a nodeId: the Handoff node it lies under, else its turn's node
// (a sub-agent's, under the call that asked it); nullptr outside any turn.
const TraceNode *partOwner(const Trace &trace, int nodeId)
{
    if (!trace.isValid(nodeId))
        return nullptr;
    for (int node = trace.node(nodeId).parent; node >= 0; node = trace.node(node).parent) {
        const TraceNode &owner = trace.node(node);
        if (std::holds_alternative<HandoffData>(owner.payload)
            || std::holds_alternative<TurnData>(owner.payload))
            return &owner;
    }
    return nullptr;
}

} // namespace

QString TurnNodeFinder::agentOf(const Trace &trace, int nodeId)
{
    const TraceNode *owner = partOwner(trace, nodeId);
    if (!owner)
        return {};
    if (const auto *handoff = std::get_if<HandoffData>(&owner->payload))
        return handoff->target;
    return owner->data<TurnData>().agentName;
}

QJsonObject TurnNodeFinder::agentDefinitionOf(const Trace &trace, int nodeId)
{
    const TraceNode *owner = partOwner(trace, nodeId);
    if (!owner)
        return {};
    if (const auto *handoff = std::get_if<HandoffData>(&owner->payload))
        return handoff->targetDefinition;
    return owner->data<TurnData>().agentDefinition;
}

QList<int> TurnNodeFinder::subAgentToolCalls(const Trace &trace, int toolCallNode)
{
    QList<int> calls;
    if (!trace.isValid(toolCallNode))
        return calls;
    for (int child : trace.node(toolCallNode).children) {
        if (trace.node(child).kind != TraceKind::Turn)
            continue;
        visitSubtree(trace, child, [&calls](const TraceNode &node) {
            if (node.kind == TraceKind::ToolCall)
                calls.append(node.id);
        });
    }
    // Ids are the order steps began; parallel calls of one response and their nested calls interleave.
    std::sort(calls.begin(), calls.end());
    return calls;
}

QList<RetrievalHit> TurnNodeFinder::sourcesOf(const Trace &trace, int answerNode)
{
    QList<RetrievalHit> sources;
    if (!trace.isValid(answerNode))
        return sources;
    int turn = answerNode;
    while (trace.node(turn).parent != -1)
        turn = trace.node(turn).parent;
    // Ids are the order steps began: the retrievals between the answer before and this one.
    int previous = -1;
    for (int answer : answerNodes(trace, turn)) {
        if (answer < answerNode)
            previous = answer;
    }
    visitSubtree(trace, turn, [&](const TraceNode &node) {
        const auto *retrieval = std::get_if<RetrievalData>(&node.payload);
        if (!retrieval || node.id <= previous || node.id >= answerNode)
            return;
        for (const RetrievalHit &hit : retrieval->hits) {
            const bool known
                = std::any_of(sources.cbegin(), sources.cend(), [&hit](const RetrievalHit &source) {
                      return source.path == hit.path && source.startLine == hit.startLine
                             && source.endLine == hit.endLine;
                  });
            if (!known)
                sources.append(hit);
        }
    });
    return sources;
}

} // namespace Loopscope
