#include "agent/providers/openaiprotocol.h"

#include "agent/providers/jsontextwriter.h"
#include "agent/providers/toolcallaccumulator.h"
#include "agent/providers/toolresulttext.h"
#include "agent/wire/sseparser.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

FinishReason finishReasonFromOpenAi(const QString &reason, bool hasToolCalls)
{
    if (hasToolCalls || reason == u"tool_calls" || reason == u"function_call")
        return FinishReason::ToolCalls;
    if (reason == u"length")
        return FinishReason::Length;
    if (reason == u"content_filter")
        return FinishReason::ContentFilter;
    if (reason == u"stop" || reason.isEmpty())
        return FinishReason::Stop;
    return FinishReason::Other;
}

// Arguments are a JSON string by the spec; some servers send the object itself.
QString argumentsText(const QJsonValue &arguments)
{
    if (arguments.isString())
        return arguments.toString();
    if (arguments.isObject())
        return QString::fromUtf8(QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact));
    return {};
}

TokenUsage usageFrom(const QJsonObject &usage)
{
    // Cached prompt tokens are part of prompt_tokens; the cache is written for free.
    const qint64 cached
        = usage.value(u"prompt_tokens_details"_s).toObject().value(u"cached_tokens"_s).toInteger();
    return {usage.value(u"prompt_tokens"_s).toInteger(), usage.value(u"completion_tokens"_s).toInteger(),
            cached, 0};
}

QString errorText(const QJsonValue &error)
{
    if (error.isString())
        return error.toString();
    const QJsonObject object = error.toObject();
    const QString message = object.value(u"message"_s).toString();
    return message.isEmpty() ? QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact))
                             : message;
}

class OpenAiStreamDecoder final : public ResponseDecoder
{
public:
    QString feed(QByteArrayView bytes, StreamSink &sink) override
    {
        m_parser.feed(bytes);
        if (m_parser.hasError())
            return m_parser.errorString();
        const QList<SseEvent> events = m_parser.takeEvents();
        for (const SseEvent &event : events) {
            ++m_chunks;
            if (event.data == u"[DONE]") {
                m_done = true;
                m_recorded.append(u"[DONE]"_s);
                continue;
            }
            QJsonParseError parseError;
            const QJsonDocument document = QJsonDocument::fromJson(event.data.toUtf8(), &parseError);
            if (!document.isObject()) {
                m_recorded.append(event.data);
                return QObject::tr("The provider sent a malformed stream chunk (%1): %2")
                    .arg(parseError.errorString(), event.data.left(200));
            }
            const QJsonObject chunk = document.object();
            m_recorded.append(chunk);
            if (const QString error = consume(chunk, sink); !error.isEmpty())
                return error;
        }
        return {};
    }

    std::variant<ModelResponse, QString> finish() override
    {
        m_parser.finish();
        if (!m_done && m_finishReason.isNull())
            return QObject::tr("The stream ended before the response was complete.");
        m_response.toolCalls = m_calls.calls();
        m_response.providerFinishReason = m_finishReason;
        m_response.finishReason = finishReasonFromOpenAi(m_finishReason, !m_response.toolCalls.isEmpty());
        return m_response;
    }

    int chunkCount() const override { return m_chunks; }
    QJsonValue recordedResponse() const override { return m_recorded; }

private:
    QString consume(const QJsonObject &chunk, StreamSink &sink)
    {
        if (chunk.contains(u"error"_s))
            return QObject::tr("The provider reported an error in the stream: %1")
                .arg(errorText(chunk.value(u"error"_s)));
        if (const QString model = chunk.value(u"model"_s).toString(); !model.isEmpty())
            m_response.model = model;
        if (chunk.value(u"usage"_s).isObject())
            m_response.usage = usageFrom(chunk.value(u"usage"_s).toObject());

        const QJsonObject choice = chunk.value(u"choices"_s).toArray().at(0).toObject();
        const QJsonObject delta = choice.value(u"delta"_s).toObject();
        if (const QString text = delta.value(u"content"_s).toString(); !text.isEmpty()) {
            m_response.text += text;
            sink.textDelta(text);
        }
        const QJsonArray toolCalls = delta.value(u"tool_calls"_s).toArray();
        for (int position = 0; position < toolCalls.size(); ++position) {
            const QJsonObject call = toolCalls.at(position).toObject();
            // Servers that send whole calls may leave out the index.
            const int index = call.value(u"index"_s).toInt(position);
            const QJsonObject function = call.value(u"function"_s).toObject();
            ToolCallDelta callDelta;
            callDelta.index = index;
            callDelta.id = call.value(u"id"_s).toString();
            callDelta.name = function.value(u"name"_s).toString();
            callDelta.argumentsFragment = argumentsText(function.value(u"arguments"_s));
            m_calls.add(index, callDelta.id, callDelta.name, callDelta.argumentsFragment);
            sink.toolCallDelta(callDelta);
        }
        const QJsonValue finishReason = choice.value(u"finish_reason"_s);
        if (finishReason.isString())
            m_finishReason = finishReason.toString();
        return {};
    }

    SseParser m_parser;
    ModelResponse m_response;
    ToolCallAccumulator m_calls;
    QString m_finishReason;
    QJsonArray m_recorded;
    int m_chunks = 0;
    bool m_done = false;
};

class OpenAiBodyDecoder final : public JsonBodyDecoder
{
public:
    OpenAiBodyDecoder()
        : JsonBodyDecoder(u"The provider"_s)
    {}

protected:
    std::variant<ModelResponse, QString> decode(const QJsonObject &body) override
    {
        if (body.contains(u"error"_s))
            return QObject::tr("The provider reported an error: %1").arg(errorText(body.value(u"error"_s)));
        const QJsonArray choices = body.value(u"choices"_s).toArray();
        if (choices.isEmpty())
            return QObject::tr("The provider's response has no choices.");

        ModelResponse response;
        response.model = body.value(u"model"_s).toString();
        response.usage = usageFrom(body.value(u"usage"_s).toObject());
        const QJsonObject choice = choices.at(0).toObject();
        const QJsonObject message = choice.value(u"message"_s).toObject();
        response.text = message.value(u"content"_s).toString();
        ToolCallAccumulator calls;
        const QJsonArray toolCalls = message.value(u"tool_calls"_s).toArray();
        for (int i = 0; i < toolCalls.size(); ++i) {
            const QJsonObject call = toolCalls.at(i).toObject();
            const QJsonObject function = call.value(u"function"_s).toObject();
            calls.add(i, call.value(u"id"_s).toString(), function.value(u"name"_s).toString(),
                      argumentsText(function.value(u"arguments"_s)));
        }
        response.toolCalls = calls.calls();
        response.providerFinishReason = choice.value(u"finish_reason"_s).toString();
        response.finishReason
            = finishReasonFromOpenAi(response.providerFinishReason, !response.toolCalls.isEmpty());
        return response;
    }
};

} // namespace

ImageLimits OpenAiProtocol::images()
{
    return {20'000'000, 0, {u"image/png"_s, u"image/jpeg"_s, u"image/webp"_s, u"image/gif"_s}};
}

namespace {

// A user message with attachments: a list of content parts, the attachments first, each a text part
// naming the file or an image_url part with a data: URL, then the message's text.
void writeUserContentParts(JsonTextWriter &json, const Message &message)
{
    json.beginArray(u"content");
    for (const Attachment &attachment : message.attachments) {
        if (!attachment.isImage()) {
            json.beginObject().string(u"type", u"text").string(u"text", AttachmentParts::text(attachment));
            json.endObject();
            continue;
        }
        const auto image = AttachmentParts::image(attachment, OpenAiProtocol::images());
        if (!image->ok()) { // only a rebuilt body meets this: HttpModelClient sends no such request
            json.beginObject().string(u"type", u"text").string(u"text", image->error).endObject();
            continue;
        }
        json.beginObject().string(u"type", u"image_url").beginObject(u"image_url");
        json.asciiString(u"url", {"data:", image->mimeType.toLatin1(), ";base64,", image->base64});
        json.endObject().endObject();
    }
    if (!message.text.isEmpty())
        json.beginObject().string(u"type", u"text").string(u"text", message.text).endObject();
    json.endArray();
}

} // namespace

QByteArray OpenAiProtocol::encodeMessageText(const Message &message)
{
    JsonTextWriter json;
    json.beginObject().string(u"role", roleName(message.role));
    switch (message.role) {
    case Message::Role::System: json.string(u"content", message.text); break;
    case Message::Role::User:
        if (message.attachments.isEmpty())
            json.string(u"content", message.text);
        else
            writeUserContentParts(json, message);
        break;
    case Message::Role::Assistant:
        // Some gateways reject "" beside tool calls; null is always accepted.
        if (message.text.isEmpty() && !message.toolCalls.isEmpty())
            json.null(u"content");
        else
            json.string(u"content", message.text);
        if (!message.toolCalls.isEmpty()) {
            json.beginArray(u"tool_calls");
            for (const ToolCall &call : message.toolCalls) {
                json.beginObject().string(u"id", call.id).string(u"type", u"function");
                json.beginObject(u"function")
                    .string(u"name", call.name)
                    .string(u"arguments", call.arguments.trimmed().isEmpty() ? u"{}"_s : call.arguments)
                    .endObject();
                json.endObject();
            }
            json.endArray();
        }
        break;
    case Message::Role::Tool:
        json.string(u"tool_call_id", message.toolCallId);
        json.string(u"content", flaglessToolResultText(message));
        break;
    }
    return json.endObject().take();
}

QJsonObject OpenAiProtocol::encodeMessage(const Message &message)
{
    return QJsonDocument::fromJson(encodeMessageText(message)).object();
}

QJsonArray OpenAiProtocol::encodeMessages(const QList<Message> &messages)
{
    QJsonArray result;
    // A tool message takes text only: a tool's images follow the results in a user message.
    for (const Message &message : withToolImagesAfterResults(messages))
        result.append(encodeMessage(message));
    return result;
}

QJsonArray OpenAiProtocol::encodeTools(const QList<ToolSchema> &tools)
{
    QJsonArray result;
    for (const ToolSchema &tool : tools) {
        result.append(QJsonObject{{u"type"_s, u"function"_s},
                                  {u"function"_s, QJsonObject{{u"name"_s, tool.name},
                                                              {u"description"_s, tool.description},
                                                              {u"parameters"_s, tool.parameters}}}});
    }
    return result;
}

namespace {

HttpCall encodeHead(const ModelRequest &request, const ProviderEndpoint &endpoint)
{
    HttpCall call;
    call.url = QUrl(joinUrl(endpoint.baseUrl, u"/chat/completions"_s));
    if (!endpoint.apiKey.isEmpty())
        call.headers.append({"Authorization"_ba, "Bearer "_ba + endpoint.apiKey.toUtf8()});
    if (request.options.stream)
        call.headers.append({"Accept"_ba, "text/event-stream"_ba});
    return call;
}

// The body but its messages: small, and the same from call to call of a turn.
QJsonObject bodyWithoutMessages(const ModelRequest &request)
{
    QJsonObject body{{u"model"_s, request.options.model}};
    if (!request.tools.isEmpty()) {
        body.insert(u"tools"_s, OpenAiProtocol::encodeTools(request.tools));
        body.insert(u"tool_choice"_s, toolChoiceName(request.toolChoice));
    }
    if (request.options.temperature)
        body.insert(u"temperature"_s, *request.options.temperature);
    if (request.options.topP)
        body.insert(u"top_p"_s, *request.options.topP);
    if (request.options.maxOutputTokens)
        body.insert(u"max_tokens"_s, *request.options.maxOutputTokens);
    body.insert(u"stream"_s, request.options.stream);
    if (request.options.stream)
        body.insert(u"stream_options"_s, QJsonObject{{u"include_usage"_s, true}});
    return body;
}

} // namespace

HttpCall OpenAiProtocol::encode(const ModelRequest &request, const ProviderEndpoint &endpoint) const
{
    HttpCall call = encodeHead(request, endpoint);
    call.body = bodyWithoutMessages(request);
    call.body.insert(u"messages"_s, encodeMessages(request.messages));
    return call;
}

HttpCall OpenAiProtocol::encodeForSending(const ModelRequest &request, const ProviderEndpoint &endpoint,
                                          EncodedMessages &cache, QByteArray *body) const
{
    // What follows the messages: the rest of the body, which always holds "model", so it is
    // "{...}" and never empty inside.
    const QByteArray tail = cache.rest(request, [&request]() -> QByteArray {
        const QByteArray rest = QJsonDocument(bodyWithoutMessages(request)).toJson(QJsonDocument::Compact);
        return "],"_ba + QByteArrayView(rest).sliced(1);
    });
    *body = cache.body("{\"messages\":[", withToolImagesAfterResults(request.messages),
                       &OpenAiProtocol::encodeMessageText, tail);
    return encodeHead(request, endpoint);
}

std::unique_ptr<ResponseDecoder> OpenAiProtocol::createDecoder(bool streaming) const
{
    if (streaming)
        return std::make_unique<OpenAiStreamDecoder>();
    return std::make_unique<OpenAiBodyDecoder>();
}

HttpCall OpenAiProtocol::encodeModelList(const ProviderEndpoint &endpoint, const QString &) const
{
    HttpCall call;
    call.url = QUrl(joinUrl(endpoint.baseUrl, u"/models"_s));
    if (!endpoint.apiKey.isEmpty())
        call.headers.append({"Authorization"_ba, "Bearer "_ba + endpoint.apiKey.toUtf8()});
    return call;
}

std::variant<ModelListPage, QString> OpenAiProtocol::decodeModelList(const QJsonObject &body) const
{
    const QJsonValue data = body.value(u"data"_s);
    if (!data.isArray())
        return QObject::tr("The model list has no \u201cdata\u201d array.");
    ModelListPage page;
    for (const QJsonValue &model : data.toArray()) {
        const QString id = model.toObject().value(u"id"_s).toString();
        if (!id.isEmpty())
            page.models.append(id);
    }
    return page;
}

} // namespace Loopscope
