#include "agent/providers/anthropicprotocol.h"

#include "agent/providers/toolcallaccumulator.h"
#include "agent/wire/sseparser.h"

#include <QHash>
#include <QJsonDocument>
#include <QSet>
#include <QUrlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

/*
    pause_turn is deliberately not Stop: the API paused a long turn (typically
    a server-side tool loop) and expects the accumulated assistant content to
    be sent back so it can continue. It comes back as Other with the verbatim
    reason so the agent can tell it apart and resend. The same goes for
    model_context_window_exceeded and any reason added after this was written.
*/
FinishReason finishReasonFromAnthropic(const QString &reason, bool hasToolCalls)
{
    if (reason == u"end_turn" || reason == u"stop_sequence")
        return FinishReason::Stop;
    if (reason == u"tool_use")
        return FinishReason::ToolCalls;
    if (reason == u"max_tokens")
        return FinishReason::Length;
    if (reason == u"refusal")
        return FinishReason::ContentFilter;
    if (reason.isEmpty())
        return hasToolCalls ? FinishReason::ToolCalls : FinishReason::Stop;
    return FinishReason::Other;
}

/*
    Anthropic reports cache reads and writes apart from input_tokens; their sum
    is what the prompt really was. Streamed usage is cumulative, so a reported
    value replaces the previous one; a zero input count (some compatible
    servers repeat the field as 0 in message_delta) never erases a real one.
*/
void mergeUsage(TokenUsage &usage, const QJsonObject &json)
{
    const qint64 input = json.value(u"input_tokens"_s).toInteger()
                         + json.value(u"cache_creation_input_tokens"_s).toInteger()
                         + json.value(u"cache_read_input_tokens"_s).toInteger();
    if (input > 0) {
        usage.inputTokens = input;
        usage.cacheWriteTokens = json.value(u"cache_creation_input_tokens"_s).toInteger();
        usage.cacheReadTokens = json.value(u"cache_read_input_tokens"_s).toInteger();
    }
    if (json.contains(u"output_tokens"_s))
        usage.outputTokens = json.value(u"output_tokens"_s).toInteger();
}

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}} -> "overloaded_error:
// Overloaded".
QString describeError(const QJsonObject &body)
{
    const QJsonValue error = body.value(u"error"_s);
    if (error.isString())
        return error.toString();
    const QString type = error.toObject().value(u"type"_s).toString();
    const QString message = error.toObject().value(u"message"_s).toString();
    if (!message.isEmpty())
        return type.isEmpty() ? message : type + u": "_s + message;
    if (!type.isEmpty())
        return type;
    return body.value(u"message"_s).toString();
}

class AnthropicStreamDecoder final : public ResponseDecoder
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
            QJsonParseError parseError;
            const QJsonDocument document = QJsonDocument::fromJson(event.data.toUtf8(), &parseError);
            if (!document.isObject()) {
                m_recorded.append(event.data);
                const QString reason = parseError.error == QJsonParseError::NoError
                                           ? AnthropicProtocol::tr("not a JSON object")
                                           : parseError.errorString();
                return AnthropicProtocol::tr("The provider sent a malformed \"%1\" event (%2): %3")
                    .arg(event.type, reason, event.data.left(200));
            }
            const QJsonObject data = document.object();
            m_recorded.append(data);
            // The data's own type is authoritative; a bare "data:" stream (some proxies) has no event line.
            QString type = data.value(u"type"_s).toString();
            if (type.isEmpty())
                type = event.type;
            if (event.type == u"error" || type == u"error") {
                return AnthropicProtocol::tr("The provider reported an error in the stream: %1")
                    .arg(describeError(data));
            }
            if (const QString error = consume(type, data, sink); !error.isEmpty())
                return error;
        }
        return {};
    }

    std::variant<ModelResponse, QString> finish() override
    {
        m_parser.finish();
        if (!m_complete)
            return AnthropicProtocol::tr("The stream ended before the response was complete.");
        QList<ToolCall> calls = m_calls.calls();
        for (int i = 0; i < calls.size(); ++i) {
            // A tool without parameters streams no input at all, or only "": that is {}.
            if (calls[i].arguments.trimmed().isEmpty()) {
                const QJsonObject placeholder = m_startInputs.value(i);
                calls[i].arguments = placeholder.isEmpty() ? u"{}"_s : compactJson(placeholder);
            }
        }
        m_response.toolCalls = calls;
        m_response.providerFinishReason = m_stopReason;
        m_response.finishReason = finishReasonFromAnthropic(m_stopReason, !calls.isEmpty());
        return m_response;
    }

    int chunkCount() const override { return m_chunks; }
    QJsonValue recordedResponse() const override { return m_recorded; }

private:
    enum class BlockKind { Text, ToolUse, Other };
    struct Block
    {
        BlockKind kind = BlockKind::Other;
        int callIndex = -1;
    };

    QString consume(const QString &type, const QJsonObject &data, StreamSink &sink)
    {
        if (type == u"message_start") {
            const QJsonObject message = data.value(u"message"_s).toObject();
            if (const QString model = message.value(u"model"_s).toString(); !model.isEmpty())
                m_response.model = model;
            mergeUsage(m_response.usage, message.value(u"usage"_s).toObject());
        } else if (type == u"content_block_start") {
            startBlock(data.value(u"index"_s).toInt(int(m_blocks.size())),
                       data.value(u"content_block"_s).toObject(), sink);
        } else if (type == u"content_block_delta") {
            applyDelta(data.value(u"index"_s).toInt(-1), data.value(u"delta"_s).toObject(), sink);
        } else if (type == u"message_delta") {
            const QJsonValue stopReason = data.value(u"delta"_s).toObject().value(u"stop_reason"_s);
            if (stopReason.isString())
                m_stopReason = stopReason.toString();
            mergeUsage(m_response.usage, data.value(u"usage"_s).toObject());
        } else if (type == u"message_stop") {
            m_complete = true;
        }
        // content_block_stop needs nothing (inputs are settled in finish()), ping is a keep-alive,
        // and the API may add event types at any time: all are ignored.
        return {};
    }

    void startBlock(int index, const QJsonObject &block, StreamSink &sink)
    {
        const QString blockType = block.value(u"type"_s).toString();
        if (blockType == u"text") {
            m_blocks.insert(index, {BlockKind::Text, -1});
            // The API starts text blocks empty; a compatible server may not.
            appendText(block.value(u"text"_s).toString(), sink);
        } else if (blockType == u"tool_use") {
            // Calls are numbered among calls, not among blocks, as ToolCallDelta.index promises.
            const int callIndex = m_nextCallIndex++;
            m_blocks.insert(index, {BlockKind::ToolUse, callIndex});
            ToolCallDelta delta;
            delta.index = callIndex;
            delta.id = block.value(u"id"_s).toString();
            delta.name = block.value(u"name"_s).toString();
            m_calls.add(callIndex, delta.id, delta.name, {});
            m_startInputs.insert(callIndex, block.value(u"input"_s).toObject());
            sink.toolCallDelta(delta);
        } else {
            // thinking, redacted_thinking, server_tool_use and their results: not ours to act on.
            m_blocks.insert(index, {BlockKind::Other, -1});
        }
    }

    void applyDelta(int index, const QJsonObject &delta, StreamSink &sink)
    {
        const QString deltaType = delta.value(u"type"_s).toString();
        const auto found = m_blocks.constFind(index);
        const BlockKind kind = found == m_blocks.cend() ? BlockKind::Text : found->kind;
        if (deltaType == u"text_delta" && kind == BlockKind::Text) {
            appendText(delta.value(u"text"_s).toString(), sink);
        } else if (deltaType == u"input_json_delta" && kind == BlockKind::ToolUse) {
            const QString fragment = delta.value(u"partial_json"_s).toString();
            if (fragment.isEmpty())
                return; // The first fragment is often "".
            m_calls.add(found->callIndex, {}, {}, fragment);
            sink.toolCallDelta({found->callIndex, {}, {}, fragment});
        }
        // thinking_delta, signature_delta, citations_delta, server tool input: ignored.
    }

    void appendText(const QString &text, StreamSink &sink)
    {
        if (text.isEmpty())
            return;
        m_response.text += text;
        sink.textDelta(text);
    }

    SseParser m_parser;
    ModelResponse m_response;
    ToolCallAccumulator m_calls;
    QHash<int, Block> m_blocks;            // by the API's content block index
    QHash<int, QJsonObject> m_startInputs; // by call index: the input content_block_start carried
    int m_nextCallIndex = 0;
    QString m_stopReason;
    QJsonArray m_recorded;
    int m_chunks = 0;
    bool m_complete = false;
};

class AnthropicBodyDecoder final : public JsonBodyDecoder
{
public:
    AnthropicBodyDecoder()
        : JsonBodyDecoder(u"The provider"_s)
    {}

protected:
    std::variant<ModelResponse, QString> decode(const QJsonObject &body) override
    {
        if (body.value(u"type"_s).toString() == u"error" || body.contains(u"error"_s))
            return AnthropicProtocol::tr("The provider reported an error: %1").arg(describeError(body));
        if (!body.value(u"content"_s).isArray())
            return AnthropicProtocol::tr("The provider's response has no content.");

        ModelResponse response;
        response.model = body.value(u"model"_s).toString();
        mergeUsage(response.usage, body.value(u"usage"_s).toObject());
        ToolCallAccumulator calls;
        int callIndex = 0;
        const QJsonArray content = body.value(u"content"_s).toArray();
        for (const QJsonValue &value : content) {
            const QJsonObject block = value.toObject();
            const QString type = block.value(u"type"_s).toString();
            if (type == u"text") {
                response.text += block.value(u"text"_s).toString();
            } else if (type == u"tool_use") {
                const QJsonValue input = block.value(u"input"_s);
                calls.add(callIndex++, block.value(u"id"_s).toString(), block.value(u"name"_s).toString(),
                          input.isObject() ? compactJson(input.toObject()) : u"{}"_s);
            }
        }
        response.toolCalls = calls.calls();
        response.providerFinishReason = body.value(u"stop_reason"_s).toString();
        response.finishReason
            = finishReasonFromAnthropic(response.providerFinishReason, !response.toolCalls.isEmpty());
        return response;
    }
};

// The API rejects text blocks that are empty or only whitespace.
bool hasText(const QString &text)
{
    return !text.trimmed().isEmpty();
}

QJsonObject textBlock(const QString &text)
{
    return {{u"type"_s, u"text"_s}, {u"text"_s, text}};
}

// tool_use ids must match ^[a-zA-Z0-9_-]+$; ids from other providers may not.
bool isValidToolUseId(const QString &id)
{
    if (id.isEmpty())
        return false;
    return std::all_of(id.cbegin(), id.cend(), [](QChar c) {
        return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_'
               || c == u'-';
    });
}

// An image as an image block with a base64 source, any other attachment as a text block naming it.
QJsonObject attachmentBlock(const Attachment &attachment)
{
    if (!attachment.isImage())
        return textBlock(AttachmentParts::text(attachment));
    const auto image = AttachmentParts::image(attachment, AnthropicProtocol::images());
    if (!image->ok()) // only a rebuilt body meets this: HttpModelClient sends no such request
        return textBlock(image->error);
    return {{u"type"_s, u"image"_s},
            {u"source"_s, QJsonObject{{u"type"_s, u"base64"_s},
                                      {u"media_type"_s, image->mimeType},
                                      {u"data"_s, QString::fromLatin1(image->base64)}}}};
}

// Arguments that are not a JSON object would make the whole request invalid; {} keeps it sendable.
QJsonObject toolInput(const QString &arguments)
{
    const QJsonDocument document = QJsonDocument::fromJson(arguments.toUtf8());
    return document.isObject() ? document.object() : QJsonObject();
}

// One wire message being assembled. Tool results are kept apart so that
// they can be put first, where the API requires them.
struct WireMessage
{
    QString role;
    QJsonArray toolResults;
    QJsonArray blocks;
};

} // namespace

QString AnthropicProtocol::systemPrompt(const QList<Message> &messages)
{
    QStringList parts;
    for (const Message &message : messages) {
        if (message.role == Message::Role::System && hasText(message.text))
            parts.append(message.text);
    }
    return parts.join(u"\n\n"_s);
}

ImageLimits AnthropicProtocol::images()
{
    return {
        5 * 1024 * 1024 / 4 * 3, 8000, {u"image/png"_s, u"image/jpeg"_s, u"image/gif"_s, u"image/webp"_s}};
}

QJsonArray AnthropicProtocol::encodeMessages(const QList<Message> &messages)
{
    QList<WireMessage> wire;
    // Consecutive same-role turns become one message: the API needs strict alternation.
    const auto turn = [&wire](const QString &role) -> WireMessage & {
        if (wire.isEmpty() || wire.last().role != role)
            wire.append({role, {}, {}});
        return wire.last();
    };

    // Ids sent so far, and per id in the history the wire ids still awaiting a
    // result, oldest first: a result answers the earliest unanswered call of
    // its id, so duplicated ids (some compatible endpoints reuse them) still pair.
    QSet<QString> usedIds;
    QHash<QString, QStringList> unanswered;

    for (const Message &message : messages) {
        switch (message.role) {
        case Message::Role::System: break; // sent as the top-level "system" field
        case Message::Role::User: {
            // Attachments first, then the question: what the documentation recommends for images.
            QJsonArray blocks;
            for (const Attachment &attachment : message.attachments)
                blocks.append(attachmentBlock(attachment));
            if (hasText(message.text))
                blocks.append(textBlock(message.text));
            if (!blocks.isEmpty()) {
                QJsonArray &target = turn(u"user"_s).blocks;
                for (const QJsonValue &block : std::as_const(blocks))
                    target.append(block);
            }
            break;
        }
        case Message::Role::Assistant: {
            QJsonArray blocks;
            if (hasText(message.text))
                blocks.append(textBlock(message.text));
            for (const ToolCall &call : message.toolCalls) {
                QString id = call.id;
                while (!isValidToolUseId(id) || usedIds.contains(id))
                    id = u"toolu_"_s + ToolCallAccumulator::syntheticId();
                usedIds.insert(id);
                unanswered[call.id].append(id);
                blocks.append(QJsonObject{{u"type"_s, u"tool_use"_s},
                                          {u"id"_s, id},
                                          {u"name"_s, call.name},
                                          {u"input"_s, toolInput(call.arguments)}});
            }
            // An assistant turn with nothing to say is left out rather than sent empty.
            if (!blocks.isEmpty()) {
                QJsonArray &target = turn(u"assistant"_s).blocks;
                for (const QJsonValue &block : std::as_const(blocks))
                    target.append(block);
            }
            break;
        }
        case Message::Role::Tool: {
            QStringList &pending = unanswered[message.toolCallId];
            const QString id = pending.isEmpty() ? message.toolCallId : pending.takeFirst();
            QJsonObject result{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, id}};
            if (!message.attachments.isEmpty()) {
                // A tool's images go inside its result, as image blocks after its text.
                QJsonArray content;
                if (!message.text.isEmpty())
                    content.append(textBlock(message.text));
                for (const Attachment &attachment : message.attachments)
                    content.append(attachmentBlock(attachment));
                result.insert(u"content"_s, content);
            } else if (!message.text.isEmpty()) {
                // content is optional; an empty string is better left out than risked.
                result.insert(u"content"_s, message.text);
            }
            result.insert(u"is_error"_s, message.isError);
            turn(u"user"_s).toolResults.append(result);
            break;
        }
        }
    }

    QJsonArray result;
    for (const WireMessage &message : std::as_const(wire)) {
        QJsonArray content = message.toolResults;
        for (const QJsonValue &block : message.blocks)
            content.append(block);
        result.append(QJsonObject{{u"role"_s, message.role}, {u"content"_s, content}});
    }
    return result;
}

QJsonArray AnthropicProtocol::encodeTools(const QList<ToolSchema> &tools)
{
    QJsonArray result;
    for (const ToolSchema &tool : tools) {
        QJsonObject json{{u"name"_s, tool.name}};
        if (!tool.description.isEmpty())
            json.insert(u"description"_s, tool.description);
        // input_schema is required and must describe an object, even for a tool without parameters.
        json.insert(u"input_schema"_s,
                    tool.parameters.isEmpty()
                        ? QJsonObject{{u"type"_s, u"object"_s}, {u"properties"_s, QJsonObject()}}
                        : tool.parameters);
        result.append(json);
    }
    return result;
}

HttpCall AnthropicProtocol::encode(const ModelRequest &request, const ProviderEndpoint &endpoint) const
{
    HttpCall call;
    call.url = QUrl(joinUrl(endpoint.baseUrl, u"/v1/messages"_s));
    if (!endpoint.apiKey.isEmpty())
        call.headers.append({"x-api-key"_ba, endpoint.apiKey.toUtf8()});
    call.headers.append({"anthropic-version"_ba, apiVersion.toByteArray()});
    if (request.options.stream)
        call.headers.append({"accept"_ba, "text/event-stream"_ba});

    // max_tokens is required by the API, unlike other providers.
    int maxTokens = request.options.maxOutputTokens.value_or(0);
    if (maxTokens <= 0)
        maxTokens = endpoint.defaultMaxOutputTokens > 0 ? endpoint.defaultMaxOutputTokens : 4096;

    QJsonObject body{{u"model"_s, request.options.model},
                     {u"max_tokens"_s, maxTokens},
                     {u"messages"_s, encodeMessages(request.messages)}};
    if (const QString system = systemPrompt(request.messages); !system.isEmpty())
        body.insert(u"system"_s, system);
    if (!request.tools.isEmpty()) {
        body.insert(u"tools"_s, encodeTools(request.tools));
        QString choice;
        switch (request.toolChoice) {
        case ToolChoice::Auto: choice = u"auto"_s; break;
        case ToolChoice::Required: choice = u"any"_s; break;
        case ToolChoice::None: choice = u"none"_s; break;
        }
        body.insert(u"tool_choice"_s, QJsonObject{{u"type"_s, choice}});
    }
    if (request.options.temperature)
        body.insert(u"temperature"_s, *request.options.temperature);
    // Both go as the user set them: newer models answer 400 "temperature and top_p cannot both be
    // specified for this model", and that error is shown, where dropping one would be a silent change.
    if (request.options.topP)
        body.insert(u"top_p"_s, *request.options.topP);
    body.insert(u"stream"_s, request.options.stream);
    call.body = body;
    return call;
}

std::unique_ptr<ResponseDecoder> AnthropicProtocol::createDecoder(bool streaming) const
{
    if (streaming)
        return std::make_unique<AnthropicStreamDecoder>();
    return std::make_unique<AnthropicBodyDecoder>();
}

QString AnthropicProtocol::errorMessage(const QByteArray &body) const
{
    const QJsonDocument document = QJsonDocument::fromJson(body);
    if (!document.isObject())
        return {};
    return describeError(document.object());
}

HttpCall AnthropicProtocol::encodeModelList(const ProviderEndpoint &endpoint, const QString &pageToken) const
{
    HttpCall call;
    QUrl url(joinUrl(endpoint.baseUrl, u"/v1/models"_s));
    QUrlQuery query;
    query.addQueryItem(u"limit"_s, u"1000"_s);
    if (!pageToken.isEmpty())
        query.addQueryItem(u"after_id"_s, pageToken);
    url.setQuery(query);
    call.url = url;
    if (!endpoint.apiKey.isEmpty())
        call.headers.append({"x-api-key"_ba, endpoint.apiKey.toUtf8()});
    call.headers.append({"anthropic-version"_ba, apiVersion.toByteArray()});
    return call;
}

std::variant<ModelListPage, QString> AnthropicProtocol::decodeModelList(const QJsonObject &body) const
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
    if (body.value(u"has_more"_s).toBool())
        page.nextPageToken = body.value(u"last_id"_s).toString();
    return page;
}

} // namespace Loopscope
