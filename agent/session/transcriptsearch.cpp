#include "agent/session/transcriptsearch.h"

#include "agent/trace/trace.h"
#include "agent/transcript/transcript.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// How much of a message a match shows around it.
constexpr qsizetype snippetBefore = 40;
constexpr qsizetype snippetAfter = 80;

// The message that answers the tool call \a callId: where the chat shows the call.
int messageOfCall(const Transcript &transcript, const QString &callId)
{
    for (qsizetype i = 0; i < transcript.messages.size(); ++i) {
        const Message &message = transcript.messages.at(i);
        if (message.role == Message::Role::Tool && message.toolCallId == callId)
            return int(i);
    }
    return -1;
}

// What a node of a sub-agent's part says that a person could look for.
QStringList textsOf(const TraceNode &node)
{
    if (const auto *turn = std::get_if<TurnData>(&node.payload))
        return {turn->input, turn->output};
    if (const auto *call = std::get_if<ToolCallData>(&node.payload))
        return {call->call.arguments, call->result};
    if (const auto *model = std::get_if<ModelCallData>(&node.payload))
        return {model->response.text};
    return {};
}

class ForestSearch
{
public:
    ForestSearch(const Transcript &transcript, const TraceForest &forest, const QString &text)
        : m_transcript(transcript)
        , m_forest(forest)
        , m_text(text)
    {}

    // In the parts of sub-agents that the session's agents asked, in the order they were asked.
    std::optional<TranscriptMatch> inSubAgents() const
    {
        for (const TraceNode &node : m_forest.nodes) {
            if (node.kind != TraceKind::ToolCall || insideSubAgent(node))
                continue;
            for (int child : node.children) {
                const TraceNode &nested = m_forest.nodes.at(child);
                if (nested.kind != TraceKind::Turn)
                    continue;
                if (auto match
                    = inPart(nested, messageOfCall(m_transcript, node.data<ToolCallData>().call.id)))
                    return match;
            }
        }
        return std::nullopt;
    }

    // The agents that took part: a turn's agent, an agent handed to, an agent asked.
    std::optional<TranscriptMatch> inAgentNames() const
    {
        for (const TraceNode &node : m_forest.nodes) {
            if (const auto *turn = std::get_if<TurnData>(&node.payload); turn && contains(turn->agentName)) {
                const int message = node.parent >= 0 ? callMessageAbove(node) : questionOf(*turn);
                return TranscriptMatch{
                    turn->agentName + u" › "_s + turn->input.simplified().left(snippetAfter), message};
            }
            if (const auto *handoff = std::get_if<HandoffData>(&node.payload);
                handoff && contains(handoff->target))
                return TranscriptMatch{u"→ "_s + handoff->target + u": "_s + handoff->reason.simplified(),
                                       messageOfCall(m_transcript, handoff->toolCallId)};
        }
        return std::nullopt;
    }

private:
    bool contains(const QString &text) const { return text.contains(m_text, Qt::CaseInsensitive); }

    bool insideSubAgent(const TraceNode &node) const
    {
        for (int up = node.parent; up >= 0; up = m_forest.nodes.at(up).parent) {
            if (m_forest.nodes.at(up).kind == TraceKind::ToolCall)
                return true;
        }
        return false;
    }

    // The message of the outermost tool call above \a node: the one the chat shows.
    int callMessageAbove(const TraceNode &node) const
    {
        int outermost = -1;
        for (int up = node.parent; up >= 0; up = m_forest.nodes.at(up).parent) {
            if (m_forest.nodes.at(up).kind == TraceKind::ToolCall)
                outermost = up;
        }
        return outermost < 0
                   ? -1
                   : messageOfCall(m_transcript, m_forest.nodes.at(outermost).data<ToolCallData>().call.id);
    }

    int questionOf(const TurnData &turn) const
    {
        const int at = turn.messagesBefore ? int(*turn.messagesBefore) : -1;
        return at >= 0 && at < m_transcript.messages.size() ? at : -1;
    }

    std::optional<TranscriptMatch> inPart(const TraceNode &part, int message) const
    {
        const QString agent = part.data<TurnData>().agentName;
        QList<int> pending{part.id};
        while (!pending.isEmpty()) {
            const TraceNode &node = m_forest.nodes.at(pending.takeFirst());
            for (const QString &said : textsOf(node)) {
                const qsizetype at = said.indexOf(m_text, 0, Qt::CaseInsensitive);
                if (at >= 0)
                    return TranscriptMatch{
                        agent + u" › "_s + TranscriptSearch::snippetAround(said, at, m_text.size()), message};
            }
            pending.append(node.children);
        }
        return std::nullopt;
    }

    const Transcript &m_transcript;
    const TraceForest &m_forest;
    const QString &m_text;
};

} // namespace

std::optional<TranscriptMatch> TranscriptSearch::find(const Transcript &transcript, const TraceForest *trace,
                                                      const QString &text)
{
    if (text.isEmpty())
        return std::nullopt;
    for (qsizetype i = 0; i < transcript.messages.size(); ++i) {
        const QString &message = transcript.messages.at(i).text;
        const qsizetype at = message.indexOf(text, 0, Qt::CaseInsensitive);
        if (at >= 0)
            return TranscriptMatch{snippetAround(message, at, text.size()), int(i)};
    }
    if (!trace)
        return std::nullopt;
    const ForestSearch search(transcript, *trace, text);
    if (auto match = search.inSubAgents())
        return match;
    return search.inAgentNames();
}

QString TranscriptSearch::snippetAround(const QString &text, qsizetype start, qsizetype length)
{
    qsizetype from = std::max<qsizetype>(0, start - snippetBefore);
    qsizetype to = std::min(text.size(), start + length + snippetAfter);
    // Never split a surrogate pair.
    if (from > 0 && text.at(from).isLowSurrogate())
        --from;
    if (to < text.size() && text.at(to).isLowSurrogate())
        ++to;
    QString snippet = text.mid(from, to - from).simplified();
    if (from > 0)
        snippet.prepend(u'…');
    if (to < text.size())
        snippet.append(u'…');
    return snippet;
}

} // namespace Loopscope
