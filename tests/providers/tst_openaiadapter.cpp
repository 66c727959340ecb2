#include "agent/providers/httpmodelclient.h"
#include "agent/providers/openaiprotocol.h"
#include "agent/providers/recordedbody.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/samplingrows.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString apiKey = u"sk-test-0123456789abcdef"_s;

QByteArray chunk(const QJsonObject &object)
{
    return FakeHttpServer::sseEvent(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QByteArray textChunk(const QString &text, const QJsonValue &finishReason = QJsonValue::Null)
{
    return chunk({{u"id"_s, u"chatcmpl-1"_s},
                  {u"object"_s, u"chat.completion.chunk"_s},
                  {u"model"_s, u"gpt-test"_s},
                  {u"choices"_s, QJsonArray{QJsonObject{{u"index"_s, 0},
                                                        {u"delta"_s, QJsonObject{{u"content"_s, text}}},
                                                        {u"finish_reason"_s, finishReason}}}}});
}

QByteArray toolChunk(const QJsonArray &toolCalls)
{
    return chunk(
        {{u"id"_s, u"chatcmpl-1"_s},
         {u"object"_s, u"chat.completion.chunk"_s},
         {u"model"_s, u"gpt-test"_s},
         {u"choices"_s, QJsonArray{QJsonObject{{u"index"_s, 0},
                                               {u"delta"_s, QJsonObject{{u"tool_calls"_s, toolCalls}}},
                                               {u"finish_reason"_s, QJsonValue::Null}}}}});
}

QByteArray finishChunk(const QString &reason)
{
    return chunk(
        {{u"id"_s, u"chatcmpl-1"_s},
         {u"model"_s, u"gpt-test"_s},
         {u"choices"_s, QJsonArray{QJsonObject{
                            {u"index"_s, 0}, {u"delta"_s, QJsonObject{}}, {u"finish_reason"_s, reason}}}}});
}

QByteArray usageChunk(int prompt, int completion)
{
    return chunk(
        {{u"id"_s, u"chatcmpl-1"_s},
         {u"choices"_s, QJsonArray{}},
         {u"usage"_s, QJsonObject{{u"prompt_tokens"_s, prompt}, {u"completion_tokens"_s, completion}}}});
}

const QByteArray done = "data: [DONE]\n\n";

// A streamed answer with text, two parallel calls whose arguments arrive in
// fragments (the id and name only on the first), and a usage chunk.
QByteArray parallelToolStream()
{
    return textChunk(u"Let me check "_s) + textChunk(u"both. ✓"_s)
           + toolChunk({QJsonObject{
               {u"index"_s, 0},
               {u"id"_s, u"call_a"_s},
               {u"type"_s, u"function"_s},
               {u"function"_s, QJsonObject{{u"name"_s, u"get_price"_s}, {u"arguments"_s, u""_s}}}}})
           + toolChunk(
               {QJsonObject{{u"index"_s, 0}, {u"function"_s, QJsonObject{{u"arguments"_s, u"{\"it"_s}}}}})
           + toolChunk(
               {QJsonObject{{u"index"_s, 0}, {u"function"_s, QJsonObject{{u"arguments"_s, u"em\":\"Ed"_s}}}}})
           + toolChunk({QJsonObject{{u"index"_s, 1},
                                    {u"id"_s, u"call_b"_s},
                                    {u"type"_s, u"function"_s},
                                    {u"function"_s, QJsonObject{{u"name"_s, u"get_inventory"_s},
                                                                {u"arguments"_s, u"{\"item\":\"x\"}"_s}}}}})
           + toolChunk({QJsonObject{{u"index"_s, 0},
                                    {u"function"_s, QJsonObject{{u"arguments"_s, u"inburgh\"}"_s}}}}})
           + finishChunk(u"tool_calls"_s) + usageChunk(42, 17) + done;
}

ModelRequest sampleRequest(bool stream = true)
{
    ModelRequest request;
    request.options.model = u"gpt-test"_s;
    request.options.stream = stream;
    request.messages = {Message::system(u"Be brief."_s), Message::user(u"Price of a widget?"_s)};
    request.tools = {ToolSchema{
        u"get_price"_s, u"Price lookup"_s,
        QJsonObject{{u"type"_s, u"object"_s},
                    {u"properties"_s, QJsonObject{{u"item"_s, QJsonObject{{u"type"_s, u"string"_s}}}}}}}};
    return request;
}

} // namespace

class OpenAiAdapterTest : public QObject
{
    Q_OBJECT

private:
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

        explicit Fixture(const QString &baseSuffix = u"/v1"_s, int readTimeoutMs = 5000)
        {
            QVERIFY(server.listen());
            ProviderEndpoint endpoint;
            endpoint.baseUrl = QUrl(server.baseUrl().toString() + baseSuffix);
            endpoint.apiKey = apiKey;
            endpoint.readTimeoutMs = readTimeoutMs;
            client
                = std::make_unique<HttpModelClient>(&network, std::make_unique<OpenAiProtocol>(), endpoint);
            client->retryPolicy().setBaseDelayMs(5);
            finished = std::make_unique<QSignalSpy>(client.get(), &ModelClient::finished);
            failed = std::make_unique<QSignalSpy>(client.get(), &ModelClient::failed);
            attempts = std::make_unique<QSignalSpy>(client.get(), &ModelClient::attemptFinished);
            deltas = std::make_unique<QSignalSpy>(client.get(), &ModelClient::textDelta);
            toolDeltas = std::make_unique<QSignalSpy>(client.get(), &ModelClient::toolCallDelta);
        }

        // Sends a request and waits until the client finished or failed.
        bool run(const ModelRequest &request = sampleRequest())
        {
            client->send(request);
            return QTest::qWaitFor([this] { return finished->size() + failed->size() > 0; }, 15000);
        }
        ModelResponse response() const { return finished->constFirst().first().value<ModelResponse>(); }
        ModelError error() const { return failed->constFirst().first().value<ModelError>(); }
        QList<ModelAttempt> attemptList() const
        {
            QList<ModelAttempt> result;
            for (const auto &args : *attempts)
                result.append(args.first().value<ModelAttempt>());
            return result;
        }
        QString streamedText() const
        {
            QString text;
            for (const auto &args : *deltas)
                text += args.first().toString();
            return text;
        }
    };

    static void serveStream(FakeHttpServer &server, const QByteArray &stream, const QList<int> &cuts = {})
    {
        // A few cuts get a pause each so they surely arrive as separate reads;
        // hundreds go out back to back (each still written and flushed alone).
        const int delayMs = cuts.size() > 20 ? 0 : 2;
        server.setHandler([stream, cuts, delayMs](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.sendSplit(stream, cuts, delayMs);
            exchange.end();
        });
    }

private slots:
    void initTestCase()
    {
        qRegisterMetaType<ModelResponse>();
        qRegisterMetaType<ModelError>();
        qRegisterMetaType<ModelAttempt>();
        qRegisterMetaType<ToolCallDelta>();
    }

    void theRequestIsWhatChatCompletionsAccepts()
    {
        Fixture f(u"/v1/"_s); // a trailing slash on the base URL must not matter
        serveStream(f.server, textChunk(u"ok"_s) + finishChunk(u"stop"_s) + done);
        ModelRequest request = sampleRequest();
        request.options.temperature = 0.25;
        request.options.maxOutputTokens = 300;
        const ToolCall call{u"call_1"_s, u"get_price"_s, u"{\"item\":\"widget\"}"_s, {}};
        request.messages
            += {Message::assistant(QString(), {call}), Message::toolResult(call, u"4.20 EUR"_s, false)};

        QVERIFY(f.run(request));

        QCOMPARE(f.server.requests().size(), 1);
        const HttpRequestRecord sent = f.server.requests().constFirst();
        QCOMPARE(sent.method, "POST"_ba);
        QCOMPARE(sent.path, "/v1/chat/completions"_ba);
        QCOMPARE(sent.header("authorization"), "Bearer "_ba + apiKey.toUtf8());
        QCOMPARE(sent.header("content-type"), "application/json"_ba);
        const QJsonObject body = sent.json();
        QCOMPARE(body.value(u"model"_s).toString(), u"gpt-test"_s);
        QCOMPARE(body.value(u"stream"_s).toBool(), true);
        QCOMPARE(body.value(u"stream_options"_s).toObject().value(u"include_usage"_s).toBool(), true);
        QCOMPARE(body.value(u"temperature"_s).toDouble(), 0.25);
        QCOMPARE(body.value(u"max_tokens"_s).toInt(), 300);
        QCOMPARE(body.value(u"tool_choice"_s).toString(), u"auto"_s);
        const QJsonObject function
            = body.value(u"tools"_s).toArray().at(0).toObject().value(u"function"_s).toObject();
        QCOMPARE(function.value(u"name"_s).toString(), u"get_price"_s);
        QVERIFY(function.value(u"parameters"_s).toObject().contains(u"properties"_s));

        const QJsonArray messages = body.value(u"messages"_s).toArray();
        QCOMPARE(messages.size(), 4);
        QCOMPARE(messages.at(0).toObject().value(u"role"_s).toString(), u"system"_s);
        const QJsonObject assistant = messages.at(2).toObject();
        QVERIFY(assistant.value(u"content"_s).isNull()); // null, not "", beside tool calls
        const QJsonObject sentCall = assistant.value(u"tool_calls"_s).toArray().at(0).toObject();
        QCOMPARE(sentCall.value(u"id"_s).toString(), u"call_1"_s);
        QCOMPARE(sentCall.value(u"type"_s).toString(), u"function"_s);
        QCOMPARE(sentCall.value(u"function"_s).toObject().value(u"arguments"_s).toString(),
                 u"{\"item\":\"widget\"}"_s);
        const QJsonObject result = messages.at(3).toObject();
        QCOMPARE(result.value(u"role"_s).toString(), u"tool"_s);
        QCOMPARE(result.value(u"tool_call_id"_s).toString(), u"call_1"_s);
        QCOMPARE(result.value(u"content"_s).toString(), u"4.20 EUR"_s);
    }

    void toolChoiceIsSentOnlyWithTools_data()
    {
        QTest::addColumn<ToolChoice>("choice");
        QTest::addColumn<bool>("withTools");
        QTest::addColumn<QString>("expected");
        QTest::newRow("auto") << ToolChoice::Auto << true << u"auto"_s;
        QTest::newRow("none, the final iteration") << ToolChoice::None << true << u"none"_s;
        QTest::newRow("required") << ToolChoice::Required << true << u"required"_s;
        QTest::newRow("no tools: no tool_choice") << ToolChoice::None << false << QString();
    }

    void toolChoiceIsSentOnlyWithTools()
    {
        QFETCH(ToolChoice, choice);
        QFETCH(bool, withTools);
        QFETCH(QString, expected);
        ModelRequest request = sampleRequest();
        request.toolChoice = choice;
        if (!withTools)
            request.tools.clear();
        const QJsonObject body = OpenAiProtocol().encode(request, ProviderEndpoint{}).body;
        QCOMPARE(body.value(u"tool_choice"_s).toString(), expected);
        QCOMPARE(body.contains(u"tools"_s), withTools);
    }

    void topPIsSentAsTopPOnlyWhenSet_data() { Testing::addTopPRows(); }

    void topPIsSentAsTopPOnlyWhenSet()
    {
        QFETCH(double, topP);
        QFETCH(double, temperature);
        Fixture f;
        serveStream(f.server, textChunk(u"ok"_s) + finishChunk(u"stop"_s) + done);

        QVERIFY(f.run(Testing::withSampling(sampleRequest(), topP, temperature)));

        QCOMPARE(f.failed->size(), 0);
        QCOMPARE(Testing::sentSampling(f.server.requests().constFirst().json(), u"top_p"_s, u"temperature"_s),
                 Testing::expectedSampling(u"top_p"_s, u"temperature"_s, topP, temperature));
    }

    void aFailedToolResultSaysErrorSinceChatCompletionsHasNoFlag_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("isError");
        QTest::addColumn<QString>("expected");
        QTest::newRow("a success goes as it is") << u"4.20 EUR"_s << false << u"4.20 EUR"_s;
        QTest::newRow("a success that mentions an error is not marked")
            << u"Error: none found"_s << false << u"Error: none found"_s;
        QTest::newRow("a refused path leads with Error:") << u"path leaves the workspace: ../etc"_s << true
                                                          << u"Error: path leaves the workspace: ../etc"_s;
        QTest::newRow("an error that already says so is not doubled")
            << u"Error: no such item"_s << true << u"Error: no such item"_s;
    }

    void aFailedToolResultSaysErrorSinceChatCompletionsHasNoFlag()
    {
        QFETCH(QString, text);
        QFETCH(bool, isError);
        QFETCH(QString, expected);
        ModelRequest request = sampleRequest();
        const ToolCall call{u"call_1"_s, u"get_price"_s, u"{\"item\":\"widget\"}"_s, {}};
        request.messages += {Message::assistant(QString(), {call}), Message::toolResult(call, text, isError)};
        const QJsonArray messages
            = OpenAiProtocol().encode(request, ProviderEndpoint{}).body.value(u"messages"_s).toArray();
        const QJsonObject result = messages.last().toObject();
        QCOMPARE(result.value(u"role"_s).toString(), u"tool"_s);
        QCOMPARE(result.value(u"content"_s).toString(), expected);
    }

    void aStreamedAnswerArrivesAsDeltasAndOneResponse()
    {
        Fixture f;
        serveStream(f.server, textChunk(u"Hello, "_s) + textChunk(u"wörld 🌍"_s) + finishChunk(u"stop"_s)
                                  + usageChunk(12, 5) + done);

        QVERIFY(f.run());

        QCOMPARE(f.failed->size(), 0);
        const ModelResponse response = f.response();
        QCOMPARE(response.text, u"Hello, wörld 🌍"_s);
        QCOMPARE(f.streamedText(), response.text);
        QCOMPARE(f.deltas->size(), 2);
        QCOMPARE(response.finishReason, FinishReason::Stop);
        QCOMPARE(response.usage, (TokenUsage{12, 5}));
        QCOMPARE(response.model, u"gpt-test"_s);
        QCOMPARE(response.streamedChunks, 5);
        QCOMPARE(f.attempts->size(), 1);
        QCOMPARE(f.attemptList().constFirst().httpStatus, 200);
        QVERIFY(f.attemptList().constFirst().error.isEmpty());
    }

    void parallelToolCallsAreAssembledFromFragments()
    {
        Fixture f;
        serveStream(f.server, parallelToolStream());

        QVERIFY(f.run());

        const ModelResponse response = f.response();
        QCOMPARE(response.text, u"Let me check both. ✓"_s);
        QCOMPARE(response.finishReason, FinishReason::ToolCalls);
        QCOMPARE(response.toolCalls.size(), 2);
        QCOMPARE(response.toolCalls.at(0),
                 (ToolCall{u"call_a"_s, u"get_price"_s, u"{\"item\":\"Edinburgh\"}"_s, {}}));
        QCOMPARE(response.toolCalls.at(1),
                 (ToolCall{u"call_b"_s, u"get_inventory"_s, u"{\"item\":\"x\"}"_s, {}}));
        QCOMPARE(response.usage, (TokenUsage{42, 17}));
        QCOMPARE(f.toolDeltas->size(), 5);
        QCOMPARE(f.toolDeltas->constFirst().first().value<ToolCallDelta>().name, u"get_price"_s);
    }

    void theStreamDecodesTheSameHoweverTheBytesAreSplit_data()
    {
        QTest::addColumn<QList<int>>("cuts");
        const QByteArray stream = parallelToolStream();
        const int tick = int(stream.indexOf("\xe2\x9c\x93")); // "✓", three bytes
        QTest::newRow("inside a three-byte character") << QList<int>{tick + 1, tick + 2};
        QTest::newRow("between the two blank-line newlines") << QList<int>{int(stream.indexOf("\n\n")) + 1};
        // Every byte position is the stream parser's own test; over HTTP a
        // coarser sweep is enough to show the pieces are put back together.
        QList<int> every37;
        for (int i = 37; i < stream.size(); i += 37)
            every37.append(i);
        QTest::newRow("every 37 bytes") << every37;
        QList<int> everyByte;
        for (int i = 1; i < 120; ++i)
            everyByte.append(i);
        QTest::newRow("one byte at a time through the first chunks") << everyByte;
    }

    void theStreamDecodesTheSameHoweverTheBytesAreSplit()
    {
        QFETCH(QList<int>, cuts);
        Fixture f;
        serveStream(f.server, parallelToolStream(), cuts);

        QVERIFY(f.run());

        QCOMPARE(f.failed->size(), 0);
        const ModelResponse response = f.response();
        QCOMPARE(response.text, u"Let me check both. ✓"_s);
        QCOMPARE(response.toolCalls.at(0).arguments, u"{\"item\":\"Edinburgh\"}"_s);
        QCOMPARE(response.toolCalls.size(), 2);
    }

    void serverQuirksAreTolerated_data()
    {
        QTest::addColumn<QByteArray>("stream");
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<bool>("idSynthesised");

        // Ollama's /v1: the whole call in one delta, no id, finish_reason "stop".
        QTest::newRow("no id and finish reason stop")
            << toolChunk({QJsonObject{{u"index"_s, 0},
                                      {u"function"_s, QJsonObject{{u"name"_s, u"get_price"_s},
                                                                  {u"arguments"_s, u"{\"item\":\"a\"}"_s}}}}})
                   + finishChunk(u"stop"_s) + done
            << u"{\"item\":\"a\"}"_s << true;
        // LM Studio has sent empty ids.
        QTest::newRow("an empty id") << toolChunk({QJsonObject{
                                            {u"index"_s, 0},
                                            {u"id"_s, u""_s},
                                            {u"function"_s, QJsonObject{{u"name"_s, u"get_price"_s},
                                                                        {u"arguments"_s, u"{}"_s}}}}})
                                            + finishChunk(u"tool_calls"_s) + done
                                     << u"{}"_s << true;
        // Some llama.cpp builds send the arguments as an object.
        QTest::newRow("arguments as an object")
            << toolChunk({QJsonObject{
                   {u"index"_s, 0},
                   {u"id"_s, u"abc"_s},
                   {u"function"_s, QJsonObject{{u"name"_s, u"get_price"_s},
                                               {u"arguments"_s, QJsonObject{{u"item"_s, u"b"_s}}}}}}})
                   + finishChunk(u"tool_calls"_s) + done
            << u"{\"item\":\"b\"}"_s << false;
        // A server that never sends [DONE] but finished properly.
        QTest::newRow("no [DONE] after the finish reason")
            << toolChunk({QJsonObject{
                   {u"index"_s, 0},
                   {u"id"_s, u"abc"_s},
                   {u"function"_s, QJsonObject{{u"name"_s, u"get_price"_s}, {u"arguments"_s, u"{}"_s}}}}})
                   + finishChunk(u"tool_calls"_s)
            << u"{}"_s << false;
    }

    void serverQuirksAreTolerated()
    {
        QFETCH(QByteArray, stream);
        QFETCH(QString, arguments);
        QFETCH(bool, idSynthesised);
        Fixture f;
        serveStream(f.server, stream);

        QVERIFY(f.run());

        QCOMPARE(f.failed->size(), 0);
        const ModelResponse response = f.response();
        QCOMPARE(response.finishReason, FinishReason::ToolCalls);
        QCOMPARE(response.toolCalls.size(), 1);
        QCOMPARE(response.toolCalls.constFirst().arguments, arguments);
        QVERIFY(!response.toolCalls.constFirst().id.isEmpty());
        QCOMPARE(response.toolCalls.constFirst().id != u"abc"_s, idSynthesised);
    }

    void aWholeResponseIsDecodedWithoutStreaming()
    {
        Fixture f;
        f.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(
                200,
                QJsonObject{
                    {u"model"_s, u"gpt-test"_s},
                    {u"choices"_s,
                     QJsonArray{QJsonObject{
                         {u"index"_s, 0},
                         {u"message"_s,
                          QJsonObject{
                              {u"role"_s, u"assistant"_s},
                              {u"content"_s, QJsonValue::Null},
                              {u"tool_calls"_s,
                               QJsonArray{QJsonObject{
                                   {u"id"_s, u"call_9"_s},
                                   {u"type"_s, u"function"_s},
                                   {u"function"_s, QJsonObject{{u"name"_s, u"get_price"_s},
                                                               {u"arguments"_s, u"{\"item\":\"z\"}"_s}}}}}}}},
                         {u"finish_reason"_s, u"tool_calls"_s}}}},
                    {u"usage"_s,
                     QJsonObject{{u"prompt_tokens"_s, 9},
                                 {u"completion_tokens"_s, 3},
                                 {u"prompt_tokens_details"_s, QJsonObject{{u"cached_tokens"_s, 4}}}}}});
        });

        QVERIFY(f.run(sampleRequest(false)));

        QCOMPARE(f.server.requests().constFirst().json().value(u"stream"_s).toBool(), false);
        QVERIFY(!f.server.requests().constFirst().json().contains(u"stream_options"_s));
        const ModelResponse response = f.response();
        QCOMPARE(response.text, QString());
        QCOMPARE(response.toolCalls,
                 (QList<ToolCall>{{u"call_9"_s, u"get_price"_s, u"{\"item\":\"z\"}"_s, {}}}));
        QCOMPARE(response.usage, (TokenUsage{9, 3, 4, 0})); // cached tokens are part of the prompt's
        QCOMPARE(response.streamedChunks, 0);
        QCOMPARE(f.deltas->size(), 0);
    }

    void retryableStatusesAreRetriedAsTheServerAsks_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<qint64>("expectedDelay"); // -1: backoff with jitter
        for (int status : {408, 409, 429, 500, 502, 503, 504, 529}) {
            QTest::addRow("%d, backoff", status) << status << QByteArray() << QByteArray() << qint64(-1);
            QTest::addRow("%d, retry-after 0.03 s", status) << status << "retry-after"_ba
                                                            << "0.03"_ba << qint64(30);
            QTest::addRow("%d, retry-after-ms 20", status) << status << "retry-after-ms"_ba
                                                           << "20"_ba << qint64(20);
        }
        QTest::newRow("400 marked x-should-retry: true") << 400 << "x-should-retry"_ba
                                                         << "true"_ba << qint64(-1);
    }

    void retryableStatusesAreRetriedAsTheServerAsks()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, header);
        QFETCH(QByteArray, value);
        QFETCH(qint64, expectedDelay);
        Fixture f;
        f.server.setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
            if (exchange.requestIndex() == 0) {
                HttpHeaders headers{{"Content-Type", "application/json"}};
                if (!header.isEmpty())
                    headers.append({header, value});
                exchange.respond(status, headers,
                                 R"({"error":{"message":"slow down","type":"requests","code":null}})");
                return;
            }
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.send(textChunk(u"fine"_s) + finishChunk(u"stop"_s) + done);
            exchange.end();
        });

        QVERIFY(f.run());

        QCOMPARE(f.server.requests().size(), 2);
        QCOMPARE(f.failed->size(), 0);
        QCOMPARE(f.response().text, u"fine"_s);
        const QList<ModelAttempt> attempts = f.attemptList();
        QCOMPARE(attempts.size(), 2);
        QCOMPARE(attempts.at(0).httpStatus, status);
        QCOMPARE(attempts.at(0).number, 1);
        QCOMPARE(attempts.at(1).number, 2);
        QVERIFY2(attempts.at(0).error.contains(u"retrying in"_s), qPrintable(attempts.at(0).error));
        QVERIFY(attempts.at(0).error.contains(u"slow down"_s));
        if (expectedDelay >= 0)
            QCOMPARE(attempts.at(0).retryInMs, expectedDelay);
        else
            QVERIFY(attempts.at(0).retryInMs >= 3 && attempts.at(0).retryInMs <= 5);
        QCOMPARE(attempts.at(1).retryInMs, -1);
    }

    void retriesStopAfterTwoWithAClearMessage()
    {
        Fixture f;
        f.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respond(429, {{"Content-Type", "application/json"}},
                             R"({"error":{"message":"Rate limit reached for requests","type":"requests"}})");
        });

        QVERIFY(f.run());

        QCOMPARE(f.server.requests().size(), 3);
        QCOMPARE(f.attempts->size(), 3);
        const ModelError error = f.error();
        QCOMPARE(error.kind, ModelError::Kind::Http);
        QCOMPARE(error.httpStatus, 429);
        QCOMPARE(error.message, u"rate limited (429): Rate limit reached for requests"_s);
    }

    void nonRetryableErrorsFailAtOnceInWords_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QByteArray>("extraHeader");
        QTest::addColumn<QString>("message");
        QTest::newRow("401: the key was rejected")
            << 401
            << R"({"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}})"_ba
            << QByteArray() << u"the API key was rejected (401): Incorrect API key provided"_s;
        QTest::newRow("400 with a body")
            << 400 << R"({"error":{"message":"Invalid 'messages[2].tool_calls'","param":"messages"}})"_ba
            << QByteArray() << u"the provider refused the request (400): Invalid 'messages[2].tool_calls'"_s;
        QTest::newRow("404 for a wrong model")
            << 404 << "not json at all"_ba << QByteArray()
            << u"not found (404): check the base URL and the model name: not json at all"_s;
        QTest::newRow("503 with x-should-retry: false")
            << 503 << R"({"error":{"message":"down for maintenance"}})"_ba
            << "false"_ba << u"the provider is overloaded (503): down for maintenance"_s;
    }

    void nonRetryableErrorsFailAtOnceInWords()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        QFETCH(QByteArray, extraHeader);
        QFETCH(QString, message);
        Fixture f;
        f.server.setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
            HttpHeaders headers{{"Content-Type", "application/json"}};
            if (!extraHeader.isEmpty())
                headers.append({"x-should-retry", extraHeader});
            exchange.respond(status, headers, body);
        });

        QVERIFY(f.run());

        QCOMPARE(f.server.requests().size(), 1);
        QCOMPARE(f.error().httpStatus, status);
        QCOMPARE(f.error().message, message);
    }

    void aConnectionResetBeforeHeadersIsRetried()
    {
        Fixture f;
        f.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            // QNetworkAccessManager itself resends once when a connection drops
            // before any response; the second reset reaches the client's retry.
            if (exchange.requestIndex() < 2) {
                exchange.resetConnection();
                return;
            }
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.send(textChunk(u"second time lucky"_s) + finishChunk(u"stop"_s) + done);
            exchange.end();
        });

        QVERIFY(f.run());

        QCOMPARE(f.server.requests().size(), 3);
        QCOMPARE(f.attempts->size(), 2);
        QCOMPARE(f.response().text, u"second time lucky"_s);
        const ModelAttempt first = f.attemptList().constFirst();
        QCOMPARE(first.httpStatus, 0);
        QVERIFY2(first.error.contains(u"could not reach"_s), qPrintable(first.error));
    }

    void failuresInsideAStreamEndTheCallWithoutARetry_data()
    {
        QTest::addColumn<QString>("failure");
        QTest::addColumn<QString>("message");
        QTest::newRow("the stream is cut in the middle") << u"cut"_s << u"cut"_s;
        QTest::newRow("an error object mid-stream")
            << u"error"_s << u"The server had an error while processing"_s;
        QTest::newRow("a malformed JSON chunk") << u"malformed"_s << u"malformed stream chunk"_s;
        QTest::newRow("the stream ends without finishing")
            << u"early end"_s << u"ended before the response was complete"_s;
        QTest::newRow("the server stalls past the read timeout") << u"stall"_s << u"sent nothing for 0.3 s"_s;
    }

    void failuresInsideAStreamEndTheCallWithoutARetry()
    {
        QFETCH(QString, failure);
        QFETCH(QString, message);
        Fixture f(u"/v1"_s, 300);
        f.server.setHandler([failure](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.send(textChunk(u"partial "_s), 5);
            if (failure == u"cut") {
                exchange.send(textChunk(u"answ"_s).left(20), 5);
                exchange.closeMidStream(5);
            } else if (failure == u"error") {
                exchange.send("data: {\"error\":{\"message\":\"The server had an error while processing your "
                              "request.\",\"type\":\"server_error\"}}\n\n",
                              5);
                exchange.end();
            } else if (failure == u"malformed") {
                exchange.send("data: {\"choices\":[{\"delta\":{\"content\":\"x\"\n\n", 5);
                exchange.end();
            } else if (failure == u"early end") {
                exchange.end(5);
            } else {
                exchange.stall();
            }
        });

        QVERIFY(f.run());

        QCOMPARE(f.finished->size(), 0);
        QCOMPARE(f.server.requests().size(), 1); // never retried once streaming began
        QVERIFY2(f.error().message.contains(message), qPrintable(f.error().message));
        QCOMPARE(f.streamedText().left(8), u"partial "_s);
        const ModelAttempt attempt = f.attemptList().constLast();
        QCOMPARE(attempt.retryInMs, -1);
        QVERIFY(!attempt.error.isEmpty());
    }

    void theKeyNeverReachesAnAttemptOrAnErrorMessage()
    {
        Fixture f;
        f.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respond(401, {{"Content-Type", "application/json"}},
                             "{\"error\":{\"message\":\"Incorrect API key provided: " + apiKey.toUtf8()
                                 + ". You can find your API key at the dashboard.\"}}");
        });

        QVERIFY(f.run());

        QVERIFY(!f.error().message.contains(apiKey));
        QVERIFY(f.error().message.contains(u"[redacted]"_s));
        const ModelAttempt attempt = f.attemptList().constFirst();
        const QByteArray recorded = QJsonDocument(attempt.toJson()).toJson();
        QVERIFY(!recorded.contains(apiKey.toUtf8()));
        QCOMPARE(attempt.request.value(u"headers"_s).toObject().value(u"Authorization"_s).toString(),
                 u"[redacted]"_s);
        QVERIFY(attempt.request.value(u"url"_s).toString().endsWith(u"/v1/chat/completions"_s));
        // The body is recorded by reference to the request, and rebuilds without the key.
        QCOMPARE(attempt.request.value(u"bodyFrom"_s).toString(), u"request"_s);
        const QJsonObject whole
            = RecordedBody::withBody(attempt.request, u"openai"_s, sampleRequest().toJson());
        QCOMPARE(whole.value(u"body"_s).toObject().value(u"model"_s).toString(), u"gpt-test"_s);
        QVERIFY(!QJsonDocument(whole).toJson().contains(apiKey.toUtf8()));
    }

    void theRecordedBodyRebuildsToWhatWasSentAsTheHistoryGrowsAndChanges()
    {
        Fixture f;
        serveStream(f.server, textChunk(u"ok"_s) + finishChunk(u"stop"_s) + done);
        const ToolCall call{u"call_1"_s, u"get_price"_s, u"{\"item\":\"widget\"}"_s, {}};
        QList<ModelRequest> requests{sampleRequest()};
        ModelRequest grown = sampleRequest();
        grown.messages
            += {Message::assistant(QString(), {call}), Message::toolResult(call, u"4.20 EUR"_s, false)};
        requests.append(grown);
        ModelRequest edited = grown; // the debugger changed a message in the middle
        edited.messages[1].text = u"How much are two widgets?"_s;
        edited.options.temperature = 0.5;
        requests.append(edited);
        ModelRequest wrapUp = edited; // the loop's note near the limit changes the system message
        wrapUp.messages.first().text += u"\n\nAnswer now."_s;
        requests.append(wrapUp);
        ModelRequest withoutSystem = wrapUp; // and a history may have none at all
        withoutSystem.messages.removeFirst();
        requests.append(withoutSystem);
        ModelRequest systemAgain = wrapUp;
        systemAgain.messages.append(Message::user(u"And two?"_s));
        requests.append(systemAgain);
        ModelRequest shorter = sampleRequest(); // a new conversation on the same client
        shorter.messages.removeLast();
        requests.append(shorter);

        ProviderEndpoint endpoint;
        endpoint.baseUrl = QUrl(f.server.baseUrl().toString() + u"/v1"_s);
        for (qsizetype i = 0; i < requests.size(); ++i) {
            f.finished->clear();
            QVERIFY(f.run(requests.at(i)));
            QCOMPARE(f.finished->size(), 1);
            const QJsonObject sent = f.server.requests().at(i).json();
            QCOMPARE(sent, OpenAiProtocol().encode(requests.at(i), endpoint).body);
            QCOMPARE(QJsonValue(sent), RecordedBody::rebuild(u"openai"_s, requests.at(i)));
            const ModelAttempt attempt = f.attemptList().at(i);
            QVERIFY(!attempt.request.contains(u"body"_s));
            QCOMPARE(RecordedBody::withBody(attempt.request, u"openai"_s, requests.at(i).toJson())
                         .value(u"body"_s)
                         .toObject(),
                     sent);
        }
    }

    void messagesAreSentAsJsonThatReadsBackToTheirText_data()
    {
        QTest::addColumn<Message>("message");
        QTest::addColumn<QJsonObject>("expected");
        const QString awkward = u"\"quoted\" back\\slash / tab\t line\n\r \u0001\u001f Zürich 東京 🌦"_s;
        QTest::newRow("a user's text with escapes and non-ASCII")
            << Message::user(awkward) << QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, awkward}};
        QTest::newRow("an empty system message")
            << Message::system(QString()) << QJsonObject{{u"role"_s, u"system"_s}, {u"content"_s, u""_s}};
        const ToolCall call{u"call_\"1"_s, u"get_price"_s, u"{\"item\":\"w\\u00e4sche\"}"_s, {}};
        const ToolCall noArguments{u"call_2"_s, u"list"_s, u"  "_s, {}};
        QTest::newRow("an assistant's calls, with null content")
            << Message::assistant(QString(), {call, noArguments})
            << QJsonObject{
                   {u"role"_s, u"assistant"_s},
                   {u"content"_s, QJsonValue::Null},
                   {u"tool_calls"_s,
                    QJsonArray{QJsonObject{{u"id"_s, call.id},
                                           {u"type"_s, u"function"_s},
                                           {u"function"_s, QJsonObject{{u"name"_s, call.name},
                                                                       {u"arguments"_s, call.arguments}}}},
                               QJsonObject{{u"id"_s, u"call_2"_s},
                                           {u"type"_s, u"function"_s},
                                           {u"function"_s, QJsonObject{{u"name"_s, u"list"_s},
                                                                       {u"arguments"_s, u"{}"_s}}}}}}};
        QTest::newRow("a tool's result")
            << Message::toolResult(call, awkward, false)
            << QJsonObject{{u"role"_s, u"tool"_s}, {u"tool_call_id"_s, call.id}, {u"content"_s, awkward}};
    }

    void messagesAreSentAsJsonThatReadsBackToTheirText()
    {
        QFETCH(Message, message);
        QFETCH(QJsonObject, expected);
        QJsonParseError error;
        const QJsonDocument sent
            = QJsonDocument::fromJson(OpenAiProtocol::encodeMessageText(message), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
        QCOMPARE(sent.object(), expected);
    }

    void aKeyEchoedInASuccessfulResponseIsRedactedFromTheRecord_data()
    {
        QTest::addColumn<bool>("stream");
        QTest::newRow("streamed") << true;
        QTest::newRow("plain JSON") << false;
    }

    void aKeyEchoedInASuccessfulResponseIsRedactedFromTheRecord()
    {
        QFETCH(bool, stream);
        Fixture f;
        const QString echoed = u"Your key is "_s + apiKey;
        if (stream) {
            const QByteArray body = textChunk(echoed) + finishChunk(u"stop"_s) + done;
            serveStream(f.server, body, {int(body.indexOf(apiKey.toUtf8())) + 5}); // split inside the key
        } else {
            f.server.setHandler([echoed](const HttpRequestRecord &, HttpExchange &exchange) {
                const QJsonObject message{{u"role"_s, u"assistant"_s}, {u"content"_s, echoed}};
                exchange.respondJson(
                    200,
                    QJsonObject{{u"choices"_s, QJsonArray{QJsonObject{{u"message"_s, message},
                                                                      {u"finish_reason"_s, u"stop"_s}}}}});
            });
        }
        QVERIFY(f.run(sampleRequest(stream)));
        // The key must not reach the history, the trace or an export: the answer shows it masked.
        QCOMPARE(f.response().text, u"Your key is %1"_s.arg(SecretRedactor::mask));
        const QByteArray recorded = QJsonDocument(QJsonObject{{u"raw"_s, f.response().raw}}).toJson();
        QVERIFY(!recorded.contains(apiKey.toUtf8()));
        QVERIFY(recorded.contains("[redacted]"));
    }

    void aStreamThatSucceededIsRecordedOnceAndSummarised()
    {
        Fixture f;
        QByteArray stream;
        for (int i = 0; i < 20; ++i)
            stream += textChunk(u"word%1 "_s.arg(i));
        serveStream(f.server, stream + finishChunk(u"stop"_s) + done);

        QVERIFY(f.run());

        // The attempt refers to the response instead of keeping the stream a second time.
        QVERIFY(f.attemptList().constFirst().response.isUndefined());
        const QJsonObject raw = f.response().raw.toObject();
        QCOMPARE(raw.value(u"streamEvents"_s).toInt(), 22);
        QCOMPARE(raw.value(u"first"_s).toArray().size(), 1);
        QCOMPARE(raw.value(u"last"_s).toArray().at(1).toString(), u"[DONE]"_s);
        QCOMPARE(f.response().streamedChunks, 22);
        QCOMPARE(f.response().text.size(), f.streamedText().size());
    }

    void cancellingStopsEverySignal()
    {
        Fixture f;
        f.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.send(textChunk(u"first"_s));
            exchange.send(textChunk(u"second"_s) + finishChunk(u"stop"_s) + done, 300);
            exchange.end();
        });
        f.client->send(sampleRequest());
        QTRY_COMPARE(f.deltas->size(), 1);

        f.client->cancel();
        QTest::qWait(500);

        QCOMPARE(f.deltas->size(), 1);
        QCOMPARE(f.finished->size(), 0);
        QCOMPARE(f.failed->size(), 0);
        // The client is free for the next request at once.
        serveStream(f.server, textChunk(u"again"_s) + finishChunk(u"stop"_s) + done);
        QVERIFY(f.run());
        QCOMPARE(f.response().text, u"again"_s);
    }
};

QTEST_GUILESS_MAIN(OpenAiAdapterTest)
#include "tst_openaiadapter.moc"
