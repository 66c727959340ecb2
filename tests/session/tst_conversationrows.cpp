#include "agent/debug/stepdebugger.h"
#include "agent/debug/toolapprovalpolicy.h"
#include "agent/loop/agent.h"
#include "agent/session/conversationrows.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "tests/support/scriptedmodelclient.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using Row = ConversationRow;
using Step = ScriptedModelClient::Step;

Q_DECLARE_METATYPE(QList<Step>)
Q_DECLARE_METATYPE(QList<Row::Notice>)

namespace Loopscope {

// What a failing comparison prints.
char *toString(const ConversationRow &row)
{
    const QString kind
        = QStringList{u"user"_s, u"assistant"_s, u"tool call"_s, u"notice"_s}.at(int(row.kind));
    return QTest::toString(u"%1 \"%2\" %3 node %4 turn %5%6"_s.arg(kind, row.text, row.toolCall.id)
                               .arg(row.traceNode)
                               .arg(row.turn)
                               .arg(row.streaming ? u" streaming"_s : QString()));
}

} // namespace Loopscope

namespace {

const QJsonObject addSchema{{u"type"_s, u"object"_s},
                            {u"properties"_s, QJsonObject{{u"a"_s, QJsonObject{{u"type"_s, u"integer"_s}}},
                                                          {u"b"_s, QJsonObject{{u"type"_s, u"integer"_s}}}}},
                            {u"required"_s, QJsonArray{u"a"_s, u"b"_s}}};

QList<int> nodesOfKind(const Trace &trace, TraceKind kind, int turnNode = -1)
{
    QList<int> nodes;
    for (int i = 0; i < trace.size(); ++i) {
        int root = i;
        while (trace.node(root).parent >= 0)
            root = trace.node(root).parent;
        if (trace.node(i).kind == kind && (turnNode < 0 || root == turnNode))
            nodes.append(i);
    }
    return nodes;
}

int toolCallNode(const Trace &trace, const QString &callId)
{
    for (int node : nodesOfKind(trace, TraceKind::ToolCall)) {
        if (trace.node(node).data<ToolCallData>().call.id == callId)
            return node;
    }
    return -1;
}

QString stateName(Row::ToolState state)
{
    using State = Row::ToolState;
    switch (state) {
    case State::Running: return u"Running"_s;
    case State::Held: return u"Held"_s;
    case State::Succeeded: return u"Succeeded"_s;
    case State::Failed: return u"Failed"_s;
    case State::Denied: return u"Denied"_s;
    case State::Blocked: return u"Blocked"_s;
    case State::Skipped: return u"Skipped"_s;
    case State::Cancelled: return u"Cancelled"_s;
    }
    return {};
}

// Turn ids are the projection's own serials: a rebuilt conversation numbers
// its turns afresh.
QList<Row> withoutTurnIds(QList<Row> rows)
{
    for (Row &row : rows)
        row.turn = -1;
    return rows;
}

// Checks every notification and every answer of the model for as long as it lives.
void testModel(ConversationRows *rows)
{
    new QAbstractItemModelTester(rows, QAbstractItemModelTester::FailureReportingMode::QtTest, rows);
}

// The rows of a QAbstractItemModel signal (rowsInserted, rowsRemoved): first and last.
QList<int> signalledRows(const QList<QVariant> &arguments)
{
    return {arguments.at(1).toInt(), arguments.at(2).toInt()};
}

// The rows a dataChanged signal names, first and last.
QList<int> changedRows(const QList<QVariant> &arguments)
{
    return {arguments.at(0).toModelIndex().row(), arguments.at(1).toModelIndex().row()};
}

QList<int> changedRoles(const QList<QVariant> &arguments)
{
    return arguments.at(2).value<QList<int>>();
}

// An agent with an "add" tool whose turns a ConversationRows follows, which a model tester checks.
struct Fixture
{
    Fixture()
    {
        workbench.add(std::make_shared<FunctionTool>(
            ToolSchema{u"add"_s, u"Adds two integers"_s, addSchema},
            [](const QJsonObject &arguments, ToolContext &) {
                return ToolResult::success(
                    QString::number(arguments.value(u"a"_s).toInt() + arguments.value(u"b"_s).toInt()));
            }));
        testModel(&rows);
        rows.setTrace(&trace);
        rows.follow(&agent);
    }
    ~Fixture() { agent.cancel(); }

    bool ask(const QString &question)
    {
        const qsizetype before = finished.size();
        if (!agent.send(question))
            return false;
        return QTest::qWaitFor([&] { return finished.size() > before; }, 5000);
    }
    // What ChatSession does to regenerate: back to before the last question, ask it again.
    bool askAgain(const QString &question)
    {
        QList<Message> history = agent.history();
        while (!history.isEmpty() && history.takeLast().role != Message::Role::User) {}
        return agent.setHistory(history) && ask(question);
    }
    // Rows rebuilt from the saved history and the same trace, as reopening a session does.
    std::unique_ptr<ConversationRows> reopened() const
    {
        auto rebuilt = std::make_unique<ConversationRows>();
        testModel(rebuilt.get());
        rebuilt->setTrace(&trace);
        rebuilt->showHistory(agent.history());
        return rebuilt;
    }

    // The same, from the trace as a saved file holds it (written to JSON and read back).
    std::unique_ptr<ConversationRows> reopenedFromFile()
    {
        std::optional<TraceForest> forest = Trace::readJson(trace.toJson());
        if (!forest)
            return {};
        saved.assign(std::move(*forest));
        auto rebuilt = std::make_unique<ConversationRows>();
        testModel(rebuilt.get());
        rebuilt->setTrace(&saved);
        rebuilt->showHistory(agent.history());
        return rebuilt;
    }

    ScriptedModelClient client;
    Workbench workbench;
    Trace saved;
    Trace trace;
    Agent agent{&client, &workbench, &trace};
    ConversationRows rows;
    QSignalSpy finished{&agent, &Agent::turnFinished};
};

// Two iterations: "Adding both." with add(1, 2) and add(3, 4) at once, then
// add(3, 7), then the answer.
void runParallelToolTurn(Fixture &f)
{
    f.client.enqueue(
        {ScriptedModelClient::calls({ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s),
                                     ScriptedModelClient::call(u"c2"_s, u"add"_s, u"{\"a\":3,\"b\":4}"_s)},
                                    u"Adding both."_s),
         ScriptedModelClient::calls({ScriptedModelClient::call(u"c3"_s, u"add"_s, u"{\"a\":3,\"b\":7}"_s)}),
         ScriptedModelClient::text(u"The sum is 10."_s)});
    QVERIFY(f.ask(u"What is 1 + 2 + 3 + 4?"_s));
}

ModelAttempt failedAttempt(int number, const QString &error)
{
    ModelAttempt attempt;
    attempt.number = number;
    attempt.httpStatus = 503;
    attempt.error = error;
    attempt.retryInMs = 1000;
    return attempt;
}

// Says no to every tool call, as a user who clicks Deny.
class DenyingInterceptor final : public Interceptor
{
public:
    void interceptToolCall(const ToolCallCheckpoint &, ToolCallDecision decision) override
    {
        decision.deny();
    }
};

} // namespace

class ConversationRowsTest : public QObject
{
    Q_OBJECT

private slots:
    void aTurnWithParallelToolsBecomesRowsThatPointAtTheirTraceNodes()
    {
        Fixture f;
        runParallelToolTurn(f);
        if (QTest::currentTestFailed())
            return;

        const int turn = f.trace.roots().value(0, -1);
        const QList<int> modelCalls = nodesOfKind(f.trace, TraceKind::ModelCall);
        QCOMPARE(modelCalls.size(), 3);
        const QList<Row> &rows = f.rows.rows();
        QCOMPARE(rows.size(), 6);

        const QList<Row::Kind> kinds{Row::Kind::User,     Row::Kind::Assistant, Row::Kind::ToolCall,
                                     Row::Kind::ToolCall, Row::Kind::ToolCall,  Row::Kind::Assistant};
        const QStringList texts{u"What is 1 + 2 + 3 + 4?"_s, u"Adding both."_s, u"3"_s, u"7"_s, u"10"_s,
                                u"The sum is 10."_s};
        const QList<int> nodes{turn,
                               modelCalls.at(0),
                               toolCallNode(f.trace, u"c1"_s),
                               toolCallNode(f.trace, u"c2"_s),
                               toolCallNode(f.trace, u"c3"_s),
                               modelCalls.at(2)};
        for (int i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows.at(i).kind, kinds.at(i));
            QCOMPARE(rows.at(i).text, texts.at(i));
            QCOMPARE(rows.at(i).traceNode, nodes.at(i));
            QCOMPARE(rows.at(i).turn, rows.at(0).turn);
            QVERIFY(!rows.at(i).streaming);
        }
        QCOMPARE(rows.at(3).toolCall.arguments, u"{\"a\":3,\"b\":4}"_s);
        QCOMPARE(rows.at(3).toolState, Row::ToolState::Succeeded);
        QVERIFY(!f.rows.isTurnRunning());
    }

    void rowsRebuiltFromTheSavedHistoryAndTraceEqualTheLiveOnes()
    {
        Fixture f;
        runParallelToolTurn(f);
        f.client.enqueue(ScriptedModelClient::text(u"You are welcome."_s));
        QVERIFY(f.ask(u"Thanks!"_s));
        if (QTest::currentTestFailed())
            return;

        QCOMPARE(f.reopened()->rows(), f.rows.rows());
    }

    void aDeniedCallIsStillDeniedWhenTheSessionIsReopened()
    {
        Fixture f;
        DenyingInterceptor denying;
        f.agent.addInterceptor(&denying);
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"You said no."_s)});
        QVERIFY(f.ask(u"What is 1 + 2?"_s));

        const auto rebuilt = f.reopened();
        QCOMPARE(rebuilt->size(), 3);
        QCOMPARE(rebuilt->at(1).kind, Row::Kind::ToolCall);
        QCOMPARE(rebuilt->at(1).toolState, Row::ToolState::Denied);
        QCOMPARE(f.rows.at(1).toolState, Row::ToolState::Denied);
        QCOMPARE(rebuilt->rows(), f.rows.rows());
    }

    void aForcedFinalAnswerIsFollowedByANoticeNamingTheLimit()
    {
        Fixture f;
        AgentConfig config;
        config.maxIterations = 2;
        f.agent.setConfig(config);
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"Probably 3."_s)});
        QVERIFY(f.ask(u"What is 1 + 2?"_s));

        const QList<Row> &rows = f.rows.rows();
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows.at(2).kind, Row::Kind::Assistant);
        QCOMPARE(rows.at(2).text, u"Probably 3."_s);
        const Row &notice = rows.at(3);
        QCOMPARE(notice.kind, Row::Kind::Notice);
        QCOMPARE(notice.notice, Row::Notice::Limit);
        QCOMPARE(notice.text,
                 u"Reached the limit of 2 iterations: the last answer was forced without tools."_s);
        QCOMPARE(notice.traceNode, f.trace.roots().constFirst());
        QVERIFY(!notice.retryable);
    }

    void aRetryStaysInTheChatAndSaysItRecoveredOnceTheRetrySucceeds()
    {
        Fixture f;
        Step answer = ScriptedModelClient::text(u"Hello."_s);
        ModelAttempt failed;
        failed.number = 1;
        failed.httpStatus = 429;
        failed.error = u"rate limited (429) — retrying in 1 s (attempt 2 of 3)"_s;
        failed.retryInMs = 1000;
        ModelAttempt succeeded;
        succeeded.number = 2;
        succeeded.httpStatus = 200;
        answer.delayMs = -1; // the test plays the attempts and the answer
        f.client.enqueue(answer);
        QVERIFY(f.agent.send(u"Hi"_s));
        emit f.client.attemptFinished(failed);

        // While the next attempt runs, the notice says a retry is under way and why.
        QCOMPARE(f.rows.size(), 2);
        QCOMPARE(f.rows.at(1).notice, Row::Notice::Retry);
        QCOMPARE(f.rows.at(1).text,
                 u"Attempt 1 failed: rate limited (429) — retrying in 1 s (attempt 2 of 3)"_s);
        QSignalSpy changed(&f.rows, &QAbstractItemModel::dataChanged);

        emit f.client.attemptFinished(succeeded);
        emit f.client.finished(answer.response);
        QTRY_COMPARE(f.finished.size(), 1);

        const QList<Row> &rows = f.rows.rows();
        QCOMPARE(rows.size(), 3);
        const Row &retry = rows.at(1);
        QCOMPARE(retry.kind, Row::Kind::Notice);
        QCOMPARE(retry.notice, Row::Notice::Recovered);
        QCOMPARE(retry.text, u"Recovered after 2 attempts: attempt 1 failed (HTTP 429)."_s);
        QVERIFY(!retry.retryable);
        QCOMPARE(f.trace.node(retry.traceNode).kind, TraceKind::Retry);
        QCOMPARE(f.trace.node(retry.traceNode).status, TraceStatus::Ok);
        QVERIFY(std::any_of(changed.cbegin(), changed.cend(), [](const QList<QVariant> &arguments) {
            return changedRows(arguments) == QList{1, 1};
        }));
        QCOMPARE(rows.at(2).text, u"Hello."_s);
    }

    void aReopenedSessionShowsTheNoticesItShowedLive_data()
    {
        QTest::addColumn<QList<Step>>("steps");
        QTest::addColumn<int>("maxIterations");
        QTest::addColumn<QList<Row::Notice>>("notices");

        const auto call = [](const QString &id) {
            return ScriptedModelClient::calls(
                {ScriptedModelClient::call(id, u"add"_s, u"{\"a\":1,\"b\":2}"_s)});
        };
        Step failed = ScriptedModelClient::failure(u"service unavailable (503)"_s, 503);
        failed.retries = {failedAttempt(1, u"unavailable (503) — retrying in 1 s (attempt 2 of 3)"_s),
                          failedAttempt(2, u"unavailable (503) — retrying in 2 s (attempt 3 of 3)"_s)};
        // The call's retries share one notice, which says the call failed after three attempts.
        QTest::newRow("a call that failed after three attempts")
            << QList<Step>{failed} << 10
            << QList<Row::Notice>{Row::Notice::RetriesFailed, Row::Notice::Error};
        QTest::newRow("a failed turn")
            << QList<Step>{ScriptedModelClient::failure(u"bad gateway (502)"_s, 502)} << 10
            << QList<Row::Notice>{Row::Notice::Error};
        Step retriedAnswer = ScriptedModelClient::text(u"3."_s);
        retriedAnswer.retries = {failedAttempt(1, u"unavailable (503) — retrying in 1 s (attempt 2 of 3)"_s),
                                 failedAttempt(2, u"unavailable (503) — retrying in 2 s (attempt 3 of 3)"_s)};
        QTest::newRow("a call retried twice, then recovered")
            << QList<Step>{retriedAnswer} << 10 << QList<Row::Notice>{Row::Notice::Recovered};
        Step retriedCalls = call(u"c1"_s);
        retriedCalls.retries = {failedAttempt(1, u"unavailable (503) — retrying in 1 s (attempt 2 of 3)"_s)};
        QTest::newRow("two calls of a turn, each retried and recovered")
            << QList<Step>{retriedCalls, retriedAnswer} << 10
            << QList<Row::Notice>{Row::Notice::Recovered, Row::Notice::Recovered};
        QTest::newRow("a retry before tool calls, then the iteration limit")
            << QList<Step>{retriedCalls, ScriptedModelClient::text(u"Probably 3."_s)} << 2
            << QList<Row::Notice>{Row::Notice::Recovered, Row::Notice::Limit};
        QTest::newRow("a fallback at the iteration limit")
            << QList<Step>{call(u"c1"_s), call(u"c2"_s)} << 2 << QList<Row::Notice>{Row::Notice::Limit};
    }

    void aReopenedSessionShowsTheNoticesItShowedLive()
    {
        QFETCH(QList<Step>, steps);
        QFETCH(int, maxIterations);
        QFETCH(QList<Row::Notice>, notices);
        Fixture f;
        AgentConfig config;
        config.maxIterations = maxIterations;
        f.agent.setConfig(config);
        f.client.enqueue(steps);
        QVERIFY(f.ask(u"What is 1 + 2?"_s));

        QList<Row::Notice> live;
        for (const Row &row : f.rows.rows()) {
            if (row.kind == Row::Kind::Notice)
                live.append(row.notice);
        }
        QCOMPARE(live, notices);
        QCOMPARE(f.reopened()->rows(), f.rows.rows());
        const auto fromFile = f.reopenedFromFile();
        QVERIFY(fromFile);
        QCOMPARE(fromFile->rows(), f.rows.rows());
    }

    // The divider stands between the question and what the compacted request answered, live and
    // reopened, and points at the trace's Compaction node.
    void aCompactionIsADividerBeforeTheAnswerLiveAndReopened()
    {
        Fixture f;
        AgentConfig config;
        config.model.contextWindow = 400;
        config.compaction = CompactionStrategy::DropOldest;
        f.agent.setConfig(config);
        f.client.enqueue({ScriptedModelClient::text(QString(4000, u'a')),
                          ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"3."_s)});
        QVERIFY(f.ask(u"Tell me everything."_s));
        QVERIFY(f.ask(u"What is 1 + 2?"_s));

        const QList<Row> live = f.rows.rows();
        QCOMPARE(live.size(), 6);
        QCOMPARE(live.at(2).text, u"What is 1 + 2?"_s);
        QCOMPARE(live.at(3).kind, Row::Kind::Notice);
        QCOMPARE(live.at(3).notice, Row::Notice::Compacted);
        QCOMPARE(f.trace.node(live.at(3).traceNode).kind, TraceKind::Compaction);
        QVERIFY2(live.at(3).text.contains(u"left out"_s), qPrintable(live.at(3).text));
        QCOMPARE(live.at(4).kind, Row::Kind::ToolCall);
        QCOMPARE(live.at(5).text, u"3."_s);
        QCOMPARE(f.reopened()->rows(), live);
        const auto fromFile = f.reopenedFromFile();
        QVERIFY(fromFile);
        QCOMPARE(fromFile->rows(), live);
    }

    void aReopenedFailedTurnOffersRetryAsTheLiveOneDid()
    {
        Fixture f;
        f.client.enqueue(ScriptedModelClient::failure(u"bad gateway (502)"_s, 502));
        QVERIFY(f.ask(u"Hi"_s));

        const auto rebuilt = f.reopenedFromFile();
        QVERIFY(rebuilt);
        QCOMPARE(rebuilt->size(), 2);
        const Row &notice = rebuilt->at(1);
        QCOMPARE(notice.kind, Row::Kind::Notice);
        QCOMPARE(notice.notice, Row::Notice::Error);
        QVERIFY(notice.text.contains(u"bad gateway (502)"_s));
        QVERIFY(notice.retryable);
        QCOMPARE(f.trace.node(notice.traceNode).kind, TraceKind::Error);
    }

    void aCallsRetriesShareOneNoticeThatSaysWhenTheyAllFailed()
    {
        Fixture f;
        Step failure = ScriptedModelClient::failure(u"server error (500)"_s, 500);
        for (int number = 1; number <= 3; ++number) {
            ModelAttempt attempt;
            attempt.number = number;
            attempt.httpStatus = number == 2 ? 0 : 500;
            attempt.error = number == 2 ? u"connection reset"_s : u"server error (500)"_s;
            attempt.retryInMs = number < 3 ? 1000 : -1;
            failure.retries.append(attempt);
        }
        f.client.enqueue(failure);
        QVERIFY(f.ask(u"Hi"_s));

        const QList<Row> &rows = f.rows.rows();
        QCOMPARE(rows.size(), 3);
        const Row &retry = rows.at(1);
        QCOMPARE(retry.notice, Row::Notice::RetriesFailed);
        QCOMPARE(retry.text, u"Failed after 3 attempts: attempt 1 failed (HTTP 500), attempt 2 failed "
                             "(no response); the last attempt's error follows."_s);
        QCOMPARE(f.trace.node(retry.traceNode).status, TraceStatus::Error);
        const Row &error = rows.at(2);
        QCOMPARE(error.notice, Row::Notice::Error);
        QCOMPARE(error.text, u"server error (500)"_s);
        QVERIFY(error.retryable);
    }

    void anAnswerWithinTheLimitHasNoNotice()
    {
        Fixture f;
        AgentConfig config;
        config.maxIterations = 3;
        f.agent.setConfig(config);
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"3."_s)});
        QVERIFY(f.ask(u"What is 1 + 2?"_s));

        QCOMPARE(f.rows.size(), 3);
        QCOMPARE(f.rows.at(2).kind, Row::Kind::Assistant);
    }

    void theSameQuestionAskedTwiceFindsTwoTurns()
    {
        Fixture f;
        f.client.enqueue({ScriptedModelClient::text(u"Yes."_s), ScriptedModelClient::text(u"Yes."_s)});
        QVERIFY(f.ask(u"Are you there?"_s));
        QVERIFY(f.ask(u"Are you there?"_s));

        const auto rebuilt = f.reopened();
        const QList<int> &roots = f.trace.roots();
        QCOMPARE(rebuilt->size(), 4);
        QCOMPARE(rebuilt->at(0).traceNode, roots.at(0));
        QCOMPARE(rebuilt->at(1).traceNode, nodesOfKind(f.trace, TraceKind::ModelCall, roots.at(0)).value(0));
        QCOMPARE(rebuilt->at(2).traceNode, roots.at(1));
        QCOMPARE(rebuilt->at(3).traceNode, nodesOfKind(f.trace, TraceKind::ModelCall, roots.at(1)).value(0));
    }

    void aRegeneratedTurnIsFoundInsteadOfTheOneItReplaced_data()
    {
        QTest::addColumn<QString>("replacedAnswer");
        QTest::newRow("a different answer") << u"4"_s;
        // Matching by text cannot tell these apart.
        QTest::newRow("the same answer") << u"7"_s;
    }
    void aRegeneratedTurnIsFoundInsteadOfTheOneItReplaced()
    {
        QFETCH(QString, replacedAnswer);
        Fixture f;
        f.client.enqueue({ScriptedModelClient::text(replacedAnswer), ScriptedModelClient::text(u"7"_s)});
        QVERIFY(f.ask(u"Pick a number"_s));
        QVERIFY(f.askAgain(u"Pick a number"_s));
        QCOMPARE(f.trace.roots().size(), 2);

        const int replacement = f.trace.roots().at(1);
        const QList<int> expectedNodes{replacement,
                                       nodesOfKind(f.trace, TraceKind::ModelCall, replacement).value(0)};
        const auto reopened = f.reopened();
        for (const ConversationRows *rows : {&f.rows, reopened.get()}) {
            // The replaced turn stays, marked, before its replacement.
            QCOMPARE(rows->size(), 4);
            QVERIFY(rows->at(0).replaced);
            QCOMPARE(rows->at(0).traceNode, f.trace.roots().at(0));
            QCOMPARE(rows->at(3).text, u"7"_s);
            QVERIFY(!rows->at(3).replaced);
            QCOMPARE((QList<int>{rows->at(2).traceNode, rows->at(3).traceNode}), expectedNodes);
        }
    }

    void askingAgainKeepsTheReplacedTurnInTheChatAsTheTraceDoes()
    {
        Fixture f;
        f.client.enqueue({ScriptedModelClient::text(u"Paris"_s), ScriptedModelClient::text(u"Rome"_s),
                          ScriptedModelClient::text(u"It is Rome."_s)});
        QVERIFY(f.ask(u"Capital of France?"_s));
        QVERIFY(f.ask(u"Capital of Italy?"_s));
        const QList<Row> firstTurn = f.rows.rows().first(2);
        const int replacedTurn = f.rows.at(2).turn;

        QSignalSpy removed(&f.rows, &QAbstractItemModel::rowsRemoved);
        QSignalSpy changed(&f.rows, &QAbstractItemModel::dataChanged);
        QVERIFY(f.askAgain(u"Capital of Italy?"_s));

        QCOMPARE(removed.size(), 0);
        QCOMPARE(f.trace.roots().size(), 3);
        QCOMPARE(f.rows.size(), 6);
        QCOMPARE(f.rows.rows().first(2), firstTurn);
        QVERIFY(f.rows.at(2).replaced && f.rows.at(3).replaced);
        QCOMPARE(f.rows.at(2).turn, replacedTurn);
        QCOMPARE(f.rows.at(2).traceNode, f.trace.roots().at(1));
        QCOMPARE(f.rows.at(3).text, u"Rome"_s);
        QVERIFY(!f.rows.isInHistory(replacedTurn));
        QVERIFY(changedRoles(changed.first()).contains(ConversationRows::ReplacedRole));
        QVERIFY(!f.rows.at(4).replaced && !f.rows.at(5).replaced);
        QCOMPARE(f.rows.at(5).text, u"It is Rome."_s);
        QCOMPARE(f.rows.at(4).traceNode, f.trace.roots().at(2));

        // Reopened, the chat still shows every turn the trace keeps, in the order asked.
        QCOMPARE(withoutTurnIds(f.reopened()->rows()), withoutTurnIds(f.rows.rows()));
    }

    void aReplacedFailedTurnKeepsItsNoticeWithoutRetry()
    {
        Fixture f;
        f.client.enqueue({ScriptedModelClient::failure(u"bad gateway (502)"_s, 502),
                          ScriptedModelClient::text(u"Hello."_s)});
        QVERIFY(f.ask(u"Hi"_s));
        QVERIFY(f.askAgain(u"Hi"_s));

        for (const auto &rows : {withoutTurnIds(f.rows.rows()), withoutTurnIds(f.reopened()->rows())}) {
            QCOMPARE(rows.size(), 4);
            QCOMPARE(rows.at(1).kind, Row::Kind::Notice);
            QVERIFY(rows.at(1).replaced);
            QVERIFY(!rows.at(1).retryable);
            QCOMPARE(rows.at(3).text, u"Hello."_s);
        }
    }

    void streamedTextGrowsOneRowUntilTheAnswerArrives()
    {
        Fixture f;
        Step step = ScriptedModelClient::text(u"Once upon a time."_s);
        step.chunks = QStringList{u"Once "_s, u"upon "_s, u"a time."_s};
        step.delayMs = 50;
        f.client.enqueue(step);
        QSignalSpy inserted(&f.rows, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&f.rows, &QAbstractItemModel::dataChanged);
        QVERIFY(f.ask(u"Tell me a story"_s));

        // The question, then one row for the whole answer, inserted with the first delta.
        QCOMPARE(inserted.size(), 2);
        QCOMPARE(signalledRows(inserted.at(0)), (QList<int>{0, 0}));
        QCOMPARE(signalledRows(inserted.at(1)), (QList<int>{1, 1}));
        QCOMPARE(f.rows.size(), 2);
        QCOMPARE(f.rows.at(1).text, u"Once upon a time."_s);
        QVERIFY(!f.rows.at(1).streaming);
        // Each later delta changes that row's text; the end of the stream changes it once more.
        QCOMPARE(changed.size(), 3);
        for (const QList<QVariant> &change : std::as_const(changed))
            QCOMPARE(changedRows(change), (QList<int>{1, 1}));
        QCOMPARE(changedRoles(changed.at(0)), (QList<int>{Qt::DisplayRole, ConversationRows::RowRole}));
        QCOMPARE(changedRoles(changed.at(1)), (QList<int>{Qt::DisplayRole, ConversationRows::RowRole}));
        QCOMPARE(changedRoles(changed.at(2)),
                 (QList<int>{ConversationRows::StreamingRole, ConversationRows::RowRole}));
    }

    void aStreamingRowSaysSoThroughItsRoles()
    {
        Fixture f;
        Step step = ScriptedModelClient::text(u"Once upon a time."_s);
        step.chunks = QStringList{u"Once "_s, u"upon "_s, u"a time."_s};
        f.client.enqueue(step);
        // What a view reads from the answer's row each time the model says it changed.
        QStringList seen;
        const auto read = [&](const QModelIndex &index) {
            if (index.row() == 1)
                seen.append(index.data().toString()
                            + (index.data(ConversationRows::StreamingRole).toBool() ? u" …"_s : QString()));
        };
        QObject::connect(&f.rows, &QAbstractItemModel::rowsInserted, &f.rows,
                         [&](const QModelIndex &, int first) { read(f.rows.index(first)); });
        QObject::connect(&f.rows, &QAbstractItemModel::dataChanged, &f.rows, read);
        QVERIFY(f.ask(u"Tell me a story"_s));

        QCOMPARE(seen, (QStringList{u"Once  …"_s, u"Once upon  …"_s, u"Once upon a time. …"_s,
                                    u"Once upon a time."_s}));
        const QModelIndex answer = f.rows.index(1);
        QCOMPARE(answer.data(ConversationRows::KindRole).toInt(), int(Row::Kind::Assistant));
        QCOMPARE(answer.data(ConversationRows::RowRole).value<Row>(), f.rows.at(1));
        QCOMPARE(answer.data(ConversationRows::TraceNodeRole).toInt(), f.rows.at(1).traceNode);
        QCOMPARE(answer.data(ConversationRows::TurnRole).toInt(), f.rows.at(1).turn);
    }

    void aToolResultChangesItsCallsRowAndState()
    {
        Fixture f;
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"3"_s)});
        QSignalSpy changed(&f.rows, &QAbstractItemModel::dataChanged);
        QVERIFY(f.ask(u"1 + 2?"_s));

        const int call = f.rows.rowOfToolCall(u"c1"_s);
        QCOMPARE(call, 1);
        QCOMPARE(f.rows.index(call).data(ConversationRows::ToolStateRole).toInt(),
                 int(Row::ToolState::Succeeded));
        const bool resultChangedTheRow
            = std::any_of(changed.cbegin(), changed.cend(), [call](const QList<QVariant> &change) {
                  return changedRows(change) == QList<int>{call, call}
                         && changedRoles(change).contains(ConversationRows::ToolStateRole)
                         && changedRoles(change).contains(Qt::DisplayRole);
              });
        QVERIFY(resultChangedTheRow);
    }

    void showingASavedConversationResetsTheModel()
    {
        Fixture f;
        runParallelToolTurn(f);
        if (QTest::currentTestFailed())
            return;
        ConversationRows restored;
        testModel(&restored);
        restored.setTrace(&f.trace);
        QSignalSpy aboutToReset(&restored, &QAbstractItemModel::modelAboutToBeReset);
        QSignalSpy reset(&restored, &QAbstractItemModel::modelReset);
        QSignalSpy inserted(&restored, &QAbstractItemModel::rowsInserted);

        restored.showHistory(f.agent.history());

        QCOMPARE(aboutToReset.size(), 1);
        QCOMPARE(reset.size(), 1);
        QCOMPARE(inserted.size(), 0);
        QCOMPARE(restored.rowCount(), 6);
        QCOMPARE(restored.rows(), f.rows.rows());
    }

    void aLongConversationShowsItsLastTurnsAndPagesBackwards()
    {
        Fixture f;
        constexpr int turns = ConversationRows::TurnsPerPage + 15;
        for (int i = 0; i < turns; ++i) {
            f.client.enqueue(ScriptedModelClient::text(u"Answer %1"_s.arg(i)));
            QVERIFY(f.ask(u"Once more?"_s));
        }
        const auto rebuilt = f.reopened();
        const auto expectTurnsFrom = [&](int firstTurn) {
            QCOMPARE(rebuilt->earlierTurnCount(), firstTurn);
            QCOMPARE(rebuilt->size(), 2 * (turns - firstTurn));
            QCOMPARE(rebuilt->at(0).traceNode, f.trace.roots().at(firstTurn));
            QCOMPARE(rebuilt->at(1).text, u"Answer %1"_s.arg(firstTurn));
        };
        expectTurnsFrom(15);
        if (QTest::currentTestFailed())
            return;

        QSignalSpy inserted(rebuilt.get(), &QAbstractItemModel::rowsInserted);
        rebuilt->showEarlierTurns(10);
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(signalledRows(inserted.at(0)), (QList<int>{0, 19}));
        expectTurnsFrom(5);
        if (QTest::currentTestFailed())
            return;
        rebuilt->showEarlierTurns();
        expectTurnsFrom(0);
        QVERIFY(!rebuilt->hasEarlierMessages());
        QCOMPARE(withoutTurnIds(rebuilt->rows()), withoutTurnIds(f.rows.rows()));
    }

    void revealingANodeOfATurnNotShownYetShowsTheTurnsUpToIt()
    {
        Fixture f;
        constexpr int turns = 2 * ConversationRows::TurnsPerPage + 5;
        for (int i = 0; i < turns; ++i) {
            f.client.enqueue(ScriptedModelClient::text(u"Answer %1"_s.arg(i)));
            QVERIFY(f.ask(u"Question %1"_s.arg(i)));
        }
        const auto rebuilt = f.reopened();
        const int answer = nodesOfKind(f.trace, TraceKind::ModelCall, f.trace.roots().at(3)).value(0);
        QCOMPARE(rebuilt->rowOfTraceNode(answer), -1);

        const int row = rebuilt->revealTraceNode(answer);

        // From its turn on, and no earlier.
        QCOMPARE(rebuilt->earlierTurnCount(), 3);
        QCOMPARE(row, 1);
        QCOMPARE(rebuilt->at(row).text, u"Answer 3"_s);
        QCOMPARE(rebuilt->at(0).traceNode, f.trace.roots().at(3));
        // A node already shown pages nothing in.
        const auto shown = f.reopened();
        QCOMPARE(shown->revealTraceNode(f.trace.roots().last()), shown->size() - 2);
        QCOMPARE(shown->earlierTurnCount(), turns - ConversationRows::TurnsPerPage);
    }

    void aNodeWithoutARowFindsTheNearestOne_data()
    {
        QTest::addColumn<TraceKind>("kind");
        QTest::addColumn<int>("occurrence");
        QTest::addColumn<int>("expectedRow");
        QTest::newRow("an iteration shows as its first row inside") << TraceKind::Iteration << 0 << 1;
        QTest::newRow("the second iteration as its tool call") << TraceKind::Iteration << 1 << 4;
        QTest::newRow("a model call without text as its tool call") << TraceKind::ModelCall << 1 << 4;
    }
    void aNodeWithoutARowFindsTheNearestOne()
    {
        QFETCH(TraceKind, kind);
        QFETCH(int, occurrence);
        QFETCH(int, expectedRow);
        Fixture f;
        runParallelToolTurn(f);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(f.rows.rowOfTraceNode(nodesOfKind(f.trace, kind).value(occurrence, -1)), expectedRow);
    }

    void aModelCallShowsAsWhatItProduced_data()
    {
        QTest::addColumn<TraceKind>("kind");
        QTest::addColumn<int>("occurrence");
        QTest::addColumn<int>("expectedRow");
        // Rows: the question, add(1, 2), add(3, 4), add(3, 7), the answer.
        QTest::newRow("the question node as the question") << TraceKind::Turn << 0 << 0;
        QTest::newRow("a call that asked only for two tools as the first one's card")
            << TraceKind::ModelCall << 0 << 1;
        QTest::newRow("a call that asked only for one tool as its card") << TraceKind::ModelCall << 1 << 3;
        QTest::newRow("a call that answered in text as its answer") << TraceKind::ModelCall << 2 << 4;
    }
    void aModelCallShowsAsWhatItProduced()
    {
        QFETCH(TraceKind, kind);
        QFETCH(int, occurrence);
        QFETCH(int, expectedRow);
        Fixture f;
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s),
                               ScriptedModelClient::call(u"c2"_s, u"add"_s, u"{\"a\":3,\"b\":4}"_s)}),
                          ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c3"_s, u"add"_s, u"{\"a\":3,\"b\":7}"_s)}),
                          ScriptedModelClient::text(u"The sum is 10."_s)});
        QVERIFY(f.ask(u"What is 1 + 2 + 3 + 4?"_s));
        QCOMPARE(f.rows.size(), 5);
        const int node = nodesOfKind(f.trace, kind).value(occurrence, -1);
        QVERIFY(node >= 0);

        QCOMPARE(f.rows.rowOfTraceNode(node), expectedRow);
        // A reopened session finds the same row.
        QCOMPARE(f.reopened()->rowOfTraceNode(node), expectedRow);
    }

    void clearingRemovesEveryRow()
    {
        Fixture f;
        runParallelToolTurn(f);
        QSignalSpy reset(&f.rows, &QAbstractItemModel::modelReset);
        f.rows.clear();
        QCOMPARE(reset.size(), 1);
        QCOMPARE(f.rows.size(), 0);
        QCOMPARE(f.rows.rowCount(), 0);
        QCOMPARE(f.rows.lastTurn(), -1);
    }

    // The states the call's row goes through, from the step debugger holding it to its end.
    void aToolCallHeldAtABreakpointIsHeldUntilLetGo_data()
    {
        QTest::addColumn<QString>("release");
        QTest::addColumn<QStringList>("states");

        QTest::newRow("continue runs it")
            << u"continue"_s << QStringList{u"Held"_s, u"Running"_s, u"Succeeded"_s};
        QTest::newRow("denied, it never runs") << u"deny"_s << QStringList{u"Held"_s, u"Denied"_s};
        QTest::newRow("a result typed by hand") << u"result"_s << QStringList{u"Held"_s, u"Succeeded"_s};
        QTest::newRow("the turn is stopped") << u"stop"_s << QStringList{u"Held"_s, u"Cancelled"_s};
    }

    void aToolCallHeldAtABreakpointIsHeldUntilLetGo()
    {
        QFETCH(QString, release);
        QFETCH(QStringList, states);

        Fixture f;
        StepDebugger debugger;
        f.agent.addInterceptor(&debugger);
        const auto detach = qScopeGuard([&] {
            f.agent.cancel();
            f.agent.removeInterceptor(&debugger);
        });
        QObject::connect(&f.agent, &Agent::event, &debugger, &StepDebugger::observe);
        debugger.setBreakpoints({.toolNames = {u"add"_s}});
        debugger.setEnabled(true);
        QStringList seen; // from the first hold on
        QObject::connect(&f.rows, &QAbstractItemModel::dataChanged, &f.rows, [&](const QModelIndex &index) {
            const Row &row = f.rows.at(index.row());
            const QString state = stateName(row.toolState);
            if (row.kind == Row::Kind::ToolCall
                && (seen.isEmpty() ? state == u"Held"_s : seen.constLast() != state))
                seen.append(state);
        });
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"3"_s)});
        QVERIFY(f.agent.send(u"1 + 2?"_s));
        QTRY_VERIFY(debugger.isPaused());
        const int row = f.rows.rowOfToolCall(u"c1"_s);
        QCOMPARE(f.rows.at(row).toolState, Row::ToolState::Held);
        QVERIFY(!f.rows.at(row).hasResult());

        if (release == u"deny"_s)
            QVERIFY(debugger.deny());
        else if (release == u"result"_s)
            QVERIFY(debugger.supplyResult(ToolResult::success(u"3"_s)));
        if (release == u"stop"_s) {
            f.agent.cancel();
            debugger.forgetHeld();
        } else {
            debugger.resume();
        }
        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(seen, states);
    }

    void aToolCallWaitingForApprovalIsNotHeld()
    {
        Fixture f;
        ToolApprovalPolicy approvals;
        approvals.setDefaultRule(ToolApprovalPolicy::Rule::Ask);
        f.agent.addInterceptor(&approvals);
        const auto detach = qScopeGuard([&] {
            f.agent.cancel();
            f.agent.removeInterceptor(&approvals);
        });
        f.client.enqueue({ScriptedModelClient::calls(
                              {ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{\"a\":1,\"b\":2}"_s)}),
                          ScriptedModelClient::text(u"3"_s)});
        QVERIFY(f.agent.send(u"1 + 2?"_s));
        QTRY_COMPARE(approvals.pending().size(), 1);
        // The approval form in the chat says it waits; the row stays as it was.
        QCOMPARE(f.rows.at(f.rows.rowOfToolCall(u"c1"_s)).toolState, Row::ToolState::Running);
        QVERIFY(approvals.allowOnce(u"c1"_s));
        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.rows.at(f.rows.rowOfToolCall(u"c1"_s)).toolState, Row::ToolState::Succeeded);
    }
};

QTEST_MAIN(ConversationRowsTest)
#include "tst_conversationrows.moc"
