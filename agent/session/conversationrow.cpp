#include "agent/session/conversationrow.h"

#include "agent/loop/agentconfig.h"

namespace Loopscope {

ConversationRow ConversationRow::message(Kind kind, const QString &text, int traceNode)
{
    ConversationRow row;
    row.kind = kind;
    row.text = text;
    row.traceNode = traceNode;
    return row;
}

ConversationRow ConversationRow::call(const ToolCall &call, int traceNode)
{
    ConversationRow row;
    row.kind = Kind::ToolCall;
    row.toolCall = call;
    row.traceNode = traceNode;
    return row;
}

QString ConversationRow::speakerOf(const QString &agent)
{
    return agent == AgentConfig().name ? QString() : agent;
}

ConversationRow ConversationRow::fromNotice(const TurnNotice &notice)
{
    ConversationRow row = message(Kind::Notice, notice.text, notice.traceNode);
    row.notice = notice.kind;
    row.retryable = notice.retryable;
    return row;
}

ConversationRow::ToolState ConversationRow::toolStateOf(std::optional<TraceStatus> status, bool isError)
{
    switch (status.value_or(isError ? TraceStatus::Error : TraceStatus::Ok)) {
    case TraceStatus::Running:
    case TraceStatus::Limited: // not a tool's status; read it as the result says
    case TraceStatus::Ok: return isError ? ToolState::Failed : ToolState::Succeeded;
    case TraceStatus::Error: return ToolState::Failed;
    case TraceStatus::Cancelled: return ToolState::Cancelled;
    case TraceStatus::Blocked: return ToolState::Blocked;
    case TraceStatus::Denied: return ToolState::Denied;
    case TraceStatus::Skipped: return ToolState::Skipped;
    }
    return ToolState::Failed;
}

} // namespace Loopscope
