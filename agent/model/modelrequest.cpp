#include "agent/model/modelrequest.h"

#include "agent/conversation/enumnames.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Loopscope {

QJsonObject ToolSchema::toJson() const
{
    return {{u"name"_s, name}, {u"description"_s, description}, {u"parameters"_s, parameters}};
}

ToolSchema ToolSchema::fromJson(const QJsonObject &json)
{
    return {json.value(u"name"_s).toString(), json.value(u"description"_s).toString(),
            json.value(u"parameters"_s).toObject()};
}

constexpr EnumName<ToolChoice> ToolChoiceNames[] = {
    {ToolChoice::Auto, u"auto"},
    {ToolChoice::None, u"none"},
    {ToolChoice::Required, u"required"},
};

QString toolChoiceName(ToolChoice choice)
{
    return nameOf(ToolChoiceNames, choice);
}

static ToolChoice toolChoiceFromName(const QString &name)
{
    return valueNamed(ToolChoiceNames, name).value_or(ToolChoice::Auto);
}

QJsonObject ModelOptions::toJson() const
{
    QJsonObject json{{u"model"_s, model}, {u"stream"_s, stream}};
    if (temperature)
        json.insert(u"temperature"_s, *temperature);
    if (topP)
        json.insert(u"topP"_s, *topP);
    if (maxOutputTokens)
        json.insert(u"maxOutputTokens"_s, *maxOutputTokens);
    if (contextWindow)
        json.insert(u"contextWindow"_s, *contextWindow);
    return json;
}

ModelOptions ModelOptions::fromJson(const QJsonObject &json)
{
    ModelOptions options;
    options.model = json.value(u"model"_s).toString();
    options.stream = json.value(u"stream"_s).toBool(true);
    if (json.contains(u"temperature"_s))
        options.temperature = json.value(u"temperature"_s).toDouble();
    if (json.contains(u"topP"_s))
        options.topP = json.value(u"topP"_s).toDouble();
    if (json.contains(u"maxOutputTokens"_s))
        options.maxOutputTokens = json.value(u"maxOutputTokens"_s).toInt();
    if (json.contains(u"contextWindow"_s))
        options.contextWindow = json.value(u"contextWindow"_s).toInteger();
    return options;
}

QJsonObject ModelRequest::toJson() const
{
    QJsonArray messageArray;
    for (const Message &m : messages)
        messageArray.append(m.toJson());
    QJsonArray toolArray;
    for (const ToolSchema &tool : tools)
        toolArray.append(tool.toJson());
    return {{u"messages"_s, messageArray},
            {u"tools"_s, toolArray},
            {u"toolChoice"_s, toolChoiceName(toolChoice)},
            {u"options"_s, options.toJson()}};
}

ModelRequest ModelRequest::fromJson(const QJsonObject &json)
{
    ModelRequest request;
    for (const QJsonValue &m : json.value(u"messages"_s).toArray())
        request.messages.append(Message::fromJson(m.toObject()));
    for (const QJsonValue &t : json.value(u"tools"_s).toArray())
        request.tools.append(ToolSchema::fromJson(t.toObject()));
    request.toolChoice = toolChoiceFromName(json.value(u"toolChoice"_s).toString());
    request.options = ModelOptions::fromJson(json.value(u"options"_s).toObject());
    return request;
}

constexpr EnumName<FinishReason> FinishReasonNames[] = {
    {FinishReason::Stop, u"stop"},     {FinishReason::ToolCalls, u"tool_calls"},
    {FinishReason::Length, u"length"}, {FinishReason::ContentFilter, u"content_filter"},
    {FinishReason::Other, u"other"},
};

QString finishReasonName(FinishReason reason)
{
    return nameOf(FinishReasonNames, reason);
}

FinishReason finishReasonFromName(const QString &name)
{
    return valueNamed(FinishReasonNames, name).value_or(FinishReason::Other);
}

QJsonObject ModelResponse::toJson() const
{
    QJsonArray calls;
    for (const ToolCall &call : toolCalls)
        calls.append(call.toJson());
    QJsonObject json{{u"text"_s, text},
                     {u"toolCalls"_s, calls},
                     {u"finishReason"_s, finishReasonName(finishReason)},
                     {u"providerFinishReason"_s, providerFinishReason},
                     {u"usage"_s, usage.toJson()},
                     {u"model"_s, model},
                     {u"streamedChunks"_s, streamedChunks}};
    if (!raw.isUndefined())
        json.insert(u"raw"_s, raw);
    return json;
}

ModelResponse ModelResponse::fromJson(const QJsonObject &json)
{
    ModelResponse response;
    response.text = json.value(u"text"_s).toString();
    for (const QJsonValue &call : json.value(u"toolCalls"_s).toArray())
        response.toolCalls.append(ToolCall::fromJson(call.toObject()));
    response.finishReason = finishReasonFromName(json.value(u"finishReason"_s).toString());
    response.providerFinishReason = json.value(u"providerFinishReason"_s).toString();
    response.usage = TokenUsage::fromJson(json.value(u"usage"_s).toObject());
    response.model = json.value(u"model"_s).toString();
    response.streamedChunks = json.value(u"streamedChunks"_s).toInt();
    response.raw = json.value(u"raw"_s);
    return response;
}

QJsonObject ModelAttempt::toJson() const
{
    QJsonObject json{{u"number"_s, number},         {u"startedUs"_s, startedUs}, {u"endedUs"_s, endedUs},
                     {u"httpStatus"_s, httpStatus}, {u"error"_s, error},         {u"retryInMs"_s, retryInMs},
                     {u"request"_s, request}};
    if (!response.isUndefined())
        json.insert(u"response"_s, response);
    return json;
}

ModelAttempt ModelAttempt::fromJson(const QJsonObject &json)
{
    ModelAttempt attempt;
    attempt.number = json.value(u"number"_s).toInt(1);
    attempt.startedUs = json.value(u"startedUs"_s).toInteger();
    attempt.endedUs = json.value(u"endedUs"_s).toInteger();
    attempt.httpStatus = json.value(u"httpStatus"_s).toInt();
    attempt.error = json.value(u"error"_s).toString();
    attempt.retryInMs = json.value(u"retryInMs"_s).toInteger(-1);
    attempt.request = json.value(u"request"_s).toObject();
    attempt.response = json.value(u"response"_s);
    return attempt;
}

} // namespace Loopscope
