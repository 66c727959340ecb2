// ConnectionTester over real HTTP against a fake OpenAI-compatible server.

#include "agent/config/providerprofile.h"
#include "agent/providers/connectiontester.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/openaicompletion.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString apiKey = u"sk-tester-0123456789abcdef"_s;

} // namespace

class ConnectionTesterTest : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_server = std::make_unique<FakeHttpServer>();
        QVERIFY(m_server->listen());
        m_tester = std::make_unique<ConnectionTester>(&m_network);
    }

    void cleanup()
    {
        m_tester.reset();
        m_server.reset();
    }

    void aWorkingProfileIsReportedWithTheModelThatAnswered_data()
    {
        QTest::addColumn<QString>("answeringModel");
        QTest::addColumn<QString>("shown");
        QTest::newRow("the model the server names")
            << u"gpt-test-2024"_s << u"Connected: gpt-test-2024 answered."_s;
        QTest::newRow("the profile's model when the server names none")
            << QString() << u"Connected: gpt-test answered."_s;
    }

    void aWorkingProfileIsReportedWithTheModelThatAnswered()
    {
        QFETCH(QString, answeringModel);
        QFETCH(QString, shown);
        m_server->setHandler([answeringModel](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(200, openAiCompletion(u"pong"_s, answeringModel));
        });
        QSignalSpy succeeded(m_tester.get(), &ConnectionTester::succeeded);
        QSignalSpy failed(m_tester.get(), &ConnectionTester::failed);

        startTest(profile(), apiKey);
        QVERIFY(m_tester->isRunning());
        QTRY_COMPARE(succeeded.size(), 1);
        QCOMPARE(succeeded.first().first().toString(), shown);
        QCOMPARE(failed.size(), 0);
        QVERIFY(!m_tester->isRunning());

        // One tiny request, as the chat would send it, without a stream.
        QCOMPARE(m_server->requests().size(), 1);
        const HttpRequestRecord request = m_server->requests().constFirst();
        QCOMPARE(request.path, "/v1/chat/completions"_ba);
        QCOMPARE(request.header("Authorization"), "Bearer "_ba + apiKey.toUtf8());
        QCOMPARE(request.json().value(u"model"_s).toString(), u"gpt-test"_s);
        QCOMPARE(request.json().value(u"stream"_s).toBool(true), false);
    }

    void aFailureIsReportedInTheClientsWordsWithoutRetryingOrTheKey()
    {
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(
                503, {{u"error"_s, QJsonObject{{u"message"_s, QString(u"Overloaded, key "_s + apiKey)}}}});
        });
        QSignalSpy succeeded(m_tester.get(), &ConnectionTester::succeeded);
        QSignalSpy failed(m_tester.get(), &ConnectionTester::failed);

        startTest(profile(), apiKey);
        QTRY_COMPARE(failed.size(), 1);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(u"503"_s), qPrintable(message));
        QVERIFY2(!message.contains(apiKey), qPrintable(message));
        QCOMPARE(succeeded.size(), 0);
        QCOMPARE(m_server->requests().size(), 1); // a test says what is wrong now
    }

    void aSilentServerFailsWithinTheTimeout()
    {
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) { exchange.stall(); });
        QSignalSpy failed(m_tester.get(), &ConnectionTester::failed);

        startTest(profile(), apiKey, 300);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 5000);
        QVERIFY(!m_tester->isRunning());
    }

    void aNewTestDropsTheOneInFlight()
    {
        m_server->setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.json().value(u"model"_s).toString() == u"slow-model")
                exchange.stall();
            else
                exchange.respondJson(200, openAiCompletion(u"pong"_s, u"fast-model"_s));
        });
        QSignalSpy succeeded(m_tester.get(), &ConnectionTester::succeeded);
        QSignalSpy failed(m_tester.get(), &ConnectionTester::failed);

        ProviderProfile slow = profile();
        slow.model = u"slow-model"_s;
        startTest(slow, apiKey);
        QTRY_COMPARE(m_server->requests().size(), 1);
        ProviderProfile fast = profile();
        fast.model = u"fast-model"_s;
        startTest(fast, apiKey);

        QTRY_COMPARE(succeeded.size(), 1);
        QCOMPARE(succeeded.first().first().toString(), u"Connected: fast-model answered."_s);
        QTest::qWait(50);
        QCOMPARE(failed.size(), 0); // the dropped test says nothing
    }

    void aCancelledTestSaysNothing()
    {
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) { exchange.stall(); });
        QSignalSpy succeeded(m_tester.get(), &ConnectionTester::succeeded);
        QSignalSpy failed(m_tester.get(), &ConnectionTester::failed);

        startTest(profile(), apiKey);
        QTRY_COMPARE(m_server->requests().size(), 1);
        m_tester->cancel();
        QVERIFY(!m_tester->isRunning());
        QTest::qWait(50);
        QCOMPARE(succeeded.size() + failed.size(), 0);
    }

private:
    ProviderProfile profile() const
    {
        ProviderProfile profile;
        profile.id = u"tester"_s;
        profile.name = u"Tester"_s;
        profile.kind = ProviderKind::OpenAi;
        profile.baseUrl = QUrl(m_server->baseUrl().toString() + u"/v1"_s);
        profile.model = u"gpt-test"_s;
        return profile;
    }

    void startTest(const ProviderProfile &profile, const QString &key,
                   int timeoutMs = ConnectionTester::DefaultTimeoutMs)
    {
        m_tester->test(profile.kind, profile.effectiveBaseUrl(), profile.model, key, timeoutMs);
    }

    QNetworkAccessManager m_network;
    std::unique_ptr<FakeHttpServer> m_server;
    std::unique_ptr<ConnectionTester> m_tester;
};

QTEST_GUILESS_MAIN(ConnectionTesterTest)
#include "tst_connectiontester.moc"
