#include "agent/debug/stepdebugger.h"
#include "agent/debug/toolapprovalpolicy.h"
#include "tests/debug/debugfixture.h"

#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;
using Rule = ToolApprovalPolicy::Rule;

namespace {

struct Fixture : AgentFixture
{
    ToolApprovalPolicy policy;
    QSignalSpy requested{&policy, &ToolApprovalPolicy::approvalRequested};
    QSignalSpy settled{&policy, &ToolApprovalPolicy::approvalSettled};

    Fixture() { agent.addInterceptor(&policy); }
    ~Fixture() { agent.removeInterceptor(&policy); }

    bool waitForEnd()
    {
        return QTest::qWaitFor([&] { return !finished.isEmpty(); });
    }
    ToolApprovalPolicy::Request request(int index = 0) const
    {
        return requested.at(index).first().value<ToolApprovalPolicy::Request>();
    }
};

} // namespace

class ToolApprovalPolicyTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qRegisterMetaType<TurnResult>();
        qRegisterMetaType<AgentEvent>();
    }

    void alwaysRunsTheToolWithoutAsking()
    {
        Fixture f;
        QCOMPARE(f.policy.rule(u"add"_s), Rule::Always);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"three"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForEnd());

        QCOMPARE(f.requested.size(), 0);
        QCOMPARE(f.adds.count(), 1);
        QCOMPARE(f.lastToolResult(1).text, u"3"_s);
    }

    void neverDeniesTheCallAndTheModelSeesTheDenial()
    {
        Fixture f;
        f.policy.setRule(u"add"_s, Rule::Never);
        f.client.enqueue({ScriptedModelClient::calls(
                              {AgentFixture::add(u"c1"_s, 1, 2), AgentFixture::echo(u"c2"_s, u"hi"_s)}),
                          ScriptedModelClient::text(u"ok"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForEnd());

        QCOMPARE(f.requested.size(), 0);
        QCOMPARE(f.adds.count(), 0);
        QCOMPARE(f.echoes.count(), 1); // the default rule still applies to other tools
        const QList<Message> &seen = f.client.requests().at(1).messages;
        const Message &denial = seen.at(seen.size() - 2);
        QCOMPARE(denial.toolCallId, u"c1"_s);
        QVERIFY(denial.isError);
        QVERIFY2(denial.text.contains(u"does not allow the tool \"add\""_s), qPrintable(denial.text));
        QCOMPARE(f.toolNode(0).decision, u"denied"_s);
        QCOMPARE(f.trace.node(f.nodesOfKind(TraceKind::ToolCall).constFirst()).status, TraceStatus::Denied);
    }

    void aDenialTellsTheModelTheReasonItsCallerGave()
    {
        Fixture f;
        f.policy.setDefaultRule(Rule::Never);
        f.policy.setNeverReason(u"tool calls are not approved in this run (--approve none)"_s);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"ok"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QVERIFY(f.waitForEnd());

        QCOMPARE(f.adds.count(), 0);
        const Message &denial = f.client.requests().at(1).messages.constLast();
        QCOMPARE(denial.toolCallId, u"c1"_s);
        QVERIFY(denial.isError);
        QVERIFY2(denial.text.endsWith(u": tool calls are not approved in this run (--approve none)"_s),
                 qPrintable(denial.text));
    }

    void askHoldsTheCallUntilTheUserDecides_data()
    {
        QTest::addColumn<QString>("decision");
        QTest::addColumn<int>("runs");
        QTest::addColumn<QString>("fedBack");
        QTest::addColumn<bool>("allowed");

        QTest::newRow("allowed once") << u"allow"_s << 1 << u"3"_s << true;
        QTest::newRow("allowed once with edited arguments") << u"edit"_s << 1 << u"30"_s << true;
        QTest::newRow("denied") << u"deny"_s << 0 << u"Denied by the user."_s << false;
        QTest::newRow("denied with a reason")
            << u"deny with reason"_s << 0 << u"use the calculator"_s << false;
    }

    void askHoldsTheCallUntilTheUserDecides()
    {
        QFETCH(QString, decision);
        QFETCH(int, runs);
        QFETCH(QString, fedBack);
        QFETCH(bool, allowed);

        Fixture f;
        f.policy.setDefaultRule(Rule::Ask);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"ok"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QTRY_COMPARE(f.requested.size(), 1);
        QTest::qWait(50);
        QCOMPARE(f.adds.count(), 0);
        QCOMPARE(f.agent.state(), Agent::State::AwaitingDecision);
        const ToolApprovalPolicy::Request request = f.request();
        QCOMPARE(request.callId, u"c1"_s);
        QCOMPARE(request.checkpoint.call.name, u"add"_s);
        QCOMPARE(request.checkpoint.schema.name, u"add"_s);
        QCOMPARE(f.policy.pending().size(), 1);

        bool decided = false;
        if (decision == u"allow")
            decided = f.policy.allowOnce(request.callId);
        else if (decision == u"edit")
            decided = f.policy.allowOnce(request.callId, json({{u"a"_s, 10}, {u"b"_s, 20}}));
        else if (decision == u"deny")
            decided = f.policy.deny(request.callId);
        else
            decided = f.policy.deny(request.callId, u"use the calculator"_s);
        QVERIFY(decided);
        QVERIFY(f.policy.pending().isEmpty());
        QCOMPARE(f.settled.size(), 1);
        QCOMPARE(f.settled.constFirst().at(0).toString(), u"c1"_s);
        QCOMPARE(f.settled.constFirst().at(1).toBool(), allowed);
        // Deciding again is refused and changes nothing.
        QVERIFY(!f.policy.deny(request.callId));
        QVERIFY(!f.policy.allowOnce(request.callId));

        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.count(), runs);
        const Message fed = f.lastToolResult(1);
        QVERIFY2(fed.text.contains(fedBack), qPrintable(fed.text));
        QCOMPARE(fed.isError, !allowed);
        if (decision == u"edit") {
            QCOMPARE(f.adds.arguments().constFirst(), (QJsonObject{{u"a"_s, 10}, {u"b"_s, 20}}));
            QCOMPARE(f.toolNode().originalArguments, json({{u"a"_s, 1}, {u"b"_s, 2}}));
        }
        QCOMPARE(f.policy.rule(u"add"_s), Rule::Ask); // a single decision sets no rule
    }

    void alwaysAllowSetsTheRuleAndLaterCallsRunWithoutAsking()
    {
        Fixture f;
        f.policy.setRule(u"add"_s, Rule::Ask);
        QSignalSpy rulesChanged(&f.policy, &ToolApprovalPolicy::rulesChanged);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::calls({AgentFixture::add(u"c2"_s, 3, 4)}),
                          ScriptedModelClient::text(u"ok"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QTRY_COMPARE(f.requested.size(), 1);
        QVERIFY(f.policy.alwaysAllow(f.request().callId));

        QCOMPARE(f.policy.rule(u"add"_s), Rule::Always);
        QCOMPARE(rulesChanged.size(), 1);
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.requested.size(), 1);
        QCOMPARE(f.adds.count(), 2);
        QCOMPARE(f.lastToolResult(2).text, u"7"_s);
    }

    void alwaysAllowLetsTheOtherWaitingCallsOfThatToolGo()
    {
        Fixture f;
        f.policy.setDefaultRule(Rule::Ask);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2),
                                                      AgentFixture::echo(u"c2"_s, u"hi"_s),
                                                      AgentFixture::add(u"c3"_s, 3, 4)}),
                          ScriptedModelClient::text(u"ok"_s)});
        QVERIFY(f.agent.send(u"go"_s));
        QTRY_COMPARE(f.requested.size(), 3);

        QVERIFY(f.policy.alwaysAllow(u"c1"_s, json({{u"a"_s, 10}, {u"b"_s, 20}})));

        QTRY_COMPARE(f.adds.count(), 2);
        QCOMPARE(f.policy.pending().size(), 1);
        QCOMPARE(f.policy.pending().constFirst().callId, u"c2"_s);
        QCOMPARE(f.settled.size(), 2);
        QTest::qWait(20);
        QCOMPARE(f.echoes.count(), 0);
        QVERIFY(f.finished.isEmpty());

        QVERIFY(f.policy.allowOnce(u"c2"_s));
        QVERIFY(f.waitForEnd());
        const QList<Message> &seen = f.client.requests().at(1).messages;
        QCOMPARE(seen.at(seen.size() - 3).text, u"30"_s); // the edit stays with its own call
        QCOMPARE(seen.constLast().text, u"7"_s);
    }

    void forgetPendingAfterCancelDropsWhatWaits()
    {
        Fixture f;
        f.policy.setDefaultRule(Rule::Ask);
        f.client.enqueue(ScriptedModelClient::calls(
            {AgentFixture::add(u"c1"_s, 1, 2), AgentFixture::echo(u"c2"_s, u"hi"_s)}));
        QVERIFY(f.agent.send(u"go"_s));
        QTRY_COMPARE(f.requested.size(), 2);

        f.agent.cancel();
        f.policy.forgetPending();

        QCOMPARE(f.lastResult().outcome, TurnOutcome::Cancelled);
        QVERIFY(f.policy.pending().isEmpty());
        QCOMPARE(f.settled.size(), 2);
        QCOMPARE(f.settled.at(0).at(1).toBool(), false);
        QVERIFY(!f.policy.allowOnce(u"c1"_s));
        QVERIFY(!f.policy.alwaysAllow(u"c2"_s));
        QTest::qWait(50);
        QCOMPARE(f.adds.count() + f.echoes.count(), 0);
        QVERIFY(historyIsWellFormed(f.agent.history()));
        QCOMPARE(f.policy.rule(u"echo"_s), Rule::Ask);
    }

    void theApprovalSeesWhatTheDebuggerEdited()
    {
        // The app's order: the debugger first, then the approval policy.
        AgentFixture f;
        StepDebugger debugger;
        debugger.setEnabled(true);
        debugger.setBreakpoints({false, true, {}, false});
        ToolApprovalPolicy policy;
        policy.setDefaultRule(Rule::Ask);
        QSignalSpy requested(&policy, &ToolApprovalPolicy::approvalRequested);
        f.agent.addInterceptor(&debugger);
        f.agent.addInterceptor(&policy);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2)}),
                          ScriptedModelClient::text(u"ok"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QTRY_VERIFY(debugger.isPaused());
        QCOMPARE(requested.size(), 0);
        QVERIFY(debugger.editArguments(json({{u"a"_s, 10}, {u"b"_s, 20}})));
        debugger.resume();

        QTRY_COMPARE(requested.size(), 1);
        const auto request = requested.constFirst().first().value<ToolApprovalPolicy::Request>();
        QCOMPARE(request.checkpoint.call.arguments, json({{u"a"_s, 10}, {u"b"_s, 20}}));
        QVERIFY(policy.allowOnce(request.callId));
        QTRY_COMPARE(f.finished.size(), 1);
        QCOMPARE(f.adds.arguments().constFirst().value(u"a"_s).toInt(), 10);
        f.agent.removeInterceptor(&policy);
        f.agent.removeInterceptor(&debugger);
    }

    void rulesChangeOnlyWhenTheyDiffer()
    {
        ToolApprovalPolicy policy;
        QSignalSpy changed(&policy, &ToolApprovalPolicy::rulesChanged);

        policy.setRule(u"add"_s, Rule::Always); // the default, but now the tool's own
        policy.setRule(u"add"_s, Rule::Always);
        policy.setDefaultRule(Rule::Always);
        QCOMPARE(changed.size(), 1);

        policy.setDefaultRule(Rule::Never);
        QCOMPARE(policy.rule(u"add"_s), Rule::Always);
        QCOMPARE(policy.rule(u"echo"_s), Rule::Never);
        policy.setRules({{u"echo"_s, Rule::Ask}});
        QCOMPARE(policy.rule(u"add"_s), Rule::Never);
        QCOMPARE(policy.rule(u"echo"_s), Rule::Ask);
        policy.setRules({{u"echo"_s, Rule::Ask}});
        QCOMPARE(changed.size(), 3);
    }

    void ruleNamesRoundTrip_data()
    {
        QTest::addColumn<Rule>("rule");
        QTest::addColumn<QString>("name");

        QTest::newRow("always") << Rule::Always << u"always"_s;
        QTest::newRow("ask") << Rule::Ask << u"ask"_s;
        QTest::newRow("never") << Rule::Never << u"never"_s;
    }

    void ruleNamesRoundTrip()
    {
        QFETCH(Rule, rule);
        QFETCH(QString, name);

        QCOMPARE(ToolApprovalPolicy::ruleName(rule), name);
        QCOMPARE(ToolApprovalPolicy::ruleFromName(name), std::optional(rule));
    }

    void anUnknownRuleNameIsNoRule()
    {
        QVERIFY(!ToolApprovalPolicy::ruleFromName(u"sometimes"_s));
        QVERIFY(!ToolApprovalPolicy::ruleFromName(u"Always"_s));
    }
};

QTEST_GUILESS_MAIN(ToolApprovalPolicyTest)
#include "tst_toolapprovalpolicy.moc"
