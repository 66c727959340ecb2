// A model's context window as the provider says it, over real HTTP on 127.0.0.1 (Ollama's
// POST /api/show, Gemini's GET v1beta/models/{model}), and the rule that picks the window a
// request is fitted into and Ollama is sent as num_ctx.

#include "agent/providers/contextwindowlookup.h"
#include "tests/support/modelinfoserver.h"

#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Loopscope::ProviderKind)
Q_DECLARE_METATYPE(Loopscope::ModelContextInfo)
Q_DECLARE_METATYPE(Loopscope::ModelInfoRoutes::Answer)
Q_DECLARE_METATYPE(std::optional<qint64>)
Q_DECLARE_METATYPE(std::optional<Loopscope::ModelContextInfo>)

namespace {

const QString GeminiKey = u"AIza-lookup-0123456789"_s;

QString modelFor(ProviderKind kind)
{
    return kind == ProviderKind::Gemini ? u"gemini-2.5-flash"_s : u"qwen2.5:7b"_s;
}

ModelContextInfo info(std::optional<qint64> contextLength, std::optional<qint64> configured = std::nullopt)
{
    return {contextLength, configured};
}

} // namespace

class ContextWindowLookupTest : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_server = std::make_unique<FakeHttpServer>();
        QVERIFY(m_server->listen());
        m_lookup = std::make_unique<ContextWindowLookup>(&m_network);
    }

    void cleanup()
    {
        m_lookup.reset();
        m_server.reset();
    }

    void onlyProvidersThatSayTheirWindowAreAsked()
    {
        QVERIFY(ContextWindowLookup::canAsk(ProviderKind::Ollama));
        QVERIFY(ContextWindowLookup::canAsk(ProviderKind::Gemini));
        QVERIFY(!ContextWindowLookup::canAsk(ProviderKind::OpenAi));
        QVERIFY(!ContextWindowLookup::canAsk(ProviderKind::Anthropic));
    }

    void theProviderSaysTheWindow_data()
    {
        QTest::addColumn<ProviderKind>("kind");
        QTest::addColumn<std::optional<qint64>>("contextLength");
        QTest::addColumn<std::optional<qint64>>("modelfileNumCtx");
        QTest::addColumn<ModelContextInfo>("expected");
        QTest::newRow("Ollama: the architecture's context_length")
            << ProviderKind::Ollama << std::optional<qint64>(131'072) << std::optional<qint64>()
            << info(131'072);
        QTest::newRow("Ollama: and the Modelfile's num_ctx")
            << ProviderKind::Ollama << std::optional<qint64>(131'072) << std::optional<qint64>(8'192)
            << info(131'072, 8'192);
        QTest::newRow("Gemini: inputTokenLimit") << ProviderKind::Gemini << std::optional<qint64>(1'048'576)
                                                 << std::optional<qint64>() << info(1'048'576);
    }

    void theProviderSaysTheWindow()
    {
        QFETCH(ProviderKind, kind);
        QFETCH(std::optional<qint64>, contextLength);
        QFETCH(std::optional<qint64>, modelfileNumCtx);
        QFETCH(ModelContextInfo, expected);
        ModelInfoRoutes routes;
        routes.contextLength = contextLength;
        routes.modelfileNumCtx = modelfileNumCtx;
        routes.install(*m_server);
        QSignalSpy settled(m_lookup.get(), &ContextWindowLookup::settled);

        m_lookup->lookUp(kind, endpoint(), modelFor(kind));
        QVERIFY(m_lookup->isPending(kind, m_server->baseUrl(), modelFor(kind)));
        QTRY_COMPARE(settled.size(), 1);

        QVERIFY(!m_lookup->isPending(kind, m_server->baseUrl(), modelFor(kind)));
        QCOMPARE(m_lookup->answer(kind, m_server->baseUrl(), modelFor(kind)), std::optional(expected));
        QCOMPARE(m_server->requests().size(), 1);
        const HttpRequestRecord request = m_server->requests().constFirst();
        if (kind == ProviderKind::Ollama) {
            QCOMPARE(request.method, "POST"_ba);
            QCOMPARE(request.path, "/api/show"_ba);
            QCOMPARE(request.json().value(u"model"_s).toString(), modelFor(kind));
        } else {
            QCOMPARE(request.method, "GET"_ba);
            QCOMPARE(request.path, "/v1beta/models/gemini-2.5-flash"_ba);
            // In a header, never in the URL.
            QCOMPARE(request.header("x-goog-api-key"), GeminiKey.toUtf8());
            QVERIFY(!request.target.contains(GeminiKey.toUtf8()));
        }
    }

    void eachModelIsAskedOnceForTheLookupsLife()
    {
        ModelInfoRoutes routes;
        routes.contextLength = 32'768;
        routes.install(*m_server);
        QSignalSpy settled(m_lookup.get(), &ContextWindowLookup::settled);

        m_lookup->lookUp(ProviderKind::Ollama, endpoint(), u"qwen2.5:7b"_s);
        m_lookup->lookUp(ProviderKind::Ollama, endpoint(), u"qwen2.5:7b"_s); // while it is asked
        QTRY_COMPARE(settled.size(), 1);
        ProviderEndpoint withSlash = endpoint();
        withSlash.baseUrl = QUrl(m_server->baseUrl().toString() + u'/');
        m_lookup->lookUp(ProviderKind::Ollama, withSlash, u"qwen2.5:7b"_s); // after it answered
        QCOMPARE(requestsTo(*m_server, "/api/show").size(), 1);

        m_lookup->lookUp(ProviderKind::Ollama, endpoint(), u"llama3.1:8b"_s); // another model
        QTRY_COMPARE(settled.size(), 2);
        QCOMPARE(requestsTo(*m_server, "/api/show").size(), 2);
    }

    void aProviderThatFailsOrSaysNothingGivesNoAnswer_data()
    {
        QTest::addColumn<ModelInfoRoutes::Answer>("answer");
        QTest::addColumn<std::optional<qint64>>("contextLength");
        QTest::newRow("an error status") << ModelInfoRoutes::Answer::Error << std::optional<qint64>(8'192);
        QTest::newRow("no answer within the timeout")
            << ModelInfoRoutes::Answer::Stall << std::optional<qint64>(8'192);
        QTest::newRow("an answer without a length")
            << ModelInfoRoutes::Answer::Window << std::optional<qint64>();
    }

    void aProviderThatFailsOrSaysNothingGivesNoAnswer()
    {
        QFETCH(ModelInfoRoutes::Answer, answer);
        QFETCH(std::optional<qint64>, contextLength);
        ModelInfoRoutes routes;
        routes.answer = answer;
        routes.contextLength = contextLength;
        routes.install(*m_server);
        m_lookup->setTimeoutMs(200);
        QSignalSpy settled(m_lookup.get(), &ContextWindowLookup::settled);

        m_lookup->lookUp(ProviderKind::Ollama, endpoint(), u"qwen2.5:7b"_s);
        QTRY_COMPARE(settled.size(), 1);

        QVERIFY(!m_lookup->isPending(ProviderKind::Ollama, m_server->baseUrl(), u"qwen2.5:7b"_s));
        QCOMPARE(m_lookup->answer(ProviderKind::Ollama, m_server->baseUrl(), u"qwen2.5:7b"_s),
                 std::optional<ModelContextInfo>());
        // A failure is kept too: the next turn does not wait for it again.
        m_lookup->lookUp(ProviderKind::Ollama, endpoint(), u"qwen2.5:7b"_s);
        QVERIFY(!m_lookup->isPending(ProviderKind::Ollama, m_server->baseUrl(), u"qwen2.5:7b"_s));
    }

    void theWindowIsChosen_data()
    {
        QTest::addColumn<ProviderKind>("kind");
        QTest::addColumn<std::optional<qint64>>("override");
        QTest::addColumn<std::optional<ModelContextInfo>>("provider");
        QTest::addColumn<std::optional<qint64>>("table");
        QTest::addColumn<std::optional<qint64>>("expected");
        using W = std::optional<qint64>;
        using P = std::optional<ModelContextInfo>;
        QTest::newRow("the override wins over the provider and the table")
            << ProviderKind::Ollama << W(200'000) << P(info(131'072)) << W(8'192) << W(200'000);
        QTest::newRow("Gemini: the provider wins over the table")
            << ProviderKind::Gemini << W() << P(info(1'048'576)) << W(1'000'000) << W(1'048'576);
        QTest::newRow("Gemini: the table without an answer")
            << ProviderKind::Gemini << W() << P() << W(1'000'000) << W(1'000'000);
        QTest::newRow("OpenAI: the table") << ProviderKind::OpenAi << W() << P() << W(128'000) << W(128'000);
        QTest::newRow("Ollama: a trained length under the cap")
            << ProviderKind::Ollama << W() << P(info(8'192)) << W() << W(8'192);
        QTest::newRow("Ollama: a trained length over the cap is capped")
            << ProviderKind::Ollama << W() << P(info(131'072)) << W()
            << W(ContextWindowChoice::OllamaWindowCap);
        QTest::newRow("Ollama: the table's window is capped too")
            << ProviderKind::Ollama << W() << P() << W(128'000) << W(ContextWindowChoice::OllamaWindowCap);
        QTest::newRow("Ollama: a Modelfile's num_ctx is kept")
            << ProviderKind::Ollama << W() << P(info(131'072, 65'536)) << W() << W(65'536);
        QTest::newRow("Ollama: up to the trained length")
            << ProviderKind::Ollama << W() << P(info(4'096, 65'536)) << W() << W(4'096);
        QTest::newRow("nothing known") << ProviderKind::Ollama << W() << P() << W() << W();
    }

    void theWindowIsChosen()
    {
        QFETCH(ProviderKind, kind);
        QFETCH(std::optional<qint64>, override);
        QFETCH(std::optional<ModelContextInfo>, provider);
        QFETCH(std::optional<qint64>, table);
        QFETCH(std::optional<qint64>, expected);
        QCOMPARE(ContextWindowChoice::choose(kind, override, provider, table), expected);
    }

private:
    ProviderEndpoint endpoint() const
    {
        ProviderEndpoint endpoint;
        endpoint.baseUrl = m_server->baseUrl();
        endpoint.apiKey = GeminiKey;
        return endpoint;
    }

    std::unique_ptr<FakeHttpServer> m_server;
    QNetworkAccessManager m_network;
    std::unique_ptr<ContextWindowLookup> m_lookup;
};

QTEST_GUILESS_MAIN(ContextWindowLookupTest)
#include "tst_contextwindowlookup.moc"
