// Sub-agents as tools (ask_<name>), run by a ChatSession over real HTTP: a fake OpenAI-compatible
// server on 127.0.0.1 answers each agent by its instructions, the first message of its requests.

#include "agent/export/otlpexport.h"
#include "agent/knowledge/knowledgeindexer.h"
#include "agent/loop/subagenttool.h"
#include "agent/session/chatsession.h"
#include "agent/trace/tracemodel.h"
#include "agent/trace/turnnodefinder.h"
#include "agent/transcript/transcript.h"
#include "tests/support/chatsessionoverhttp.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/openaicompletion.h"
#include "tests/support/testfiles.h"

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

// What a chat row shows, for comparing the live chat with the reopened one.
QString shown(const ConversationRow &row)
{
    return u"%1|%2|%3|%4|%5|%6"_s.arg(int(row.kind))
        .arg(row.agent, row.toolCall.name, row.text)
        .arg(int(row.toolState))
        .arg(row.traceNode);
}

QStringList shownRows(const ConversationRows &rows)
{
    QStringList lines;
    for (int i = 0; i < rows.size(); ++i)
        lines.append(shown(rows.at(i)));
    return lines;
}

// The session as its file holds it, read back the way opening a session reads it.
Transcript reopenedTranscript(const ChatSession &session, std::shared_ptr<TraceForest> *trace = nullptr)
{
    TranscriptLoadResult loaded = TranscriptFile::parse(TranscriptFile::serialize(session.toTranscript()),
                                                        TranscriptFile::TraceForm::ForestOnly);
    if (!loaded.transcript || !loaded.trace) {
        qWarning() << loaded.error;
        return {};
    }
    if (trace)
        *trace = loaded.trace;
    return *loaded.transcript;
}

// The chat of the session saved and opened again.
QStringList reopenedRows(const ChatSession &session, QNetworkAccessManager *network)
{
    std::shared_ptr<TraceForest> trace;
    const Transcript transcript = reopenedTranscript(session, &trace);
    ChatSession reopened(network);
    QAbstractItemModelTester tester(reopened.rows(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QString error;
    if (!trace || !reopened.restore(transcript, *trace, &error)) {
        qWarning() << error;
        return {};
    }
    return shownRows(*reopened.rows());
}

struct Span
{
    QString id;
    QString parent;
    QHash<QString, QString> strings;
};

// The OTLP export's spans by name.
QMultiHash<QString, Span> otlpSpans(const Transcript &transcript)
{
    QMultiHash<QString, Span> spans;
    const QJsonObject root = QJsonDocument::fromJson(exportOtlpJson(transcript)).object();
    for (const QJsonValue &resource : root[u"resourceSpans"_s].toArray()) {
        for (const QJsonValue &scope : resource[u"scopeSpans"_s].toArray()) {
            for (const QJsonValue &value : scope[u"spans"_s].toArray()) {
                Span span{value[u"spanId"_s].toString(), value[u"parentSpanId"_s].toString(), {}};
                for (const QJsonValue &attribute : value[u"attributes"_s].toArray())
                    span.strings.insert(attribute[u"key"_s].toString(),
                                        attribute[u"value"_s][u"stringValue"_s].toString());
                spans.insert(value[u"name"_s].toString(), span);
            }
        }
    }
    return spans;
}

// The names of the tools \a request offers.
QStringList offeredTools(const HttpRequestRecord &request)
{
    QStringList names;
    for (const QJsonValue &tool : request.json().value(u"tools"_s).toArray())
        names.append(tool[u"function"_s][u"name"_s].toString());
    return names;
}

// The knowledge base \a name, indexed from one document with \a text, in \a dir.
AttachedKnowledgeBase indexedBase(const QTemporaryDir &dir, const QString &name, const QByteArray &text)
{
    const QString document = dir.filePath(name + u".md"_s);
    const QString database = dir.filePath(name + u".sqlite"_s);
    if (!Testing::writeFile(document, text)
        || !KnowledgeIndexer().run({name, {document}}, database).errors.isEmpty())
        qWarning() << "could not index" << name;
    return {name, database, {}};
}

// What an event says for the order test: who, how deep, what.
QString describe(const AgentEvent &event)
{
    return u"%1@%2 %3"_s.arg(event.agent).arg(event.depth).arg(agentEventKindName(event.kind));
}

} // namespace

class SubAgentsTest : public QObject, protected Testing::ChatSessionOverHttp
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(startSession());
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
        endSession();
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

    void anAgentSearchesItsOwnKnowledgeBasesAndASubAgentTheSessions()
    {
        // The session attaches "recipes"; the lead names "policies" of its own, the researcher none.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        AgentRoster roster;
        AgentPreset lead = preset(u"lead"_s, leadInstructions, {u"researcher"_s});
        lead.knowledge = QStringList{u"policies"_s};
        roster.agents = {lead, preset(u"researcher"_s, researcherInstructions)};
        useRoster(roster, u"lead"_s);
        SessionSetup setup = m_session->setup();
        setup.knowledge
            = {indexedBase(dir, u"recipes"_s, "# Soup\n\nRefunds for burnt soup are approved by nobody.\n")};
        setup.agentKnowledge.insert(
            u"policies"_s,
            indexedBase(dir, u"policies"_s, "# Refunds\n\nRefunds are approved by the finance lead.\n"));
        m_session->apply(setup);

        const auto search = [](const QString &id) {
            return ToolCall{id, QString(KnowledgeSearchTool::Name), uR"({"query":"who approves refunds"})"_s};
        };
        QStringList leadOffers;
        QStringList researcherOffers;
        m_server->setHandler([&](const HttpRequestRecord &request, HttpExchange &exchange) {
            const bool researcher = systemOf(request) == researcherInstructions;
            (researcher ? researcherOffers : leadOffers) = offeredTools(request);
            const QStringList results = toolResultsOf(request);
            if (researcher && results.isEmpty())
                exchange.respondJson(200, openAiToolCallCompletion({search(u"r1"_s)}, u"research-model"_s));
            else if (researcher)
                exchange.respondJson(200, openAiCompletion(u"Found: "_s + results.join(u" | "_s), u"m"_s));
            else if (results.isEmpty())
                exchange.respondJson(
                    200, openAiToolCallCompletion({search(u"l1"_s), ask(u"researcher"_s, u"Look it up."_s)},
                                                  u"test-model"_s));
            else
                exchange.respondJson(200, openAiCompletion(results.join(u"\n=====\n"_s), u"test-model"_s));
        });

        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"Who approves refunds?"_s));
        QTRY_COMPARE(finished.size(), 1);
        const auto result = finished.last().first().value<TurnResult>();
        QVERIFY2(result.outcome == TurnOutcome::Answered, qPrintable(result.error));

        QVERIFY(leadOffers.contains(QString(KnowledgeSearchTool::Name)));
        QVERIFY(researcherOffers.contains(QString(KnowledgeSearchTool::Name)));
        const QStringList parts = result.text.split(u"\n=====\n"_s);
        QCOMPARE(parts.size(), 2);
        // The lead's search hits its own base only; the researcher's the session's only.
        QVERIFY2(parts.at(0).contains(u"finance lead"_s), qPrintable(parts.at(0)));
        QVERIFY2(!parts.at(0).contains(u"burnt soup"_s), qPrintable(parts.at(0)));
        QVERIFY2(parts.at(1).contains(u"burnt soup"_s), qPrintable(parts.at(1)));
        QVERIFY2(!parts.at(1).contains(u"finance lead"_s), qPrintable(parts.at(1)));
    }

    void anAgentWithNoKnowledgeBasesIsNotOfferedTheSearch()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        AgentRoster roster;
        AgentPreset lead = preset(u"lead"_s, leadInstructions);
        lead.knowledge = QStringList();
        roster.agents = {lead};
        useRoster(roster, u"lead"_s);
        SessionSetup setup = m_session->setup();
        setup.knowledge = {indexedBase(dir, u"recipes"_s, "# Soup\n\nBurnt soup.\n")};
        m_session->apply(setup);
        QVERIFY(!m_session->workbench()->find(QString(KnowledgeSearchTool::Name)));
        // Without its own list it searches the session's bases.
        roster.agents.first().knowledge.reset();
        setup.agents = roster;
        m_session->apply(setup);
        QVERIFY(m_session->workbench()->find(QString(KnowledgeSearchTool::Name)));
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

    // A sub-agent's own time limit bounds its answer: its request is aborted and the caller's model
    // reads why, as with any failure, and answers.
    void aSubAgentOutOfTimeIsTheCallersToolErrorAndItsRequestIsAborted()
    {
        AgentRoster roster = m_session->setup().agents;
        roster.agents[1].timeLimitSeconds = 1;
        useRoster(roster, u"lead"_s);
        m_answerResearcherAtOnce = false;
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"What is the answer?"_s));
        QTRY_COMPARE(m_researcher.size(), 1);
        const QPointer<HttpExchange> pending = m_researcher.first();

        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 10000);
        const auto result = finished.first().first().value<TurnResult>();
        QVERIFY2(result.outcome == TurnOutcome::Answered, qPrintable(result.error));
        QVERIFY2(result.text.contains(u"researcher did not answer"_s), qPrintable(result.text));
        QVERIFY2(result.text.contains(u"time limit of 1 s"_s), qPrintable(result.text));
        QTRY_VERIFY(!pending || !pending->isClientConnected());
        const int call = nodeOfTool(u"ask_researcher"_s);
        QCOMPARE(m_session->trace()->node(call).status, TraceStatus::Error);
        const int nested = m_session->trace()->childrenOf(call).constFirst();
        QCOMPARE(m_session->trace()->node(nested).data<TurnData>().outcome, u"time_limit"_s);
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

    void aSubAgentsToolThatAsksFirstIsApprovedInTheChatNamingTheAgent_data()
    {
        QTest::addColumn<int>("leadTimeLimitSeconds");
        QTest::newRow("no time limit") << 0;
        // The card waits for the person longer than the lead may take: the person's time is not
        // the lead's, even though the card is the sub-agent's.
        QTest::newRow("the lead's time limit shorter than the wait") << 1;
    }

    void aSubAgentsToolThatAsksFirstIsApprovedInTheChatNamingTheAgent()
    {
        QFETCH(int, leadTimeLimitSeconds);
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        useResearcherThatWrites(workspace.path());
        if (leadTimeLimitSeconds > 0) {
            AgentRoster roster = m_session->setup().agents;
            roster.agents[0].timeLimitSeconds = leadTimeLimitSeconds;
            useRoster(roster, u"lead"_s, workspace.path());
        }
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
        if (leadTimeLimitSeconds > 0)
            QTest::qWait(leadTimeLimitSeconds * 1500);
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

    void aSubAgentsToolCallsAreInTheChatAfterReopeningTheSession()
    {
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        useResearcherThatWrites(workspace.path());
        allowEveryToolCall();
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"Write it down."_s));
        QTRY_COMPARE(finished.size(), 1);

        const QStringList live = shownRows(*m_session->rows());
        const int written
            = m_session->rows()->rowOfToolCall(u"a%1_w1"_s.arg(nodeOfTool(u"ask_researcher"_s)));
        QVERIFY2(written >= 0, qPrintable(live.join(u'\n')));
        QCOMPARE(m_session->rows()->at(written).agent, u"researcher"_s);
        QCOMPARE(m_session->rows()->at(written).toolState, ConversationRow::ToolState::Succeeded);
        // After the call that asked it, as the chat showed it live; and the same after reopening.
        QCOMPARE(m_session->rows()->at(written - 1).toolCall.name, u"ask_researcher"_s);
        QCOMPARE(reopenedRows(*m_session, m_network.get()), live);
    }

    void theTurnRecordsTheVersionAndDefinitionOfItsAgent()
    {
        AgentRoster roster;
        AgentPreset lead = preset(u"lead"_s, leadInstructions, {u"researcher"_s});
        lead.version = 4;
        AgentPreset researcher = preset(u"researcher"_s, researcherInstructions);
        researcher.version = 2;
        roster.agents = {lead, researcher};
        useRoster(roster, u"lead"_s);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"What is the answer?"_s));
        QTRY_COMPARE(finished.size(), 1);

        const Trace &trace = *m_session->trace();
        const TurnData &turn = trace.node(trace.roots().constLast()).data<TurnData>();
        QCOMPARE(turn.agentName, u"lead"_s);
        QCOMPARE(turn.agentVersion, std::optional<qint64>(4));
        QCOMPARE(turn.agentDefinition, lead.definitionJson());
        const int call = nodeOfTool(u"ask_researcher"_s);
        const TurnData &asked = trace.node(trace.node(call).children.constFirst()).data<TurnData>();
        QCOMPARE(asked.agentVersion, std::optional<qint64>(2));
        QCOMPARE(asked.agentDefinition, researcher.definitionJson());
        // It survives the session file.
        std::shared_ptr<TraceForest> reopened;
        reopenedTranscript(*m_session, &reopened);
        QVERIFY(reopened);
        QCOMPARE(reopened->nodes.at(size_t(reopened->roots.constLast())).data<TurnData>(), turn);

        // The session agent's own turns record no preset.
        useRoster({}, {});
        QVERIFY(m_session->send(u"Hello?"_s));
        QTRY_COMPARE(finished.size(), 2);
        const TurnData &plain = trace.node(trace.roots().constLast()).data<TurnData>();
        QVERIFY(!plain.agentVersion);
        QVERIFY(plain.agentDefinition.isEmpty());
    }

    void aHandoffIsThePartOfTheAgentHandedToAndTheChatNamesWhoSpeaks()
    {
        AgentRoster roster;
        AgentPreset triage = preset(u"triage"_s, u"You route."_s);
        triage.version = 3;
        triage.handoffs = {u"billing"_s};
        AgentPreset billing = preset(u"billing"_s, u"You bill."_s);
        billing.version = 7;
        roster.agents = {triage, billing};
        useRoster(roster, u"triage"_s);
        m_server->setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (systemOf(request) == u"You route.")
                exchange.respondJson(200, openAiToolCallCompletion({{u"h1"_s, u"transfer_to_billing"_s,
                                                                     uR"({"reason":"an invoice"})"_s}},
                                                                   u"test-model"_s));
            else
                exchange.respondJson(200, openAiCompletion(u"Your invoice is paid."_s, u"test-model"_s));
        });
        TraceModel model(m_session->trace());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"I was charged twice"_s));
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().agent, u"billing"_s);

        // The turn is triage's part; the handoff, beside its iteration, is billing's part and holds
        // billing's iteration.
        const Trace &trace = *m_session->trace();
        const int turn = trace.roots().constLast();
        const QList<int> parts = trace.node(turn).children;
        QCOMPARE(parts.size(), 2);
        QCOMPARE(trace.node(parts.at(0)).kind, TraceKind::Iteration);
        const TraceNode &handoff = trace.node(parts.at(1));
        QCOMPARE(handoff.kind, TraceKind::Handoff);
        QCOMPARE(handoff.status, TraceStatus::Ok);
        QCOMPARE(handoff.data<HandoffData>().target, u"billing"_s);
        QCOMPARE(handoff.data<HandoffData>().targetVersion, std::optional<qint64>(7));
        QCOMPARE(handoff.data<HandoffData>().targetDefinition, billing.definitionJson());
        QCOMPARE(handoff.children.size(), 1);
        QCOMPARE(trace.node(handoff.children.constFirst()).kind, TraceKind::Iteration);
        QCOMPARE(TurnNodeFinder::turnSteps(trace, turn),
                 (QList<int>{parts.at(0), parts.at(1), handoff.children.constFirst()}));
        QCOMPARE(model.rowCount(model.indexForNode(handoff.id)), 1);
        // The details pane shows the payload: the agent and its version.
        const QJsonObject details
            = model.indexForNode(handoff.id).data(TraceModel::PayloadJsonRole).toJsonObject();
        QCOMPARE(details.value(u"target"_s).toString(), u"billing"_s);
        QCOMPARE(details.value(u"targetVersion"_s).toInteger(), 7);

        // The answer names billing, live and after reopening.
        const ConversationRows &rows = *m_session->rows();
        const ConversationRow &answer = rows.at(rows.size() - 1);
        QCOMPARE(answer.kind, ConversationRow::Kind::Assistant);
        QCOMPARE(answer.text, u"Your invoice is paid."_s);
        QCOMPARE(answer.agent, u"billing"_s);
        QCOMPARE(reopenedRows(*m_session, m_network.get()), shownRows(rows));

        // OTLP: an invoke_agent span per part, billing's under triage's turn.
        const QMultiHash<QString, Span> spans = otlpSpans(m_session->toTranscript());
        QCOMPARE(spans.values(u"invoke_agent triage"_s).size(), 1);
        QCOMPARE(spans.values(u"invoke_agent billing"_s).size(), 1);
        const Span triageSpan = spans.value(u"invoke_agent triage"_s);
        const Span billingSpan = spans.value(u"invoke_agent billing"_s);
        QCOMPARE(billingSpan.parent, triageSpan.id);
        QCOMPARE(billingSpan.strings.value(u"gen_ai.operation.name"_s), u"invoke_agent"_s);
        QCOMPARE(billingSpan.strings.value(u"gen_ai.agent.name"_s), u"billing"_s);
        QCOMPARE(billingSpan.strings.value(u"gen_ai.agent.version"_s), u"7"_s);
        QCOMPARE(triageSpan.strings.value(u"gen_ai.agent.version"_s), u"3"_s);
        const auto iterations = spans.values(u"iteration 2"_s);
        QCOMPARE(iterations.size(), 1);
        QCOMPARE(iterations.constFirst().parent, billingSpan.id);
    }

    void aSubAgentIsAnInvokeAgentSpanUnderItsExecuteToolSpan()
    {
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"What is the answer?"_s));
        QTRY_COMPARE(finished.size(), 1);

        const QMultiHash<QString, Span> spans = otlpSpans(m_session->toTranscript());
        QCOMPARE(spans.values(u"invoke_agent researcher"_s).size(), 1);
        const Span researcher = spans.value(u"invoke_agent researcher"_s);
        QCOMPARE(researcher.strings.value(u"gen_ai.operation.name"_s), u"invoke_agent"_s);
        QCOMPARE(researcher.strings.value(u"gen_ai.agent.name"_s), u"researcher"_s);
        const Span tool = spans.value(u"execute_tool ask_researcher"_s);
        QCOMPARE(researcher.parent, tool.id);
    }

    void aBreakpointHoldsASubAgentsToolCallAndWhatTheUserSuppliesIsItsResult()
    {
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        useResearcherThatWrites(workspace.path());
        allowEveryToolCall();
        StepDebugger *debugger = m_session->debugger();
        StepDebugger::Breakpoints breakpoints;
        breakpoints.toolNames = {u"write_file"_s};
        debugger->setBreakpoints(breakpoints);
        debugger->setEnabled(true);
        QSignalSpy paused(debugger, &StepDebugger::paused);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"Write it down."_s));
        QTRY_COMPARE(paused.size(), 1);

        const std::optional<StepDebugger::Stop> stop = debugger->currentStop();
        QVERIFY(stop && stop->toolCall);
        QCOMPARE(stop->toolCall->agent, u"researcher"_s);
        QCOMPARE(stop->toolCall->call.name, u"write_file"_s);
        // The chat shows the sub-agent's call held.
        const int row = m_session->rows()->rowOfToolCall(stop->toolCall->call.id);
        QVERIFY(row >= 0);
        QCOMPARE(m_session->rows()->at(row).toolState, ConversationRow::ToolState::Held);
        QCOMPARE(finished.size(), 0);

        QVERIFY(debugger->supplyResult(ToolResult::success(u"written by hand"_s)));
        debugger->resume();
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().text, u"Lead: Noted: written by hand"_s);
        QVERIFY(!QFile::exists(workspace.filePath(u"notes.txt"_s)));
    }

private:
    // The user allows each call that asks, once, as it asks.
    void allowEveryToolCall()
    {
        connect(m_session->approvals(), &ToolApprovalPolicy::approvalRequested, this,
                [this](const ToolApprovalPolicy::Request &request) {
                    m_session->approvals()->allowOnce(request.callId);
                });
    }

    void useResearcherThatWrites(const QString &workspace)
    {
        AgentRoster roster;
        AgentPreset researcher = preset(u"researcher"_s, researcherInstructions);
        researcher.tools = QStringList{u"write_file"_s};
        roster.agents = {preset(u"lead"_s, leadInstructions, {u"researcher"_s}), researcher};
        useRoster(roster, u"lead"_s, workspace);
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
    }

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

    QList<QPointer<HttpExchange>> m_researcher; // the researcher's requests, answered or not
    bool m_answerResearcherAtOnce = true;
};

QTEST_GUILESS_MAIN(SubAgentsTest)
#include "tst_subagents.moc"
