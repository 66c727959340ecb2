#pragma once

#include "agent/conversation/message.h"
#include "agent/trace/tracenode.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace Loopscope {

class Trace;

/*!
    Finds which trace nodes a saved conversation's messages came from, from
    the trace's structure alone: a question by how many messages preceded it
    (what its turn's first model call was sent), an answer by its order among
    the turn's answering model calls, a tool call by its id. Never by what the
    messages say: the same question asked twice is two turns.
*/
class TurnNodeFinder final
{
public:
    explicit TurnNodeFinder(const Trace &trace);

    // Where a question at \a index of \a messages stands: the messages before
    // it, less the system messages the list starts with (where the loop puts
    // its prompt, which the history does not hold).
    static int messagesBefore(const QList<Message> &messages, qsizetype index);

    // The turn node of a question that stood at \a messagesBefore in the
    // history; -1 when the trace has none. Questions are asked for in the
    // history's order: each finds a turn after the last one found, the latest
    // asked from that point (the earlier ones were replaced by regenerate,
    // edit or retry).
    int nextTurn(int messagesBefore);

    // The nodes of a turn whose text entered the history, in order: model
    // calls that answered with text, and summaries; a sub-agent's answers
    // are its call's result, not the turn's.
    static QList<int> answerNodes(const Trace &trace, int turnNode);
    static int toolCallNode(const Trace &trace, int turnNode, const QString &callId);
    // Every tool call node of a turn by its call's id (the first of an id, as toolCallNode finds
    // it): one walk for a turn's calls, however many there are.
    static QHash<QString, int> toolCallNodes(const Trace &trace, int turnNode);
    // The steps directly under a turn in the order they ran, the parts of the agents it was handed
    // to (a Handoff node followed by its iterations) spread out among them: where a reader that
    // walks a turn's iterations finds them all, in traces from before handoffs held parts too.
    static QList<int> turnSteps(const Trace &trace, int turnNode);
    // The agent whose part of a turn \a nodeId belongs to: the agent handed to, when it lies under
    // a Handoff node, else its turn's agent (a sub-agent's, under the call that asked it). Empty
    // for a node outside any turn.
    static QString agentOf(const Trace &trace, int nodeId);
    // That agent's definition as the part recorded it (its agents file entry: "provider", "model",
    // …); empty for the session's own agent and in traces from before definitions were kept.
    static QJsonObject agentDefinitionOf(const Trace &trace, int nodeId);
    // The tool calls of the sub-agents a tool call asked (ask_<name>), and of theirs, in the
    // order they began; none for any other call.
    static QList<int> subAgentToolCalls(const Trace &trace, int toolCallNode);
    // The passages an answer drew on: what the turn's retrievals found after the answer before it
    // and before it, best first per retrieval, each passage once.
    static QList<RetrievalHit> sourcesOf(const Trace &trace, int answerNode);

private:
    const Trace &m_trace;
    QList<int> m_messagesBefore; // per root; -1 when it never reached the model
    int m_nextRoot = 0;
};

} // namespace Loopscope
