#include "agent/providers/anthropicprotocol.h"
#include "agent/providers/httpmodelclient.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/samplingrows.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>

#include <cmath>
#include <memory>
#include <tuple>

using namespace Loopscope;
using namespace Qt::StringLiterals;

// Test data is written with escaped ordinary strings or built as QJsonObjects: moc misreads raw
// strings holding an unbalanced quote, and JSON fragments are full of them.

namespace {

const QString apiKey = u"sk-ant-api03-TESTKEY-0123456789abcdefghij"_s;
const QString model = u"claude-sonnet-4-5"_s;

QByteArray compact(const QJsonValue &value)
{
    if (value.isArray())
        return QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact);
    if (value.isObject())
        return QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact);
    return value.toVariant().toString().toUtf8();
}

// ---- The Anthropic wire format, as the Messages API documents it ----

// One SSE event framed as the API frames it: an event line naming the type, one data line, a blank line.
QByteArray sse(const QJsonObject &data, const QByteArray &lineEnd = "\n"_ba)
{
    return "event: "_ba + data.value(u"type"_s).toString().toUtf8() + lineEnd + "data: "_ba + compact(data)
           + lineEnd + lineEnd;
}

QByteArray sse(const QList<QJsonObject> &events, const QByteArray &lineEnd = "\n"_ba)
{
    QByteArray stream;
    for (const QJsonObject &event : events)
        stream += sse(event, lineEnd);
    return stream;
}

QJsonObject usage(qint64 input, qint64 output)
{
    return {{u"input_tokens"_s, input},
            {u"cache_creation_input_tokens"_s, 0},
            {u"cache_read_input_tokens"_s, 0},
            {u"output_tokens"_s, output}};
}

QJsonObject messageStart(qint64 inputTokens)
{
    return {{u"type"_s, u"message_start"_s},
            {u"message"_s, QJsonObject{{u"id"_s, u"msg_01XFDUDYJgAACzvnptvVoYEL"_s},
                                       {u"type"_s, u"message"_s},
                                       {u"role"_s, u"assistant"_s},
                                       {u"content"_s, QJsonArray()},
                                       {u"model"_s, model},
                                       {u"stop_reason"_s, QJsonValue::Null},
                                       {u"stop_sequence"_s, QJsonValue::Null},
                                       {u"usage"_s, usage(inputTokens, 1)}}}};
}

QJsonObject textStart(int index)
{
    return {{u"type"_s, u"content_block_start"_s},
            {u"index"_s, index},
            {u"content_block"_s, QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u""_s}}}};
}

QJsonObject toolUseStart(int index, const QString &id, const QString &name)
{
    return {{u"type"_s, u"content_block_start"_s},
            {u"index"_s, index},
            {u"content_block"_s,
             QJsonObject{
                 {u"type"_s, u"tool_use"_s}, {u"id"_s, id}, {u"name"_s, name}, {u"input"_s, QJsonObject()}}}};
}

QJsonObject textDelta(int index, const QString &text)
{
    return {{u"type"_s, u"content_block_delta"_s},
            {u"index"_s, index},
            {u"delta"_s, QJsonObject{{u"type"_s, u"text_delta"_s}, {u"text"_s, text}}}};
}

QJsonObject inputJsonDelta(int index, const QString &partialJson)
{
    return {{u"type"_s, u"content_block_delta"_s},
            {u"index"_s, index},
            {u"delta"_s, QJsonObject{{u"type"_s, u"input_json_delta"_s}, {u"partial_json"_s, partialJson}}}};
}

QJsonObject blockStop(int index)
{
    return {{u"type"_s, u"content_block_stop"_s}, {u"index"_s, index}};
}

QJsonObject messageDelta(const QString &stopReason, qint64 outputTokens)
{
    return {{u"type"_s, u"message_delta"_s},
            {u"delta"_s, QJsonObject{{u"stop_reason"_s, stopReason}, {u"stop_sequence"_s, QJsonValue::Null}}},
            {u"usage"_s, QJsonObject{{u"output_tokens"_s, outputTokens}}}};
}

QJsonObject messageStop()
{
    return {{u"type"_s, u"message_stop"_s}};
}

QJsonObject ping()
{
    return {{u"type"_s, u"ping"_s}};
}

QJsonObject errorObject(const QString &type, const QString &message)
{
    return {{u"type"_s, u"error"_s}, {u"error"_s, QJsonObject{{u"type"_s, type}, {u"message"_s, message}}}};
}

QJsonObject errorBody(const QString &type, const QString &message)
{
    QJsonObject body = errorObject(type, message);
    body.insert(u"request_id"_s, u"req_011CSHoEeqs5C35K2UUqR7Fy"_s);
    return body;
}

// A non-streamed Messages response.
QJsonObject messageBody(const QJsonArray &content, const QString &stopReason, qint64 input, qint64 output)
{
    return {{u"id"_s, u"msg_01XFDUDYJgAACzvnptvVoYEL"_s},
            {u"type"_s, u"message"_s},
            {u"role"_s, u"assistant"_s},
            {u"model"_s, model},
            {u"content"_s, content},
            {u"stop_reason"_s, stopReason},
            {u"stop_sequence"_s, QJsonValue::Null},
            {u"usage"_s, usage(input, output)}};
}

QByteArray helloStream(const QString &stopReason = u"end_turn"_s)
{
    return sse({messageStart(25), textStart(0), ping(), textDelta(0, u"Hello"_s), textDelta(0, u", world"_s),
                blockStop(0), messageDelta(stopReason, 15), messageStop()});
}

const HttpHeaders sseHeaders{{"content-type"_ba, "text/event-stream; charset=utf-8"_ba},
                             {"cache-control"_ba, "no-cache"_ba},
                             {"request-id"_ba, "req_011CSHoEeqs5C35K2UUqR7Fy"_ba}};

using Respond = std::function<void(HttpExchange &)>;

Respond streamOf(const QByteArray &stream, const QList<int> &cuts = {}, int delayMs = 0)
{
    return [stream, cuts, delayMs](HttpExchange &exchange) {
        exchange.beginStream(200, sseHeaders);
        exchange.sendSplit(stream, cuts, delayMs);
        exchange.end();
    };
}

Respond jsonOf(int status, const QJsonObject &body, const HttpHeaders &headers = {})
{
    return [status, body, headers](HttpExchange &exchange) {
        exchange.respondJson(status, body, headers);
    };
}

// A text answer in whichever form the request asked for.
Respond hello()
{
    return [](HttpExchange &exchange) {
        if (exchange.request().json().value(u"stream"_s).toBool())
            streamOf(helloStream())(exchange);
        else
            jsonOf(200, messageBody({QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"Hello, world"_s}}},
                                    u"end_turn"_s, 25, 15))(exchange);
    };
}

// ---- Request building blocks: the Anthropic shapes the encoder must produce ----

QJsonObject turn(const QString &role, const QJsonArray &content)
{
    return {{u"role"_s, role}, {u"content"_s, content}};
}

QJsonObject text(const QString &text)
{
    return {{u"type"_s, u"text"_s}, {u"text"_s, text}};
}

QJsonObject toolUse(const QString &id, const QString &name, const QJsonObject &input)
{
    return {{u"type"_s, u"tool_use"_s}, {u"id"_s, id}, {u"name"_s, name}, {u"input"_s, input}};
}

QJsonObject toolResult(const QString &id, const QString &content, bool isError = false)
{
    QJsonObject result{{u"type"_s, u"tool_result"_s}, {u"tool_use_id"_s, id}, {u"is_error"_s, isError}};
    if (!content.isEmpty())
        result.insert(u"content"_s, content);
    return result;
}

ToolCall call(const QString &id, const QString &name, const QString &arguments)
{
    return {id, name, arguments, {}};
}

ModelRequest requestFor(const QList<Message> &messages, bool stream = true)
{
    ModelRequest request;
    request.messages = messages;
    request.options.model = model;
    request.options.stream = stream;
    return request;
}

ModelRequest helloRequest(bool stream = true)
{
    return requestFor({Message::user(u"Say hello."_s)}, stream);
}

QString describe(const QList<ToolCall> &calls)
{
    QStringList parts;
    for (const ToolCall &call : calls)
        parts.append(u"%1 %2 %3"_s.arg(call.id, call.name, call.arguments));
    return parts.join(u" | "_s);
}

// The client under test, with a spy on each of its signals.
class Session final
{
public:
    Session(QNetworkAccessManager *network, const ProviderEndpoint &endpoint)
        : client(network, std::make_unique<AnthropicProtocol>(), endpoint)
    {
        client.retryPolicy().setBaseDelayMs(5);
        // No jitter: backoff delays are exactly 5 and 10 ms.
        client.retryPolicy().setRandom([] { return 0.0; });
    }

    bool isDone() const { return finished.count() + failed.count() > 0; }
    ModelResponse response() const
    {
        return finished.isEmpty() ? ModelResponse() : finished.first().first().value<ModelResponse>();
    }
    ModelError error() const
    {
        return failed.isEmpty() ? ModelError() : failed.first().first().value<ModelError>();
    }
    QList<ModelAttempt> attemptList() const
    {
        QList<ModelAttempt> result;
        for (const QList<QVariant> &arguments : attempts)
            result.append(arguments.first().value<ModelAttempt>());
        return result;
    }
    QStringList textPieces() const
    {
        QStringList result;
        for (const QList<QVariant> &arguments : texts)
            result.append(arguments.first().toString());
        return result;
    }
    QList<ToolCallDelta> deltas() const
    {
        QList<ToolCallDelta> result;
        for (const QList<QVariant> &arguments : toolDeltas)
            result.append(arguments.first().value<ToolCallDelta>());
        return result;
    }

    HttpModelClient client;
    QSignalSpy finished{&client, &ModelClient::finished};
    QSignalSpy failed{&client, &ModelClient::failed};
    QSignalSpy attempts{&client, &ModelClient::attemptFinished};
    QSignalSpy texts{&client, &ModelClient::textDelta};
    QSignalSpy toolDeltas{&client, &ModelClient::toolCallDelta};
};

} // namespace

class tst_AnthropicAdapter final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    // The request as sent
    void requestGoesToTheMessagesEndpointWithAnthropicHeaders_data();
    void requestGoesToTheMessagesEndpointWithAnthropicHeaders();
    void historyIsSentAsAlternatingAnthropicMessages_data();
    void historyIsSentAsAlternatingAnthropicMessages();
    void toolUseIdsAreUniqueAndEveryResultAnswersItsCall_data();
    void toolUseIdsAreUniqueAndEveryResultAnswersItsCall();
    void toolsAndToolChoiceAreMapped_data();
    void toolsAndToolChoiceAreMapped();
    void aFailedToolResultIsFlaggedIsErrorAndItsTextKept_data();
    void aFailedToolResultIsFlaggedIsErrorAndItsTextKept();
    void maxTokensAndSamplingOptionsAreSent_data();
    void maxTokensAndSamplingOptionsAreSent();
    void topPIsSentAsTopPOnlyWhenSet_data();
    void topPIsSentAsTopPOnlyWhenSet();

    // Answers
    void textAnswerIsStreamed();
    void textAnswerIsReadWhole();
    void stopReasonIsMapped_data();
    void stopReasonIsMapped();
    void toolCallsAreAssembledFromInputJsonDeltas_data();
    void toolCallsAreAssembledFromInputJsonDeltas();
    void toolCallsAreReadFromAWholeBody();
    void cacheReadsAndWritesArePartOfTheInput();
    void unknownEventsAndBlocksAreTolerated();
    void streamSplitAnywhereGivesTheSameAnswer_data();
    void streamSplitAnywhereGivesTheSameAnswer();

    // Retries
    void retryableStatusIsRetried_data();
    void retryableStatusIsRetried();
    void exhaustedRetriesFailWithAHumanMessage_data();
    void exhaustedRetriesFailWithAHumanMessage();
    void shouldRetryHeaderOverridesTheStatus_data();
    void shouldRetryHeaderOverridesTheStatus();
    void nonRetryableErrorsFailAtOnce_data();
    void nonRetryableErrorsFailAtOnce();
    void connectionResetBeforeHeadersIsRetried();

    // Broken streams
    void streamCutInTheMiddleFailsWithoutRetry_data();
    void streamCutInTheMiddleFailsWithoutRetry();
    void errorEventInsideAStreamFailsWithItsMessage();
    void stallIsReportedAsATimeout_data();
    void stallIsReportedAsATimeout();
    void malformedEventFailsWithAClearError_data();
    void malformedEventFailsWithAClearError();

    // Secrets
    void apiKeyNeverAppearsInAttemptsOrErrors_data();
    void apiKeyNeverAppearsInAttemptsOrErrors();
    void errorMessageReadsAnthropicErrorBodies_data();
    void errorMessageReadsAnthropicErrorBodies();

private:
    ProviderEndpoint endpoint() const;
    // Answers request i with responders[i], later requests with the last one.
    void script(const QList<Respond> &responders);
    Session &start(const ModelRequest &request, const ProviderEndpoint &endpoint);
    Session &start(const ModelRequest &request) { return start(request, endpoint()); }
    qsizetype requestCount() const { return m_server->requests().size(); }
    // The body of the one request the server saw.
    QJsonObject sentBody() const;
    void verifyNothingRecordedHoldsTheKey(const Session &session);

    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<FakeHttpServer> m_server;
    std::unique_ptr<Session> m_session;
};

// Wait for the outcome; every test bounds its wait so a broken client fails instead of hanging.
#define WAIT_DONE(session) QTRY_VERIFY_WITH_TIMEOUT((session).isDone(), 10000)

void tst_AnthropicAdapter::init()
{
    m_network = std::make_unique<QNetworkAccessManager>();
    m_server = std::make_unique<FakeHttpServer>();
    QVERIFY(m_server->listen());
}

void tst_AnthropicAdapter::cleanup()
{
    // Taken first, so that a failed check below cannot leave it to the next test.
    const std::unique_ptr<Session> session = std::move(m_session);
    if (m_server)
        m_server->setHandler({});
    if (session)
        verifyNothingRecordedHoldsTheKey(*session);
    // The session dies here, before init() replaces the server and network manager it used.
}

void tst_AnthropicAdapter::verifyNothingRecordedHoldsTheKey(const Session &session)
{
    // Whatever a test did, the key must not reach anything Loopscope records or shows.
    const QByteArray key = apiKey.toUtf8();
    for (const ModelAttempt &attempt : session.attemptList())
        QVERIFY2(!compact(attempt.toJson()).contains(key), compact(attempt.toJson()).constData());
    QVERIFY2(!session.error().message.contains(apiKey), qPrintable(session.error().message));
    QVERIFY(!compact(session.response().raw).contains(key));
}

ProviderEndpoint tst_AnthropicAdapter::endpoint() const
{
    ProviderEndpoint endpoint;
    endpoint.baseUrl = m_server->baseUrl();
    endpoint.apiKey = apiKey;
    endpoint.connectTimeoutMs = 2'000;
    endpoint.readTimeoutMs = 3'000;
    endpoint.maxRetries = 2;
    endpoint.defaultMaxOutputTokens = 4096;
    return endpoint;
}

void tst_AnthropicAdapter::script(const QList<Respond> &responders)
{
    Q_ASSERT(!responders.isEmpty());
    m_server->setHandler([responders](const HttpRequestRecord &, HttpExchange &exchange) {
        responders.at(std::min<qsizetype>(exchange.requestIndex(), responders.size() - 1))(exchange);
    });
}

Session &tst_AnthropicAdapter::start(const ModelRequest &request, const ProviderEndpoint &endpoint)
{
    m_session = std::make_unique<Session>(m_network.get(), endpoint);
    m_session->client.send(request);
    return *m_session;
}

QJsonObject tst_AnthropicAdapter::sentBody() const
{
    const QList<HttpRequestRecord> requests = m_server->requests();
    return requests.isEmpty() ? QJsonObject() : requests.first().json();
}

// ---------------------------------------------------------------------------------------------
// The request as sent

void tst_AnthropicAdapter::requestGoesToTheMessagesEndpointWithAnthropicHeaders_data()
{
    QTest::addColumn<QString>("basePath");
    QTest::addColumn<bool>("withKey");
    QTest::addColumn<bool>("streaming");
    QTest::addColumn<QByteArray>("expectedPath");

    QTest::newRow("base URL without /v1") << QString() << true << true << "/v1/messages"_ba;
    QTest::newRow("base URL with a trailing slash") << u"/"_s << true << true << "/v1/messages"_ba;
    QTest::newRow("base URL with a proxy path")
        << u"/gateway/anthropic"_s << true << true << "/gateway/anthropic/v1/messages"_ba;
    QTest::newRow("proxy path with a trailing slash")
        << u"/gateway/anthropic/"_s << true << true << "/gateway/anthropic/v1/messages"_ba;
    QTest::newRow("not streaming asks for no event stream")
        << QString() << true << false << "/v1/messages"_ba;
    QTest::newRow("no key sends no x-api-key header") << QString() << false << true << "/v1/messages"_ba;
}

void tst_AnthropicAdapter::requestGoesToTheMessagesEndpointWithAnthropicHeaders()
{
    QFETCH(QString, basePath);
    QFETCH(bool, withKey);
    QFETCH(bool, streaming);
    QFETCH(QByteArray, expectedPath);

    script({hello()});
    ProviderEndpoint settings = endpoint();
    QUrl base = m_server->baseUrl();
    base.setPath(basePath);
    settings.baseUrl = base;
    if (!withKey)
        settings.apiKey.clear();
    Session &session = start(helloRequest(streaming), settings);
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);
    QCOMPARE(session.response().text, u"Hello, world"_s);

    QCOMPARE(requestCount(), 1);
    const HttpRequestRecord request = m_server->requests().first();
    QCOMPARE(request.method, "POST"_ba);
    QCOMPARE(request.path, expectedPath);
    QCOMPARE(request.hasHeader("x-api-key"), withKey);
    if (withKey)
        QCOMPARE(request.header("x-api-key"), apiKey.toUtf8());
    QVERIFY(!request.hasHeader("authorization"));
    QCOMPARE(request.header("anthropic-version"), "2023-06-01"_ba);
    QCOMPARE(request.header("content-type"), "application/json"_ba);
    QCOMPARE(request.header("accept") == "text/event-stream", streaming);
    QCOMPARE(request.json().value(u"stream"_s).toBool(), streaming);
}

void tst_AnthropicAdapter::historyIsSentAsAlternatingAnthropicMessages_data()
{
    QTest::addColumn<QList<Message>>("history");
    QTest::addColumn<QString>("expectedSystem"); // empty: no system field at all
    QTest::addColumn<QJsonArray>("expectedMessages");

    const ToolCall weather
        = call(u"toolu_01A09q90qw90lq917835lq9"_s, u"get_weather"_s, u"{\"city\": \"Paris\"}"_s);
    const ToolCall time = call(u"toolu_01B8kRgJ3a5PDnFqZ2tVh6x"_s, u"get_time"_s, u"{\"zone\": \"CET\"}"_s);
    const QJsonObject paris{{u"city"_s, u"Paris"_s}};
    const QJsonObject cet{{u"zone"_s, u"CET"_s}};

    QTest::newRow("a lone user message") << QList<Message>{Message::user(u"Hi"_s)} << QString()
                                         << QJsonArray{turn(u"user"_s, {text(u"Hi"_s)})};

    QTest::newRow("system messages are joined into the system field")
        << QList<Message>{Message::system(u"You are terse."_s), Message::system(u"Answer in French."_s),
                          Message::user(u"Hi"_s)}
        << u"You are terse.\n\nAnswer in French."_s << QJsonArray{turn(u"user"_s, {text(u"Hi"_s)})};

    QTest::newRow("consecutive messages of one role are merged")
        << QList<Message>{Message::user(u"First"_s), Message::user(u"Second"_s), Message::assistant(u"One"_s),
                          Message::assistant(u"Two"_s), Message::user(u"Third"_s)}
        << QString()
        << QJsonArray{turn(u"user"_s, {text(u"First"_s), text(u"Second"_s)}),
                      turn(u"assistant"_s, {text(u"One"_s), text(u"Two"_s)}),
                      turn(u"user"_s, {text(u"Third"_s)})};

    QTest::newRow("a tool round trip")
        << QList<Message>{Message::system(u"Be brief."_s), Message::user(u"Weather in Paris?"_s),
                          Message::assistant(u"Let me check."_s, {weather}),
                          Message::toolResult(weather, u"18 \u00b0C, sunny"_s, false),
                          Message::assistant(u"It is 18 \u00b0C and sunny."_s)}
        << u"Be brief."_s
        << QJsonArray{
               turn(u"user"_s, {text(u"Weather in Paris?"_s)}),
               turn(u"assistant"_s, {text(u"Let me check."_s), toolUse(weather.id, u"get_weather"_s, paris)}),
               turn(u"user"_s, {toolResult(weather.id, u"18 \u00b0C, sunny"_s)}),
               turn(u"assistant"_s, {text(u"It is 18 \u00b0C and sunny."_s)})};

    QTest::newRow("parallel results share one user message, before the user's text")
        << QList<Message>{Message::user(u"Weather and time?"_s),
                          Message::assistant(QString(), {weather, time}),
                          Message::toolResult(weather, u"18 \u00b0C"_s, false),
                          Message::toolResult(time, u"14:05"_s, false), Message::user(u"Thanks!"_s)}
        << QString()
        << QJsonArray{turn(u"user"_s, {text(u"Weather and time?"_s)}),
                      turn(u"assistant"_s, {toolUse(weather.id, u"get_weather"_s, paris),
                                            toolUse(time.id, u"get_time"_s, cet)}),
                      turn(u"user"_s, {toolResult(weather.id, u"18 \u00b0C"_s),
                                       toolResult(time.id, u"14:05"_s), text(u"Thanks!"_s)})};

    QTest::newRow("a user message between a call and its result still follows the result")
        << QList<Message>{Message::user(u"Weather?"_s), Message::assistant(QString(), {weather}),
                          Message::user(u"Hurry up."_s), Message::toolResult(weather, u"18 \u00b0C"_s, false)}
        << QString()
        << QJsonArray{turn(u"user"_s, {text(u"Weather?"_s)}),
                      turn(u"assistant"_s, {toolUse(weather.id, u"get_weather"_s, paris)}),
                      turn(u"user"_s, {toolResult(weather.id, u"18 \u00b0C"_s), text(u"Hurry up."_s)})};

    QTest::newRow("empty and blank texts are not sent")
        << QList<Message>{Message::system(u"  "_s),
                          Message::user(u"Weather?"_s),
                          Message::user(QString()),
                          Message::assistant(u" \n "_s, {weather}),
                          Message::toolResult(weather, QString(), false),
                          Message::assistant(QString()),
                          Message::user(u"And now?"_s)}
        << QString()
        << QJsonArray{turn(u"user"_s, {text(u"Weather?"_s)}),
                      turn(u"assistant"_s, {toolUse(weather.id, u"get_weather"_s, paris)}),
                      turn(u"user"_s, {toolResult(weather.id, QString()), text(u"And now?"_s)})};

    QTest::newRow("a failed tool is marked is_error")
        << QList<Message>{Message::user(u"Weather?"_s), Message::assistant(QString(), {weather}),
                          Message::toolResult(weather, u"service unavailable"_s, true)}
        << QString()
        << QJsonArray{turn(u"user"_s, {text(u"Weather?"_s)}),
                      turn(u"assistant"_s, {toolUse(weather.id, u"get_weather"_s, paris)}),
                      turn(u"user"_s, {toolResult(weather.id, u"service unavailable"_s, true)})};

    const ToolCall array = call(u"toolu_a"_s, u"f"_s, u"[1, 2]"_s);
    const ToolCall garbage = call(u"toolu_b"_s, u"f"_s, u"{\"city\": \"Par"_s);
    const ToolCall empty = call(u"toolu_c"_s, u"f"_s, QString());
    const ToolCall valid = call(u"toolu_d"_s, u"f"_s, u"{\"n\": 1}"_s);
    QTest::newRow("arguments that are not a JSON object are sent as an empty input")
        << QList<Message>{Message::user(u"Go"_s),
                          Message::assistant(QString(), {array, garbage, empty, valid}),
                          Message::toolResult(array, u"a"_s, true),
                          Message::toolResult(garbage, u"b"_s, true),
                          Message::toolResult(empty, u"c"_s, false),
                          Message::toolResult(valid, u"d"_s, false)}
        << QString()
        << QJsonArray{
               turn(u"user"_s, {text(u"Go"_s)}),
               turn(u"assistant"_s, {toolUse(u"toolu_a"_s, u"f"_s, {}), toolUse(u"toolu_b"_s, u"f"_s, {}),
                                     toolUse(u"toolu_c"_s, u"f"_s, {}),
                                     toolUse(u"toolu_d"_s, u"f"_s, QJsonObject{{u"n"_s, 1}})}),
               turn(u"user"_s,
                    {toolResult(u"toolu_a"_s, u"a"_s, true), toolResult(u"toolu_b"_s, u"b"_s, true),
                     toolResult(u"toolu_c"_s, u"c"_s), toolResult(u"toolu_d"_s, u"d"_s)})};
}

void tst_AnthropicAdapter::historyIsSentAsAlternatingAnthropicMessages()
{
    QFETCH(QList<Message>, history);
    QFETCH(QString, expectedSystem);
    QFETCH(QJsonArray, expectedMessages);

    script({hello()});
    Session &session = start(requestFor(history));
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);

    const QJsonObject body = sentBody();
    QCOMPARE(body.contains(u"system"_s), !expectedSystem.isEmpty());
    QCOMPARE(body.value(u"system"_s).toString(), expectedSystem);
    QCOMPARE(compact(body.value(u"messages"_s)), compact(expectedMessages));
}

void tst_AnthropicAdapter::toolUseIdsAreUniqueAndEveryResultAnswersItsCall_data()
{
    QTest::addColumn<QList<Message>>("history");
    QTest::addColumn<bool>("idsKept");

    // Each call's result is "<name> result", so the pairing on the wire can be checked.
    const auto round = [](const QList<ToolCall> &calls) {
        QList<Message> messages{Message::assistant(QString(), calls)};
        for (const ToolCall &call : calls)
            messages.append(Message::toolResult(call, call.name + u" result"_s, false));
        return messages;
    };
    const QList<Message> opening{Message::user(u"Go"_s)};

    QTest::newRow("well-formed unique ids are kept")
        << opening + round({call(u"toolu_01"_s, u"a"_s, u"{}"_s), call(u"toolu_02"_s, u"b"_s, u"{}"_s)})
               + round({call(u"toolu_03"_s, u"c"_s, u"{}"_s)})
        << true;
    QTest::newRow("an id reused in a later turn") << opening + round({call(u"toolu_01"_s, u"a"_s, u"{}"_s)})
                                                         + round({call(u"toolu_01"_s, u"b"_s, u"{}"_s)})
                                                  << false;
    QTest::newRow("the same id twice in one turn")
        << opening + round({call(u"toolu_01"_s, u"a"_s, u"{}"_s), call(u"toolu_01"_s, u"b"_s, u"{}"_s)})
        << false;
    QTest::newRow("calls without ids")
        << opening + round({call(QString(), u"a"_s, u"{}"_s), call(QString(), u"b"_s, u"{}"_s)})
               + round({call(QString(), u"c"_s, u"{}"_s)})
        << false;
    QTest::newRow("ids with characters the API refuses")
        << opening + round({call(u"call:1"_s, u"a"_s, u"{}"_s), call(u"fc.2 x"_s, u"b"_s, u"{}"_s)}) << false;
}

void tst_AnthropicAdapter::toolUseIdsAreUniqueAndEveryResultAnswersItsCall()
{
    QFETCH(QList<Message>, history);
    QFETCH(bool, idsKept);

    script({hello()});
    Session &session = start(requestFor(history));
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);

    const QRegularExpression idPattern(u"^[a-zA-Z0-9_-]+$"_s);
    const QJsonArray messages = sentBody().value(u"messages"_s).toArray();
    QSet<QString> seenIds;
    QHash<QString, QString> nameOfId;
    QStringList sentIds;
    for (int i = 0; i < messages.size(); ++i) {
        const QJsonObject message = messages.at(i).toObject();
        QCOMPARE(message.value(u"role"_s).toString(), i % 2 == 0 ? u"user"_s : u"assistant"_s);
        const QJsonArray content = message.value(u"content"_s).toArray();
        QVERIFY(!content.isEmpty());
        if (message.value(u"role"_s) == u"assistant"_s) {
            QStringList callIds;
            for (const QJsonValue &value : content) {
                const QJsonObject block = value.toObject();
                if (block.value(u"type"_s) != u"tool_use"_s)
                    continue;
                const QString id = block.value(u"id"_s).toString();
                QVERIFY2(idPattern.match(id).hasMatch(), qPrintable(id));
                QVERIFY2(!seenIds.contains(id), qPrintable(u"duplicate id "_s + id));
                seenIds.insert(id);
                nameOfId.insert(id, block.value(u"name"_s).toString());
                callIds.append(id);
            }
            sentIds += callIds;
            // The next message answers exactly these calls, results first and in order.
            QVERIFY(i + 1 < messages.size());
            const QJsonArray answer = messages.at(i + 1).toObject().value(u"content"_s).toArray();
            QVERIFY(answer.size() >= callIds.size());
            for (int r = 0; r < callIds.size(); ++r) {
                const QJsonObject result = answer.at(r).toObject();
                QCOMPARE(result.value(u"type"_s).toString(), u"tool_result"_s);
                QCOMPARE(result.value(u"tool_use_id"_s).toString(), callIds.at(r));
                QCOMPARE(result.value(u"content"_s).toString(), nameOfId.value(callIds.at(r)) + u" result"_s);
            }
        }
    }

    QStringList historyIds;
    for (const Message &message : history) {
        for (const ToolCall &call : message.toolCalls)
            historyIds.append(call.id);
    }
    QCOMPARE(sentIds.size(), historyIds.size());
    if (idsKept)
        QCOMPARE(sentIds, historyIds);
}

void tst_AnthropicAdapter::toolsAndToolChoiceAreMapped_data()
{
    QTest::addColumn<bool>("withTools");
    QTest::addColumn<ToolChoice>("choice");
    QTest::addColumn<QString>("expectedChoice"); // empty: no tool_choice field

    QTest::newRow("auto") << true << ToolChoice::Auto << u"auto"_s;
    QTest::newRow("required becomes any") << true << ToolChoice::Required << u"any"_s;
    QTest::newRow("none") << true << ToolChoice::None << u"none"_s;
    QTest::newRow("no tools sends no tool_choice") << false << ToolChoice::Auto << QString();
    QTest::newRow("no tools sends no tool_choice even when required")
        << false << ToolChoice::Required << QString();
}

void tst_AnthropicAdapter::toolsAndToolChoiceAreMapped()
{
    QFETCH(bool, withTools);
    QFETCH(ToolChoice, choice);
    QFETCH(QString, expectedChoice);

    const QJsonObject citySchema{
        {u"type"_s, u"object"_s},
        {u"properties"_s, QJsonObject{{u"city"_s, QJsonObject{{u"type"_s, u"string"_s}}}}},
        {u"required"_s, QJsonArray{u"city"_s}}};
    ModelRequest request = helloRequest();
    if (withTools) {
        request.tools = {{u"get_weather"_s, u"Current weather in a city."_s, citySchema},
                         {u"get_time"_s, QString(), QJsonObject()}};
    }
    request.toolChoice = choice;
    script({hello()});
    Session &session = start(request);
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);

    const QJsonObject body = sentBody();
    QCOMPARE(body.contains(u"tools"_s), withTools);
    QCOMPARE(body.contains(u"tool_choice"_s), !expectedChoice.isEmpty());
    if (!withTools)
        return;
    const QJsonArray expectedTools{
        QJsonObject{{u"name"_s, u"get_weather"_s},
                    {u"description"_s, u"Current weather in a city."_s},
                    {u"input_schema"_s, citySchema}},
        // A tool without parameters still needs an object schema.
        QJsonObject{
            {u"name"_s, u"get_time"_s},
            {u"input_schema"_s, QJsonObject{{u"type"_s, u"object"_s}, {u"properties"_s, QJsonObject()}}}}};
    QCOMPARE(compact(body.value(u"tools"_s)), compact(expectedTools));
    QCOMPARE(compact(body.value(u"tool_choice"_s)), compact(QJsonObject{{u"type"_s, expectedChoice}}));
}

void tst_AnthropicAdapter::aFailedToolResultIsFlaggedIsErrorAndItsTextKept_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("isError");
    QTest::newRow("a success is not flagged") << u"3 \u00b0C"_s << false;
    // Anthropic has the flag, so the text is not marked as well.
    QTest::newRow("a refused path is flagged, its text as it is") << u"path leaves the workspace"_s << true;
}

void tst_AnthropicAdapter::aFailedToolResultIsFlaggedIsErrorAndItsTextKept()
{
    QFETCH(QString, text);
    QFETCH(bool, isError);
    const ToolCall lookup{u"toolu_1"_s, u"get_weather"_s, u"{\"city\":\"Oslo\"}"_s, {}};
    ModelRequest request;
    request.options.model = u"claude-test"_s;
    request.messages = {Message::user(u"Weather?"_s), Message::assistant(QString(), {lookup}),
                        Message::toolResult(lookup, text, isError)};
    const QJsonArray messages
        = AnthropicProtocol().encode(request, ProviderEndpoint{}).body.value(u"messages"_s).toArray();
    const QJsonObject result = messages.last()[u"content"_s].toArray().first().toObject();
    QCOMPARE(result.value(u"type"_s).toString(), u"tool_result"_s);
    QCOMPARE(result.value(u"is_error"_s).toBool(), isError);
    QVERIFY(result.value(u"is_error"_s).isBool());
    QCOMPARE(result.value(u"content"_s).toString(), text);
}

void tst_AnthropicAdapter::maxTokensAndSamplingOptionsAreSent_data()
{
    QTest::addColumn<int>("requestMaxTokens"); // 0: unset
    QTest::addColumn<int>("endpointDefault");
    QTest::addColumn<double>("temperature"); // NaN: unset
    QTest::addColumn<int>("expectedMaxTokens");

    QTest::newRow("max tokens from the request") << 1000 << 4096 << qQNaN() << 1000;
    QTest::newRow("max tokens from the endpoint when the request has none") << 0 << 2048 << qQNaN() << 2048;
    QTest::newRow("temperature is sent when set") << 0 << 4096 << 0.25 << 4096;
    QTest::newRow("zero temperature is sent too") << 0 << 4096 << 0.0 << 4096;
}

void tst_AnthropicAdapter::maxTokensAndSamplingOptionsAreSent()
{
    QFETCH(int, requestMaxTokens);
    QFETCH(int, endpointDefault);
    QFETCH(double, temperature);
    QFETCH(int, expectedMaxTokens);

    ModelRequest request = helloRequest();
    if (requestMaxTokens > 0)
        request.options.maxOutputTokens = requestMaxTokens;
    if (!std::isnan(temperature))
        request.options.temperature = temperature;
    ProviderEndpoint settings = endpoint();
    settings.defaultMaxOutputTokens = endpointDefault;
    script({hello()});
    Session &session = start(request, settings);
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);

    const QJsonObject body = sentBody();
    QCOMPARE(body.value(u"model"_s).toString(), model);
    QCOMPARE(body.value(u"max_tokens"_s).toInt(), expectedMaxTokens);
    QCOMPARE(body.contains(u"temperature"_s), !std::isnan(temperature));
    if (!std::isnan(temperature))
        QCOMPARE(body.value(u"temperature"_s).toDouble(), temperature);
}

void tst_AnthropicAdapter::topPIsSentAsTopPOnlyWhenSet_data()
{
    Testing::addTopPRows();
}

void tst_AnthropicAdapter::topPIsSentAsTopPOnlyWhenSet()
{
    QFETCH(double, topP);
    QFETCH(double, temperature);
    script({hello()});
    Session &session = start(Testing::withSampling(helloRequest(), topP, temperature));
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);

    QCOMPARE(Testing::sentSampling(sentBody(), u"top_p"_s, u"temperature"_s),
             Testing::expectedSampling(u"top_p"_s, u"temperature"_s, topP, temperature));
}

// ---------------------------------------------------------------------------------------------
// Answers

void tst_AnthropicAdapter::textAnswerIsStreamed()
{
    script({streamOf(helloStream(), {}, 5)});
    Session &session = start(helloRequest());
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);

    QCOMPARE(session.textPieces(), (QStringList{u"Hello"_s, u", world"_s}));
    QVERIFY(session.deltas().isEmpty());
    const ModelResponse response = session.response();
    QCOMPARE(response.text, u"Hello, world"_s);
    QCOMPARE(response.toolCalls.size(), 0);
    QCOMPARE(response.finishReason, FinishReason::Stop);
    QCOMPARE(response.providerFinishReason, u"end_turn"_s);
    QCOMPARE(response.usage, (TokenUsage{25, 15}));
    QCOMPARE(response.model, model);
    QCOMPARE(response.streamedChunks, 8); // every event, the ping included
    // More than a few events are kept summarised: their count, the first and the last two.
    QCOMPARE(response.raw.toObject().value(u"streamEvents"_s).toInt(), 8);
    QCOMPARE(response.raw.toObject().value(u"last"_s).toArray().size(), 2);

    const QList<ModelAttempt> attempts = session.attemptList();
    QCOMPARE(attempts.size(), 1);
    QCOMPARE(attempts.first().httpStatus, 200);
    QCOMPARE(attempts.first().error, QString());
    QCOMPARE(attempts.first().retryInMs, -1);
    QCOMPARE(requestCount(), 1);
}

void tst_AnthropicAdapter::textAnswerIsReadWhole()
{
    script({jsonOf(200, messageBody({text(u"Hello, "_s), text(u"world"_s)}, u"end_turn"_s, 25, 15))});
    Session &session = start(helloRequest(false));
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);

    const ModelResponse response = session.response();
    QCOMPARE(response.text, u"Hello, world"_s);
    QCOMPARE(response.finishReason, FinishReason::Stop);
    QCOMPARE(response.providerFinishReason, u"end_turn"_s);
    QCOMPARE(response.usage, (TokenUsage{25, 15}));
    QCOMPARE(response.model, model);
    QCOMPARE(response.streamedChunks, 0);
    QCOMPARE(response.raw.toObject().value(u"id"_s).toString(), u"msg_01XFDUDYJgAACzvnptvVoYEL"_s);
    QCOMPARE(session.attemptList().size(), 1);
}

void tst_AnthropicAdapter::stopReasonIsMapped_data()
{
    QTest::addColumn<bool>("streaming");
    QTest::addColumn<QString>("stopReason");
    QTest::addColumn<FinishReason>("expected");

    const QList<std::tuple<const char *, QString, FinishReason>> reasons{
        {"end_turn is a stop", u"end_turn"_s, FinishReason::Stop},
        {"stop_sequence is a stop", u"stop_sequence"_s, FinishReason::Stop},
        {"tool_use asks for tool calls", u"tool_use"_s, FinishReason::ToolCalls},
        {"max_tokens is a length cut", u"max_tokens"_s, FinishReason::Length},
        {"refusal is a content filter", u"refusal"_s, FinishReason::ContentFilter},
        {"pause_turn is other so the agent can resend", u"pause_turn"_s, FinishReason::Other},
        {"model_context_window_exceeded is other", u"model_context_window_exceeded"_s, FinishReason::Other},
        {"an unknown future reason is other", u"brand_new_reason"_s, FinishReason::Other},
    };
    for (bool streaming : {true, false}) {
        for (const auto &[name, reason, expected] : reasons) {
            QTest::addRow("%s, %s", name, streaming ? "streamed" : "whole")
                << streaming << reason << expected;
        }
    }
}

void tst_AnthropicAdapter::stopReasonIsMapped()
{
    QFETCH(bool, streaming);
    QFETCH(QString, stopReason);
    QFETCH(FinishReason, expected);

    script({streaming ? streamOf(helloStream(stopReason))
                      : jsonOf(200, messageBody({text(u"Hello, world"_s)}, stopReason, 25, 15))});
    Session &session = start(helloRequest(streaming));
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);
    QCOMPARE(session.response().finishReason, expected);
    QCOMPARE(session.response().providerFinishReason, stopReason);
    QCOMPARE(session.response().text, u"Hello, world"_s);
}

void tst_AnthropicAdapter::toolCallsAreAssembledFromInputJsonDeltas_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::addColumn<QString>("expectedText");
    QTest::addColumn<QList<ToolCall>>("expectedCalls");
    QTest::addColumn<FinishReason>("expectedFinish");
    QTest::addColumn<TokenUsage>("expectedUsage");

    QTest::newRow("a single call after some text")
        << sse({messageStart(472), textStart(0), textDelta(0, u"Let me check"_s),
                textDelta(0, u" the weather."_s), blockStop(0),
                toolUseStart(1, u"toolu_01T1x1fJ34qAmk2tNTrN7Up6"_s, u"get_weather"_s),
                inputJsonDelta(1, QString()), inputJsonDelta(1, u"{\"ci"_s),
                inputJsonDelta(1, u"ty\": \"Pa"_s), inputJsonDelta(1, u"ris\"}"_s), blockStop(1),
                messageDelta(u"tool_use"_s, 89), messageStop()})
        << u"Let me check the weather."_s
        << QList<ToolCall>{call(u"toolu_01T1x1fJ34qAmk2tNTrN7Up6"_s, u"get_weather"_s,
                                u"{\"city\": \"Paris\"}"_s)}
        << FinishReason::ToolCalls << TokenUsage{472, 89};

    QTest::newRow("two parallel calls")
        << sse({messageStart(500), toolUseStart(0, u"toolu_01A"_s, u"get_weather"_s),
                inputJsonDelta(0, QString()), inputJsonDelta(0, u"{\"city\":"_s),
                inputJsonDelta(0, u" \"Paris\"}"_s), blockStop(0), ping(),
                toolUseStart(1, u"toolu_01B"_s, u"get_time"_s), inputJsonDelta(1, u"{\"zone\": "_s),
                inputJsonDelta(1, u"\"CET\"}"_s), blockStop(1), messageDelta(u"tool_use"_s, 120),
                messageStop()})
        << QString()
        << QList<ToolCall>{call(u"toolu_01A"_s, u"get_weather"_s, u"{\"city\": \"Paris\"}"_s),
                           call(u"toolu_01B"_s, u"get_time"_s, u"{\"zone\": \"CET\"}"_s)}
        << FinishReason::ToolCalls << TokenUsage{500, 120};

    QTest::newRow("a call without parameters streams an empty input")
        << sse({messageStart(30), toolUseStart(0, u"toolu_01C"_s, u"get_time"_s),
                inputJsonDelta(0, QString()), blockStop(0), messageDelta(u"tool_use"_s, 12), messageStop()})
        << QString() << QList<ToolCall>{call(u"toolu_01C"_s, u"get_time"_s, u"{}"_s)}
        << FinishReason::ToolCalls << TokenUsage{30, 12};

    QTest::newRow("a call cut by max_tokens keeps its unfinished arguments")
        << sse({messageStart(40), toolUseStart(0, u"toolu_01D"_s, u"write_file"_s),
                inputJsonDelta(0, u"{\"path\": \"a.txt\", \"text\": \"Once upon"_s),
                messageDelta(u"max_tokens"_s, 16), messageStop()})
        << QString()
        << QList<ToolCall>{call(u"toolu_01D"_s, u"write_file"_s,
                                u"{\"path\": \"a.txt\", \"text\": \"Once upon"_s)}
        << FinishReason::Length << TokenUsage{40, 16};
}

void tst_AnthropicAdapter::toolCallsAreAssembledFromInputJsonDeltas()
{
    QFETCH(QByteArray, stream);
    QFETCH(QString, expectedText);
    QFETCH(QList<ToolCall>, expectedCalls);
    QFETCH(FinishReason, expectedFinish);
    QFETCH(TokenUsage, expectedUsage);

    script({streamOf(stream, {}, 2)});
    Session &session = start(helloRequest());
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);

    const ModelResponse response = session.response();
    QCOMPARE(response.text, expectedText);
    QCOMPARE(describe(response.toolCalls), describe(expectedCalls));
    QCOMPARE(response.finishReason, expectedFinish);
    QCOMPARE(response.usage, expectedUsage);

    // Live deltas: the first of each call names it, the rest carry the fragments in order.
    const QList<ToolCallDelta> deltas = session.deltas();
    QList<ToolCall> streamed;
    for (const ToolCallDelta &delta : deltas) {
        if (delta.index == streamed.size()) {
            QVERIFY2(!delta.id.isEmpty() && !delta.name.isEmpty(), "the first delta of a call names it");
            streamed.append(call(delta.id, delta.name, delta.argumentsFragment));
        } else {
            QCOMPARE(delta.index, streamed.size() - 1);
            streamed.last().arguments += delta.argumentsFragment;
        }
    }
    for (ToolCall &call : streamed) {
        if (call.arguments.isEmpty())
            call.arguments = u"{}"_s;
    }
    QCOMPARE(describe(streamed), describe(expectedCalls));
}

void tst_AnthropicAdapter::cacheReadsAndWritesArePartOfTheInput()
{
    QJsonObject body = messageBody({text(u"Cached."_s)}, u"end_turn"_s, 0, 0);
    body.insert(u"usage"_s, QJsonObject{{u"input_tokens"_s, 20},
                                        {u"cache_creation_input_tokens"_s, 300},
                                        {u"cache_read_input_tokens"_s, 1000},
                                        {u"output_tokens"_s, 7}});
    script({jsonOf(200, body)});
    Session &session = start(helloRequest(false));
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);
    // The prompt was all three; the cache counts say which part is priced how.
    QCOMPARE(session.response().usage, (TokenUsage{1320, 7, 1000, 300}));
}

void tst_AnthropicAdapter::toolCallsAreReadFromAWholeBody()
{
    const QJsonArray content{text(u"Checking both."_s),
                             toolUse(u"toolu_01A"_s, u"get_weather"_s, {{u"city"_s, u"Paris"_s}}),
                             toolUse(u"toolu_01B"_s, u"get_time"_s, {})};
    script({jsonOf(200, messageBody(content, u"tool_use"_s, 300, 60))});
    Session &session = start(helloRequest(false));
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);

    const ModelResponse response = session.response();
    QCOMPARE(response.text, u"Checking both."_s);
    QCOMPARE(describe(response.toolCalls),
             describe({call(u"toolu_01A"_s, u"get_weather"_s, u"{\"city\":\"Paris\"}"_s),
                       call(u"toolu_01B"_s, u"get_time"_s, u"{}"_s)}));
    QCOMPARE(response.finishReason, FinishReason::ToolCalls);
    QCOMPARE(response.usage, (TokenUsage{300, 60}));
}

void tst_AnthropicAdapter::unknownEventsAndBlocksAreTolerated()
{
    // Thinking blocks, citations, an event type from the future: none of them may break the answer.
    const QJsonObject thinkingStart{
        {u"type"_s, u"content_block_start"_s},
        {u"index"_s, 0},
        {u"content_block"_s, QJsonObject{{u"type"_s, u"thinking"_s}, {u"thinking"_s, u""_s}}}};
    const QJsonObject thinkingDelta{
        {u"type"_s, u"content_block_delta"_s},
        {u"index"_s, 0},
        {u"delta"_s, QJsonObject{{u"type"_s, u"thinking_delta"_s}, {u"thinking"_s, u"Let me think."_s}}}};
    const QJsonObject signatureDelta{
        {u"type"_s, u"content_block_delta"_s},
        {u"index"_s, 0},
        {u"delta"_s, QJsonObject{{u"type"_s, u"signature_delta"_s}, {u"signature"_s, u"EqQBCgIYAhIM"_s}}}};
    const QJsonObject future{{u"type"_s, u"content_block_annotation"_s}, {u"index"_s, 1}};
    const QByteArray stream = sse({messageStart(25), ping(), thinkingStart, thinkingDelta, signatureDelta,
                                   blockStop(0), textStart(1), textDelta(1, u"Done."_s), future, blockStop(1),
                                   ping(), messageDelta(u"end_turn"_s, 7), messageStop()})
                              + ": a comment line\n\n"_ba;
    script({streamOf(stream)});
    Session &session = start(helloRequest());
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);
    QCOMPARE(session.response().text, u"Done."_s);
    QCOMPARE(session.textPieces(), QStringList{u"Done."_s});
    QCOMPARE(session.response().finishReason, FinishReason::Stop);
    QCOMPARE(session.response().usage, (TokenUsage{25, 7}));
}

namespace {

// A stream framed with CRLF, with multi-byte characters in text and in tool arguments.
QByteArray awkwardStream()
{
    return sse({messageStart(61), textStart(0), ping(), textDelta(0, u"Gr\u00fc\u00dfe aus Z\u00fcrich "_s),
                textDelta(0, u"\U0001F30D \u2014 \u65e5\u672c\u8a9e"_s), blockStop(0),
                toolUseStart(1, u"toolu_01Awk"_s, u"translate"_s), inputJsonDelta(1, QString()),
                inputJsonDelta(1, u"{\"text\": \"\u65e5\u672c"_s),
                inputJsonDelta(1, u"\u8a9e\", \"to\": \"de\"}"_s), blockStop(1),
                messageDelta(u"tool_use"_s, 33), messageStop()},
               "\r\n"_ba);
}

} // namespace

void tst_AnthropicAdapter::streamSplitAnywhereGivesTheSameAnswer_data()
{
    QTest::addColumn<QList<int>>("cuts");

    const QByteArray stream = awkwardStream();
    const auto after = [&stream](const QByteArray &needle, int offset) {
        const qsizetype at = stream.indexOf(needle);
        Q_ASSERT(at >= 0);
        return int(at + offset);
    };
    QTest::newRow("in one piece") << QList<int>{};
    QTest::newRow("inside a two-byte character") << QList<int>{after("\xc3\xbc"_ba, 1)};
    QTest::newRow("at every byte of a four-byte character") << QList<int>{
        after("\xf0\x9f\x8c\x8d"_ba, 1), after("\xf0\x9f\x8c\x8d"_ba, 2), after("\xf0\x9f\x8c\x8d"_ba, 3)};
    QTest::newRow("inside a three-byte character in tool arguments")
        << QList<int>{after("\xe8\xaa\x9e"_ba, 2)};
    QTest::newRow("between CR and LF") << QList<int>{after("\r\n"_ba, 1)};
    QTest::newRow("between the two line ends closing an event") << QList<int>{after("\r\n\r\n"_ba, 2)};
    QTest::newRow("inside an event name") << QList<int>{after("event: content_block_delta"_ba, 12)};
    QTest::newRow("inside a JSON escape") << QList<int>{after("\\\"text"_ba, 1)};
    QList<int> everyByte;
    for (int i = 1; i < stream.size(); ++i)
        everyByte.append(i);
    QTest::newRow("one byte at a time") << everyByte;
}

void tst_AnthropicAdapter::streamSplitAnywhereGivesTheSameAnswer()
{
    QFETCH(QList<int>, cuts);

    script({streamOf(awkwardStream(), cuts, cuts.size() > 10 ? 0 : 3)});
    Session &session = start(helloRequest());
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);

    const QString expectedText = u"Gr\u00fc\u00dfe aus Z\u00fcrich \U0001F30D \u2014 \u65e5\u672c\u8a9e"_s;
    const ModelResponse response = session.response();
    QCOMPARE(response.text, expectedText);
    QCOMPARE(session.textPieces().join(QString()), expectedText);
    QCOMPARE(describe(response.toolCalls),
             describe({call(u"toolu_01Awk"_s, u"translate"_s,
                            u"{\"text\": \"\u65e5\u672c\u8a9e\", \"to\": \"de\"}"_s)}));
    QString streamedArguments;
    for (const ToolCallDelta &delta : session.deltas())
        streamedArguments += delta.argumentsFragment;
    QCOMPARE(streamedArguments, response.toolCalls.value(0).arguments);
    QCOMPARE(response.finishReason, FinishReason::ToolCalls);
    QCOMPARE(response.usage, (TokenUsage{61, 33}));
    QCOMPARE(response.streamedChunks, 13);
    QCOMPARE(requestCount(), 1);
}

// ---------------------------------------------------------------------------------------------
// Retries

namespace {

// What the API (or a gateway in front of it) answers with each status.
Respond failure(int status, const HttpHeaders &headers = {})
{
    return [status, headers](HttpExchange &exchange) {
        switch (status) {
        case 429:
            exchange.respondJson(
                status,
                errorBody(u"rate_limit_error"_s,
                          u"Number of request tokens has exceeded your per-minute rate limit"_s),
                headers);
            break;
        case 500:
            exchange.respondJson(status, errorBody(u"api_error"_s, u"Internal server error"_s), headers);
            break;
        case 504:
            exchange.respondJson(status, errorBody(u"timeout_error"_s, u"Request timed out"_s), headers);
            break;
        case 529:
            exchange.respondJson(status, errorBody(u"overloaded_error"_s, u"Overloaded"_s), headers);
            break;
        default: // gateways in front of the API answer in plain text
            exchange.respond(status, HttpHeaders{{"content-type"_ba, "text/plain"_ba}} + headers,
                             "upstream connect error or disconnect/reset before headers"_ba);
            break;
        }
    };
}

} // namespace

void tst_AnthropicAdapter::retryableStatusIsRetried_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<HttpHeaders>("headers");
    QTest::addColumn<QDateTime>("now"); // for HTTP-date retry-after
    QTest::addColumn<QList<qint64>>("expectedDelays");

    for (int status : {408, 409, 429, 500, 502, 503, 504, 529}) {
        QTest::addRow("%d with exponential backoff", status)
            << status << HttpHeaders() << QDateTime() << QList<qint64>{5, 10};
        QTest::addRow("%d with retry-after in seconds", status)
            << status << HttpHeaders{{"retry-after"_ba, "0.02"_ba}} << QDateTime() << QList<qint64>{20, 20};
        QTest::addRow("%d with retry-after-ms", status)
            << status << HttpHeaders{{"retry-after-ms"_ba, "30"_ba}} << QDateTime() << QList<qint64>{30, 30};
    }
    QTest::newRow("retry-after-ms wins over retry-after")
        << 529 << HttpHeaders{{"retry-after"_ba, "0.05"_ba}, {"retry-after-ms"_ba, "15"_ba}} << QDateTime()
        << QList<qint64>{15, 15};
    QTest::newRow("retry-after as an HTTP date")
        << 503 << HttpHeaders{{"retry-after"_ba, "Wed, 21 Oct 2015 07:28:00 GMT"_ba}}
        << QDateTime(QDate(2015, 10, 21), QTime(7, 27, 59, 975), QTimeZone::utc()) << QList<qint64>{25, 25};
    QTest::newRow("retry-after beyond a minute falls back to backoff")
        << 429 << HttpHeaders{{"retry-after"_ba, "120"_ba}} << QDateTime() << QList<qint64>{5, 10};
}

void tst_AnthropicAdapter::retryableStatusIsRetried()
{
    QFETCH(int, status);
    QFETCH(HttpHeaders, headers);
    QFETCH(QDateTime, now);
    QFETCH(QList<qint64>, expectedDelays);

    script({failure(status, headers), failure(status, headers), streamOf(helloStream())});
    m_session = std::make_unique<Session>(m_network.get(), endpoint());
    Session &session = *m_session;
    if (now.isValid())
        session.client.retryPolicy().setNow([now] { return now; });
    session.client.send(helloRequest());
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);
    QCOMPARE(session.response().text, u"Hello, world"_s);

    QCOMPARE(requestCount(), 3);
    const QList<ModelAttempt> attempts = session.attemptList();
    QCOMPARE(attempts.size(), 3);
    for (int i = 0; i < 2; ++i) {
        QCOMPARE(attempts.at(i).number, i + 1);
        QCOMPARE(attempts.at(i).httpStatus, status);
        QCOMPARE(attempts.at(i).retryInMs, expectedDelays.at(i));
        QVERIFY2(attempts.at(i).error.contains(u"retrying"_s), qPrintable(attempts.at(i).error));
    }
    QCOMPARE(attempts.at(2).number, 3);
    QCOMPARE(attempts.at(2).httpStatus, 200);
    QCOMPARE(attempts.at(2).error, QString());
    QCOMPARE(attempts.at(2).retryInMs, -1);
    // Every attempt sent the same request.
    const QList<HttpRequestRecord> requests = m_server->requests();
    QCOMPARE(requests.at(1).body, requests.at(0).body);
    QCOMPARE(requests.at(2).body, requests.at(0).body);
}

void tst_AnthropicAdapter::exhaustedRetriesFailWithAHumanMessage_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QStringList>("expectedInMessage");

    QTest::newRow("529 overloaded") << 529
                                    << QStringList{u"overloaded (529)"_s, u"overloaded_error: Overloaded"_s};
    QTest::newRow("429 rate limited") << 429 << QStringList{u"rate limited"_s, u"rate_limit_error"_s};
    QTest::newRow("500 api error") << 500
                                   << QStringList{u"failed (500)"_s, u"api_error: Internal server error"_s};
    QTest::newRow("502 from a gateway in plain text")
        << 502 << QStringList{u"failed (502)"_s, u"upstream connect"_s};
}

void tst_AnthropicAdapter::exhaustedRetriesFailWithAHumanMessage()
{
    QFETCH(int, status);
    QFETCH(QStringList, expectedInMessage);

    script({failure(status)});
    Session &session = start(helloRequest());
    WAIT_DONE(session);
    QCOMPARE(session.finished.count(), 0);

    const ModelError error = session.error();
    QCOMPARE(error.kind, ModelError::Kind::Http);
    QCOMPARE(error.httpStatus, status);
    for (const QString &part : expectedInMessage)
        QVERIFY2(error.message.contains(part), qPrintable(error.message));
    QVERIFY2(!error.message.contains(u"retrying"_s), qPrintable(error.message));

    QCOMPARE(requestCount(), 3);
    const QList<ModelAttempt> attempts = session.attemptList();
    QCOMPARE(attempts.size(), 3);
    QCOMPARE(attempts.at(0).retryInMs, 5);
    QCOMPARE(attempts.at(1).retryInMs, 10);
    QCOMPARE(attempts.at(2).retryInMs, -1);
    QVERIFY(!attempts.at(2).error.isEmpty());
}

void tst_AnthropicAdapter::shouldRetryHeaderOverridesTheStatus_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("shouldRetry");
    QTest::addColumn<int>("expectedRequests");
    QTest::addColumn<bool>("expectSuccess");

    QTest::newRow("500 with x-should-retry false is not retried") << 500 << "false"_ba << 1 << false;
    QTest::newRow("529 with x-should-retry false is not retried") << 529 << "false"_ba << 1 << false;
    QTest::newRow("429 with x-should-retry false is not retried") << 429 << "false"_ba << 1 << false;
    QTest::newRow("409 with x-should-retry true is retried") << 409 << "true"_ba << 2 << true;
    QTest::newRow("400 with x-should-retry true is retried") << 400 << "true"_ba << 2 << true;
}

void tst_AnthropicAdapter::shouldRetryHeaderOverridesTheStatus()
{
    QFETCH(int, status);
    QFETCH(QByteArray, shouldRetry);
    QFETCH(int, expectedRequests);
    QFETCH(bool, expectSuccess);

    const HttpHeaders headers{{"x-should-retry"_ba, shouldRetry}};
    script(
        {jsonOf(status, errorBody(u"api_error"_s, u"Try again later"_s), headers), streamOf(helloStream())});
    Session &session = start(helloRequest());
    WAIT_DONE(session);
    QTest::qWait(60); // a retry would have been sent by now
    QCOMPARE(session.finished.count(), expectSuccess ? 1 : 0);
    QCOMPARE(session.failed.count(), expectSuccess ? 0 : 1);
    QCOMPARE(requestCount(), expectedRequests);
    QCOMPARE(session.attemptList().size(), expectedRequests);
    QCOMPARE(session.attemptList().first().retryInMs >= 0, expectSuccess);
    if (!expectSuccess) {
        QCOMPARE(session.error().httpStatus, status);
        QVERIFY2(session.error().message.contains(u"api_error: Try again later"_s),
                 qPrintable(session.error().message));
    }
}

void tst_AnthropicAdapter::nonRetryableErrorsFailAtOnce_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("errorType");
    QTest::addColumn<QString>("providerMessage");
    QTest::addColumn<QString>("expectedSummary");

    QTest::newRow("401 says the key was rejected")
        << 401 << u"authentication_error"_s << u"invalid x-api-key"_s << u"API key was rejected"_s;
    QTest::newRow("403 says the key was rejected")
        << 403 << u"permission_error"_s
        << u"Your API key does not have permission to use the specified resource."_s
        << u"API key was rejected"_s;
    QTest::newRow("400 carries the provider's explanation")
        << 400 << u"invalid_request_error"_s
        << u"messages.1.content.0: text content blocks must contain non-whitespace text"_s
        << u"refused the request (400)"_s;
    QTest::newRow("404 points at the base URL and model")
        << 404 << u"not_found_error"_s << u"model: claude-nonexistent"_s
        << u"check the base URL and the model name"_s;
    QTest::newRow("413 carries the provider's explanation")
        << 413 << u"request_too_large"_s << u"Request exceeds the maximum allowed number of bytes."_s
        << u"413"_s;
}

void tst_AnthropicAdapter::nonRetryableErrorsFailAtOnce()
{
    QFETCH(int, status);
    QFETCH(QString, errorType);
    QFETCH(QString, providerMessage);
    QFETCH(QString, expectedSummary);

    script({jsonOf(status, errorBody(errorType, providerMessage)), streamOf(helloStream())});
    Session &session = start(helloRequest());
    WAIT_DONE(session);
    QTest::qWait(60); // a retry would have been sent by now
    QCOMPARE(session.finished.count(), 0);
    QCOMPARE(requestCount(), 1);

    const ModelError error = session.error();
    QCOMPARE(error.kind, ModelError::Kind::Http);
    QCOMPARE(error.httpStatus, status);
    QVERIFY2(error.message.contains(expectedSummary), qPrintable(error.message));
    QVERIFY2(error.message.contains(errorType + u": "_s + providerMessage), qPrintable(error.message));
    const QList<ModelAttempt> attempts = session.attemptList();
    QCOMPARE(attempts.size(), 1);
    QCOMPARE(attempts.first().retryInMs, -1);
    QCOMPARE(attempts.first().httpStatus, status);
    QCOMPARE(attempts.first().response.toObject().value(u"error"_s).toObject().value(u"type"_s).toString(),
             errorType);
}

void tst_AnthropicAdapter::connectionResetBeforeHeadersIsRetried()
{
    // QNetworkAccessManager itself resends once when a connection is reset before any response, so
    // two resets in a row are needed before the client sees a failure it must retry.
    const Respond reset = [](HttpExchange &exchange) {
        exchange.resetConnection();
    };
    script({reset, reset, streamOf(helloStream())});
    Session &session = start(helloRequest());
    WAIT_DONE(session);
    QCOMPARE(session.failed.count(), 0);
    QCOMPARE(session.response().text, u"Hello, world"_s);

    QCOMPARE(requestCount(), 3);
    const QList<ModelAttempt> attempts = session.attemptList();
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts.first().httpStatus, 0);
    QCOMPARE(attempts.first().retryInMs, 5);
    QVERIFY2(attempts.first().error.contains(u"could not reach 127.0.0.1"_s),
             qPrintable(attempts.first().error));
    QCOMPARE(attempts.last().httpStatus, 200);
    QCOMPARE(attempts.last().error, QString());
}

// ---------------------------------------------------------------------------------------------
// Broken streams

void tst_AnthropicAdapter::streamCutInTheMiddleFailsWithoutRetry_data()
{
    QTest::addColumn<int>("ending"); // 0: clean close, 1: TCP reset, 2: HTTP body ended cleanly

    QTest::newRow("connection closed mid-stream") << 0;
    QTest::newRow("connection reset mid-stream") << 1;
    QTest::newRow("body ended without message_stop") << 2;
}

void tst_AnthropicAdapter::streamCutInTheMiddleFailsWithoutRetry()
{
    QFETCH(int, ending);

    const QByteArray partial = sse({messageStart(25), textStart(0), textDelta(0, u"Hel"_s)});
    script({[partial, ending](HttpExchange &exchange) {
        exchange.beginStream(200, sseHeaders);
        exchange.send(partial);
        if (ending == 0)
            exchange.closeMidStream(20);
        else if (ending == 1)
            exchange.resetConnection(20);
        else
            exchange.end(20);
    }});
    Session &session = start(helloRequest());
    WAIT_DONE(session);
    QTest::qWait(60); // a retry would have been sent by now
    QCOMPARE(session.finished.count(), 0);
    QCOMPARE(session.textPieces(), QStringList{u"Hel"_s});
    QCOMPARE(requestCount(), 1);

    const ModelError error = session.error();
    QCOMPARE(error.httpStatus, 200);
    // Qt reports some cuts as a normal end of body: then the missing message_stop gives them away.
    QVERIFY2(error.message.contains(u"ended before the response was complete"_s)
                 || error.message.contains(u"connection was cut"_s),
             qPrintable(error.message));
    if (ending == 2) {
        QCOMPARE(error.kind, ModelError::Kind::Protocol);
        QVERIFY(error.message.contains(u"ended before the response was complete"_s));
    }
    const QList<ModelAttempt> attempts = session.attemptList();
    QCOMPARE(attempts.size(), 1);
    QCOMPARE(attempts.first().retryInMs, -1);
    QCOMPARE(attempts.first().error, error.message);
    QCOMPARE(attempts.first().response.toArray().size(), 3);
}

void tst_AnthropicAdapter::errorEventInsideAStreamFailsWithItsMessage()
{
    const QByteArray stream = sse({messageStart(25), textStart(0), textDelta(0, u"Partial"_s)})
                              + sse(errorObject(u"overloaded_error"_s, u"Overloaded"_s));
    script({streamOf(stream, {int(stream.indexOf("event: error"))}, 10)});
    Session &session = start(helloRequest());
    WAIT_DONE(session);
    QTest::qWait(60); // a retry would have been sent by now
    QCOMPARE(session.finished.count(), 0);
    QCOMPARE(session.textPieces(), QStringList{u"Partial"_s});
    QCOMPARE(requestCount(), 1);

    const ModelError error = session.error();
    QCOMPARE(error.kind, ModelError::Kind::Protocol);
    QCOMPARE(error.httpStatus, 200);
    QVERIFY2(error.message.contains(u"overloaded_error: Overloaded"_s), qPrintable(error.message));
    QCOMPARE(session.attemptList().size(), 1);
    QCOMPARE(session.attemptList().first().retryInMs, -1);
}

void tst_AnthropicAdapter::stallIsReportedAsATimeout_data()
{
    QTest::addColumn<bool>("afterSomeEvents");
    QTest::addColumn<int>("expectedRequests");

    QTest::newRow("stall after some events fails at once") << true << 1;
    QTest::newRow("stall before any response is retried, then fails") << false << 3;
}

void tst_AnthropicAdapter::stallIsReportedAsATimeout()
{
    QFETCH(bool, afterSomeEvents);
    QFETCH(int, expectedRequests);

    script({[afterSomeEvents](HttpExchange &exchange) {
        if (afterSomeEvents) {
            exchange.beginStream(200, sseHeaders);
            exchange.send(sse({messageStart(25), textStart(0), textDelta(0, u"Hel"_s)}));
        }
        exchange.stall();
    }});
    ProviderEndpoint settings = endpoint();
    settings.readTimeoutMs = 250;
    QElapsedTimer timer;
    timer.start();
    Session &session = start(helloRequest(), settings);
    WAIT_DONE(session);
    QVERIFY2(timer.elapsed() < 5'000, "the stall is bounded by the read timeout");
    QTest::qWait(60); // a retry would have been sent by now
    QCOMPARE(session.finished.count(), 0);
    QCOMPARE(requestCount(), expectedRequests);
    QCOMPARE(session.attemptList().size(), expectedRequests);

    const ModelError error = session.error();
    QCOMPARE(error.kind, ModelError::Kind::Timeout);
    QVERIFY2(error.message.contains(u"sent nothing for 0.25 s"_s), qPrintable(error.message));
    if (afterSomeEvents)
        QCOMPARE(session.textPieces(), QStringList{u"Hel"_s});
}

void tst_AnthropicAdapter::malformedEventFailsWithAClearError_data()
{
    QTest::addColumn<QByteArray>("badEvent");
    QTest::addColumn<QString>("expectedInMessage");

    QTest::newRow("truncated JSON")
        << "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\"\n\n"_ba
        << u"malformed \"content_block_delta\" event"_s;
    QTest::newRow("JSON that is not an object")
        << "event: content_block_delta\ndata: [1, 2, 3]\n\n"_ba << u"not a JSON object"_s;
    QTest::newRow("not JSON at all") << "event: message_delta\ndata: stop now\n\n"_ba
                                     << u"malformed \"message_delta\" event"_s;
}

void tst_AnthropicAdapter::malformedEventFailsWithAClearError()
{
    QFETCH(QByteArray, badEvent);
    QFETCH(QString, expectedInMessage);

    const QByteArray stream = sse({messageStart(25), textStart(0), textDelta(0, u"Hi"_s)}) + badEvent
                              + sse({blockStop(0), messageDelta(u"end_turn"_s, 3), messageStop()});
    script({streamOf(stream)});
    Session &session = start(helloRequest());
    WAIT_DONE(session);
    QTest::qWait(60); // a retry would have been sent by now
    QCOMPARE(session.finished.count(), 0);
    QCOMPARE(requestCount(), 1);
    const ModelError error = session.error();
    QCOMPARE(error.kind, ModelError::Kind::Protocol);
    QVERIFY2(error.message.contains(expectedInMessage), qPrintable(error.message));
}

// ---------------------------------------------------------------------------------------------
// Secrets

void tst_AnthropicAdapter::apiKeyNeverAppearsInAttemptsOrErrors_data()
{
    QTest::addColumn<QList<Respond>>("responders");
    QTest::addColumn<bool>("expectSuccess");

    const QString echo = u"invalid x-api-key: "_s + apiKey;
    QTest::newRow("a successful stream") << QList<Respond>{streamOf(helloStream())} << true;
    QTest::newRow("a 401 whose body echoes the key")
        << QList<Respond>{jsonOf(401, errorBody(u"authentication_error"_s, echo))} << false;
    QTest::newRow("retried 529s whose bodies echo the key")
        << QList<Respond>{jsonOf(529, errorBody(u"overloaded_error"_s, echo))} << false;
    QTest::newRow("a 200 body that echoes the key") << QList<Respond>{[echo](HttpExchange &exchange) {
        exchange.respondJson(200, messageBody({text(echo)}, u"end_turn"_s, 5, 5));
    }} << true;
    QTest::newRow("an error event inside the stream that echoes the key")
        << QList<Respond>{streamOf(sse({messageStart(25), errorObject(u"authentication_error"_s, echo)}))}
        << false;
}

void tst_AnthropicAdapter::apiKeyNeverAppearsInAttemptsOrErrors()
{
    QFETCH(QList<Respond>, responders);
    QFETCH(bool, expectSuccess);

    script(responders);
    const bool streaming = QByteArrayView(QTest::currentDataTag()) != "a 200 body that echoes the key";
    Session &session = start(helloRequest(streaming));
    WAIT_DONE(session);
    QCOMPARE(session.finished.count(), expectSuccess ? 1 : 0);

    // The key did go out, so its absence below is redaction, not an accident.
    QCOMPARE(m_server->requests().first().header("x-api-key"), apiKey.toUtf8());
    const QByteArray key = apiKey.toUtf8();
    const QList<ModelAttempt> attempts = session.attemptList();
    QVERIFY(!attempts.isEmpty());
    for (const ModelAttempt &attempt : attempts) {
        QCOMPARE(attempt.request.value(u"headers"_s).toObject().value(u"x-api-key"_s).toString(),
                 u"[redacted]"_s);
        QCOMPARE(attempt.request.value(u"headers"_s).toObject().value(u"anthropic-version"_s).toString(),
                 u"2023-06-01"_s);
        QVERIFY2(!compact(attempt.request).contains(key), compact(attempt.request).constData());
        QVERIFY2(!attempt.error.contains(apiKey), qPrintable(attempt.error));
        QVERIFY2(!compact(attempt.response).contains(key), compact(attempt.response).constData());
    }
    QVERIFY2(!session.error().message.contains(apiKey), qPrintable(session.error().message));
    // The model's own text is its answer and stays as it is; what the client recorded is redacted.
    QVERIFY(!compact(session.response().raw).contains(key));
    if (!expectSuccess) {
        QVERIFY2(session.error().message.contains(u"[redacted]"_s), qPrintable(session.error().message));
    }
}

void tst_AnthropicAdapter::errorMessageReadsAnthropicErrorBodies_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("expected");

    QTest::newRow("type and message")
        << compact(errorBody(u"overloaded_error"_s, u"Overloaded"_s)) << u"overloaded_error: Overloaded"_s;
    QTest::newRow("message without a type")
        << "{\"type\":\"error\",\"error\":{\"message\":\"Nope\"}}"_ba << u"Nope"_s;
    QTest::newRow("an OpenAI-style body from a proxy")
        << "{\"error\":{\"message\":\"Bad gateway key\"}}"_ba << u"Bad gateway key"_s;
    QTest::newRow("a plain string error") << "{\"error\":\"quota exhausted\"}"_ba << u"quota exhausted"_s;
    QTest::newRow("not JSON") << "<html>502 Bad Gateway</html>"_ba << QString();
}

void tst_AnthropicAdapter::errorMessageReadsAnthropicErrorBodies()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, expected);
    QCOMPARE(AnthropicProtocol().errorMessage(body), expected);
}

QTEST_GUILESS_MAIN(tst_AnthropicAdapter)
#include "tst_anthropicadapter.moc"
