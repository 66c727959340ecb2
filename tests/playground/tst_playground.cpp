// The playground without widgets: one model call re-run against a fake
// OpenAI-compatible server on 127.0.0.1, kept as a variant of the recorded
// call through a save and reload of the session, and forked from.

#include "agent/playground/playgroundrequest.h"
#include "agent/playground/playgroundrun.h"
#include "agent/playground/variantfork.h"
#include "agent/session/chatsession.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracemodel.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/openaicompletion.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString keyVariable = u"LOOPSCOPE_PLAYGROUND_TEST_KEY"_s;
const QString apiKey = u"sk-playground-0123456789abcdef"_s;

// The user message of a request the server saw, the last one.
QString lastUserText(const HttpRequestRecord &request)
{
    QString text;
    for (const QJsonValue &message : request.json().value(u"messages"_s).toArray()) {
        if (message[u"role"_s].toString() == u"user")
            text = message[u"content"_s].toString();
    }
    return text;
}

int lastModelCall(const Trace &trace)
{
    for (int node = trace.size() - 1; node >= 0; --node) {
        if (trace.node(node).kind == TraceKind::ModelCall)
            return node;
    }
    return -1;
}

} // namespace

class PlaygroundTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qputenv(keyVariable.toLatin1().constData(), apiKey.toUtf8()); }

    void init()
    {
        m_server = std::make_unique<FakeHttpServer>();
        QVERIFY(m_server->listen());
        m_network = std::make_unique<QNetworkAccessManager>();
        m_session = std::make_unique<ChatSession>(m_network.get());
        AgentConfig config;
        config.model.stream = false;
        config.systemPrompt = u"Be brief."_s;
        SessionSetup setup = m_session->setup();
        setup.loop = config;
        m_session->apply(setup);
        m_server->setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            exchange.respondJson(200, openAiCompletion(u"You said: "_s + lastUserText(request),
                                                       request.json().value(u"model"_s).toString()));
        });
        m_session->apply(m_session->setup().withProvider(profile(), apiKey));
    }

    void cleanup()
    {
        m_session.reset();
        m_network.reset();
        m_server.reset();
    }

    void aReRunSendsTheEditedRequestAndSurvivesSaveAndReload()
    {
        ask(u"first"_s);
        const int call = lastModelCall(*m_session->trace());
        QVERIFY(call >= 0);
        const ModelCallData recorded = m_session->trace()->node(call).data<ModelCallData>();

        ModelRequest edited = recorded.request.whole();
        edited.messages.last().text = u"edited"_s;
        edited.options.model = u"other-model"_s;
        edited.options.temperature = 0.25;
        const ModelCallVariant variant = rerun(edited);

        const HttpRequestRecord sent = m_server->requests().constLast();
        QCOMPARE(sent.json().value(u"model"_s).toString(), u"other-model"_s);
        QCOMPARE(sent.json().value(u"temperature"_s).toDouble(), 0.25);
        QCOMPARE(lastUserText(sent), u"edited"_s);
        QCOMPARE(sent.header("authorization"), "Bearer "_ba + apiKey.toUtf8());
        QVERIFY2(variant.succeeded(), qPrintable(variant.error));
        QCOMPARE(variant.request, edited);
        QCOMPARE(variant.response.text, u"You said: edited"_s);
        QCOMPARE(variant.response.usage.inputTokens, 12);
        QCOMPARE(variant.model, u"other-model"_s);
        QCOMPARE(variant.profileName, u"Playground test"_s);
        QVERIFY(variant.endedUs >= variant.startedUs && variant.startedUs > 0);

        const QList<Message> conversation = m_session->agent()->history();
        TraceModel model(m_session->trace());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(addModelCallVariant(*m_session->trace(), call, variant));
        QCOMPARE(m_session->agent()->history(), conversation); // the conversation is not changed
        // The trace tree says the call was re-run, and hears of it at once.
        QVERIFY(!changed.isEmpty());
        const QString name = model.indexForNode(call).data().toString();
        QVERIFY2(name.endsWith(u" · re-runs: 1"_s), qPrintable(name));

        const QByteArray file = TranscriptFile::serialize(m_session->toTranscript());
        QVERIFY(!file.contains(apiKey.toUtf8()));
        const TranscriptLoadResult loaded = TranscriptFile::parse(file);
        QVERIFY2(loaded.transcript, qPrintable(loaded.error));
        ChatSession reopened(m_network.get());
        QString error;
        QVERIFY2(reopened.restore(*loaded.transcript, &error), qPrintable(error));
        const ModelCallData reloaded
            = reopened.trace()->node(lastModelCall(*reopened.trace())).data<ModelCallData>();
        QCOMPARE(reloaded.variants.size(), 1);
        QCOMPARE(reloaded.variants.constFirst(), variant);
        QCOMPARE(reloaded.request, recorded.request);
    }

    void aCallWithoutVariantsWritesNoVariantsAndOldTracesLoad()
    {
        ask(u"first"_s);
        const QJsonArray json = m_session->trace()->toJson();
        const QJsonObject call = m_session->trace()->nodeToJson(lastModelCall(*m_session->trace()));
        QVERIFY(!call.value(u"data"_s).toObject().contains(u"variants"_s));
        Trace reread;
        QVERIFY(reread.fromJson(json));
        QVERIFY(reread.node(lastModelCall(reread)).data<ModelCallData>().variants.isEmpty());
        QVERIFY(!addModelCallVariant(reread, reread.roots().constFirst(), {}));
    }

    void aProviderErrorIsAFailedVariantWithItsMessage_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTest::newRow("500") << 500 << u"the model is down"_s;
        QTest::newRow("429") << 429 << u"slow down"_s;
    }

    void aProviderErrorIsAFailedVariantWithItsMessage()
    {
        QFETCH(int, status);
        QFETCH(QString, message);
        ask(u"first"_s);
        const int call = lastModelCall(*m_session->trace());
        m_server->setHandler([&](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(status, {{u"error"_s, QJsonObject{{u"message"_s, message}}}});
        });
        const ModelCallVariant variant
            = rerun(m_session->trace()->node(call).data<ModelCallData>().request.whole());
        QVERIFY(!variant.succeeded());
        QCOMPARE(variant.httpStatus, status);
        QVERIFY2(variant.error.contains(message), qPrintable(variant.error));
        QVERIFY(!variant.error.contains(apiKey));
        QCOMPARE(m_server->requests().size(), 2); // no retries in the playground

        QVERIFY(addModelCallVariant(*m_session->trace(), call, variant));
        Trace reread;
        QVERIFY(reread.fromJson(m_session->trace()->toJson()));
        QCOMPARE(reread.node(call).data<ModelCallData>().variants.constFirst().error, variant.error);
    }

    void aCancelledRunEndsWithoutAVariant()
    {
        ask(u"first"_s);
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) { exchange.stall(); });
        PlaygroundRun run(m_network.get(), nullptr);
        QSignalSpy finished(&run, &PlaygroundRun::finished);
        QSignalSpy received(m_server.get(), &FakeHttpServer::requestReceived);
        run.start(profile(), m_session->trace()
                                 ->node(lastModelCall(*m_session->trace()))
                                 .data<ModelCallData>()
                                 .request.whole());
        QVERIFY(run.isRunning());
        QTRY_COMPARE(received.size(), 1);
        run.cancel();
        QVERIFY(!run.isRunning());
        QCoreApplication::processEvents();
        QCOMPARE(finished.size(), 0);
    }

    void aMissingKeyIsAFailedVariantThatNeverReachesTheServer()
    {
        ProviderProfile keyless = profile();
        keyless.apiKeyEnv = u"LOOPSCOPE_PLAYGROUND_UNSET_KEY"_s;
        keyless.baseUrl.setUserInfo(u"user:hunter2"_s);
        PlaygroundRun run(m_network.get(), nullptr);
        QSignalSpy finished(&run, &PlaygroundRun::finished);
        run.start(keyless, ModelRequest{{Message::user(u"hi"_s)}, {}, ToolChoice::Auto, {}});
        QTRY_COMPARE(finished.size(), 1);
        const auto variant = finished.first().first().value<ModelCallVariant>();
        QVERIFY2(variant.error.contains(keyless.apiKeyEnv), qPrintable(variant.error));
        QCOMPARE(m_server->requests().size(), 0);
        QVERIFY2(!variant.baseUrl.contains(u"hunter2"_s), qPrintable(variant.baseUrl));
        QCOMPARE(variant.baseUrl, profile().baseUrl.toString());
    }

    void forkingAVariantContinuesFromItsResponse()
    {
        ask(u"first"_s);
        ask(u"second"_s);
        const int call = lastModelCall(*m_session->trace());
        ModelRequest edited = m_session->trace()->node(call).data<ModelCallData>().request.whole();
        edited.options.model = u"other-model"_s;
        const ModelCallVariant variant = rerun(edited);
        QVERIFY(addModelCallVariant(*m_session->trace(), call, variant));

        QString error;
        const std::optional<Transcript> fork = VariantFork::fork(m_session->toTranscript(), variant, &error);
        QVERIFY2(fork, qPrintable(error));
        const QList<Message> expected{Message::user(u"first"_s), Message::assistant(u"You said: first"_s),
                                      Message::user(u"second"_s), Message::assistant(u"You said: second"_s)};
        QCOMPARE(fork->messages, expected);
        QCOMPARE(fork->trace.size(), 1); // the first turn; the second is the one re-answered
        QCOMPARE(fork->config.model.model, u"other-model"_s);
        QCOMPARE(fork->config.systemPrompt, u"Be brief."_s);
        QVERIFY(fork->title.contains(u"fork"_s));

        ChatSession forked(m_network.get());
        QVERIFY2(forked.restore(*fork, &error), qPrintable(error));
        QCOMPARE(forked.agent()->history(), expected);
    }

    void forkingIsRefusedForToolCallsAndFailures_data()
    {
        QTest::addColumn<bool>("withToolCall");
        QTest::addColumn<QString>("reason");
        QTest::newRow("tool call") << true << u"1 tool"_s;
        QTest::newRow("failed") << false << u"failed"_s;
    }

    void forkingIsRefusedForToolCallsAndFailures()
    {
        QFETCH(bool, withToolCall);
        QFETCH(QString, reason);
        ask(u"first"_s);
        ModelCallVariant variant;
        variant.request = m_session->trace()
                              ->node(lastModelCall(*m_session->trace()))
                              .data<ModelCallData>()
                              .request.whole();
        if (withToolCall)
            variant.response.toolCalls.append(ToolCall{u"call_1"_s, u"calculator"_s, u"{}"_s, {}});
        else
            variant.error = u"HTTP 500"_s;
        QString error;
        QVERIFY(!VariantFork::fork(m_session->toTranscript(), variant, &error));
        QVERIFY2(error.contains(reason), qPrintable(error));
    }

    void aMalformedEditIsRefusedWithWhere_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << u"{\"messages\": ["_s << u"not valid JSON"_s;
        QTest::newRow("array") << u"[]"_s << u"JSON object"_s;
        QTest::newRow("no messages") << u"{}"_s << u"\"messages\""_s;
        QTest::newRow("bad role") << u"{\"messages\": [{\"role\": \"robot\"}]}"_s << u"Message 1"_s;
        QTest::newRow("nameless call")
            << u"{\"messages\": [{\"role\": \"assistant\", \"toolCalls\": [{\"id\": \"a\"}]}]}"_s
            << u"without a \"name\""_s;
        QTest::newRow("tools") << u"{\"messages\": [{\"role\": \"user\"}], \"tools\": 1}"_s << u"\"tools\""_s;
    }

    void aMalformedEditIsRefusedWithWhere()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QString error;
        QVERIFY(!PlaygroundRequest::fromText(text, &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    void aRequestReadsBackAsItWasWritten()
    {
        ModelRequest request{{Message::system(u"s"_s), Message::user(u"u"_s)}, {}, ToolChoice::Auto, {}};
        request.options.model = u"m"_s;
        request.options.temperature = 0.5;
        QString error;
        QCOMPARE(PlaygroundRequest::fromText(PlaygroundRequest::toText(request), &error), request);
    }

private:
    ProviderProfile profile() const
    {
        return openAiTestProfile(m_server->baseUrl(), u"Playground test"_s, keyVariable);
    }

    void ask(const QString &question)
    {
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(question));
        QTRY_COMPARE(finished.size(), 1);
    }

    ModelCallVariant rerun(const ModelRequest &request)
    {
        PlaygroundRun run(m_network.get(), nullptr);
        QSignalSpy finished(&run, &PlaygroundRun::finished);
        run.start(profile(), request);
        [&] {
            QTRY_COMPARE(finished.size(), 1);
        }();
        return finished.isEmpty() ? ModelCallVariant() : finished.first().first().value<ModelCallVariant>();
    }

    std::unique_ptr<FakeHttpServer> m_server;
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<ChatSession> m_session;
};

QTEST_GUILESS_MAIN(PlaygroundTest)
#include "tst_playground.moc"
