// Sub-agents as tools (ask_<name>), run by a ChatSession over real HTTP: a fake OpenAI-compatible
// server on 127.0.0.1 answers each agent by its instructions, the first message of its requests.

#include "agent/loop/subagenttool.h"
#include "agent/session/chatsession.h"
#include "agent/trace/tracemodel.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/openaicompletion.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString apiKey = u"sk-subagents-0123456789abcdef"_s;
const QString leadInstructions = u"You lead."_s;
const QString researcherInstructions = u"You research."_s;

AgentPreset preset(const QString &name, const QString &instructions, const QStringList &subagents = {})
{
    AgentPreset agent;
    agent.name = name;
    agent.instructions = instructions;
    agent.tools = QStringList(); // none of the session's: only the agents they may ask
    agent.subagents = subagents;
    return agent;
}

ToolCall ask(const QString &agent, const QString &task, const QString &id = u"call_1"_s)
{
    return {id, SubAgentTool::toolName(agent),
            QString::fromUtf8(QJsonDocument(QJsonObject{{u"task"_s, task}}).toJson(QJsonDocument::Compact))};
}

QJsonArray messagesOf(const HttpRequestRecord &request)
{
    return request.json().value(u"messages"_s).toArray();
}

QString systemOf(const HttpRequestRecord &request)
{
    const QJsonObject first = messagesOf(request).first().toObject();
    return first.value(u"role"_s).toString() == u"system" ? first.value(u"content"_s).toString() : QString();
}

// The tool results the request ends with, in order: what the model is to answer from now.
QStringList toolResultsOf(const HttpRequestRecord &request)
{
    QStringList results;
    const QJsonArray messages = messagesOf(request);
    for (qsizetype i = messages.size() - 1; i >= 0 && messages.at(i)[u"role"_s].toString() == u"tool"; --i)
        results.prepend(messages.at(i)[u"content"_s].toString());
    return results;
}

// What an event says for the order test: who, how deep, what.
QString describe(const AgentEvent &event)
{
    return u"%1@%2 %3"_s.arg(event.agent).arg(event.depth).arg(agentEventKindName(event.kind));
}

} // namespace

class SubAgentsTest : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_server = std::make_unique<FakeHttpServer>();
        QVERIFY(m_server->listen());
        m_network = std::make_unique<QNetworkAccessManager>();
        m_session = std::make_unique<ChatSession>(m_network.get());
        AgentRoster roster;
        AgentPreset researcher = preset(u"researcher"_s, researcherInstructions);
        researcher.model = u"research-model"_s;
        roster.agents = {preset(u"lead"_s, leadInstructions, {u"researcher"_s}), researcher};
        useRoster(roster, u"lead"_s);
        m_researcher.clear();
        // The lead asks the researcher once, then answers with what it learned; the researcher answers.
        m_server->setHandler([this](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (systemOf(request) == researcherInstructions) {
                m_researcher.append(&exchange);
                if (m_answerResearcherAtOnce)
                    answerResearcher(exchange);
                return;
            }
            const QStringList results = toolResultsOf(request);
            if (results.isEmpty())
                exchange.respondJson(
                    200,
                    openAiToolCallCompletion({ask(u"researcher"_s, u"Find the answer."_s)}, u"test-model"_s));
            else
                exchange.respondJson(200,
                                     openAiCompletion(u"Lead: "_s + results.join(u" | "_s), u"test-model"_s));
        });
    }

    void cleanup()
    {
        m_session.reset();
        m_network.reset();
        m_server.reset();
        m_answerResearcherAtOnce = true;
    }

    void theSubAgentSeesOnlyItsInstructionsAndTheTaskAndItsAnswerIsTheToolResult()
    {
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"An earlier question that only the lead has seen"_s));
        QTRY_COMPARE(finished.size(), 1);
        QVERIFY(m_session->workbench()->find(u"ask_researcher"_s));

        QVERIFY(m_session->send(u"What is the answer?"_s));
        QTRY_COMPARE(finished.size(), 2);
        const auto result = finished.last().first().value<TurnResult>();
        QVERIFY2(result.outcome == TurnOutcome::Answered, qPrintable(result.error));
        QCOMPARE(result.text, u"Lead: The answer is 42."_s);

        // Asked in both turns; the second time the lead's history holds the first turn, and still
        // the researcher sees none of it.
        QCOMPARE(m_researcher.size(), 2);
        const HttpRequestRecord &asked = m_researcher.last()->request();
        const QJsonArray messages = messagesOf(asked);
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages.at(0)[u"content"_s].toString(), researcherInstructions);
        QCOMPARE(messages.at(1)[u"role"_s].toString(), u"user"_s);
        QCOMPARE(messages.at(1)[u"content"_s].toString(), u"Find the answer."_s);
        QCOMPARE(asked.json().value(u"model"_s).toString(), u"research-model"_s);
        QVERIFY(!asked.json().contains(u"tools"_s));
        // Its tokens are the turn's: two calls of the lead's and one of the researcher's.
        QCOMPARE(result.usage.total(), 3 * 15);
        QCOMPARE(m_session->usage()->turnUsage().total(), 3 * 15);
        // The chat's last answer is the lead's; the session's history holds none of the researcher's.
        QCOMPARE(m_session->agent()->history().constLast().text, u"Lead: The answer is 42."_s);
    }

    void theSubAgentsStepsAppearUnderTheCallInTheTraceWhileItRuns()
    {
        m_answerResearcherAtOnce = false;
        TraceModel model(m_session->trace());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"What is the answer?"_s));
        QTRY_COMPARE(m_researcher.size(), 1);

        const int call = nodeOfTool(u"ask_researcher"_s);
        QVERIFY(call >= 0);
        const QModelIndex callIndex = model.indexForNode(call);
        QTRY_COMPARE(model.rowCount(callIndex), 1);
        const QModelIndex nested = model.index(0, 0, callIndex);
        QCOMPARE(nested.data(TraceModel::KindRole).toInt(), int(TraceKind::Turn));
        QVERIFY2(nested.data().toString().startsWith(u"Agent researcher"_s),
                 qPrintable(nested.data().toString()));
        QCOMPARE(nested.data(TraceModel::StatusRole).toInt(), int(TraceStatus::Running));
        // Its iteration and its model call, still waiting for the answer, while the turn runs.
        const QModelIndex iteration = model.index(0, 0, nested);
        QCOMPARE(iteration.data(TraceModel::KindRole).toInt(), int(TraceKind::Iteration));
        QCOMPARE(model.index(0, 0, iteration).data(TraceModel::KindRole).toInt(), int(TraceKind::ModelCall));
        QVERIFY(m_session->agent()->isRunning());
        QCOMPARE(finished.size(), 0);

        answerResearcher(*m_researcher.first());
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(nested.data(TraceModel::StatusRole).toInt(), int(TraceStatus::Ok));
        const TraceNode &turn = m_session->trace()->node(nested.data(TraceModel::NodeIdRole).toInt());
        QCOMPARE(turn.data<TurnData>().agentName, u"researcher"_s);
        QCOMPARE(turn.data<TurnData>().input, u"Find the answer."_s);
        // The call's tokens are its sub-agent's.
        QCOMPARE(model.index(callIndex.row(), TraceModel::TokensColumn, callIndex.parent()).data().toString(),
                 QLocale().toString(15));
    }

    void theSubAgentsEventsComeAsTheyHappenBeforeTheResultThatCarriesItsAnswer()
    {
        QList<AgentEvent> events;
        connect(m_session->agent(), &Agent::event, this, [&events](const AgentEvent &event) {
            if (event.kind != AgentEvent::Kind::TextDelta)
                events.append(event);
        });
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"What is the answer?"_s));
        QTRY_COMPARE(finished.size(), 1);
        disconnect(m_session->agent(), &Agent::event, this, nullptr);

        QStringList said;
        for (const AgentEvent &event : std::as_const(events))
            said.append(describe(event));
        const QStringList expected{
            u"lead@0 turn_started"_s,
            u"lead@0 iteration_started"_s,
            u"lead@0 model_request"_s,
            u"lead@0 model_response"_s,
            u"lead@0 tool_call"_s,
            u"researcher@1 turn_started"_s,
            u"researcher@1 iteration_started"_s,
            u"researcher@1 model_request"_s,
            u"researcher@1 model_response"_s,
            u"researcher@1 finished"_s,
            u"lead@0 tool_result"_s,
            u"lead@0 iteration_started"_s,
            u"lead@0 model_request"_s,
            u"lead@0 model_response"_s,
            u"lead@0 finished"_s,
        };
        QCOMPARE(said, expected);
        const AgentEvent &nestedFinish = events.at(9);
        QCOMPARE(nestedFinish.text, u"The answer is 42."_s);
        QCOMPARE(nestedFinish.toJson().value(u"depth"_s).toInt(), 1);
        QCOMPARE(nestedFinish.toJson().value(u"agent"_s).toString(), u"researcher"_s);
        QVERIFY(!events.first().toJson().contains(u"depth"_s));
        // The nested steps point at their own nodes, under the call.
        const int call = events.at(4).traceNode;
        QCOMPARE(m_session->trace()->node(events.at(5).traceNode).parent, call);
    }

    void stoppingTheTurnAbortsTheSubAgentsRequest()
    {
        m_answerResearcherAtOnce = false;
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"What is the answer?"_s));
        QTRY_COMPARE(m_researcher.size(), 1);
        const QPointer<HttpExchange> pending = m_researcher.first();
        QTRY_VERIFY(pending->isClientConnected());

        m_session->stop();
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Cancelled);
        QTRY_VERIFY(!pending->isClientConnected());
        const int requests = int(m_server->requests().size());
        QTest::qWait(50); // nothing goes out after the stop: no orphan request
        QCOMPARE(int(m_server->requests().size()), requests);
        const int call = nodeOfTool(u"ask_researcher"_s);
        QCOMPARE(m_session->trace()->node(call).status, TraceStatus::Cancelled);
        const int nested = m_session->trace()->childrenOf(call).constFirst();
        QCOMPARE(m_session->trace()->node(nested).status, TraceStatus::Cancelled);
        QVERIFY(!m_session->isBusy());
    }

    void aSubAgentThatFailsIsTheCallersToolErrorWithTheReason()
    {
        m_answerResearcherAtOnce = false;
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"What is the answer?"_s));
        QTRY_COMPARE(m_researcher.size(), 1);
        m_researcher.first()->respondJson(
            400, QJsonObject{{u"error"_s,
                              QJsonObject{{u"message"_s, u"The model research-model does not exist"_s}}}});
        QTRY_COMPARE(finished.size(), 1);

        const auto result = finished.first().first().value<TurnResult>();
        QVERIFY2(result.outcome == TurnOutcome::Answered, qPrintable(result.error));
        QVERIFY2(result.text.contains(u"researcher did not answer"_s), qPrintable(result.text));
        QVERIFY2(result.text.contains(u"research-model does not exist"_s), qPrintable(result.text));
        const TraceNode &call = m_session->trace()->node(nodeOfTool(u"ask_researcher"_s));
        QCOMPARE(call.status, TraceStatus::Error);
        QVERIFY(call.data<ToolCallData>().isError);
    }

    void anAgentThatAsksItselfStopsAtTheDepthLimit()
    {
        // A file with this cycle is refused when read; a session given one still ends.
        AgentRoster roster;
        roster.agents = {preset(u"echo"_s, u"You echo."_s, {u"echo"_s})};
        useRoster(roster, u"echo"_s);
        m_server->setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QStringList results = toolResultsOf(request);
            if (results.isEmpty())
                exchange.respondJson(
                    200, openAiToolCallCompletion({ask(u"echo"_s, u"Again."_s)}, u"test-model"_s));
            else
                exchange.respondJson(200, openAiCompletion(results.constFirst(), u"test-model"_s));
        });
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"Go."_s));
        QTRY_COMPARE(finished.size(), 1);

        const auto result = finished.first().first().value<TurnResult>();
        QVERIFY2(result.outcome == TurnOutcome::Answered, qPrintable(result.error));
        QVERIFY2(result.text.contains(u"at most %1 deep"_s.arg(SubAgentTool::DefaultMaxDepth)),
                 qPrintable(result.text));
        int turns = 0;
        for (int id = 0; id < m_session->trace()->size(); ++id)
            turns += m_session->trace()->node(id).kind == TraceKind::Turn;
        QCOMPARE(turns, 1 + SubAgentTool::DefaultMaxDepth);
    }

    void theSubAgentCallsOfOneResponseRunSideBySide()
    {
        m_answerResearcherAtOnce = false;
        const QPair<QString, QString> tasks{u"First half."_s, u"Second half."_s};
        FakeHttpServer::Handler researcher = m_server->handler();
        m_server->setHandler([researcher, tasks](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (systemOf(request) == leadInstructions && toolResultsOf(request).isEmpty()) {
                exchange.respondJson(200,
                                     openAiToolCallCompletion({ask(u"researcher"_s, tasks.first, u"c1"_s),
                                                               ask(u"researcher"_s, tasks.second, u"c2"_s)},
                                                              u"test-model"_s));
                return;
            }
            researcher(request, exchange);
        });
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"Split the work."_s));
        // Both are asked before either has answered.
        QTRY_COMPARE(m_researcher.size(), 2);
        QCOMPARE(finished.size(), 0);
        answerResearcher(*m_researcher.at(1));
        answerResearcher(*m_researcher.at(0));
        QTRY_COMPARE(finished.size(), 1);

        const HttpRequestRecord last = m_server->requests().constLast();
        QCOMPARE(toolResultsOf(last), (QStringList{u"The answer is 42."_s, u"The answer is 42."_s}));
        QStringList asked{userTextOf(m_researcher.at(0)->request()),
                          userTextOf(m_researcher.at(1)->request())};
        asked.sort();
        QCOMPARE(asked, (QStringList{tasks.first, tasks.second}));
        const auto result = finished.first().first().value<TurnResult>();
        QCOMPARE(result.usage.total(), 4 * 15);
    }

    void aSubAgentsToolThatAsksFirstIsApprovedInTheChatNamingTheAgent()
    {
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        AgentRoster roster;
        AgentPreset researcher = preset(u"researcher"_s, researcherInstructions);
        researcher.tools = QStringList{u"write_file"_s};
        roster.agents = {preset(u"lead"_s, leadInstructions, {u"researcher"_s}), researcher};
        useRoster(roster, u"lead"_s, workspace.path());
        FakeHttpServer::Handler lead = m_server->handler();
        m_server->setHandler([lead](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (systemOf(request) != researcherInstructions)
                lead(request, exchange);
            else if (toolResultsOf(request).isEmpty())
                exchange.respondJson(
                    200, openAiToolCallCompletion(
                             {{u"w1"_s, u"write_file"_s, uR"({"path":"notes.txt","content":"42"})"_s}},
                             u"research-model"_s));
            else
                exchange.respondJson(200, openAiCompletion(u"Noted: "_s + toolResultsOf(request).constFirst(),
                                                           u"research-model"_s));
        });
        QAbstractItemModelTester tester(m_session->rows(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy asked(m_session->approvals(), &ToolApprovalPolicy::approvalRequested);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"Write it down."_s));
        QTRY_COMPARE(asked.size(), 1);

        const auto request = asked.first().first().value<ToolApprovalPolicy::Request>();
        QCOMPARE(request.checkpoint.agent, u"researcher"_s);
        QCOMPARE(request.checkpoint.call.name, u"write_file"_s);
        QVERIFY(!QFile::exists(workspace.filePath(u"notes.txt"_s)));
        // The chat shows the held call, where its approval is asked.
        const int row = m_session->rows()->rowOfToolCall(request.callId);
        QVERIFY(row >= 0);
        QCOMPARE(m_session->rows()->at(row).toolCall.name, u"write_file"_s);
        QCOMPARE(m_session->rows()->at(row).agent, u"researcher"_s);
        QCOMPARE(finished.size(), 0);

        QVERIFY(m_session->approvals()->allowOnce(request.callId));
        QTRY_COMPARE(finished.size(), 1);
        QVERIFY2(finished.first().first().value<TurnResult>().text.startsWith(u"Lead: Noted: "_s),
                 qPrintable(finished.first().first().value<TurnResult>().text));
        QFile written(workspace.filePath(u"notes.txt"_s));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), "42"_ba);
        QCOMPARE(m_session->rows()->at(row).toolState, ConversationRow::ToolState::Succeeded);
    }

private:
    void useRoster(const AgentRoster &roster, const QString &agent, const QString &workspace = {})
    {
        SessionSetup setup = m_session->setup().withProvider(
            openAiTestProfile(m_server->baseUrl(), u"Test"_s, u"LOOPSCOPE_SUBAGENTS_KEY"_s), apiKey);
        setup.loop.model.stream = false;
        setup.tools.workspace = workspace;
        setup.agents = roster;
        setup.agent = agent;
        m_session->apply(setup);
    }

    static void answerResearcher(HttpExchange &exchange)
    {
        exchange.respondJson(200, openAiCompletion(u"The answer is 42."_s, u"research-model"_s));
    }

    static QString userTextOf(const HttpRequestRecord &request)
    {
        return messagesOf(request).at(1)[u"content"_s].toString();
    }

    // The last tool call node of \a tool, or -1.
    int nodeOfTool(const QString &tool) const
    {
        const Trace &trace = *m_session->trace();
        for (int id = trace.size() - 1; id >= 0; --id) {
            const TraceNode &node = trace.node(id);
            if (node.kind == TraceKind::ToolCall && node.data<ToolCallData>().call.name == tool)
                return id;
        }
        return -1;
    }

    std::unique_ptr<FakeHttpServer> m_server;
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<ChatSession> m_session;
    QList<QPointer<HttpExchange>> m_researcher; // the researcher's requests, answered or not
    bool m_answerResearcherAtOnce = true;
};

QTEST_GUILESS_MAIN(SubAgentsTest)
#include "tst_subagents.moc"
