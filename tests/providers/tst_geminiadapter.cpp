#include "agent/providers/geminiprotocol.h"
#include "agent/providers/httpmodelclient.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/samplingrows.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString apiKey = u"AIzaSyFAKE-loopscope-0123456789abcdef"_s;
const QString modelVersion = u"gemini-2.5-flash-001"_s;
// Base64 as Gemini sends it, with the characters a careless re-encoding would mangle.
const QString signatureA = u"CiQBcsjafA+3kz/JZ2tT1o9xVq0mYz=="_s;
const QString signatureB = u"EpYCAb4+9vv/Q1k0m3nL8UPe+RtAw="_s;

// Expected JSON is written with single quotes so it reads without a wall of backslashes.
QJsonValue json(const char *singleQuoted)
{
    QByteArray text(singleQuoted);
    text.replace('\'', '"');
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson("["_ba + text + "]"_ba, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s", singleQuoted);
    return document.array().at(0);
}

// Compared as compact text: keys come out sorted, and a mismatch prints readably.
QByteArray compact(const QJsonValue &value)
{
    return QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
}

QJsonObject textPart(const QString &text)
{
    return {{u"text"_s, text}};
}

// A functionCall part exactly as Gemini sends it: the signature beside the call, not inside it.
QJsonObject callPart(const QString &name, const QJsonObject &args, const QString &id = {},
                     const QString &signature = {})
{
    QJsonObject call{{u"name"_s, name}, {u"args"_s, args}};
    if (!id.isEmpty())
        call.insert(u"id"_s, id);
    QJsonObject part{{u"functionCall"_s, call}};
    if (!signature.isEmpty())
        part.insert(u"thoughtSignature"_s, signature);
    return part;
}

QJsonObject usage(int prompt, int candidates, int thoughts = 0)
{
    QJsonObject result{{u"promptTokenCount"_s, prompt},
                       {u"candidatesTokenCount"_s, candidates},
                       {u"totalTokenCount"_s, prompt + candidates + thoughts}};
    if (thoughts)
        result.insert(u"thoughtsTokenCount"_s, thoughts);
    return result;
}

// One GenerateContentResponse: a whole body, or one event of a stream.
QJsonObject generateResponse(const QJsonArray &parts, const QString &finishReason = {},
                             const QJsonObject &usageMetadata = {})
{
    QJsonObject candidate{{u"content"_s, QJsonObject{{u"role"_s, u"model"_s}, {u"parts"_s, parts}}},
                          {u"index"_s, 0}};
    if (!finishReason.isEmpty())
        candidate.insert(u"finishReason"_s, finishReason);
    QJsonObject response{{u"candidates"_s, QJsonArray{candidate}},
                         {u"modelVersion"_s, modelVersion},
                         {u"responseId"_s, u"mZ8kaLTzKZ2Uz7IP4_aF-A4"_s}};
    if (!usageMetadata.isEmpty())
        response.insert(u"usageMetadata"_s, usageMetadata);
    return response;
}

QJsonObject errorObject(int code, const QString &status, const QString &message)
{
    return {{u"error"_s, QJsonObject{{u"code"_s, code}, {u"message"_s, message}, {u"status"_s, status}}}};
}

// Gemini frames its events with CRLF.
QByteArray frame(const QJsonObject &event, const QByteArray &lineEnd = "\r\n"_ba)
{
    return "data: "_ba + QJsonDocument(event).toJson(QJsonDocument::Compact) + lineEnd + lineEnd;
}

const HttpHeaders sseHeaders{{"Content-Type"_ba, "text/event-stream"_ba}};

ToolCall providerCall(const QString &id, const QString &name, const QString &arguments,
                      const QString &signature = {})
{
    ToolCall call{id, name, arguments, {}};
    if (!signature.isEmpty())
        call.providerData.insert(u"thoughtSignature"_s, signature);
    return call;
}

// A call whose id Loopscope made up, as the decoder marks it.
ToolCall syntheticCall(const QString &id, const QString &name, const QString &arguments,
                       const QString &signature = {})
{
    ToolCall call = providerCall(id, name, arguments, signature);
    call.providerData.insert(u"syntheticId"_s, true);
    return call;
}

ModelRequest chatRequest(const QList<Message> &messages, bool stream = true)
{
    ModelRequest request;
    request.options.model = u"gemini-2.5-flash"_s;
    request.options.stream = stream;
    request.messages = messages;
    return request;
}

ModelRequest simpleRequest(bool stream = true)
{
    return chatRequest({Message::user(u"Hi"_s)}, stream);
}

QByteArray okStream()
{
    return frame(generateResponse({textPart(u"ok"_s)}, u"STOP"_s, usage(3, 1)));
}

// Answers every request with a short valid answer in the shape its endpoint uses.
void serveOk(FakeHttpServer &server)
{
    server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
        if (request.path.endsWith(":streamGenerateContent")) {
            exchange.beginStream(200, sseHeaders);
            exchange.send(okStream());
            exchange.end();
        } else {
            exchange.respondJson(200, generateResponse({textPart(u"ok"_s)}, u"STOP"_s, usage(3, 1)));
        }
    });
}

void serveStream(FakeHttpServer &server, const QByteArray &stream, const QList<int> &cuts = {},
                 int delayMs = 0)
{
    server.setHandler([stream, cuts, delayMs](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.beginStream(200, sseHeaders);
        exchange.sendSplit(stream, cuts, delayMs);
        exchange.end();
    });
}

void serveJson(FakeHttpServer &server, const QJsonObject &body)
{
    server.setHandler(
        [body](const HttpRequestRecord &, HttpExchange &exchange) { exchange.respondJson(200, body); });
}

struct FixtureOptions
{
    QString baseSuffix;
    QString key = apiKey;
    int readTimeoutMs = 5000;
};

// A client wired to a fresh fake Gemini server, with spies on everything it reports.
struct Fixture
{
    FakeHttpServer server;
    QNetworkAccessManager network;
    std::unique_ptr<HttpModelClient> client;
    std::unique_ptr<QSignalSpy> finished;
    std::unique_ptr<QSignalSpy> failed;
    std::unique_ptr<QSignalSpy> attempts;
    std::unique_ptr<QSignalSpy> deltas;
    std::unique_ptr<QSignalSpy> toolDeltas;

    explicit Fixture(const FixtureOptions &options = {})
    {
        QVERIFY(server.listen());
        ProviderEndpoint endpoint;
        endpoint.baseUrl = QUrl(server.baseUrl().toString() + options.baseSuffix);
        endpoint.apiKey = options.key;
        endpoint.connectTimeoutMs = 2000;
        endpoint.readTimeoutMs = options.readTimeoutMs;
        client = std::make_unique<HttpModelClient>(&network, std::make_unique<GeminiProtocol>(), endpoint);
        client->retryPolicy().setBaseDelayMs(5);
        finished = std::make_unique<QSignalSpy>(client.get(), &ModelClient::finished);
        failed = std::make_unique<QSignalSpy>(client.get(), &ModelClient::failed);
        attempts = std::make_unique<QSignalSpy>(client.get(), &ModelClient::attemptFinished);
        deltas = std::make_unique<QSignalSpy>(client.get(), &ModelClient::textDelta);
        toolDeltas = std::make_unique<QSignalSpy>(client.get(), &ModelClient::toolCallDelta);
    }

    int outcomes() const { return int(finished->size() + failed->size()); }
    int requestCount() const { return int(server.requests().size()); }
    HttpRequestRecord lastRequest() const { return server.requests().constLast(); }
    ModelResponse response() const { return finished->constLast().first().value<ModelResponse>(); }
    ModelError error() const { return failed->constLast().first().value<ModelError>(); }
    QList<ModelAttempt> attemptList() const
    {
        QList<ModelAttempt> result;
        for (const auto &arguments : *attempts)
            result.append(arguments.first().value<ModelAttempt>());
        return result;
    }
    QStringList textDeltas() const
    {
        QStringList result;
        for (const auto &arguments : *deltas)
            result.append(arguments.first().toString());
        return result;
    }
    QList<ToolCallDelta> callDeltas() const
    {
        QList<ToolCallDelta> result;
        for (const auto &arguments : *toolDeltas)
            result.append(arguments.first().value<ToolCallDelta>());
        return result;
    }
};

// Collects what a decoder reports when it is driven directly, without a client.
class RecordingSink final : public StreamSink
{
public:
    void textDelta(const QString &delta) override { text += delta; }
    void toolCallDelta(const ToolCallDelta &delta) override { calls.append(delta); }

    QString text;
    QList<ToolCallDelta> calls;
};

// Sends a request and waits for its outcome; a hang fails the test instead of blocking it.
#define SEND_AND_WAIT(fixture, request)                                                                      \
    do {                                                                                                     \
        (fixture).client->send(request);                                                                     \
        QTRY_COMPARE_WITH_TIMEOUT((fixture).outcomes(), 1, 10000);                                           \
    } while (false)

} // namespace

class GeminiAdapterTest final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qRegisterMetaType<ModelResponse>();
        qRegisterMetaType<ModelError>();
        qRegisterMetaType<ModelAttempt>();
        qRegisterMetaType<ToolCallDelta>();
    }

    // --- The request as it reaches the server -------------------------------------------------

    void theUrlNamesTheModelAndTheMethod_data()
    {
        QTest::addColumn<QString>("baseSuffix");
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QByteArray>("path");

        const QByteArray streamPath = "/v1beta/models/gemini-2.5-flash:streamGenerateContent"_ba;
        const QByteArray plainPath = "/v1beta/models/gemini-2.5-flash:generateContent"_ba;
        QTest::newRow("a stream goes to streamGenerateContent")
            << QString() << u"gemini-2.5-flash"_s << true << streamPath;
        QTest::newRow("a whole answer goes to generateContent")
            << QString() << u"gemini-2.5-flash"_s << false << plainPath;
        QTest::newRow("a trailing slash on the base URL does not matter")
            << u"/"_s << u"gemini-2.5-flash"_s << true << streamPath;
        QTest::newRow("a model named with its models/ prefix is not prefixed twice")
            << QString() << u"models/gemini-2.5-flash"_s << false << plainPath;
        QTest::newRow("a base URL pasted with /v1beta is not doubled")
            << u"/v1beta/"_s << u"gemini-2.5-flash"_s << true << streamPath;
        QTest::newRow("a base URL behind a gateway path keeps that path")
            << u"/gateway/google"_s << u"gemini-2.5-flash"_s << false << "/gateway/google"_ba + plainPath;
    }

    void theUrlNamesTheModelAndTheMethod()
    {
        QFETCH(QString, baseSuffix);
        QFETCH(QString, model);
        QFETCH(bool, stream);
        QFETCH(QByteArray, path);

        Fixture f({baseSuffix});
        serveOk(f.server);
        ModelRequest request = simpleRequest(stream);
        request.options.model = model;
        SEND_AND_WAIT(f, request);

        QCOMPARE(f.failed->size(), 0);
        QCOMPARE(f.requestCount(), 1);
        const HttpRequestRecord sent = f.lastRequest();
        QCOMPARE(sent.method, "POST"_ba);
        QCOMPARE(sent.path, path);
        // Without alt=sse Gemini streams one JSON array, which is not what the decoder reads.
        QCOMPARE(sent.query.queryItemValue(u"alt"_s), stream ? u"sse"_s : QString());
        QCOMPARE(sent.query.queryItems().size(), stream ? 1 : 0);
        QVERIFY(sent.header("content-type").startsWith("application/json"));
        QCOMPARE(f.response().text, u"ok"_s);
    }

    void theKeyTravelsOnlyInTheGoogHeader_data()
    {
        QTest::addColumn<QString>("key");
        QTest::newRow("with a key") << apiKey;
        QTest::newRow("without a key, for a local gateway") << QString();
    }

    void theKeyTravelsOnlyInTheGoogHeader()
    {
        QFETCH(QString, key);
        FixtureOptions options;
        options.key = key;
        Fixture f(options);
        serveOk(f.server);
        SEND_AND_WAIT(f, simpleRequest());

        const HttpRequestRecord sent = f.lastRequest();
        QCOMPARE(sent.hasHeader("x-goog-api-key"), !key.isEmpty());
        QCOMPARE(sent.header("x-goog-api-key"), key.toUtf8());
        QVERIFY(!sent.hasHeader("authorization"));
        QVERIFY(!sent.query.hasQueryItem(u"key"_s));
        if (!key.isEmpty()) {
            QVERIFY(!sent.target.contains(key.toUtf8()));
            QVERIFY(!sent.body.contains(key.toUtf8()));
        }
    }

    void theHistoryBecomesAlternatingContentsWithASystemInstruction()
    {
        Fixture f;
        serveOk(f.server);
        const ToolCall call = providerCall(u"fc-1"_s, u"get_weather"_s, u"{\"city\":\"Oslo\"}"_s);
        const ModelRequest request = chatRequest({
            Message::system(u"You are terse."_s),
            Message::user(u"Hi"_s),
            Message::user(u"Are you there?"_s), // consecutive user turns merge
            Message::assistant(u"Hello."_s),
            Message::user(QString()), // an empty text part is rejected by Gemini: dropped
            Message::user(u"Weather in Oslo?"_s),
            Message::assistant(QString(), {call}),
            Message::toolResult(call, u"3°C"_s, false),
            Message::user(u"Thanks"_s),               // joins the tool result in the same user turn
            Message::system(u"Answer in English."_s), // mid-history: still an instruction, not a turn
            Message::assistant(u"You are welcome."_s),
        });
        SEND_AND_WAIT(f, request);

        const QJsonObject body = f.lastRequest().json();
        QCOMPARE(compact(body.value(u"systemInstruction"_s)),
                 compact(json("{'parts':[{'text':'You are terse.'},{'text':'Answer in English.'}]}")));
        QCOMPARE(compact(body.value(u"contents"_s)),
                 compact(json("["
                              "{'role':'user','parts':[{'text':'Hi'},{'text':'Are you there?'}]},"
                              "{'role':'model','parts':[{'text':'Hello.'}]},"
                              "{'role':'user','parts':[{'text':'Weather in Oslo?'}]},"
                              "{'role':'model','parts':[{'functionCall':{'id':'fc-1','name':'get_weather',"
                              "  'args':{'city':'Oslo'}}}]},"
                              "{'role':'user','parts':[{'functionResponse':{'id':'fc-1','name':'get_weather',"
                              "  'response':{'output':'3°C'}}},{'text':'Thanks'}]},"
                              "{'role':'model','parts':[{'text':'You are welcome.'}]}"
                              "]")));
        // Nothing OpenAI-shaped leaks in.
        QVERIFY(!body.contains(u"messages"_s));
        QVERIFY(!body.contains(u"model"_s));
        QVERIFY(!body.contains(u"tools"_s));
        QVERIFY(!body.contains(u"toolConfig"_s));
        QVERIFY(!body.contains(u"generationConfig"_s));
    }

    void aFailedToolResultGoesBackAsTheResponsesError_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("isError");
        QTest::addColumn<QString>("field");
        QTest::newRow("a success is the output") << u"3 \u00b0C"_s << false << u"output"_s;
        // The documented form of a failed call: the response's "error" field.
        QTest::newRow("a refused path is the error") << u"path leaves the workspace"_s << true << u"error"_s;
    }

    void aFailedToolResultGoesBackAsTheResponsesError()
    {
        QFETCH(QString, text);
        QFETCH(bool, isError);
        QFETCH(QString, field);
        const ToolCall lookup{u"fc-1"_s, u"get_weather"_s, u"{\"city\":\"Oslo\"}"_s, {}};
        ModelRequest request;
        request.options.model = u"gemini-test"_s;
        request.messages = {Message::user(u"Weather?"_s), Message::assistant(QString(), {lookup}),
                            Message::toolResult(lookup, text, isError)};
        const QJsonArray contents
            = GeminiProtocol().encode(request, ProviderEndpoint{}).body.value(u"contents"_s).toArray();
        const QJsonObject response
            = contents.last()[u"parts"_s][0][u"functionResponse"_s][u"response"_s].toObject();
        QCOMPARE(response, (QJsonObject{{field, text}}));
    }

    void resultsAnswerTheirCallsByPosition_data()
    {
        QTest::addColumn<bool>("realIds");
        QTest::addColumn<QList<int>>("resultOrder");

        QTest::newRow("two calls of the same function with ids, results in call order")
            << true << QList<int>{0, 1};
        QTest::newRow("two calls of the same function with ids, results finished in reverse")
            << true << QList<int>{1, 0};
        QTest::newRow("two calls of the same function without ids, results in call order")
            << false << QList<int>{0, 1};
        QTest::newRow("two calls of the same function without ids, results finished in reverse")
            << false << QList<int>{1, 0};
    }

    void resultsAnswerTheirCallsByPosition()
    {
        QFETCH(bool, realIds);
        QFETCH(QList<int>, resultOrder);

        const QList<ToolCall> calls
            = realIds
                  ? QList<ToolCall>{providerCall(u"fc-oslo"_s, u"get_weather"_s, u"{\"city\":\"Oslo\"}"_s),
                                    providerCall(u"fc-rome"_s, u"get_weather"_s, u"{\"city\":\"Rome\"}"_s)}
                  : QList<ToolCall>{
                      syntheticCall(u"Ab3dE6gH9"_s, u"get_weather"_s, u"{\"city\":\"Oslo\"}"_s),
                      syntheticCall(u"zY8xW7vU6"_s, u"get_weather"_s, u"{\"city\":\"Rome\"}"_s)};
        const QList<Message> results{Message::toolResult(calls.at(0), u"Oslo: 3°C"_s, false),
                                     Message::toolResult(calls.at(1), u"Rome: service unavailable"_s, true)};
        QList<Message> history{Message::user(u"Weather in Oslo and Rome?"_s),
                               Message::assistant(QString(), calls)};
        for (const int index : resultOrder)
            history.append(results.at(index));

        Fixture f;
        serveOk(f.server);
        SEND_AND_WAIT(f, chatRequest(history));

        const QJsonArray contents = f.lastRequest().json().value(u"contents"_s).toArray();
        QCOMPARE(contents.size(), 3);
        QJsonObject osloCall = json("{'name':'get_weather','args':{'city':'Oslo'}}").toObject();
        QJsonObject romeCall = json("{'name':'get_weather','args':{'city':'Rome'}}").toObject();
        QJsonObject osloResult = json("{'name':'get_weather','response':{'output':'Oslo: 3°C'}}").toObject();
        QJsonObject romeResult
            = json("{'name':'get_weather','response':{'error':'Rome: service unavailable'}}").toObject();
        if (realIds) {
            // Ids Gemini chose go back with the call and its response; made-up ones never do.
            osloCall.insert(u"id"_s, u"fc-oslo"_s);
            osloResult.insert(u"id"_s, u"fc-oslo"_s);
            romeCall.insert(u"id"_s, u"fc-rome"_s);
            romeResult.insert(u"id"_s, u"fc-rome"_s);
        }
        QCOMPARE(compact(contents.at(1)),
                 compact(QJsonObject{{u"role"_s, u"model"_s},
                                     {u"parts"_s, QJsonArray{QJsonObject{{u"functionCall"_s, osloCall}},
                                                             QJsonObject{{u"functionCall"_s, romeCall}}}}}));
        // One response part per call part, in the order of the calls.
        QCOMPARE(
            compact(contents.at(2)),
            compact(QJsonObject{{u"role"_s, u"user"_s},
                                {u"parts"_s, QJsonArray{QJsonObject{{u"functionResponse"_s, osloResult}},
                                                        QJsonObject{{u"functionResponse"_s, romeResult}}}}}));
        QCOMPARE(f.lastRequest().body.contains("Ab3dE6gH9"), false);
    }

    void thoughtSignaturesAreEchoedBesideTheirCalls()
    {
        // Step one: parallel calls, the signature on the first only (as Gemini sends it).
        // Step two: one more call with its own signature.
        const ToolCall first
            = syntheticCall(u"Ab3dE6gH9"_s, u"get_weather"_s, u"{\"city\":\"Oslo\"}"_s, signatureA);
        const ToolCall second = syntheticCall(u"zY8xW7vU6"_s, u"get_weather"_s, u"{\"city\":\"Rome\"}"_s);
        const ToolCall third = providerCall(u"fc-3"_s, u"convert"_s, u"{\"celsius\":3}"_s, signatureB);
        Fixture f;
        serveOk(f.server);
        SEND_AND_WAIT(f, chatRequest({Message::user(u"Compare Oslo and Rome in Fahrenheit."_s),
                                      Message::assistant(u"Checking."_s, {first, second}),
                                      Message::toolResult(first, u"3°C"_s, false),
                                      Message::toolResult(second, u"18°C"_s, false),
                                      Message::assistant(QString(), {third}),
                                      Message::toolResult(third, u"37.4°F"_s, false)}));

        const QJsonArray contents = f.lastRequest().json().value(u"contents"_s).toArray();
        QCOMPARE(contents.size(), 5);
        QCOMPARE(
            compact(contents.at(1)),
            compact(QJsonObject{
                {u"role"_s, u"model"_s},
                {u"parts"_s, QJsonArray{textPart(u"Checking."_s),
                                        callPart(u"get_weather"_s, {{u"city"_s, u"Oslo"_s}}, {}, signatureA),
                                        callPart(u"get_weather"_s, {{u"city"_s, u"Rome"_s}})}}}));
        QCOMPARE(compact(contents.at(3)),
                 compact(QJsonObject{{u"role"_s, u"model"_s},
                                     {u"parts"_s, QJsonArray{callPart(u"convert"_s, {{u"celsius"_s, 3}},
                                                                      u"fc-3"_s, signatureB)}}}));
        // Byte for byte on the wire, not just equal after parsing.
        const QByteArray echoed = "\"thoughtSignature\":\""_ba + signatureA.toUtf8() + "\""_ba;
        QVERIFY(f.lastRequest().body.contains(echoed));
        QVERIFY(!f.lastRequest().body.contains("syntheticId"));
    }

    void aToolLoopSendsBackWhatGeminiSent_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::addColumn<bool>("withIds");
        QTest::newRow("streamed calls without ids") << true << false;
        QTest::newRow("streamed calls with ids") << true << true;
        QTest::newRow("whole-body calls without ids") << false << false;
        QTest::newRow("whole-body calls with ids") << false << true;
    }

    void aToolLoopSendsBackWhatGeminiSent()
    {
        QFETCH(bool, stream);
        QFETCH(bool, withIds);

        const QJsonObject osloPart = callPart(u"get_weather"_s, {{u"city"_s, u"Oslo"_s}},
                                              withIds ? u"fc-a"_s : QString(), signatureA);
        const QJsonObject romePart
            = callPart(u"get_weather"_s, {{u"city"_s, u"Rome"_s}}, withIds ? u"fc-b"_s : QString());
        const QJsonObject answer
            = generateResponse({textPart(u"Checking both."_s), osloPart, romePart}, u"STOP"_s, usage(20, 12));
        Fixture f;
        f.server.setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
            if (exchange.requestIndex() > 0) {
                exchange.respondJson(200, generateResponse({textPart(u"Oslo is colder."_s)}, u"STOP"_s));
            } else if (stream) {
                exchange.beginStream(200, sseHeaders);
                exchange.send(frame(generateResponse({textPart(u"Checking both."_s)})));
                exchange.send(frame(generateResponse({osloPart, romePart}, u"STOP"_s, usage(20, 12))));
                exchange.end();
            } else {
                exchange.respondJson(200, answer);
            }
        });

        const QList<Message> start{Message::user(u"Weather in Oslo and Rome?"_s)};
        SEND_AND_WAIT(f, chatRequest(start, stream));
        QCOMPARE(f.failed->size(), 0);
        const ModelResponse first = f.response();
        QCOMPARE(first.finishReason, FinishReason::ToolCalls);
        QCOMPARE(first.toolCalls.size(), 2);

        // The results come back in the order they finished: Rome first.
        QList<Message> history = start;
        history.append(Message::assistant(first.text, first.toolCalls));
        history.append(Message::toolResult(first.toolCalls.at(1), u"18°C"_s, false));
        history.append(Message::toolResult(first.toolCalls.at(0), u"3°C"_s, false));
        f.client->send(chatRequest(history, false));
        QTRY_COMPARE(f.outcomes(), 2);
        QCOMPARE(f.failed->size(), 0);

        const QJsonArray contents = f.lastRequest().json().value(u"contents"_s).toArray();
        QCOMPARE(contents.size(), 3);
        // The model turn goes back exactly as Gemini sent it.
        QCOMPARE(compact(contents.at(1)),
                 compact(QJsonObject{
                     {u"role"_s, u"model"_s},
                     {u"parts"_s, QJsonArray{textPart(u"Checking both."_s), osloPart, romePart}}}));
        QJsonObject osloResult = json("{'name':'get_weather','response':{'output':'3°C'}}").toObject();
        QJsonObject romeResult = json("{'name':'get_weather','response':{'output':'18°C'}}").toObject();
        if (withIds) {
            osloResult.insert(u"id"_s, u"fc-a"_s);
            romeResult.insert(u"id"_s, u"fc-b"_s);
        }
        QCOMPARE(
            compact(contents.at(2)),
            compact(QJsonObject{{u"role"_s, u"user"_s},
                                {u"parts"_s, QJsonArray{QJsonObject{{u"functionResponse"_s, osloResult}},
                                                        QJsonObject{{u"functionResponse"_s, romeResult}}}}}));
    }

    void toolsAndToolConfigFollowTheToolChoice_data()
    {
        QTest::addColumn<bool>("withTools");
        QTest::addColumn<ToolChoice>("choice");
        QTest::addColumn<QString>("mode");

        QTest::newRow("auto lets the model decide") << true << ToolChoice::Auto << u"AUTO"_s;
        QTest::newRow("none forbids calls") << true << ToolChoice::None << u"NONE"_s;
        QTest::newRow("required becomes ANY") << true << ToolChoice::Required << u"ANY"_s;
        QTest::newRow("no tools sends neither tools nor a tool config")
            << false << ToolChoice::Required << QString();
    }

    void toolsAndToolConfigFollowTheToolChoice()
    {
        QFETCH(bool, withTools);
        QFETCH(ToolChoice, choice);
        QFETCH(QString, mode);

        ModelRequest request = simpleRequest();
        request.toolChoice = choice;
        if (withTools) {
            request.tools = {ToolSchema{u"get_weather"_s, u"Current weather for a city"_s,
                                        json("{'type':'object','properties':{'city':{'type':'string'}},"
                                             "'required':['city']}")
                                            .toObject()},
                             ToolSchema{u"current_time"_s, u"The time now"_s, {}}};
        }
        Fixture f;
        serveOk(f.server);
        SEND_AND_WAIT(f, request);

        const QJsonObject body = f.lastRequest().json();
        QCOMPARE(body.contains(u"tools"_s), withTools);
        QCOMPARE(body.contains(u"toolConfig"_s), withTools);
        if (!withTools)
            return;
        QCOMPARE(
            compact(body.value(u"tools"_s)),
            compact(json("[{'functionDeclarations':["
                         "{'name':'get_weather','description':'Current weather for a city',"
                         " 'parametersJsonSchema':{'type':'object','properties':{'city':{'type':'string'}},"
                         "  'required':['city']}},"
                         "{'name':'current_time','description':'The time now'}"
                         "]}]")));
        QCOMPARE(compact(body.value(u"toolConfig"_s)),
                 compact(QJsonObject{{u"functionCallingConfig"_s, QJsonObject{{u"mode"_s, mode}}}}));
    }

    void generationConfigCarriesTheSamplingOptions()
    {
        ModelRequest request = simpleRequest();
        request.options.temperature = 0.25;
        request.options.maxOutputTokens = 300;
        Fixture f;
        serveOk(f.server);
        SEND_AND_WAIT(f, request);
        QCOMPARE(compact(f.lastRequest().json().value(u"generationConfig"_s)),
                 compact(json("{'temperature':0.25,'maxOutputTokens':300}")));
    }

    void topPIsSentAsGenerationConfigTopPOnlyWhenSet_data() { Testing::addTopPRows(); }

    void topPIsSentAsGenerationConfigTopPOnlyWhenSet()
    {
        QFETCH(double, topP);
        QFETCH(double, temperature);
        Fixture f;
        serveOk(f.server);
        SEND_AND_WAIT(f, Testing::withSampling(simpleRequest(), topP, temperature));
        const QJsonObject generationConfig = f.lastRequest().json().value(u"generationConfig"_s).toObject();
        QCOMPARE(Testing::sentSampling(generationConfig, u"topP"_s, u"temperature"_s),
                 Testing::expectedSampling(u"topP"_s, u"temperature"_s, topP, temperature));
        QVERIFY(!f.lastRequest().json().contains(u"top_p"_s));
    }

    // --- Answers -------------------------------------------------------------------------------

    void streamedTextArrivesInPiecesAndAsAWhole_data()
    {
        QTest::addColumn<QByteArray>("lineEnd");
        QTest::newRow("frames ending in CRLF, as Gemini sends them") << "\r\n"_ba;
        QTest::newRow("frames ending in LF") << "\n"_ba;
    }

    void streamedTextArrivesInPiecesAndAsAWhole()
    {
        QFETCH(QByteArray, lineEnd);
        // Early events carry only the prompt count; thinking tokens count as output.
        const QJsonObject early{{u"promptTokenCount"_s, 12}, {u"totalTokenCount"_s, 12}};
        const QByteArray stream
            = frame(generateResponse(
                        {QJsonObject{{u"text"_s, u"Considering the greeting"_s}, {u"thought"_s, true}}}, {},
                        early),
                    lineEnd)
              + frame(generateResponse({textPart(u"Hel"_s)}, {}, early), lineEnd)
              + frame(generateResponse({textPart(u"lo, wör"_s)}, {}, early), lineEnd)
              + frame(generateResponse({textPart(u"ld!"_s), textPart(QString())}, u"STOP"_s, usage(12, 5, 7)),
                      lineEnd);
        Fixture f;
        serveStream(f.server, stream, {}, 0);
        SEND_AND_WAIT(f, simpleRequest());

        QCOMPARE(f.failed->size(), 0);
        QCOMPARE(f.textDeltas(), (QStringList{u"Hel"_s, u"lo, wör"_s, u"ld!"_s}));
        const ModelResponse response = f.response();
        QCOMPARE(response.text, u"Hello, wörld!"_s);
        QCOMPARE(response.finishReason, FinishReason::Stop);
        QCOMPARE(response.providerFinishReason, u"STOP"_s);
        QCOMPARE(response.usage, (TokenUsage{12, 12}));
        QCOMPARE(response.model, modelVersion);
        QCOMPARE(response.streamedChunks, 4);
        QVERIFY(response.toolCalls.isEmpty());
        QCOMPARE(response.raw.toArray().size(), 4);
    }

    void aWholeBodyAnswerIsReadInOnePiece()
    {
        Fixture f;
        serveJson(f.server,
                  generateResponse({QJsonObject{{u"text"_s, u"The user greets me."_s}, {u"thought"_s, true}},
                                    textPart(u"Hello! "_s), textPart(u"How can I help?"_s)},
                                   u"STOP"_s, usage(4, 6, 30)));
        SEND_AND_WAIT(f, simpleRequest(false));

        QCOMPARE(f.failed->size(), 0);
        const ModelResponse response = f.response();
        QCOMPARE(response.text, u"Hello! How can I help?"_s);
        QCOMPARE(response.finishReason, FinishReason::Stop);
        QCOMPARE(response.usage, (TokenUsage{4, 36}));
        QCOMPARE(response.model, modelVersion);
        QCOMPARE(response.streamedChunks, 0);
        QCOMPARE(response.raw.toObject().value(u"responseId"_s).toString(), u"mZ8kaLTzKZ2Uz7IP4_aF-A4"_s);
        QCOMPARE(f.lastRequest().path, "/v1beta/models/gemini-2.5-flash:generateContent"_ba);
    }

    void toolCallsAreDecoded_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QJsonArray>("events"); // parts per stream event; a whole body gets them all
        QTest::addColumn<QString>("text");
        QTest::addColumn<QJsonArray>("calls"); // expected: {id (absent: made up), name, args, signature?}

        const QJsonArray single{QJsonArray{callPart(
            u"read_file"_s, {{u"path"_s, u"notes.txt"_s}, {u"limit"_s, 10}}, u"fc-read-1"_s, signatureA)}};
        const QJsonArray singleCalls = json("[{'id':'fc-read-1','name':'read_file',"
                                            "  'args':{'path':'notes.txt','limit':10}}]")
                                           .toArray();
        QJsonArray singleWithSignature = singleCalls;
        {
            QJsonObject call = singleWithSignature.at(0).toObject();
            call.insert(u"signature"_s, signatureA);
            singleWithSignature[0] = call;
        }
        const QJsonArray parallel{
            QJsonArray{callPart(u"get_weather"_s, {{u"city"_s, u"Oslo"_s}}, {}, signatureB),
                       callPart(u"get_weather"_s, {{u"city"_s, u"Rome"_s}})}};
        QJsonArray parallelCalls = json("[{'name':'get_weather','args':{'city':'Oslo'}},"
                                        " {'name':'get_weather','args':{'city':'Rome'}}]")
                                       .toArray();
        {
            QJsonObject call = parallelCalls.at(0).toObject();
            call.insert(u"signature"_s, signatureB);
            parallelCalls[0] = call;
        }
        const QJsonArray spread{QJsonArray{textPart(u"Looking."_s)},
                                QJsonArray{callPart(u"get_weather"_s, {{u"city"_s, u"Oslo"_s}})},
                                QJsonArray{callPart(u"get_weather"_s, {{u"city"_s, u"Rome"_s}}),
                                           callPart(u"current_time"_s, {})}};
        const QJsonArray spreadCalls = json("[{'name':'get_weather','args':{'city':'Oslo'}},"
                                            " {'name':'get_weather','args':{'city':'Rome'}},"
                                            " {'name':'current_time','args':{}}]")
                                           .toArray();

        for (const bool stream : {true, false}) {
            const char *how = stream ? "streamed" : "whole body";
            QTest::addRow("%s: one call with an id and a signature", how)
                << stream << single << QString() << singleWithSignature;
            QTest::addRow("%s: parallel calls of one function without ids", how)
                << stream << parallel << QString() << parallelCalls;
            QTest::addRow("%s: text, then calls spread over events", how)
                << stream << spread << u"Looking."_s << spreadCalls;
        }
    }

    void toolCallsAreDecoded()
    {
        QFETCH(bool, stream);
        QFETCH(QJsonArray, events);
        QFETCH(QString, text);
        QFETCH(QJsonArray, calls);

        Fixture f;
        if (stream) {
            QByteArray bytes;
            for (qsizetype i = 0; i < events.size(); ++i) {
                const bool last = i == events.size() - 1;
                bytes += frame(generateResponse(events.at(i).toArray(), last ? u"STOP"_s : QString(),
                                                last ? usage(30, 9) : QJsonObject()));
            }
            serveStream(f.server, bytes, {}, 0);
        } else {
            QJsonArray parts;
            for (const QJsonValue &event : std::as_const(events)) {
                for (const QJsonValue &part : event.toArray())
                    parts.append(part);
            }
            serveJson(f.server, generateResponse(parts, u"STOP"_s, usage(30, 9)));
        }
        SEND_AND_WAIT(f, simpleRequest(stream));

        QCOMPARE(f.failed->size(), 0);
        const ModelResponse response = f.response();
        QCOMPARE(response.text, text);
        // STOP is all Gemini says after calls: the calls themselves make it a tool-call finish.
        QCOMPARE(response.finishReason, FinishReason::ToolCalls);
        QCOMPARE(response.providerFinishReason, u"STOP"_s);
        QCOMPARE(response.usage, (TokenUsage{30, 9}));
        QCOMPARE(response.toolCalls.size(), calls.size());
        QSet<QString> ids;
        for (qsizetype i = 0; i < calls.size(); ++i) {
            const QJsonObject expected = calls.at(i).toObject();
            const ToolCall &call = response.toolCalls.at(i);
            QCOMPARE(call.name, expected.value(u"name"_s).toString());
            QCOMPARE(QJsonDocument::fromJson(call.arguments.toUtf8()).object(),
                     expected.value(u"args"_s).toObject());
            QVERIFY2(!call.arguments.contains(u'\n'), "arguments are compact JSON");
            QCOMPARE(call.providerData.value(u"thoughtSignature"_s).toString(),
                     expected.value(u"signature"_s).toString());
            if (expected.contains(u"id"_s)) {
                QCOMPARE(call.id, expected.value(u"id"_s).toString());
                QVERIFY(!call.providerData.contains(u"syntheticId"_s));
            } else {
                QVERIFY(!call.id.isEmpty());
                QCOMPARE(call.providerData.value(u"syntheticId"_s).toBool(), true);
            }
            ids.insert(call.id);
        }
        QCOMPARE(ids.size(), calls.size()); // same-name calls still get distinct ids

        const QList<ToolCallDelta> deltas = f.callDeltas();
        if (!stream) {
            QVERIFY(deltas.isEmpty());
            return;
        }
        // Each call arrives whole in one delta whose id is the one the response keeps.
        QCOMPARE(deltas.size(), calls.size());
        for (qsizetype i = 0; i < deltas.size(); ++i) {
            QCOMPARE(deltas.at(i).index, int(i));
            QCOMPARE(deltas.at(i).id, response.toolCalls.at(i).id);
            QCOMPARE(deltas.at(i).name, response.toolCalls.at(i).name);
            QCOMPARE(deltas.at(i).argumentsFragment, response.toolCalls.at(i).arguments);
        }
    }

    void finishReasonsAreMapped_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<bool>("withCall");
        QTest::addColumn<FinishReason>("expected");

        const struct
        {
            const char *reason;
            bool withCall;
            FinishReason expected;
        } rows[] = {
            {"STOP", false, FinishReason::Stop},
            {"STOP", true, FinishReason::ToolCalls},
            {"MAX_TOKENS", false, FinishReason::Length},
            {"MAX_TOKENS", true, FinishReason::Length},
            {"SAFETY", false, FinishReason::ContentFilter},
            {"RECITATION", false, FinishReason::ContentFilter},
            {"BLOCKLIST", false, FinishReason::ContentFilter},
            {"PROHIBITED_CONTENT", false, FinishReason::ContentFilter},
            {"SPII", false, FinishReason::ContentFilter},
            {"MALFORMED_FUNCTION_CALL", false, FinishReason::Other},
            {"UNEXPECTED_TOOL_CALL", false, FinishReason::Other},
            {"TOO_MANY_TOOL_CALLS", true, FinishReason::Other},
            {"LANGUAGE", false, FinishReason::Other},
            {"OTHER", false, FinishReason::Other},
        };
        for (const auto &row : rows) {
            QTest::addRow("streamed %s%s", row.reason, row.withCall ? " after a call" : "")
                << true << QString::fromLatin1(row.reason) << row.withCall << row.expected;
        }
        QTest::newRow("whole body MAX_TOKENS") << false << u"MAX_TOKENS"_s << false << FinishReason::Length;
        QTest::newRow("whole body STOP after a call")
            << false << u"STOP"_s << true << FinishReason::ToolCalls;
        QTest::newRow("whole body SAFETY") << false << u"SAFETY"_s << false << FinishReason::ContentFilter;
    }

    void finishReasonsAreMapped()
    {
        QFETCH(bool, stream);
        QFETCH(QString, reason);
        QFETCH(bool, withCall);
        QFETCH(FinishReason, expected);

        QJsonArray parts{textPart(u"Partial answer"_s)};
        if (withCall)
            parts.append(callPart(u"get_weather"_s, {{u"city"_s, u"Oslo"_s}}));
        Fixture f;
        if (stream)
            serveStream(f.server, frame(generateResponse(parts, reason, usage(5, 5))));
        else
            serveJson(f.server, generateResponse(parts, reason, usage(5, 5)));
        SEND_AND_WAIT(f, simpleRequest(stream));

        QCOMPARE(f.failed->size(), 0);
        QCOMPARE(f.response().finishReason, expected);
        QCOMPARE(f.response().providerFinishReason, reason); // verbatim for the trace
        QCOMPARE(f.response().text, u"Partial answer"_s);
    }

    void aStreamSplitAnywhereGivesTheSameAnswer_data()
    {
        QTest::addColumn<QList<int>>("cuts");
        QTest::addColumn<int>("delayMs");

        const QByteArray stream = awkwardStream();
        const auto after = [&stream](const char *utf8, int offset) {
            return int(stream.indexOf(QByteArray(utf8))) + offset;
        };
        QList<int> betweenCrAndLf;
        for (qsizetype at = stream.indexOf("\r\n"); at >= 0; at = stream.indexOf("\r\n", at + 1))
            betweenCrAndLf.append(int(at) + 1);
        QList<int> everyByte;
        for (int i = 1; i < stream.size(); ++i)
            everyByte.append(i);

        QTest::newRow("in one piece") << QList<int>{} << 0;
        QTest::newRow("inside a four-byte character")
            << QList<int>{after("\xF0\x9F\x8C\x8D", 1), after("\xF0\x9F\x8C\x8D", 2),
                          after("\xF0\x9F\x8C\x8D", 3)}
            << 5;
        QTest::newRow("inside a three-byte character")
            << QList<int>{after("\xE6\x9D\xB1", 1), after("\xE6\x9D\xB1", 2)} << 5;
        QTest::newRow("inside a two-byte character of the arguments")
            << QList<int>{after("\xC3\xAF", 1)} << 5;
        QTest::newRow("between every CR and its LF") << betweenCrAndLf << 5;
        QTest::newRow("between the two line ends of a frame") << QList<int>{after("\r\n\r\n", 2)} << 5;
        QTest::newRow("inside the data: field name") << QList<int>{3, after("}\r\n\r\ndata", 7)} << 5;
        QTest::newRow("one byte at a time") << everyByte << 0;
    }

    void aStreamSplitAnywhereGivesTheSameAnswer()
    {
        QFETCH(QList<int>, cuts);
        QFETCH(int, delayMs);

        ModelResponse expected;
        expected.text = u"Grüße aus Zürich, 東京 und 🌍!\n"_s;
        expected.toolCalls = {ToolCall{u"fc-9"_s, u"note"_s, u"{\"text\":\"naïve ✓\"}"_s, {}}};
        expected.finishReason = FinishReason::ToolCalls;
        expected.providerFinishReason = u"STOP"_s;
        expected.usage = {11, 22};
        expected.model = modelVersion;
        const QList<QJsonObject> events = awkwardEvents();
        const QJsonArray recorded{events.at(0), events.at(1), events.at(2)};

        // The decoder alone, fed exactly these pieces: the network may merge what it is sent.
        {
            const QByteArray stream = awkwardStream();
            auto decoder = GeminiProtocol().createDecoder(true);
            RecordingSink sink;
            int start = 0;
            QList<int> ends = cuts;
            ends.append(int(stream.size()));
            for (const int end : std::as_const(ends)) {
                QCOMPARE(decoder->feed(QByteArrayView(stream).sliced(start, end - start), sink), QString());
                start = end;
            }
            auto outcome = decoder->finish();
            if (const QString *error = std::get_if<QString>(&outcome))
                QFAIL(qPrintable(*error));
            QCOMPARE(std::get<ModelResponse>(outcome), expected);
            QCOMPARE(sink.text, expected.text);
            QCOMPARE(decoder->chunkCount(), 3);
            QCOMPARE(decoder->recordedResponse(), QJsonValue(recorded));
        }

        // And the whole way through HTTP.
        Fixture f;
        serveStream(f.server, awkwardStream(), cuts, delayMs);
        SEND_AND_WAIT(f, simpleRequest());
        QCOMPARE(f.failed->size(), 0);
        expected.streamedChunks = 3;
        expected.raw = recorded;
        QCOMPARE(f.response(), expected);
        QCOMPARE(f.textDeltas().join(QString()), expected.text);
        QCOMPARE(f.callDeltas().size(), 1);
    }

    void aBlockedPromptFails_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::newRow("streamed") << true;
        QTest::newRow("whole body") << false;
    }

    void aBlockedPromptFails()
    {
        QFETCH(bool, stream);
        const QJsonObject blocked{
            {u"promptFeedback"_s, QJsonObject{{u"blockReason"_s, u"PROHIBITED_CONTENT"_s}}},
            {u"usageMetadata"_s, usage(7, 0)},
            {u"modelVersion"_s, modelVersion}};
        Fixture f;
        if (stream)
            serveStream(f.server, frame(blocked));
        else
            serveJson(f.server, blocked);
        SEND_AND_WAIT(f, simpleRequest(stream));

        QCOMPARE(f.finished->size(), 0);
        QCOMPARE(f.error().kind, ModelError::Kind::Protocol);
        QVERIFY2(f.error().message.contains(u"PROHIBITED_CONTENT"_s), qPrintable(f.error().message));
        QCOMPARE(f.requestCount(), 1);
    }

    void anErrorObjectInASuccessfulBodyFails()
    {
        Fixture f;
        serveJson(f.server, errorObject(500, u"INTERNAL"_s, u"An internal error has occurred."_s));
        SEND_AND_WAIT(f, simpleRequest(false));
        QCOMPARE(f.error().kind, ModelError::Kind::Protocol);
        QVERIFY2(f.error().message.contains(u"INTERNAL: An internal error has occurred."_s),
                 qPrintable(f.error().message));
    }

    // --- Failures and retries --------------------------------------------------------------------

    void retryableStatusesAreRetriedUntilExhausted_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("grpcStatus");
        QTest::addColumn<QByteArray>("retryAfter");

        const struct
        {
            int status;
            const char *grpcStatus;
        } statuses[] = {{408, "DEADLINE_EXCEEDED"}, {409, "ABORTED"},     {429, "RESOURCE_EXHAUSTED"},
                        {500, "INTERNAL"},          {502, "UNAVAILABLE"}, {503, "UNAVAILABLE"},
                        {504, "DEADLINE_EXCEEDED"}};
        for (const auto &row : statuses) {
            QTest::addRow("%d without retry-after", row.status)
                << row.status << QString::fromLatin1(row.grpcStatus) << QByteArray();
            // Fractional seconds keep the test fast; the policy reads them like whole ones.
            QTest::addRow("%d with retry-after", row.status)
                << row.status << QString::fromLatin1(row.grpcStatus) << "0.12"_ba;
        }
    }

    void retryableStatusesAreRetriedUntilExhausted()
    {
        QFETCH(int, status);
        QFETCH(QString, grpcStatus);
        QFETCH(QByteArray, retryAfter);

        Fixture f;
        f.server.setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
            HttpHeaders headers;
            if (!retryAfter.isEmpty())
                headers.append({"Retry-After"_ba, retryAfter});
            exchange.respondJson(status, errorObject(status, grpcStatus, u"Please try again later."_s),
                                 headers);
        });
        SEND_AND_WAIT(f, simpleRequest());

        QCOMPARE(f.requestCount(), 3); // maxRetries 2
        QCOMPARE(f.finished->size(), 0);
        const ModelError error = f.error();
        QCOMPARE(error.kind, ModelError::Kind::Http);
        QCOMPARE(error.httpStatus, status);
        QVERIFY2(error.message.contains(QString::number(status)), qPrintable(error.message));
        QVERIFY2(error.message.contains(grpcStatus + u": Please try again later."_s),
                 qPrintable(error.message));

        const QList<ModelAttempt> attempts = f.attemptList();
        QCOMPARE(attempts.size(), 3);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(attempts.at(i).number, i + 1);
            QCOMPARE(attempts.at(i).httpStatus, status);
            QVERIFY(!attempts.at(i).error.isEmpty());
        }
        for (int i = 0; i < 2; ++i) {
            if (retryAfter.isEmpty()) {
                // 5 ms base, doubled per retry, less up to 25 % jitter.
                QVERIFY2(attempts.at(i).retryInMs >= 0 && attempts.at(i).retryInMs <= 10,
                         qPrintable(QString::number(attempts.at(i).retryInMs)));
            } else {
                QCOMPARE(attempts.at(i).retryInMs, 120);
            }
            QVERIFY2(attempts.at(i).error.contains(u"retrying"_s), qPrintable(attempts.at(i).error));
        }
        QCOMPARE(attempts.at(2).retryInMs, -1);
        // The same request each time.
        QCOMPARE(f.server.requests().at(0).body, f.server.requests().at(2).body);
    }

    void aRetryableStatusThenSuccessFinishes()
    {
        Fixture f;
        f.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            if (exchange.requestIndex() == 0) {
                exchange.respondJson(503, errorObject(503, u"UNAVAILABLE"_s, u"The model is overloaded."_s));
                return;
            }
            exchange.beginStream(200, sseHeaders);
            exchange.send(okStream());
            exchange.end();
        });
        SEND_AND_WAIT(f, simpleRequest());

        QCOMPARE(f.failed->size(), 0);
        QCOMPARE(f.response().text, u"ok"_s);
        QCOMPARE(f.requestCount(), 2);
        const QList<ModelAttempt> attempts = f.attemptList();
        QCOMPARE(attempts.size(), 2);
        QCOMPARE(attempts.at(0).httpStatus, 503);
        QVERIFY(attempts.at(0).retryInMs >= 0);
        QCOMPARE(attempts.at(1).number, 2);
        QCOMPARE(attempts.at(1).httpStatus, 200);
        QCOMPARE(attempts.at(1).error, QString());
        QCOMPARE(attempts.at(1).retryInMs, -1);
    }

    void xShouldRetryFalseIsNotRetried()
    {
        Fixture f;
        f.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(503, errorObject(503, u"UNAVAILABLE"_s, u"The model is overloaded."_s),
                                 {{"x-should-retry"_ba, "false"_ba}});
        });
        SEND_AND_WAIT(f, simpleRequest());
        QTest::qWait(100); // a retry would be due after at most 5 ms
        QCOMPARE(f.requestCount(), 1);
        QCOMPARE(f.error().httpStatus, 503);
        QCOMPARE(f.attemptList().size(), 1);
        QCOMPARE(f.attemptList().at(0).retryInMs, -1);
    }

    void nonRetryableStatusesFailAtOnce_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QJsonObject>("body");
        QTest::addColumn<QStringList>("fragments");

        QTest::newRow("401: the key was rejected")
            << 401
            << errorObject(401, u"UNAUTHENTICATED"_s, u"Request had invalid authentication credentials."_s)
            << QStringList{u"API key was rejected"_s, u"401"_s, u"UNAUTHENTICATED"_s};
        QTest::newRow("403: the key may not use the model")
            << 403
            << errorObject(403, u"PERMISSION_DENIED"_s, u"Method doesn't allow unregistered callers."_s)
            << QStringList{u"API key was rejected"_s, u"403"_s, u"PERMISSION_DENIED: Method doesn't allow"_s};
        QTest::newRow("400 with Gemini's error body")
            << 400
            << errorObject(
                   400, u"INVALID_ARGUMENT"_s,
                   u"Please ensure that function response turn comes immediately after a function call turn."_s)
            << QStringList{
                   u"400"_s,
                   u"INVALID_ARGUMENT: Please ensure that function response turn comes immediately after a "
                   u"function call turn."_s};
        QTest::newRow("404 for an unknown model")
            << 404
            << errorObject(404, u"NOT_FOUND"_s, u"models/gemini-9 is not found for API version v1beta."_s)
            << QStringList{u"404"_s, u"model name"_s, u"NOT_FOUND: models/gemini-9 is not found"_s};
    }

    void nonRetryableStatusesFailAtOnce()
    {
        QFETCH(int, status);
        QFETCH(QJsonObject, body);
        QFETCH(QStringList, fragments);

        Fixture f;
        f.server.setHandler(
            [&](const HttpRequestRecord &, HttpExchange &exchange) { exchange.respondJson(status, body); });
        SEND_AND_WAIT(f, simpleRequest());
        QTest::qWait(100);

        QCOMPARE(f.requestCount(), 1);
        QCOMPARE(f.error().kind, ModelError::Kind::Http);
        QCOMPARE(f.error().httpStatus, status);
        for (const QString &fragment : fragments)
            QVERIFY2(f.error().message.contains(fragment), qPrintable(f.error().message));
        QCOMPARE(f.attemptList().size(), 1);
        QCOMPARE(f.attemptList().at(0).retryInMs, -1);
        // The error body is kept for the trace.
        QCOMPARE(f.attemptList().at(0).response.toObject(), body);
    }

    void aResetBeforeTheHeadersIsRetriedAndThenSucceeds()
    {
        Fixture f;
        // Reset until the client has given up on one attempt. QNetworkAccessManager may resend
        // once on its own after a reset, so count the client's attempts, not the server's requests.
        f.server.setHandler([&f](const HttpRequestRecord &, HttpExchange &exchange) {
            if (f.attempts->isEmpty()) {
                exchange.resetConnection();
                return;
            }
            exchange.beginStream(200, sseHeaders);
            exchange.send(okStream());
            exchange.end();
        });
        SEND_AND_WAIT(f, simpleRequest());

        QCOMPARE(f.failed->size(), 0);
        QCOMPARE(f.response().text, u"ok"_s);
        QVERIFY(f.requestCount() >= 2);
        const QList<ModelAttempt> attempts = f.attemptList();
        QCOMPARE(attempts.size(), 2);
        QCOMPARE(attempts.at(0).httpStatus, 0);
        QVERIFY2(attempts.at(0).error.contains(u"could not reach"_s), qPrintable(attempts.at(0).error));
        QVERIFY(attempts.at(0).retryInMs >= 0);
        QCOMPARE(attempts.at(1).number, 2);
        QCOMPARE(attempts.at(1).error, QString());
    }

    void resetsUntilExhaustedFailWithAReadableMessage()
    {
        Fixture f;
        f.server.setHandler(
            [](const HttpRequestRecord &, HttpExchange &exchange) { exchange.resetConnection(); });
        SEND_AND_WAIT(f, simpleRequest());

        QCOMPARE(f.error().kind, ModelError::Kind::Network);
        QVERIFY2(f.error().message.contains(u"could not reach 127.0.0.1"_s), qPrintable(f.error().message));
        const QList<ModelAttempt> attempts = f.attemptList();
        QCOMPARE(attempts.size(), 3);
        QVERIFY(attempts.at(0).retryInMs >= 0);
        QVERIFY(attempts.at(1).retryInMs >= 0);
        QCOMPARE(attempts.at(2).retryInMs, -1);
    }

    void aBrokenStreamFailsWithoutARetry_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("fragment");

        QTest::newRow("the server closes the connection mid-stream") << u"close"_s << u"cut"_s;
        // Under load the reset can reach Qt after the bytes as a plain end of stream: either way the
        // response is incomplete, said so, and not retried.
        QTest::newRow("the connection is reset mid-stream") << u"reset"_s << u"cut|ended before"_s;
        QTest::newRow("the stream ends cleanly without a finish reason")
            << u"noFinish"_s << u"ended before"_s;
        QTest::newRow("an error object arrives mid-stream")
            << u"errorEvent"_s << u"INTERNAL: An internal error has occurred."_s;
        QTest::newRow("an event is not JSON") << u"malformed"_s << u"malformed"_s;
    }

    void aBrokenStreamFailsWithoutARetry()
    {
        QFETCH(QString, scenario);
        QFETCH(QString, fragment);

        Fixture f;
        f.server.setHandler([scenario](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, sseHeaders);
            exchange.send(frame(generateResponse({textPart(u"Partial "_s)})));
            if (scenario == u"close") {
                exchange.closeMidStream(30);
            } else if (scenario == u"reset") {
                exchange.resetConnection(30);
            } else if (scenario == u"noFinish") {
                exchange.send(frame(generateResponse({textPart(u"answer"_s)})), 10);
                exchange.end(10);
            } else if (scenario == u"errorEvent") {
                exchange.send(frame(errorObject(500, u"INTERNAL"_s, u"An internal error has occurred."_s)),
                              10);
                exchange.end(10);
            } else {
                exchange.send("data: {\"candidates\": [{\"content\":\r\n\r\n"_ba, 10);
                exchange.end(10);
            }
        });
        SEND_AND_WAIT(f, simpleRequest());
        QTest::qWait(150); // a retry would be due after at most 5 ms

        QCOMPARE(f.finished->size(), 0);
        QCOMPARE(f.requestCount(), 1);
        QCOMPARE(f.attemptList().size(), 1);
        QCOMPARE(f.attemptList().at(0).retryInMs, -1);
        QVERIFY2(f.error().message.contains(QRegularExpression(fragment)), qPrintable(f.error().message));
        // What arrived before the break was still shown.
        QCOMPARE(f.textDeltas().value(0), u"Partial "_s);
    }

    void aStalledServerTimesOutInsteadOfHanging_data()
    {
        QTest::addColumn<bool>("afterFirstEvent");
        QTest::addColumn<int>("requests");
        QTest::newRow("stalled mid-stream: reported, not retried") << true << 1;
        QTest::newRow("stalled before the headers: retried like a connection error") << false << 3;
    }

    void aStalledServerTimesOutInsteadOfHanging()
    {
        QFETCH(bool, afterFirstEvent);
        QFETCH(int, requests);

        FixtureOptions options;
        options.readTimeoutMs = 300;
        Fixture f(options);
        f.server.setHandler([afterFirstEvent](const HttpRequestRecord &, HttpExchange &exchange) {
            if (afterFirstEvent) {
                exchange.beginStream(200, sseHeaders);
                exchange.send(frame(generateResponse({textPart(u"Thinking about"_s)})));
            }
            exchange.stall();
        });
        QElapsedTimer timer;
        timer.start();
        SEND_AND_WAIT(f, simpleRequest());

        QVERIFY2(timer.elapsed() < 5000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(f.finished->size(), 0);
        QCOMPARE(f.error().kind, ModelError::Kind::Timeout);
        QVERIFY2(f.error().message.contains(u"sent nothing for 0.3 s"_s), qPrintable(f.error().message));
        QCOMPARE(f.requestCount(), requests);
        QCOMPARE(f.attemptList().size(), requests);
    }

    // --- Secrets ----------------------------------------------------------------------------------

    void theKeyNeverAppearsInAttemptsOrErrors_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::newRow("a 400 body that quotes the key") << u"400"_s;
        QTest::newRow("a 503 body that quotes the key, retried until exhausted") << u"503"_s;
        QTest::newRow("an error event mid-stream that quotes the key") << u"errorEvent"_s;
        QTest::newRow("an answer that quotes the key") << u"answer"_s;
    }

    void theKeyNeverAppearsInAttemptsOrErrors()
    {
        QFETCH(QString, scenario);
        const QString echo = u"API key not valid. Please pass a valid API key. Got: "_s + apiKey;

        Fixture f;
        f.server.setHandler([scenario, echo](const HttpRequestRecord &, HttpExchange &exchange) {
            if (scenario == u"400") {
                exchange.respondJson(400, errorObject(400, u"INVALID_ARGUMENT"_s, echo));
            } else if (scenario == u"503") {
                exchange.respondJson(503, errorObject(503, u"UNAVAILABLE"_s, echo));
            } else {
                exchange.beginStream(200, sseHeaders);
                exchange.send(frame(scenario == u"answer" ? generateResponse({textPart(echo)}, u"STOP"_s)
                                                          : errorObject(400, u"INVALID_ARGUMENT"_s, echo)));
                exchange.end();
            }
        });
        SEND_AND_WAIT(f, simpleRequest());

        // The key really went out, and really came back.
        QCOMPARE(f.lastRequest().header("x-goog-api-key"), apiKey.toUtf8());
        const QByteArray key = apiKey.toUtf8();
        const QList<ModelAttempt> attempts = f.attemptList();
        QVERIFY(!attempts.isEmpty());
        for (const ModelAttempt &attempt : attempts) {
            const QJsonObject request = attempt.request;
            QCOMPARE(request.value(u"headers"_s).toObject().value(u"x-goog-api-key"_s).toString(),
                     u"[redacted]"_s);
            QVERIFY(!request.value(u"url"_s).toString().contains(u"key="_s));
            QVERIFY2(!attempt.error.contains(apiKey), qPrintable(attempt.error));
            QVERIFY2(!QJsonDocument(attempt.toJson()).toJson().contains(key),
                     QJsonDocument(attempt.toJson()).toJson().constData());
        }
        if (scenario == u"answer") {
            QCOMPARE(f.failed->size(), 0);
            QVERIFY(!QJsonDocument(QJsonArray{f.response().raw}).toJson().contains(key));
        } else {
            QCOMPARE(f.finished->size(), 0);
            QVERIFY2(f.error().message.contains(u"API key not valid"_s), qPrintable(f.error().message));
            QVERIFY2(!f.error().message.contains(apiKey), qPrintable(f.error().message));
        }
    }

private:
    // Text with two-, three- and four-byte characters and a call, framed with CRLF.
    static QList<QJsonObject> awkwardEvents()
    {
        return {generateResponse({textPart(u"Grüße aus Zürich, "_s)}),
                generateResponse({textPart(u"東京 und 🌍!\n"_s)}),
                generateResponse({callPart(u"note"_s, {{u"text"_s, u"naïve ✓"_s}}, u"fc-9"_s)}, u"STOP"_s,
                                 usage(11, 22))};
    }

    static QByteArray awkwardStream()
    {
        QByteArray stream;
        for (const QJsonObject &event : awkwardEvents())
            stream += frame(event);
        return stream;
    }
};

QTEST_GUILESS_MAIN(GeminiAdapterTest)
#include "tst_geminiadapter.moc"
