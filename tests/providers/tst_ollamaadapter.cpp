#include "tests/support/fakehttpserver.h"

#include "agent/loop/agent.h"
#include "agent/providers/httpmodelclient.h"
#include "agent/providers/ndjsonparser.h"
#include "agent/providers/ollamaprotocol.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "tests/support/samplingrows.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;

// Test data here is written with escaped ordinary strings only: moc misreads raw strings holding an
// unbalanced quote, and JSON is full of them.

namespace {

// How a test ends the stream early, for the failures that must not be retried.
enum class StreamFault {
    CloseMidStream,
    ResetMidStream,
    EndWithoutDone,
    EndInsideLine,
    ErrorLine,
    MalformedLine
};

} // namespace

Q_DECLARE_METATYPE(Loopscope::ModelRequest)
Q_DECLARE_METATYPE(Loopscope::ToolCall)
Q_DECLARE_METATYPE(Loopscope::FinishReason)
Q_DECLARE_METATYPE(Loopscope::ModelError::Kind)
Q_DECLARE_METATYPE(StreamFault)

namespace {

constexpr int EndTimeoutMs = 5000;
const QString Model = u"qwen3:8b"_s;
const QString CreatedAt = u"2025-05-27T22:54:57.641643Z"_s;

// --- Ollama's wire format, with its real field names --------------------------------------------

QByteArray ndjsonLine(const QJsonObject &object, const QByteArray &ending = "\n"_ba)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + ending;
}

QJsonObject assistantMessage(const QString &content, const QJsonArray &toolCalls = {})
{
    QJsonObject message{{u"role"_s, u"assistant"_s}, {u"content"_s, content}};
    if (!toolCalls.isEmpty())
        message.insert(u"tool_calls"_s, toolCalls);
    return message;
}

// One line of a streamed /api/chat response, before the last.
QJsonObject chunk(const QJsonObject &message)
{
    return {{u"model"_s, Model}, {u"created_at"_s, CreatedAt}, {u"message"_s, message}, {u"done"_s, false}};
}

QJsonObject textChunk(const QString &text)
{
    return chunk(assistantMessage(text));
}

QJsonObject toolCallChunk(const QJsonArray &calls)
{
    return chunk(assistantMessage(QString(), calls));
}

// An entry of message.tool_calls. Ollama sends arguments as an object; recent versions add an id
// and function.index, older ones neither.
QJsonObject toolCall(const QString &name, const QJsonObject &arguments, const QString &id = {},
                     int index = -1)
{
    QJsonObject function{{u"name"_s, name}, {u"arguments"_s, arguments}};
    if (index >= 0)
        function.insert(u"index"_s, index);
    QJsonObject call{{u"function"_s, function}};
    if (!id.isEmpty())
        call.insert(u"id"_s, id);
    return call;
}

// The last line of a stream, or the whole body of a non-streamed answer (then with the content).
// Ollama leaves out counts that are zero (omitempty), e.g. prompt_eval_count for a cached prompt.
QJsonObject doneObject(const QString &reason, qint64 promptEvalCount, qint64 evalCount,
                       const QJsonObject &message = assistantMessage(QString()))
{
    QJsonObject done{{u"model"_s, Model},
                     {u"created_at"_s, CreatedAt},
                     {u"message"_s, message},
                     {u"done_reason"_s, reason},
                     {u"done"_s, true},
                     {u"total_duration"_s, qint64(4883583458)},
                     {u"load_duration"_s, qint64(1334875)},
                     {u"prompt_eval_duration"_s, qint64(49564000)},
                     {u"eval_duration"_s, qint64(4830181000)}};
    if (promptEvalCount > 0)
        done.insert(u"prompt_eval_count"_s, promptEvalCount);
    if (evalCount > 0)
        done.insert(u"eval_count"_s, evalCount);
    return done;
}

QByteArray errorBody(const QString &message)
{
    return QJsonDocument(QJsonObject{{u"error"_s, message}}).toJson(QJsonDocument::Compact);
}

const HttpHeaders NdjsonHeaders{{"Content-Type"_ba, "application/x-ndjson"_ba},
                                {"Date"_ba, "Tue, 27 May 2025 22:54:57 GMT"_ba}};
const HttpHeaders JsonHeaders{{"Content-Type"_ba, "application/json; charset=utf-8"_ba},
                              {"Date"_ba, "Tue, 27 May 2025 22:54:57 GMT"_ba}};

void streamLines(HttpExchange &exchange, const QList<QJsonObject> &lines)
{
    exchange.beginStream(200, NdjsonHeaders);
    for (const QJsonObject &line : lines)
        exchange.send(ndjsonLine(line));
    exchange.end();
}

// Answers as Ollama does for the "stream" flag the client actually sent.
void answerText(const HttpRequestRecord &request, HttpExchange &exchange, const QString &text)
{
    if (request.json().value(u"stream"_s).toBool(true))
        streamLines(exchange, {textChunk(text), doneObject(u"stop"_s, 10, 2)});
    else
        exchange.respond(200, JsonHeaders, ndjsonLine(doneObject(u"stop"_s, 10, 2, assistantMessage(text))));
}

void answerError(HttpExchange &exchange, int status, const QString &message, const HttpHeaders &extra = {})
{
    exchange.respond(status, JsonHeaders + extra, errorBody(message));
}

// --- Requests -------------------------------------------------------------------------------------

ToolSchema weatherTool()
{
    return {u"get_weather"_s, u"Current weather in a city"_s,
            QJsonObject{{u"type"_s, u"object"_s},
                        {u"properties"_s, QJsonObject{{u"city"_s, QJsonObject{{u"type"_s, u"string"_s}}}}},
                        {u"required"_s, QJsonArray{u"city"_s}}}};
}

QJsonObject weatherToolJson()
{
    const ToolSchema tool = weatherTool();
    return {{u"type"_s, u"function"_s},
            {u"function"_s, QJsonObject{{u"name"_s, tool.name},
                                        {u"description"_s, tool.description},
                                        {u"parameters"_s, tool.parameters}}}};
}

ModelRequest userRequest(const QString &text, bool stream = true)
{
    ModelRequest request;
    request.messages = {Message::user(text)};
    request.options.model = Model;
    request.options.stream = stream;
    return request;
}

// A finished tool round: two calls of one tool and their results.
QList<Message> toolRoundHistory()
{
    const ToolCall edinburgh{u"call_1"_s, u"get_weather"_s, u"{\"city\":\"Edinburgh\"}"_s, {}};
    const ToolCall tokyo{u"call_2"_s, u"get_weather"_s, u"{\"city\": \"Tokyo\"}"_s, {}};
    return {Message::system(u"You are terse."_s), Message::user(u"Weather in Edinburgh and Tokyo?"_s),
            Message::assistant(QString(), {edinburgh, tokyo}),
            Message::toolResult(edinburgh, u"12 \u00b0C, rain"_s, false),
            Message::toolResult(tokyo, u"24 \u00b0C, sun"_s, false)};
}

QJsonArray toolRoundHistoryJson()
{
    const auto call = [](const QString &id, const QString &city) {
        return QJsonObject{{u"id"_s, id},
                           {u"function"_s, QJsonObject{{u"name"_s, u"get_weather"_s},
                                                       {u"arguments"_s, QJsonObject{{u"city"_s, city}}}}}};
    };
    const auto result = [](const QString &id, const QString &content) {
        return QJsonObject{{u"role"_s, u"tool"_s},
                           {u"tool_name"_s, u"get_weather"_s},
                           {u"tool_call_id"_s, id},
                           {u"content"_s, content}};
    };
    return {QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u"You are terse."_s}},
            QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Weather in Edinburgh and Tokyo?"_s}},
            QJsonObject{{u"role"_s, u"assistant"_s},
                        {u"content"_s, QString()},
                        {u"tool_calls"_s,
                         QJsonArray{call(u"call_1"_s, u"Edinburgh"_s), call(u"call_2"_s, u"Tokyo"_s)}}},
            result(u"call_1"_s, u"12 \u00b0C, rain"_s), result(u"call_2"_s, u"24 \u00b0C, sun"_s)};
}

QJsonArray userOnlyJson(const QString &text)
{
    return {QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, text}}};
}

// --- What the client reported ---------------------------------------------------------------------

struct Observed
{
    explicit Observed(HttpModelClient *client)
        : texts(client, &HttpModelClient::textDelta)
        , toolDeltas(client, &HttpModelClient::toolCallDelta)
        , attempts(client, &HttpModelClient::attemptFinished)
        , finished(client, &HttpModelClient::finished)
        , failed(client, &HttpModelClient::failed)
    {}

    bool ended() const { return finished.count() + failed.count() > 0; }
    ModelResponse response() const { return finished.at(0).at(0).value<ModelResponse>(); }
    ModelError error() const { return failed.at(0).at(0).value<ModelError>(); }
    // For failure messages, which are built even when the check passes.
    QString failureText() const;

    QStringList textDeltas() const
    {
        QStringList result;
        for (const QList<QVariant> &arguments : texts)
            result.append(arguments.at(0).toString());
        return result;
    }
    QList<ToolCallDelta> toolCallDeltas() const
    {
        QList<ToolCallDelta> result;
        for (const QList<QVariant> &arguments : toolDeltas)
            result.append(arguments.at(0).value<ToolCallDelta>());
        return result;
    }
    QList<ModelAttempt> attemptList() const
    {
        QList<ModelAttempt> result;
        for (const QList<QVariant> &arguments : attempts)
            result.append(arguments.at(0).value<ModelAttempt>());
        return result;
    }

    QSignalSpy texts;
    QSignalSpy toolDeltas;
    QSignalSpy attempts;
    QSignalSpy finished;
    QSignalSpy failed;
};

QString describe(const ModelError &error)
{
    return u"kind %1, HTTP %2: %3"_s.arg(int(error.kind)).arg(error.httpStatus).arg(error.message);
}

QString Observed::failureText() const
{
    return failed.isEmpty() ? QString() : describe(error());
}

QString describe(const ModelResponse &response)
{
    return QString::fromUtf8(QJsonDocument(response.toJson()).toJson(QJsonDocument::Compact));
}

QByteArray withEnding(const QList<QJsonObject> &lines, const QByteArray &ending)
{
    QByteArray body;
    for (const QJsonObject &line : lines)
        body += ndjsonLine(line, ending);
    return body;
}

// Collects what a decoder reports, for the tests that drive a decoder directly.
class RecordingSink final : public StreamSink
{
public:
    void textDelta(const QString &text) override { texts.append(text); }
    void toolCallDelta(const ToolCallDelta &delta) override { deltas.append(delta); }

    QStringList texts;
    QList<ToolCallDelta> deltas;
};

} // namespace

/*!
    Drives OllamaProtocol through HttpModelClient against a fake Ollama on
    127.0.0.1 that speaks the native /api/chat wire format: what goes out,
    how streamed and whole answers are read, and which failures are retried.
*/
class OllamaAdapterTest final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void baseUrlGetsApiChatAppended_data();
    void baseUrlGetsApiChatAppended();
    void topPIsSentAsOptionsTopPOnlyWhenSet_data();
    void topPIsSentAsOptionsTopPOnlyWhenSet();
    void requestIsSentInOllamasNativeShape_data();
    void requestIsSentInOllamasNativeShape();
    void aFailedToolResultSaysErrorSinceOllamaHasNoFlag_data();
    void aFailedToolResultSaysErrorSinceOllamaHasNoFlag();
    void aModelThatKeepsCallingToolsStillAnswersOnTheFinalIteration();
    void textIsReadStreamedAndWhole_data();
    void textIsReadStreamedAndWhole();
    void toolCallsAreRecognisedByTheirPresence_data();
    void toolCallsAreRecognisedByTheirPresence();
    void streamSplitAtAwkwardBytesGivesTheSameResponse_data();
    void streamSplitAtAwkwardBytesGivesTheSameResponse();
    void retryableStatusIsRetriedUntilAttemptsRunOut_data();
    void retryableStatusIsRetriedUntilAttemptsRunOut();
    void retryAfterIsHonouredBeforeTheNextAttempt_data();
    void retryAfterIsHonouredBeforeTheNextAttempt();
    void shouldRetryHeaderOverridesTheStatus_data();
    void shouldRetryHeaderOverridesTheStatus();
    void clientErrorsFailAtOnceWithOllamasMessage_data();
    void clientErrorsFailAtOnceWithOllamasMessage();
    void connectionResetBeforeHeadersIsRetried();
    void failureInsideTheStreamIsReportedNotRetried_data();
    void failureInsideTheStreamIsReportedNotRetried();
    void silenceLongerThanTheReadTimeoutFailsInsteadOfHanging_data();
    void silenceLongerThanTheReadTimeoutFailsInsteadOfHanging();
    void lastLineWithoutNewlineStillCompletesTheStream();
    void linesBeforeAMalformedLineAreStillDelivered();
    void wholeBodyProblemsAreReported_data();
    void wholeBodyProblemsAreReported();
    void errorMessageReadsOllamasErrorBody_data();
    void errorMessageReadsOllamasErrorBody();

private:
    std::unique_ptr<HttpModelClient> makeClient(const QString &apiKey = {}, int readTimeoutMs = 3000,
                                                const QString &baseSuffix = {}) const;

    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<FakeHttpServer> m_server;
};

void OllamaAdapterTest::init()
{
    m_network = std::make_unique<QNetworkAccessManager>();
    m_network->setProxy(QNetworkProxy::NoProxy); // only ever 127.0.0.1
    m_server = std::make_unique<FakeHttpServer>();
    QVERIFY(m_server->listen());
}

void OllamaAdapterTest::cleanup()
{
    m_server.reset();
    m_network.reset();
}

std::unique_ptr<HttpModelClient> OllamaAdapterTest::makeClient(const QString &apiKey, int readTimeoutMs,
                                                               const QString &baseSuffix) const
{
    ProviderEndpoint endpoint;
    endpoint.baseUrl = QUrl(m_server->baseUrl().toString() + baseSuffix);
    endpoint.apiKey = apiKey;
    endpoint.connectTimeoutMs = 2000;
    endpoint.readTimeoutMs = readTimeoutMs;
    endpoint.maxRetries = 2;
    auto client
        = std::make_unique<HttpModelClient>(m_network.get(), std::make_unique<OllamaProtocol>(), endpoint);
    client->retryPolicy().setBaseDelayMs(5);
    return client;
}

// --- The request ----------------------------------------------------------------------------------

void OllamaAdapterTest::baseUrlGetsApiChatAppended_data()
{
    QTest::addColumn<QString>("baseUrl");
    QTest::addColumn<QString>("expectedUrl");

    QTest::newRow("no base URL means the local Ollama") << QString() << u"http://localhost:11434/api/chat"_s;
    QTest::newRow("the default base URL")
        << u"http://localhost:11434"_s << u"http://localhost:11434/api/chat"_s;
    QTest::newRow("a trailing slash does not matter")
        << u"http://localhost:11434/"_s << u"http://localhost:11434/api/chat"_s;
    QTest::newRow("a proxy path prefix is kept")
        << u"http://127.0.0.1:8080/ollama/"_s << u"http://127.0.0.1:8080/ollama/api/chat"_s;
}

void OllamaAdapterTest::baseUrlGetsApiChatAppended()
{
    QFETCH(QString, baseUrl);
    QFETCH(QString, expectedUrl);

    ProviderEndpoint endpoint;
    endpoint.baseUrl = QUrl(baseUrl);
    const HttpCall call = OllamaProtocol().encode(userRequest(u"Hi"_s), endpoint);
    QCOMPARE(call.url.toString(), expectedUrl);
    QCOMPARE(OllamaProtocol().name(), u"ollama"_s);
}

void OllamaAdapterTest::topPIsSentAsOptionsTopPOnlyWhenSet_data()
{
    Testing::addTopPRows();
}

void OllamaAdapterTest::topPIsSentAsOptionsTopPOnlyWhenSet()
{
    QFETCH(double, topP);
    QFETCH(double, temperature);
    m_server->setHandler([](const HttpRequestRecord &record, HttpExchange &exchange) {
        answerText(record, exchange, u"ok"_s);
    });
    auto client = makeClient();
    Observed observed(client.get());
    client->send(Testing::withSampling(userRequest(u"Hi"_s), topP, temperature));
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QVERIFY2(observed.failed.isEmpty(), qPrintable(observed.failureText()));

    const QJsonObject body = m_server->requests().constFirst().json();
    QCOMPARE(Testing::sentSampling(body.value(u"options"_s).toObject(), u"top_p"_s, u"temperature"_s),
             Testing::expectedSampling(u"top_p"_s, u"temperature"_s, topP, temperature));
    QVERIFY(!body.contains(u"top_p"_s)); // Ollama reads it from options only
}

void OllamaAdapterTest::requestIsSentInOllamasNativeShape_data()
{
    QTest::addColumn<ModelRequest>("request");
    QTest::addColumn<QString>("apiKey");
    QTest::addColumn<QString>("baseSuffix");
    QTest::addColumn<QJsonObject>("expectedBody");

    {
        ModelRequest request;
        request.messages = toolRoundHistory();
        request.tools = {weatherTool()};
        request.options.model = Model;
        request.options.temperature = 0.25;
        request.options.maxOutputTokens = 512;
        QTest::newRow("a tool round sends arguments as objects, results with tool_name, options mapped")
            << request << QString() << QString()
            << QJsonObject{{u"model"_s, Model},
                           {u"messages"_s, toolRoundHistoryJson()},
                           {u"tools"_s, QJsonArray{weatherToolJson()}},
                           {u"stream"_s, true},
                           {u"options"_s, QJsonObject{{u"temperature"_s, 0.25}, {u"num_predict"_s, 512}}}};
    }
    {
        ModelRequest request = userRequest(u"Hi"_s, false);
        QTest::newRow("a plain non-streamed request has no tools and no options")
            << request << QString() << QString()
            << QJsonObject{{u"model"_s, Model}, {u"messages"_s, userOnlyJson(u"Hi"_s)}, {u"stream"_s, false}};
    }
    {
        ModelRequest request = userRequest(u"Hi"_s);
        request.options.maxOutputTokens = 64;
        QTest::newRow("only the options that are set are sent")
            << request << QString() << QString()
            << QJsonObject{{u"model"_s, Model},
                           {u"messages"_s, userOnlyJson(u"Hi"_s)},
                           {u"stream"_s, true},
                           {u"options"_s, QJsonObject{{u"num_predict"_s, 64}}}};
    }
    {
        // Without num_ctx the server keeps its default window and drops the start of a longer request.
        ModelRequest request = userRequest(u"Hi"_s);
        request.options.contextWindow = 32768;
        QTest::newRow("the model's context window is sent as num_ctx")
            << request << QString() << QString()
            << QJsonObject{{u"model"_s, Model},
                           {u"messages"_s, userOnlyJson(u"Hi"_s)},
                           {u"stream"_s, true},
                           {u"options"_s, QJsonObject{{u"num_ctx"_s, 32768}}}};
    }
    {
        const ToolCall array{u"call_a"_s, u"get_weather"_s, u"[1,2]"_s, {}};
        const ToolCall garbage{u"call_b"_s, u"get_weather"_s, u"{\"city\": \"Par"_s, {}};
        const ToolCall empty{QString(), u"get_weather"_s, QString(), {}};
        ModelRequest request = userRequest(u"Weather?"_s, false);
        request.messages += {Message::assistant(u"Let me look."_s, {array, garbage, empty}),
                             Message::toolResult(array, u"arguments must be an object"_s, true),
                             Message::toolResult(garbage, u"arguments are not valid JSON"_s, true),
                             Message::toolResult(empty, u"city is required"_s, true)};
        request.tools = {weatherTool()};
        const auto call = [](const QString &id) {
            QJsonObject json{
                {u"function"_s, QJsonObject{{u"name"_s, u"get_weather"_s}, {u"arguments"_s, QJsonObject()}}}};
            if (!id.isEmpty())
                json.insert(u"id"_s, id);
            return json;
        };
        const auto result = [](const QString &id, const QString &content) {
            QJsonObject json{
                {u"role"_s, u"tool"_s}, {u"tool_name"_s, u"get_weather"_s}, {u"content"_s, content}};
            if (!id.isEmpty())
                json.insert(u"tool_call_id"_s, id);
            return json;
        };
        QJsonArray messages = userOnlyJson(u"Weather?"_s);
        messages += QJsonObject{
            {u"role"_s, u"assistant"_s},
            {u"content"_s, u"Let me look."_s},
            {u"tool_calls"_s, QJsonArray{call(u"call_a"_s), call(u"call_b"_s), call(QString())}}};
        // Ollama has no error flag: the content itself says the call failed.
        messages += result(u"call_a"_s, u"Error: arguments must be an object"_s);
        messages += result(u"call_b"_s, u"Error: arguments are not valid JSON"_s);
        messages += result(QString(), u"Error: city is required"_s);
        QTest::newRow("arguments that are not a JSON object go out as {}, a call without id without one")
            << request << QString() << QString()
            << QJsonObject{{u"model"_s, Model},
                           {u"messages"_s, messages},
                           {u"tools"_s, QJsonArray{weatherToolJson()}},
                           {u"stream"_s, false}};
    }
    {
        ModelRequest request = userRequest(u"Just chat."_s);
        request.tools = {weatherTool()};
        request.toolChoice = ToolChoice::None;
        QTest::newRow("tool choice none without tool history offers no tools")
            << request << QString() << QString()
            << QJsonObject{
                   {u"model"_s, Model}, {u"messages"_s, userOnlyJson(u"Just chat."_s)}, {u"stream"_s, true}};
    }
    {
        ModelRequest request;
        request.messages = toolRoundHistory();
        request.tools = {weatherTool()};
        request.toolChoice = ToolChoice::None;
        request.options.model = Model;
        // The final iteration: no tools, so the model must answer, and the
        // earlier round as it happened, calls and results as themselves.
        QTest::newRow("tool choice none offers no tools and sends earlier calls and results as they were")
            << request << QString() << QString()
            << QJsonObject{{u"model"_s, Model}, {u"messages"_s, toolRoundHistoryJson()}, {u"stream"_s, true}};
    }
    {
        const ToolCall lookup{u"call_9"_s, u"get_weather"_s, QString(), {}};
        ModelRequest request = userRequest(u"Weather?"_s);
        request.messages += {Message::assistant(u"Let me look."_s, {lookup}),
                             Message::toolResult(lookup, u"city is required"_s, true),
                             Message::assistant(u"Which city?"_s), Message::user(u"Oslo"_s)};
        request.tools = {weatherTool()};
        request.toolChoice = ToolChoice::None;
        const QJsonArray messages{
            QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Weather?"_s}},
            QJsonObject{
                {u"role"_s, u"assistant"_s},
                {u"content"_s, u"Let me look."_s},
                {u"tool_calls"_s,
                 QJsonArray{QJsonObject{{u"id"_s, u"call_9"_s},
                                        {u"function"_s, QJsonObject{{u"name"_s, u"get_weather"_s},
                                                                    {u"arguments"_s, QJsonObject{}}}}}}}},
            QJsonObject{{u"role"_s, u"tool"_s},
                        {u"tool_name"_s, u"get_weather"_s},
                        {u"tool_call_id"_s, u"call_9"_s},
                        {u"content"_s, u"Error: city is required"_s}},
            QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, u"Which city?"_s}},
            QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Oslo"_s}}};
        QTest::newRow("tool choice none sends a failed call's result as a tool message that says Error")
            << request << QString() << QString()
            << QJsonObject{{u"model"_s, Model}, {u"messages"_s, messages}, {u"stream"_s, true}};
    }
    {
        ModelRequest request = userRequest(u"Weather?"_s);
        request.tools = {weatherTool()};
        request.toolChoice = ToolChoice::Required;
        QTest::newRow("tool choice required offers the tools, Ollama having no way to force them")
            << request << QString() << QString()
            << QJsonObject{{u"model"_s, Model},
                           {u"messages"_s, userOnlyJson(u"Weather?"_s)},
                           {u"tools"_s, QJsonArray{weatherToolJson()}},
                           {u"stream"_s, true}};
    }
    QTest::newRow("a trailing slash on the base URL does not matter")
        << userRequest(u"Hi"_s) << QString() << u"/"_s
        << QJsonObject{{u"model"_s, Model}, {u"messages"_s, userOnlyJson(u"Hi"_s)}, {u"stream"_s, true}};
    QTest::newRow("a key for a proxy in front of Ollama goes out as Bearer and is redacted")
        << userRequest(u"Hi"_s) << u"sk-proxy-7f3a9c21e8"_s << u"/"_s
        << QJsonObject{{u"model"_s, Model}, {u"messages"_s, userOnlyJson(u"Hi"_s)}, {u"stream"_s, true}};
}

void OllamaAdapterTest::requestIsSentInOllamasNativeShape()
{
    QFETCH(ModelRequest, request);
    QFETCH(QString, apiKey);
    QFETCH(QString, baseSuffix);
    QFETCH(QJsonObject, expectedBody);

    m_server->setHandler([](const HttpRequestRecord &record, HttpExchange &exchange) {
        answerText(record, exchange, u"ok"_s);
    });
    auto client = makeClient(apiKey, 3000, baseSuffix);
    Observed observed(client.get());
    client->send(request);
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QVERIFY2(observed.failed.isEmpty(), qPrintable(observed.failureText()));
    QCOMPARE(observed.response().text, u"ok"_s);

    QCOMPARE(m_server->requests().size(), 1);
    const HttpRequestRecord sent = m_server->requests().constFirst();
    QCOMPARE(sent.method, "POST"_ba);
    QCOMPARE(sent.path, "/api/chat"_ba);
    QVERIFY(sent.header("content-type").startsWith("application/json"));
    const QJsonObject body = sent.json();
    QVERIFY2(body == expectedBody, qPrintable(u"sent:\n%1\nexpected:\n%2"_s.arg(
                                       QString::fromUtf8(QJsonDocument(body).toJson()),
                                       QString::fromUtf8(QJsonDocument(expectedBody).toJson()))));

    if (apiKey.isEmpty()) {
        QVERIFY(!sent.hasHeader("authorization"));
    } else {
        QCOMPARE(sent.header("authorization"), "Bearer "_ba + apiKey.toUtf8());
        // The trace gets the attempt; the key must not be anywhere in it.
        QCOMPARE(observed.attempts.size(), 1);
        const ModelAttempt attempt = observed.attemptList().constFirst();
        const QJsonObject headers = attempt.request.value(u"headers"_s).toObject();
        QVERIFY(headers.contains(u"Authorization"_s));
        const QByteArray recorded = QJsonDocument(attempt.toJson()).toJson();
        QVERIFY2(!recorded.contains(apiKey.toUtf8()), recorded.constData());
    }
}

// --- Answers --------------------------------------------------------------------------------------

void OllamaAdapterTest::aFailedToolResultSaysErrorSinceOllamaHasNoFlag_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("isError");
    QTest::addColumn<ToolChoice>("choice");
    QTest::addColumn<QString>("expected");
    QTest::newRow("a success goes as it is")
        << u"12 \u00b0C, rain"_s << false << ToolChoice::Auto << u"12 \u00b0C, rain"_s;
    QTest::newRow("a success that mentions an error is not marked")
        << u"Error: none found"_s << false << ToolChoice::Auto << u"Error: none found"_s;
    QTest::newRow("a refused path leads with Error:")
        << u"path leaves the workspace: ../etc"_s << true << ToolChoice::Auto
        << u"Error: path leaves the workspace: ../etc"_s;
    QTest::newRow("an error that already says so is not doubled")
        << u"Error: no such city"_s << true << ToolChoice::Auto << u"Error: no such city"_s;
    QTest::newRow("an error on the final iteration, which offers no tools, leads with Error: too")
        << u"city is required"_s << true << ToolChoice::None << u"Error: city is required"_s;
}

void OllamaAdapterTest::aFailedToolResultSaysErrorSinceOllamaHasNoFlag()
{
    QFETCH(QString, text);
    QFETCH(bool, isError);
    QFETCH(ToolChoice, choice);
    QFETCH(QString, expected);
    const ToolCall lookup{u"call_1"_s, u"get_weather"_s, u"{\"city\":\"Oslo\"}"_s, {}};
    ModelRequest request = userRequest(u"Weather?"_s);
    request.messages += {Message::assistant(QString(), {lookup}), Message::toolResult(lookup, text, isError)};
    request.tools = {weatherTool()};
    request.toolChoice = choice;
    const QJsonArray messages
        = OllamaProtocol().encode(request, ProviderEndpoint{}).body.value(u"messages"_s).toArray();
    QCOMPARE(messages.last().toObject().value(u"content"_s).toString(), expected);
}

void OllamaAdapterTest::aModelThatKeepsCallingToolsStillAnswersOnTheFinalIteration()
{
    // Like a small local model: as long as tools are offered it calls one
    // (a new city each time, so the runaway guard never steps in).
    int calls = 0;
    m_server->setHandler([&calls](const HttpRequestRecord &record, HttpExchange &exchange) {
        if (record.json().contains(u"tools"_s)) {
            ++calls;
            const QJsonObject city{{u"city"_s, u"City %1"_s.arg(calls)}};
            streamLines(exchange, {toolCallChunk({toolCall(u"get_weather"_s, city, u"call_%1"_s.arg(calls))}),
                                   doneObject(u"stop"_s, 10, 2)});
        } else {
            answerText(record, exchange, u"It rains everywhere."_s);
        }
    });
    auto client = makeClient();
    Workbench workbench;
    workbench.add(std::make_shared<FunctionTool>(
        weatherTool(), [](const QJsonObject &, ToolContext &) { return ToolResult::success(u"rain"_s); }));
    Trace trace;
    Agent agent(client.get(), &workbench, &trace);
    AgentConfig config;
    config.model.model = Model;
    config.maxIterations = 3;
    agent.setConfig(config);
    QSignalSpy finished(&agent, &Agent::turnFinished);

    QVERIFY(agent.send(u"Weather in every city?"_s));
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, EndTimeoutMs);

    QCOMPARE(finished.constFirst().first().value<TurnResult>().text, u"It rains everywhere."_s);
    const QList<HttpRequestRecord> requests = m_server->requests();
    QCOMPARE(requests.size(), 3);
    const QJsonObject last = requests.constLast().json();
    QVERIFY(!last.contains(u"tools"_s));
    // Only the tools are left out: the history is the one the earlier requests sent, calls and
    // results as themselves, and the system prompt carries the note that this is the final iteration.
    const QJsonArray lastMessages = last.value(u"messages"_s).toArray();
    const QJsonArray earlierMessages = requests.at(1).json().value(u"messages"_s).toArray();
    QCOMPARE(lastMessages.size(), earlierMessages.size() + 2);
    QCOMPARE(lastMessages.first().toObject().value(u"role"_s).toString(), u"system"_s);
    QVERIFY(
        lastMessages.first().toObject().value(u"content"_s).toString().contains(config.finalIterationNote));
    for (qsizetype i = 1; i < earlierMessages.size(); ++i)
        QCOMPARE(lastMessages.at(i), earlierMessages.at(i));
    const QJsonObject secondCall = lastMessages.at(lastMessages.size() - 2).toObject();
    QCOMPARE(secondCall.value(u"role"_s).toString(), u"assistant"_s);
    const QJsonObject toolCall = secondCall.value(u"tool_calls"_s).toArray().first().toObject();
    QCOMPARE(toolCall.value(u"id"_s).toString(), u"call_2"_s);
    QCOMPARE(toolCall.value(u"function"_s).toObject().value(u"arguments"_s).toObject(),
             (QJsonObject{{u"city"_s, u"City 2"_s}}));
    QCOMPARE(lastMessages.last().toObject(), (QJsonObject{{u"role"_s, u"tool"_s},
                                                          {u"tool_name"_s, u"get_weather"_s},
                                                          {u"tool_call_id"_s, u"call_2"_s},
                                                          {u"content"_s, u"rain"_s}}));
    const QByteArray sentText = QJsonDocument(lastMessages).toJson();
    QVERIFY2(!sentText.contains("Tool call") && !sentText.contains("Tool result"), sentText.constData());
}

void OllamaAdapterTest::textIsReadStreamedAndWhole_data()
{
    QTest::addColumn<bool>("stream");
    QTest::addColumn<QStringList>("pieces");
    QTest::addColumn<QString>("doneReason");
    QTest::addColumn<qint64>("promptEvalCount");
    QTest::addColumn<qint64>("evalCount");
    QTest::addColumn<FinishReason>("expectedReason");

    const QStringList pieces{u"The sky"_s, u" is"_s, u" blue"_s, u"."_s};
    QTest::newRow("streamed text ends with stop and reports usage")
        << true << pieces << u"stop"_s << qint64(26) << qint64(298) << FinishReason::Stop;
    QTest::newRow("streamed text cut by num_predict ends with length")
        << true << pieces << u"length"_s << qint64(26) << qint64(4) << FinishReason::Length;
    QTest::newRow("streamed text with a cached prompt reports no input tokens")
        << true << pieces << u"stop"_s << qint64(0) << qint64(4) << FinishReason::Stop;
    QTest::newRow("a whole answer ends with stop and reports usage")
        << false << pieces << u"stop"_s << qint64(26) << qint64(298) << FinishReason::Stop;
    QTest::newRow("a whole answer cut by num_predict ends with length")
        << false << pieces << u"length"_s << qint64(26) << qint64(4) << FinishReason::Length;
}

void OllamaAdapterTest::textIsReadStreamedAndWhole()
{
    QFETCH(bool, stream);
    QFETCH(QStringList, pieces);
    QFETCH(QString, doneReason);
    QFETCH(qint64, promptEvalCount);
    QFETCH(qint64, evalCount);
    QFETCH(FinishReason, expectedReason);

    m_server->setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        if (stream) {
            QList<QJsonObject> lines;
            for (const QString &piece : pieces)
                lines.append(textChunk(piece));
            lines.append(doneObject(doneReason, promptEvalCount, evalCount));
            streamLines(exchange, lines);
        } else {
            exchange.respond(200, JsonHeaders,
                             ndjsonLine(doneObject(doneReason, promptEvalCount, evalCount,
                                                   assistantMessage(pieces.join(QString())))));
        }
    });
    auto client = makeClient();
    Observed observed(client.get());
    client->send(userRequest(u"Why is the sky blue?"_s, stream));
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QVERIFY2(observed.failed.isEmpty(), qPrintable(observed.failureText()));

    const ModelResponse response = observed.response();
    QCOMPARE(response.text, pieces.join(QString()));
    QCOMPARE(response.finishReason, expectedReason);
    QCOMPARE(response.providerFinishReason, doneReason);
    QCOMPARE(response.usage, (TokenUsage{promptEvalCount, evalCount}));
    QCOMPARE(response.model, Model);
    QVERIFY(response.toolCalls.isEmpty());
    QVERIFY(observed.toolDeltas.isEmpty());
    if (stream) {
        QCOMPARE(observed.textDeltas(), pieces);
        QCOMPARE(response.streamedChunks, pieces.size() + 1);
        // A few events are kept whole, more summarised with their count.
        const QJsonValue raw = response.raw;
        QCOMPARE(raw.isArray() ? raw.toArray().size() : raw.toObject().value(u"streamEvents"_s).toInt(),
                 pieces.size() + 1);
    } else {
        QVERIFY(observed.texts.isEmpty());
        QCOMPARE(response.raw.toObject().value(u"done"_s), QJsonValue(true));
    }
    QCOMPARE(m_server->requests().size(), 1);
    QCOMPARE(m_server->requests().constFirst().json().value(u"stream"_s), QJsonValue(stream));
}

void OllamaAdapterTest::toolCallsAreRecognisedByTheirPresence_data()
{
    QTest::addColumn<bool>("stream");
    QTest::addColumn<QString>("leadingText");
    QTest::addColumn<QList<QJsonArray>>("callLines"); // message.tool_calls of each line
    // An empty id means "none was sent": a unique one must be made up.
    QTest::addColumn<QList<ToolCall>>("expectedCalls");

    const QJsonObject edinburgh{{u"city"_s, u"Edinburgh"_s}};
    const QJsonObject tokyo{{u"city"_s, u"Tokyo"_s}, {u"unit"_s, u"celsius"_s}};
    const QString edinburghText = u"{\"city\":\"Edinburgh\"}"_s;
    const QString tokyoText = u"{\"city\":\"Tokyo\",\"unit\":\"celsius\"}"_s;
    const auto expected = [](const QString &id, const QString &name, const QString &arguments) {
        return ToolCall{id, name, arguments, {}};
    };

    QTest::newRow("one call in one line")
        << true << QString()
        << QList<QJsonArray>{{toolCall(u"get_weather"_s, edinburgh, u"call_ab12cd34"_s, 0)}}
        << QList<ToolCall>{expected(u"call_ab12cd34"_s, u"get_weather"_s, edinburghText)};
    QTest::newRow("two calls of the same function in one line")
        << true << QString()
        << QList<QJsonArray>{{toolCall(u"get_weather"_s, edinburgh, u"call_1"_s, 0),
                              toolCall(u"get_weather"_s, tokyo, u"call_2"_s, 1)}}
        << QList<ToolCall>{expected(u"call_1"_s, u"get_weather"_s, edinburghText),
                           expected(u"call_2"_s, u"get_weather"_s, tokyoText)};
    QTest::newRow("calls spread over two lines, each line indexing from 0")
        << true << QString()
        << QList<QJsonArray>{{toolCall(u"get_weather"_s, edinburgh, u"call_1"_s, 0)},
                             {toolCall(u"get_time"_s, QJsonObject{{u"zone"_s, u"Asia/Tokyo"_s}}, u"call_2"_s,
                                       0)}}
        << QList<ToolCall>{expected(u"call_1"_s, u"get_weather"_s, edinburghText),
                           expected(u"call_2"_s, u"get_time"_s, u"{\"zone\":\"Asia/Tokyo\"}"_s)};
    QTest::newRow("calls spread over two lines indexed 0 and 1")
        << true << QString()
        << QList<QJsonArray>{{toolCall(u"get_weather"_s, edinburgh, u"call_1"_s, 0)},
                             {toolCall(u"get_weather"_s, tokyo, u"call_2"_s, 1)}}
        << QList<ToolCall>{expected(u"call_1"_s, u"get_weather"_s, edinburghText),
                           expected(u"call_2"_s, u"get_weather"_s, tokyoText)};
    QTest::newRow("identical calls without ids or indexes get distinct made-up ids")
        << true << QString()
        << QList<QJsonArray>{{toolCall(u"get_weather"_s, edinburgh), toolCall(u"get_weather"_s, edinburgh)}}
        << QList<ToolCall>{expected(QString(), u"get_weather"_s, edinburghText),
                           expected(QString(), u"get_weather"_s, edinburghText)};
    QTest::newRow("text before a call is kept")
        << true << u"Let me check."_s
        << QList<QJsonArray>{{toolCall(u"get_weather"_s, edinburgh, u"call_1"_s, 0)}}
        << QList<ToolCall>{expected(u"call_1"_s, u"get_weather"_s, edinburghText)};
    QTest::newRow("a call with an empty arguments object")
        << true << QString() << QList<QJsonArray>{{toolCall(u"get_time"_s, QJsonObject(), u"call_9"_s, 0)}}
        << QList<ToolCall>{expected(u"call_9"_s, u"get_time"_s, u"{}"_s)};
    QTest::newRow("a whole answer with two calls")
        << false << QString()
        << QList<QJsonArray>{{toolCall(u"get_weather"_s, edinburgh, u"call_1"_s, 0),
                              toolCall(u"get_weather"_s, tokyo, QString(), 1)}}
        << QList<ToolCall>{expected(u"call_1"_s, u"get_weather"_s, edinburghText),
                           expected(QString(), u"get_weather"_s, tokyoText)};
}

void OllamaAdapterTest::toolCallsAreRecognisedByTheirPresence()
{
    QFETCH(bool, stream);
    QFETCH(QString, leadingText);
    QFETCH(QList<QJsonArray>, callLines);
    QFETCH(QList<ToolCall>, expectedCalls);

    m_server->setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        if (stream) {
            QList<QJsonObject> lines;
            if (!leadingText.isEmpty())
                lines.append(textChunk(leadingText));
            for (const QJsonArray &calls : callLines)
                lines.append(toolCallChunk(calls));
            // Ollama says "stop" even after tool calls.
            lines.append(doneObject(u"stop"_s, 183, 27));
            streamLines(exchange, lines);
        } else {
            QJsonArray calls;
            for (const QJsonArray &line : callLines) {
                for (const QJsonValue &call : line)
                    calls.append(call);
            }
            exchange.respond(
                200, JsonHeaders,
                ndjsonLine(doneObject(u"stop"_s, 183, 27, assistantMessage(leadingText, calls))));
        }
    });
    auto client = makeClient();
    Observed observed(client.get());
    ModelRequest request = userRequest(u"Weather in Edinburgh?"_s, stream);
    request.tools = {weatherTool()};
    client->send(request);
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QVERIFY2(observed.failed.isEmpty(), qPrintable(observed.failureText()));

    const ModelResponse response = observed.response();
    QCOMPARE(response.finishReason, FinishReason::ToolCalls);
    QCOMPARE(response.providerFinishReason, u"stop"_s);
    QCOMPARE(response.text, leadingText);
    QCOMPARE(response.usage, (TokenUsage{183, 27}));
    QCOMPARE(response.toolCalls.size(), expectedCalls.size());
    QSet<QString> ids;
    for (qsizetype i = 0; i < expectedCalls.size(); ++i) {
        const ToolCall &call = response.toolCalls.at(i);
        const ToolCall &want = expectedCalls.at(i);
        QCOMPARE(call.name, want.name);
        QCOMPARE(call.arguments, want.arguments);
        if (want.id.isEmpty())
            QVERIFY2(!call.id.isEmpty(), "a call without id needs a made-up one");
        else
            QCOMPARE(call.id, want.id);
        ids.insert(call.id);
    }
    QCOMPARE(ids.size(), expectedCalls.size()); // every call can be answered on its own

    if (!stream) {
        QVERIFY(observed.toolDeltas.isEmpty());
        return;
    }
    // Each call arrives whole, so each gives exactly one delta, and it names the same id as the
    // response: the UI must be able to match what it showed with what the loop runs.
    const QList<ToolCallDelta> deltas = observed.toolCallDeltas();
    QCOMPARE(deltas.size(), expectedCalls.size());
    for (qsizetype i = 0; i < deltas.size(); ++i) {
        QCOMPARE(deltas.at(i).index, int(i));
        QCOMPARE(deltas.at(i).id, response.toolCalls.at(i).id);
        QCOMPARE(deltas.at(i).name, response.toolCalls.at(i).name);
        QCOMPARE(deltas.at(i).argumentsFragment, response.toolCalls.at(i).arguments);
    }
    QCOMPARE(observed.textDeltas().join(QString()), leadingText);
}

void OllamaAdapterTest::streamSplitAtAwkwardBytesGivesTheSameResponse_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QList<int>>("cuts");
    QTest::addColumn<int>("delayMs");

    const QList<QJsonObject> lines{
        textChunk(u"Gr\u00fc\u00dfe aus Z\u00fcrich"_s),
        textChunk(u" \u2014 \u6771\u4eac\u306f\u6674\u308c"_s), textChunk(u" \U0001F324\uFE0F"_s),
        toolCallChunk(
            {toolCall(u"get_weather"_s, QJsonObject{{u"city"_s, u"Z\u00fcrich"_s}}, u"call_k3x9"_s, 0)}),
        doneObject(u"stop"_s, 26, 31)};
    const QByteArray lf = withEnding(lines, "\n"_ba);
    const QByteArray crlf = withEnding(lines, "\r\n"_ba);
    const auto at = [](const QByteArray &body, const QString &text, int offset) {
        const qsizetype position = body.indexOf(text.toUtf8());
        Q_ASSERT(position >= 0);
        return int(position) + offset;
    };
    const auto after = [](const QByteArray &body, const QByteArray &separator, int offset) {
        QList<int> cuts;
        for (qsizetype i = body.indexOf(separator); i >= 0; i = body.indexOf(separator, i + 1))
            cuts.append(int(i) + offset);
        return cuts;
    };
    // Every byte is its own piece; over the whole stream that takes seconds (each piece waits for
    // its own turn of both event loops), so only through the first line, which has two-byte
    // characters and every state of a JSON line, its line end, and into the next line. The rest
    // comes at once; three- and four-byte characters have their own rows above.
    const auto everyByteOfTheFirstLine = [](const QByteArray &body, const QByteArray &ending) {
        const qsizetype end = body.indexOf(ending) + ending.size() + 16;
        QList<int> cuts;
        for (int i = 1; i <= int(end); ++i)
            cuts.append(i);
        return cuts;
    };

    QTest::newRow("in one piece") << lf << QList<int>{} << 0;
    QTest::newRow("inside a two-byte character") << lf << QList<int>{at(lf, u"\u00fc"_s, 1)} << 20;
    QTest::newRow("after each byte of a three-byte character")
        << lf << QList<int>{at(lf, u"\u6771"_s, 1), at(lf, u"\u6771"_s, 2)} << 20;
    QTest::newRow("after each byte of a four-byte character")
        << lf
        << QList<int>{at(lf, u"\U0001F324"_s, 1), at(lf, u"\U0001F324"_s, 2), at(lf, u"\U0001F324"_s, 3)}
        << 20;
    QTest::newRow("inside the arguments of a tool call")
        << lf << QList<int>{at(lf, u"Z\u00fcrich\"}"_s, 2)} << 20;
    QTest::newRow("right before every newline") << lf << after(lf, "\n"_ba, 0) << 20;
    QTest::newRow("right after every newline") << lf << after(lf, "\n"_ba, 1) << 20;
    QTest::newRow("CRLF lines in one piece") << crlf << QList<int>{} << 0;
    QTest::newRow("CRLF lines cut between every CR and LF") << crlf << after(crlf, "\r\n"_ba, 1) << 20;
    QTest::newRow("one byte at a time") << lf << everyByteOfTheFirstLine(lf, "\n"_ba) << 1;
    QTest::newRow("CRLF lines one byte at a time") << crlf << everyByteOfTheFirstLine(crlf, "\r\n"_ba) << 1;
}

void OllamaAdapterTest::streamSplitAtAwkwardBytesGivesTheSameResponse()
{
    QFETCH(QByteArray, body);
    QFETCH(QList<int>, cuts);
    QFETCH(int, delayMs);

    m_server->setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.beginStream(200, NdjsonHeaders);
        exchange.sendSplit(body, cuts, delayMs);
        exchange.end();
    });
    auto client = makeClient();
    Observed observed(client.get());
    client->send(userRequest(u"Weather in Z\u00fcrich?"_s));
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QVERIFY2(observed.failed.isEmpty(), qPrintable(observed.failureText()));

    const QString text
        = u"Gr\u00fc\u00dfe aus Z\u00fcrich \u2014 \u6771\u4eac\u306f\u6674\u308c \U0001F324\uFE0F"_s;
    const ModelResponse response = observed.response();
    QVERIFY2(response.text == text, qPrintable(describe(response)));
    QCOMPARE(observed.textDeltas(),
             (QStringList{u"Gr\u00fc\u00dfe aus Z\u00fcrich"_s, u" \u2014 \u6771\u4eac\u306f\u6674\u308c"_s,
                          u" \U0001F324\uFE0F"_s}));
    QCOMPARE(response.toolCalls,
             (QList<ToolCall>{{u"call_k3x9"_s, u"get_weather"_s, u"{\"city\":\"Z\u00fcrich\"}"_s, {}}}));
    QCOMPARE(observed.toolCallDeltas().size(), 1);
    QCOMPARE(response.finishReason, FinishReason::ToolCalls);
    QCOMPARE(response.providerFinishReason, u"stop"_s);
    QCOMPARE(response.usage, (TokenUsage{26, 31}));
    QCOMPARE(response.streamedChunks, 5);
}

// --- Retries --------------------------------------------------------------------------------------

namespace {

struct RetryableStatus
{
    QByteArray name;
    int status = 0;
    QString ollamaError;
};

QList<RetryableStatus> retryableStatuses()
{
    return {{"408 Request Timeout"_ba, 408, u"request timed out"_s},
            {"409 Conflict"_ba, 409, u"model is being pulled, try again later"_s},
            {"429 Too Many Requests"_ba, 429,
             u"server busy, please try again.  maximum pending requests exceeded"_s},
            {"500 Internal Server Error"_ba, 500, u"llama runner process has terminated: signal: killed"_s},
            {"502 Bad Gateway"_ba, 502, u"upstream connect error"_s},
            {"503 Service Unavailable"_ba, 503, u"server is loading the model"_s},
            {"504 Gateway Timeout"_ba, 504, u"upstream request timeout"_s}};
}

} // namespace

void OllamaAdapterTest::retryableStatusIsRetriedUntilAttemptsRunOut_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("ollamaError");
    for (const RetryableStatus &row : retryableStatuses())
        QTest::newRow(QByteArray(row.name + " without Retry-After").constData())
            << row.status << row.ollamaError;
}

void OllamaAdapterTest::retryableStatusIsRetriedUntilAttemptsRunOut()
{
    QFETCH(int, status);
    QFETCH(QString, ollamaError);

    m_server->setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        answerError(exchange, status, ollamaError);
    });
    auto client = makeClient();
    Observed observed(client.get());
    client->send(userRequest(u"Hi"_s));
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QTest::qWait(50); // a wrong late retry would show up here

    QCOMPARE(observed.finished.size(), 0);
    QCOMPARE(observed.failed.size(), 1);
    QCOMPARE(m_server->requests().size(), 3);
    const QList<ModelAttempt> attempts = observed.attemptList();
    QCOMPARE(attempts.size(), 3);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(attempts.at(i).number, i + 1);
        QCOMPARE(attempts.at(i).httpStatus, status);
        QVERIFY2(attempts.at(i).error.contains(ollamaError), qPrintable(attempts.at(i).error));
    }
    // Backoff from a 5 ms base: up to 5 ms, then up to 10 ms (less jitter); the last is not retried.
    QVERIFY2(attempts.at(0).retryInMs >= 0 && attempts.at(0).retryInMs <= 5,
             qPrintable(QString::number(attempts.at(0).retryInMs)));
    QVERIFY2(attempts.at(1).retryInMs >= 0 && attempts.at(1).retryInMs <= 10,
             qPrintable(QString::number(attempts.at(1).retryInMs)));
    QCOMPARE(attempts.at(2).retryInMs, qint64(-1));

    const ModelError error = observed.error();
    QCOMPARE(error.kind, ModelError::Kind::Http);
    QCOMPARE(error.httpStatus, status);
    // Words for a person: the status and what Ollama said, not a raw body.
    QVERIFY2(error.message.contains(QString::number(status)), qPrintable(error.message));
    QVERIFY2(error.message.contains(ollamaError), qPrintable(error.message));
    QVERIFY2(!error.message.contains(u"{\"error\""_s), qPrintable(error.message));
}

void OllamaAdapterTest::retryAfterIsHonouredBeforeTheNextAttempt_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("ollamaError");
    QTest::addColumn<QByteArray>("retryAfter");
    QTest::addColumn<qint64>("expectedDelayMs");

    // Fractional seconds, which the SDKs accept as well, keep these rows fast; the last row has
    // the whole seconds a gateway really sends.
    for (const RetryableStatus &row : retryableStatuses()) {
        QTest::newRow(QByteArray(row.name + " with Retry-After: 0.25").constData())
            << row.status << row.ollamaError << "0.25"_ba << qint64(250);
    }
    QTest::newRow("429 Too Many Requests with Retry-After: 1")
        << 429 << u"server busy, please try again.  maximum pending requests exceeded"_s << "1"_ba
        << qint64(1000);
}

void OllamaAdapterTest::retryAfterIsHonouredBeforeTheNextAttempt()
{
    QFETCH(int, status);
    QFETCH(QString, ollamaError);
    QFETCH(QByteArray, retryAfter);
    QFETCH(qint64, expectedDelayMs);

    QElapsedTimer clock;
    QList<qint64> arrivals;
    m_server->setHandler([&](const HttpRequestRecord &record, HttpExchange &exchange) {
        arrivals.append(clock.elapsed());
        if (exchange.requestIndex() == 0)
            answerError(exchange, status, ollamaError, {{"Retry-After"_ba, retryAfter}});
        else
            answerText(record, exchange, u"back again"_s);
    });
    auto client = makeClient();
    Observed observed(client.get());
    clock.start();
    client->send(userRequest(u"Hi"_s));
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QVERIFY2(observed.failed.isEmpty(), qPrintable(observed.failureText()));
    QCOMPARE(observed.response().text, u"back again"_s);

    QCOMPARE(m_server->requests().size(), 2);
    const QList<ModelAttempt> attempts = observed.attemptList();
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts.at(0).httpStatus, status);
    QCOMPARE(attempts.at(0).retryInMs, expectedDelayMs);
    QVERIFY2(attempts.at(0).error.contains(ollamaError), qPrintable(attempts.at(0).error));
    QCOMPARE(attempts.at(1).httpStatus, 200);
    QCOMPARE(attempts.at(1).retryInMs, qint64(-1));
    QVERIFY(attempts.at(1).error.isEmpty());
    // The client really waited, rather than only saying so.
    QCOMPARE(arrivals.size(), 2);
    QVERIFY2(arrivals.at(1) - arrivals.at(0) >= expectedDelayMs - 50,
             qPrintable(QString::number(arrivals.at(1) - arrivals.at(0))));
}

void OllamaAdapterTest::shouldRetryHeaderOverridesTheStatus_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("shouldRetry");
    QTest::addColumn<int>("expectedRequests");

    QTest::newRow("429 with x-should-retry false is not retried") << 429 << "false"_ba << 1;
    QTest::newRow("503 with x-should-retry false is not retried") << 503 << "false"_ba << 1;
    QTest::newRow("500 with x-should-retry false is not retried") << 500 << "false"_ba << 1;
    QTest::newRow("400 with x-should-retry true is retried") << 400 << "true"_ba << 3;
}

void OllamaAdapterTest::shouldRetryHeaderOverridesTheStatus()
{
    QFETCH(int, status);
    QFETCH(QByteArray, shouldRetry);
    QFETCH(int, expectedRequests);

    m_server->setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        answerError(exchange, status, u"try elsewhere"_s, {{"x-should-retry"_ba, shouldRetry}});
    });
    auto client = makeClient();
    Observed observed(client.get());
    client->send(userRequest(u"Hi"_s));
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QTest::qWait(50);

    QCOMPARE(observed.failed.size(), 1);
    QCOMPARE(m_server->requests().size(), expectedRequests);
    QCOMPARE(observed.attempts.size(), expectedRequests);
    QCOMPARE(observed.attemptList().constLast().retryInMs, qint64(-1));
    QCOMPARE(observed.error().httpStatus, status);
}

void OllamaAdapterTest::clientErrorsFailAtOnceWithOllamasMessage_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("ollamaError");

    QTest::newRow("400 for a request Ollama cannot read")
        << 400
        << u"json: cannot unmarshal string into Go struct field ChatRequest.messages of type []api.Message"_s;
    QTest::newRow("400 for a model that does not support tools")
        << 400 << u"registry.ollama.ai/library/gemma:2b does not support tools"_s;
    QTest::newRow("404 for a model that was never pulled")
        << 404 << u"model \"llama9\" not found, try pulling it first"_s;
}

void OllamaAdapterTest::clientErrorsFailAtOnceWithOllamasMessage()
{
    QFETCH(int, status);
    QFETCH(QString, ollamaError);

    m_server->setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        answerError(exchange, status, ollamaError);
    });
    auto client = makeClient();
    Observed observed(client.get());
    client->send(userRequest(u"Hi"_s));
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QTest::qWait(50);

    QCOMPARE(observed.finished.size(), 0);
    QCOMPARE(m_server->requests().size(), 1);
    QCOMPARE(observed.attempts.size(), 1);
    QCOMPARE(observed.attemptList().constFirst().retryInMs, qint64(-1));
    const ModelError error = observed.error();
    QCOMPARE(error.kind, ModelError::Kind::Http);
    QCOMPARE(error.httpStatus, status);
    QVERIFY2(error.message.contains(ollamaError), qPrintable(error.message));
    QVERIFY2(error.message.contains(QString::number(status)), qPrintable(error.message));
}

void OllamaAdapterTest::connectionResetBeforeHeadersIsRetried()
{
    auto client = makeClient();
    Observed observed(client.get());
    // Qt itself quietly resends a request whose connection was reset before any
    // response, a few times; so the server resets every request until the
    // client has given up on its first attempt, which is the retry under test.
    int requestsInFirstAttempt = 0;
    m_server->setHandler([&](const HttpRequestRecord &record, HttpExchange &exchange) {
        if (observed.attempts.isEmpty()) {
            ++requestsInFirstAttempt;
            exchange.resetConnection();
        } else {
            answerText(record, exchange, u"made it"_s);
        }
    });
    client->send(userRequest(u"Hi"_s));
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QVERIFY2(observed.failed.isEmpty(), qPrintable(observed.failureText()));
    QCOMPARE(observed.response().text, u"made it"_s);

    QVERIFY(requestsInFirstAttempt >= 1);
    QCOMPARE(m_server->requests().size(), requestsInFirstAttempt + 1);
    const QList<ModelAttempt> attempts = observed.attemptList();
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts.at(0).httpStatus, 0);
    QVERIFY(!attempts.at(0).error.isEmpty());
    QVERIFY2(attempts.at(0).retryInMs >= 0 && attempts.at(0).retryInMs <= 5,
             qPrintable(QString::number(attempts.at(0).retryInMs)));
    QCOMPARE(attempts.at(1).httpStatus, 200);
    QVERIFY(attempts.at(1).error.isEmpty());
}

void OllamaAdapterTest::failureInsideTheStreamIsReportedNotRetried_data()
{
    QTest::addColumn<StreamFault>("fault");
    QTest::addColumn<ModelError::Kind>("expectedKind");
    QTest::addColumn<QString>("expectedMessagePart");

    const QString ollamaError = u"an error was encountered while running the model: unexpected EOF"_s;
    // The parser's own words, so the test does not depend on how they are phrased.
    NdjsonParser parser;
    const QByteArray badStream = ndjsonLine(textChunk(u"Hello"_s))
                                 + "{\"model\":\"qwen3:8b\",\"message\":{\"role\":\"assistant\",,}\n"_ba;
    parser.feed(badStream);
    const QString parserError = parser.errorString();
    QVERIFY(!parserError.isEmpty());

    QTest::newRow("the connection closes mid-stream")
        << StreamFault::CloseMidStream << ModelError::Kind::Network << QString();
    QTest::newRow("the connection is reset mid-stream")
        << StreamFault::ResetMidStream << ModelError::Kind::Network << QString();
    QTest::newRow("the stream ends cleanly without a done line")
        << StreamFault::EndWithoutDone << ModelError::Kind::Protocol
        << u"ended before the response was complete"_s;
    QTest::newRow("the stream ends in the middle of a line")
        << StreamFault::EndInsideLine << ModelError::Kind::Protocol << u"cut in the middle of a line"_s;
    QTest::newRow("an error line arrives mid-stream")
        << StreamFault::ErrorLine << ModelError::Kind::Protocol << ollamaError;
    QTest::newRow("a line is not valid JSON")
        << StreamFault::MalformedLine << ModelError::Kind::Protocol << parserError;
}

void OllamaAdapterTest::failureInsideTheStreamIsReportedNotRetried()
{
    QFETCH(StreamFault, fault);
    QFETCH(ModelError::Kind, expectedKind);
    QFETCH(QString, expectedMessagePart);

    const QString ollamaError = u"an error was encountered while running the model: unexpected EOF"_s;
    m_server->setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.beginStream(200, NdjsonHeaders);
        exchange.send(ndjsonLine(textChunk(u"Hello"_s)));
        switch (fault) {
        case StreamFault::CloseMidStream:
            exchange.send(ndjsonLine(textChunk(u" wor"_s)).left(20), 20);
            exchange.closeMidStream(20);
            break;
        case StreamFault::ResetMidStream: exchange.resetConnection(20); break;
        case StreamFault::EndWithoutDone: exchange.end(20); break;
        case StreamFault::EndInsideLine:
            exchange.send(ndjsonLine(doneObject(u"stop"_s, 1, 1)).left(40), 20);
            exchange.end(20);
            break;
        case StreamFault::ErrorLine:
            exchange.send(ndjsonLine(QJsonObject{{u"error"_s, ollamaError}}), 20);
            exchange.send(ndjsonLine(doneObject(u"stop"_s, 1, 1)), 20);
            exchange.end();
            break;
        case StreamFault::MalformedLine:
            exchange.send("{\"model\":\"qwen3:8b\",\"message\":{\"role\":\"assistant\",,}\n"_ba, 20);
            exchange.send(ndjsonLine(doneObject(u"stop"_s, 1, 1)), 20);
            exchange.end();
            break;
        }
    });
    auto client = makeClient();
    Observed observed(client.get());
    client->send(userRequest(u"Hi"_s));
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QTest::qWait(100); // a wrong retry would show up here

    QCOMPARE(observed.finished.size(), 0);
    QCOMPARE(observed.failed.size(), 1);
    QCOMPARE(m_server->requests().size(), 1);
    QCOMPARE(observed.attempts.size(), 1);
    QCOMPARE(observed.attemptList().constFirst().retryInMs, qint64(-1));
    // What streamed before the failure was delivered.
    QCOMPARE(observed.textDeltas(), QStringList{u"Hello"_s});
    const ModelError error = observed.error();
    // Qt reports some resets as a normal end of the body (which of the two depends on when the
    // reset reaches the socket); then the missing done line gives the cut away.
    const bool resetSeenAsEnd = fault == StreamFault::ResetMidStream
                                && error.kind == ModelError::Kind::Protocol
                                && error.message.contains(u"ended before the response was complete"_s);
    QVERIFY2(error.kind == expectedKind || resetSeenAsEnd, qPrintable(describe(error)));
    QVERIFY2(!error.message.isEmpty(), qPrintable(describe(error)));
    QVERIFY2(error.message.contains(expectedMessagePart), qPrintable(describe(error)));
}

void OllamaAdapterTest::silenceLongerThanTheReadTimeoutFailsInsteadOfHanging_data()
{
    QTest::addColumn<bool>("afterFirstLine");
    QTest::addColumn<int>("expectedRequests");

    QTest::newRow("silence mid-stream fails at once") << true << 1;
    QTest::newRow("silence before the headers is retried, then fails") << false << 3;
}

void OllamaAdapterTest::silenceLongerThanTheReadTimeoutFailsInsteadOfHanging()
{
    QFETCH(bool, afterFirstLine);
    QFETCH(int, expectedRequests);

    m_server->setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        if (afterFirstLine) {
            exchange.beginStream(200, NdjsonHeaders);
            exchange.send(ndjsonLine(textChunk(u"Thinking about it"_s)));
        }
        exchange.stall();
    });
    auto client = makeClient({}, 300);
    Observed observed(client.get());
    QElapsedTimer clock;
    clock.start();
    client->send(userRequest(u"Hi"_s));
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    const qint64 elapsed = clock.elapsed();
    QTest::qWait(50);

    QCOMPARE(observed.finished.size(), 0);
    QCOMPARE(m_server->requests().size(), expectedRequests);
    QCOMPARE(observed.attempts.size(), expectedRequests);
    const ModelError error = observed.error();
    QVERIFY2(error.kind == ModelError::Kind::Timeout, qPrintable(describe(error)));
    QVERIFY2(error.message.contains(u"0.3 s"_s), qPrintable(describe(error)));
    // Each attempt waits out the read timeout once, no more.
    QVERIFY2(elapsed >= 300 * expectedRequests, qPrintable(QString::number(elapsed)));
    QVERIFY2(elapsed < 300 * expectedRequests + 1500, qPrintable(QString::number(elapsed)));
    if (afterFirstLine)
        QCOMPARE(observed.textDeltas(), QStringList{u"Thinking about it"_s});
}

void OllamaAdapterTest::lastLineWithoutNewlineStillCompletesTheStream()
{
    m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.beginStream(200, NdjsonHeaders);
        exchange.send(ndjsonLine(textChunk(u"Hi there"_s)));
        exchange.send(ndjsonLine(doneObject(u"stop"_s, 5, 2)).chopped(1), 20);
        exchange.end(20);
    });
    auto client = makeClient();
    Observed observed(client.get());
    client->send(userRequest(u"Hi"_s));
    QTRY_VERIFY_WITH_TIMEOUT(observed.ended(), EndTimeoutMs);
    QVERIFY2(observed.failed.isEmpty(), qPrintable(observed.failureText()));
    QCOMPARE(observed.response().text, u"Hi there"_s);
    QCOMPARE(observed.response().usage, (TokenUsage{5, 2}));
}

void OllamaAdapterTest::linesBeforeAMalformedLineAreStillDelivered()
{
    // Over the network the good line may arrive in the same read as the bad one.
    const std::unique_ptr<ResponseDecoder> decoder = OllamaProtocol().createDecoder(true);
    RecordingSink sink;
    const QByteArray bytes
        = ndjsonLine(textChunk(u"Hello"_s))
          + ndjsonLine(toolCallChunk({toolCall(u"get_time"_s, QJsonObject(), u"call_1"_s, 0)}))
          + "{\"model\":\"qwen3:8b\",,}\n"_ba;
    const QString error = decoder->feed(bytes, sink);

    NdjsonParser parser;
    parser.feed(bytes);
    QCOMPARE(error, parser.errorString());
    QCOMPARE(sink.texts, QStringList{u"Hello"_s});
    QCOMPARE(sink.deltas.size(), 1);
    QCOMPARE(decoder->chunkCount(), 2);
}

void OllamaAdapterTest::wholeBodyProblemsAreReported_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("expectedMessagePart");

    QTest::newRow("a body that is not JSON") << "<html>Bad Gateway</html>"_ba << u"not a JSON object"_s;
    QTest::newRow("an error object with status 200") << errorBody(u"model runner has unexpectedly stopped"_s)
                                                     << u"model runner has unexpectedly stopped"_s;
    QTest::newRow("an object that does not say it is done")
        << ndjsonLine(textChunk(u"Hel"_s)) << u"does not say it is done"_s;
    QTest::newRow("a stream where a whole answer was asked for")
        << ndjsonLine(textChunk(u"Hel"_s)) + ndjsonLine(doneObject(u"stop"_s, 1, 1))
        << u"not a JSON object"_s;
}

void OllamaAdapterTest::wholeBodyProblemsAreReported()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, expectedMessagePart);

    const std::unique_ptr<ResponseDecoder> decoder = OllamaProtocol().createDecoder(false);
    RecordingSink sink;
    QVERIFY(decoder->feed(body, sink).isEmpty());
    const auto outcome = decoder->finish();
    const QString *error = std::get_if<QString>(&outcome);
    QVERIFY2(error, "the body decoded as a response");
    QVERIFY2(error->contains(expectedMessagePart), qPrintable(*error));
}

// --- Error bodies ---------------------------------------------------------------------------------

void OllamaAdapterTest::errorMessageReadsOllamasErrorBody_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("expected");

    QTest::newRow("Ollama's own error") << errorBody(u"model \"x\" not found, try pulling it first"_s)
                                        << u"model \"x\" not found, try pulling it first"_s;
    QTest::newRow("a proxy's OpenAI-style error")
        << "{\"error\":{\"message\":\"invalid api key\",\"type\":\"auth\"}}"_ba << u"invalid api key"_s;
    QTest::newRow("a body that is not JSON") << "502 Bad Gateway"_ba << QString();
    QTest::newRow("an empty body") << QByteArray() << QString();
}

void OllamaAdapterTest::errorMessageReadsOllamasErrorBody()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, expected);
    QCOMPARE(OllamaProtocol().errorMessage(body), expected);
}

QTEST_GUILESS_MAIN(OllamaAdapterTest)
#include "tst_ollamaadapter.moc"
