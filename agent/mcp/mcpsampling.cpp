#include "agent/mcp/mcpsampling.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Loopscope::McpSampling {

namespace {

QJsonArray blocks(const QJsonValue &content)
{
    return content.isArray() ? content.toArray() : QJsonArray{content};
}

QString blockText(const QJsonObject &block)
{
    const QString type = block.value(u"type"_s).toString();
    if (type == u"text"_s)
        return block.value(u"text"_s).toString();
    if (type == u"tool_result"_s) {
        QStringList parts;
        for (const QJsonValue &inner : blocks(block.value(u"content"_s)))
            parts.append(blockText(inner.toObject()));
        return parts.join(u'\n');
    }
    if (type == u"tool_use"_s)
        return {};
    // Images and audio: named, not sent (the provider-neutral request carries text and files).
    return u"[%1 %2]"_s.arg(type, block.value(u"mimeType"_s).toString()).trimmed();
}

ToolChoice toolChoice(const QJsonObject &choice)
{
    const QString mode = choice.value(u"mode"_s).toString();
    if (mode == u"required"_s)
        return ToolChoice::Required;
    if (mode == u"none"_s)
        return ToolChoice::None;
    return ToolChoice::Auto;
}

} // namespace

QString messageText(const QJsonObject &message)
{
    QStringList parts;
    for (const QJsonValue &block : blocks(message.value(u"content"_s))) {
        const QString text = blockText(block.toObject());
        if (!text.isEmpty())
            parts.append(text);
    }
    return parts.join(u'\n');
}

ModelRequest toModelRequest(const McpSamplingRequest &request, const ModelOptions &options)
{
    ModelRequest result;
    if (!request.systemPrompt.isEmpty())
        result.messages.append(Message::system(request.systemPrompt));
    for (const QJsonValue &value : request.messages) {
        const QJsonObject message = value.toObject();
        const bool assistant = message.value(u"role"_s).toString() == u"assistant"_s;
        QList<ToolCall> calls;
        QList<Message> results;
        QStringList text;
        for (const QJsonValue &blockValue : blocks(message.value(u"content"_s))) {
            const QJsonObject block = blockValue.toObject();
            const QString type = block.value(u"type"_s).toString();
            if (type == u"tool_use"_s) {
                ToolCall call;
                call.id = block.value(u"id"_s).toString();
                call.name = block.value(u"name"_s).toString();
                call.arguments = QString::fromUtf8(
                    QJsonDocument(block.value(u"input"_s).toObject()).toJson(QJsonDocument::Compact));
                calls.append(call);
            } else if (type == u"tool_result"_s) {
                ToolCall answered;
                answered.id = block.value(u"toolUseId"_s).toString();
                results.append(
                    Message::toolResult(answered, blockText(block), block.value(u"isError"_s).toBool()));
            } else if (const QString part = blockText(block); !part.isEmpty()) {
                text.append(part);
            }
        }
        if (assistant) {
            result.messages.append(Message::assistant(text.join(u'\n'), calls));
        } else {
            result.messages.append(results);
            if (!text.isEmpty() || results.isEmpty())
                result.messages.append(Message::user(text.join(u'\n')));
        }
    }
    for (const QJsonValue &value : request.tools) {
        const QJsonObject tool = value.toObject();
        result.tools.append({tool.value(u"name"_s).toString(), tool.value(u"description"_s).toString(),
                             tool.value(u"inputSchema"_s).toObject()});
    }
    result.toolChoice = toolChoice(request.toolChoice);
    result.options = options;
    if (request.maxTokens > 0)
        result.options.maxOutputTokens = request.maxTokens;
    if (const QJsonValue temperature = request.params.value(u"temperature"_s); temperature.isDouble())
        result.options.temperature = temperature.toDouble();
    return result;
}

QJsonObject toResult(const ModelResponse &response)
{
    QJsonArray content;
    if (!response.text.isEmpty() || response.toolCalls.isEmpty())
        content.append(QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, response.text}});
    for (const ToolCall &call : response.toolCalls) {
        content.append(QJsonObject{{u"type"_s, u"tool_use"_s},
                                   {u"id"_s, call.id},
                                   {u"name"_s, call.name},
                                   {u"input"_s, QJsonDocument::fromJson(call.arguments.toUtf8()).object()}});
    }
    QString stopReason;
    switch (response.finishReason) {
    case FinishReason::Stop: stopReason = u"endTurn"_s; break;
    case FinishReason::Length: stopReason = u"maxTokens"_s; break;
    case FinishReason::ToolCalls: stopReason = u"toolUse"_s; break;
    case FinishReason::ContentFilter:
    case FinishReason::Other: stopReason = response.providerFinishReason; break;
    }
    QJsonObject result{{u"role"_s, u"assistant"_s},
                       {u"content"_s, content.size() == 1 ? content.first() : QJsonValue(content)},
                       {u"model"_s, response.model}};
    if (!stopReason.isEmpty())
        result.insert(u"stopReason"_s, stopReason);
    return result;
}

} // namespace Loopscope::McpSampling
