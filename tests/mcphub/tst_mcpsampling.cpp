// MCP sampling in a ChatSession: server-everything's trigger-sampling-request (2025-11-25: the server
// sends sampling/createMessage) and the fault server's 2026-07-28 input_required, with the model
// calls on a real provider: a fake OpenAI-compatible server on 127.0.0.1 that tells the session's
// requests from the sampling ones by their system prompt.
#include "agent/session/chatsession.h"
#include "agent/trace/tracemodel.h"
#include "tests/mcp/mcptestservers.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/openaicompletion.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString apiKey = u"sk-sampling-0123456789abcdef"_s;
const QString everythingSystemPrompt = u"You are a helpful test server."_s;
const QString faultSystemPrompt = u"Answer in one word."_s;

QJsonArray messagesOf(const HttpRequestRecord &request)
{
    return request.json().value(u"messages"_s).toArray();
}

QString systemOf(const HttpRequestRecord &request)
{
    const QJsonObject first = messagesOf(request).first().toObject();
    return first.value(u"role"_s).toString() == u"system" ? first.value(u"content"_s).toString() : QString();
}

QString lastToolResultOf(const HttpRequestRecord &request)
{
    const QJsonObject last = messagesOf(request).last().toObject();
    return last.value(u"role"_s).toString() == u"tool" ? last.value(u"content"_s).toString() : QString();
}

bool isSampling(const HttpRequestRecord &request)
{
    const QString system = systemOf(request);
    return system == everythingSystemPrompt || system == faultSystemPrompt || system == u"Be brief."_s;
}

} // namespace

class McpSamplingTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QString reason = McpTestServers::unavailableReason();
        QVERIFY2(reason.isEmpty(), qPrintable(reason));
    }

    void init()
    {
        m_server = std::make_unique<FakeHttpServer>();
        QVERIFY(m_server->listen());
        m_network = std::make_unique<QNetworkAccessManager>();
        m_session = std::make_unique<ChatSession>(m_network.get());
        m_sampling.clear();
        m_answerSamplingAtOnce = true;
        m_server->setHandler([this](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (isSampling(request)) {
                m_sampling.append(request);
                if (m_answerSamplingAtOnce)
                    exchange.respondJson(200, openAiCompletion(u"Paris"_s, u"sampled-model"_s, 7, 1));
                else
                    m_held = &exchange;
                return;
            }
            const QString result = lastToolResultOf(request);
            if (result.isEmpty())
                exchange.respondJson(200, openAiToolCallCompletion({m_toolCall}, u"test-model"_s));
            else
                exchange.respondJson(200, openAiCompletion(u"Done: "_s + result, u"test-model"_s));
        });
    }

    void cleanup()
    {
        m_session.reset();
        m_network.reset();
        m_server.reset();
        m_held = nullptr;
    }

    void anAcceptedRequestRunsOnTheSessionsProviderUnderTheToolCall()
    {
        useServer(McpTestServers::everythingStdio(), u"trigger-sampling-request"_s,
                  {{u"prompt"_s, u"capital of France"_s}, {u"maxTokens"_s, 42}});
        TraceModel model(m_session->trace());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy requested(m_session.get(), &ChatSession::samplingRequested);
        QSignalSpy settled(m_session.get(), &ChatSession::samplingSettled);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        const auto [id, request] = sendAndWaitForTheRequest(requested);
        QVERIFY(id > 0);
        QCOMPARE(request.serverName, u"everything"_s);
        QCOMPARE(request.systemPrompt, everythingSystemPrompt);
        QCOMPARE(request.maxTokens, 42);
        QCOMPARE(m_session->samplingModel(), u"test-model"_s);
        QVERIFY(m_sampling.isEmpty()); // nothing runs before the user says so

        QVERIFY(m_session->answerSampling(id, {true, request, {}}));
        QCOMPARE(settled.size(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);
        const auto result = finished.first().first().value<TurnResult>();
        QVERIFY2(result.outcome == TurnOutcome::Answered, qPrintable(result.error));
        QVERIFY2(result.text.contains(u"Paris"_s), qPrintable(result.text));

        // On the session's provider and model, with the server's limit and system prompt.
        QCOMPARE(m_sampling.size(), 1);
        const QJsonObject sent = m_sampling.first().json();
        QCOMPARE(sent.value(u"model"_s).toString(), u"test-model"_s);
        QCOMPARE(sent.value(u"max_tokens"_s).toInt(), 42);
        QVERIFY(
            messagesOf(m_sampling.first()).last()[u"content"_s].toString().contains(u"capital of France"_s));
        QVERIFY(!sent.contains(u"tools"_s));

        // A ModelCall under the tool call, as a sub-agent's steps nest; its tokens are the turn's.
        const Trace &trace = *m_session->trace();
        const int call = nodeOf(TraceKind::ModelCall, u"sampled-model"_s);
        QVERIFY(call >= 0);
        const TraceNode &parent = trace.node(trace.node(call).parent);
        QCOMPARE(parent.kind, TraceKind::ToolCall);
        QCOMPARE(parent.data<ToolCallData>().call.name, u"trigger-sampling-request"_s);
        QCOMPARE(trace.node(call).status, TraceStatus::Ok);
        QCOMPARE(trace.node(call).data<ModelCallData>().provider,
                 m_session->agent()->modelClient()->providerName());
        QCOMPARE(result.usage.total(), 2 * 15 + 8);
        QCOMPARE(m_session->usage()->turnUsage().total(), 2 * 15 + 8);
        // The user's time before saying yes is a Wait, beside the model call.
        const QList<int> siblings = trace.childrenOf(parent.id);
        QVERIFY(std::any_of(siblings.cbegin(), siblings.cend(), [&trace](int child) {
            return trace.node(child).kind == TraceKind::Wait
                   && trace.node(child).data<WaitData>().decision == u"accepted"_s;
        }));
    }

    void whatTheUserEditedAndTheModelTheyPickedAreWhatRuns()
    {
        useServer(McpTestServers::faultServer(u"mrtr"_s), u"echo"_s, {{u"text"_s, u"sample"_s}});
        QSignalSpy requested(m_session.get(), &ChatSession::samplingRequested);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        auto [id, request] = sendAndWaitForTheRequest(requested);
        QVERIFY(id > 0);
        QCOMPARE(request.preferredModel(), u"claude-3-sonnet"_s);
        request.systemPrompt = u"Be brief."_s;
        request.maxTokens = 5;
        QVERIFY(m_session->answerSampling(id, {true, request, u"other-model"_s}));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);
        QCOMPARE(m_sampling.size(), 1);
        const QJsonObject sent = m_sampling.first().json();
        QCOMPARE(sent.value(u"model"_s).toString(), u"other-model"_s);
        QCOMPARE(sent.value(u"max_tokens"_s).toInt(), 5);
        QCOMPARE(systemOf(m_sampling.first()), u"Be brief."_s);
        // The server got the answer on its retry (2026-07-28) and the model read the tool's result.
        const auto result = finished.first().first().value<TurnResult>();
        QVERIFY2(result.text.contains(u"summary: Paris (sampled-model, endTurn)"_s), qPrintable(result.text));
    }

    void aDeclinedRequestTellsTheServerAndRunsNothing_data()
    {
        QTest::addColumn<bool>("modern");
        QTest::addColumn<QString>("toolSays");
        QTest::newRow("2025-11-25: the spec's error") << false << u"User rejected sampling request"_s;
        QTest::newRow("2026-07-28: the call ends, not retried") << true << u"declined"_s;
    }

    void aDeclinedRequestTellsTheServerAndRunsNothing()
    {
        QFETCH(bool, modern);
        QFETCH(QString, toolSays);
        if (modern)
            useServer(McpTestServers::faultServer(u"mrtr"_s), u"echo"_s, {{u"text"_s, u"sample"_s}});
        else
            useServer(McpTestServers::everythingStdio(), u"trigger-sampling-request"_s,
                      {{u"prompt"_s, u"capital of France"_s}});
        QSignalSpy requested(m_session.get(), &ChatSession::samplingRequested);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        const int id = sendAndWaitForTheRequest(requested).first;
        QVERIFY(id > 0);
        QVERIFY(m_session->answerSampling(id, {}));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);
        QVERIFY(m_sampling.isEmpty());
        const auto result = finished.first().first().value<TurnResult>();
        QVERIFY2(result.text.contains(toolSays), qPrintable(result.text));
        QCOMPARE(nodeOf(TraceKind::ModelCall, u"sampled-model"_s), -1);
    }

    void stoppingTheTurnDuringTheModelCallCancelsIt()
    {
        m_answerSamplingAtOnce = false;
        useServer(McpTestServers::everythingStdio(), u"trigger-sampling-request"_s,
                  {{u"prompt"_s, u"capital of France"_s}});
        QSignalSpy requested(m_session.get(), &ChatSession::samplingRequested);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        const auto [id, request] = sendAndWaitForTheRequest(requested);
        QVERIFY(id > 0);
        QVERIFY(m_session->answerSampling(id, {true, request, {}}));
        QTRY_VERIFY_WITH_TIMEOUT(m_held, 30'000);
        const int call = nodeOfKindUnder(TraceKind::ModelCall, TraceKind::ToolCall);
        QVERIFY(call >= 0);
        QCOMPARE(m_session->trace()->node(call).status, TraceStatus::Running);

        m_session->stop();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Cancelled);
        QCOMPARE(m_session->trace()->node(call).status, TraceStatus::Cancelled);
    }

private:
    // Sends a question and waits until the server's request for a model call reaches the session.
    std::pair<int, McpSamplingRequest> sendAndWaitForTheRequest(QSignalSpy &requested)
    {
        if (!m_session->send(u"Ask the server"_s))
            return {-1, {}};
        if (!QTest::qWaitFor([&requested] { return requested.size() == 1; }, 30'000))
            return {-1, {}};
        return {requested.first().first().toInt(), requested.first().at(1).value<McpSamplingRequest>()};
    }

    void useServer(const McpServerConfig &server, const QString &tool, const QJsonObject &arguments)
    {
        m_toolCall
            = {u"call_1"_s, tool, QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact))};
        SessionSetup setup = m_session->setup().withProvider(
            openAiTestProfile(m_server->baseUrl(), u"Test"_s, u"LOOPSCOPE_SAMPLING_KEY"_s), apiKey);
        setup.loop.model.stream = false;
        setup.loop.toolTimeoutMs = 30'000;
        setup.mcpServers = {server};
        setup.approvals.mcpOverride = ToolApprovalPolicy::Rule::Always;
        m_session->apply(setup);
        // server-everything offers its sampling tool once it knows the client samples (list_changed).
        QTRY_VERIFY_WITH_TIMEOUT(m_session->mcp()->resolve(tool), 30'000);
    }

    // The last node of \a kind whose model (for a ModelCall) is \a model, or -1.
    int nodeOf(TraceKind kind, const QString &model) const
    {
        const Trace &trace = *m_session->trace();
        for (int id = trace.size() - 1; id >= 0; --id) {
            const TraceNode &node = trace.node(id);
            if (node.kind == kind && node.data<ModelCallData>().response.model == model)
                return id;
        }
        return -1;
    }

    int nodeOfKindUnder(TraceKind kind, TraceKind parentKind) const
    {
        const Trace &trace = *m_session->trace();
        for (int id = trace.size() - 1; id >= 0; --id) {
            const TraceNode &node = trace.node(id);
            if (node.kind == kind && node.parent >= 0 && trace.node(node.parent).kind == parentKind)
                return id;
        }
        return -1;
    }

    std::unique_ptr<FakeHttpServer> m_server;
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<ChatSession> m_session;
    QList<HttpRequestRecord> m_sampling;
    bool m_answerSamplingAtOnce = true;
    HttpExchange *m_held = nullptr;
    ToolCall m_toolCall;
};

QTEST_GUILESS_MAIN(McpSamplingTest)
#include "tst_mcpsampling.moc"
