#include "agent/loop/agentevent.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

QString agentEventKindName(AgentEvent::Kind kind)
{
    using Kind = AgentEvent::Kind;
    switch (kind) {
    case Kind::TurnStarted: return u"turn_started"_s;
    case Kind::IterationStarted: return u"iteration_started"_s;
    case Kind::ModelRequest: return u"model_request"_s;
    case Kind::TextDelta: return u"text_delta"_s;
    case Kind::ModelResponse: return u"model_response"_s;
    case Kind::ToolCall: return u"tool_call"_s;
    case Kind::ToolProgress: return u"tool_progress"_s;
    case Kind::ToolResult: return u"tool_result"_s;
    case Kind::Retry: return u"retry"_s;
    case Kind::Error: return u"error"_s;
    case Kind::ShieldBlocked: return u"shield_blocked"_s;
    case Kind::Reflection: return u"reflection"_s;
    case Kind::Summary: return u"summary"_s;
    case Kind::Handoff: return u"handoff"_s;
    case Kind::TurnFinished: return u"finished"_s;
    }
    return {};
}

QJsonObject AgentEvent::toJson() const
{
    QJsonObject json{
        {u"event"_s, agentEventKindName(kind)}, {u"timeUs"_s, timeUs}, {u"iteration"_s, iteration}};
    if (traceNode >= 0)
        json.insert(u"traceNode"_s, traceNode);
    if (!text.isEmpty())
        json.insert(u"text"_s, text);
    if (!toolCall.id.isEmpty() || !toolCall.name.isEmpty())
        json.insert(u"toolCall"_s, toolCall.toJson());
    if (isError)
        json.insert(u"isError"_s, true);
    for (auto it = data.begin(); it != data.end(); ++it)
        json.insert(it.key(), it.value());
    return json;
}

} // namespace Loopscope
