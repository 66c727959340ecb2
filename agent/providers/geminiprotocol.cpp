#include "agent/providers/geminiprotocol.h"

#include "agent/providers/toolcallaccumulator.h"
#include "agent/wire/sseparser.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QUrlQuery>

#include <algorithm>
#include <limits>
#include <utility>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// The resource path of the model: "models/x" as Gemini names it, or a tuned model's own path.
// The model list endpoint returns names with the "models/" prefix, so users paste them that way.
QString modelResource(const QString &model)
{
    const QString trimmed = model.trimmed();
    if (trimmed.startsWith(u"models/") || trimmed.startsWith(u"tunedModels/"))
        return trimmed;
    return u"models/"_s + trimmed;
}

// The SDKs take the base URL without the version; tolerate one pasted with it rather than doubling it.
QString apiRoot(const QUrl &baseUrl)
{
    QString root = joinUrl(baseUrl, QString());
    const QString version = u"/v1beta"_s;
    if (root.endsWith(version))
        root.chop(version.size());
    return root + version + u'/';
}

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// Gemini wants args as an object. History from a model that produced invalid JSON (the loop
// already told it so through a tool error) is sent as an empty object rather than not at all.
QJsonObject argumentsObject(const QString &arguments)
{
    return QJsonDocument::fromJson(arguments.toUtf8()).object();
}

// Made-up ids exist only to pair results with calls inside Loopscope; Gemini never saw them.
bool hasProviderId(const ToolCall &call)
{
    return !call.id.isEmpty() && !call.providerData.value(GeminiProtocol::syntheticIdKey).toBool();
}

QJsonObject functionCallPart(const ToolCall &call)
{
    QJsonObject functionCall{{u"name"_s, call.name}, {u"args"_s, argumentsObject(call.arguments)}};
    if (hasProviderId(call))
        functionCall.insert(u"id"_s, call.id);
    QJsonObject part{{u"functionCall"_s, functionCall}};
    // A sibling of functionCall, in the very part it came with: that is where Gemini 3 checks it.
    const QString signature = call.providerData.value(GeminiProtocol::thoughtSignatureKey).toString();
    if (!signature.isEmpty())
        part.insert(GeminiProtocol::thoughtSignatureKey.toString(), signature);
    return part;
}

// An image as an inlineData part, any other attachment as a text part naming it.
QJsonObject attachmentPart(const Attachment &attachment)
{
    if (!attachment.isImage())
        return {{u"text"_s, AttachmentParts::text(attachment)}};
    const auto image = AttachmentParts::image(attachment, GeminiProtocol::images());
    if (!image->ok()) // only a rebuilt body meets this: HttpModelClient sends no such request
        return {{u"text"_s, image->error}};
    return {{u"inlineData"_s,
             QJsonObject{{u"mimeType"_s, image->mimeType}, {u"data"_s, QString::fromLatin1(image->base64)}}}};
}

QJsonObject functionResponsePart(const Message &result, const ToolCall *call)
{
    const QString name = call && !call->name.isEmpty() ? call->name : result.toolName;
    QString text = result.text;
    // A tool's images go inside its response as inlineData parts (multimodal function responses);
    // those parts take media only, so anything else joins the text.
    QJsonArray parts;
    for (const Attachment &attachment : result.attachments) {
        const QJsonObject part = attachmentPart(attachment);
        if (part.contains(u"inlineData"_s))
            parts.append(part);
        else
            text += u"\n\n"_s + part.value(u"text"_s).toString();
    }
    const QJsonObject response{{result.isError ? u"error"_s : u"output"_s, text}};
    QJsonObject functionResponse{{u"name"_s, name}, {u"response"_s, response}};
    if (call && hasProviderId(*call))
        functionResponse.insert(u"id"_s, call->id);
    if (!parts.isEmpty())
        functionResponse.insert(u"parts"_s, parts);
    return {{u"functionResponse"_s, functionResponse}};
}

// Builds `contents`, merging consecutive parts of the same role into one turn: Gemini expects
// user and model turns to alternate, and tool results travel as user parts.
class ContentsBuilder final
{
public:
    void add(const QString &role, const QJsonObject &part)
    {
        if (role != m_role)
            flush();
        m_role = role;
        m_parts.append(part);
    }

    QJsonArray take()
    {
        flush();
        return std::exchange(m_contents, {});
    }

private:
    void flush()
    {
        if (!m_parts.isEmpty())
            m_contents.append(QJsonObject{{u"role"_s, m_role}, {u"parts"_s, std::exchange(m_parts, {})}});
    }

    QJsonArray m_contents;
    QString m_role;
    QJsonArray m_parts;
};

QString errorText(const QJsonValue &error)
{
    if (error.isString())
        return error.toString();
    const QJsonObject object = error.toObject();
    const QString status = object.value(u"status"_s).toString();
    const QString message = object.value(u"message"_s).toString();
    // The gRPC status ("RESOURCE_EXHAUSTED", "INVALID_ARGUMENT") is what Google's
    // docs index their troubleshooting by, so it leads the message.
    if (!status.isEmpty() && !message.isEmpty())
        return status + u": "_s + message;
    if (!message.isEmpty())
        return message;
    if (!status.isEmpty())
        return status;
    return compactJson(object);
}

FinishReason finishReasonFromGemini(const QString &reason, bool hasToolCalls)
{
    // Gemini has no tool-call finish reason: a turn that calls functions ends with STOP.
    if (reason == u"STOP" || reason.isEmpty())
        return hasToolCalls ? FinishReason::ToolCalls : FinishReason::Stop;
    if (reason == u"MAX_TOKENS")
        return FinishReason::Length;
    static const QStringList filtered{u"SAFETY"_s,
                                      u"RECITATION"_s,
                                      u"BLOCKLIST"_s,
                                      u"PROHIBITED_CONTENT"_s,
                                      u"SPII"_s,
                                      u"IMAGE_SAFETY"_s,
                                      u"IMAGE_PROHIBITED_CONTENT"_s,
                                      u"IMAGE_RECITATION"_s};
    if (filtered.contains(reason))
        return FinishReason::ContentFilter;
    // MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL, TOO_MANY_TOOL_CALLS, LANGUAGE, OTHER, ...
    return FinishReason::Other;
}

/*
    Accumulates GenerateContentResponse objects into one ModelResponse. A non-streamed body is a
    single one; a stream sends one per event, each carrying new text and whole function calls,
    and the usage and finish reason of the response so far.
*/
class ResponseAssembler final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::GeminiProtocol)

public:
    // Returns an error message when the response is an error or a blocked prompt.
    QString consume(const QJsonObject &response, StreamSink *sink)
    {
        if (response.contains(u"error"_s))
            return tr("Gemini reported an error: %1").arg(errorText(response.value(u"error"_s)));
        if (const QString model = response.value(u"modelVersion"_s).toString(); !model.isEmpty())
            m_response.model = model;
        if (const QJsonValue usage = response.value(u"usageMetadata"_s); usage.isObject())
            readUsage(usage.toObject());

        const QJsonArray candidates = response.value(u"candidates"_s).toArray();
        if (candidates.isEmpty()) {
            // A blocked prompt comes without candidates; anything else without them (a usage-only
            // event) adds nothing.
            const QJsonObject feedback = response.value(u"promptFeedback"_s).toObject();
            const QString blockReason = feedback.value(u"blockReason"_s).toString();
            if (blockReason.isEmpty())
                return {};
            const QString detail = feedback.value(u"blockReasonMessage"_s).toString();
            return detail.isEmpty() ? tr("Gemini blocked the prompt (%1).").arg(blockReason)
                                    : tr("Gemini blocked the prompt (%1): %2").arg(blockReason, detail);
        }
        m_sawCandidate = true;
        const QJsonObject candidate = firstCandidate(candidates);
        const QJsonArray parts = candidate.value(u"content"_s).toObject().value(u"parts"_s).toArray();
        for (const QJsonValue &value : parts)
            consumePart(value.toObject(), sink);
        if (const QString reason = candidate.value(u"finishReason"_s).toString(); !reason.isEmpty())
            m_finishReason = reason;
        return {};
    }

    bool hasFinishReason() const { return !m_finishReason.isEmpty(); }
    bool sawCandidate() const { return m_sawCandidate; }

    ModelResponse result() const
    {
        ModelResponse response = m_response;
        response.toolCalls = m_calls;
        response.providerFinishReason = m_finishReason;
        response.finishReason = finishReasonFromGemini(m_finishReason, !m_calls.isEmpty());
        return response;
    }

private:
    // Only one candidate is ever asked for; should more come, the one with index 0 is the answer.
    static QJsonObject firstCandidate(const QJsonArray &candidates)
    {
        for (const QJsonValue &value : candidates) {
            const QJsonObject candidate = value.toObject();
            if (candidate.value(u"index"_s).toInt(0) == 0)
                return candidate;
        }
        return candidates.first().toObject();
    }

    void readUsage(const QJsonObject &usage)
    {
        // Stream events repeat the counts so far; early ones may carry none, so keep what we have.
        if (usage.contains(u"promptTokenCount"_s))
            m_response.usage.inputTokens = usage.value(u"promptTokenCount"_s).toInteger();
        if (usage.contains(u"cachedContentTokenCount"_s)) // part of promptTokenCount
            m_response.usage.cacheReadTokens = usage.value(u"cachedContentTokenCount"_s).toInteger();
        if (usage.contains(u"candidatesTokenCount"_s) || usage.contains(u"thoughtsTokenCount"_s)) {
            // Thinking tokens are billed as output.
            m_response.usage.outputTokens = usage.value(u"candidatesTokenCount"_s).toInteger()
                                            + usage.value(u"thoughtsTokenCount"_s).toInteger();
        }
    }

    void consumePart(const QJsonObject &part, StreamSink *sink)
    {
        // Thought summaries are the model's reasoning, not its answer.
        if (part.value(u"thought"_s).toBool())
            return;
        if (const QJsonValue functionCall = part.value(u"functionCall"_s); functionCall.isObject()) {
            consumeCall(functionCall.toObject(), part.value(GeminiProtocol::thoughtSignatureKey).toString(),
                        sink);
            return;
        }
        const QString text = part.value(u"text"_s).toString();
        if (text.isEmpty())
            return;
        m_response.text += text;
        if (sink)
            sink->textDelta(text);
    }

    void consumeCall(const QJsonObject &functionCall, const QString &signature, StreamSink *sink)
    {
        ToolCall call;
        call.id = functionCall.value(u"id"_s).toString();
        call.name = functionCall.value(u"name"_s).toString();
        call.arguments = compactJson(functionCall.value(u"args"_s).toObject());
        if (!signature.isEmpty())
            call.providerData.insert(GeminiProtocol::thoughtSignatureKey.toString(), signature);
        if (call.id.isEmpty()) {
            // Gemini often sends no id: make one so the loop can pair the result, and remember
            // it is ours so it is never sent back as if Gemini had chosen it.
            call.id = uniqueSyntheticId();
            call.providerData.insert(GeminiProtocol::syntheticIdKey.toString(), true);
        }
        const int index = int(m_calls.size());
        m_calls.append(call);
        // Gemini never fragments arguments: each call arrives whole, in one delta.
        if (sink)
            sink->toolCallDelta({index, call.id, call.name, call.arguments});
    }

    QString uniqueSyntheticId() const
    {
        for (;;) {
            const QString id = ToolCallAccumulator::syntheticId();
            const bool taken = std::any_of(m_calls.cbegin(), m_calls.cend(),
                                           [&id](const ToolCall &call) { return call.id == id; });
            if (!taken)
                return id;
        }
    }

    ModelResponse m_response;
    QList<ToolCall> m_calls;
    QString m_finishReason;
    bool m_sawCandidate = false;
};

class GeminiStreamDecoder final : public ResponseDecoder
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::GeminiProtocol)

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
                return tr("Gemini sent a malformed stream event (%1): %2")
                    .arg(parseError.errorString(), event.data.left(200));
            }
            const QJsonObject response = document.object();
            m_recorded.append(response);
            if (const QString error = m_assembler.consume(response, &sink); !error.isEmpty())
                return error;
        }
        return {};
    }

    std::variant<ModelResponse, QString> finish() override
    {
        m_parser.finish();
        // No [DONE] marker: a stream that ends before an event with a finishReason was cut.
        if (!m_assembler.hasFinishReason())
            return tr("The stream ended before Gemini finished the response.");
        return m_assembler.result();
    }

    int chunkCount() const override { return m_chunks; }
    QJsonValue recordedResponse() const override { return m_recorded; }

private:
    SseParser m_parser;
    ResponseAssembler m_assembler;
    QJsonArray m_recorded;
    int m_chunks = 0;
};

class GeminiBodyDecoder final : public JsonBodyDecoder
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::GeminiProtocol)

public:
    GeminiBodyDecoder()
        : JsonBodyDecoder(u"Gemini"_s)
    {}

protected:
    std::variant<ModelResponse, QString> decode(const QJsonObject &body) override
    {
        ResponseAssembler assembler;
        if (const QString error = assembler.consume(body, nullptr); !error.isEmpty())
            return error;
        if (!assembler.sawCandidate())
            return tr("Gemini's response has no candidates.");
        return assembler.result();
    }
};

} // namespace

ImageLimits GeminiProtocol::images()
{
    return {7'000'000, 0, {u"image/png"_s, u"image/jpeg"_s, u"image/webp"_s}};
}

QJsonArray GeminiProtocol::encodeContents(const QList<Message> &messages)
{
    ContentsBuilder contents;
    QList<ToolCall> lastCalls; // of the latest assistant message: what tool results answer
    for (qsizetype i = 0; i < messages.size(); ++i) {
        const Message &message = messages.at(i);
        switch (message.role) {
        case Message::Role::System: break; // goes to systemInstruction
        case Message::Role::User:
            // Attachments first, then the question.
            for (const Attachment &attachment : message.attachments)
                contents.add(u"user"_s, attachmentPart(attachment));
            // Gemini rejects empty text parts.
            if (!message.text.isEmpty())
                contents.add(u"user"_s, {{u"text"_s, message.text}});
            break;
        case Message::Role::Assistant:
            if (!message.text.isEmpty())
                contents.add(u"model"_s, {{u"text"_s, message.text}});
            for (const ToolCall &call : message.toolCalls)
                contents.add(u"model"_s, functionCallPart(call));
            lastCalls = message.toolCalls;
            break;
        case Message::Role::Tool: {
            // Gemini pairs results with calls by position (ids are often absent), so the results
            // of one step go out in the order of the calls they answer, whatever order they
            // finished in. Each result claims the first unclaimed call with its id, which keeps
            // even duplicate ids apart.
            qsizetype end = i;
            while (end < messages.size() && messages.at(end).role == Message::Role::Tool)
                ++end;
            QList<bool> claimed(lastCalls.size(), false);
            QList<std::pair<qsizetype, qsizetype>> order; // (call position, message index)
            for (qsizetype m = i; m < end; ++m) {
                qsizetype position = std::numeric_limits<qsizetype>::max();
                for (qsizetype c = 0; c < lastCalls.size(); ++c) {
                    if (!claimed.at(c) && lastCalls.at(c).id == messages.at(m).toolCallId) {
                        claimed[c] = true;
                        position = c;
                        break;
                    }
                }
                order.append({position, m});
            }
            std::stable_sort(order.begin(), order.end(),
                             [](const auto &a, const auto &b) { return a.first < b.first; });
            for (const auto &[position, m] : std::as_const(order)) {
                const ToolCall *call = position < lastCalls.size() ? &lastCalls.at(position) : nullptr;
                contents.add(u"user"_s, functionResponsePart(messages.at(m), call));
            }
            i = end - 1;
            break;
        }
        }
    }
    return contents.take();
}

QJsonArray GeminiProtocol::encodeTools(const QList<ToolSchema> &tools)
{
    QJsonArray declarations;
    for (const ToolSchema &tool : tools) {
        QJsonObject declaration{{u"name"_s, tool.name}};
        if (!tool.description.isEmpty())
            declaration.insert(u"description"_s, tool.description);
        // A function without parameters has no schema at all rather than an empty one.
        if (!tool.parameters.isEmpty())
            declaration.insert(u"parametersJsonSchema"_s, tool.parameters);
        declarations.append(declaration);
    }
    return {QJsonObject{{u"functionDeclarations"_s, declarations}}};
}

HttpCall GeminiProtocol::encode(const ModelRequest &request, const ProviderEndpoint &endpoint) const
{
    HttpCall call;
    const QString method
        = request.options.stream ? u":streamGenerateContent?alt=sse"_s : u":generateContent"_s;
    call.url = QUrl(apiRoot(endpoint.baseUrl) + modelResource(request.options.model) + method);
    // The key goes in a header, never in the URL, where proxies and logs would keep it.
    if (!endpoint.apiKey.isEmpty())
        call.headers.append({"x-goog-api-key"_ba, endpoint.apiKey.toUtf8()});

    QJsonObject body{{u"contents"_s, encodeContents(request.messages)}};

    QJsonArray systemParts;
    for (const Message &message : request.messages) {
        if (message.role == Message::Role::System && !message.text.isEmpty())
            systemParts.append(QJsonObject{{u"text"_s, message.text}});
    }
    if (!systemParts.isEmpty())
        body.insert(u"systemInstruction"_s, QJsonObject{{u"parts"_s, systemParts}});

    if (!request.tools.isEmpty()) {
        body.insert(u"tools"_s, encodeTools(request.tools));
        QString mode;
        switch (request.toolChoice) {
        case ToolChoice::Auto: mode = u"AUTO"_s; break;
        case ToolChoice::None: mode = u"NONE"_s; break;
        case ToolChoice::Required: mode = u"ANY"_s; break;
        }
        body.insert(u"toolConfig"_s,
                    QJsonObject{{u"functionCallingConfig"_s, QJsonObject{{u"mode"_s, mode}}}});
    }

    QJsonObject generationConfig;
    if (request.options.temperature)
        generationConfig.insert(u"temperature"_s, *request.options.temperature);
    if (request.options.topP)
        generationConfig.insert(u"topP"_s, *request.options.topP);
    if (request.options.maxOutputTokens)
        generationConfig.insert(u"maxOutputTokens"_s, *request.options.maxOutputTokens);
    if (!generationConfig.isEmpty())
        body.insert(u"generationConfig"_s, generationConfig);

    call.body = body;
    return call;
}

std::unique_ptr<ResponseDecoder> GeminiProtocol::createDecoder(bool streaming) const
{
    if (streaming)
        return std::make_unique<GeminiStreamDecoder>();
    return std::make_unique<GeminiBodyDecoder>();
}

QString GeminiProtocol::errorMessage(const QByteArray &body) const
{
    const QJsonDocument document = QJsonDocument::fromJson(body);
    // Without alt=sse the streaming endpoint answers with a JSON array, errors included: accept both.
    const QJsonObject object = document.isArray() ? document.array().at(0).toObject() : document.object();
    if (const QJsonValue error = object.value(u"error"_s); error.isObject() || error.isString())
        return errorText(error);
    return ProviderProtocol::errorMessage(body);
}

HttpCall GeminiProtocol::encodeModelList(const ProviderEndpoint &endpoint, const QString &pageToken) const
{
    HttpCall call;
    QUrl url(apiRoot(endpoint.baseUrl) + u"models"_s);
    QUrlQuery query;
    query.addQueryItem(u"pageSize"_s, u"1000"_s);
    if (!pageToken.isEmpty())
        query.addQueryItem(u"pageToken"_s, pageToken);
    url.setQuery(query);
    call.url = url;
    if (!endpoint.apiKey.isEmpty())
        call.headers.append({"x-goog-api-key"_ba, endpoint.apiKey.toUtf8()});
    return call;
}

std::variant<ModelListPage, QString> GeminiProtocol::decodeModelList(const QJsonObject &body) const
{
    const QJsonValue models = body.value(u"models"_s);
    // An account without models answers with an empty object, not an empty array.
    if (!models.isArray() && !models.isUndefined())
        return QObject::tr("The model list's \u201cmodels\u201d is not an array.");
    ModelListPage page;
    for (const QJsonValue &value : models.toArray()) {
        const QJsonObject model = value.toObject();
        // Embedding-only models cannot chat; a model that says nothing about it is kept.
        const QJsonValue methods = model.value(u"supportedGenerationMethods"_s);
        if (methods.isArray() && !methods.toArray().contains(u"generateContent"_s))
            continue;
        QString name = model.value(u"name"_s).toString();
        if (name.startsWith(u"models/"))
            name.remove(0, 7);
        if (!name.isEmpty())
            page.models.append(name);
    }
    page.nextPageToken = body.value(u"nextPageToken"_s).toString();
    return page;
}

std::optional<HttpCall> GeminiProtocol::encodeModelInfo(const ProviderEndpoint &endpoint,
                                                        const QString &model) const
{
    HttpCall call;
    call.url = QUrl(apiRoot(endpoint.baseUrl) + modelResource(model));
    if (!endpoint.apiKey.isEmpty())
        call.headers.append({"x-goog-api-key"_ba, endpoint.apiKey.toUtf8()});
    return call;
}

ModelContextInfo GeminiProtocol::decodeModelInfo(const QJsonObject &body) const
{
    // inputTokenLimit is what a request may hold; the answer has a limit of its own.
    ModelContextInfo info;
    const QJsonValue limit = body.value(u"inputTokenLimit"_s);
    if (limit.isDouble() && limit.toInteger() > 0)
        info.contextLength = limit.toInteger();
    return info;
}

} // namespace Loopscope
