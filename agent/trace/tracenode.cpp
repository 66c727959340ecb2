#include "agent/trace/tracenode.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

// These names are written into saved traces: never rename one, only add.
QString traceKindName(TraceKind kind)
{
    switch (kind) {
    case TraceKind::Turn: return u"turn"_s;
    case TraceKind::Iteration: return u"iteration"_s;
    case TraceKind::ModelCall: return u"model_call"_s;
    case TraceKind::Retry: return u"retry"_s;
    case TraceKind::ToolCall: return u"tool_call"_s;
    case TraceKind::ShieldCheck: return u"shield_check"_s;
    case TraceKind::Reflection: return u"reflection"_s;
    case TraceKind::Summary: return u"summary"_s;
    case TraceKind::Handoff: return u"handoff"_s;
    case TraceKind::Error: return u"error"_s;
    }
    return {};
}

std::optional<TraceKind> traceKindFromName(const QString &name)
{
    for (auto kind : {TraceKind::Turn, TraceKind::Iteration, TraceKind::ModelCall, TraceKind::Retry,
                      TraceKind::ToolCall, TraceKind::ShieldCheck, TraceKind::Reflection, TraceKind::Summary,
                      TraceKind::Handoff, TraceKind::Error}) {
        if (traceKindName(kind) == name)
            return kind;
    }
    return std::nullopt;
}

QString traceStatusName(TraceStatus status)
{
    switch (status) {
    case TraceStatus::Running: return u"running"_s;
    case TraceStatus::Ok: return u"ok"_s;
    case TraceStatus::Error: return u"error"_s;
    case TraceStatus::Cancelled: return u"cancelled"_s;
    case TraceStatus::Blocked: return u"blocked"_s;
    case TraceStatus::Denied: return u"denied"_s;
    case TraceStatus::Skipped: return u"skipped"_s;
    }
    return {};
}

std::optional<TraceStatus> traceStatusFromName(const QString &name)
{
    for (auto status : {TraceStatus::Running, TraceStatus::Ok, TraceStatus::Error, TraceStatus::Cancelled,
                        TraceStatus::Blocked, TraceStatus::Denied, TraceStatus::Skipped}) {
        if (traceStatusName(status) == name)
            return status;
    }
    return std::nullopt;
}

} // namespace Loopscope
