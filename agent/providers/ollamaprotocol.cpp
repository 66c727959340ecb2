#include "agent/providers/ollamaprotocol.h"

#include "agent/providers/ndjsonparser.h"
#include "agent/providers/toolcallaccumulator.h"
#include "agent/providers/toolresulttext.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("Loopscope::OllamaProtocol", text);
}

// Ollama sends arguments as an object. A proxy in front of it may have turned
// them into a string already; null (a call without arguments) becomes "{}" so
// the loop has valid JSON to parse.
QString argumentsText(const QJsonValue &arguments)
{
    if (arguments.isObject())
        return QString::fromUtf8(QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact));
    if (arguments.isString())
        return arguments.toString();
    if (arguments.isNull() || arguments.isUndefined())
        return u"{}"_s;
    // Anything else is not what a function takes; keep it as JSON text so the
    // loop can tell the model what was wrong. A one-element array is the only
    // way QJsonDocument writes a bare value: strip its brackets.
    const QByteArray wrapped = QJsonDocument(QJsonArray{arguments}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.sliced(1, wrapped.size() - 2));
}

// The history keeps arguments as the text the model produced; Ollama wants an
// object back and rejects anything else, so text that is not an object
// (already reported to the model as a tool error) is sent as {}.
QJsonObject argumentsObject(const QString &arguments)
{
    return QJsonDocument::fromJson(arguments.toUtf8()).object();
}

QString errorText(const QJsonValue &error)
{
    if (error.isString())
        return error.toString();
    // Not Ollama itself, but a proxy in front of it may wrap errors OpenAI-style.
    const QJsonObject object = error.toObject();
    const QString message = object.value(u"message"_s).toString();
    return message.isEmpty() ? QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact))
                             : message;
}

FinishReason finishReasonFromOllama(const QString &reason, bool hasToolCalls)
{
    // Ollama says "stop" after tool calls too, so the calls themselves decide.
    if (hasToolCalls)
        return FinishReason::ToolCalls;
    if (reason == u"length")
        return FinishReason::Length;
    if (reason == u"stop" || reason.isEmpty())
        return FinishReason::Stop;
    return FinishReason::Other; // "load", "unload": no generation happened
}

class NullSink final : public StreamSink
{
public:
    void textDelta(const QString &) override {}
    void toolCallDelta(const ToolCallDelta &) override {}
};

/*
    Builds a ModelResponse from Ollama's chat objects: a streamed response is
    many of them (the last one with done:true), a plain one is a single one.
*/
class OllamaResponseBuilder final
{
public:
    // Returns the error text when the object is an error report.
    QString consume(const QJsonObject &object, StreamSink &sink)
    {
        if (object.contains(u"error"_s))
            return tr("Ollama reported an error: %1").arg(errorText(object.value(u"error"_s)));
        if (const QString model = object.value(u"model"_s).toString(); !model.isEmpty())
            m_response.model = model;

        // message.thinking has no place in a ModelResponse yet; it stays in the trace's raw record.
        const QJsonObject message = object.value(u"message"_s).toObject();
        if (const QString text = message.value(u"content"_s).toString(); !text.isEmpty()) {
            m_response.text += text;
            sink.textDelta(text);
        }
        const QJsonArray toolCalls = message.value(u"tool_calls"_s).toArray();
        for (const QJsonValue &value : toolCalls)
            addToolCall(value.toObject(), sink);

        if (object.value(u"done"_s).toBool()) {
            m_done = true;
            m_doneReason = object.value(u"done_reason"_s).toString();
            m_response.usage = {object.value(u"prompt_eval_count"_s).toInteger(),
                                object.value(u"eval_count"_s).toInteger()};
        }
        return {};
    }

    bool isDone() const { return m_done; }

    ModelResponse response() const
    {
        ModelResponse response = m_response;
        response.toolCalls = m_calls.calls();
        response.providerFinishReason = m_doneReason;
        response.finishReason = finishReasonFromOllama(m_doneReason, !response.toolCalls.isEmpty());
        return response;
    }

private:
    void addToolCall(const QJsonObject &call, StreamSink &sink)
    {
        const QJsonObject function = call.value(u"function"_s).toObject();
        ToolCallDelta delta;
        // Every entry is a whole new call, so our own running index keys it:
        // function.index is absent in older Ollama versions and may restart at
        // 0 on each line, which would merge different calls.
        delta.index = m_nextIndex++;
        delta.id = call.value(u"id"_s).toString();
        // Chosen now rather than by the accumulator at the end, so the delta
        // the UI saw and the call in the response carry the same id.
        if (delta.id.isEmpty())
            delta.id = ToolCallAccumulator::syntheticId();
        delta.name = function.value(u"name"_s).toString();
        delta.argumentsFragment = argumentsText(function.value(u"arguments"_s));
        m_calls.add(delta.index, delta.id, delta.name, delta.argumentsFragment);
        sink.toolCallDelta(delta);
    }

    ModelResponse m_response;
    ToolCallAccumulator m_calls;
    QString m_doneReason;
    int m_nextIndex = 0;
    bool m_done = false;
};

class OllamaStreamDecoder final : public ResponseDecoder
{
public:
    QString feed(QByteArrayView bytes, StreamSink &sink) override
    {
        m_parser.feed(bytes);
        // Lines before a malformed one are still good: deliver them first.
        if (const QString error = consumeParsed(sink); !error.isEmpty())
            return error;
        if (m_parser.hasError())
            return m_parser.errorString();
        return {};
    }

    std::variant<ModelResponse, QString> finish() override
    {
        m_parser.finish();
        // A last line without its newline is complete only now. Nobody listens
        // for deltas any more, but its content still belongs in the response.
        NullSink sink;
        if (const QString error = consumeParsed(sink); !error.isEmpty())
            return error;
        if (m_parser.hasError())
            return m_parser.errorString();
        if (!m_builder.isDone()) {
            if (m_parser.hasPendingData())
                return tr("The stream from Ollama was cut in the middle of a line.");
            return tr("The stream from Ollama ended before the response was complete.");
        }
        return m_builder.response();
    }

    int chunkCount() const override { return m_chunks; }
    QJsonValue recordedResponse() const override { return m_recorded; }

private:
    QString consumeParsed(StreamSink &sink)
    {
        const QList<QJsonObject> objects = m_parser.takeObjects();
        for (const QJsonObject &object : objects) {
            ++m_chunks;
            m_recorded.append(object);
            if (const QString error = m_builder.consume(object, sink); !error.isEmpty())
                return error;
        }
        return {};
    }

    NdjsonParser m_parser;
    OllamaResponseBuilder m_builder;
    QJsonArray m_recorded;
    int m_chunks = 0;
};

class OllamaBodyDecoder final : public JsonBodyDecoder
{
public:
    OllamaBodyDecoder()
        : JsonBodyDecoder(u"Ollama"_s)
    {}

protected:
    std::variant<ModelResponse, QString> decode(const QJsonObject &body) override
    {
        OllamaResponseBuilder builder;
        NullSink sink;
        if (const QString error = builder.consume(body, sink); !error.isEmpty())
            return error;
        if (!builder.isDone())
            return tr("Ollama's response is incomplete: it does not say it is done.");
        return builder.response();
    }
};

} // namespace

ImageLimits OllamaProtocol::images()
{
    return {0, 0, {u"image/png"_s, u"image/jpeg"_s}};
}

namespace {

// /api/chat has no content parts: text attachments go before the question in "content", named, and
// images as base64 in the message's "images".
void addAttachments(QJsonObject &json, const Message &message)
{
    QStringList texts;
    QJsonArray images;
    for (const Attachment &attachment : message.attachments) {
        if (!attachment.isImage()) {
            texts.append(AttachmentParts::text(attachment));
            continue;
        }
        const auto image = AttachmentParts::image(attachment, OllamaProtocol::images());
        if (image->ok())
            images.append(QString::fromLatin1(image->base64));
        else // only a rebuilt body meets this: HttpModelClient sends no such request
            texts.append(image->error);
    }
    if (!message.text.isEmpty())
        texts.append(message.text);
    json.insert(u"content"_s, texts.join(u"\n\n"_s));
    if (!images.isEmpty())
        json.insert(u"images"_s, images);
}

} // namespace

QJsonArray OllamaProtocol::encodeMessages(const QList<Message> &messages)
{
    QJsonArray result;
    // A tool message takes no images: a tool's images follow the results in a user message.
    for (const Message &message : withToolImagesAfterResults(messages)) {
        QJsonObject json{{u"role"_s, roleName(message.role)}, {u"content"_s, message.text}};
        switch (message.role) {
        case Message::Role::System: break;
        case Message::Role::User:
            if (!message.attachments.isEmpty())
                addAttachments(json, message);
            break;
        case Message::Role::Assistant:
            if (!message.toolCalls.isEmpty()) {
                QJsonArray calls;
                for (const ToolCall &call : message.toolCalls) {
                    QJsonObject entry{
                        {u"function"_s, QJsonObject{{u"name"_s, call.name},
                                                    {u"arguments"_s, argumentsObject(call.arguments)}}}};
                    if (!call.id.isEmpty())
                        entry.insert(u"id"_s, call.id);
                    calls.append(entry);
                }
                json.insert(u"tool_calls"_s, calls);
            }
            break;
        case Message::Role::Tool:
            // Ollama has no error flag: the text itself must say it failed.
            json.insert(u"content"_s, flaglessToolResultText(message));
            // Ollama pairs a result with its call by tool_name; newer versions
            // also read tool_call_id, which tells apart parallel calls of one tool.
            json.insert(u"tool_name"_s, message.toolName);
            if (!message.toolCallId.isEmpty())
                json.insert(u"tool_call_id"_s, message.toolCallId);
            break;
        }
        result.append(json);
    }
    return result;
}

// Written out here rather than borrowed from OpenAiProtocol: both happen to use
// the same shape today, but each adapter must follow its own provider.
QJsonArray OllamaProtocol::encodeTools(const QList<ToolSchema> &tools)
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

HttpCall OllamaProtocol::encode(const ModelRequest &request, const ProviderEndpoint &endpoint) const
{
    HttpCall call;
    const QUrl base = endpoint.baseUrl.isEmpty() ? QUrl(defaultBaseUrl.toString()) : endpoint.baseUrl;
    call.url = QUrl(joinUrl(base, u"/api/chat"_s));
    // Ollama needs no key; one set here is for a proxy in front of it.
    if (!endpoint.apiKey.isEmpty())
        call.headers.append({"Authorization"_ba, "Bearer "_ba + endpoint.apiKey.toUtf8()});
    call.headers.append(
        {"Accept"_ba, request.options.stream ? "application/x-ndjson"_ba : "application/json"_ba});

    // Ollama has no tool_choice. For None the only lever is to offer no tools,
    // which is what makes the last iteration answer instead of calling again.
    // The history goes as it happened, earlier calls and results included:
    // /api/chat takes them without tools, and a model shown them as text
    // would read a different past and might imitate it. Required cannot be
    // enforced; the tools are offered.
    const bool forbidTools = request.toolChoice == ToolChoice::None;
    QJsonObject body{{u"model"_s, request.options.model}, {u"messages"_s, encodeMessages(request.messages)}};
    if (!request.tools.isEmpty() && !forbidTools)
        body.insert(u"tools"_s, encodeTools(request.tools));
    // Ollama streams unless told otherwise, so the flag is always sent.
    body.insert(u"stream"_s, request.options.stream);

    QJsonObject options;
    if (request.options.temperature)
        options.insert(u"temperature"_s, *request.options.temperature);
    if (request.options.topP)
        options.insert(u"top_p"_s, *request.options.topP);
    if (request.options.maxOutputTokens)
        options.insert(u"num_predict"_s, *request.options.maxOutputTokens);
    // Without num_ctx Ollama keeps its default window (2,048 or 4,096 tokens) and drops the start of
    // a longer request without a word: the instructions first.
    if (request.options.contextWindow)
        options.insert(u"num_ctx"_s, *request.options.contextWindow);
    if (!options.isEmpty())
        body.insert(u"options"_s, options);
    call.body = body;
    return call;
}

std::unique_ptr<ResponseDecoder> OllamaProtocol::createDecoder(bool streaming) const
{
    if (streaming)
        return std::make_unique<OllamaStreamDecoder>();
    return std::make_unique<OllamaBodyDecoder>();
}

QString OllamaProtocol::errorMessage(const QByteArray &body) const
{
    // Ollama words every error as {"error":"..."}.
    const QJsonValue error = QJsonDocument::fromJson(body).object().value(u"error"_s);
    if (error.isString())
        return error.toString();
    return ProviderProtocol::errorMessage(body);
}

HttpCall OllamaProtocol::encodeModelList(const ProviderEndpoint &endpoint, const QString &) const
{
    HttpCall call;
    const QUrl base = endpoint.baseUrl.isEmpty() ? QUrl(defaultBaseUrl.toString()) : endpoint.baseUrl;
    call.url = QUrl(joinUrl(base, u"/api/tags"_s));
    if (!endpoint.apiKey.isEmpty())
        call.headers.append({"Authorization"_ba, "Bearer "_ba + endpoint.apiKey.toUtf8()});
    return call;
}

std::variant<ModelListPage, QString> OllamaProtocol::decodeModelList(const QJsonObject &body) const
{
    const QJsonValue models = body.value(u"models"_s);
    if (!models.isArray())
        return QObject::tr("The model list has no \u201cmodels\u201d array.");
    ModelListPage page;
    for (const QJsonValue &model : models.toArray()) {
        const QString name = model.toObject().value(u"name"_s).toString();
        if (!name.isEmpty())
            page.models.append(name);
    }
    return page;
}

std::optional<HttpCall> OllamaProtocol::encodeModelInfo(const ProviderEndpoint &endpoint,
                                                        const QString &model) const
{
    HttpCall call;
    const QUrl base = endpoint.baseUrl.isEmpty() ? QUrl(defaultBaseUrl.toString()) : endpoint.baseUrl;
    call.url = QUrl(joinUrl(base, u"/api/show"_s));
    if (!endpoint.apiKey.isEmpty())
        call.headers.append({"Authorization"_ba, "Bearer "_ba + endpoint.apiKey.toUtf8()});
    call.body = QJsonObject{{u"model"_s, model}};
    return call;
}

ModelContextInfo OllamaProtocol::decodeModelInfo(const QJsonObject &body) const
{
    ModelContextInfo info;
    // The GGUF metadata names the length after the architecture: "llama.context_length".
    const QJsonObject modelInfo = body.value(u"model_info"_s).toObject();
    const QString architecture = modelInfo.value(u"general.architecture"_s).toString();
    QJsonValue length = modelInfo.value(architecture + u".context_length"_s);
    if (!length.isDouble()) {
        for (auto it = modelInfo.constBegin(); it != modelInfo.constEnd(); ++it) {
            if (it.key().endsWith(u".context_length")) {
                length = it.value();
                break;
            }
        }
    }
    if (length.isDouble() && length.toInteger() > 0)
        info.contextLength = length.toInteger();
    // The Modelfile's parameters, one "name value" a line, padded with spaces.
    const QStringList lines = body.value(u"parameters"_s).toString().split(u'\n');
    for (const QString &line : lines) {
        const QStringList parts = line.simplified().split(u' ');
        bool ok = false;
        const qint64 value
            = parts.size() == 2 && parts.constFirst() == u"num_ctx" ? parts.constLast().toLongLong(&ok) : 0;
        if (ok && value > 0)
            info.configuredWindow = value;
    }
    return info;
}

} // namespace Loopscope
