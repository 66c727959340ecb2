#include "agent/providers/httpmodelclient.h"
#include "agent/providers/openaiprotocol.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/floodserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTimer>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString apiKey = u"sk-hostile-0123456789abcdef"_s;

QByteArray chunk(const QJsonObject &delta, const QJsonValue &finishReason = QJsonValue::Null)
{
    const QJsonObject object{
        {u"id"_s, u"chatcmpl-1"_s},
        {u"model"_s, u"gpt-test"_s},
        {u"choices"_s,
         QJsonArray{QJsonObject{{u"index"_s, 0}, {u"delta"_s, delta}, {u"finish_reason"_s, finishReason}}}}};
    return FakeHttpServer::sseEvent(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QByteArray textChunk(const QString &text)
{
    return chunk({{u"content"_s, text}});
}

QByteArray argumentsChunk(const QString &fragment, bool first = false)
{
    QJsonObject call{{u"index"_s, 0}, {u"function"_s, QJsonObject{{u"arguments"_s, fragment}}}};
    if (first) {
        call.insert(u"id"_s, u"call_1"_s);
        call.insert(u"type"_s, u"function"_s);
        call.insert(u"function"_s, QJsonObject{{u"name"_s, u"remember"_s}, {u"arguments"_s, fragment}});
    }
    return chunk({{u"tool_calls"_s, QJsonArray{call}}});
}

ModelRequest sampleRequest(bool stream = true)
{
    ModelRequest request;
    request.options.model = u"gpt-test"_s;
    request.options.stream = stream;
    request.messages = {Message::user(u"Hello?"_s)};
    return request;
}

} // namespace

// A provider that misbehaves on purpose, over real HTTP on 127.0.0.1: it sends without end, trickles,
// or echoes the key back in a successful answer. Each limit ends the request with an error that names
// it, once (never retried); an echoed key never leaves the client.
class ResponseLimitsTest : public QObject
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

        explicit Fixture(const ResponseLimits &limits = {})
        {
            QVERIFY(server.listen());
            ProviderEndpoint endpoint;
            endpoint.baseUrl = QUrl(server.baseUrl().toString() + u"/v1"_s);
            endpoint.apiKey = apiKey;
            endpoint.readTimeoutMs = 5000;
            endpoint.limits = limits;
            client
                = std::make_unique<HttpModelClient>(&network, std::make_unique<OpenAiProtocol>(), endpoint);
            client->retryPolicy().setBaseDelayMs(5);
            finished = std::make_unique<QSignalSpy>(client.get(), &ModelClient::finished);
            failed = std::make_unique<QSignalSpy>(client.get(), &ModelClient::failed);
            attempts = std::make_unique<QSignalSpy>(client.get(), &ModelClient::attemptFinished);
            deltas = std::make_unique<QSignalSpy>(client.get(), &ModelClient::textDelta);
            toolDeltas = std::make_unique<QSignalSpy>(client.get(), &ModelClient::toolCallDelta);
        }

        bool run(const ModelRequest &request = sampleRequest())
        {
            client->send(request);
            return QTest::qWaitFor([this] { return finished->size() + failed->size() > 0; }, 15000);
        }
        ModelResponse response() const { return finished->constFirst().first().value<ModelResponse>(); }
        ModelError error() const { return failed->constFirst().first().value<ModelError>(); }
        ModelAttempt lastAttempt() const { return attempts->constLast().first().value<ModelAttempt>(); }
        QString streamedText() const
        {
            QString text;
            for (const auto &args : *deltas)
                text += args.first().toString();
            return text;
        }
        QString streamedArguments() const
        {
            QString text;
            for (const auto &args : *toolDeltas)
                text += args.first().value<ToolCallDelta>().argumentsFragment;
            return text;
        }
    };

    static ResponseLimits smallLimits()
    {
        ResponseLimits limits;
        limits.maxResponseBytes = 1024 * 1024;
        return limits;
    }

    static QByteArray json(const QJsonValue &value)
    {
        return value.isObject()  ? QJsonDocument(value.toObject()).toJson()
               : value.isArray() ? QJsonDocument(value.toArray()).toJson()
                                 : value.toString().toUtf8();
    }

private slots:
    void initTestCase()
    {
        qRegisterMetaType<ModelResponse>();
        qRegisterMetaType<ModelError>();
        qRegisterMetaType<ModelAttempt>();
        qRegisterMetaType<ToolCallDelta>();
    }

    void anEndlessStreamIsCutAtTheSizeLimitAndNotRetried()
    {
        Fixture fixture(smallLimits());
        fixture.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.sendForever(textChunk(QString(4000, u'a')));
        });

        QVERIFY(fixture.run());

        QCOMPARE(fixture.failed->size(), 1);
        QVERIFY2(fixture.error().message.contains(u"response size limit of 1 MB"_s),
                 qPrintable(fixture.error().message));
        QVERIFY(fixture.error().message.contains(u"--max-response-mb"_s));
        QCOMPARE(fixture.server.requests().size(), 1);
        QCOMPARE(fixture.attempts->size(), 1);
    }

    void aWholeAnswerOverTheLimitIsCut()
    {
        Fixture fixture(smallLimits());
        fixture.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respond(200, {{"Content-Type", "application/json"}}, QByteArray(2 * 1024 * 1024, ' '));
        });

        QVERIFY(fixture.run(sampleRequest(false)));

        QCOMPARE(fixture.failed->size(), 1);
        QVERIFY(fixture.error().message.contains(u"response size limit"_s));
        QCOMPARE(fixture.server.requests().size(), 1);
    }

    void anEndlessErrorBodyIsCutKeepingOnlyAPrefixAndNotRetried()
    {
        Fixture fixture(smallLimits());
        fixture.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(500, {{"Content-Type", "text/plain"}});
            exchange.sendForever(QByteArray(8192, 'e'));
        });

        QVERIFY(fixture.run());

        QCOMPARE(fixture.failed->size(), 1);
        QVERIFY(fixture.error().message.contains(u"response size limit"_s));
        // A 500 is retried as a rule; a body cut by a limit is not.
        QCOMPARE(fixture.server.requests().size(), 1);
    }

    void aServerFasterThanTheClientWaitsInsteadOfFillingTheClientsMemory_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("piece");
        QTest::addColumn<bool>("redirected");
        const QByteArray text = textChunk(QString(4000, u'a')).repeated(16);
        QTest::newRow("an endless error body") << 500 << QByteArray(64 * 1024, 'e') << false;
        QTest::newRow("an endless stream") << 200 << text << false;
        QTest::newRow("an endless stream after a redirect") << 200 << text << true;
    }

    void aServerFasterThanTheClientWaitsInsteadOfFillingTheClientsMemory()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, piece);
        QFETCH(bool, redirected);
        // Far more than the client may take in: unbounded read-ahead reaches it in a moment.
        constexpr qint64 CapBytes = 128 * 1024 * 1024;
        FloodServer server(status, piece, CapBytes);
        const quint16 port = server.port();
        QVERIFY(port != 0);
        const QUrl floodUrl(u"http://127.0.0.1:%1/v1"_s.arg(port));
        FakeHttpServer redirector;
        QVERIFY(redirector.listen());
        redirector.setHandler([floodUrl](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respond(307, {{"Location", floodUrl.toEncoded() + "/chat/completions"}});
        });
        QNetworkAccessManager network;
        ProviderEndpoint endpoint;
        endpoint.baseUrl = redirected ? QUrl(redirector.baseUrl().toString() + u"/v1"_s) : floodUrl;
        endpoint.apiKey = apiKey;
        endpoint.limits = smallLimits();
        HttpModelClient client(&network, std::make_unique<OpenAiProtocol>(), endpoint);
        client.retryPolicy() = RetryPolicy(0);
        QSignalSpy failed(&client, &ModelClient::failed);

        client.send(sampleRequest());
        // The client's thread is busy for a while (a long layout, say) once the body is under way (an
        // error body shows nothing: from the start); what the server gets out meanwhile is what the
        // HTTP thread read ahead of the client.
        const auto beBusy = [] {
            QThread::msleep(1500);
        };
        if (status == 200)
            connect(&client, &ModelClient::textDelta, &client, beBusy, Qt::SingleShotConnection);
        else
            QTimer::singleShot(0, &client, beBusy);

        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30000);
        QVERIFY(failed.constFirst().first().value<ModelError>().message.contains(u"response size limit"_s));
        QTRY_VERIFY_WITH_TIMEOUT(server.isDone(), 10000);
        // The limit, the read-ahead and what TCP buffers between the two ends; not the whole flood.
        const qint64 accepted = server.accepted();
        qInfo("the server got %lld bytes out", accepted);
        QVERIFY2(accepted < 32 * 1024 * 1024, qPrintable(u"%1 bytes"_s.arg(accepted)));
    }

    void aLongErrorBodyIsKeptAsABoundedPrefix()
    {
        Fixture fixture;
        fixture.client->retryPolicy() = RetryPolicy(0);
        fixture.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respond(500, {{"Content-Type", "text/plain"}}, QByteArray(512 * 1024, 'e'));
        });

        QVERIFY(fixture.run());

        QCOMPARE(fixture.failed->size(), 1);
        QCOMPARE(fixture.error().httpStatus, 500);
        QVERIFY(json(fixture.lastAttempt().response).size() <= HttpModelClient::MaxErrorBodyBytes + 16);
        QVERIFY(fixture.error().message.size() <= HttpModelClient::MaxErrorBodyBytes + 1024);
    }

    void aTrickleFailsTheMinimumRate()
    {
        ResponseLimits limits;
        limits.rateWindowMs = 400;
        limits.minBytesPerWindow = 128;
        Fixture fixture(limits);
        fixture.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.sendForever(":\n", 100); // a comment line: bytes that keep the read timer from firing
        });

        QVERIFY(fixture.run());

        QCOMPARE(fixture.failed->size(), 1);
        QCOMPARE(fixture.error().kind, ModelError::Kind::Timeout);
        QVERIFY2(fixture.error().message.contains(u"minimum rate of 128 bytes in 0.4 s"_s),
                 qPrintable(fixture.error().message));
        QCOMPARE(fixture.server.requests().size(), 1);
    }

    void aStreamThatKeepsComingEndsAtTheRequestTimeLimit()
    {
        ResponseLimits limits;
        limits.requestTimeoutMs = 600;
        Fixture fixture(limits);
        fixture.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.sendForever(textChunk(u"more "_s), 20);
        });

        QVERIFY(fixture.run());

        QCOMPARE(fixture.failed->size(), 1);
        QCOMPARE(fixture.error().kind, ModelError::Kind::Timeout);
        QVERIFY2(fixture.error().message.contains(u"request time limit of 0.6 s"_s),
                 qPrintable(fixture.error().message));
        QVERIFY(fixture.error().message.contains(u"--request-timeout-s"_s));
        QCOMPARE(fixture.server.requests().size(), 1);
    }

    void aKeyEchoedAcrossTwoChunksOfASuccessfulStreamIsRedacted()
    {
        Fixture fixture;
        const qsizetype half = apiKey.size() / 2;
        const QByteArray stream = textChunk(u"Your key is "_s + apiKey.first(half))
                                  + textChunk(apiKey.sliced(half) + u", kept safe."_s)
                                  + argumentsChunk(u"{\"note\":\""_s + apiKey.first(half), true)
                                  + argumentsChunk(apiKey.sliced(half) + u"\"}"_s)
                                  + chunk({}, u"tool_calls"_s) + "data: [DONE]\n\n";
        fixture.server.setHandler([stream](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            // Each event its own read, and the key's two halves in different ones.
            exchange.sendSplit(stream,
                               {int(stream.indexOf("data: ", 10)), int(stream.indexOf("data: {", 200))}, 5);
            exchange.end();
        });

        QVERIFY(fixture.run());

        QCOMPARE(fixture.finished->size(), 1);
        const ModelResponse response = fixture.response();
        QCOMPARE(fixture.streamedText(), u"Your key is [redacted], kept safe."_s);
        QCOMPARE(response.text, u"Your key is [redacted], kept safe."_s);
        QCOMPARE(fixture.streamedArguments(), u"{\"note\":\"[redacted]\"}"_s);
        QCOMPARE(response.toolCalls.size(), 1);
        QCOMPARE(response.toolCalls.first().arguments, u"{\"note\":\"[redacted]\"}"_s);
        QVERIFY(!json(response.raw).contains(apiKey.toUtf8()));
    }

    void aKeyEchoedInAWholeAnswerIsRedacted()
    {
        Fixture fixture;
        const QJsonObject completion{
            {u"id"_s, u"chatcmpl-1"_s},
            {u"model"_s, u"gpt-test"_s},
            {u"choices"_s, QJsonArray{QJsonObject{
                               {u"index"_s, 0},
                               {u"message"_s, QJsonObject{{u"role"_s, u"assistant"_s},
                                                          {u"content"_s, QString(u"It was "_s + apiKey)}}},
                               {u"finish_reason"_s, u"stop"_s}}}}};
        fixture.server.setHandler([completion](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(200, completion);
        });

        QVERIFY(fixture.run(sampleRequest(false)));

        QCOMPARE(fixture.response().text, u"It was [redacted]"_s);
        QVERIFY(!json(fixture.response().raw).contains(apiKey.toUtf8()));
    }

    void textThatOnlyLooksLikeTheStartOfAKeyIsPassedOnWhole()
    {
        Fixture fixture;
        const QByteArray stream = textChunk(u"prefix sk-hos"_s) + textChunk(u"tile ok"_s)
                                  + chunk({}, u"stop"_s) + "data: [DONE]\n\n";
        fixture.server.setHandler([stream](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.sendSplit(stream, {int(stream.indexOf("data: ", 10))}, 5);
            exchange.end();
        });

        QVERIFY(fixture.run());

        QCOMPARE(fixture.streamedText(), u"prefix sk-hostile ok"_s);
        QCOMPARE(fixture.response().text, u"prefix sk-hostile ok"_s);
    }
};

QTEST_GUILESS_MAIN(ResponseLimitsTest)
#include "tst_responselimits.moc"
