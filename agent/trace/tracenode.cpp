#include "agent/trace/tracenode.h"

#include "agent/conversation/enumnames.h"
using namespace Qt::StringLiterals;

namespace Loopscope {

// These names are written into saved traces: never rename one, only add.
constexpr EnumName<TraceKind> TraceKindNames[] = {
    {TraceKind::Turn, u"turn"},
    {TraceKind::Iteration, u"iteration"},
    {TraceKind::ModelCall, u"model_call"},
    {TraceKind::Retry, u"retry"},
    {TraceKind::ToolCall, u"tool_call"},
    {TraceKind::ShieldCheck, u"shield_check"},
    {TraceKind::Reflection, u"reflection"},
    {TraceKind::Summary, u"summary"},
    {TraceKind::Handoff, u"handoff"},
    {TraceKind::Error, u"error"},
    {TraceKind::McpServer, u"mcp_server"},
    {TraceKind::Wait, u"wait"},
};

constexpr EnumName<TraceStatus> TraceStatusNames[] = {
    {TraceStatus::Running, u"running"}, {TraceStatus::Ok, u"ok"},
    {TraceStatus::Error, u"error"},     {TraceStatus::Cancelled, u"cancelled"},
    {TraceStatus::Blocked, u"blocked"}, {TraceStatus::Denied, u"denied"},
    {TraceStatus::Skipped, u"skipped"}, {TraceStatus::Limited, u"limited"},
};

QString traceKindName(TraceKind kind)
{
    return nameOf(TraceKindNames, kind);
}

std::optional<TraceKind> traceKindFromName(const QString &name)
{
    return valueNamed(TraceKindNames, name);
}

QString traceStatusName(TraceStatus status)
{
    return nameOf(TraceStatusNames, status);
}

std::optional<TraceStatus> traceStatusFromName(const QString &name)
{
    return valueNamed(TraceStatusNames, name);
}

} // namespace Loopscope
