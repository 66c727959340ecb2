#include "agent/loop/agent.h"
#include "agent/safety/ruleshield.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/clock.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracetiming.h"
#include "tests/support/scriptedmodelclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QPromise>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <QWaitCondition>

#include <atomic>
#include <map>
#include <stdexcept>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using Step = ScriptedModelClient::Step;

Q_DECLARE_METATYPE(Step)

namespace {

// A clock that moves one millisecond each time it is read, so every recorded time is distinct.
class SteppingClock final : public Clock
{
public:
    qint64 nowUs() const override { return m_us += 1000; }

private:
    mutable qint64 m_us = 1'700'000'000'000'000;
};

// A clock the test moves by hand: a person's pause is however long the test says.
class HandClock final : public Clock
{
public:
    qint64 nowUs() const override { return now; }
    qint64 now = 1'700'000'000'000'000;
};

QJsonObject objectSchema(const QJsonObject &properties, const QStringList &required)
{
    return {{u"type"_s, u"object"_s},
            {u"properties"_s, properties},
            {u"required"_s, QJsonArray::fromStringList(required)},
            {u"additionalProperties"_s, false}};
}

const QJsonObject stringProperty{{u"type"_s, u"string"_s}};
const QJsonObject integerProperty{{u"type"_s, u"integer"_s}};

ToolCall call(const QString &id, const QString &name, const QString &arguments = u"{}"_s)
{
    return ScriptedModelClient::call(id, name, arguments);
}

// Counts how often a tool ran, with which arguments, on any thread.
struct Invocations
{
    QMutex mutex;
    QList<QJsonObject> arguments;
    std::atomic_bool sawCancel = false;

    void record(const QJsonObject &args)
    {
        QMutexLocker lock(&mutex);
        arguments.append(args);
    }
    int count()
    {
        QMutexLocker lock(&mutex);
        return int(arguments.size());
    }
};

// The agents a turn may be handed to, each with its own workbench.
class Team final : public AgentTeam
{
public:
    Workbench &add(const QString &name, const QString &instructions, const QString &model = {})
    {
        AgentConfig config;
        config.name = name;
        config.systemPrompt = instructions;
        config.model.model = model;
        configs.insert(name, config);
        return *workbenches.emplace(name, std::make_unique<Workbench>()).first->second;
    }
    std::optional<Member> member(const QString &name) override
    {
        if (!configs.contains(name))
            return std::nullopt;
        return Member{configs.value(name), workbenches.at(name).get(), nullptr};
    }
    QHash<QString, AgentConfig> configs;
    std::map<QString, std::unique_ptr<Workbench>> workbenches;
};

static QStringList toolNames(const ModelRequest &request)
{
    QStringList names;
    for (const ToolSchema &tool : request.tools)
        names.append(tool.name);
    return names;
}

// The tree as a compact string: "turn(iteration(model_call,tool_call))".
QString shape(const Trace &trace, int id)
{
    const TraceNode &node = trace.node(id);
    QString text = traceKindName(node.kind);
    if (!node.children.isEmpty()) {
        QStringList children;
        for (int child : node.children)
            children.append(shape(trace, child));
        text += u'(' + children.join(u',') + u')';
    }
    return text;
}

QList<int> nodesOfKind(const Trace &trace, TraceKind kind)
{
    QList<int> result;
    for (int i = 0; i < trace.size(); ++i) {
        if (trace.node(i).kind == kind)
            result.append(i);
    }
    return result;
}

const Message &lastToolResult(const ModelRequest &request)
{
    for (auto it = request.messages.crbegin(); it != request.messages.crend(); ++it) {
        if (it->role == Message::Role::Tool)
            return *it;
    }
    static const Message none;
    return none;
}

// A test interceptor that records checkpoints and decides through a callback,
// or keeps the decision for the test to make later.
class RecordingInterceptor final : public Interceptor
{
public:
    std::function<void(const ModelCallCheckpoint &, const ModelCallDecision &)> onModelCall;
    std::function<void(const ToolCallCheckpoint &, const ToolCallDecision &)> onToolCall;
    QList<ModelCallCheckpoint> modelCheckpoints;
    QList<ToolCallCheckpoint> toolCheckpoints;
    QList<ModelCallDecision> heldModelDecisions;
    QList<ToolCallDecision> heldToolDecisions;

    void interceptModelCall(const ModelCallCheckpoint &checkpoint, ModelCallDecision decision) override
    {
        modelCheckpoints.append(checkpoint);
        if (onModelCall)
            onModelCall(checkpoint, decision);
        else
            heldModelDecisions.append(decision);
    }
    void interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision) override
    {
        toolCheckpoints.append(checkpoint);
        if (onToolCall)
            onToolCall(checkpoint, decision);
        else
            heldToolDecisions.append(decision);
    }
};

// Every model call goes on at once; the tool calls wait for the test (heldToolDecisions).
void letEveryModelCallThrough(RecordingInterceptor &interceptor)
{
    interceptor.onModelCall = [](const ModelCallCheckpoint &, const ModelCallDecision &d) {
        d.proceed();
    };
}

// The user says no to every tool call and lets every model call through.
void denyEveryToolCall(RecordingInterceptor &interceptor)
{
    letEveryModelCallThrough(interceptor);
    interceptor.onToolCall = [](const ToolCallCheckpoint &, const ToolCallDecision &d) {
        d.deny();
    };
}

} // namespace

class AgentLoopTest : public QObject
{
    Q_OBJECT

private:
    // A fresh agent per test, wired to a scripted client and a traced workbench.
    struct Fixture
    {
        ScriptedModelClient client;
        Workbench workbench;
        Trace trace;
        Agent agent{&client, &workbench, &trace};
        QSignalSpy finished{&agent, &Agent::turnFinished};
        QSignalSpy events{&agent, &Agent::event};

        TurnResult run(const QString &input)
        {
            const int before = int(finished.size());
            if (!agent.send(input))
                return {};
            if (!QTest::qWaitFor([&] { return finished.size() > before; }, 20000))
                return {};
            return finished.constLast().first().value<TurnResult>();
        }
        QList<AgentEvent::Kind> eventKinds() const
        {
            QList<AgentEvent::Kind> kinds;
            for (const QList<QVariant> &args : events)
                kinds.append(args.first().value<AgentEvent>().kind);
            return kinds;
        }
        int firstTurn() const { return trace.roots().constFirst(); }
    };

    static std::shared_ptr<Tool> addTool(Workbench &workbench, const QString &name, const QJsonObject &schema,
                                         FunctionTool::Function function, ToolBehaviour behaviour = {})
    {
        auto tool = std::make_shared<FunctionTool>(ToolSchema{name, name + u" tool"_s, schema},
                                                   std::move(function), behaviour);
        workbench.add(tool);
        return tool;
    }

    static void addInventoryTools(Workbench &workbench)
    {
        addTool(workbench, u"get_price"_s, objectSchema({{u"item"_s, stringProperty}}, {u"item"_s}),
                [](const QJsonObject &args, ToolContext &) {
                    return ToolResult::success(
                        args.value(u"item"_s).toString() == u"widget" ? u"4.20 EUR"_s : u"unknown item"_s);
                });
        addTool(workbench, u"get_inventory"_s, objectSchema({{u"item"_s, stringProperty}}, {u"item"_s}),
                [](const QJsonObject &, ToolContext &) { return ToolResult::success(u"17 in stock"_s); });
    }

    static void addAdder(Workbench &workbench, Invocations *invocations = nullptr,
                         ToolBehaviour behaviour = {})
    {
        addTool(
            workbench, u"add"_s,
            objectSchema({{u"a"_s, integerProperty}, {u"b"_s, integerProperty}}, {u"a"_s, u"b"_s}),
            [invocations](const QJsonObject &args, ToolContext &) {
                if (invocations)
                    invocations->record(args);
                return ToolResult::success(
                    QString::number(args.value(u"a"_s).toInteger() + args.value(u"b"_s).toInteger()));
            },
            behaviour);
    }

    // The triage agent of the fixture, which may hand the turn to billing.
    static void makeTriage(Fixture &f, Team &team)
    {
        AgentConfig triage;
        triage.name = u"triage"_s;
        triage.systemPrompt = u"You route questions."_s;
        f.agent.setConfig(triage);
        addAdder(f.workbench);
        f.workbench.add(std::make_shared<HandoffTool>(u"billing"_s));
        Workbench &billing = team.add(u"billing"_s, u"You answer invoice questions."_s, u"billing-model"_s);
        addInventoryTools(billing);
        f.agent.setTeam(&team);
    }

    // Answers the turn's context when the test says so.
    class HeldContextSource final : public TurnContextSource
    {
    public:
        QFuture<TurnContext> contextFor(const QString &question) const override
        {
            questions.append(question);
            promise = std::make_shared<QPromise<TurnContext>>();
            promise->start();
            return promise->future();
        }
        void answer(const TurnContext &context) const
        {
            promise->addResult(context);
            promise->finish();
        }
        mutable QStringList questions;
        mutable std::shared_ptr<QPromise<TurnContext>> promise;
    };

private slots:
    void initTestCase()
    {
        qRegisterMetaType<TurnResult>();
        qRegisterMetaType<AgentEvent>();
    }

    void threeIterationExampleCallsPriceThenInventoryThenAnswers()
    {
        Fixture f;
        addInventoryTools(f.workbench);
        f.client.enqueue(
            {Step(ScriptedModelClient::calls({call(u"c1"_s, u"get_price"_s, uR"({"item":"widget"})"_s)})),
             ScriptedModelClient::calls({call(u"c2"_s, u"get_inventory"_s, uR"({"item":"widget"})"_s)}),
             ScriptedModelClient::text(u"A widget costs 4.20 EUR and 17 are in stock."_s)});

        const TurnResult result = f.run(u"How much is a widget and do you have it?"_s);

        QCOMPARE(result.outcome, TurnOutcome::Answered);
        QCOMPARE(result.text, u"A widget costs 4.20 EUR and 17 are in stock."_s);
        QCOMPARE(result.iterations, 3);
        QCOMPARE(result.usage, (TokenUsage{30, 15}));
        QVERIFY(!result.wrapUpNoteSent);

        const QList<Message> &history = f.agent.history();
        QCOMPARE(history.size(), 6);
        QCOMPARE(history.at(0), Message::user(u"How much is a widget and do you have it?"_s));
        QCOMPARE(history.at(1).toolCalls.constFirst().name, u"get_price"_s);
        QCOMPARE(history.at(2),
                 Message::toolResult(history.at(1).toolCalls.constFirst(), u"4.20 EUR"_s, false));
        QCOMPARE(history.at(4).text, u"17 in stock"_s);
        QCOMPARE(history.at(5), Message::assistant(u"A widget costs 4.20 EUR and 17 are in stock."_s));
        QVERIFY(historyIsWellFormed(history));

        // The model saw each result, paired with its call, before its next answer.
        QCOMPARE(f.client.requests().size(), 3);
        QCOMPARE(lastToolResult(f.client.requests().at(1)).toolCallId, u"c1"_s);
        QCOMPARE(lastToolResult(f.client.requests().at(2)).toolCallId, u"c2"_s);
        QCOMPARE(f.client.requests().at(0).tools.size(), 2);
        QCOMPARE(f.client.requests().at(0).toolChoice, ToolChoice::Auto);

        QCOMPARE(
            shape(f.trace, f.firstTurn()),
            u"turn(iteration(model_call,tool_call),iteration(model_call,tool_call),iteration(model_call))"_s);
        const TraceNode &turn = f.trace.node(f.firstTurn());
        QCOMPARE(turn.status, TraceStatus::Ok);
        QCOMPARE(turn.data<TurnData>().outcome, u"answered"_s);
        QVERIFY(turn.endedUs >= turn.startedUs);
        const TraceNode &priceCall = f.trace.node(nodesOfKind(f.trace, TraceKind::ToolCall).constFirst());
        QCOMPARE(priceCall.data<ToolCallData>().result, u"4.20 EUR"_s);
        QCOMPARE(priceCall.status, TraceStatus::Ok);
        const TraceNode &firstModelCall
            = f.trace.node(nodesOfKind(f.trace, TraceKind::ModelCall).constFirst());
        QCOMPARE(firstModelCall.data<ModelCallData>().response.toolCalls.constFirst().id, u"c1"_s);
        QCOMPARE(firstModelCall.data<ModelCallData>().provider, u"scripted"_s);
        QCOMPARE(firstModelCall.data<ModelCallData>().request.whole(), f.client.requests().at(0));
    }

    void eachModelCallRecordsWhatItAddedAndRebuildsToTheRequestSent_data()
    {
        QTest::addColumn<QString>("systemPrompt");
        QTest::newRow("with a system prompt") << u"Be brief."_s;
        QTest::newRow("without one") << QString();
    }

    void eachModelCallRecordsWhatItAddedAndRebuildsToTheRequestSent()
    {
        QFETCH(QString, systemPrompt);
        Fixture f;
        addInventoryTools(f.workbench);
        AgentConfig config;
        config.systemPrompt = systemPrompt;
        config.maxIterations = 4; // the last one's note changes the system message
        config.wrapUpIterations = 1;
        f.agent.setConfig(config);
        f.client.enqueue(
            {Step(ScriptedModelClient::calls({call(u"c1"_s, u"get_price"_s, uR"({"item":"x"})"_s)})),
             Step(ScriptedModelClient::calls({call(u"c2"_s, u"get_inventory"_s, uR"({"item":"x"})"_s)})),
             Step(ScriptedModelClient::calls({call(u"c3"_s, u"get_price"_s, uR"({"item":"y"})"_s)})),
             Step(ScriptedModelClient::text(u"Done."_s))});
        QVERIFY(f.agent.send(u"Price and stock of x?"_s));
        QTRY_VERIFY(!f.agent.isRunning());

        const QList<int> calls = nodesOfKind(f.trace, TraceKind::ModelCall);
        QCOMPARE(calls.size(), 4);
        QCOMPARE(f.client.requests().size(), 4);
        for (qsizetype i = 0; i < calls.size(); ++i)
            QCOMPARE(f.trace.node(calls.at(i)).data<ModelCallData>().request.whole(),
                     f.client.requests().at(i));
        const auto recorded = [&](int i) {
            return f.trace.node(calls.at(i)).data<ModelCallData>().request;
        };
        // The second call keeps the first one's messages and adds the call and its result.
        QVERIFY(recorded(1).isDeltaOf(recorded(0)));
        QCOMPARE(recorded(1).keptMessages(), recorded(0).messageCount());
        QCOMPARE(recorded(1).addedMessages().size(), 2);
        QVERIFY(recorded(2).isDeltaOf(recorded(1)));
        // The final iteration's note changed the first message: that call shares nothing.
        QVERIFY(!recorded(3).isDeltaOf(recorded(2)));
        QCOMPARE(recorded(3).keptMessages(), 0);
        QCOMPARE(recorded(3).addedMessages().size(), recorded(3).messageCount());
    }

    void eventsAnnounceEachStepInOrder()
    {
        Fixture f;
        addInventoryTools(f.workbench);
        Step streamed = ScriptedModelClient::text(u"Hello there"_s);
        streamed.chunks = QStringList{u"Hel"_s, u"lo th"_s, u"ere"_s};
        f.client.enqueue(
            {Step(ScriptedModelClient::calls({call(u"c1"_s, u"get_price"_s, uR"({"item":"x"})"_s)})),
             streamed});

        f.run(u"hi"_s);

        using K = AgentEvent::Kind;
        const QList<K> expected{K::TurnStarted, K::IterationStarted, K::ModelRequest,     K::ModelResponse,
                                K::ToolCall,    K::ToolResult,       K::IterationStarted, K::ModelRequest,
                                K::TextDelta,   K::TextDelta,        K::TextDelta,        K::ModelResponse,
                                K::TurnFinished};
        QCOMPARE(f.eventKinds(), expected);
        const AgentEvent delta = f.events.at(9).first().value<AgentEvent>();
        QCOMPARE(delta.text, u"lo th"_s);
        QCOMPARE(delta.iteration, 2);
        const AgentEvent finished = f.events.constLast().first().value<AgentEvent>();
        QCOMPARE(finished.toJson().value(u"outcome"_s).toString(), u"answered"_s);
        QCOMPARE(finished.toJson().value(u"event"_s).toString(), u"finished"_s);
    }

    void parallelCallsRunConcurrentlyOrOneAtATime_data()
    {
        QTest::addColumn<int>("maxParallel");
        QTest::addColumn<int>("calls");
        QTest::newRow("four calls, all at once") << 4 << 4;
        QTest::newRow("four calls, two at a time") << 2 << 4;
        QTest::newRow("three calls, sequential mode") << 1 << 3;
    }

    void parallelCallsRunConcurrentlyOrOneAtATime()
    {
        QFETCH(int, maxParallel);
        QFETCH(int, calls);
        Fixture f;
        AgentConfig config;
        config.maxParallelTools = maxParallel;
        f.agent.setConfig(config);

        // Each call waits until as many calls as may overlap are inside, so
        // the recorded timestamps must overlap exactly that much.
        QMutex mutex;
        QWaitCondition allInside;
        int inside = 0;
        int peak = 0;
        addTool(f.workbench, u"wait"_s, objectSchema({{u"n"_s, integerProperty}}, {u"n"_s}),
                [&](const QJsonObject &args, ToolContext &) {
                    QMutexLocker lock(&mutex);
                    ++inside;
                    peak = std::max(peak, inside);
                    allInside.wakeAll();
                    QDeadlineTimer deadline(10000);
                    while (inside < maxParallel && !deadline.hasExpired())
                        allInside.wait(&mutex, deadline);
                    lock.unlock();
                    QThread::msleep(5);
                    lock.relock();
                    --inside;
                    return ToolResult::success(u"done %1"_s.arg(args.value(u"n"_s).toInt()));
                });
        QList<ToolCall> toolCalls;
        for (int i = 0; i < calls; ++i)
            toolCalls.append(call(u"w%1"_s.arg(i), u"wait"_s, u"{\"n\":%1}"_s.arg(i)));
        f.client.enqueue({ScriptedModelClient::calls(toolCalls), ScriptedModelClient::text(u"ok"_s)});

        QCOMPARE(f.run(u"go"_s).outcome, TurnOutcome::Answered);

        QCOMPARE(peak, maxParallel);
        const QList<int> nodes = nodesOfKind(f.trace, TraceKind::ToolCall);
        QCOMPARE(nodes.size(), calls);
        // Overlap from the recorded timestamps: how many calls ran at the start of each call.
        int maxOverlap = 0;
        for (int a : nodes) {
            int overlap = 0;
            for (int b : nodes) {
                const TraceNode &x = f.trace.node(a);
                const TraceNode &y = f.trace.node(b);
                overlap += y.startedUs <= x.startedUs && x.startedUs < y.endedUs;
            }
            maxOverlap = std::max(maxOverlap, overlap);
        }
        QCOMPARE(maxOverlap, maxParallel);

        // Results go back in call order, each paired with its call id.
        const ModelRequest &second = f.client.requests().at(1);
        const QList<Message> results = second.messages.mid(second.messages.size() - calls);
        for (int i = 0; i < calls; ++i) {
            QCOMPARE(results.at(i).toolCallId, u"w%1"_s.arg(i));
            QCOMPARE(results.at(i).text, u"done %1"_s.arg(i));
        }
    }

    void resultsFollowCallOrderNotCompletionOrder()
    {
        Fixture f;
        addTool(f.workbench, u"sleep"_s, objectSchema({{u"ms"_s, integerProperty}}, {u"ms"_s}),
                [](const QJsonObject &args, ToolContext &) {
                    QThread::msleep(args.value(u"ms"_s).toInt());
                    return ToolResult::success(u"slept %1"_s.arg(args.value(u"ms"_s).toInt()));
                });
        f.client.enqueue({ScriptedModelClient::calls({call(u"slow"_s, u"sleep"_s, uR"({"ms":300})"_s),
                                                      call(u"fast"_s, u"sleep"_s, uR"({"ms":1})"_s)}),
                          ScriptedModelClient::text(u"ok"_s)});

        f.run(u"go"_s);

        const QList<Message> &history = f.agent.history();
        QCOMPARE(history.at(2).toolCallId, u"slow"_s);
        QCOMPARE(history.at(2).text, u"slept 300"_s);
        QCOMPARE(history.at(3).toolCallId, u"fast"_s);
        // ...although the fast one finished first.
        const QList<AgentEvent::Kind> kinds = f.eventKinds();
        QList<QString> resultOrder;
        for (const QList<QVariant> &args : f.events) {
            const auto e = args.first().value<AgentEvent>();
            if (e.kind == AgentEvent::Kind::ToolResult)
                resultOrder.append(e.toolCall.id);
        }
        QCOMPARE(resultOrder, (QList<QString>{u"fast"_s, u"slow"_s}));
    }

    void toolErrorsAreFedBackToTheModel_data()
    {
        QTest::addColumn<QString>("toolName");
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QStringList>("messageParts");

        QTest::newRow("unknown tool lists the available ones")
            << u"get_weather"_s << u"{}"_s
            << QStringList{u"Unknown tool 'get_weather'"_s, u"get_price"_s, u"fails"_s};
        QTest::newRow("arguments that are not JSON")
            << u"get_price"_s
            << u"{\"item\": \"wid"_s /* cut off mid-string; no raw string: moc misreads it */
            << QStringList{u"not valid JSON"_s, u"offset"_s};
        QTest::newRow("arguments that are an array")
            << u"get_price"_s << uR"(["widget"])"_s << QStringList{u"must be a JSON object"_s};
        QTest::newRow("a required argument is missing") << u"get_price"_s << uR"({"name":"widget"})"_s
                                                        << QStringList{u"schema of get_price"_s, u"item"_s};
        QTest::newRow("an argument has the wrong type")
            << u"get_price"_s << uR"({"item":42})"_s << QStringList{u"at /item"_s, u"string"_s};
        QTest::newRow("a tool that throws")
            << u"throws"_s << u"{}"_s << QStringList{u"exception"_s, u"disk on fire"_s};
        QTest::newRow("a tool that reports failure")
            << u"fails"_s << u"{}"_s << QStringList{u"quota exceeded"_s};
        QTest::newRow("a tool that exceeds its timeout")
            << u"hangs"_s << u"{}"_s << QStringList{u"time limit of 0.2 s"_s};
    }

    void toolErrorsAreFedBackToTheModel()
    {
        QFETCH(QString, toolName);
        QFETCH(QString, arguments);
        QFETCH(QStringList, messageParts);

        Fixture f;
        addInventoryTools(f.workbench);
        addTool(f.workbench, u"throws"_s, objectSchema({}, {}),
                [](const QJsonObject &, ToolContext &) -> ToolResult {
                    throw std::runtime_error("disk on fire");
                });
        addTool(f.workbench, u"fails"_s, objectSchema({}, {}),
                [](const QJsonObject &, ToolContext &) { return ToolResult::failure(u"quota exceeded"_s); });
        std::atomic_bool hangSawCancel = false;
        ToolBehaviour shortTimeout;
        shortTimeout.timeoutMs = 200;
        addTool(
            f.workbench, u"hangs"_s, objectSchema({}, {}),
            [&hangSawCancel](const QJsonObject &, ToolContext &context) {
                QDeadlineTimer deadline(10000);
                while (!context.isCancelled() && !deadline.hasExpired())
                    QThread::msleep(5);
                hangSawCancel = context.isCancelled();
                return ToolResult::success(u"too late"_s);
            },
            shortTimeout);
        f.client.enqueue({ScriptedModelClient::calls({call(u"c1"_s, toolName, arguments)}),
                          ScriptedModelClient::text(u"Sorry, I recovered."_s)});

        const TurnResult result = f.run(u"try it"_s);

        QCOMPARE(result.outcome, TurnOutcome::Answered);
        const Message &fed = lastToolResult(f.client.requests().at(1));
        QCOMPARE(fed.toolCallId, u"c1"_s);
        QVERIFY(fed.isError);
        for (const QString &part : messageParts)
            QVERIFY2(fed.text.contains(part), qPrintable(fed.text));
        const TraceNode &node = f.trace.node(nodesOfKind(f.trace, TraceKind::ToolCall).constFirst());
        QCOMPARE(node.status, TraceStatus::Error);
        QCOMPARE(node.data<ToolCallData>().result, fed.text);
        if (toolName == u"hangs")
            QTRY_VERIFY(hangSawCancel);
    }

    void errorOnlyIterationsInARowEndTheTurn()
    {
        Fixture f;
        addInventoryTools(f.workbench);
        AgentConfig config;
        config.maxConsecutiveErrors = 3;
        f.agent.setConfig(config);
        int n = 0;
        f.client.setResponder([&n](const ModelRequest &) {
            ++n;
            return ScriptedModelClient::calls({call(u"x%1"_s.arg(n), u"nope"_s, u"{\"n\":%1}"_s.arg(n))});
        });

        const TurnResult result = f.run(u"go"_s);

        QCOMPARE(result.outcome, TurnOutcome::ErrorLimit);
        QCOMPARE(result.iterations, 3);
        QVERIFY2(result.error.contains(u"3 iterations in a row"_s), qPrintable(result.error));
        QVERIFY(result.error.contains(u"Unknown tool 'nope'"_s));
        QCOMPARE(f.client.requests().size(), 3);
        QVERIFY(historyIsWellFormed(f.agent.history()));
        const QList<int> errors = nodesOfKind(f.trace, TraceKind::Error);
        QCOMPARE(errors.size(), 1);
        QCOMPARE(f.trace.node(errors.constFirst()).data<ErrorData>().code, u"error_limit"_s);
        QCOMPARE(f.trace.node(f.firstTurn()).status, TraceStatus::Error);
    }

    void aSuccessfulCallResetsTheErrorCount()
    {
        Fixture f;
        addInventoryTools(f.workbench);
        AgentConfig config;
        config.maxConsecutiveErrors = 2;
        f.agent.setConfig(config);
        f.client.enqueue(
            {ScriptedModelClient::calls({call(u"a"_s, u"nope"_s)}),
             ScriptedModelClient::calls({call(u"b"_s, u"get_price"_s, uR"({"item":"widget"})"_s)}),
             ScriptedModelClient::calls({call(u"c"_s, u"nope"_s)}), ScriptedModelClient::text(u"done"_s)});

        QCOMPARE(f.run(u"go"_s).outcome, TurnOutcome::Answered);
    }

    void anIterationOfDenialsIsNotAnErrorAndDoesNotCountTowardTheErrorLimit()
    {
        Fixture f;
        addInventoryTools(f.workbench);
        AgentConfig config;
        config.maxConsecutiveErrors = 2;
        f.agent.setConfig(config);
        RecordingInterceptor interceptor;
        denyEveryToolCall(interceptor);
        f.agent.addInterceptor(&interceptor);
        // The user says no three times; the model did nothing wrong and goes on to answer.
        f.client.enqueue(
            {ScriptedModelClient::calls({call(u"a"_s, u"get_price"_s, uR"({"item":"widget"})"_s)}),
             ScriptedModelClient::calls({call(u"b"_s, u"get_price"_s, uR"({"item":"gadget"})"_s)}),
             ScriptedModelClient::calls({call(u"c"_s, u"get_inventory"_s, uR"({"item":"gizmo"})"_s)}),
             ScriptedModelClient::text(u"I may not look it up."_s)});

        const TurnResult result = f.run(u"price?"_s);

        QCOMPARE(result.outcome, TurnOutcome::Answered);
        const QList<int> iterations = nodesOfKind(f.trace, TraceKind::Iteration);
        QCOMPARE(iterations.size(), 4);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(f.trace.node(iterations.at(i)).status, TraceStatus::Ok);
        QCOMPARE(f.trace.node(f.firstTurn()).status, TraceStatus::Ok);
    }

    void errorsInARowStillEndTheTurnAcrossDeniedIterations()
    {
        Fixture f;
        addInventoryTools(f.workbench);
        AgentConfig config;
        config.maxConsecutiveErrors = 2;
        f.agent.setConfig(config);
        RecordingInterceptor interceptor;
        denyEveryToolCall(interceptor);
        f.agent.addInterceptor(&interceptor);
        // A denial neither counts nor wipes the count: two real errors around it still stop the turn.
        f.client.enqueue(
            {ScriptedModelClient::calls({call(u"a"_s, u"nope"_s)}),
             ScriptedModelClient::calls({call(u"b"_s, u"get_price"_s, uR"({"item":"widget"})"_s)}),
             ScriptedModelClient::calls({call(u"c"_s, u"nope"_s)}),
             ScriptedModelClient::text(u"never asked"_s)});

        const TurnResult result = f.run(u"price?"_s);

        QCOMPARE(result.outcome, TurnOutcome::ErrorLimit);
        QCOMPARE(result.iterations, 3);
    }

    void runawayGuardRefusesTheSameCallRequestedAgainAndAgain()
    {
        Fixture f;
        Invocations invocations;
        addAdder(f.workbench, &invocations);
        f.client.setResponder([n = 0](const ModelRequest &request) mutable {
            if (++n <= 3)
                return ScriptedModelClient::calls(
                    {call(u"r%1"_s.arg(n), u"add"_s, uR"({"a": 1, "b": 2})"_s)});
            return ScriptedModelClient::text(u"last result: "_s + lastToolResult(request).text);
        });

        const TurnResult result = f.run(u"add"_s);

        QCOMPARE(invocations.count(), 2);
        QCOMPARE(result.outcome, TurnOutcome::Answered);
        QVERIFY2(result.text.contains(u"same arguments in 3 responses in a row"_s), qPrintable(result.text));
        const QList<int> calls = nodesOfKind(f.trace, TraceKind::ToolCall);
        QCOMPARE(f.trace.node(calls.at(2)).status, TraceStatus::Skipped);
    }

    void identicalCallsOfOneResponseAllRunAndAreNotARunaway()
    {
        Fixture f;
        Invocations invocations;
        addAdder(f.workbench, &invocations);
        QList<ToolCall> four;
        for (int i = 0; i < 4; ++i)
            four.append(call(u"p%1"_s.arg(i), u"add"_s, uR"({"a": 1, "b": 2})"_s));
        f.client.enqueue({ScriptedModelClient::calls(four), ScriptedModelClient::text(u"3, four times"_s)});

        const TurnResult result = f.run(u"add four times"_s);

        QCOMPARE(result.outcome, TurnOutcome::Answered);
        QCOMPARE(invocations.count(), 4);
        for (const int node : nodesOfKind(f.trace, TraceKind::ToolCall))
            QCOMPARE(f.trace.node(node).status, TraceStatus::Ok);
    }

    void differentArgumentsAreNotARunaway()
    {
        Fixture f;
        Invocations invocations;
        addAdder(f.workbench, &invocations);
        f.client.enqueue({ScriptedModelClient::calls({call(u"1"_s, u"add"_s, uR"({"a":1,"b":2})"_s)}),
                          ScriptedModelClient::calls({call(u"2"_s, u"add"_s, uR"({"a":1,"b":2})"_s)}),
                          ScriptedModelClient::calls({call(u"3"_s, u"add"_s, uR"({"a":1,"b":3})"_s)}),
                          ScriptedModelClient::calls({call(u"4"_s, u"add"_s, uR"({"a":1,"b":2})"_s)}),
                          ScriptedModelClient::text(u"done"_s)});

        f.run(u"go"_s);

        QCOMPARE(invocations.count(), 4);
    }

    void theLastIterationsCarryAWrapUpNoteAndTheFinalOneHasNoTools_data()
    {
        QTest::addColumn<Step>("finalStep");
        QTest::addColumn<TurnOutcome>("outcome");
        QTest::addColumn<QString>("text");
        QTest::addColumn<TraceStatus>("turnStatus");

        QTest::newRow("model answers on the final iteration: forced final")
            << ScriptedModelClient::text(u"Best answer I have."_s) << TurnOutcome::ForcedFinal
            << u"Best answer I have."_s << TraceStatus::Limited;
        QTest::newRow("model asks for tools with text: not executed, the text is a forced final")
            << ScriptedModelClient::calls({call(u"late"_s, u"add"_s, uR"({"a":9,"b":9})"_s)},
                                          u"Roughly 18."_s)
            << TurnOutcome::ForcedFinal << u"Roughly 18."_s << TraceStatus::Limited;
        QTest::newRow("model gives no text: fallback")
            << ScriptedModelClient::text(QString()) << TurnOutcome::Fallback
            << u"The agent stopped without a final answer after 3 iterations. The tool results so far are in the trace."_s
            << TraceStatus::Error;
        QTest::newRow("model insists on tools: not executed, fallback")
            << ScriptedModelClient::calls({call(u"late"_s, u"add"_s, uR"({"a":9,"b":9})"_s)})
            << TurnOutcome::Fallback
            << u"The agent stopped without a final answer after 3 iterations. The tool results so far are in the trace."_s
            << TraceStatus::Error;
    }

    void theLastIterationsCarryAWrapUpNoteAndTheFinalOneHasNoTools()
    {
        QFETCH(Step, finalStep);
        QFETCH(TurnOutcome, outcome);
        QFETCH(QString, text);
        QFETCH(TraceStatus, turnStatus);

        Fixture f;
        Invocations invocations;
        addAdder(f.workbench, &invocations);
        AgentConfig config;
        config.systemPrompt = u"You are terse."_s;
        config.maxIterations = 3;
        config.wrapUpIterations = 2;
        f.agent.setConfig(config);
        f.client.enqueue({ScriptedModelClient::calls({call(u"1"_s, u"add"_s, uR"({"a":1,"b":1})"_s)}),
                          ScriptedModelClient::calls({call(u"2"_s, u"add"_s, uR"({"a":2,"b":2})"_s)}),
                          finalStep});

        const TurnResult result = f.run(u"go"_s);

        QCOMPARE(result.outcome, outcome);
        QCOMPARE(result.text, text);
        QCOMPARE(result.iterations, 3);
        QVERIFY(result.wrapUpNoteSent);
        QVERIFY(result.finalIterationWithoutTools);
        QVERIFY(result.limitReached);
        QCOMPARE(result.isAnswer(), outcome == TurnOutcome::ForcedFinal);
        QCOMPARE(f.trace.node(f.firstTurn()).status, turnStatus);
        QCOMPARE(f.trace.node(f.firstTurn()).data<TurnData>().outcome, turnOutcomeName(outcome));
        QCOMPARE(invocations.count(), 2);

        const QList<ModelRequest> &requests = f.client.requests();
        QCOMPARE(requests.size(), 3);
        QCOMPARE(requests.at(0).messages.first().text, u"You are terse."_s);
        QVERIFY(requests.at(1).messages.first().text.startsWith(u"You are terse."_s));
        QVERIFY2(
            requests.at(1).messages.first().text.contains(u"2 iterations remaining: prioritise an answer"_s),
            qPrintable(requests.at(1).messages.first().text));
        QCOMPARE(requests.at(1).toolChoice, ToolChoice::Auto);
        QVERIFY(requests.at(2).messages.first().text.contains(u"final iteration: tools are disabled"_s));
        QCOMPARE(requests.at(2).toolChoice, ToolChoice::None);
        QVERIFY(historyIsWellFormed(f.agent.history()));

        const QList<int> iterations = nodesOfKind(f.trace, TraceKind::Iteration);
        QVERIFY(!f.trace.node(iterations.at(0)).data<IterationData>().wrapUpNote);
        QVERIFY(f.trace.node(iterations.at(1)).data<IterationData>().wrapUpNote);
        QVERIFY(!f.trace.node(iterations.at(2)).data<IterationData>().toolsOffered);
        QCOMPARE(f.trace.node(iterations.at(2)).status, turnStatus);
    }

    void anAnswerWithinTheLimitIsNotForced()
    {
        Fixture f;
        addAdder(f.workbench);
        AgentConfig config;
        config.maxIterations = 3;
        f.agent.setConfig(config);
        f.client.enqueue({ScriptedModelClient::calls({call(u"1"_s, u"add"_s, uR"({"a":1,"b":1})"_s)}),
                          ScriptedModelClient::text(u"2"_s)});

        const TurnResult result = f.run(u"go"_s);

        QCOMPARE(result.outcome, TurnOutcome::Answered);
        QVERIFY(!result.limitReached);
        QCOMPARE(f.trace.node(f.firstTurn()).status, TraceStatus::Ok);
    }

    void theLoopEndingOnToolResultsReflectsOrSummarises_data()
    {
        QTest::addColumn<PostLoopMode>("mode");
        QTest::addColumn<bool>("stopTool");
        QTest::addColumn<TurnOutcome>("outcome");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("requests");

        QTest::newRow("limit reached, reflect: forced final")
            << PostLoopMode::Reflect << false << TurnOutcome::ForcedFinal << u"The sums are 3 and 7."_s << 3;
        QTest::newRow("limit reached, summary") << PostLoopMode::Summary << false << TurnOutcome::Summarised
                                                << u"add({\"a\":3,\"b\":4}) -> 7"_s << 2;
        QTest::newRow("limit reached, neither: fallback")
            << PostLoopMode::None << false << TurnOutcome::Fallback
            << u"The agent stopped without a final answer after 2 iterations. The tool results so far are in the trace."_s
            << 2;
        QTest::newRow("stop-after tool, reflect")
            << PostLoopMode::Reflect << true << TurnOutcome::Reflected << u"The sums are 3 and 7."_s << 2;
        QTest::newRow("stop-after tool, summary") << PostLoopMode::Summary << true << TurnOutcome::Summarised
                                                  << u"add({\"a\":1,\"b\":2}) -> 3"_s << 1;
    }

    void theLoopEndingOnToolResultsReflectsOrSummarises()
    {
        QFETCH(PostLoopMode, mode);
        QFETCH(bool, stopTool);
        QFETCH(TurnOutcome, outcome);
        QFETCH(QString, text);
        QFETCH(int, requests);

        Fixture f;
        ToolBehaviour behaviour;
        behaviour.endsLoop = stopTool;
        addAdder(f.workbench, nullptr, behaviour);
        AgentConfig config;
        config.maxIterations = 2;
        config.toolLessFinalIteration = false;
        config.postLoop = mode;
        f.agent.setConfig(config);
        // A stop-after tool ends the loop after the first round; otherwise the
        // two-iteration limit does after the second.
        f.client.enqueue(ScriptedModelClient::calls({call(u"1"_s, u"add"_s, uR"({"a":1,"b":2})"_s)}));
        if (!stopTool)
            f.client.enqueue(ScriptedModelClient::calls({call(u"2"_s, u"add"_s, uR"({"a":3,"b":4})"_s)}));
        f.client.enqueue(ScriptedModelClient::text(u"The sums are 3 and 7."_s));

        const TurnResult result = f.run(u"add things"_s);

        QCOMPARE(result.outcome, outcome);
        QCOMPARE(result.text, text);
        QCOMPARE(f.client.requests().size(), requests);
        QVERIFY(historyIsWellFormed(f.agent.history()));
        if (mode == PostLoopMode::Reflect) {
            const ModelRequest &reflection = f.client.requests().constLast();
            QCOMPARE(reflection.toolChoice, ToolChoice::None);
            QCOMPARE(lastToolResult(reflection).text, stopTool ? u"3"_s : u"7"_s);
            QCOMPARE(nodesOfKind(f.trace, TraceKind::Reflection).size(), 1);
            const int reflectionNode = nodesOfKind(f.trace, TraceKind::Reflection).constFirst();
            QCOMPARE(shape(f.trace, reflectionNode), u"reflection(model_call)"_s);
            QCOMPARE(f.trace.node(reflectionNode).data<TextData>().text, text);
        }
        if (mode == PostLoopMode::Summary) {
            QCOMPARE(nodesOfKind(f.trace, TraceKind::Summary).size(), 1);
            QCOMPARE(f.agent.history().constLast(), Message::assistant(text));
        }
        QCOMPARE(result.limitReached, !stopTool);
        const TraceStatus turnStatus = outcome == TurnOutcome::ForcedFinal ? TraceStatus::Limited
                                       : outcome == TurnOutcome::Fallback  ? TraceStatus::Error
                                                                           : TraceStatus::Ok;
        QCOMPARE(f.trace.node(f.firstTurn()).status, turnStatus);
    }

    void theFirstHandoffEndsTheLoopAndOthersAreIgnored()
    {
        Fixture f;
        Invocations invocations;
        addAdder(f.workbench, &invocations);
        f.workbench.add(std::make_shared<HandoffTool>(u"billing"_s));
        f.workbench.add(std::make_shared<HandoffTool>(u"support"_s));
        f.client.enqueue(ScriptedModelClient::calls(
            {call(u"a"_s, u"add"_s, uR"({"a":1,"b":1})"_s),
             call(u"h1"_s, u"transfer_to_billing"_s, uR"({"reason":"invoice question"})"_s),
             call(u"h2"_s, u"transfer_to_support"_s, uR"({"reason":"also"})"_s)}));

        const TurnResult result = f.run(u"I was charged twice"_s);

        QCOMPARE(result.outcome, TurnOutcome::HandedOff);
        QVERIFY(result.handoff.has_value());
        QCOMPARE(result.handoff->target, u"billing"_s);
        QCOMPARE(result.handoff->reason, u"invoice question"_s);
        QCOMPARE(f.client.requests().size(), 1);
        QCOMPARE(invocations.count(), 0);

        const QList<Message> &history = f.agent.history();
        QVERIFY(historyIsWellFormed(history));
        QCOMPARE(history.size(), 5);
        QVERIFY(history.at(2).isError);
        QVERIFY(history.at(2).text.contains(u"handed off to billing"_s));
        QVERIFY(!history.at(3).isError);
        QVERIFY(history.at(4).isError);
        QVERIFY2(history.at(4).text.contains(u"Ignored"_s), qPrintable(history.at(4).text));

        const QList<int> handoffs = nodesOfKind(f.trace, TraceKind::Handoff);
        QCOMPARE(handoffs.size(), 1);
        QCOMPARE(f.trace.node(handoffs.constFirst()).data<HandoffData>(),
                 (HandoffData{u"billing"_s, u"invoice question"_s, u"h1"_s}));
    }

    void aHandoffContinuesTheTurnAsTheAgentHandedTo()
    {
        Fixture f;
        Team team;
        makeTriage(f, team);
        f.client.enqueue(ScriptedModelClient::calls(
            {call(u"h1"_s, u"transfer_to_billing"_s, uR"({"reason":"invoice question"})"_s)}));
        f.client.enqueue(ScriptedModelClient::text(u"Your invoice is paid."_s));

        const TurnResult result = f.run(u"I was charged twice"_s);

        QCOMPARE(result.outcome, TurnOutcome::Answered);
        QCOMPARE(result.text, u"Your invoice is paid."_s);
        QCOMPARE(result.agent, u"billing"_s);
        QVERIFY(!result.handoff.has_value());
        QCOMPARE(f.client.requests().size(), 2);
        const ModelRequest &first = f.client.requests().at(0);
        const ModelRequest &next = f.client.requests().at(1);
        QCOMPARE(first.messages.constFirst(), Message::system(u"You route questions."_s));
        QCOMPARE(toolNames(first), (QStringList{u"add"_s, u"transfer_to_billing"_s}));
        // Billing's instructions, tools and model; the conversation so far, the handoff included.
        QCOMPARE(next.messages.constFirst(), Message::system(u"You answer invoice questions."_s));
        QCOMPARE(next.options.model, u"billing-model"_s);
        QCOMPARE(toolNames(next), (QStringList{u"get_price"_s, u"get_inventory"_s}));
        const QList<Message> conversation = next.messages.mid(1);
        QCOMPARE(conversation, f.agent.history().mid(0, 3));
        QCOMPARE(conversation.at(0), Message::user(u"I was charged twice"_s));
        QCOMPARE(conversation.at(1).toolCalls.constFirst().name, u"transfer_to_billing"_s);
        for (const Message &message : conversation)
            QVERIFY(!message.text.contains(u"You route questions."_s));
        QVERIFY(historyIsWellFormed(f.agent.history()));
        QCOMPARE(nodesOfKind(f.trace, TraceKind::Handoff).size(), 1);
        QCOMPARE(f.trace.node(f.firstTurn()).status, TraceStatus::Ok);

        // The next turn starts as the session's agent again.
        QCOMPARE(f.agent.config().name, u"triage"_s);
        f.client.enqueue(ScriptedModelClient::text(u"Hello again."_s));
        QCOMPARE(f.run(u"hi"_s).agent, u"triage"_s);
        QCOMPARE(f.client.requests().constLast().messages.constFirst(),
                 Message::system(u"You route questions."_s));
    }

    void everyEventNamesTheAgentWhosePartItHappenedIn()
    {
        Fixture f;
        Team team;
        makeTriage(f, team);
        f.client.enqueue(ScriptedModelClient::calls({call(u"a1"_s, u"add"_s, uR"({"a":1,"b":2})"_s)}));
        f.client.enqueue(ScriptedModelClient::calls({call(u"h1"_s, u"transfer_to_billing"_s)}));
        f.client.enqueue(
            ScriptedModelClient::calls({call(u"p1"_s, u"get_price"_s, uR"({"item":"widget"})"_s)}));
        f.client.enqueue(ScriptedModelClient::text(u"4.20 EUR"_s));

        QCOMPARE(f.run(u"price?"_s).outcome, TurnOutcome::Answered);

        QString agent = u"triage"_s;
        QStringList seen;
        for (const QList<QVariant> &args : std::as_const(f.events)) {
            const auto event = args.first().value<AgentEvent>();
            QVERIFY2(event.agent == agent, qPrintable(agentEventKindName(event.kind) + u' ' + event.agent));
            QCOMPARE(event.toJson().value(u"agent"_s).toString(), event.agent);
            if (event.kind == AgentEvent::Kind::Handoff)
                agent = u"billing"_s; // the handoff is triage's last word
            seen.append(agentEventKindName(event.kind));
        }
        QVERIFY(seen.contains(u"tool_result"_s));
        const auto finished = f.events.constLast().first().value<AgentEvent>();
        QCOMPARE(finished.kind, AgentEvent::Kind::TurnFinished);
        QCOMPARE(finished.agent, u"billing"_s);
    }

    void handoffHistoryTextHidesTheToolCallsOfTheAgentThatHandedOff()
    {
        Fixture f;
        Team team;
        makeTriage(f, team);
        AgentConfig triage = f.agent.config();
        triage.handoffHistory = HandoffHistory::Text;
        f.agent.setConfig(triage);
        f.client.enqueue(ScriptedModelClient::calls({call(u"a1"_s, u"add"_s, uR"({"a":1,"b":2})"_s)}));
        f.client.enqueue(
            ScriptedModelClient::calls({call(u"h1"_s, u"transfer_to_billing"_s)}, u"Passing you on."_s));
        f.client.enqueue(
            ScriptedModelClient::calls({call(u"p1"_s, u"get_price"_s, uR"({"item":"widget"})"_s)}));
        f.client.enqueue(ScriptedModelClient::text(u"4.20 EUR"_s));

        QCOMPARE(f.run(u"price?"_s).outcome, TurnOutcome::Answered);

        QCOMPARE(f.client.requests().size(), 4);
        const ModelRequest &billingFirst = f.client.requests().at(2);
        QCOMPARE(billingFirst.messages,
                 (QList<Message>{Message::system(u"You answer invoice questions."_s),
                                 Message::user(u"price?"_s), Message::assistant(u"Passing you on."_s)}));
        // Billing's own tool calls it sees; the whole history stays in the session.
        const ModelRequest &billingNext = f.client.requests().at(3);
        QCOMPARE(billingNext.messages.size(), 5);
        QCOMPARE(billingNext.messages.at(3).toolCalls.constFirst().name, u"get_price"_s);
        QCOMPARE(billingNext.messages.at(4).text, u"4.20 EUR"_s);
        QCOMPARE(f.agent.history().size(), 8);
        QVERIFY(historyIsWellFormed(f.agent.history()));
    }

    void theHandoffAfterTheLimitEndsTheTurn()
    {
        Fixture f;
        Team team;
        makeTriage(f, team);
        AgentConfig triage = f.agent.config();
        triage.maxHandoffs = 1;
        f.agent.setConfig(triage);
        team.configs[u"billing"_s].maxHandoffs = 1;
        team.workbenches.at(u"billing"_s)->add(std::make_shared<HandoffTool>(u"triage"_s));
        Workbench &back = team.add(u"triage"_s, u"You route questions."_s);
        back.add(std::make_shared<HandoffTool>(u"billing"_s));
        f.client.enqueue(ScriptedModelClient::calls({call(u"h1"_s, u"transfer_to_billing"_s)}));
        f.client.enqueue(ScriptedModelClient::calls({call(u"h2"_s, u"transfer_to_triage"_s)}));
        f.client.enqueue(ScriptedModelClient::text(u"never asked"_s));

        const TurnResult result = f.run(u"ping pong"_s);

        QCOMPARE(result.outcome, TurnOutcome::HandedOff);
        QCOMPARE(result.handoff->target, u"triage"_s);
        QCOMPARE(result.agent, u"billing"_s);
        QCOMPARE(f.client.requests().size(), 2);
        const QList<int> errors = nodesOfKind(f.trace, TraceKind::Error);
        QCOMPARE(errors.size(), 1);
        QCOMPARE(f.trace.node(errors.constFirst()).data<ErrorData>().code, u"handoff_limit"_s);
        QCOMPARE(nodesOfKind(f.trace, TraceKind::Handoff).size(), 2);
        QVERIFY(historyIsWellFormed(f.agent.history()));
    }

    void handoffModeEndEndsTheTurnAsBefore()
    {
        Fixture f;
        Team team;
        makeTriage(f, team);
        AgentConfig triage = f.agent.config();
        triage.handoff = HandoffMode::End;
        f.agent.setConfig(triage);
        f.client.enqueue(ScriptedModelClient::calls(
            {call(u"h1"_s, u"transfer_to_billing"_s, uR"({"reason":"invoice"})"_s)}));
        f.client.enqueue(ScriptedModelClient::text(u"never asked"_s));

        const TurnResult result = f.run(u"I was charged twice"_s);

        QCOMPARE(result.outcome, TurnOutcome::HandedOff);
        QCOMPARE(result.handoff, (Handoff{u"billing"_s, u"invoice"_s}));
        QCOMPARE(result.agent, u"triage"_s);
        QCOMPARE(f.client.requests().size(), 1);
    }

    void shieldsBlockInputToolCallsAndOutput_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QString>("toolArguments");
        QTest::addColumn<QString>("answer");
        QTest::addColumn<TurnOutcome>("outcome");
        QTest::addColumn<int>("invocations");
        QTest::addColumn<int>("requests");
        QTest::addColumn<QString>("stage");

        QTest::newRow("input with a secret is never sent")
            << u"my password is hunter2"_s << uR"({"a":1,"b":1})"_s << u"fine"_s << TurnOutcome::Blocked << 0
            << 0 << u"input"_s;
        QTest::newRow("a tool call with a forbidden value does not run")
            << u"add"_s << uR"({"a":666,"b":1})"_s << u"fine"_s << TurnOutcome::Answered << 0 << 2
            << u"tool_call"_s;
        QTest::newRow("an answer leaking a secret is withheld")
            << u"add"_s << uR"({"a":1,"b":1})"_s << u"the password is hunter2"_s << TurnOutcome::Blocked << 1
            << 2 << u"output"_s;
        QTest::newRow("clean content passes every stage")
            << u"add"_s << uR"({"a":1,"b":1})"_s << u"2"_s << TurnOutcome::Answered << 1 << 2 << QString();
    }

    void shieldsBlockInputToolCallsAndOutput()
    {
        QFETCH(QString, input);
        QFETCH(QString, toolArguments);
        QFETCH(QString, answer);
        QFETCH(TurnOutcome, outcome);
        QFETCH(int, invocations);
        QFETCH(int, requests);
        QFETCH(QString, stage);

        Fixture f;
        Invocations counted;
        addAdder(f.workbench, &counted);
        auto shield = std::make_shared<RuleShield>();
        QVERIFY(!shield->addRule({RuleShield::Rule::Kind::Keyword,
                                  u"hunter2"_s,
                                  {ShieldStage::Input, ShieldStage::Output},
                                  {},
                                  u"contains a password"_s}));
        QVERIFY(!shield->addRule({RuleShield::Rule::Kind::RegularExpression,
                                  uR"("a"\s*:\s*666)"_s,
                                  {ShieldStage::ToolCall},
                                  {u"add"_s},
                                  u"the number of the beast"_s}));
        f.agent.addShield(shield);
        f.client.enqueue({ScriptedModelClient::calls({call(u"1"_s, u"add"_s, toolArguments)}),
                          ScriptedModelClient::text(answer)});

        const TurnResult result = f.run(input);

        QCOMPARE(result.outcome, outcome);
        QCOMPARE(counted.count(), invocations);
        QCOMPARE(f.client.requests().size(), requests);
        QVERIFY(historyIsWellFormed(f.agent.history()));
        for (const Message &m : f.agent.history())
            QVERIFY(!m.text.contains(u"hunter2"_s));

        QList<int> blocked;
        for (int id : nodesOfKind(f.trace, TraceKind::ShieldCheck)) {
            if (f.trace.node(id).status == TraceStatus::Blocked)
                blocked.append(id);
        }
        QCOMPARE(blocked.size(), stage.isEmpty() ? 0 : 1);
        if (!stage.isEmpty()) {
            const ShieldCheckData &data = f.trace.node(blocked.constFirst()).data<ShieldCheckData>();
            QCOMPARE(data.stage, stage);
            QVERIFY(!data.passed);
            QVERIFY(!data.reason.isEmpty());
            QVERIFY(f.eventKinds().contains(AgentEvent::Kind::ShieldBlocked));
        }
        if (stage == u"tool_call") {
            const Message &fed = lastToolResult(f.client.requests().at(1));
            QVERIFY(fed.isError);
            QVERIFY2(fed.text.contains(u"the number of the beast"_s), qPrintable(fed.text));
        }
        if (outcome == TurnOutcome::Blocked)
            QVERIFY(!result.error.isEmpty());
    }

    void theTurnStopsWhenItsTokenBudgetIsUsedUp()
    {
        Fixture f;
        Invocations invocations;
        addAdder(f.workbench, &invocations);
        AgentConfig config;
        config.tokenBudget = 100;
        f.agent.setConfig(config);
        f.client.enqueue(
            {ScriptedModelClient::calls({call(u"1"_s, u"add"_s, uR"({"a":1,"b":1})"_s)}, {}, {60, 20}),
             ScriptedModelClient::calls({call(u"2"_s, u"add"_s, uR"({"a":2,"b":2})"_s)}, {}, {70, 10}),
             ScriptedModelClient::text(u"never asked"_s)});

        const TurnResult result = f.run(u"go"_s);

        QCOMPARE(result.outcome, TurnOutcome::TokenBudget);
        QCOMPARE(result.usage.total(), 160);
        QCOMPARE(invocations.count(), 1);
        QCOMPARE(f.client.requests().size(), 2);
        QVERIFY(result.error.contains(u"160 tokens"_s));
        QVERIFY(historyIsWellFormed(f.agent.history()));
    }

    void anInterceptorCanEditTheRequestBeforeTheModelSeesIt()
    {
        Fixture f;
        RecordingInterceptor interceptor;
        interceptor.onModelCall
            = [](const ModelCallCheckpoint &checkpoint, const ModelCallDecision &decision) {
                  ModelRequest edited = checkpoint.request;
                  edited.messages.append(Message::user(u"(added while paused)"_s));
                  decision.proceed(edited);
              };
        f.agent.addInterceptor(&interceptor);
        f.client.enqueue(ScriptedModelClient::text(u"ok"_s));

        f.run(u"hello"_s);

        QCOMPARE(interceptor.modelCheckpoints.size(), 1);
        QCOMPARE(interceptor.modelCheckpoints.constFirst().iteration, 1);
        QCOMPARE(f.client.requests().constFirst().messages.constLast().text, u"(added while paused)"_s);
        const TraceNode &modelCall = f.trace.node(nodesOfKind(f.trace, TraceKind::ModelCall).constFirst());
        QVERIFY(modelCall.data<ModelCallData>().editedByInterceptor);
        const std::optional<ModelRequest> original = modelCall.data<ModelCallData>().originalRequest;
        QVERIFY(original);
        QCOMPARE(original->messages.size() + 1, f.client.requests().constFirst().messages.size());
        QCOMPARE(original->messages.constLast().text, u"hello"_s);
    }

    void anInterceptorDecidesEachToolCall_data()
    {
        QTest::addColumn<QString>("action");
        QTest::addColumn<int>("invocations");
        QTest::addColumn<QString>("fedBack");
        QTest::addColumn<bool>("isError");
        QTest::addColumn<TraceStatus>("status");
        QTest::addColumn<QString>("decision");

        QTest::newRow("allow") << u"allow"_s << 1 << u"3"_s << false << TraceStatus::Ok << u"allowed"_s;
        QTest::newRow("allow with edited arguments")
            << u"edit"_s << 1 << u"30"_s << false << TraceStatus::Ok << u"allowed"_s;
        QTest::newRow("edited arguments that break the schema")
            << u"bad edit"_s << 0 << u"at /a"_s << true << TraceStatus::Error << u"auto"_s;
        QTest::newRow("deny") << u"deny"_s << 0 << u"Denied by the user"_s << true << TraceStatus::Denied
                              << u"denied"_s;
        QTest::newRow("supply a result by hand")
            << u"supply"_s << 0 << u"42 (typed by hand)"_s << false << TraceStatus::Ok << u"manual result"_s;
    }

    void anInterceptorDecidesEachToolCall()
    {
        QFETCH(QString, action);
        QFETCH(int, invocations);
        QFETCH(QString, fedBack);
        QFETCH(bool, isError);
        QFETCH(TraceStatus, status);
        QFETCH(QString, decision);

        Fixture f;
        Invocations counted;
        addAdder(f.workbench, &counted);
        RecordingInterceptor interceptor;
        f.agent.addInterceptor(&interceptor);
        f.client.enqueue({ScriptedModelClient::calls({call(u"1"_s, u"add"_s, uR"({"a":1,"b":2})"_s)}),
                          ScriptedModelClient::text(u"ok"_s)});
        letEveryModelCallThrough(interceptor);

        QVERIFY(f.agent.send(u"add"_s));
        // The loop waits, however long the decision takes.
        QTRY_COMPARE(interceptor.heldToolDecisions.size(), 1);
        QCOMPARE(f.agent.state(), Agent::State::AwaitingDecision);
        QTest::qWait(50);
        QCOMPARE(counted.count(), 0);
        QCOMPARE(interceptor.toolCheckpoints.constFirst().call.arguments, uR"({"a":1,"b":2})"_s);
        QCOMPARE(interceptor.toolCheckpoints.constFirst().schema.name, u"add"_s);

        const ToolCallDecision &held = interceptor.heldToolDecisions.constFirst();
        if (action == u"allow")
            held.allow();
        else if (action == u"edit")
            held.allowWithArguments(uR"({"a":10,"b":20})"_s);
        else if (action == u"bad edit")
            held.allowWithArguments(uR"({"a":"ten","b":20})"_s);
        else if (action == u"deny")
            held.deny();
        else
            held.supplyResult(ToolResult::success(u"42 (typed by hand)"_s));
        held.deny(); // a second decision changes nothing
        QTRY_COMPARE(f.finished.size(), 1);

        QCOMPARE(counted.count(), invocations);
        const Message &fed = lastToolResult(f.client.requests().at(1));
        QVERIFY2(fed.text.contains(fedBack), qPrintable(fed.text));
        QCOMPARE(fed.isError, isError);
        const TraceNode &node = f.trace.node(nodesOfKind(f.trace, TraceKind::ToolCall).constFirst());
        QCOMPARE(node.status, status);
        QCOMPARE(node.data<ToolCallData>().decision, decision);
        if (action.contains(u"edit")) {
            QCOMPARE(node.data<ToolCallData>().originalArguments, uR"({"a":1,"b":2})"_s);
            QCOMPARE(f.agent.history().at(1).toolCalls.constFirst().arguments, uR"({"a":1,"b":2})"_s);
        }
        if (action == u"edit")
            QCOMPARE(counted.arguments.constFirst().value(u"a"_s).toInt(), 10);
    }

    void cancellingDuringAModelCallAbortsItAndKeepsTheHistoryValid()
    {
        Fixture f;
        addAdder(f.workbench);
        f.client.enqueue({ScriptedModelClient::calls({call(u"1"_s, u"add"_s, uR"({"a":1,"b":1})"_s)}),
                          ScriptedModelClient::hang()});

        QVERIFY(f.agent.send(u"go"_s));
        QTRY_COMPARE(f.client.requests().size(), 2);
        QCOMPARE(f.agent.state(), Agent::State::WaitingForModel);
        f.agent.cancel();

        QCOMPARE(f.finished.size(), 1);
        const TurnResult result = f.finished.constFirst().first().value<TurnResult>();
        QCOMPARE(result.outcome, TurnOutcome::Cancelled);
        QCOMPARE(f.client.cancelCount(), 1);
        QCOMPARE(f.agent.state(), Agent::State::Idle);
        QVERIFY(historyIsWellFormed(f.agent.history()));
        const QList<int> modelCalls = nodesOfKind(f.trace, TraceKind::ModelCall);
        QCOMPARE(f.trace.node(modelCalls.constLast()).status, TraceStatus::Cancelled);
        QCOMPARE(f.trace.node(f.firstTurn()).status, TraceStatus::Cancelled);

        // The next turn is accepted and sends a well-formed history.
        f.client.enqueue(ScriptedModelClient::text(u"back"_s));
        QCOMPARE(f.run(u"again"_s).outcome, TurnOutcome::Answered);
        QVERIFY(historyIsWellFormed(f.client.requests().constLast().messages));
    }

    void cancellingDuringAToolTellsItToStopAndAnswersEveryCall()
    {
        Fixture f;
        std::atomic_bool started = false;
        std::atomic_bool sawCancel = false;
        addTool(f.workbench, u"slow"_s, objectSchema({}, {}), [&](const QJsonObject &, ToolContext &context) {
            started = true;
            QDeadlineTimer deadline(10000);
            while (!context.isCancelled() && !deadline.hasExpired())
                QThread::msleep(2);
            sawCancel = context.isCancelled();
            return ToolResult::success(u"finished anyway"_s);
        });
        addAdder(f.workbench);
        f.client.enqueue(ScriptedModelClient::calls(
            {call(u"s"_s, u"slow"_s), call(u"q"_s, u"add"_s, uR"({"a":1,"b":1})"_s)}));

        QVERIFY(f.agent.send(u"go"_s));
        QTRY_VERIFY(started);
        QCOMPARE(f.agent.state(), Agent::State::RunningTools);
        f.agent.cancel();

        QCOMPARE(f.finished.size(), 1);
        QCOMPARE(f.finished.constFirst().first().value<TurnResult>().outcome, TurnOutcome::Cancelled);
        QTRY_VERIFY(sawCancel);
        const QList<Message> &history = f.agent.history();
        QVERIFY(historyIsWellFormed(history));
        QCOMPARE(history.size(), 4);
        QVERIFY(history.at(2).isError);
        QVERIFY(history.at(2).text.contains(u"Cancelled"_s));
        QCOMPARE(f.trace.node(nodesOfKind(f.trace, TraceKind::ToolCall).constFirst()).status,
                 TraceStatus::Cancelled);
        // The cancelled tool finishing later changes nothing.
        QTest::qWait(50);
        QCOMPARE(f.agent.history().size(), 4);
    }

    void theContextFoundBeforeTheTurnIsInEveryRequestAndARetrievalUnderTheTurn()
    {
        Fixture f;
        addAdder(f.workbench);
        auto source = std::make_shared<HeldContextSource>();
        f.agent.setContextSource(source);
        f.client.enqueue(ScriptedModelClient::calls({call(u"1"_s, u"add"_s, uR"({"a":1,"b":1})"_s)}));
        f.client.enqueue(ScriptedModelClient::text(u"2"_s));

        QVERIFY(f.agent.send(u"What is 1+1?"_s));
        QTRY_COMPARE(source->questions, QStringList{u"What is 1+1?"_s});
        // Nothing is asked while the context is searched.
        QVERIFY(f.client.requests().isEmpty());
        RetrievalData retrieval;
        retrieval.query = u"What is 1+1?"_s;
        retrieval.hits.append({u"docs"_s, u"/docs/sums.md"_s, 1, 2, 1.5, {}, {}, u"1+1 is 2"_s});
        source->answer({u"Passages: [1] /docs/sums.md"_s, retrieval});
        QTRY_COMPARE(f.finished.size(), 1);

        QCOMPARE(f.client.requests().size(), 2);
        for (const ModelRequest &request : f.client.requests()) {
            QCOMPARE(request.messages.constFirst().role, Message::Role::System);
            QCOMPARE(request.messages.constFirst().text, u"Passages: [1] /docs/sums.md"_s);
        }
        const QList<int> under = f.trace.childrenOf(f.firstTurn());
        QCOMPARE(f.trace.node(under.constFirst()).kind, TraceKind::Retrieval);
        QCOMPARE(f.trace.node(under.constFirst()).data<RetrievalData>(), retrieval);
        QCOMPARE(f.trace.node(under.at(1)).kind, TraceKind::Iteration);
    }

    void cancellingWhileTheContextIsSearchedEndsTheTurnAndItsLateAnswerIsIgnored()
    {
        Fixture f;
        auto source = std::make_shared<HeldContextSource>();
        f.agent.setContextSource(source);
        f.client.enqueue(ScriptedModelClient::text(u"too late"_s));

        QVERIFY(f.agent.send(u"hello"_s));
        QTRY_COMPARE(source->questions.size(), 1);
        f.agent.cancel();
        source->answer({u"Passages"_s, RetrievalData{}});
        QTest::qWait(20);

        QCOMPARE(f.finished.size(), 1);
        QCOMPARE(f.finished.constFirst().first().value<TurnResult>().outcome, TurnOutcome::Cancelled);
        QVERIFY(f.client.requests().isEmpty());
        QVERIFY(nodesOfKind(f.trace, TraceKind::Retrieval).isEmpty());
        QVERIFY(historyIsWellFormed(f.agent.history()));
    }

    void cancellingWhileAnInterceptorHoldsTheCallEndsTheTurn()
    {
        Fixture f;
        Invocations counted;
        addAdder(f.workbench, &counted);
        RecordingInterceptor interceptor;
        letEveryModelCallThrough(interceptor);
        f.agent.addInterceptor(&interceptor);
        f.client.enqueue(ScriptedModelClient::calls({call(u"1"_s, u"add"_s, uR"({"a":1,"b":1})"_s)}));

        QVERIFY(f.agent.send(u"go"_s));
        QTRY_COMPARE(interceptor.heldToolDecisions.size(), 1);
        f.agent.cancel();
        interceptor.heldToolDecisions.constFirst().allow(); // too late: ignored
        QTest::qWait(20);

        QCOMPARE(f.finished.size(), 1);
        QCOMPARE(counted.count(), 0);
        QVERIFY(historyIsWellFormed(f.agent.history()));
    }

    void aTurnOutOfTimeAbortsItsRequestAndEndsAsTimeLimit()
    {
        Fixture f;
        AgentConfig config;
        config.turnTimeLimitMs = 100;
        f.agent.setConfig(config);
        f.client.enqueue(ScriptedModelClient::hang());

        const TurnResult result = f.run(u"go"_s);

        QCOMPARE(result.outcome, TurnOutcome::TimeLimit);
        QCOMPARE(result.error, u"The turn stopped: it ran out of its time limit of 0.1 s."_s);
        QCOMPARE(f.client.cancelCount(), 1);
        QCOMPARE(f.agent.state(), Agent::State::Idle);
        QVERIFY(historyIsWellFormed(f.agent.history()));
        const QList<int> errors = nodesOfKind(f.trace, TraceKind::Error);
        QCOMPARE(errors.size(), 1);
        QCOMPARE(f.trace.node(errors.constFirst()).data<ErrorData>().code, u"time_limit"_s);
        QCOMPARE(f.trace.node(nodesOfKind(f.trace, TraceKind::ModelCall).constFirst()).status,
                 TraceStatus::Cancelled);
        QCOMPARE(f.trace.node(f.firstTurn()).data<TurnData>().outcome, u"time_limit"_s);

        // The limit is the turn's, not the session's: the next turn has its whole time again.
        f.client.enqueue(ScriptedModelClient::text(u"back"_s));
        QCOMPARE(f.run(u"again"_s).outcome, TurnOutcome::Answered);
    }

    void aTurnOutOfTimeWhileAToolRunsTellsItToStopAndAnswersTheCall()
    {
        Fixture f;
        AgentConfig config;
        config.turnTimeLimitMs = 150;
        f.agent.setConfig(config);
        std::atomic_bool sawCancel = false;
        addTool(f.workbench, u"slow"_s, objectSchema({}, {}), [&](const QJsonObject &, ToolContext &context) {
            QDeadlineTimer deadline(10000);
            while (!context.isCancelled() && !deadline.hasExpired())
                QThread::msleep(2);
            sawCancel = context.isCancelled();
            return ToolResult::success(u"finished anyway"_s);
        });
        f.client.enqueue(ScriptedModelClient::calls({call(u"s"_s, u"slow"_s)}));

        QCOMPARE(f.run(u"go"_s).outcome, TurnOutcome::TimeLimit);

        QTRY_VERIFY(sawCancel);
        const QList<Message> &history = f.agent.history();
        QVERIFY(historyIsWellFormed(history));
        QVERIFY(history.constLast().isError);
        QVERIFY2(history.constLast().text.startsWith(u"Stopped before the tool finished: The turn stopped"_s),
                 qPrintable(history.constLast().text));
    }

    // The user reading an approval card is not the agent being slow: a limit shorter than the wait
    // does not end the turn, and only the time before and after it counts.
    void theTimeATurnWaitsForAPersonDoesNotCountTowardItsLimit()
    {
        Fixture f;
        AgentConfig config;
        config.turnTimeLimitMs = 2000;
        f.agent.setConfig(config);
        Invocations counted;
        addAdder(f.workbench, &counted);
        RecordingInterceptor interceptor;
        letEveryModelCallThrough(interceptor);
        f.agent.addInterceptor(&interceptor);
        f.client.enqueue({ScriptedModelClient::calls({call(u"1"_s, u"add"_s, uR"({"a":1,"b":1})"_s)}),
                          ScriptedModelClient::text(u"2"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QTRY_COMPARE(interceptor.heldToolDecisions.size(), 1);
        QCOMPARE(f.agent.state(), Agent::State::AwaitingDecision);
        QTest::qWait(2500); // more than the limit, all of it waiting for the person
        QCOMPARE(f.finished.size(), 0);
        interceptor.heldToolDecisions.constFirst().allow();

        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.finished.constFirst().first().value<TurnResult>().outcome, TurnOutcome::Answered);
        QCOMPARE(counted.count(), 1);
    }

    void theFirstStreamedChunkRecordsTheTimeToFirstToken()
    {
        Fixture f;
        f.agent.setClock(std::make_shared<SteppingClock>());
        Step streamed = ScriptedModelClient::text(u"hello there"_s, {10, 3});
        streamed.chunks = {u"hel"_s, u"lo "_s, u"there"_s};
        f.client.enqueue(streamed);

        QCOMPARE(f.run(u"hi"_s).outcome, TurnOutcome::Answered);

        const TraceNode &call = f.trace.node(nodesOfKind(f.trace, TraceKind::ModelCall).constFirst());
        const std::optional<qint64> firstToken = call.data<ModelCallData>().firstTokenUs;
        QVERIFY(firstToken.has_value());
        QCOMPARE_GT(*firstToken, call.startedUs);
        QCOMPARE_LT(*firstToken, call.endedUs);
    }

    void aStreamedToolCallFragmentAlsoCountsAsTheFirstToken()
    {
        Fixture f;
        f.agent.setClock(std::make_shared<SteppingClock>());
        f.client.enqueue(ScriptedModelClient::hang());
        QVERIFY(f.agent.send(u"hi"_s));
        const int callNode = nodesOfKind(f.trace, TraceKind::ModelCall).constFirst();
        QVERIFY(!f.trace.node(callNode).data<ModelCallData>().firstTokenUs);

        emit f.client.toolCallDelta(ToolCallDelta{0, u"c1"_s, u"add"_s, u"{"_s});
        const std::optional<qint64> first = f.trace.node(callNode).data<ModelCallData>().firstTokenUs;
        QVERIFY(first.has_value());
        emit f.client.textDelta(u"later"_s);
        QCOMPARE(f.trace.node(callNode).data<ModelCallData>().firstTokenUs, first);
        f.agent.cancel();
    }

    void aCallThatStreamsNothingHasNoFirstToken()
    {
        Fixture f;
        f.client.enqueue(ScriptedModelClient::failure(u"down"_s));
        f.run(u"hi"_s);
        const int callNode = nodesOfKind(f.trace, TraceKind::ModelCall).constFirst();
        QVERIFY(!f.trace.node(callNode).data<ModelCallData>().firstTokenUs);
    }

    void aSecondTurnWhileOneRunsIsRefused()
    {
        Fixture f;
        f.client.enqueue(ScriptedModelClient::hang());
        QVERIFY(f.agent.send(u"one"_s));
        QVERIFY(!f.agent.send(u"two"_s));
        QVERIFY(!f.agent.setHistory({}));
        f.agent.cancel();
        QCOMPARE(f.agent.history().size(), 1);
    }

    void aRetryNodeLastsFromTheFailedAttemptUntilTheNextOneStarts()
    {
        Fixture f;
        Step answer = ScriptedModelClient::text(u"done"_s);
        ModelAttempt failed;
        failed.number = 1;
        failed.httpStatus = 429;
        failed.error = u"rate limited (429)"_s;
        failed.retryInMs = 1000;
        failed.startedUs = 10'000;
        failed.endedUs = 14'900; // the request itself took 4.9 ms
        ModelAttempt succeeded;
        succeeded.number = 2;
        succeeded.httpStatus = 200;
        succeeded.retryInMs = -1;
        succeeded.startedUs = 1'015'000; // after the 1 s wait
        succeeded.endedUs = 1'020'000;
        answer.retries = {failed, succeeded};
        f.client.enqueue(answer);

        const TurnResult result = f.run(u"hi"_s);

        QCOMPARE(result.outcome, TurnOutcome::Answered);
        const QList<int> retries = nodesOfKind(f.trace, TraceKind::Retry);
        QCOMPARE(retries.size(), 1);
        const TraceNode &retry = f.trace.node(retries.constFirst());
        // Its duration is what the retry cost (the attempt and the wait), not the 4.9 ms request.
        QCOMPARE(retry.startedUs, 10'000);
        QCOMPARE(retry.endedUs, 1'015'000);
        // The call recovered: the retry did its job and does not look failed.
        QCOMPARE(retry.status, TraceStatus::Ok);
        const int modelCall = nodesOfKind(f.trace, TraceKind::ModelCall).constFirst();
        QCOMPARE(f.trace.node(modelCall).status, TraceStatus::Ok);
    }

    void retriesOfACallThatFailedInTheEndStayFailed()
    {
        Fixture f;
        Step failure = ScriptedModelClient::failure(u"overloaded (500)"_s, 500);
        for (int number = 1; number <= 3; ++number) {
            ModelAttempt attempt;
            attempt.number = number;
            attempt.httpStatus = 500;
            attempt.error = u"overloaded (500)"_s;
            attempt.retryInMs = number < 3 ? 1000 : -1;
            attempt.startedUs = number * 10'000;
            attempt.endedUs = number * 10'000 + 100;
            failure.retries.append(attempt);
        }
        f.client.enqueue(failure);

        const TurnResult result = f.run(u"hi"_s);

        QCOMPARE(result.outcome, TurnOutcome::Failed);
        const QList<int> retries = nodesOfKind(f.trace, TraceKind::Retry);
        QCOMPARE(retries.size(), 2);
        for (const int retry : retries)
            QCOMPARE(f.trace.node(retry).status, TraceStatus::Error);
    }

    void aTurnStoppedWhileARetryWaitsEndsTheRetryAsCancelled()
    {
        Fixture f;
        Step slow = ScriptedModelClient::text(u"never"_s);
        slow.delayMs = -1;
        f.client.enqueue(slow);
        QVERIFY(f.agent.send(u"hi"_s));
        ModelAttempt failed;
        failed.number = 1;
        failed.httpStatus = 503;
        failed.error = u"overloaded (503)"_s;
        failed.retryInMs = 2000;
        failed.startedUs = 1;
        failed.endedUs = 2;
        emit f.client.attemptFinished(failed);
        const QList<int> retries = nodesOfKind(f.trace, TraceKind::Retry);
        QCOMPARE(retries.size(), 1);
        QCOMPARE(f.trace.node(retries.constFirst()).status, TraceStatus::Running); // still waiting

        f.agent.cancel();

        QCOMPARE(f.trace.node(retries.constFirst()).status, TraceStatus::Cancelled);
    }

    void providerFailuresEndTheTurnWithTheirMessage()
    {
        Fixture f;
        Step failing = ScriptedModelClient::failure(u"the API key was rejected (401)"_s, 401);
        ModelAttempt first;
        first.number = 1;
        first.httpStatus = 429;
        first.error = u"rate limited — retrying in 2 s"_s;
        first.retryInMs = 2000;
        failing.retries = {first};
        f.client.enqueue(failing);

        const TurnResult result = f.run(u"hi"_s);

        QCOMPARE(result.outcome, TurnOutcome::Failed);
        QCOMPARE(result.error, u"the API key was rejected (401)"_s);
        const QList<int> retries = nodesOfKind(f.trace, TraceKind::Retry);
        QCOMPARE(retries.size(), 1);
        QCOMPARE(f.trace.node(retries.constFirst()).data<RetryData>().delayMs, 2000);
        QVERIFY(f.eventKinds().contains(AgentEvent::Kind::Retry));
        const int modelCall = nodesOfKind(f.trace, TraceKind::ModelCall).constFirst();
        QCOMPARE(f.trace.node(modelCall).data<ModelCallData>().attempts.size(), 1);
        QCOMPARE(f.trace.node(modelCall).status, TraceStatus::Error);
        QCOMPARE(f.trace.node(nodesOfKind(f.trace, TraceKind::Error).constFirst()).data<ErrorData>().code,
                 u"provider"_s);
        QCOMPARE(f.agent.history().size(), 1);
    }

    void missingAndRepeatedCallIdsAreMadeUnique()
    {
        Fixture f;
        addAdder(f.workbench);
        f.client.enqueue({ScriptedModelClient::calls({call(QString(), u"add"_s, uR"({"a":1,"b":1})"_s),
                                                      call(u"dup"_s, u"add"_s, uR"({"a":1,"b":2})"_s)}),
                          ScriptedModelClient::calls({call(u"dup"_s, u"add"_s, uR"({"a":1,"b":3})"_s)}),
                          ScriptedModelClient::text(u"ok"_s)});

        f.run(u"go"_s);

        QVERIFY(historyIsWellFormed(f.agent.history()));
        QStringList ids;
        for (const Message &m : f.agent.history()) {
            for (const ToolCall &c : m.toolCalls)
                ids.append(c.id);
        }
        QCOMPARE(ids.size(), 3);
        QCOMPARE(ids.at(1), u"dup"_s);
        QVERIFY(!ids.at(0).isEmpty());
        QVERIFY(ids.at(2) != u"dup"_s);
    }

    void toolProgressReachesTheTraceAndTheEvents()
    {
        Fixture f;
        addTool(f.workbench, u"steps"_s, objectSchema({}, {}), [](const QJsonObject &, ToolContext &context) {
            context.reportProgress(u"step 1 of 2"_s);
            context.reportProgress(u"step 2 of 2"_s);
            return ToolResult::success(u"done"_s);
        });
        f.client.enqueue(
            {ScriptedModelClient::calls({call(u"1"_s, u"steps"_s)}), ScriptedModelClient::text(u"ok"_s)});

        f.run(u"go"_s);

        const TraceNode &node = f.trace.node(nodesOfKind(f.trace, TraceKind::ToolCall).constFirst());
        QTRY_COMPARE(node.data<ToolCallData>().progress, (QStringList{u"step 1 of 2"_s, u"step 2 of 2"_s}));
    }

    void aModelCallHeldForSomeoneIsAWaitAndTheCallStartsWhenItIsSent()
    {
        Fixture f;
        const auto clock = std::make_shared<HandClock>();
        f.agent.setClock(clock);
        RecordingInterceptor interceptor; // keeps the decision: a person at a breakpoint
        f.agent.addInterceptor(&interceptor);
        f.client.enqueue(ScriptedModelClient::text(u"ok"_s));

        QVERIFY(f.agent.send(u"hello"_s));
        QTRY_COMPARE(interceptor.heldModelDecisions.size(), 1);
        const qint64 heldAt = clock->now;
        clock->now += 23'900'000; // the user looks for 23.9 s
        interceptor.heldModelDecisions.constFirst().proceed();
        QTRY_COMPARE(f.finished.size(), 1);

        QCOMPARE(shape(f.trace, f.firstTurn()), u"turn(iteration(wait,model_call))"_s);
        const TraceNode &wait = f.trace.node(nodesOfKind(f.trace, TraceKind::Wait).constFirst());
        QCOMPARE(wait.status, TraceStatus::Ok);
        QCOMPARE(wait.startedUs, heldAt);
        QCOMPARE(wait.durationUs(), 23'900'000);
        QCOMPARE(wait.data<WaitData>().waitingFor, u"decision"_s);
        QCOMPARE(wait.data<WaitData>().decision, u"allowed"_s);
        const TraceNode &modelCall = f.trace.node(nodesOfKind(f.trace, TraceKind::ModelCall).constFirst());
        QCOMPARE(modelCall.startedUs, wait.endedUs);
        const int iteration = nodesOfKind(f.trace, TraceKind::Iteration).constFirst();
        QCOMPARE(stepTiming(f.trace, iteration).waitingUs, 23'900'000);
        QCOMPARE(stepTiming(f.trace, f.firstTurn()).workingUs(), 0);
    }

    void aModelCallThatProceedsAtOnceWaitsForNoOne()
    {
        Fixture f;
        RecordingInterceptor interceptor;
        letEveryModelCallThrough(interceptor);
        f.agent.addInterceptor(&interceptor);
        f.client.enqueue(ScriptedModelClient::text(u"ok"_s));

        f.run(u"hello"_s);

        QCOMPARE(shape(f.trace, f.firstTurn()), u"turn(iteration(model_call))"_s);
    }

    void aTurnCancelledWhileAModelCallIsHeldEndsItsWaitAsCancelled()
    {
        Fixture f;
        RecordingInterceptor interceptor;
        f.agent.addInterceptor(&interceptor);
        f.client.enqueue(ScriptedModelClient::text(u"ok"_s));

        QVERIFY(f.agent.send(u"hello"_s));
        QTRY_COMPARE(interceptor.heldModelDecisions.size(), 1);
        f.agent.cancel();
        interceptor.heldModelDecisions.constFirst().proceed(); // too late: ignored
        QTest::qWait(20);

        QCOMPARE(f.finished.size(), 1);
        QCOMPARE(f.client.requests().size(), 0);
        const TraceNode &wait = f.trace.node(nodesOfKind(f.trace, TraceKind::Wait).constFirst());
        QCOMPARE(wait.status, TraceStatus::Cancelled);
        QCOMPARE(wait.data<WaitData>().decision, u"cancelled"_s);
        QCOMPARE_GT(wait.endedUs, 0);
    }
};

QTEST_GUILESS_MAIN(AgentLoopTest)
#include "tst_agentloop.moc"
