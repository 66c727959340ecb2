#pragma once

#include "agent/conversation/message.h"

#include <QJsonObject>
#include <QString>

namespace Loopscope {

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
        TurnFinished,
    };

    Kind kind = Kind::TurnStarted;
    qint64 timeUs = 0;
    int iteration = 0;
    int traceNode = -1;
    QString text;      // delta, answer, result, error or reason
    ToolCall toolCall; // ToolCall, ToolProgress, ToolResult
    bool isError = false;
    QJsonObject data; // kind-specific extras

    bool operator==(const AgentEvent &) const = default;
    QJsonObject toJson() const;
};

QString agentEventKindName(AgentEvent::Kind kind);

} // namespace Loopscope
