// What `loopscope run` and `eval` run with: their options become the one SessionSetup a
// ChatSession applies, the same value type the window applies.

#include "agent/session/chatsession.h"
#include "app/cli/headlesssetup.h"

#include <QNetworkAccessManager>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using Rule = ToolApprovalPolicy::Rule;

class HeadlessSetupTest : public QObject
{
    Q_OBJECT

private slots:
    void aRunsOptionsAreTheSetupTheSessionRunsWith()
    {
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        Cli::HeadlessSetup options;
        options.profile.id = u"command-line"_s;
        options.profile.name = u"Anthropic"_s;
        options.profile.kind = ProviderKind::Anthropic;
        options.profile.model = u"claude-run"_s;
        options.apiKey = u"sk-run-0123456789"_s;
        options.config.maxIterations = 3;
        options.config.systemPrompt = u"Be brief."_s;
        options.tools = {u"calculator"_s, u"write_file"_s};
        options.workspace = workspace.path();
        options.fetchPrivate = true;
        options.limits.maxResponseBytes = 3 * ResponseLimits::MegaByte;
        options.limits.requestTimeoutMs = 42'000;
        options.knowledge = {{u"notes"_s, workspace.filePath(u"notes.sqlite"_s)}};

        const SessionSetup setup = options.sessionSetup();
        QCOMPARE(setup.limits, options.limits);
        QNetworkAccessManager network;
        ChatSession session(&network);
        options.applyTo(session);

        QCOMPARE(session.setup(), setup);
        QCOMPARE(session.provider()->id, u"command-line"_s);
        QVERIFY(session.setup().providerProblem().isEmpty());
        QCOMPARE(session.agent()->config().maxIterations, 3);
        QCOMPARE(session.agent()->config().systemPrompt, u"Be brief."_s);
        QCOMPARE(session.agent()->config().model.model, u"claude-run"_s);
        // An attached base offers its search without being named among the tools.
        QCOMPARE(session.workbench()->names(),
                 QStringList({u"calculator"_s, u"write_file"_s, u"knowledge_search"_s}));
        QCOMPARE(session.toTranscript().providerKind, u"anthropic"_s);
    }

    void approvalsFollowTheApproveOptions_data()
    {
        QTest::addColumn<bool>("approveAll");
        QTest::addColumn<bool>("approveMcp");
        QTest::addColumn<std::optional<QStringList>>("approvedTools");
        QTest::addColumn<Rule>("calculator");
        QTest::addColumn<Rule>("writeFile");
        QTest::addColumn<Rule>("mcpTools");
        QTest::addColumn<Rule>("knowledgeSearch");

        QTest::newRow("the default runs tools without effects only")
            << true << false << std::optional<QStringList>() << Rule::Always << Rule::Never << Rule::Never
            << Rule::Always;
        QTest::newRow("--approve all runs every tool, MCP ones too")
            << true << true << std::optional<QStringList>() << Rule::Always << Rule::Always << Rule::Always
            << Rule::Always;
        QTest::newRow("--approve none runs only the search of attached bases, which only reads")
            << false << false << std::optional<QStringList>() << Rule::Never << Rule::Never << Rule::Never
            << Rule::Always;
        QTest::newRow("--approve-tools runs the named ones and the search of attached bases")
            << false << false << std::optional<QStringList>(QStringList{u"write_file"_s}) << Rule::Never
            << Rule::Always << Rule::Never << Rule::Always;
    }

    void approvalsFollowTheApproveOptions()
    {
        QFETCH(bool, approveAll);
        QFETCH(bool, approveMcp);
        QFETCH(std::optional<QStringList>, approvedTools);
        QFETCH(Rule, calculator);
        QFETCH(Rule, writeFile);
        QFETCH(Rule, mcpTools);
        QFETCH(Rule, knowledgeSearch);

        Cli::HeadlessSetup options;
        options.profile.model = u"gpt-run"_s;
        options.apiKey = u"sk-run-0123456789"_s;
        options.tools = {u"calculator"_s, u"write_file"_s};
        options.approveAll = approveAll;
        options.approveMcp = approveMcp;
        options.approvedTools = approvedTools;
        options.knowledge = {{u"notes"_s, u"/nonexistent/notes.sqlite"_s}};
        QNetworkAccessManager network;
        ChatSession session(&network);
        options.applyTo(session);

        QCOMPARE(session.approvals()->rule(u"calculator"_s), calculator);
        QCOMPARE(session.approvals()->rule(u"write_file"_s), writeFile);
        QCOMPARE(session.setup().approvals.mcpOverride, std::optional<Rule>(mcpTools));
        QCOMPARE(session.approvals()->rule(u"knowledge_search"_s), knowledgeSearch);
        // Nobody is there to ask: a tool without its own rule is never asked about.
        QVERIFY(session.approvals()->defaultRule() != Rule::Ask);
    }
};

QTEST_MAIN(HeadlessSetupTest)
#include "tst_headlesssetup.moc"
