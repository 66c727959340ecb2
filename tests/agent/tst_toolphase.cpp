#include "agent/loop/toolphase.h"
#include "agent/tools/builtin/currenttimetool.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"

#include <QDeadlineTimer>
#include <QMutex>
#include <QPromise>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QWaitCondition>

#include <atomic>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

ToolCall call(const QString &id, const QString &name, const QString &arguments = u"{}"_s)
{
    ToolCall c;
    c.id = id;
    c.name = name;
    c.arguments = arguments;
    return c;
}

// Keeps every decision for the test to make later.
class HoldingInterceptor final : public Interceptor
{
public:
    QList<ToolCallCheckpoint> checkpoints;
    QList<ToolCallDecision> decisions;

    void interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision) override
    {
        checkpoints.append(checkpoint);
        decisions.append(decision);
    }
};

// Time that moves only when the test says so.
class ManualClock final : public Clock
{
public:
    qint64 nowUs() const override { return m_nowUs; }
    void advanceMs(qint64 ms) { m_nowUs += ms * 1000; }

private:
    qint64 m_nowUs = 1'000'000;
};

// A tool phase as the Agent drives it: one open iteration of one turn.
struct Fixture
{
    static constexpr TurnToken token{1, 1};

    Workbench workbench;
    Trace trace;
    TurnGate gate;
    QList<Interceptor *> interceptors;
    ToolPhase phase{&workbench, &trace, &gate, interceptors};
    QSignalSpy finished{&phase, &ToolPhase::finished};
    QSignalSpy events{&phase, &ToolPhase::event};
    int iterationNode = trace.begin(-1, TraceKind::Iteration, u"Iteration 1"_s, 0, IterationData{});

    Fixture() { gate.open(token); }

    void addTool(const QString &name, FunctionTool::Function function, ToolBehaviour behaviour = {})
    {
        workbench.add(std::make_shared<FunctionTool>(
            ToolSchema{name, name + u" tool"_s, QJsonObject{{u"type"_s, u"object"_s}}}, std::move(function),
            behaviour));
    }
    // A tool that answers later: \a function starts it on this thread and returns its future.
    void addAsyncTool(const QString &name, AsyncFunctionTool::Function function, ToolBehaviour behaviour = {})
    {
        workbench.add(std::make_shared<AsyncFunctionTool>(
            ToolSchema{name, name + u" tool"_s, QJsonObject{{u"type"_s, u"object"_s}}}, std::move(function),
            behaviour));
    }
    void start(const QList<ToolCall> &calls, int maxParallel = 4)
    {
        AgentConfig config;
        config.maxParallelTools = maxParallel;
        phase.start(token, calls, iterationNode, config);
    }
    QStringList resultOrder() const
    {
        QStringList ids;
        for (const QList<QVariant> &args : events) {
            const auto e = args.first().value<AgentEvent>();
            if (e.kind == AgentEvent::Kind::ToolResult)
                ids.append(e.toolCall.id);
        }
        return ids;
    }
    QStringList resultTexts() const
    {
        QStringList texts;
        for (const ToolPhase::FinishedCall &finished : phase.results())
            texts.append(finished.result.content);
        return texts;
    }
};

// A tool that writes the "file" its arguments name: calls for the same file share an exclusive key.
class FileWritingTool final : public Tool
{
public:
    struct Log
    {
        QMutex mutex;
        QStringList entries; // "start id" and "end id", in the order they happened
        void add(const QString &entry)
        {
            QMutexLocker lock(&mutex);
            entries.append(entry);
        }
    };

    explicit FileWritingTool(Log *log)
        : m_log(log)
    {}

    ToolSchema schema() const override
    {
        return {u"write"_s, u"write tool"_s, QJsonObject{{u"type"_s, u"object"_s}}};
    }
    QString exclusiveKey(const QJsonObject &arguments) const override
    {
        return arguments.value(u"file"_s).toString();
    }
    ToolResult invoke(const QJsonObject &arguments, ToolContext &) const override
    {
        const QString id = arguments.value(u"id"_s).toString();
        m_log->add(u"start "_s + id);
        QThread::msleep(arguments.value(u"ms"_s).toInt());
        m_log->add(u"end "_s + id);
        return ToolResult::success(id);
    }

private:
    Log *m_log;
};

ToolCall writeCall(const QString &id, const QString &file, int ms)
{
    return call(id, u"write"_s, u"{\"id\":\"%1\",\"file\":\"%2\",\"ms\":%3}"_s.arg(id, file).arg(ms));
}

// An asynchronous tool's call the test answers (or not) itself, with what reached its cancel hook.
struct LaterCall
{
    std::shared_ptr<QPromise<ToolResult>> promise = std::make_shared<QPromise<ToolResult>>();
    std::shared_ptr<ToolContext> context;
    bool cancelled = false;
    QThread *startedOn = nullptr;

    QFuture<ToolResult> start(std::shared_ptr<ToolContext> toolContext)
    {
        startedOn = QThread::currentThread();
        context = std::move(toolContext);
        context->onCancelled([this] { cancelled = true; });
        promise->start();
        return promise->future();
    }
    void answer(const ToolResult &result)
    {
        promise->addResult(result);
        promise->finish();
    }
    // Offers this call as the fixture's tool "later".
    void addTo(Fixture &fixture, ToolBehaviour behaviour = {})
    {
        fixture.addAsyncTool(
            u"later"_s,
            [this](const QJsonObject &, std::shared_ptr<ToolContext> toolContext) {
                return start(std::move(toolContext));
            },
            behaviour);
    }
};

// One call of a tool that counts its runs, held at an interceptor until the test decides.
struct HeldCall : Fixture
{
    HoldingInterceptor interceptor;
    std::atomic_int runs = 0;

    HeldCall()
    {
        interceptors.append(&interceptor);
        addTool(u"count"_s, [this](const QJsonObject &, ToolContext &) {
            ++runs;
            return ToolResult::success(u"ran"_s);
        });
        start({call(u"a"_s, u"count"_s)});
        QCOMPARE(interceptor.decisions.size(), 1);
    }
};

} // namespace

class ToolPhaseTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<AgentEvent>(); }

    void resultsKeepTheModelsOrderThoughTheyArriveAsCallsFinish()
    {
        Fixture f;
        f.addTool(u"echo"_s, [](const QJsonObject &args, ToolContext &) {
            QThread::msleep(args.value(u"ms"_s).toInt());
            return ToolResult::success(u"slept %1"_s.arg(args.value(u"ms"_s).toInt()));
        });

        f.start(
            {call(u"slow"_s, u"echo"_s, uR"({"ms":300})"_s), call(u"fast"_s, u"echo"_s, uR"({"ms":0})"_s)});

        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.resultOrder(), (QStringList{u"fast"_s, u"slow"_s}));
        QCOMPARE(f.resultTexts(), (QStringList{u"slept 300"_s, u"slept 0"_s}));
        QVERIFY(!f.phase.isActive());
    }

    void noMoreCallsRunAtOnceThanTheLimit_data()
    {
        QTest::addColumn<int>("limit");
        QTest::newRow("one after another") << 1;
        QTest::newRow("two at a time") << 2;
        QTest::newRow("all four at once") << 4;
    }

    void noMoreCallsRunAtOnceThanTheLimit()
    {
        QFETCH(int, limit);
        Fixture f;
        // Each call waits until as many calls as may overlap are inside: a phase
        // that starts too many shows a peak above the limit.
        QMutex mutex;
        QWaitCondition entered;
        int inside = 0;
        int peak = 0;
        f.addTool(u"wait"_s, [&](const QJsonObject &, ToolContext &) {
            QMutexLocker lock(&mutex);
            peak = std::max(peak, ++inside);
            entered.wakeAll();
            QDeadlineTimer deadline(2000);
            while (inside < limit && !deadline.hasExpired())
                entered.wait(&mutex, deadline);
            lock.unlock();
            QThread::msleep(20);
            lock.relock();
            --inside;
            return ToolResult::success(u"done"_s);
        });
        QList<ToolCall> calls;
        for (int i = 0; i < 4; ++i)
            calls.append(call(u"w%1"_s.arg(i), u"wait"_s, u"{\"n\":%1}"_s.arg(i)));

        f.start(calls, limit);

        QTRY_COMPARE_WITH_TIMEOUT(f.finished.size(), 1, 20000);
        QCOMPARE(peak, limit);
        QCOMPARE(f.resultTexts(), QStringList(4, u"done"_s));
    }

    void twoWritesOfTheSameFileRunOneAfterTheOtherInCallOrder()
    {
        Fixture f;
        FileWritingTool::Log log;
        f.workbench.add(std::make_shared<FileWritingTool>(&log));

        // a1 is slow; a2 (same file) must wait for it; b (another file) runs beside both.
        f.start({writeCall(u"a1"_s, u"a.txt"_s, 300), writeCall(u"a2"_s, u"a.txt"_s, 0),
                 writeCall(u"b"_s, u"b.txt"_s, 0)});

        QTRY_COMPARE(f.finished.size(), 1);
        const QStringList entries = log.entries;
        QVERIFY2(entries.indexOf(u"end a1"_s) < entries.indexOf(u"start a2"_s),
                 qPrintable(entries.join(u", ")));
        QVERIFY2(entries.indexOf(u"end b"_s) < entries.indexOf(u"end a1"_s), qPrintable(entries.join(u", ")));
        QCOMPARE(f.resultTexts(), (QStringList{u"a1"_s, u"a2"_s, u"b"_s}));
    }

    void aWriteWaitsForAnEarlierWriteOfTheSameFileThatIsStillBeingDecided()
    {
        Fixture f;
        HoldingInterceptor interceptor;
        f.interceptors.append(&interceptor);
        FileWritingTool::Log log;
        f.workbench.add(std::make_shared<FileWritingTool>(&log));

        f.start({writeCall(u"first"_s, u"same.txt"_s, 0), writeCall(u"second"_s, u"same.txt"_s, 0)});
        QCOMPARE(interceptor.decisions.size(), 2);
        interceptor.decisions.at(1).allow(); // the user answers the second card first
        QTest::qWait(100);
        QCOMPARE(log.entries, QStringList()); // the second waits for the first

        interceptor.decisions.at(0).deny();
        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(log.entries, (QStringList{u"start second"_s, u"end second"_s}));
        QVERIFY(f.phase.results().at(0).denied);
        QCOMPARE(f.phase.results().at(1).result, ToolResult::success(u"second"_s));
    }

    void aCallThatTimesOutFailsWhileTheOthersFinish()
    {
        Fixture f;
        std::atomic_bool sawCancel = false;
        ToolBehaviour shortLimit;
        shortLimit.timeoutMs = 100;
        f.addTool(
            u"hang"_s,
            [&sawCancel](const QJsonObject &, ToolContext &context) {
                QDeadlineTimer deadline(5000);
                while (!context.isCancelled() && !deadline.hasExpired())
                    QThread::msleep(5);
                sawCancel = context.isCancelled();
                return ToolResult::success(u"too late"_s);
            },
            shortLimit);
        f.addTool(u"quick"_s,
                  [](const QJsonObject &, ToolContext &) { return ToolResult::success(u"42"_s); });

        f.start({call(u"h"_s, u"hang"_s), call(u"q"_s, u"quick"_s)});

        QTRY_COMPARE(f.finished.size(), 1);
        const QList<ToolPhase::FinishedCall> results = f.phase.results();
        QVERIFY(results.at(0).result.isError);
        QVERIFY(results.at(0).result.content.contains(u"time limit of 0.1 s"_s));
        QCOMPARE(results.at(1).result, ToolResult::success(u"42"_s));
        QTRY_VERIFY(sawCancel);
        // The stopped tool's late answer changes nothing.
        QTest::qWait(50);
        QCOMPARE(f.resultOrder(), (QStringList{u"q"_s, u"h"_s}));
        QCOMPARE(f.finished.size(), 1);
    }

    void aToolThatEndsTheLoopAsksOnlyWhenItSucceeds_data()
    {
        QTest::addColumn<bool>("fails");
        QTest::addColumn<bool>("endsLoop");
        QTest::newRow("succeeds: the loop stops") << false << true;
        QTest::newRow("fails: the model may try again") << true << false;
    }

    void aToolThatEndsTheLoopAsksOnlyWhenItSucceeds()
    {
        QFETCH(bool, fails);
        QFETCH(bool, endsLoop);
        Fixture f;
        ToolBehaviour stop;
        stop.endsLoop = true;
        f.addTool(
            u"submit"_s,
            [fails](const QJsonObject &, ToolContext &) {
                return fails ? ToolResult::failure(u"rejected"_s) : ToolResult::success(u"sent"_s);
            },
            stop);
        f.addTool(u"quick"_s,
                  [](const QJsonObject &, ToolContext &) { return ToolResult::success(u"42"_s); });

        f.start({call(u"q"_s, u"quick"_s), call(u"s"_s, u"submit"_s)});

        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.phase.results().at(0).endsLoop, false);
        QCOMPARE(f.phase.results().at(1).endsLoop, endsLoop);
    }

    void decisionsFindTheirCallByIdInAnyOrder()
    {
        Fixture f;
        HoldingInterceptor interceptor;
        f.interceptors.append(&interceptor);
        f.addTool(u"echo"_s, [](const QJsonObject &args, ToolContext &) {
            return ToolResult::success(args.value(u"say"_s).toString());
        });

        f.start({call(u"a"_s, u"echo"_s, uR"({"say":"first"})"_s),
                 call(u"b"_s, u"echo"_s, uR"({"say":"second"})"_s)});
        QCOMPARE(interceptor.decisions.size(), 2);
        QCOMPARE(interceptor.checkpoints.at(1).call.id, u"b"_s);

        interceptor.decisions.at(1).deny(u"not now"_s);
        interceptor.decisions.at(0).allow();

        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.resultTexts(), (QStringList{u"first"_s, u"Denied by the user: not now"_s}));
        QCOMPARE(f.trace.node(interceptor.checkpoints.at(1).traceNode).status, TraceStatus::Denied);
    }

    void callsThatShareAnIdAreEachDecidedAndRunOnTheirOwn()
    {
        // Some servers number calls per response ("call_0" in every response, or twice in one):
        // each call is still its own, decided and answered on its own.
        Fixture f;
        HoldingInterceptor interceptor;
        f.interceptors.append(&interceptor);
        f.addTool(u"echo"_s, [](const QJsonObject &args, ToolContext &) {
            return ToolResult::success(args.value(u"say"_s).toString());
        });

        f.start({call(u"call_0"_s, u"echo"_s, uR"({"say":"first"})"_s),
                 call(u"call_0"_s, u"echo"_s, uR"({"say":"second"})"_s)});
        QCOMPARE(interceptor.decisions.size(), 2);

        interceptor.decisions.at(1).allow();
        interceptor.decisions.at(0).deny(u"not this one"_s);

        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.resultTexts(), (QStringList{u"Denied by the user: not this one"_s, u"second"_s}));
        QCOMPARE(f.trace.node(interceptor.checkpoints.at(0).traceNode).status, TraceStatus::Denied);
        QCOMPARE(f.trace.node(interceptor.checkpoints.at(1).traceNode).status, TraceStatus::Ok);
    }

    void waitingForADecisionIsItsOwnSpanNotTheTools_data()
    {
        QTest::addColumn<bool>("allow");
        QTest::addColumn<TraceStatus>("waitStatus");
        QTest::addColumn<QString>("decision");
        QTest::addColumn<TraceStatus>("callStatus");
        QTest::newRow("allowed after 7 s") << true << TraceStatus::Ok << u"allowed"_s << TraceStatus::Ok;
        QTest::newRow("denied after 7 s")
            << false << TraceStatus::Denied << u"denied"_s << TraceStatus::Denied;
    }

    void waitingForADecisionIsItsOwnSpanNotTheTools()
    {
        QFETCH(bool, allow);
        QFETCH(TraceStatus, waitStatus);
        QFETCH(QString, decision);
        QFETCH(TraceStatus, callStatus);
        Fixture f;
        auto clock = std::make_shared<ManualClock>();
        f.phase.setClock(clock);
        HoldingInterceptor interceptor;
        f.interceptors.append(&interceptor);
        std::atomic_int runs = 0;
        f.addTool(u"count"_s, [&runs](const QJsonObject &, ToolContext &) {
            ++runs;
            return ToolResult::success(u"ran"_s);
        });
        f.start({call(u"a"_s, u"count"_s)});
        const int callNode = interceptor.checkpoints.constFirst().traceNode;
        const QList<int> children = f.trace.childrenOf(callNode);
        QCOMPARE(children.size(), 1);
        const int wait = children.constFirst();
        QCOMPARE(f.trace.node(wait).kind, TraceKind::Wait);
        QCOMPARE(f.trace.node(wait).status, TraceStatus::Running);
        QCOMPARE(f.trace.node(wait).label, u"Waiting for a decision"_s);
        const qint64 askedUs = f.trace.node(wait).startedUs;

        clock->advanceMs(7000); // the user thinks it over
        const qint64 decidedUs = clock->nowUs();
        if (allow)
            interceptor.decisions.constFirst().allow();
        else
            interceptor.decisions.constFirst().deny();
        QTRY_COMPARE(f.finished.size(), 1);

        const TraceNode &waitNode = f.trace.node(wait);
        QCOMPARE(waitNode.status, waitStatus);
        QCOMPARE(waitNode.data<WaitData>().decision, decision);
        QCOMPARE(waitNode.endedUs - askedUs, 7'000'000); // the 7 s are the wait's
        const TraceNode &call = f.trace.node(callNode);
        QCOMPARE(call.status, callStatus);
        QVERIFY2(call.startedUs >= decidedUs, "the tool's own time starts when the decision came");
        QCOMPARE(runs.load(), allow ? 1 : 0);
    }

    void anInterceptorThatDecidesAtOnceLeavesNoWait()
    {
        Fixture f;
        f.addTool(u"quick"_s, [](const QJsonObject &, ToolContext &) { return ToolResult::success(u"1"_s); });
        f.start({call(u"q"_s, u"quick"_s)});
        QTRY_COMPARE(f.finished.size(), 1);
        for (int node = 0; node < f.trace.size(); ++node)
            QVERIFY(f.trace.node(node).kind != TraceKind::Wait);
    }

    void aCallCancelledWhileHeldEndsItsWaitAsCancelled()
    {
        HeldCall f;
        const int wait = f.trace.childrenOf(f.interceptor.checkpoints.constFirst().traceNode).constFirst();
        f.phase.cancel(u"Cancelled by the user before the tool finished."_s);
        QCOMPARE(f.trace.node(wait).status, TraceStatus::Cancelled);
        QCOMPARE(f.trace.node(wait).data<WaitData>().decision, u"cancelled"_s);
    }

    void pausedTimeoutsLetAToolWaitForAPersonAndThenGoOn()
    {
        Fixture f;
        QSemaphore release;
        ToolBehaviour shortLimit;
        shortLimit.timeoutMs = 150;
        f.addTool(
            u"asks"_s,
            [&release](const QJsonObject &, ToolContext &context) {
                while (!release.tryAcquire(1, 5)) {
                    if (context.isCancelled())
                        return ToolResult::failure(u"cancelled"_s);
                }
                return ToolResult::success(u"answered"_s);
            },
            shortLimit);
        f.start({call(u"a"_s, u"asks"_s)});
        f.phase.pauseTimeouts(true); // the tool's question reached a person

        QTest::qWait(400); // far beyond the limit: still waiting, not timed out
        QCOMPARE(f.finished.size(), 0);
        release.release();
        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.phase.results().constFirst().result, ToolResult::success(u"answered"_s));
    }

    void resumedTimeoutsStillEndACallThatHangs()
    {
        Fixture f;
        ToolBehaviour shortLimit;
        shortLimit.timeoutMs = 150;
        f.addTool(
            u"hang"_s,
            [](const QJsonObject &, ToolContext &context) {
                QDeadlineTimer deadline(5000);
                while (!context.isCancelled() && !deadline.hasExpired())
                    QThread::msleep(5);
                return ToolResult::success(u"too late"_s);
            },
            shortLimit);
        f.start({call(u"h"_s, u"hang"_s)});
        f.phase.pauseTimeouts(true);
        QTest::qWait(200);
        QCOMPARE(f.finished.size(), 0);
        f.phase.pauseTimeouts(false);
        QTRY_COMPARE(f.finished.size(), 1);
        QVERIFY(f.phase.results().constFirst().result.content.contains(u"time limit of 0.15 s"_s));
    }

    void aDecisionAfterCancellationIsIgnored()
    {
        HeldCall f;

        f.phase.cancel(u"Cancelled by the user before the tool finished."_s);
        f.gate.close(); // as the Agent does when the turn ends
        const qsizetype eventsAtCancel = f.events.size();
        f.interceptor.decisions.constFirst().allow();
        QTest::qWait(50);

        QCOMPARE(f.runs.load(), 0);
        QCOMPARE(f.events.size(), eventsAtCancel);
        QCOMPARE(f.finished.size(), 0);
        QVERIFY(!f.phase.isActive());
        QCOMPARE(f.resultTexts(), QStringList{u"Cancelled by the user before the tool finished."_s});
    }

    void asynchronousToolsWaitWithoutHoldingAPoolThread()
    {
        // More calls at once than the pool has threads: blocked threads could not all be waiting together.
        const int calls = 3 * std::max(8, QThread::idealThreadCount());
        Fixture f;
        int waiting = 0;
        int mostWaiting = 0;
        QThread *startedOn = nullptr;
        f.addAsyncTool(u"later"_s, [&](const QJsonObject &args, std::shared_ptr<ToolContext>) {
            startedOn = QThread::currentThread();
            mostWaiting = std::max(mostWaiting, ++waiting);
            const auto promise = std::make_shared<QPromise<ToolResult>>();
            promise->start();
            QTimer::singleShot(200, &f.phase, [promise, &waiting, id = args.value(u"id"_s).toInt()] {
                --waiting;
                promise->addResult(ToolResult::success(u"answer %1"_s.arg(id)));
                promise->finish();
            });
            return promise->future();
        });
        QList<ToolCall> batch;
        for (int i = 0; i < calls; ++i)
            batch.append(call(u"c%1"_s.arg(i), u"later"_s, uR"({"id":%1})"_s.arg(i)));

        f.start(batch, calls);

        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(mostWaiting, calls);
        QCOMPARE(startedOn, QThread::currentThread());
        const QList<ToolPhase::FinishedCall> results = f.phase.results();
        QCOMPARE(results.size(), calls);
        for (int i = 0; i < calls; ++i) {
            QVERIFY(!results.at(i).result.isError);
            QCOMPARE(results.at(i).result.content, u"answer %1"_s.arg(i));
        }
    }

    void cancellingThePhaseReachesAnAsynchronousToolsCancelHook()
    {
        Fixture f;
        LaterCall later;
        later.addTo(f);
        f.start({call(u"a"_s, u"later"_s)});
        QTRY_VERIFY(later.context);
        QVERIFY(!later.cancelled);

        f.phase.cancel(u"Cancelled by the user before the tool finished."_s);

        QVERIFY(later.cancelled);
        QVERIFY(later.context->isCancelled());
        const ToolPhase::FinishedCall cancelled = f.phase.results().constFirst();
        QVERIFY(cancelled.result.isError);
        QVERIFY2(cancelled.result.content.contains(u"Cancelled"_s), qPrintable(cancelled.result.content));
        QCOMPARE(f.trace.node(f.trace.node(f.iterationNode).children.constFirst()).status,
                 TraceStatus::Cancelled);
        // A late answer is nobody's: the cancelled result stays.
        later.answer(ToolResult::success(u"too late"_s));
        QTest::qWait(20);
        QCOMPARE(f.phase.results().constFirst().result, cancelled.result);
        QVERIFY(f.finished.isEmpty());
    }

    void progressFromAnAsynchronousToolReachesTheTraceAndTheEvents()
    {
        Fixture f;
        LaterCall later;
        later.addTo(f);
        f.start({call(u"a"_s, u"later"_s)});
        QTRY_VERIFY(later.context);

        later.context->reportProgress(u"halfway"_s);
        QTRY_VERIFY(std::any_of(f.events.cbegin(), f.events.cend(), [](const QList<QVariant> &args) {
            const auto e = args.first().value<AgentEvent>();
            return e.kind == AgentEvent::Kind::ToolProgress && e.text == u"halfway"_s;
        }));
        later.answer(ToolResult::success(u"done"_s));

        QTRY_COMPARE(f.finished.size(), 1);
        const int node = f.trace.node(f.iterationNode).children.constFirst();
        QCOMPARE(f.trace.node(node).data<ToolCallData>().progress, QStringList{u"halfway"_s});
        QCOMPARE(f.phase.results().constFirst().result.content, u"done"_s);
    }

    void theTimeLimitEndsAnAsynchronousToolThatNeverAnswers()
    {
        Fixture f;
        LaterCall later;
        ToolBehaviour quick;
        quick.timeoutMs = 100;
        later.addTo(f, quick);

        f.start({call(u"a"_s, u"later"_s)});

        QTRY_COMPARE(f.finished.size(), 1);
        QVERIFY(later.cancelled);
        const ToolResult result = f.phase.results().constFirst().result;
        QVERIFY(result.isError);
        QVERIFY2(result.content.contains(u"time limit"_s), qPrintable(result.content));
    }

    void anAsynchronousToolThatDropsItsAnswerOrThrowsFails_data()
    {
        QTest::addColumn<bool>("throws");
        QTest::addColumn<QString>("reason");
        QTest::newRow("promise dropped unfinished") << false << u"without an answer"_s;
        QTest::newRow("start throws") << true << u"exception: no socket"_s;
    }

    void anAsynchronousToolThatDropsItsAnswerOrThrowsFails()
    {
        QFETCH(bool, throws);
        QFETCH(QString, reason);
        Fixture f;
        f.addAsyncTool(u"later"_s, [throws](const QJsonObject &, std::shared_ptr<ToolContext>) {
            if (throws)
                throw std::runtime_error("no socket");
            QPromise<ToolResult> promise;
            promise.start();
            return promise.future(); // the promise ends here without a result
        });

        f.start({call(u"a"_s, u"later"_s)});

        QTRY_COMPARE(f.finished.size(), 1);
        const ToolResult result = f.phase.results().constFirst().result;
        QVERIFY(result.isError);
        QVERIFY2(result.content.contains(reason), qPrintable(result.content));
    }

    void anAsynchronousToolWaitsForADecisionLikeABlockingOne()
    {
        Fixture f;
        HoldingInterceptor interceptor;
        f.interceptors.append(&interceptor);
        LaterCall later;
        later.addTo(f);
        f.start({call(u"a"_s, u"later"_s)});
        QCOMPARE(interceptor.decisions.size(), 1);
        QTest::qWait(20);
        QVERIFY(!later.context); // not started while held

        interceptor.decisions.first().allow();
        QTRY_VERIFY(later.context);
        later.answer(ToolResult::success(u"ok"_s));
        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.phase.results().constFirst().result.content, u"ok"_s);
    }

    void aDecisionFromAnEarlierIterationIsIgnored()
    {
        HeldCall f;

        f.gate.open({Fixture::token.turn, Fixture::token.iteration + 1});
        f.interceptor.decisions.constFirst().allow();
        QTest::qWait(50);

        QCOMPARE(f.runs.load(), 0);
        QVERIFY(f.phase.isActive());
    }

    void identicalCallsOfOneResponseAllRun()
    {
        Fixture f;
        std::atomic_int runs = 0;
        f.addTool(u"sleep"_s, [&runs](const QJsonObject &, ToolContext &) {
            ++runs;
            return ToolResult::success(u"slept"_s);
        });
        QList<ToolCall> calls;
        for (int i = 0; i < 4; ++i)
            calls.append(call(u"s%1"_s.arg(i), u"sleep"_s, uR"({"seconds": 1})"_s));

        // Four at once is not a model repeating itself: nothing had answered yet.
        f.start(calls);

        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(runs.load(), 4);
        QCOMPARE(f.resultTexts(), QStringList(4, u"slept"_s));
        for (const int node : f.trace.childrenOf(f.iterationNode))
            QCOMPARE(f.trace.node(node).status, TraceStatus::Ok);
    }

    void callsPastTheCapOfAResponseAreNotRunAndEachIsToldWhy()
    {
        Fixture f;
        std::atomic_int runs = 0;
        f.addTool(u"count"_s, [&runs](const QJsonObject &, ToolContext &) {
            ++runs;
            return ToolResult::success(u"counted"_s);
        });
        QList<ToolCall> calls;
        for (int i = 0; i < 5; ++i)
            calls.append(call(u"c%1"_s.arg(i), u"count"_s, uR"({"n": %1})"_s.arg(i)));
        AgentConfig config;
        config.maxToolCallsPerResponse = 3;

        f.phase.start(Fixture::token, calls, f.iterationNode, config);

        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(runs.load(), 3);
        const QStringList texts = f.resultTexts();
        QCOMPARE(texts.mid(0, 3), QStringList(3, u"counted"_s));
        for (const QString &text : texts.mid(3)) {
            QVERIFY2(text.contains(u"Not executed"_s) && text.contains(u"5 tool calls"_s)
                         && text.contains(u"limit of 3"_s) && text.contains(u"--max-tool-calls"_s),
                     qPrintable(text));
        }
        const QList<ToolPhase::FinishedCall> results = f.phase.results();
        QVERIFY(results.at(3).result.isError && results.at(4).result.isError);
        const QList<int> nodes = f.trace.childrenOf(f.iterationNode);
        QCOMPARE(f.trace.node(nodes.at(2)).status, TraceStatus::Ok);
        QCOMPARE(f.trace.node(nodes.at(3)).status, TraceStatus::Skipped);
        QCOMPARE(f.trace.node(nodes.at(4)).status, TraceStatus::Skipped);
        QCOMPARE(f.resultOrder().size(), 5); // a tool_result event for every call
    }

    void aRepeatAcrossResponsesIsRefusedOnlyWhenItWouldGiveTheSameResult_data()
    {
        QTest::addColumn<bool>("asksFirst");
        QTest::addColumn<bool>("resultVaries");
        QTest::addColumn<int>("runs");
        QTest::newRow("a tool that only reads: the third response's calls are refused")
            << false << false << 2;
        QTest::newRow("a tool with effects, like a command: every call runs") << true << false << 3;
        QTest::newRow("a tool whose answer varies, like the time: every call runs") << false << true << 3;
    }

    void aRepeatAcrossResponsesIsRefusedOnlyWhenItWouldGiveTheSameResult()
    {
        QFETCH(bool, asksFirst);
        QFETCH(bool, resultVaries);
        QFETCH(int, runs);
        ToolBehaviour behaviour;
        behaviour.asksFirst = asksFirst;
        behaviour.resultVaries = resultVaries;
        Fixture f;
        std::atomic_int invocations = 0;
        f.addTool(
            u"look"_s,
            [&invocations](const QJsonObject &, ToolContext &) {
                ++invocations;
                return ToolResult::success(u"seen"_s);
            },
            behaviour);

        // Three responses in a row, each asking twice for the same thing.
        for (int response = 1; response <= 3; ++response) {
            f.start({call(u"a%1"_s.arg(response), u"look"_s, uR"({"what": "x"})"_s),
                     call(u"b%1"_s.arg(response), u"look"_s, uR"({"what":"x"})"_s)});
            QTRY_COMPARE(f.finished.size(), response);
        }

        QCOMPARE(invocations.load(), runs * 2);
        const QStringList last = f.resultTexts();
        const bool refused = runs < 3;
        for (const QString &text : last) {
            QCOMPARE(text.startsWith(u"Not executed"_s), refused);
            if (refused)
                QVERIFY2(text.contains(u"in 3 responses in a row"_s), qPrintable(text));
        }
    }

    void theTimeAskedForInEveryResponseIsNeverRefused()
    {
        Fixture f;
        f.workbench.add(std::make_shared<CurrentTimeTool>());
        for (int response = 1; response <= 4; ++response) {
            f.start(
                {call(u"t%1"_s.arg(response), CurrentTimeTool::Name.toString(), uR"({"timezone":"UTC"})"_s)});
            QTRY_COMPARE(f.finished.size(), response);
            QVERIFY2(!f.phase.results().constFirst().result.isError,
                     qPrintable(f.phase.results().constFirst().result.content));
        }
    }

    void aCallWithEffectsInBetweenStartsTheCountAgain()
    {
        Fixture f;
        std::atomic_int reads = 0;
        f.addTool(u"read"_s, [&reads](const QJsonObject &, ToolContext &) {
            ++reads;
            return ToolResult::success(u"contents"_s);
        });
        ToolBehaviour changesThings;
        changesThings.asksFirst = true;
        f.addTool(
            u"write"_s, [](const QJsonObject &, ToolContext &) { return ToolResult::success(u"written"_s); },
            changesThings);

        // Read, write, read, write, ...: each read may see something new.
        for (int response = 1; response <= 4; ++response) {
            f.start({call(u"r%1"_s.arg(response), u"read"_s, uR"({"file":"a"})"_s),
                     call(u"w%1"_s.arg(response), u"write"_s, uR"({"file":"a"})"_s)});
            QTRY_COMPARE(f.finished.size(), response);
        }

        QCOMPARE(reads.load(), 4);
    }
};

QTEST_GUILESS_MAIN(ToolPhaseTest)
#include "tst_toolphase.moc"
