#include "agent/trace/tracenode.h"

#include "agent/conversation/enumnames.h"

#include <QJsonObject>
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
    {TraceKind::McpAuth, u"mcp_auth"},
};

constexpr EnumName<TraceStatus> TraceStatusNames[] = {
    {TraceStatus::Running, u"running"}, {TraceStatus::Ok, u"ok"},
    {TraceStatus::Error, u"error"},     {TraceStatus::Cancelled, u"cancelled"},
    {TraceStatus::Blocked, u"blocked"}, {TraceStatus::Denied, u"denied"},
    {TraceStatus::Skipped, u"skipped"}, {TraceStatus::Limited, u"limited"},
};

QJsonObject ModelCallVariant::toJson() const
{
    return QJsonObject{{u"request"_s, request.toJson()},
                       {u"profileName"_s, profileName},
                       {u"providerKind"_s, providerKind},
                       {u"baseUrl"_s, baseUrl},
                       {u"model"_s, model},
                       {u"response"_s, response.toJson()},
                       {u"error"_s, error},
                       {u"httpStatus"_s, httpStatus},
                       {u"startedUs"_s, startedUs},
                       {u"endedUs"_s, endedUs}};
}

ModelCallVariant ModelCallVariant::fromJson(const QJsonObject &json)
{
    ModelCallVariant variant;
    variant.request = ModelRequest::fromJson(json.value(u"request"_s).toObject());
    variant.profileName = json.value(u"profileName"_s).toString();
    variant.providerKind = json.value(u"providerKind"_s).toString();
    variant.baseUrl = json.value(u"baseUrl"_s).toString();
    variant.model = json.value(u"model"_s).toString();
    variant.response = ModelResponse::fromJson(json.value(u"response"_s).toObject());
    variant.error = json.value(u"error"_s).toString();
    variant.httpStatus = json.value(u"httpStatus"_s).toInt();
    variant.startedUs = json.value(u"startedUs"_s).toInteger();
    variant.endedUs = json.value(u"endedUs"_s).toInteger();
    return variant;
}

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
