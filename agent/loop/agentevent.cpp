#include "agent/loop/agentevent.h"

#include <array>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// In the order of AgentEvent::Kind; the names are the `event` field of the JSON Lines format.
constexpr std::array kindNames{
    u"turn_started",  u"iteration_started", u"model_request", u"text_delta", u"model_response", u"tool_call",
    u"tool_progress", u"tool_result",       u"retry",         u"error",      u"shield_blocked", u"reflection",
    u"summary",       u"handoff",           u"compaction",    u"finished",
};
static_assert(kindNames.size() == std::size_t(AgentEvent::Kind::TurnFinished) + 1,
              "every AgentEvent::Kind needs a name");

void insertUsage(QJsonObject &json, const TokenUsage &usage)
{
    json.insert(u"inputTokens"_s, usage.inputTokens);
    json.insert(u"outputTokens"_s, usage.outputTokens);
}

void insertPayload(QJsonObject &json, std::monostate)
{
    Q_UNUSED(json);
}

void insertPayload(QJsonObject &json, const IterationStartedInfo &info)
{
    json.insert(u"maxIterations"_s, info.maxIterations);
    json.insert(u"wrapUpNote"_s, info.wrapUpNote);
    json.insert(u"toolsOffered"_s, info.toolsOffered);
}

void insertPayload(QJsonObject &json, const ModelRequestInfo &info)
{
    json.insert(u"messages"_s, info.messages);
    json.insert(u"tools"_s, info.tools);
    json.insert(u"toolChoice"_s, toolChoiceName(info.toolChoice));
    json.insert(u"edited"_s, info.edited);
}

void insertPayload(QJsonObject &json, const ModelResponseInfo &info)
{
    json.insert(u"finishReason"_s, finishReasonName(info.finishReason));
    json.insert(u"toolCalls"_s, info.toolCalls);
    insertUsage(json, info.usage);
}

void insertPayload(QJsonObject &json, const RetryInfo &info)
{
    json.insert(u"attempt"_s, info.attempt);
    json.insert(u"httpStatus"_s, info.httpStatus);
    json.insert(u"retryInMs"_s, info.retryInMs);
}

void insertPayload(QJsonObject &json, const ShieldInfo &info)
{
    json.insert(u"stage"_s, shieldStageName(info.stage));
    json.insert(u"shield"_s, info.shield);
}

void insertPayload(QJsonObject &json, const ToolResultInfo &info)
{
    json.insert(u"status"_s, traceStatusName(info.status));
}

void insertPayload(QJsonObject &json, const ErrorInfo &info)
{
    json.insert(u"code"_s, info.code);
}

void insertPayload(QJsonObject &json, const HandoffInfo &info)
{
    json.insert(u"target"_s, info.target);
}

void insertPayload(QJsonObject &json, const CompactionInfo &info)
{
    json.insert(u"strategy"_s, info.strategy);
    json.insert(u"contextWindow"_s, info.window);
    json.insert(u"tokensBefore"_s, info.tokensBefore);
    json.insert(u"tokensAfter"_s, info.tokensAfter);
}

void insertPayload(QJsonObject &json, const TurnFinishedInfo &info)
{
    json.insert(u"outcome"_s, turnOutcomeName(info.outcome));
    json.insert(u"iterations"_s, info.iterations);
    insertUsage(json, info.usage);
}

} // namespace

QString agentEventKindName(AgentEvent::Kind kind)
{
    const auto index = std::size_t(kind);
    return index < kindNames.size() ? QString::fromUtf16(kindNames[index]) : QString();
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
    if (!agent.isEmpty())
        json.insert(u"agent"_s, agent);
    if (depth > 0)
        json.insert(u"depth"_s, depth);
    std::visit([&json](const auto &info) { insertPayload(json, info); }, payload);
    return json;
}

} // namespace Loopscope
