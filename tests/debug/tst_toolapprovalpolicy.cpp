#include "agent/debug/stepdebugger.h"
#include "agent/debug/toolapprovalpolicy.h"
#include "tests/debug/debugfixture.h"

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;
using Rule = ToolApprovalPolicy::Rule;

Q_DECLARE_METATYPE(Loopscope::ApprovalScope)

namespace {

// A tool that asks first, named like the built-in one whose calls a command prefix scopes; test-only,
// it runs nothing and records what it was asked to run.
const QString RunCommand = u"run_command"_s;

struct Fixture : AgentFixture
{
    Invocations commands;

    void addRunCommand()
    {
        ToolBehaviour asksFirst;
        asksFirst.asksFirst = true;
        workbench.add(std::make_shared<FunctionTool>(
            ToolSchema{RunCommand, u"runs a command"_s,
                       objectSchema({{u"command"_s, QJsonObject{{u"type"_s, u"string"_s}}}}, {u"command"_s})},
            [this](const QJsonObject &args, ToolContext &) {
                commands.record(args);
                return ToolResult::success(u"ran"_s);
            },
            asksFirst));
    }
    static ToolCall command(const QString &id, const QString &line)
    {
        return ScriptedModelClient::call(id, RunCommand, json({{u"command"_s, line}}));
    }

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
            decided = f.policy.allowOnce(request.callId, json({{u"a"_s, 10}, {u"b"_s, 20}}), u"shown"_s);
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
        // The trace keeps how far the decision reached and what it was made on.
        const WaitData &wait = f.trace.node(f.nodesOfKind(TraceKind::Wait).constFirst()).data<WaitData>();
        QCOMPARE(wait.scope, allowed ? u"once"_s : QString());
        QCOMPARE(wait.argumentsEdited, decision == u"edit");
        QCOMPARE(wait.preview, decision == u"edit" ? u"shown"_s : QString());
    }

    void anAsynchronousToolWaitsForApprovalLikeABlockingOne_data()
    {
        QTest::addColumn<bool>("allow");
        QTest::addColumn<int>("runs");
        QTest::addColumn<QString>("fedBack");
        QTest::newRow("allowed") << true << 1 << u"3"_s;
        QTest::newRow("denied") << false << 0 << u"Denied by the user."_s;
    }

    void anAsynchronousToolWaitsForApprovalLikeABlockingOne()
    {
        QFETCH(bool, allow);
        QFETCH(int, runs);
        QFETCH(QString, fedBack);

        Fixture f;
        f.addAsyncAdd();
        f.policy.setDefaultRule(Rule::Ask);
        f.client.enqueue({ScriptedModelClient::calls({AgentFixture::add(u"c1"_s, 1, 2, u"add_later"_s)}),
                          ScriptedModelClient::text(u"ok"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QTRY_COMPARE(f.requested.size(), 1);
        QTest::qWait(50);
        QCOMPARE(f.adds.count(), 0);
        QCOMPARE(f.agent.state(), Agent::State::AwaitingDecision);
        QCOMPARE(f.request().checkpoint.call.name, u"add_later"_s);

        QVERIFY(allow ? f.policy.allowOnce(u"c1"_s) : f.policy.deny(u"c1"_s));

        QVERIFY(f.waitForEnd());
        QCOMPARE(f.adds.count(), runs);
        const Message fed = f.lastToolResult(1);
        QVERIFY2(fed.text.contains(fedBack), qPrintable(fed.text));
        QCOMPARE(fed.isError, !allow);
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
        QCOMPARE(changed.size(), 1);
        // An explicit default differs from none: it holds for the tools that ask first, too.
        policy.setDefaultRule(Rule::Always);
        policy.setDefaultRule(Rule::Always);
        QCOMPARE(changed.size(), 2);

        policy.setDefaultRule(Rule::Never);
        QCOMPARE(policy.rule(u"add"_s), Rule::Always);
        QCOMPARE(policy.rule(u"echo"_s), Rule::Never);
        policy.setRules({{u"echo"_s, Rule::Ask}});
        QCOMPARE(policy.rule(u"add"_s), Rule::Never);
        QCOMPARE(policy.rule(u"echo"_s), Rule::Ask);
        policy.setRules({{u"echo"_s, Rule::Ask}});
        QCOMPARE(changed.size(), 4);
    }

    void toolsThatAskFirstAskByDefaultAndTheOthersRun()
    {
        Fixture f;
        f.addRunCommand();
        f.client.enqueue({ScriptedModelClient::calls(
                              {AgentFixture::add(u"c1"_s, 1, 2), Fixture::command(u"c2"_s, u"make"_s)}),
                          ScriptedModelClient::text(u"ok"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QTRY_COMPARE(f.requested.size(), 1);
        QCOMPARE(f.request().callId, u"c2"_s);
        QVERIFY(f.request().checkpoint.behaviour.asksFirst);
        QTRY_COMPARE(f.adds.count(), 1);
        QCOMPARE(f.commands.count(), 0);
        QVERIFY(f.policy.deny(u"c2"_s));
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.commands.count(), 0);
    }

    void aRuleOrAnExplicitDefaultOverridesAskingFirst_data()
    {
        QTest::addColumn<std::optional<Rule>>("toolRule");
        QTest::addColumn<std::optional<Rule>>("defaultRule");
        QTest::addColumn<Rule>("expected");

        QTest::newRow("no rule: ask") << std::optional<Rule>() << std::optional<Rule>() << Rule::Ask;
        QTest::newRow("the tool's always")
            << std::optional(Rule::Always) << std::optional<Rule>() << Rule::Always;
        QTest::newRow("the tool's never")
            << std::optional(Rule::Never) << std::optional<Rule>() << Rule::Never;
        QTest::newRow("default always (--approve all)")
            << std::optional<Rule>() << std::optional(Rule::Always) << Rule::Always;
        QTest::newRow("default never (--approve none)")
            << std::optional<Rule>() << std::optional(Rule::Never) << Rule::Never;
    }
    void aRuleOrAnExplicitDefaultOverridesAskingFirst()
    {
        QFETCH(std::optional<Rule>, toolRule);
        QFETCH(std::optional<Rule>, defaultRule);
        QFETCH(Rule, expected);
        ToolApprovalPolicy policy;
        if (toolRule)
            policy.setRule(RunCommand, *toolRule);
        if (defaultRule)
            policy.setDefaultRule(*defaultRule);
        ToolBehaviour asksFirst;
        asksFirst.asksFirst = true;
        QCOMPARE(policy.ruleFor(Fixture::command(u"c"_s, u"ls"_s), asksFirst), expected);
        QCOMPARE(policy.ruleFor(AgentFixture::add(u"c"_s, 1, 2), {}), defaultRule.value_or(Rule::Always));
    }

    void aScopedAlwaysAllowLetsMatchingCallsThroughAndStillAsksForOthers()
    {
        Fixture f;
        f.addRunCommand();
        QSignalSpy granted(&f.policy, &ToolApprovalPolicy::alwaysAllowGranted);
        f.client.enqueue({ScriptedModelClient::calls({Fixture::command(u"c1"_s, u"git status"_s)}),
                          ScriptedModelClient::calls({Fixture::command(u"c2"_s, u"git log -3"_s)}),
                          ScriptedModelClient::calls({Fixture::command(u"c3"_s, u"git status; rm -rf ~"_s)}),
                          ScriptedModelClient::text(u"ok"_s)});

        QVERIFY(f.agent.send(u"go"_s));
        QTRY_COMPARE(f.requested.size(), 1);
        const ApprovalScope git{ApprovalScope::Kind::CommandPrefix, u"git"_s};
        QVERIFY(f.policy.alwaysAllow(u"c1"_s, git, std::nullopt, u"command: git status"_s));
        QCOMPARE(f.policy.scopedApprovals(), (QList<ScopedApproval>{{RunCommand, git}}));
        QCOMPARE(granted.size(), 1);
        QCOMPARE(f.policy.rule(RunCommand), Rule::Always); // the tool-wide rule is untouched...
        QVERIFY(!f.policy.rules().contains(RunCommand));   // ...because it was never set

        // "git log" runs without asking; the chained command is asked about.
        QTRY_COMPARE(f.requested.size(), 2);
        QCOMPARE(f.commands.count(), 2);
        QCOMPARE(f.request(1).callId, u"c3"_s);
        QVERIFY(f.policy.deny(u"c3"_s, {}, u"command: git status; rm -rf ~"_s));
        QVERIFY(f.waitForEnd());
        QCOMPARE(f.commands.count(), 2);

        // The trace keeps each decision, its reach and what was shown.
        const QList<int> waits = f.nodesOfKind(TraceKind::Wait);
        QCOMPARE(waits.size(), 2);
        const WaitData &first = f.trace.node(waits.at(0)).data<WaitData>();
        QCOMPARE(first.decision, u"allowed"_s);
        QCOMPARE(first.scope, u"command git"_s);
        QCOMPARE(first.preview, u"command: git status"_s);
        QVERIFY(!first.argumentsEdited);
        const WaitData &second = f.trace.node(waits.at(1)).data<WaitData>();
        QCOMPARE(second.decision, u"denied"_s);
        QCOMPARE(second.preview, u"command: git status; rm -rf ~"_s);
    }

    void aNeverRuleBeatsAScopedApproval()
    {
        ToolApprovalPolicy policy;
        policy.setScopedApprovals({{RunCommand, {ApprovalScope::Kind::CommandPrefix, u"git"_s}}});
        ToolBehaviour asksFirst;
        asksFirst.asksFirst = true;
        const ToolCall call = Fixture::command(u"c"_s, u"git status"_s);
        QCOMPARE(policy.ruleFor(call, asksFirst), Rule::Always);
        policy.setRule(RunCommand, Rule::Never);
        QCOMPARE(policy.ruleFor(call, asksFirst), Rule::Never);
    }

    void aScopeCoversOnlyCallsWithinIt_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<ApprovalScope>("scope");
        QTest::addColumn<QString>("callTool");
        QTest::addColumn<QJsonObject>("arguments");
        QTest::addColumn<bool>("covered");

        const auto folder = [](const QString &name) {
            return ApprovalScope{ApprovalScope::Kind::Folder, name};
        };
        const auto prefix = [](const QString &words) {
            return ApprovalScope{ApprovalScope::Kind::CommandPrefix, words};
        };
        const auto host = [](const QString &name) {
            return ApprovalScope{ApprovalScope::Kind::Host, name};
        };
        const auto path = [](const QString &p) {
            return QJsonObject{{u"path"_s, p}, {u"content"_s, u"x"_s}};
        };
        const auto command = [](const QString &c) {
            return QJsonObject{{u"command"_s, c}};
        };
        const auto url = [](const QString &u) {
            return QJsonObject{{u"url"_s, u}};
        };
        const QString write = u"write_file"_s;
        const QString run = u"run_command"_s;
        const QString fetch = u"fetch_url"_s;
        // "@src" stands for the workspace's src folder, filled in by the test.
        QTest::newRow("folder: a file in it")
            << write << folder(u"@src"_s) << write << path(u"src/a.txt"_s) << true;
        QTest::newRow("folder: a new file in it")
            << write << folder(u"@src"_s) << write << path(u"src/new.txt"_s) << true;
        QTest::newRow("folder: a new file in a new subfolder")
            << write << folder(u"@src"_s) << write << path(u"src/deep/er/new.txt"_s) << true;
        QTest::newRow("folder: a file in a subfolder")
            << write << folder(u"@src"_s) << write << path(u"src/sub/b.txt"_s) << true;
        QTest::newRow("folder: a sibling folder")
            << write << folder(u"@src"_s) << write << path(u"docs/a.txt"_s) << false;
        QTest::newRow("folder: a name that starts alike")
            << write << folder(u"@src"_s) << write << path(u"src2/a.txt"_s) << false;
        QTest::newRow("folder: the workspace root")
            << write << folder(u"@src"_s) << write << path(u"a.txt"_s) << false;
        QTest::newRow("folder: out by ..")
            << write << folder(u"@src"_s) << write << path(u"src/../../x.txt"_s) << false;
        QTest::newRow("folder: an absolute path")
            << write << folder(u"@src"_s) << write << path(u"@src/a.txt"_s) << false;
        QTest::newRow("folder: out by a symlink")
            << write << folder(u"@src"_s) << write << path(u"src/escape/x.txt"_s) << false;
        QTest::newRow("folder: another tool")
            << write << folder(u"@src"_s) << u"edit_file"_s << path(u"src/a.txt"_s) << false;
        QTest::newRow("prefix: the word alone")
            << run << prefix(u"git"_s) << run << command(u"git"_s) << true;
        QTest::newRow("prefix: with arguments")
            << run << prefix(u"git"_s) << run << command(u"git status -s"_s) << true;
        QTest::newRow("prefix: extra spaces")
            << run << prefix(u"git"_s) << run << command(u"  git   log"_s) << true;
        QTest::newRow("prefix: two words")
            << run << prefix(u"git status"_s) << run << command(u"git status -s"_s) << true;
        QTest::newRow("prefix: two words, other second")
            << run << prefix(u"git status"_s) << run << command(u"git stash"_s) << false;
        QTest::newRow("prefix: a longer word")
            << run << prefix(u"git"_s) << run << command(u"gitk"_s) << false;
        QTest::newRow("prefix: ;") << run << prefix(u"git"_s) << run << command(u"git status; rm -rf ~"_s)
                                   << false;
        QTest::newRow("prefix: &&") << run << prefix(u"git"_s) << run << command(u"git status && rm -rf ~"_s)
                                    << false;
        QTest::newRow("prefix: a pipe")
            << run << prefix(u"git"_s) << run << command(u"git log | sh"_s) << false;
        QTest::newRow("prefix: $()") << run << prefix(u"git"_s) << run << command(u"git $(rm -rf ~)"_s)
                                     << false;
        QTest::newRow("prefix: backticks")
            << run << prefix(u"git"_s) << run << command(u"git `rm -rf ~`"_s) << false;
        QTest::newRow("prefix: a redirection")
            << run << prefix(u"git"_s) << run << command(u"git log > ~/.bashrc"_s) << false;
        QTest::newRow("prefix: an input redirection")
            << run << prefix(u"git"_s) << run << command(u"git apply < x.patch"_s) << false;
        QTest::newRow("prefix: a line break")
            << run << prefix(u"git"_s) << run << command(u"git status\nrm x"_s) << false;
        QTest::newRow("prefix: background &")
            << run << prefix(u"git"_s) << run << command(u"git gc & rm x"_s) << false;
        QTest::newRow("host: exact") << fetch << host(u"example.com"_s) << fetch
                                     << url(u"https://example.com/a?b=c"_s) << true;
        QTest::newRow("host: other case")
            << fetch << host(u"example.com"_s) << fetch << url(u"http://EXAMPLE.com/"_s) << true;
        QTest::newRow("host: a subdomain")
            << fetch << host(u"example.com"_s) << fetch << url(u"https://api.example.com/"_s) << false;
        QTest::newRow("host: a parent domain")
            << fetch << host(u"api.example.com"_s) << fetch << url(u"https://example.com/"_s) << false;
        QTest::newRow("host: a look-alike suffix")
            << fetch << host(u"example.com"_s) << fetch << url(u"https://example.com.evil.net/"_s) << false;
        QTest::newRow("host: user info is not the host")
            << fetch << host(u"example.com"_s) << fetch << url(u"https://example.com@evil.net/"_s) << false;
        QTest::newRow("host: not http")
            << fetch << host(u"example.com"_s) << fetch << url(u"file://example.com/etc/passwd"_s) << false;
        QTest::newRow("tool: any call")
            << run << ApprovalScope::tool() << run << command(u"rm -rf ~"_s) << true;
        QTest::newRow("tool: not another tool")
            << run << ApprovalScope::tool() << fetch << url(u"https://example.com/"_s) << false;
    }
    void aScopeCoversOnlyCallsWithinIt()
    {
        QFETCH(QString, tool);
        QFETCH(ApprovalScope, scope);
        QFETCH(QString, callTool);
        QFETCH(QJsonObject, arguments);
        QFETCH(bool, covered);

        QTemporaryDir outside;
        QTemporaryDir dir;
        QDir root(dir.path());
        QVERIFY(root.mkpath(u"src/sub"_s) && root.mkpath(u"docs"_s) && root.mkpath(u"src2"_s));
        for (const QString &name : {u"src/a.txt"_s, u"src/sub/b.txt"_s, u"docs/a.txt"_s, u"a.txt"_s}) {
            QFile file(root.filePath(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        QVERIFY(QFile::link(outside.path(), root.filePath(u"src/escape"_s)));
        const QString src = QDir(root.filePath(u"src"_s)).canonicalPath();
        scope.value.replace(u"@src"_s, src);
        if (arguments.contains(u"path"_s))
            arguments.insert(u"path"_s, arguments.value(u"path"_s).toString().replace(u"@src"_s, src));

        const ToolCall call{u"c"_s, callTool, json(arguments)};
        QCOMPARE(approvalCovers({tool, scope}, call, Workspace(dir.path())), covered);
    }

    void theOfferedScopesAreTheFolderTheFirstWordsOrTheHost()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(u"src"_s));
        const Workspace workspace(dir.path());
        const QString src = QDir(dir.filePath(u"src"_s)).canonicalPath();
        const auto offered = [&](const QString &tool, const QJsonObject &arguments) {
            return narrowScopesFor({u"c"_s, tool, json(arguments)}, workspace);
        };
        using Scopes = QList<ApprovalScope>;
        const auto prefix = [](const QString &words) {
            return ApprovalScope{ApprovalScope::Kind::CommandPrefix, words};
        };
        QCOMPARE(offered(u"write_file"_s, {{u"path"_s, u"src/new/x.txt"_s}}),
                 Scopes{(ApprovalScope{ApprovalScope::Kind::Folder, src})});
        QCOMPARE(offered(u"run_command"_s, {{u"command"_s, u"git status -s"_s}}),
                 (Scopes{prefix(u"git status"_s), prefix(u"git"_s)}));
        QCOMPARE(offered(u"run_command"_s, {{u"command"_s, u"ls -la"_s}}), Scopes{prefix(u"ls"_s)});
        QCOMPARE(offered(u"run_command"_s, {{u"command"_s, u"git status; rm x"_s}}), Scopes());
        QCOMPARE(offered(u"fetch_url"_s, {{u"url"_s, u"https://Docs.Qt.io/qt-6/"_s}}),
                 Scopes{(ApprovalScope{ApprovalScope::Kind::Host, u"docs.qt.io"_s})});
        QCOMPARE(offered(u"write_file"_s, {{u"path"_s, u"../x"_s}}), Scopes());
        QCOMPARE(offered(u"add"_s, {}), Scopes());
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
