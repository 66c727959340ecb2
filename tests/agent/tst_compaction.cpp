#include "agent/loop/agent.h"
#include "agent/loop/contextbudget.h"
#include "agent/loop/turnnotices.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "tests/support/scriptedmodelclient.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 Window = 4000;
const QString Summary = u"Notes: the user asked numbered questions; each was answered."_s;

// A provider that counts four characters to a token, as the estimator starts out assuming.
TokenUsage honestUsage(const ModelRequest &request)
{
    return {TokenEstimator::characters(request) / 4, 5};
}

bool isStub(const Message &message)
{
    return message.role == Message::Role::Tool && message.text.startsWith(u"[This result of read"_s);
}

struct Fixture
{
    ScriptedModelClient client;
    Workbench workbench;
    Trace trace;
    Agent agent{&client, &workbench, &trace};
    QSignalSpy finished{&agent, &Agent::turnFinished};
    QSignalSpy events{&agent, &Agent::event};

    explicit Fixture(CompactionStrategy strategy, std::optional<qint64> window = Window)
    {
        AgentConfig config;
        config.maxIterations = 40;
        config.wrapUpIterations = 0;
        config.compaction = strategy;
        config.model.contextWindow = window;
        agent.setConfig(config);
        workbench.add(std::make_shared<FunctionTool>(
            ToolSchema{u"read"_s, u"Reads a page."_s, QJsonObject{{u"type"_s, u"object"_s}}},
            [](const QJsonObject &, ToolContext &) { return ToolResult::success(QString(2000, u'r')); }));
    }

    static bool isSummaryRequest(const ModelRequest &request)
    {
        return request.messages.size() == 2 && request.messages.constFirst().role == Message::Role::System
               && request.messages.constFirst().text == AgentConfig().compactionPrompt;
    }

    // The model reads \a pages pages, one per response, then answers; asked for a summary, it
    // answers with summaryStep.
    void readThenAnswer(int pages)
    {
        client.setResponder([this, pages](const ModelRequest &request) {
            if (isSummaryRequest(request)) {
                summaryRequests.append(request);
                return summaryStep;
            }
            const int sent = ++loopRequests;
            const int page = sent - 1 - firstRequestOfTurn;
            ScriptedModelClient::Step step
                = page < pages ? ScriptedModelClient::calls({ScriptedModelClient::call(
                      u"r%1"_s.arg(sent), u"read"_s, u"{\"page\":%1}"_s.arg(sent))})
                               : ScriptedModelClient::text(u"Done."_s);
            step.response.usage = honestUsage(request);
            return step;
        });
    }

    // The requests of the loop itself, without the summaries'.
    QList<ModelRequest> loopRequestsSent() const
    {
        QList<ModelRequest> sent;
        for (const ModelRequest &request : client.requests()) {
            if (!isSummaryRequest(request))
                sent.append(request);
        }
        return sent;
    }

    TurnResult run(const QString &input)
    {
        firstRequestOfTurn = loopRequests;
        const qsizetype before = finished.size();
        if (!agent.send(input) || !QTest::qWaitFor([&] { return finished.size() > before; }, 20000))
            return {};
        return finished.constLast().first().value<TurnResult>();
    }

    // Asks "Question N: qqq…" for N from \a first to \a last; true when every one was answered.
    bool askNumbered(int first, int last, int characters)
    {
        for (int turn = first; turn <= last; ++turn) {
            if (run(u"Question %1: %2"_s.arg(turn).arg(QString(characters, u'q'))).outcome
                != TurnOutcome::Answered)
                return false;
        }
        return true;
    }

    QList<const TraceNode *> compactions() const
    {
        QList<const TraceNode *> nodes;
        for (int id = 0; id < trace.size(); ++id) {
            if (trace.node(id).kind == TraceKind::Compaction)
                nodes.append(&trace.node(id));
        }
        return nodes;
    }
    int compactionEvents() const
    {
        return int(std::count_if(events.cbegin(), events.cend(), [](const QList<QVariant> &args) {
            return args.first().value<AgentEvent>().kind == AgentEvent::Kind::Compaction;
        }));
    }

    int firstRequestOfTurn = 0;
    int loopRequests = 0;
    ScriptedModelClient::Step summaryStep = ScriptedModelClient::text(Summary, {900, 40});
    QList<ModelRequest> summaryRequests;
};

} // namespace

class TestCompaction : public QObject
{
    Q_OBJECT

private slots:
    void theEstimateCountsEverythingARequestSends();
    void theEstimateFollowsWhatTheProviderCounted_data();
    void theEstimateFollowsWhatTheProviderCounted();
    void oldToolResultsBecomeStubsAndTheHistoryKeepsThem();
    void laterRequestsKeepTheStubsSoTheyCompactRarely();
    void droppingLeavesOutWholeTurnsOldestFirst();
    void autoTrimsThenSummarisesAndDropsOnlyAsTheLastResort_data();
    void autoTrimsThenSummarisesAndDropsOnlyAsTheLastResort();
    void summariseReplacesOlderTurnsWithWhatTheModelWrote();
    void theSummaryUsesTheModelAndPromptTheUserSet();
    void cancellingWhileTheSummaryIsWrittenEndsTheTurn();
    void aRequestThatCannotFitIsRefusedBeforeItIsSent_data();
    void aRequestThatCannotFitIsRefusedBeforeItIsSent();
    void offLeavesNothingOut();
    void withoutAKnownWindowNothingIsChecked();
    void theChatSaysWhatACompactionDidAlsoFromTheTrace();
};

void TestCompaction::theEstimateCountsEverythingARequestSends()
{
    ModelRequest request;
    request.messages = {Message::user(QString(400, u'q'))};
    const qint64 question = TokenEstimator().tokens(request);
    QVERIFY(question >= 100);

    ModelRequest withTools = request;
    withTools.tools.append(
        ToolSchema{u"search"_s, QString(400, u'd'), QJsonObject{{u"type"_s, u"object"_s}}});
    QVERIFY2(TokenEstimator().tokens(withTools) >= question + 100, "tool schemas are sent too");

    ModelRequest withCalls = request;
    withCalls.messages.append(Message::assistant(
        {}, {ScriptedModelClient::call(u"c1"_s, u"w"_s, u"{\"t\":\"%1\"}"_s.arg(QString(400, u'a')))}));
    withCalls.messages.append(
        Message::toolResult(withCalls.messages.last().toolCalls.first(), QString(400, u'r'), false));
    QVERIFY2(TokenEstimator().tokens(withCalls) >= question + 200, "tool calls and results are sent too");
}

void TestCompaction::theEstimateFollowsWhatTheProviderCounted_data()
{
    QTest::addColumn<qint64>("reported");
    QTest::addColumn<qint64>("expected");
    // 4,000 characters: a provider that counted 2,000 tokens makes the next 4,000 characters 2,000.
    QTest::newRow("two characters a token") << qint64(2000) << qint64(2000);
    QTest::newRow("four characters a token") << qint64(1000) << qint64(1000);
    // Nonsense is bounded: one token for 4,000 characters would make every request look empty.
    QTest::newRow("nonsense, too few") << qint64(1) << qint64(500);
    QTest::newRow("nonsense, too many") << qint64(1'000'000) << qint64(4000);
}

void TestCompaction::theEstimateFollowsWhatTheProviderCounted()
{
    QFETCH(qint64, reported);
    QFETCH(qint64, expected);
    TokenEstimator estimator;
    estimator.calibrate(4000, reported);
    Message message = Message::user(QString(4000 - 16, u'x')); // 16: a message's own overhead
    QCOMPARE(TokenEstimator::characters(message), qint64(4000));
    QCOMPARE(estimator.tokens(message), expected);
}

void TestCompaction::oldToolResultsBecomeStubsAndTheHistoryKeepsThem()
{
    Fixture f(CompactionStrategy::TrimToolResults);
    f.readThenAnswer(12);
    const TurnResult result = f.run(u"Read the whole manual."_s);
    QCOMPARE(result.outcome, TurnOutcome::Answered);

    const qint64 threshold = Window * 80 / 100;
    bool sawStub = false;
    for (const ModelRequest &request : f.client.requests()) {
        QVERIFY2(TokenEstimator().tokens(request) <= threshold,
                 qPrintable(u"a request of %1 tokens went out"_s.arg(TokenEstimator().tokens(request))));
        sawStub |= std::any_of(request.messages.cbegin(), request.messages.cend(), isStub);
        // The results the model has not read yet are never trimmed.
        QVERIFY(!isStub(request.messages.constLast()));
    }
    QVERIFY(sawStub);
    // The stub names the call and what it saved.
    const ModelRequest &last = f.client.requests().constLast();
    const auto stub = std::find_if(last.messages.cbegin(), last.messages.cend(), isStub);
    QVERIFY(stub != last.messages.cend());
    QVERIFY(stub->text.contains(stub->toolCallId));
    QVERIFY(stub->text.contains(u"tokens"_s));

    // The conversation keeps every result whole: the session, replay and export see the originals.
    int results = 0;
    for (const Message &message : f.agent.history()) {
        if (message.role == Message::Role::Tool) {
            QCOMPARE(message.text.size(), 2000);
            ++results;
        }
    }
    QCOMPARE(results, 12);

    const QList<const TraceNode *> compactions = f.compactions();
    QVERIFY(!compactions.isEmpty());
    QCOMPARE(f.compactionEvents(), compactions.size());
    const CompactionData &data = compactions.first()->data<CompactionData>();
    QCOMPARE(data.strategy, u"trim-tool-results"_s);
    QCOMPARE(data.window, Window);
    QVERIFY(data.tokensBefore > threshold);
    QVERIFY(data.tokensAfter < data.tokensBefore);
    const QJsonArray replaced = data.details.value(u"replaced"_s).toArray();
    QVERIFY(!replaced.isEmpty());
    QCOMPARE(replaced.first().toObject().value(u"toolName"_s).toString(), u"read"_s);
    QVERIFY(replaced.first().toObject().value(u"replacement"_s).toString().startsWith(u"[This result"_s));
    QCOMPARE(compactions.first()->status, TraceStatus::Ok);
}

void TestCompaction::laterRequestsKeepTheStubsSoTheyCompactRarely()
{
    Fixture f(CompactionStrategy::TrimToolResults);
    f.readThenAnswer(20);
    QCOMPARE(f.run(u"Read everything."_s).outcome, TurnOutcome::Answered);
    const QList<ModelRequest> &requests = f.client.requests();
    // A compaction brings the request well below the threshold, so most requests only add to the one
    // before them and a provider's prompt cache keeps working.
    QVERIFY2(f.compactions().size() <= requests.size() / 3,
             qPrintable(u"%1 compactions in %2 requests"_s.arg(f.compactions().size()).arg(requests.size())));
    int extended = 0;
    for (qsizetype i = 1; i < requests.size(); ++i) {
        const QList<Message> &before = requests.at(i - 1).messages;
        const QList<Message> &after = requests.at(i).messages;
        extended += after.size() > before.size() && after.mid(0, before.size()) == before;
    }
    QCOMPARE(extended, int(requests.size() - 1 - f.compactions().size()));
}

void TestCompaction::droppingLeavesOutWholeTurnsOldestFirst()
{
    Fixture f(CompactionStrategy::DropOldest);
    f.readThenAnswer(1);
    QVERIFY(f.askNumbered(1, 8, 1200));

    const ModelRequest &last = f.client.requests().constLast();
    QVERIFY(TokenEstimator().tokens(last) <= Window * 80 / 100);
    QString problem;
    QVERIFY2(historyIsWellFormed(last.messages, &problem), qPrintable(problem));
    QCOMPARE(last.messages.constFirst().role, Message::Role::User);
    QVERIFY(!last.messages.constFirst().text.startsWith(u"Question 1:"_s));
    QVERIFY(std::any_of(last.messages.cbegin(), last.messages.cend(),
                        [](const Message &m) { return m.text.startsWith(u"Question 8:"_s); }));
    QVERIFY(f.agent.history().constFirst().text.startsWith(u"Question 1:"_s));

    const QList<const TraceNode *> compactions = f.compactions();
    QVERIFY(!compactions.isEmpty());
    const CompactionData &data = compactions.first()->data<CompactionData>();
    QCOMPARE(data.strategy, u"drop-oldest"_s);
    const QJsonObject dropped = data.details.value(u"replaced"_s).toArray().first().toObject();
    QVERIFY(dropped.value(u"dropped"_s).toBool());
    QCOMPARE(dropped.value(u"role"_s).toString(), u"user"_s);
    QVERIFY(dropped.value(u"text"_s).toString().startsWith(u"Question 1:"_s));
}

void TestCompaction::autoTrimsThenSummarisesAndDropsOnlyAsTheLastResort_data()
{
    QTest::addColumn<bool>("summaryFails");
    QTest::addColumn<QString>("lastResort");
    QTest::newRow("the summary is written") << false << u"summarise"_s;
    QTest::newRow("the summary fails") << true << u"drop-oldest"_s;
}

void TestCompaction::autoTrimsThenSummarisesAndDropsOnlyAsTheLastResort()
{
    QFETCH(bool, summaryFails);
    QFETCH(QString, lastResort);
    Fixture f(CompactionStrategy::Auto);
    if (summaryFails)
        f.summaryStep = ScriptedModelClient::failure(u"overloaded"_s, 529);
    f.readThenAnswer(4);
    QCOMPARE(f.run(u"First question."_s).outcome, TurnOutcome::Answered);
    QCOMPARE(f.run(u"Second question."_s).outcome, TurnOutcome::Answered);
    QVERIFY(!f.compactions().isEmpty());
    QCOMPARE(f.compactions().first()->data<CompactionData>().strategy, u"trim-tool-results"_s);
    QVERIFY(f.summaryRequests.isEmpty());
    // Once trimming leaves too little to gain, older turns are summarised (or, when the summary
    // cannot be written, left out).
    QVERIFY(f.askNumbered(3, 12, 800));
    QVERIFY(!f.summaryRequests.isEmpty());
    const QList<const TraceNode *> compactions = f.compactions();
    QVERIFY(std::any_of(compactions.cbegin(), compactions.cend(), [&lastResort](const TraceNode *node) {
        return node->data<CompactionData>().strategy.contains(lastResort);
    }));
    if (!summaryFails) {
        QVERIFY(std::none_of(compactions.cbegin(), compactions.cend(), [](const TraceNode *node) {
            return node->data<CompactionData>().strategy.contains(u"drop-oldest"_s);
        }));
    } else {
        const auto failed = std::find_if(compactions.cbegin(), compactions.cend(), [](const TraceNode *node) {
            return node->data<CompactionData>().details.contains(u"summaryError"_s);
        });
        QVERIFY(failed != compactions.cend());
        QVERIFY((*failed)
                    ->data<CompactionData>()
                    .details.value(u"summaryError"_s)
                    .toString()
                    .contains(u"overloaded"_s));
    }
    for (const ModelRequest &request : f.loopRequestsSent())
        QVERIFY(TokenEstimator().tokens(request) <= Window * 80 / 100);
}

void TestCompaction::summariseReplacesOlderTurnsWithWhatTheModelWrote()
{
    Fixture f(CompactionStrategy::Summarise);
    f.readThenAnswer(0);
    QVERIFY(f.askNumbered(1, 8, 2000));
    QVERIFY(!f.summaryRequests.isEmpty());

    // The summary request holds the older turns and the editable prompt, no tools, not the last two.
    const ModelRequest &asked = f.summaryRequests.constFirst();
    QVERIFY(asked.tools.isEmpty());
    const QString transcript = asked.messages.constLast().text;
    QVERIFY2(transcript.contains(u"Question 1:"_s), qPrintable(transcript.left(200)));
    const int summarisedAt = [&] {
        for (int turn = 8; turn >= 1; --turn) {
            if (transcript.contains(u"Question %1:"_s.arg(turn)))
                return turn;
        }
        return 0;
    }();
    QVERIFY(summarisedAt >= 1);

    // The next request carries the summary in the system message instead of those turns; the last
    // two turns as they were; the conversation keeps every message.
    const QList<ModelRequest> loop = f.loopRequestsSent();
    const ModelRequest &last = loop.constLast();
    QCOMPARE(last.messages.constFirst().role, Message::Role::System);
    QVERIFY(last.messages.constFirst().text.contains(Summary));
    QVERIFY(std::none_of(last.messages.cbegin() + 1, last.messages.cend(),
                         [](const Message &m) { return m.text.startsWith(u"Question 1:"_s); }));
    QVERIFY(std::any_of(last.messages.cbegin(), last.messages.cend(),
                        [](const Message &m) { return m.text.startsWith(u"Question 8:"_s); }));
    QVERIFY(std::any_of(last.messages.cbegin(), last.messages.cend(),
                        [](const Message &m) { return m.text.startsWith(u"Question 7:"_s); }));
    QVERIFY(summarisedAt < 7);
    QString problem;
    QVERIFY2(historyIsWellFormed(last.messages, &problem), qPrintable(problem));
    QCOMPARE(f.agent.history().size(), 16);
    QVERIFY(TokenEstimator().tokens(last) <= Window * 80 / 100);

    // The trace: a Compaction node with the summary and what it replaced, its model call under it.
    const QList<const TraceNode *> compactions = f.compactions();
    const auto summarised = std::find_if(compactions.cbegin(), compactions.cend(), [](const TraceNode *node) {
        return node->data<CompactionData>().strategy.startsWith(u"summarise"_s);
    });
    QVERIFY(summarised != compactions.cend());
    const TraceNode &compaction = **summarised;
    QCOMPARE(compaction.status, TraceStatus::Ok);
    const CompactionData &data = compaction.data<CompactionData>();
    QCOMPARE(data.details.value(u"summary"_s).toString(), Summary);
    QVERIFY(data.tokensAfter < data.tokensBefore);
    const QJsonObject first = data.details.value(u"replaced"_s).toArray().first().toObject();
    QVERIFY(first.value(u"summarised"_s).toBool());
    QVERIFY(first.value(u"text"_s).toString().startsWith(u"Question 1:"_s));
    const QList<int> children = f.trace.childrenOf(compaction.id);
    QCOMPARE(children.size(), 1);
    const TraceNode &call = f.trace.node(children.first());
    QCOMPARE(call.kind, TraceKind::ModelCall);
    QCOMPARE(call.status, TraceStatus::Ok);
    QCOMPARE(call.data<ModelCallData>().response.text, Summary);

    // The summary's text is not the answer: no event streamed it to the chat.
    for (const QList<QVariant> &args : std::as_const(f.events)) {
        const AgentEvent event = args.first().value<AgentEvent>();
        QVERIFY(!(event.kind == AgentEvent::Kind::TextDelta && event.text.contains(u"Notes:"_s)));
    }
}

void TestCompaction::theSummaryUsesTheModelAndPromptTheUserSet()
{
    Fixture f(CompactionStrategy::Summarise);
    AgentConfig config = f.agent.config();
    config.model.model = u"big-model"_s;
    config.compactionModel = u"small-model"_s;
    config.compactionPrompt = u"Summarise in French."_s;
    f.agent.setConfig(config);
    f.client.setResponder([&f](const ModelRequest &request) {
        if (request.messages.constFirst().text == u"Summarise in French."_s) {
            f.summaryRequests.append(request);
            return ScriptedModelClient::text(u"Résumé."_s, {900, 40});
        }
        ScriptedModelClient::Step step = ScriptedModelClient::text(u"Done."_s);
        step.response.usage = honestUsage(request);
        return step;
    });
    QVERIFY(f.askNumbered(1, 8, 2000));
    QVERIFY(!f.summaryRequests.isEmpty());
    QCOMPARE(f.summaryRequests.constFirst().options.model, u"small-model"_s);
    QCOMPARE(f.client.requests().constLast().options.model, u"big-model"_s);
    QVERIFY(f.client.requests().constLast().messages.constFirst().text.contains(u"Résumé."_s));
}

void TestCompaction::cancellingWhileTheSummaryIsWrittenEndsTheTurn()
{
    Fixture f(CompactionStrategy::Summarise);
    f.summaryStep = ScriptedModelClient::hang();
    f.readThenAnswer(0);
    // Six turns fit below the threshold; the seventh needs the older ones summarised.
    QVERIFY(f.askNumbered(1, 6, 2000));
    QVERIFY(f.summaryRequests.isEmpty());
    const qsizetype before = f.finished.size();
    QVERIFY(f.agent.send(u"Question 7: "_s + QString(2000, u'q')));
    QTRY_VERIFY(!f.summaryRequests.isEmpty());
    QVERIFY(f.client.isBusy());
    f.agent.cancel();
    QCOMPARE(f.finished.size(), before + 1);
    QCOMPARE(f.finished.constLast().first().value<TurnResult>().outcome, TurnOutcome::Cancelled);
    QCOMPARE(f.client.cancelCount(), 1);
    for (int id = 0; id < f.trace.size(); ++id)
        QVERIFY(f.trace.node(id).status != TraceStatus::Running);
    // Nothing half-done is kept: the next turn asks for the summary again.
    f.summaryStep = ScriptedModelClient::text(Summary, {900, 40});
    QCOMPARE(f.run(u"Question 8."_s).outcome, TurnOutcome::Answered);
    QVERIFY(f.client.requests().constLast().messages.constFirst().text.contains(Summary));
}

void TestCompaction::aRequestThatCannotFitIsRefusedBeforeItIsSent_data()
{
    QTest::addColumn<CompactionStrategy>("strategy");
    QTest::addColumn<QString>("advice");
    // The refused question stays in the conversation, as a question the provider refused does: only
    // a strategy that drops old turns can leave it out of the next request.
    QTest::addColumn<TurnOutcome>("nextQuestion");
    QTest::newRow("auto") << CompactionStrategy::Auto << u"Even after compaction"_s << TurnOutcome::Answered;
    QTest::newRow("trim-tool-results")
        << CompactionStrategy::TrimToolResults << u"Even after compaction"_s << TurnOutcome::Failed;
    QTest::newRow("summarise") << CompactionStrategy::Summarise << u"Even after compaction"_s
                               << TurnOutcome::Failed;
    QTest::newRow("drop-oldest") << CompactionStrategy::DropOldest << u"Even after compaction"_s
                                 << TurnOutcome::Answered;
    QTest::newRow("off") << CompactionStrategy::Off << u"--compact auto"_s << TurnOutcome::Failed;
}

void TestCompaction::aRequestThatCannotFitIsRefusedBeforeItIsSent()
{
    QFETCH(CompactionStrategy, strategy);
    QFETCH(QString, advice);
    QFETCH(TurnOutcome, nextQuestion);
    Fixture f(strategy);
    f.readThenAnswer(0);
    QCOMPARE(f.run(u"Short."_s).outcome, TurnOutcome::Answered);
    const qsizetype sent = f.client.requests().size();

    // The question alone is larger than the window: nothing may be left out of it.
    const TurnResult result = f.run(QString(Window * 5, u'x'));
    QCOMPARE(result.outcome, TurnOutcome::Failed);
    QCOMPARE(f.client.requests().size(), sent);
    QVERIFY2(result.error.contains(QLocale().toString(Window)), qPrintable(result.error));
    QVERIFY2(result.error.contains(advice), qPrintable(result.error));
    QVERIFY(result.error.contains(u"--context-window"_s));
    bool recorded = false;
    for (int id = 0; id < f.trace.size(); ++id) {
        const TraceNode &node = f.trace.node(id);
        recorded |= node.kind == TraceKind::Error && node.data<ErrorData>().code == u"context_window"_s;
    }
    QVERIFY2(recorded, "the trace says why the turn failed");
    QCOMPARE(f.run(u"Short again."_s).outcome, nextQuestion);
}

void TestCompaction::offLeavesNothingOut()
{
    Fixture f(CompactionStrategy::Off);
    f.readThenAnswer(7);
    QCOMPARE(f.run(u"Read."_s).outcome, TurnOutcome::Answered);
    QVERIFY(f.compactions().isEmpty());
    const ModelRequest &last = f.client.requests().constLast();
    QVERIFY(TokenEstimator().tokens(last) > Window * 80 / 100); // over the threshold, under the window
    QVERIFY(std::none_of(last.messages.cbegin(), last.messages.cend(), isStub));
}

void TestCompaction::withoutAKnownWindowNothingIsChecked()
{
    Fixture f(CompactionStrategy::Auto, std::nullopt);
    f.readThenAnswer(0);
    QCOMPARE(f.run(QString(Window * 5, u'x')).outcome, TurnOutcome::Answered);
    QCOMPARE(f.client.requests().size(), 1);
    QVERIFY(f.compactions().isEmpty());
}

void TestCompaction::theChatSaysWhatACompactionDidAlsoFromTheTrace()
{
    Fixture f(CompactionStrategy::TrimToolResults);
    f.readThenAnswer(12);
    QCOMPARE(f.run(u"Read."_s).outcome, TurnOutcome::Answered);
    const int turn = f.trace.roots().constFirst();

    // A reopened session has only the trace: it says the same, in order, before the answer.
    Trace reopened;
    QVERIFY(reopened.fromJson(f.trace.toJson()));
    const QList<TurnNotice> notices = TurnNotices::ofTurn(reopened, turn);
    const auto divider = std::find_if(notices.cbegin(), notices.cend(), [](const TurnNotice &notice) {
        return notice.kind == TurnNotice::Kind::Compacted;
    });
    QVERIFY(divider != notices.cend());
    QVERIFY(divider->precedesAnswer());
    QCOMPARE(reopened.node(divider->traceNode).kind, TraceKind::Compaction);
    const CompactionData &data = reopened.node(divider->traceNode).data<CompactionData>();
    QCOMPARE(data, f.compactions().first()->data<CompactionData>());
    QVERIFY2(divider->text.contains(QLocale().toString(data.tokensBefore))
                 && divider->text.contains(QLocale().toString(data.tokensAfter)),
             qPrintable(divider->text));
    QVERIFY(divider->text.contains(u"tool result"_s));
}

QTEST_GUILESS_MAIN(TestCompaction)
#include "tst_compaction.moc"
