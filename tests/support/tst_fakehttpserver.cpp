#include "tests/support/fakehttpserver.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace Qt::StringLiterals;
using namespace Loopscope;

namespace {

constexpr int ReplyTimeoutMs = 5000;

// A reply and what arrived through it, read as it came.
struct ReplyRecorder
{
    std::unique_ptr<QNetworkReply> reply;
    QByteArray body;
    int readCount = 0;
};

ReplyRecorder record(QNetworkReply *reply)
{
    ReplyRecorder recorder;
    recorder.reply.reset(reply);
    return recorder;
}

QUrl urlFor(const FakeHttpServer &server, const QString &pathAndQuery)
{
    return server.baseUrl().resolved(QUrl(pathAndQuery));
}

// Sizes of the chunks in a raw chunked body, the terminating 0 included; empty when it is not chunked.
QList<int> chunkSizes(const QByteArray &response)
{
    QList<int> sizes;
    qsizetype pos = response.indexOf("\r\n\r\n");
    if (pos < 0)
        return sizes;
    pos += 4;
    while (pos < response.size()) {
        const qsizetype lineEnd = response.indexOf("\r\n", pos);
        if (lineEnd < 0)
            break;
        bool ok = false;
        const int size = response.mid(pos, lineEnd - pos).toInt(&ok, 16);
        if (!ok)
            break;
        sizes.append(size);
        if (size == 0)
            break;
        pos = lineEnd + 2 + size + 2;
    }
    return sizes;
}

} // namespace

class TestFakeHttpServer final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void listensOnLoopbackWithAnOsChosenPort();
    void aJsonPostIsRecordedWithMethodPathQueryHeadersAndBody();
    void aCompleteResponseArrivesWithStatusAndHeaders_data();
    void aCompleteResponseArrivesWithStatusAndHeaders();
    void withoutAHandlerEveryRequestGetsA404();
    void aStreamSentInPiecesArrivesIntactInSeveralReads_data();
    void aStreamSentInPiecesArrivesIntactInSeveralReads();
    void eachPieceIsWrittenAsItsOwnChunk();
    void sendSplitCutsDataAtTheGivenPositions();
    void aStreamWithAContentLengthIsWrittenRaw();
    void sequentialRequestsReuseOneKeepAliveConnection_data();
    void sequentialRequestsReuseOneKeepAliveConnection();
    void aHandlerCanAnswerLaterFromATimer();
    void resetBeforeHeadersFailsTheReplyAfterQtResendsItOnce_data();
    void resetBeforeHeadersFailsTheReplyAfterQtResendsItOnce();
    void resetAfterHeadersFailsTheReplyAfterTheStatusArrived();
    void closeMidStreamEndsTheReplyWithRemoteHostClosedAndAPartialBody();
    void stallMakesTheClientTransferTimeoutFire_data();
    void stallMakesTheClientTransferTimeoutFire();
    void writesAfterTheClientLeftAreDroppedSilently();
    void destroyingTheServerClosesItsConnections();
    void requestsSplitAcrossManySegmentsAreParsed_data();
    void requestsSplitAcrossManySegmentsAreParsed();
    void pipelinedRequestsAreAnsweredInOrder();
    void malformedRequestsGetA400AndTheConnectionCloses_data();
    void malformedRequestsGetA400AndTheConnectionCloses();
    void sseEventWritesOneDataLinePerLine_data();
    void sseEventWritesOneDataLinePerLine();

private:
    ReplyRecorder get(const QUrl &url, int transferTimeoutMs = 0);
    static QByteArray rawExchange(const FakeHttpServer &server, const QList<QByteArray> &pieces);

    std::unique_ptr<QNetworkAccessManager> m_manager;
};

void TestFakeHttpServer::init()
{
    m_manager = std::make_unique<QNetworkAccessManager>();
    m_manager->setProxy(QNetworkProxy::NoProxy);
}

void TestFakeHttpServer::cleanup()
{
    m_manager.reset();
}

ReplyRecorder TestFakeHttpServer::get(const QUrl &url, int transferTimeoutMs)
{
    QNetworkRequest request(url);
    if (transferTimeoutMs > 0)
        request.setTransferTimeout(transferTimeoutMs);
    return record(m_manager->get(request));
}

// Sends the pieces over a plain socket, each flushed on its own, and returns everything the server
// wrote until it closed the connection (or a timeout).
QByteArray TestFakeHttpServer::rawExchange(const FakeHttpServer &server, const QList<QByteArray> &pieces)
{
    QTcpSocket socket;
    socket.connectToHost(u"127.0.0.1"_s, server.port());
    if (!socket.waitForConnected(ReplyTimeoutMs))
        return {};
    socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
    for (const QByteArray &piece : pieces) {
        socket.write(piece);
        socket.waitForBytesWritten(ReplyTimeoutMs);
        if (pieces.size() > 1)
            QTest::qWait(1);
    }
    // The server lives in this thread: wait with qWait so its event loop runs, never with waitForReadyRead.
    QByteArray received;
    const QDeadlineTimer deadline(ReplyTimeoutMs);
    while (socket.state() == QAbstractSocket::ConnectedState && !deadline.hasExpired()) {
        QTest::qWait(5);
        received += socket.readAll();
    }
    received += socket.readAll();
    return received;
}

void TestFakeHttpServer::listensOnLoopbackWithAnOsChosenPort()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    QVERIFY(server.isListening());
    QVERIFY(server.port() != 0);
    QCOMPARE(server.baseUrl().host(), u"127.0.0.1"_s);
    QCOMPARE(server.baseUrl().scheme(), u"http"_s);
    QCOMPARE(server.baseUrl(), QUrl(u"http://127.0.0.1:"_s + QString::number(server.port())));
}

void TestFakeHttpServer::aJsonPostIsRecordedWithMethodPathQueryHeadersAndBody()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    QSignalSpy received(&server, &FakeHttpServer::requestReceived);
    server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.respondJson(200, QJsonObject{{u"ok"_s, true}});
    });

    const QJsonObject payload{
        {u"model"_s, u"gpt-test"_s},
        {u"messages"_s, QJsonArray{QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, u"Grüße ✓"_s}}}}};
    const QByteArray body = QJsonDocument(payload).toJson(QJsonDocument::Compact);
    QNetworkRequest request(
        urlFor(server, u"/v1beta/models/gemini:streamGenerateContent?alt=sse&key=a%20b"_s));
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    request.setRawHeader("Authorization", "Bearer sk-test");
    request.setRawHeader("anthropic-version", "2023-06-01");
    ReplyRecorder post = record(m_manager->post(request, body));

    QTRY_VERIFY_WITH_TIMEOUT(post.reply->isFinished(), ReplyTimeoutMs);
    QCOMPARE(post.reply->error(), QNetworkReply::NoError);
    QCOMPARE(received.size(), 1);
    QCOMPARE(received.first().first().toInt(), 0);

    const QList<HttpRequestRecord> requests = server.requests();
    QCOMPARE(requests.size(), 1);
    const HttpRequestRecord &recorded = requests.first();
    QCOMPARE(recorded.method, "POST"_ba);
    QCOMPARE(recorded.path, "/v1beta/models/gemini:streamGenerateContent"_ba);
    QCOMPARE(recorded.target, "/v1beta/models/gemini:streamGenerateContent?alt=sse&key=a%20b"_ba);
    QCOMPARE(recorded.query.queryItemValue(u"alt"_s), u"sse"_s);
    QCOMPARE(recorded.query.queryItemValue(u"key"_s), u"a b"_s);
    QCOMPARE(recorded.header("authorization"), "Bearer sk-test"_ba);
    QCOMPARE(recorded.header("ANTHROPIC-VERSION"), "2023-06-01"_ba);
    QCOMPARE(recorded.header("Content-Type"), "application/json"_ba);
    QCOMPARE(recorded.header("content-length"), QByteArray::number(body.size()));
    QVERIFY(recorded.hasHeader("host"));
    QVERIFY(!recorded.hasHeader("x-absent"));
    QCOMPARE(recorded.header("x-absent"), QByteArray());
    QCOMPARE(recorded.body, body);
    QCOMPARE(recorded.json(), payload);
}

void TestFakeHttpServer::aCompleteResponseArrivesWithStatusAndHeaders_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<HttpHeaders>("headers");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("reason");
    QTest::addColumn<QNetworkReply::NetworkError>("error");

    QTest::newRow("200 with a JSON body")
        << 200 << HttpHeaders{{"Content-Type"_ba, "application/json"_ba}} << "{\"ok\":true}"_ba
        << "OK"_ba << QNetworkReply::NoError;
    QTest::newRow("401 with an error body")
        << 401 << HttpHeaders{{"Content-Type"_ba, "application/json"_ba}}
        << "{\"error\":{\"message\":\"bad key\"}}"_ba
        << "Unauthorized"_ba << QNetworkReply::AuthenticationRequiredError;
    QTest::newRow("404 without a body")
        << 404 << HttpHeaders{} << QByteArray() << "Not Found"_ba << QNetworkReply::ContentNotFoundError;
    QTest::newRow("429 with retry-after")
        << 429 << HttpHeaders{{"Retry-After"_ba, "2"_ba}, {"X-Request-Id"_ba, "req-1"_ba}} << "slow down"_ba
        << "Too Many Requests"_ba << QNetworkReply::UnknownContentError;
    QTest::newRow("500 server error") << 500 << HttpHeaders{} << "boom"_ba
                                      << "Internal Server Error"_ba << QNetworkReply::InternalServerError;
    QTest::newRow("529 overloaded") << 529 << HttpHeaders{} << "overloaded"_ba
                                    << "Overloaded"_ba << QNetworkReply::UnknownServerError;
}

void TestFakeHttpServer::aCompleteResponseArrivesWithStatusAndHeaders()
{
    QFETCH(int, status);
    QFETCH(HttpHeaders, headers);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, reason);
    QFETCH(QNetworkReply::NetworkError, error);

    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler(
        [&](const HttpRequestRecord &, HttpExchange &exchange) { exchange.respond(status, headers, body); });
    ReplyRecorder reply = get(urlFor(server, u"/v1/messages"_s));

    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
    QCOMPARE(reply.reply->error(), error);
    QCOMPARE(reply.reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), status);
    QCOMPARE(reply.reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toByteArray(), reason);
    for (const auto &[name, value] : headers)
        QCOMPARE(reply.reply->rawHeader(name), value);
    QCOMPARE(reply.reply->rawHeader("Content-Length"), QByteArray::number(body.size()));
    QCOMPARE(reply.reply->readAll(), body);
}

void TestFakeHttpServer::withoutAHandlerEveryRequestGetsA404()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    ReplyRecorder reply = get(urlFor(server, u"/anything"_s));

    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
    QCOMPARE(reply.reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 404);
    QCOMPARE(server.requests().size(), 1);
}

void TestFakeHttpServer::aStreamSentInPiecesArrivesIntactInSeveralReads_data()
{
    QTest::addColumn<QByteArray>("contentType");
    QTest::addColumn<QList<QByteArray>>("pieces");

    QTest::newRow("SSE events one per piece")
        << "text/event-stream"_ba
        << QList<QByteArray>{FakeHttpServer::sseEvent("{\"delta\":\"Hel\"}"_ba, "content_block_delta"_ba),
                             FakeHttpServer::sseEvent("{\"delta\":\"lo\"}"_ba, "content_block_delta"_ba),
                             FakeHttpServer::sseEvent("[DONE]"_ba)};
    QTest::newRow("SSE split inside CR LF and a UTF-8 character")
        << "text/event-stream"_ba
        << QList<QByteArray>{"data: {\"t\":\"Gr\xc3"_ba, "\xbc\xc3\x9f\"}\r"_ba, "\n\r\n"_ba, "d"_ba,
                             "ata: [DONE]\r\n\r\n"_ba};
    QTest::newRow("NDJSON lines cut mid-line")
        << "application/x-ndjson"_ba
        << QList<QByteArray>{"{\"message\":{\"content\":\"A\"},\"do"_ba, "ne\":false}\n{\"message\""_ba,
                             ":{\"content\":\"B\"},\"done\":true}\n"_ba};
    QTest::newRow("single bytes") << "text/plain"_ba << QList<QByteArray>{"a"_ba,    "\r"_ba,   "\n"_ba,
                                                                          "\xe2"_ba, "\x9c"_ba, "\x93"_ba};
}

void TestFakeHttpServer::aStreamSentInPiecesArrivesIntactInSeveralReads()
{
    QFETCH(QByteArray, contentType);
    QFETCH(QList<QByteArray>, pieces);

    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.beginStream(200, {{"Content-Type"_ba, contentType}});
        for (const QByteArray &piece : std::as_const(pieces))
            exchange.send(piece, 10);
        exchange.end(10);
    });
    ReplyRecorder reply = get(urlFor(server, u"/stream"_s));
    connect(reply.reply.get(), &QNetworkReply::readyRead, reply.reply.get(), [&reply] {
        ++reply.readCount;
        reply.body += reply.reply->readAll();
    });

    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
    QCOMPARE(reply.reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply.reply->rawHeader("Content-Type"), contentType);
    QCOMPARE(reply.reply->rawHeader("Transfer-Encoding"), "chunked"_ba);
    reply.body += reply.reply->readAll();
    QCOMPARE(reply.body, pieces.join());
    QVERIFY2(reply.readCount >= 2, QByteArray::number(reply.readCount).constData());
}

void TestFakeHttpServer::eachPieceIsWrittenAsItsOwnChunk()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.beginStream(200, {{"Content-Type"_ba, "text/event-stream"_ba}});
        exchange.send("da"_ba);
        exchange.send("ta: x\r"_ba);
        exchange.send({}); // only waits: an empty chunk would end the body
        exchange.send("\n\r\n"_ba);
        exchange.end();
    });

    const QByteArray response
        = rawExchange(server, {"GET /s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"_ba});
    QVERIFY2(response.startsWith("HTTP/1.1 200 OK\r\n"), response.constData());
    QVERIFY(response.contains("\r\nTransfer-Encoding: chunked\r\n"));
    QVERIFY(response.contains("\r\nConnection: close\r\n"));
    QCOMPARE(chunkSizes(response), (QList<int>{2, 6, 3, 0}));
    QVERIFY(response.endsWith("3\r\n\n\r\n\r\n0\r\n\r\n"));
}

void TestFakeHttpServer::sendSplitCutsDataAtTheGivenPositions()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.beginStream(200, {{"Content-Type"_ba, "application/x-ndjson"_ba}});
        // Out of order, repeated and out-of-range cuts are tolerated.
        exchange.sendSplit("0123456789"_ba, {7, 1, 4, 4, 0, 10, 42});
        exchange.end();
    });

    const QByteArray response
        = rawExchange(server, {"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"_ba});
    QCOMPARE(chunkSizes(response), (QList<int>{1, 3, 3, 3, 0}));
    QVERIFY(response.contains("1\r\n0\r\n3\r\n123\r\n3\r\n456\r\n3\r\n789\r\n0\r\n\r\n"));
}

void TestFakeHttpServer::aStreamWithAContentLengthIsWrittenRaw()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    const QByteArray body = "{\"message\":\"Gr\xc3\xbc\xc3\x9f\"}\n"_ba;
    server.setHandler([&body](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.beginStream(200, {{"Content-Type"_ba, "application/x-ndjson"_ba},
                                   {"Content-Length"_ba, QByteArray::number(body.size())}});
        exchange.sendSplit(body, {3, 15, 16}, 5);
        exchange.end();
    });

    const QByteArray raw = rawExchange(server, {"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"_ba});
    QVERIFY(!raw.contains("Transfer-Encoding"));
    QVERIFY(raw.endsWith(QByteArray("\r\n\r\n"_ba + body)));

    ReplyRecorder reply = get(urlFor(server, u"/"_s));
    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
    QCOMPARE(reply.reply->error(), QNetworkReply::NoError);
    QCOMPARE(reply.reply->readAll(), body);
}

void TestFakeHttpServer::sequentialRequestsReuseOneKeepAliveConnection_data()
{
    QTest::addColumn<bool>("streamed");
    QTest::addColumn<bool>("clientAsksToClose");
    QTest::addColumn<int>("connections");

    QTest::newRow("complete responses share a connection") << false << false << 1;
    QTest::newRow("streamed responses share a connection") << true << false << 1;
    QTest::newRow("Connection: close from the client opens a new one") << false << true << 2;
}

void TestFakeHttpServer::sequentialRequestsReuseOneKeepAliveConnection()
{
    QFETCH(bool, streamed);
    QFETCH(bool, clientAsksToClose);
    QFETCH(int, connections);

    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([&](const HttpRequestRecord &request, HttpExchange &exchange) {
        if (!streamed) {
            exchange.respond(200, {{"Content-Type"_ba, "text/plain"_ba}}, request.path);
            return;
        }
        exchange.beginStream(200, {{"Content-Type"_ba, "text/event-stream"_ba}});
        exchange.send(FakeHttpServer::sseEvent(request.path), 5);
        exchange.end(5);
    });

    const QList<QString> paths{u"/first"_s, u"/second"_s};
    for (const QString &path : paths) {
        QNetworkRequest request(urlFor(server, path));
        if (clientAsksToClose)
            request.setRawHeader("Connection", "close");
        ReplyRecorder reply = record(m_manager->get(request));
        QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
        QCOMPARE(reply.reply->error(), QNetworkReply::NoError);
        const QByteArray expected = streamed ? FakeHttpServer::sseEvent(path.toUtf8()) : path.toUtf8();
        QCOMPARE(reply.reply->readAll(), expected);
    }

    QCOMPARE(server.requests().size(), 2);
    QCOMPARE(server.requests().at(0).path, "/first"_ba);
    QCOMPARE(server.requests().at(1).path, "/second"_ba);
    QCOMPARE(server.connectionCount(), connections);
}

void TestFakeHttpServer::aHandlerCanAnswerLaterFromATimer()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    QPointer<HttpExchange> pending;
    server.setHandler([&pending](const HttpRequestRecord &, HttpExchange &exchange) { pending = &exchange; });
    ReplyRecorder reply = get(urlFor(server, u"/later"_s));

    QTRY_VERIFY_WITH_TIMEOUT(pending, ReplyTimeoutMs);
    QVERIFY(pending->isClientConnected());
    QVERIFY(!pending->isDone());
    QTimer::singleShot(30, pending.data(), [&pending] { pending->respond(200, {}, "late"_ba); });
    QSignalSpy done(pending.data(), &HttpExchange::done);

    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
    QCOMPARE(reply.reply->readAll(), "late"_ba);
    QCOMPARE(done.size(), 1);
    QVERIFY(pending->isDone());
}

void TestFakeHttpServer::resetBeforeHeadersFailsTheReplyAfterQtResendsItOnce_data()
{
    QTest::addColumn<QByteArray>("method");

    QTest::newRow("GET") << "GET"_ba;
    QTest::newRow("POST with a JSON body") << "POST"_ba;
}

void TestFakeHttpServer::resetBeforeHeadersFailsTheReplyAfterQtResendsItOnce()
{
    QFETCH(QByteArray, method);

    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) { exchange.resetConnection(); });
    QNetworkRequest request(urlFor(server, u"/reset"_s));
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    const QByteArray body = method == "POST" ? "{\"model\":\"m\"}"_ba : QByteArray();
    ReplyRecorder reply = record(m_manager->sendCustomRequest(request, method, body));

    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
    QCOMPARE(reply.reply->error(), QNetworkReply::RemoteHostClosedError);
    QVERIFY(!reply.reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid());
    // Qt 6.4 silently resends a request, POST included, whose connection dropped before any
    // response byte arrived; only the second failure reaches the reply.
    QCOMPARE(server.requests().size(), 2);
    QCOMPARE(server.connectionCount(), 2);
    QCOMPARE(server.requests().at(1).method, method);
    QCOMPARE(server.requests().at(1).body, body);
}

void TestFakeHttpServer::resetAfterHeadersFailsTheReplyAfterTheStatusArrived()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.beginStream(200, {{"Content-Type"_ba, "text/event-stream"_ba}});
        exchange.send(FakeHttpServer::sseEvent("first"_ba), 10);
        exchange.resetConnection(50);
    });
    ReplyRecorder reply = get(urlFor(server, u"/reset"_s));
    QSignalSpy metaData(reply.reply.get(), &QNetworkReply::metaDataChanged);

    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
    QCOMPARE(reply.reply->error(), QNetworkReply::RemoteHostClosedError);
    QCOMPARE(reply.reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QVERIFY(metaData.size() >= 1);
    QCOMPARE(server.requests().size(), 1);
}

void TestFakeHttpServer::closeMidStreamEndsTheReplyWithRemoteHostClosedAndAPartialBody()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    const QByteArray first = FakeHttpServer::sseEvent("{\"delta\":\"partial\"}"_ba);
    server.setHandler([&first](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.beginStream(200, {{"Content-Type"_ba, "text/event-stream"_ba}});
        exchange.send(first, 10);
        exchange.closeMidStream(30);
    });
    ReplyRecorder reply = get(urlFor(server, u"/cut"_s));
    connect(reply.reply.get(), &QNetworkReply::readyRead, reply.reply.get(),
            [&reply] { reply.body += reply.reply->readAll(); });

    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
    reply.body += reply.reply->readAll();
    QCOMPARE(reply.reply->error(), QNetworkReply::RemoteHostClosedError);
    QCOMPARE(reply.reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    QCOMPARE(reply.body, first);
    QCOMPARE(server.requests().size(), 1);
}

void TestFakeHttpServer::stallMakesTheClientTransferTimeoutFire_data()
{
    QTest::addColumn<bool>("afterHeaders");

    QTest::newRow("before the headers") << false;
    QTest::newRow("after the headers and one event") << true;
}

void TestFakeHttpServer::stallMakesTheClientTransferTimeoutFire()
{
    QFETCH(bool, afterHeaders);

    FakeHttpServer server;
    QVERIFY(server.listen());
    QPointer<HttpExchange> stalled;
    server.setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        stalled = &exchange;
        if (afterHeaders) {
            exchange.beginStream(200, {{"Content-Type"_ba, "text/event-stream"_ba}});
            exchange.send(FakeHttpServer::sseEvent("first"_ba));
        }
        exchange.stall();
    });
    QElapsedTimer elapsed;
    elapsed.start();
    ReplyRecorder reply = get(urlFor(server, u"/stall"_s), 300);

    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
    QVERIFY(elapsed.elapsed() >= 250);
    // Qt 6.4 aborts the reply on a transfer timeout, so it reports a cancel, not TimeoutError.
    QCOMPARE(reply.reply->error(), QNetworkReply::OperationCanceledError);
    QCOMPARE(reply.reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).isValid(), afterHeaders);
    QCOMPARE(server.requests().size(), 1);
    // The client hangs up; the stalled exchange notices.
    QVERIFY(stalled);
    QTRY_VERIFY_WITH_TIMEOUT(!stalled->isClientConnected(), ReplyTimeoutMs);
    QVERIFY(stalled->isDone());
}

void TestFakeHttpServer::writesAfterTheClientLeftAreDroppedSilently()
{
    QTest::failOnWarning(QRegularExpression(u"HttpExchange"_s));
    FakeHttpServer server;
    QVERIFY(server.listen());
    QPointer<HttpExchange> streaming;
    server.setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        streaming = &exchange;
        exchange.beginStream(200, {{"Content-Type"_ba, "text/event-stream"_ba}});
        exchange.send(FakeHttpServer::sseEvent("first"_ba));
        for (int i = 0; i < 20; ++i)
            exchange.send(FakeHttpServer::sseEvent("more"_ba), 20);
        exchange.end();
    });
    ReplyRecorder reply = get(urlFor(server, u"/stream"_s));
    connect(reply.reply.get(), &QNetworkReply::readyRead, reply.reply.get(),
            [&reply] { reply.reply->abort(); });

    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
    QCOMPARE(reply.reply->error(), QNetworkReply::OperationCanceledError);
    QVERIFY(streaming);
    QTRY_VERIFY_WITH_TIMEOUT(streaming->isDone(), ReplyTimeoutMs);
    QVERIFY(!streaming->isClientConnected());
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, ReplyTimeoutMs);

    // Late calls from a test's own timers are no-ops, without warnings.
    streaming->send("late"_ba, 5);
    streaming->end();
    streaming->resetConnection();
    streaming->closeMidStream();
    QTest::qWait(30);
    QCOMPARE(server.requests().size(), 1);
}

void TestFakeHttpServer::destroyingTheServerClosesItsConnections()
{
    auto server = std::make_unique<FakeHttpServer>();
    QVERIFY(server->listen());
    QPointer<HttpExchange> stalled;
    server->setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
        stalled = &exchange;
        exchange.beginStream(200, {{"Content-Type"_ba, "text/event-stream"_ba}});
        exchange.send(FakeHttpServer::sseEvent("first"_ba));
        exchange.send(FakeHttpServer::sseEvent("never"_ba), 10000);
    });
    ReplyRecorder reply = get(urlFor(*server, u"/stream"_s));
    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->bytesAvailable() > 0, ReplyTimeoutMs);

    server.reset();
    QVERIFY(!stalled); // exchanges die with their server
    QTRY_VERIFY_WITH_TIMEOUT(reply.reply->isFinished(), ReplyTimeoutMs);
    QCOMPARE(reply.reply->error(), QNetworkReply::RemoteHostClosedError);
    QCOMPARE(reply.reply->readAll(), FakeHttpServer::sseEvent("first"_ba));
}

void TestFakeHttpServer::requestsSplitAcrossManySegmentsAreParsed_data()
{
    QTest::addColumn<QList<QByteArray>>("pieces");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QByteArray>("trailer");

    const QByteArray lengthBody = "{\"a\":\"\xc3\xbc\"\r\n}"_ba;
    const QByteArray lengthRequest
        = "POST /v1/chat?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          "Content-Length: "_ba
          + QByteArray::number(lengthBody.size()) + "\r\nConnection: close\r\n\r\n" + lengthBody;
    QList<QByteArray> bytes;
    for (const char c : lengthRequest)
        bytes.append(QByteArray(1, c));
    QTest::newRow("Content-Length body in one segment")
        << QList<QByteArray>{lengthRequest} << lengthBody << QByteArray();
    QTest::newRow("Content-Length body one byte per segment") << bytes << lengthBody << QByteArray();
    QTest::newRow("chunked body with an extension and a trailer")
        << QList<QByteArray>{"POST /v1/chat?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
                             "Connection: close\r\n\r\n5;ext=1\r\nhel"_ba,
                             "lo\r\n"_ba, "6\r\n, worl\r\n1\r"_ba, "\nd\r\n0\r\nX-Checksum: 42\r\n\r\n"_ba}
        << "hello, world"_ba
        << "42"_ba;
    QTest::newRow("Expect: 100-continue gets an interim response")
        << QList<QByteArray>{"POST /v1/chat?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\n"
                             "Content-Length: 4\r\nConnection: close\r\n\r\n"_ba,
                             "body"_ba}
        << "body"_ba << QByteArray();
}

void TestFakeHttpServer::requestsSplitAcrossManySegmentsAreParsed()
{
    QFETCH(QList<QByteArray>, pieces);
    QFETCH(QByteArray, body);
    QFETCH(QByteArray, trailer);

    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
        exchange.respond(200, {}, request.body);
    });

    const QByteArray response = rawExchange(server, pieces);
    QVERIFY2(response.contains("HTTP/1.1 200 OK\r\n"), response.constData());
    QVERIFY(response.endsWith(QByteArray("\r\n\r\n"_ba + body)));
    QCOMPARE(response.startsWith("HTTP/1.1 100 Continue\r\n\r\n"), pieces.first().contains("Expect:"));
    QCOMPARE(server.requests().size(), 1);
    const HttpRequestRecord request = server.requests().first();
    QCOMPARE(request.method, "POST"_ba);
    QCOMPARE(request.path, "/v1/chat"_ba);
    QCOMPARE(request.query.queryItemValue(u"x"_s), u"1"_s);
    QCOMPARE(request.body, body);
    QCOMPARE(request.header("x-checksum"), trailer);
}

void TestFakeHttpServer::pipelinedRequestsAreAnsweredInOrder()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
        if (request.path == "/slow") {
            QTimer::singleShot(50, &exchange, [&exchange] { exchange.respond(200, {}, "slow"_ba); });
            return;
        }
        exchange.respond(200, {}, "fast"_ba);
    });

    const QByteArray response = rawExchange(
        server,
        {"GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"_ba});
    const qsizetype slow = response.indexOf("slow");
    const qsizetype fast = response.indexOf("fast");
    QVERIFY2(slow > 0 && fast > slow, response.constData());
    QCOMPARE(response.count("HTTP/1.1 200 OK"), 2);
    QCOMPARE(server.requests().size(), 2);
    QCOMPARE(server.connectionCount(), 1);
}

void TestFakeHttpServer::malformedRequestsGetA400AndTheConnectionCloses_data()
{
    QTest::addColumn<QByteArray>("request");

    QTest::newRow("garbage request line") << "HELLO\r\n\r\n"_ba;
    QTest::newRow("unsupported version") << "GET / HTTP/2.0\r\nHost: x\r\n\r\n"_ba;
    QTest::newRow("target without a leading slash") << "GET v1/chat HTTP/1.1\r\nHost: x\r\n\r\n"_ba;
    QTest::newRow("header without a colon") << "GET / HTTP/1.1\r\nHost x\r\n\r\n"_ba;
    QTest::newRow("space before the colon") << "GET / HTTP/1.1\r\nHost : x\r\n\r\n"_ba;
    QTest::newRow("folded header line") << "GET / HTTP/1.1\r\nX-A: 1\r\n  continued\r\n\r\n"_ba;
    QTest::newRow("non-numeric Content-Length") << "POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n"_ba;
    QTest::newRow("conflicting Content-Lengths")
        << "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab"_ba;
    QTest::newRow("Content-Length and chunked")
        << "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"_ba;
    QTest::newRow("unsupported transfer coding") << "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n"_ba;
    QTest::newRow("bad chunk size") << "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"_ba;
    QTest::newRow("chunk without its CR LF")
        << "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabcd\r\n0\r\n\r\n"_ba;
}

void TestFakeHttpServer::malformedRequestsGetA400AndTheConnectionCloses()
{
    QFETCH(QByteArray, request);

    FakeHttpServer server;
    QVERIFY(server.listen());
    bool handled = false;
    server.setHandler([&handled](const HttpRequestRecord &, HttpExchange &exchange) {
        handled = true;
        exchange.respond(200);
    });

    const QByteArray response = rawExchange(server, {request});
    QVERIFY2(response.startsWith("HTTP/1.1 400 Bad Request\r\n"), response.constData());
    QVERIFY(response.contains("\r\nConnection: close\r\n"));
    QVERIFY(!handled);
    QVERIFY(server.requests().isEmpty());
    QCOMPARE(server.malformedRequestCount(), 1);
    QTRY_COMPARE_WITH_TIMEOUT(server.openConnectionCount(), 0, ReplyTimeoutMs);
}

void TestFakeHttpServer::sseEventWritesOneDataLinePerLine_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QByteArray>("event");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("data only") << "{\"a\":1}"_ba << QByteArray() << "data: {\"a\":1}\n\n"_ba;
    QTest::newRow("named event") << "{}"_ba
                                 << "message_stop"_ba
                                 << "event: message_stop\ndata: {}\n\n"_ba;
    QTest::newRow("multi-line data") << "one\ntwo\r\nthree"_ba
                                     << "ping"_ba
                                     << "event: ping\ndata: one\ndata: two\ndata: three\n\n"_ba;
    QTest::newRow("empty data") << QByteArray() << QByteArray() << "data: \n\n"_ba;
}

void TestFakeHttpServer::sseEventWritesOneDataLinePerLine()
{
    QFETCH(QByteArray, data);
    QFETCH(QByteArray, event);
    QFETCH(QByteArray, expected);

    QCOMPARE(FakeHttpServer::sseEvent(data, event), expected);
}

QTEST_MAIN(TestFakeHttpServer)
#include "tst_fakehttpserver.moc"
