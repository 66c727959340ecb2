#include "agent/debug/stepdebugger.h"
#include "tests/debug/debugfixture.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;
using Reason = StepDebugger::Reason;

namespace {

// An agent with the debugger in its chain, fed the agent's events, as the app wires it.
struct Fixture : AgentFixture
{
    StepDebugger debugger;
    QSignalSpy paused{&debugger, &StepDebugger::paused};
    QSignalSpy resumed{&debugger, &StepDebugger::resumed};

    explicit Fixture(bool observe = true)
    {
        debugger.setEnabled(true);
        agent.addInterceptor(&debugger);
        if (observe)
            QObject::connect(&agent, &Agent::event, &debugger, &StepDebugger::observe);
    }
    ~Fixture() { agent.removeInterceptor(&debugger); }

    void setBreakpoints(bool modelCalls, bool allToolCalls = false, const QStringList &toolNames = {},
                        bool errors = false)
    {
        StepDebugger::Breakpoints breakpoints;
        breakpoints.modelCalls = modelCalls;
        breakpoints.allToolCalls = allToolCalls;
        breakpoints.toolNames = QSet<QString>(toolNames.cbegin(), toolNames.cend());
        breakpoints.errors = errors;
        debugger.setBreakpoints(breakpoints);
    }

    // Waits until the debugger holds a tool call named \a name, or a model call when empty.
    bool waitForStop(const QString &toolName = {})
    {
        return QTest::qWaitFor([&] {
            const auto stop = debugger.currentStop();
            if (!stop)
                return false;
            return toolName.isEmpty() ? bool(stop->modelCall)
                                      : stop->toolCall && stop->toolCall->call.name == toolName;
        });
    }
    bool waitForEnd()
    {
        return QTest::qWaitFor([&] { return !finished.isEmpty(); });
    }
};

} // namespace

class StepDebuggerTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qRegisterMetaType<TurnResult>();
        qRegisterMetaType<AgentEvent>();
    }

    void aModelCallBreakpointHoldsTheLoopUntilContinue()
    {
        Fixture f;
        f.setBreakpoints(true);
        f.client.enqueue(ScriptedModelClient::text(u"hello back"_s));

        QVERIFY(f.agent.send(u"hello"_s));
        QVERIFY(f.waitForStop());
        QTest::qWait(50);
        QCOMPARE(f.client.requests().size(), 0);
        QCOMPARE(f.agent.state(), Agent::State::AwaitingDecision);
        QCOMPARE(f.paused.size(), 1);
        QCOMPARE(f.paused.constFirst().first().value<Reason>(), Reason::Breakpoint);
        const StepDebugger::Stop stop = *f.debugger.currentStop();
        QCOMPARE(stop.reason, Reason::Breakpoint);
        QCOMPARE(stop.modelCall->iteration, 1);
        QCOMPARE(stop.modelCall->request.messages.constLast(), Message::user(u"hello"_s));
        QVERIFY(!stop.toolCall);

        f.debugger.resume();

        QVERIFY(!f.debugger.isPaused());
        QCOMPARE(f.resumed.size(), 1);
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.lastResult().outcome, TurnOutcome::Answered);
        QCOMPARE(f.client.requests().size(), 1);
    }

    void stepGoesToTheNextCheckpoint()
    {
        Fixture f;
        f.setBreakpoints(true);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"three"_s)});
        QVERIFY(f.agent.send(u"1 + 2?"_s));
        QVERIFY(f.waitForStop());

        // From the first model call to the tool call it answers with...
        f.debugger.step();
        QVERIFY(f.waitForStop(u"add"_s));
        QCOMPARE(f.debugger.currentStop()->reason, Reason::Step);
        QCOMPARE(f.client.requests().size(), 1);
        QCOMPARE(f.adds.count(), 0);

        // ...to the next model call, which carries the tool's result...
        f.debugger.step();
        QVERIFY(f.waitForStop());
        QCOMPARE(f.debugger.currentStop()->reason, Reason::Step);
        QCOMPARE(f.debugger.currentStop()->modelCall->iteration, 2);
        QCOMPARE(f.adds.count(), 1);
        QCOMPARE(f.client.requests().size(), 1);
        QCOMPARE(f.debugger.currentStop()->modelCall->request.messages.constLast().text, u"3"_s);

        // ...and past the last one, the turn ends.
        f.debugger.step();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.lastResult().text, u"three"_s);
        QVERIFY(!f.debugger.isPaused());
        QCOMPARE(f.paused.size(), 3);
    }

    void pauseHoldsTheNextCallWithoutBreakpoints_data()
    {
        QTest::addColumn<bool>("beforeSending");
        QTest::addColumn<QString>("heldTool");

        QTest::newRow("paused before sending: the first model call") << true << QString();
        QTest::newRow("paused while the model answers: its tool call") << false << u"add"_s;
    }

    void pauseHoldsTheNextCallWithoutBreakpoints()
    {
        QFETCH(bool, beforeSending);
        QFETCH(QString, heldTool);

        Fixture f;
        f.debugger.setEnabled(false);
        ScriptedModelClient::Step slow = ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)});
        slow.delayMs = 100;
        f.client.enqueue({slow, ScriptedModelClient::text(u"three"_s)});

        if (beforeSending) {
            f.debugger.pause();
            QVERIFY(f.debugger.isPausePending());
            QVERIFY(f.agent.send(u"1 + 2?"_s));
        } else {
            QVERIFY(f.agent.send(u"1 + 2?"_s));
            QTRY_COMPARE(f.client.requests().size(), 1);
            f.debugger.pause();
            QVERIFY(f.debugger.isPausePending());
        }
        QVERIFY(f.debugger.isEnabled());

        QVERIFY(f.waitForStop(heldTool));
        QCOMPARE(f.debugger.currentStop()->reason, Reason::Pause);
        QVERIFY(!f.debugger.isPausePending());
        QCOMPARE(f.adds.count(), 0);

        // A pause asks once: continuing runs to the end.
        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.paused.size(), 1);
        QCOMPARE(f.adds.count(), 1);
    }

    void aToolNameBreakpointHoldsOnlyThatTool_data()
    {
        QTest::addColumn<bool>("heldFirst");
        QTest::newRow("the held tool is called first") << true;
        QTest::newRow("the held tool is called second") << false;
    }

    void aToolNameBreakpointHoldsOnlyThatTool()
    {
        QFETCH(bool, heldFirst);

        Fixture f;
        f.setBreakpoints(false, false, {u"add"_s});
        const ToolCall add = AgentFixture::add(u"c1"_s, 1, 2);
        const ToolCall echo = AgentFixture::echo(u"c2"_s, u"hi"_s);
        f.client.enqueue({ScriptedModelClient::calls(heldFirst ? QList{add, echo} : QList{echo, add}),
                          ScriptedModelClient::text(u"done"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop(u"add"_s));
        QTRY_COMPARE(f.echoes.count(), 1);
        QTest::qWait(50);
        QCOMPARE(f.debugger.heldCount(), 1);
        QCOMPARE(f.adds.count(), 0);
        QCOMPARE(f.client.requests().size(), 1);

        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.count(), 1);
        QCOMPARE(f.paused.size(), 1);
    }

    void aBreakpointHoldsAnAsynchronousToolLikeABlockingOne()
    {
        Fixture f;
        f.addAsyncAdd();
        f.setBreakpoints(false, false, {u"add_later"_s});
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2, u"add_later"_s)}),
                          ScriptedModelClient::text(u"done"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop(u"add_later"_s));
        QTest::qWait(50);
        QCOMPARE(f.debugger.heldCount(), 1);
        QCOMPARE(f.adds.count(), 0);

        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.count(), 1);
        QCOMPARE(f.lastToolResult(1).text, u"3"_s);
        QCOMPARE(f.paused.size(), 1);
    }

    void parallelCallsAreHeldTogetherAndStepLetsThemGoOneAtATime()
    {
        Fixture f;
        f.setBreakpoints(true);
        f.client.enqueue(
            {ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 1), AgentFixture::add(u"c2"_s, 2, 2),
                                         AgentFixture::add(u"c3"_s, 3, 3)}),
             ScriptedModelClient::text(u"done"_s)});
        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop());
        f.debugger.step();
        QVERIFY(f.waitForStop(u"add"_s));
        QCOMPARE(f.debugger.heldCount(), 3);
        QCOMPARE(f.debugger.currentStop()->toolCall->call.id, u"c1"_s);

        for (int released = 1; released <= 3; ++released) {
            f.debugger.step();
            QTRY_COMPARE(f.adds.count(), released);
            QTest::qWait(20);
            QCOMPARE(f.adds.count(), released);
            if (released < 3) {
                QCOMPARE(f.debugger.heldCount(), 3 - released);
                QCOMPARE(f.debugger.currentStop()->toolCall->call.id, u"c%1"_s.arg(released + 1));
            }
        }
        // The last step goes on to the model call after the results.
        QVERIFY(f.waitForStop());
        QCOMPARE(f.client.requests().size(), 1);
        QCOMPARE(f.adds.arguments().at(1).value(u"a"_s).toInt(), 2);

        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.lastResult().outcome, TurnOutcome::Answered);
    }

    void anEditedArgumentReachesTheToolAndTheTraceShowsOriginalAndEdited()
    {
        Fixture f;
        f.setBreakpoints(false, false, {u"add"_s});
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"thirty"_s)});
        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop(u"add"_s));

        QString error;
        // Formatting is the user's; the loop gets compact JSON.
        QVERIFY(f.debugger.editArguments(u"{ \"a\": 10,\n  \"b\": 20 }"_s, &error));
        QVERIFY(error.isEmpty());
        QCOMPARE(f.debugger.currentStop()->editedArguments.value_or(QString()),
                 json({{u"a"_s, 10}, {u"b"_s, 20}}));
        QVERIFY(f.debugger.currentStop()->isEdited());

        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.count(), 1);
        QCOMPARE(f.adds.arguments().constFirst(), (QJsonObject{{u"a"_s, 10}, {u"b"_s, 20}}));
        QCOMPARE(f.lastToolResult(1).text, u"30"_s);
        const ToolCallData &node = f.toolNode();
        QCOMPARE(node.originalArguments, json({{u"a"_s, 1}, {u"b"_s, 2}}));
        QCOMPARE(node.call.arguments, json({{u"a"_s, 10}, {u"b"_s, 20}}));
        QCOMPARE(node.decision, u"allowed"_s);
    }

    void argumentsEqualToTheModelsAreNoEdit()
    {
        Fixture f;
        f.setBreakpoints(false, true);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"three"_s)});
        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop(u"add"_s));

        QVERIFY(f.debugger.editArguments(u"{\"b\": 2, \"a\": 1}"_s));
        QVERIFY(!f.debugger.currentStop()->isEdited());

        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        QVERIFY(f.toolNode().originalArguments.isEmpty());
    }

    void anEditThatBreaksTheSchemaIsRefused_data()
    {
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QString>("explanation");

        QTest::newRow("a property of the wrong type") << u"{\"a\": \"ten\", \"b\": 2}"_s << u"at /a"_s;
        QTest::newRow("a required property missing") << u"{\"a\": 1}"_s << u"b"_s;
        QTest::newRow("a property the schema does not know")
            << u"{\"a\": 1, \"b\": 2, \"c\": 3}"_s << u"add"_s;
        QTest::newRow("not JSON") << u"{\"a\": 1,"_s << u"not valid JSON"_s;
        QTest::newRow("an array instead of an object") << u"[1, 2]"_s << u"JSON object"_s;
    }

    void anEditThatBreaksTheSchemaIsRefused()
    {
        QFETCH(QString, arguments);
        QFETCH(QString, explanation);

        Fixture f;
        f.setBreakpoints(false, false, {u"add"_s});
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"three"_s)});
        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop(u"add"_s));
        // An earlier valid edit stays when a later one is refused.
        QVERIFY(f.debugger.editArguments(json({{u"a"_s, 5}, {u"b"_s, 5}})));
        QSignalSpy changed(&f.debugger, &StepDebugger::stopChanged);

        QString error;
        QVERIFY(!f.debugger.editArguments(arguments, &error));

        QVERIFY2(error.contains(explanation), qPrintable(error));
        QCOMPARE(f.debugger.validateArguments(arguments), error);
        QCOMPARE(changed.size(), 0);
        QCOMPARE(f.debugger.currentStop()->editedArguments.value_or(QString()),
                 json({{u"a"_s, 5}, {u"b"_s, 5}}));
        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.arguments().constFirst(), (QJsonObject{{u"a"_s, 5}, {u"b"_s, 5}}));
    }

    void aHandTypedResultReachesTheModelInsteadOfRunningTheTool()
    {
        Fixture f;
        f.setBreakpoints(false, true);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"ok"_s)});
        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop(u"add"_s));

        QVERIFY(f.debugger.editArguments(json({{u"a"_s, 5}, {u"b"_s, 5}})));
        // The typed result replaces the edit: one decision per call.
        QVERIFY(f.debugger.supplyResult(ToolResult::success(u"42, typed by hand"_s)));
        QVERIFY(!f.debugger.currentStop()->editedArguments);
        f.debugger.resume();

        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.count(), 0);
        const Message fed = f.lastToolResult(1);
        QCOMPARE(fed.text, u"42, typed by hand"_s);
        QCOMPARE(fed.toolCallId, u"c1"_s);
        QVERIFY(!fed.isError);
        QCOMPARE(f.toolNode().decision, u"manual result"_s);
        QCOMPARE(f.toolNode().result, u"42, typed by hand"_s);
    }

    void aDeniedCallDoesNotRunAndTheModelIsTold()
    {
        Fixture f;
        f.setBreakpoints(false, true);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"ok"_s)});
        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop(u"add"_s));

        QVERIFY(f.debugger.deny(u"not with these numbers"_s));
        f.debugger.step();

        QVERIFY(f.waitForStop());
        QCOMPARE(f.adds.count(), 0);
        QVERIFY(f.debugger.currentStop()->modelCall->request.messages.constLast().isError);
        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        const Message fed = f.lastToolResult(1);
        QVERIFY(fed.isError);
        QVERIFY2(fed.text.contains(u"not with these numbers"_s), qPrintable(fed.text));
        QCOMPARE(f.toolNode().decision, u"denied"_s);
        QCOMPARE(f.trace.node(f.nodesOfKind(TraceKind::ToolCall).constFirst()).status, TraceStatus::Denied);
    }

    void editsFitOnlyTheirKindOfStopAndCanBeDiscarded()
    {
        Fixture f;
        f.setBreakpoints(true, true);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"ok"_s)});

        // Nothing held: nothing to edit.
        QVERIFY(!f.debugger.editRequest({}));
        QVERIFY(!f.debugger.deny());
        QVERIFY(!f.debugger.discardEdits());
        QVERIFY(!f.debugger.validateArguments(u"{}"_s).isEmpty());

        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop());
        QVERIFY(!f.debugger.editArguments(u"{}"_s));
        QVERIFY(!f.debugger.supplyResult(ToolResult::success(u"x"_s)));
        QVERIFY(!f.debugger.deny());

        f.debugger.step();
        QVERIFY(f.waitForStop(u"add"_s));
        QVERIFY(!f.debugger.editRequest({}));
        QVERIFY(f.debugger.deny());
        QVERIFY(f.debugger.discardEdits());
        QVERIFY(!f.debugger.currentStop()->isEdited());
        f.setBreakpoints(false);
        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.count(), 1);
    }

    void breakOnErrorHoldsAtTheNextCheckpointAfterAnError_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<bool>("held");

        QTest::newRow("a tool that fails") << u"fail"_s << true;
        QTest::newRow("a tool that succeeds") << u"echo"_s << false;
    }

    void breakOnErrorHoldsAtTheNextCheckpointAfterAnError()
    {
        QFETCH(QString, tool);
        QFETCH(bool, held);

        Fixture f;
        f.setBreakpoints(false, false, {}, true);
        f.client.enqueue({ScriptedModelClient::calls({ScriptedModelClient::call(
                              u"c1"_s, tool, tool == u"echo" ? json({{u"text"_s, u"hi"_s}}) : u"{}"_s)}),
                          ScriptedModelClient::text(u"ok"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        if (!held) {
            QVERIFY(f.waitForEnd());
            QCOMPARE(f.paused.size(), 0);
            return;
        }
        QVERIFY(f.waitForStop());
        QCOMPARE(f.debugger.currentStop()->reason, Reason::Error);
        QCOMPARE(f.debugger.currentStop()->modelCall->iteration, 2);
        const Message &result = f.debugger.currentStop()->modelCall->request.messages.constLast();
        QVERIFY(result.isError);
        QCOMPARE(result.text, u"the disk is on fire"_s);
        QCOMPARE(f.client.requests().size(), 1);

        // One error, one stop.
        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.paused.size(), 1);
    }

    void aDeniedCallIsNoErrorToBreakOn()
    {
        Fixture f;
        f.setBreakpoints(false, true, {}, true);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"ok"_s)});
        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop(u"add"_s));
        QVERIFY(f.debugger.deny());
        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.paused.size(), 1);
    }

    void cancellingWhilePausedEndsTheTurnAndFreesEverything_data()
    {
        QTest::addColumn<bool>("atToolCalls");
        QTest::addColumn<bool>("observed");

        QTest::newRow("at a model call, the debugger seeing the events") << false << true;
        QTest::newRow("at a model call, told by forgetHeld") << false << false;
        QTest::newRow("at two tool calls, the debugger seeing the events") << true << true;
        QTest::newRow("at two tool calls, told by forgetHeld") << true << false;
    }

    void cancellingWhilePausedEndsTheTurnAndFreesEverything()
    {
        QFETCH(bool, atToolCalls);
        QFETCH(bool, observed);

        Fixture f(observed);
        f.setBreakpoints(!atToolCalls, atToolCalls);
        f.client.enqueue(ScriptedModelClient::calls(
            {AgentFixture::add(u"c1"_s, 1, 2), AgentFixture::echo(u"c2"_s, u"hi"_s)}));
        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop(atToolCalls ? u"add"_s : QString()));
        QCOMPARE(f.debugger.heldCount(), atToolCalls ? 2 : 1);
        // A step asked for before the cancel must not leak into the next turn.
        f.debugger.pause();

        f.agent.cancel();
        f.debugger.forgetHeld();

        QCOMPARE(f.finished.size(), 1);
        QCOMPARE(f.lastResult().outcome, TurnOutcome::Cancelled);
        QCOMPARE(f.agent.state(), Agent::State::Idle);
        QVERIFY(!f.debugger.isPaused());
        QCOMPARE(f.debugger.heldCount(), 0);
        QVERIFY(!f.debugger.isPausePending());
        QCOMPARE(f.resumed.size(), 1);
        QVERIFY(historyIsWellFormed(f.agent.history()));
        QCOMPARE(f.trace.node(f.trace.roots().constFirst()).status, TraceStatus::Cancelled);
        // Whatever the UI still does with the old stop changes nothing.
        QVERIFY(!f.debugger.editArguments(u"{}"_s));
        f.debugger.resume();
        f.debugger.step();
        f.debugger.resume();
        QTest::qWait(50);
        QCOMPARE(f.adds.count() + f.echoes.count(), 0);
        QCOMPARE(f.client.requests().size(), atToolCalls ? 1 : 0);

        // The next turn starts clean: it stops at its breakpoint, not at a stale step.
        f.setBreakpoints(false);
        f.client.enqueue(ScriptedModelClient::text(u"fresh"_s));
        f.finished.clear();
        QVERIFY(f.agent.send(u"again"_s));
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.lastResult().text, u"fresh"_s);
        QVERIFY(!f.debugger.isPaused());
    }

    void anEditedRequestIsWhatTheModelReceivesAndTheTraceMarksItEdited_data()
    {
        QTest::addColumn<bool>("change");
        QTest::newRow("a message added") << true;
        QTest::newRow("the same messages") << false;
    }

    void anEditedRequestIsWhatTheModelReceivesAndTheTraceMarksItEdited()
    {
        QFETCH(bool, change);

        Fixture f;
        f.setBreakpoints(true);
        f.client.enqueue(ScriptedModelClient::text(u"ok"_s));
        QVERIFY(f.agent.send(u"hello"_s));
        QVERIFY(f.waitForStop());

        // The round trip the UI makes: the messages as JSON text, edited, read back.
        const ModelRequest original = f.debugger.currentStop()->modelCall->request;
        QJsonArray messages
            = QJsonDocument::fromJson(StepDebugger::messagesToJson(original.messages).toUtf8()).array();
        if (change)
            messages.append(QJsonObject{{u"role"_s, u"user"_s}, {u"text"_s, u"(added while paused)"_s}});
        const auto parsed
            = StepDebugger::messagesFromJson(QString::fromUtf8(QJsonDocument(messages).toJson()));
        QVERIFY(parsed);
        ModelRequest edited = original;
        edited.messages = *parsed;
        QVERIFY(f.debugger.editRequest(edited));
        QCOMPARE(f.debugger.currentStop()->isEdited(), change);

        f.debugger.resume();
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.client.requests().constFirst(), edited);
        QCOMPARE(f.client.requests().constFirst().messages.size(),
                 original.messages.size() + (change ? 1 : 0));
        const ModelCallData &call
            = f.trace.node(f.nodesOfKind(TraceKind::ModelCall).constFirst()).data<ModelCallData>();
        QCOMPARE(call.editedByInterceptor, change);
        QCOMPARE(call.request, edited);
        // The trace keeps what the loop had built beside the edit.
        QCOMPARE(call.originalRequest.has_value(), change);
        if (change)
            QCOMPARE(*call.originalRequest, original);
    }

    void messagesFromJsonRefusesWhatIsNotAListOfMessages_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("explanation");

        QTest::newRow("not JSON") << u"[{\"role\": "_s << u"not valid JSON"_s;
        QTest::newRow("an object instead of an array") << u"{\"role\": \"user\"}"_s << u"JSON array"_s;
        QTest::newRow("a string in the array") << u"[\"hello\"]"_s << u"Message 1 is not"_s;
        QTest::newRow("an unknown role") << u"[{\"role\": \"user\"}, {\"role\": \"robot\"}]"_s
                                         << u"Message 2 has an unknown role \"robot\""_s;
        QTest::newRow("text that is not a string")
            << u"[{\"role\": \"user\", \"text\": 5}]"_s << u"text of message 1"_s;
    }

    void messagesFromJsonRefusesWhatIsNotAListOfMessages()
    {
        QFETCH(QString, text);
        QFETCH(QString, explanation);

        QString error;
        QVERIFY(!StepDebugger::messagesFromJson(text, &error));
        QVERIFY2(error.contains(explanation), qPrintable(error));
    }

    void disablingTheDebuggerLetsWhatItHoldsGo()
    {
        Fixture f;
        f.setBreakpoints(true);
        QSignalSpy settings(&f.debugger, &StepDebugger::settingsChanged);
        f.client.enqueue(ScriptedModelClient::text(u"ok"_s));
        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForStop());

        f.debugger.setEnabled(false);

        QVERIFY(!f.debugger.isPaused());
        QCOMPARE(settings.size(), 1);
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.lastResult().outcome, TurnOutcome::Answered);
        QVERIFY(f.debugger.breakpoints().modelCalls); // kept for when it is on again
    }

    void aDebuggerDestroyedWhileHoldingLetsTheLoopGoOn()
    {
        AgentFixture f;
        auto debugger = std::make_unique<StepDebugger>();
        debugger->setEnabled(true);
        debugger->setBreakpoints({true, false, {}, false});
        f.agent.addInterceptor(debugger.get());
        f.client.enqueue(ScriptedModelClient::text(u"ok"_s));
        QVERIFY(f.agent.send(u"go"_s));
        QTRY_VERIFY(debugger->isPaused());

        f.agent.removeInterceptor(debugger.get());
        debugger.reset();

        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.lastResult().outcome, TurnOutcome::Answered);
    }
};

QTEST_GUILESS_MAIN(StepDebuggerTest)
#include "tst_stepdebugger.moc"
