#pragma once

#include "agent/conversation/message.h"
#include "agent/loop/turnresult.h"
#include "agent/model/modelrequest.h"
#include "agent/safety/shield.h"
#include "agent/trace/tracenode.h"

#include <QJsonObject>
#include <QString>

#include <variant>

namespace Loopscope {

struct IterationStartedInfo
{
    int maxIterations = 0;
    bool wrapUpNote = false;
    bool toolsOffered = false;
    bool operator==(const IterationStartedInfo &) const = default;
};

struct ModelRequestInfo
{
    int messages = 0;
    int tools = 0;
    ToolChoice toolChoice = ToolChoice::Auto;
    bool edited = false;
    bool operator==(const ModelRequestInfo &) const = default;
};

struct ModelResponseInfo
{
    FinishReason finishReason = FinishReason::Stop;
    int toolCalls = 0;
    TokenUsage usage;
    bool operator==(const ModelResponseInfo &) const = default;
};

struct RetryInfo
{
    int attempt = 0;
    int httpStatus = 0;
    qint64 retryInMs = 0;
    bool operator==(const RetryInfo &) const = default;
};

struct ShieldInfo
{
    ShieldStage stage = ShieldStage::Input;
    QString shield;
    bool operator==(const ShieldInfo &) const = default;
};

struct ToolResultInfo
{
    TraceStatus status = TraceStatus::Ok;
    bool operator==(const ToolResultInfo &) const = default;
};

struct ErrorInfo
{
    QString code;
    bool operator==(const ErrorInfo &) const = default;
};

struct HandoffInfo
{
    QString target;
    bool operator==(const HandoffInfo &) const = default;
};

struct CompactionInfo
{
    QString strategy;
    qint64 window = 0;
    qint64 tokensBefore = 0;
    qint64 tokensAfter = 0;
    bool operator==(const CompactionInfo &) const = default;
};

struct TurnFinishedInfo
{
    TurnOutcome outcome = TurnOutcome::Answered;
    int iterations = 0;
    TokenUsage usage;
    bool operator==(const TurnFinishedInfo &) const = default;
};

// What an event carries beyond the common fields; std::monostate for the kinds that carry nothing more.
using AgentEventPayload
    = std::variant<std::monostate, IterationStartedInfo, ModelRequestInfo, ModelResponseInfo, RetryInfo,
                   ShieldInfo, ToolResultInfo, ErrorInfo, HandoffInfo, CompactionInfo, TurnFinishedInfo>;

/*!
    One thing that happened in the loop, as a value: what the UI animates, what
    `loopscope run --events` writes as a JSON line, what tests compare.
*/
struct AgentEvent
{
    enum class Kind {
        TurnStarted,
        IterationStarted,
        ModelRequest,
        TextDelta,
        ModelResponse,
        ToolCall,
        ToolProgress,
        ToolResult,
        Retry,
        Error,
        ShieldBlocked,
        Reflection,
        Summary,
        Handoff,
        Compaction, // a request left part of the history out to fit the context window
        TurnFinished,
    };

    Kind kind = Kind::TurnStarted;
    qint64 timeUs = 0;
    int iteration = 0;
    int traceNode = -1;
    QString text;      // delta, answer, result, error or reason
    ToolCall toolCall; // ToolCall, ToolProgress, ToolResult, Handoff
    bool isError = false;
    AgentEventPayload payload; // kind-specific extras
    QString agent;             // the agent whose part of the turn it happened in
    // 0: the turn's own agents; 1: a sub-agent one of them asked as a tool (ask_<name>), 2: one that
    // sub-agent asked, ... Its events come as they happen, before the tool result with its answer.
    int depth = 0;

    // The payload if it is a T, else null.
    template<typename T>
    const T *payloadAs() const
    {
        return std::get_if<T>(&payload);
    }

    bool operator==(const AgentEvent &) const = default;
    QJsonObject toJson() const;
};

QString agentEventKindName(AgentEvent::Kind kind);

} // namespace Loopscope
