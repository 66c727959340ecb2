#include "agent/mcp/mcpclient.h"
#include "agent/mcp/mcpmessagelog.h"
#include "tests/mcp/mcptestservers.h"

#include <QAbstractItemModelTester>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

constexpr int StartTimeoutMs = 30'000;
const QString Secret = u"inspector-secret-4711"_s;

const QDateTime T0 = QDateTime(QDate(2026, 11, 29), QTime(5, 0), Qt::UTC);

QJsonObject request(qint64 id, const QString &method)
{
    return {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"method"_s, method}};
}

QJsonObject response(qint64 id)
{
    return {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, QJsonObject{}}};
}

QJsonObject notification(const QString &method)
{
    return {{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, method}};
}

QString display(const McpMessageLog &log, int row, int column)
{
    return log.index(row, column).data().toString();
}

// Every line Copy All would produce, for the secret checks.
QByteArray allLines(const McpMessageLog &log)
{
    QByteArray lines;
    for (int row = 0; row < log.rowCount(); ++row)
        lines += McpMessageLog::jsonLine(log.entry(row)) + '\n';
    return lines;
}

int rowOf(const McpMessageLog &log, bool outgoing, const QString &method, const QString &kind)
{
    for (int row = 0; row < log.rowCount(); ++row) {
        const McpMessageLog::Entry &e = log.entry(row);
        if (e.outgoing == outgoing && e.method == method && e.kind == kind)
            return row;
    }
    return -1;
}

} // namespace

class TestMcpMessageLog final : public QObject
{
    Q_OBJECT

private slots:
    void responsesNameTheirRequestAndItsRoundTrip_data();
    void responsesNameTheirRequestAndItsRoundTrip();
    void notificationsHaveNoRoundTrip();
    void theOldestMessagesGoWhenTheLogIsFull();
    void aByteBudgetBoundsTheLogToo();
    void aJsonLineHoldsTimeDirectionSizeAndMessage();

    void theTapRecordsAStdioServersWholeExchange();
    void noCredentialReachesTheLog_data();
    void noCredentialReachesTheLog();

    void cleanupTestCase();

private:
    QNetworkAccessManager m_network;
    QProcess *m_httpServer = nullptr;
};

void TestMcpMessageLog::responsesNameTheirRequestAndItsRoundTrip_data()
{
    QTest::addColumn<bool>("requestOutgoing");
    QTest::addColumn<QJsonObject>("answer");
    QTest::addColumn<QString>("kind");
    QTest::newRow("our request, the server's result") << true << response(7) << u"response"_s;
    QTest::newRow("our request, the server's error")
        << true
        << QJsonObject{{u"jsonrpc"_s, u"2.0"_s},
                       {u"id"_s, 7},
                       {u"error"_s, QJsonObject{{u"code"_s, -32601}, {u"message"_s, u"nope"_s}}}}
        << u"error"_s;
    QTest::newRow("the server's request, our answer") << false << response(7) << u"response"_s;
}

void TestMcpMessageLog::responsesNameTheirRequestAndItsRoundTrip()
{
    QFETCH(bool, requestOutgoing);
    QFETCH(QJsonObject, answer);
    QFETCH(QString, kind);
    McpMessageLog log;
    QAbstractItemModelTester tester(&log, QAbstractItemModelTester::FailureReportingMode::QtTest);
    log.append(u"files"_s, requestOutgoing, request(7, u"tools/call"_s), T0);
    // Another server's request with the same id is another request.
    log.append(u"other"_s, requestOutgoing, request(7, u"ping"_s), T0.addMSecs(5));
    log.append(u"files"_s, !requestOutgoing, answer, T0.addMSecs(42));

    QCOMPARE(log.rowCount(), 3);
    const McpMessageLog::Entry &e = log.entry(2);
    QCOMPARE(e.kind, kind);
    QCOMPARE(e.method, u"tools/call"_s);
    QCOMPARE(e.roundTripMs, std::optional<qint64>(42));
    QCOMPARE(display(log, 2, McpMessageLog::RoundTripColumn), u"42 ms"_s);
    QCOMPARE(display(log, 2, McpMessageLog::IdColumn), u"7"_s);
    QCOMPARE(display(log, 2, McpMessageLog::DirectionColumn), McpMessageLog::directionText(!requestOutgoing));
    QCOMPARE(e.bytes, QJsonDocument(answer).toJson(QJsonDocument::Compact).size());
    QVERIFY(!log.entry(0).roundTripMs);
}

void TestMcpMessageLog::notificationsHaveNoRoundTrip()
{
    McpMessageLog log;
    QAbstractItemModelTester tester(&log, QAbstractItemModelTester::FailureReportingMode::QtTest);
    log.append(u"s"_s, false, notification(u"notifications/tools/list_changed"_s), T0);
    QCOMPARE(log.entry(0).kind, u"notification"_s);
    QCOMPARE(display(log, 0, McpMessageLog::MethodColumn), u"notifications/tools/list_changed"_s);
    QCOMPARE(display(log, 0, McpMessageLog::IdColumn), QString());
    QCOMPARE(display(log, 0, McpMessageLog::RoundTripColumn), QString());
}

void TestMcpMessageLog::theOldestMessagesGoWhenTheLogIsFull()
{
    McpMessageLog log;
    QAbstractItemModelTester tester(&log, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(log.maxMessages(), 5000);
    log.setMaxMessages(3);
    for (int i = 1; i <= 5; ++i)
        log.append(u"s"_s, true, request(i, u"ping"_s), T0.addSecs(i));
    QCOMPARE(log.rowCount(), 3);
    QCOMPARE(display(log, 0, McpMessageLog::IdColumn), u"3"_s);
    QCOMPARE(display(log, 2, McpMessageLog::IdColumn), u"5"_s);
    log.setMaxMessages(1);
    QCOMPARE(log.rowCount(), 1);
    QCOMPARE(display(log, 0, McpMessageLog::IdColumn), u"5"_s);
    log.clear();
    QCOMPARE(log.rowCount(), 0);
}

void TestMcpMessageLog::aByteBudgetBoundsTheLogToo()
{
    McpMessageLog log;
    QAbstractItemModelTester tester(&log, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const qint64 one = QJsonDocument(request(1, u"ping"_s)).toJson(QJsonDocument::Compact).size();
    log.setMaxBytes(one * 2);
    for (int i = 1; i <= 4; ++i)
        log.append(u"s"_s, true, request(i, u"ping"_s), T0);
    QCOMPARE(log.rowCount(), 2);
    // A message larger than the whole budget is still shown: alone.
    QJsonObject big = request(9, u"tools/call"_s);
    big.insert(u"params"_s, QJsonObject{{u"text"_s, QString(int(one) * 4, u'x')}});
    log.append(u"s"_s, true, big, T0);
    QCOMPARE(log.rowCount(), 1);
    QCOMPARE(log.entry(0).method, u"tools/call"_s);
}

void TestMcpMessageLog::aJsonLineHoldsTimeDirectionSizeAndMessage()
{
    McpMessageLog log;
    log.append(u"files"_s, true, request(3, u"tools/list"_s), T0);
    log.append(u"files"_s, false, response(3), T0.addMSecs(12));
    const QJsonObject line = QJsonDocument::fromJson(McpMessageLog::jsonLine(log.entry(1))).object();
    QCOMPARE(line.value(u"time"_s).toString(), u"2026-11-29T05:00:00.012Z"_s);
    QCOMPARE(line.value(u"server"_s).toString(), u"files"_s);
    QCOMPARE(line.value(u"direction"_s).toString(), u"received"_s);
    QCOMPARE(line.value(u"roundTripMs"_s).toInteger(), 12);
    QCOMPARE(line.value(u"bytes"_s).toInteger(), log.entry(1).bytes);
    QCOMPARE(line.value(u"message"_s).toObject(), response(3));
    QVERIFY(!McpMessageLog::jsonLine(log.entry(1)).contains('\n'));
}

void TestMcpMessageLog::theTapRecordsAStdioServersWholeExchange()
{
    const QString reason = McpTestServers::unavailableReason();
    QVERIFY2(reason.isEmpty(), qPrintable(reason));
    McpMessageLog log;
    QAbstractItemModelTester tester(&log, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto client = std::make_unique<McpClient>(McpTestServers::everythingStdio(u"everything"_s), &m_network);
    log.watch(client.get());
    log.watch(client.get()); // watching twice records once
    client->start();
    QTRY_VERIFY_WITH_TIMEOUT(client->state() != McpClient::State::Starting, StartTimeoutMs);
    QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->failureReason()));
    bool done = false;
    client->callTool(u"echo"_s, {{u"message"_s, u"through the tap"_s}}, 0, {},
                     [&done](const McpCallOutcome &) { done = true; });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30'000);

    // Start-up, both ways, in order: the probe, the handshake, the lists, then the call.
    const int initialize = rowOf(log, true, u"initialize"_s, u"request"_s);
    const int initialized = rowOf(log, false, u"initialize"_s, u"response"_s);
    QVERIFY(rowOf(log, true, u"server/discover"_s, u"request"_s) == 0);
    QVERIFY(initialize > 0 && initialized > initialize);
    QVERIFY(rowOf(log, true, u"notifications/initialized"_s, u"notification"_s) > initialized);
    QVERIFY(rowOf(log, false, u"tools/list"_s, u"response"_s) > initialized);
    const int call = rowOf(log, true, u"tools/call"_s, u"request"_s);
    const int result = rowOf(log, false, u"tools/call"_s, u"response"_s);
    QVERIFY(call > 0 && result > call);
    QCOMPARE(log.entry(result).server, u"everything"_s);
    QVERIFY(log.entry(result).roundTripMs.has_value());
    QVERIFY(*log.entry(result).roundTripMs >= 0);
    QVERIFY(log.entry(result).compact.contains(u"through the tap"_s));
    for (int row = 0; row < log.rowCount(); ++row)
        QVERIFY(log.entry(row).bytes > 0);
    // Nothing is logged twice.
    QCOMPARE(rowOf(log, true, u"tools/call"_s, u"request"_s), call);
    int calls = 0;
    for (int row = 0; row < log.rowCount(); ++row)
        calls += log.entry(row).method == u"tools/call"_s ? 1 : 0;
    QCOMPARE(calls, 2);
}

void TestMcpMessageLog::noCredentialReachesTheLog_data()
{
    QTest::addColumn<bool>("http");
    QTest::newRow("stdio, a token in the environment") << false;
    QTest::newRow("HTTP, a bearer token in the headers") << true;
}

void TestMcpMessageLog::noCredentialReachesTheLog()
{
    QFETCH(bool, http);
    const QString reason = McpTestServers::unavailableReason();
    QVERIFY2(reason.isEmpty(), qPrintable(reason));
    McpServerConfig config;
    if (http) {
        if (!m_httpServer) {
            m_httpServer = new QProcess(this);
            QString error;
            const quint16 port = McpTestServers::startEverythingHttp(*m_httpServer, &error);
            QVERIFY2(port != 0, qPrintable(error));
            m_httpServer->setProperty("port", port);
        }
        config = McpTestServers::httpServer(quint16(m_httpServer->property("port").toUInt()));
        config.headers.insert(u"Authorization"_s, u"Bearer "_s + Secret);
    } else {
        config = McpTestServers::everythingStdio();
        config.environment.insert(u"API_TOKEN"_s, Secret);
    }
    McpMessageLog log;
    auto client = std::make_unique<McpClient>(config, &m_network);
    log.watch(client.get());
    client->start();
    QTRY_VERIFY_WITH_TIMEOUT(client->state() != McpClient::State::Starting, StartTimeoutMs);
    QVERIFY2(client->state() == McpClient::State::Ready, qPrintable(client->failureReason()));
    bool done = false;
    client->callTool(u"echo"_s, {{u"message"_s, u"hello"_s}}, 0, {},
                     [&done](const McpCallOutcome &) { done = true; });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30'000);
    QVERIFY(log.rowCount() > 4);
    const QByteArray lines = allLines(log);
    QVERIFY(!lines.contains(Secret.toUtf8()));
    QVERIFY(!lines.contains("Bearer"));
    QVERIFY(!lines.contains("Authorization"));
}

void TestMcpMessageLog::cleanupTestCase()
{
    if (m_httpServer) {
        m_httpServer->terminate();
        m_httpServer->waitForFinished(5000);
    }
}

QTEST_GUILESS_MAIN(TestMcpMessageLog)
#include "tst_mcpmessagelog.moc"
