#include "agent/trace/tracenode.h"

#include "agent/conversation/enumnames.h"

#include <QJsonArray>
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
    {TraceKind::Compaction, u"compaction"},
    {TraceKind::Retrieval, u"retrieval"},
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

QJsonObject RetrievalHit::toJson() const
{
    QJsonObject json{{u"path"_s, path},     {u"startLine"_s, startLine}, {u"endLine"_s, endLine},
                     {u"score"_s, score()}, {u"bm25"_s, bm25},           {u"text"_s, text}};
    if (cosine)
        json.insert(u"cosine"_s, *cosine);
    if (fused)
        json.insert(u"fused"_s, *fused);
    if (page)
        json.insert(u"page"_s, *page);
    if (!base.isEmpty())
        json.insert(u"base"_s, base);
    return json;
}

RetrievalHit RetrievalHit::fromJson(const QJsonObject &json)
{
    RetrievalHit hit;
    hit.base = json.value(u"base"_s).toString();
    hit.path = json.value(u"path"_s).toString();
    hit.startLine = json.value(u"startLine"_s).toInt();
    hit.endLine = json.value(u"endLine"_s).toInt();
    hit.bm25 = json.value(u"bm25"_s).toDouble();
    if (const QJsonValue cosine = json.value(u"cosine"_s); cosine.isDouble())
        hit.cosine = cosine.toDouble();
    if (const QJsonValue fused = json.value(u"fused"_s); fused.isDouble())
        hit.fused = fused.toDouble();
    hit.text = json.value(u"text"_s).toString();
    if (const int page = json.value(u"page"_s).toInt(); page > 0)
        hit.page = page;
    return hit;
}

QJsonObject RetrievalData::toJson() const
{
    QJsonArray passages;
    for (const RetrievalHit &hit : hits)
        passages.append(hit.toJson());
    QJsonObject json{{u"query"_s, query},
                     {u"bases"_s, QJsonArray::fromStringList(bases)},
                     {u"topK"_s, topK},
                     {u"hits"_s, passages},
                     {u"searchUs"_s, searchUs}};
    if (!embeddingModel.isEmpty())
        json.insert(u"embeddingModel"_s, embeddingModel);
    if (embeddingUs > 0)
        json.insert(u"embeddingUs"_s, embeddingUs);
    if (!error.isEmpty())
        json.insert(u"error"_s, error);
    return json;
}

RetrievalData RetrievalData::fromJson(const QJsonObject &json)
{
    RetrievalData data;
    data.query = json.value(u"query"_s).toString();
    for (const QJsonValue &base : json.value(u"bases"_s).toArray())
        data.bases.append(base.toString());
    data.embeddingModel = json.value(u"embeddingModel"_s).toString();
    data.topK = json.value(u"topK"_s).toInt();
    for (const QJsonValue &hit : json.value(u"hits"_s).toArray())
        data.hits.append(RetrievalHit::fromJson(hit.toObject()));
    data.embeddingUs = json.value(u"embeddingUs"_s).toInteger();
    data.searchUs = json.value(u"searchUs"_s).toInteger();
    data.error = json.value(u"error"_s).toString();
    return data;
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
