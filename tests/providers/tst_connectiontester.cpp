// ConnectionTester and ModelLister over real HTTP against a fake server that
// answers each protocol's model list endpoint as the provider does.

#include "agent/config/providerprofile.h"
#include "agent/providers/connectiontester.h"
#include "agent/providers/modellister.h"
#include "tests/support/fakehttpserver.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString apiKey = u"sk-tester-0123456789abcdef"_s;

// One page of a model list in the wire format of \a kind.
QJsonObject modelListBody(ProviderKind kind, const QStringList &models, const QString &nextPage = {})
{
    QJsonArray entries;
    for (const QString &model : models) {
        switch (kind) {
        case ProviderKind::OpenAi:
            entries.append(QJsonObject{{u"id"_s, model}, {u"object"_s, u"model"_s}});
            break;
        case ProviderKind::Anthropic:
            entries.append(QJsonObject{{u"id"_s, model}, {u"type"_s, u"model"_s}});
            break;
        case ProviderKind::Gemini:
            entries.append(QJsonObject{
                {u"name"_s, QString(u"models/"_s + model)},
                {u"supportedGenerationMethods"_s, QJsonArray{u"generateContent"_s, u"countTokens"_s}}});
            break;
        case ProviderKind::Ollama:
            entries.append(QJsonObject{{u"name"_s, model}, {u"model"_s, model}});
            break;
        }
    }
    switch (kind) {
    case ProviderKind::OpenAi: return {{u"object"_s, u"list"_s}, {u"data"_s, entries}};
    case ProviderKind::Anthropic:
        return {{u"data"_s, entries},
                {u"has_more"_s, !nextPage.isEmpty()},
                {u"last_id"_s, models.isEmpty() ? QJsonValue() : QJsonValue(models.last())}};
    case ProviderKind::Gemini: {
        QJsonObject body{{u"models"_s, entries}};
        if (!nextPage.isEmpty())
            body.insert(u"nextPageToken"_s, nextPage);
        return body;
    }
    case ProviderKind::Ollama: return {{u"models"_s, entries}};
    }
    return {};
}

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

    void eachProtocolIsTestedThroughItsModelListWithoutSpendingTokens_data()
    {
        QTest::addColumn<ProviderKind>("kind");
        QTest::addColumn<QString>("basePath");
        QTest::addColumn<QByteArray>("listPath");
        QTest::addColumn<QByteArray>("keyHeader");
        QTest::addColumn<QByteArray>("keyValue");
        QTest::newRow("openai") << ProviderKind::OpenAi << u"/v1"_s << "/v1/models"_ba
                                << "Authorization"_ba
                                << "Bearer "_ba + apiKey.toUtf8();
        QTest::newRow("anthropic") << ProviderKind::Anthropic << QString() << "/v1/models"_ba
                                   << "x-api-key"_ba << apiKey.toUtf8();
        QTest::newRow("gemini") << ProviderKind::Gemini << QString() << "/v1beta/models"_ba
                                << "x-goog-api-key"_ba << apiKey.toUtf8();
        QTest::newRow("ollama") << ProviderKind::Ollama << QString() << "/api/tags"_ba
                                << "Authorization"_ba
                                << "Bearer "_ba + apiKey.toUtf8();
    }

    void eachProtocolIsTestedThroughItsModelListWithoutSpendingTokens()
    {
        QFETCH(ProviderKind, kind);
        QFETCH(QString, basePath);
        QFETCH(QByteArray, listPath);
        QFETCH(QByteArray, keyHeader);
        QFETCH(QByteArray, keyValue);
        m_server->setHandler([kind](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(200, modelListBody(kind, {u"other-model"_s, u"the-model"_s}));
        });
        QSignalSpy succeeded(m_tester.get(), &ConnectionTester::succeeded);
        QSignalSpy failed(m_tester.get(), &ConnectionTester::failed);

        m_tester->test(kind, QUrl(m_server->baseUrl().toString() + basePath), u"the-model"_s, apiKey);
        QVERIFY(m_tester->isRunning());
        QTRY_COMPARE(succeeded.size(), 1);
        QCOMPARE(succeeded.first().first().toString(), u"Connected: the-model is available."_s);
        QCOMPARE(failed.size(), 0);
        QVERIFY(!m_tester->isRunning());

        QCOMPARE(m_server->requests().size(), 1);
        const HttpRequestRecord request = m_server->requests().constFirst();
        QCOMPARE(request.method, "GET"_ba); // a list, never a chat request that costs tokens
        QCOMPARE(request.path, listPath);
        QCOMPARE(request.header(keyHeader), keyValue);
        QVERIFY(!request.target.contains(apiKey.toUtf8())); // the key stays out of the URL
    }

    void whatTheListSaysAboutTheProfilesModelIsShown_data()
    {
        QTest::addColumn<ProviderKind>("kind");
        QTest::addColumn<QStringList>("offered");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("shown");
        QTest::newRow("a model that is not offered")
            << ProviderKind::OpenAi << QStringList{u"a"_s, u"b"_s} << u"gpt-typo"_s
            << u"Connected, but “gpt-typo” is not among the 2 model(s) the server lists: check the model name."_s;
        QTest::newRow("no model in the profile yet")
            << ProviderKind::OpenAi << QStringList{u"a"_s, u"b"_s, u"c"_s} << QString()
            << u"Connected: 3 model(s) on offer."_s;
        QTest::newRow("an empty list") << ProviderKind::OpenAi << QStringList() << u"gpt-test"_s
                                       << u"Connected, but the server lists no models."_s;
        QTest::newRow("ollama without models")
            << ProviderKind::Ollama << QStringList() << u"llama3"_s
            << u"Connected, but no model is installed: pull one with “ollama pull”."_s;
        QTest::newRow("ollama's :latest tag may be left out")
            << ProviderKind::Ollama << QStringList{u"llama3:latest"_s} << u"llama3"_s
            << u"Connected: llama3 is available."_s;
        QTest::newRow("gemini's models/ prefix may be typed")
            << ProviderKind::Gemini << QStringList{u"gemini-test"_s} << u"models/gemini-test"_s
            << u"Connected: models/gemini-test is available."_s;
    }

    void whatTheListSaysAboutTheProfilesModelIsShown()
    {
        QFETCH(ProviderKind, kind);
        QFETCH(QStringList, offered);
        QFETCH(QString, model);
        QFETCH(QString, shown);
        m_server->setHandler([kind, offered](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(200, modelListBody(kind, offered));
        });
        QSignalSpy succeeded(m_tester.get(), &ConnectionTester::succeeded);
        m_tester->test(kind, m_server->baseUrl(), model, QString());
        QTRY_COMPARE(succeeded.size(), 1);
        QCOMPARE(succeeded.first().first().toString(), shown);
    }

    void aFailureIsReportedInWordsWithoutRetryingOrTheKey_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("expected");
        QTest::newRow("401") << 401 << u"the API key was rejected (401)"_s;
        QTest::newRow("503") << 503 << u"the provider is overloaded (503)"_s;
        QTest::newRow("404") << 404 << u"not found (404)"_s;
    }

    void aFailureIsReportedInWordsWithoutRetryingOrTheKey()
    {
        QFETCH(int, status);
        QFETCH(QString, expected);
        m_server->setHandler([status](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(
                status, {{u"error"_s, QJsonObject{{u"message"_s, QString(u"Nope, key "_s + apiKey)}}}});
        });
        QSignalSpy succeeded(m_tester.get(), &ConnectionTester::succeeded);
        QSignalSpy failed(m_tester.get(), &ConnectionTester::failed);

        m_tester->test(ProviderKind::OpenAi, m_server->baseUrl(), u"gpt-test"_s, apiKey);
        QTRY_COMPARE(failed.size(), 1);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(!message.contains(apiKey), qPrintable(message));
        QCOMPARE(succeeded.size(), 0);
        QCOMPARE(m_server->requests().size(), 1); // a test says what is wrong now
    }

    void aBodyThatIsNotAModelListFailsClearly_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("an HTML page")
            << "<html>login</html>"_ba << u"not a JSON object: check the base URL"_s;
        QTest::newRow("JSON without data") << R"({"models": []})"_ba << u"no “data” array"_s;
    }

    void aBodyThatIsNotAModelListFailsClearly()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        m_server->setHandler([body](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respond(200, {{"Content-Type"_ba, "application/json"_ba}}, body);
        });
        QSignalSpy failed(m_tester.get(), &ConnectionTester::failed);
        m_tester->test(ProviderKind::OpenAi, m_server->baseUrl(), u"gpt-test"_s, apiKey);
        QTRY_COMPARE(failed.size(), 1);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void aSilentServerFailsWithinTheTimeout()
    {
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) { exchange.stall(); });
        QSignalSpy failed(m_tester.get(), &ConnectionTester::failed);

        m_tester->test(ProviderKind::OpenAi, m_server->baseUrl(), u"gpt-test"_s, apiKey, 300);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 5000);
        QVERIFY2(failed.first().first().toString().contains(u"No answer"_s),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(!m_tester->isRunning());
    }

    void aNewTestDropsTheOneInFlight()
    {
        m_server->setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.header("Authorization") == "Bearer slow")
                exchange.stall();
            else
                exchange.respondJson(200, modelListBody(ProviderKind::OpenAi, {u"fast-model"_s}));
        });
        QSignalSpy succeeded(m_tester.get(), &ConnectionTester::succeeded);
        QSignalSpy failed(m_tester.get(), &ConnectionTester::failed);

        m_tester->test(ProviderKind::OpenAi, m_server->baseUrl(), u"slow-model"_s, u"slow"_s);
        QTRY_COMPARE(m_server->requests().size(), 1);
        m_tester->test(ProviderKind::OpenAi, m_server->baseUrl(), u"fast-model"_s, u"fast"_s);

        QTRY_COMPARE(succeeded.size(), 1);
        QCOMPARE(succeeded.first().first().toString(), u"Connected: fast-model is available."_s);
        QTest::qWait(50);
        QCOMPARE(failed.size(), 0); // the dropped test says nothing
    }

    void aCancelledTestSaysNothing()
    {
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) { exchange.stall(); });
        QSignalSpy succeeded(m_tester.get(), &ConnectionTester::succeeded);
        QSignalSpy failed(m_tester.get(), &ConnectionTester::failed);

        m_tester->test(ProviderKind::OpenAi, m_server->baseUrl(), u"gpt-test"_s, apiKey);
        QTRY_COMPARE(m_server->requests().size(), 1);
        m_tester->cancel();
        QVERIFY(!m_tester->isRunning());
        QTest::qWait(50);
        QCOMPARE(succeeded.size() + failed.size(), 0);
    }

    void everyPageOfAPagedListIsRead_data()
    {
        QTest::addColumn<ProviderKind>("kind");
        QTest::addColumn<QByteArray>("pageParameter");
        QTest::newRow("anthropic after_id") << ProviderKind::Anthropic << "after_id"_ba;
        QTest::newRow("gemini pageToken") << ProviderKind::Gemini << "pageToken"_ba;
    }

    void everyPageOfAPagedListIsRead()
    {
        QFETCH(ProviderKind, kind);
        QFETCH(QByteArray, pageParameter);
        m_server->setHandler([kind, pageParameter](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QString token = request.query.queryItemValue(QString::fromLatin1(pageParameter));
            if (token.isEmpty())
                exchange.respondJson(200, modelListBody(kind, {u"m1"_s, u"m2"_s}, u"m2"_s));
            else if (token == u"m2")
                exchange.respondJson(200, modelListBody(kind, {u"m3"_s}));
            else
                exchange.respondJson(400, {});
        });
        ModelLister lister(&m_network);
        QSignalSpy listed(&lister, &ModelLister::listed);
        lister.list(kind, m_server->baseUrl(), apiKey);
        QTRY_COMPARE(listed.size(), 1);
        QCOMPARE(listed.first().first().toStringList(), (QStringList{u"m1"_s, u"m2"_s, u"m3"_s}));
        QCOMPARE(m_server->requests().size(), 2);
    }

    void geminiListsOnlyModelsThatCanChat()
    {
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(
                200, {{u"models"_s,
                       QJsonArray{
                           QJsonObject{{u"name"_s, u"models/chat"_s},
                                       {u"supportedGenerationMethods"_s, QJsonArray{u"generateContent"_s}}},
                           QJsonObject{{u"name"_s, u"models/embed"_s},
                                       {u"supportedGenerationMethods"_s, QJsonArray{u"embedContent"_s}}}}}});
        });
        ModelLister lister(&m_network);
        QSignalSpy listed(&lister, &ModelLister::listed);
        lister.list(ProviderKind::Gemini, m_server->baseUrl(), apiKey);
        QTRY_COMPARE(listed.size(), 1);
        QCOMPARE(listed.first().first().toStringList(), QStringList{u"chat"_s});
    }

private:
    QNetworkAccessManager m_network;
    std::unique_ptr<FakeHttpServer> m_server;
    std::unique_ptr<ConnectionTester> m_tester;
};

QTEST_GUILESS_MAIN(ConnectionTesterTest)
#include "tst_connectiontester.moc"
