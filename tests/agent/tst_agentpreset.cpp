#include "agent/loop/agentpreset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

QByteArray agentsFile(const QJsonArray &agents)
{
    return QJsonDocument(QJsonObject{{u"agents"_s, agents}}).toJson(QJsonDocument::Compact);
}

QJsonObject agent(const QString &name, const QJsonObject &extra = {})
{
    QJsonObject object{{u"name"_s, name}, {u"instructions"_s, u"You are %1."_s.arg(name)}};
    for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
        object.insert(it.key(), it.value());
    return object;
}

} // namespace

class AgentPresetTest : public QObject
{
    Q_OBJECT

private slots:
    void everyFieldSurvivesARoundTrip()
    {
        AgentPreset triage;
        triage.name = u"triage"_s;
        triage.instructions = u"Route the question."_s;
        triage.version = 3;
        triage.provider = u"Local Ollama"_s;
        triage.model = u"small-model"_s;
        triage.tools = QStringList{u"calculator"_s};
        triage.knowledge = QStringList{u"notes"_s, u"manuals"_s};
        triage.handoffs = {u"billing"_s};
        triage.subagents = {u"researcher"_s};
        triage.maxIterations = 4;
        triage.wrapUpIterations = 1;
        triage.toolLessFinalIteration = false;
        triage.maxParallelTools = 2;
        triage.maxToolCallsPerResponse = 20;
        triage.toolTimeoutSeconds = 30;
        triage.tokenBudget = 5000;
        triage.timeLimitSeconds = 90;
        triage.postLoop = PostLoopMode::Summary;
        triage.onHandoff = HandoffMode::End;
        triage.handoffHistory = HandoffHistory::Text;
        triage.maxHandoffs = 2;
        triage.temperature = 0.25;
        triage.topP = 0.9;
        triage.maxOutputTokens = 512;
        triage.compaction = CompactionStrategy::TrimToolResults;
        triage.compactAtPercent = 60;
        RuleShield::Rule secrets{RuleShield::Rule::Kind::RegularExpression,
                                 u"sk-[A-Za-z0-9]{8,}"_s,
                                 {ShieldStage::ToolCall},
                                 {u"fetch_url"_s},
                                 u"no keys in URLs"_s};
        ModelShield guard;
        guard.name = u"llama-guard"_s;
        guard.provider = u"Local Ollama"_s; // a Llama Guard model usually runs elsewhere
        guard.model = u"llama-guard3:1b"_s;
        guard.stages = {ShieldStage::Output};
        guard.promptTemplate = u"Is this safe? {conversation}"_s;
        guard.unclear = ModelShield::Unclear::Allow;
        triage.shields = AgentShields{{RuleShield::Rule{.pattern = u"password"_s}, secrets}, guard};
        AgentPreset billing;
        billing.name = u"billing"_s;
        billing.instructions = u"Answer invoices."_s;
        billing.tools = QStringList();
        billing.knowledge = QStringList();
        AgentPreset researcher;
        researcher.name = u"researcher"_s;
        researcher.instructions = u"Look things up."_s;
        researcher.shields = AgentShields{{}, ModelShield()}; // the default template, both stages
        AgentRoster roster;
        roster.agents = {triage, billing, researcher};

        QString error;
        const std::optional<AgentRoster> read
            = AgentRoster::fromJson(QJsonDocument(roster.toJson()).toJson(), &error);

        QVERIFY2(read, qPrintable(error));
        QCOMPARE(*read, roster);
        // "tools": [] (no tools) is not the same as no "tools" (the session's).
        QVERIFY(read->find(u"billing"_s)->tools.has_value());
        QVERIFY(!read->find(u"researcher"_s)->tools.has_value());
        // The same for "knowledge": [] searches nothing, no "knowledge" the session's bases.
        QCOMPARE(read->find(u"billing"_s)->knowledge, std::optional<QStringList>(QStringList()));
        QVERIFY(!read->find(u"researcher"_s)->knowledge.has_value());
        QCOMPARE(read->find(u"triage"_s)->knowledge, std::optional(QStringList{u"notes"_s, u"manuals"_s}));
        // "shields": {} (none) is not the same as no "shields" (the session's).
        QVERIFY(!read->find(u"billing"_s)->shields.has_value());
        // The guard's profile is written by name, as an agent's own "provider" is; none: the session's.
        const QJsonArray written = roster.toJson().value(u"agents"_s).toArray();
        QCOMPARE(written.at(0)[u"shields"_s][u"model"_s][u"provider"_s].toString(), u"Local Ollama"_s);
        QVERIFY(!written.at(2)[u"shields"_s][u"model"_s].toObject().contains(u"provider"_s));
    }

    void anAgentsShieldsReplaceTheSessionsAndFollowItsConfig()
    {
        AgentConfig session;
        session.shields.rules = {RuleShield::Rule{.pattern = u"session-rule"_s}};
        AgentPreset own;
        own.shields = AgentShields{{}, ModelShield()};
        AgentPreset none;
        none.shields = AgentShields();
        AgentPreset inherits;

        QCOMPARE(own.configOver(session).shields, *own.shields);
        QVERIFY(none.configOver(session).shields.isEmpty());
        QCOMPARE(inherits.configOver(session).shields, session.shields);
        // A transcript keeps the config it ran with, shields included.
        QCOMPARE(AgentConfig::fromJson(own.configOver(session).toJson()).shields, *own.shields);
    }

    void theAgentIsLaidOverTheSessionsOptions()
    {
        AgentConfig session;
        session.systemPrompt = u"the session's prompt"_s;
        session.model.model = u"session-model"_s;
        session.model.temperature = 0.9;
        session.maxIterations = 10;
        session.tokenBudget = 100;
        AgentPreset preset;
        preset.name = u"billing"_s;
        preset.instructions = u"Answer invoices."_s;
        preset.model = u"agent-model"_s;
        preset.maxIterations = 3;
        preset.toolTimeoutSeconds = 5;
        preset.timeLimitSeconds = 120;
        preset.handoffHistory = HandoffHistory::Text;
        preset.maxHandoffs = 1;
        preset.compaction = CompactionStrategy::Off;

        const AgentConfig config = preset.configOver(session);

        QCOMPARE(config.name, u"billing"_s);
        QCOMPARE(config.systemPrompt, u"Answer invoices."_s);
        QCOMPARE(config.model.model, u"agent-model"_s);
        QCOMPARE(config.maxIterations, 3);
        QCOMPARE(config.toolTimeoutMs, 5000);
        QCOMPARE(config.turnTimeLimitMs, 120'000);
        QCOMPARE(config.handoffHistory, HandoffHistory::Text);
        QCOMPARE(config.maxHandoffs, 1);
        QCOMPARE(config.compaction, CompactionStrategy::Off);
        // What the agent does not say stays the session's.
        QCOMPARE(config.handoff, HandoffMode::Continue);
        QCOMPARE(config.model.temperature, std::optional<double>(0.9));
        QCOMPARE(config.tokenBudget, 100);
    }

    // The version is recorded beside the definition, once; a session saved when the definition held it
    // too opens with the same definition a new one has.
    void theRecordedDefinitionLeavesTheVersionToItsOwnField()
    {
        AgentPreset preset;
        preset.name = u"billing"_s;
        preset.instructions = u"Answer invoices."_s;
        preset.version = 7;
        const AgentConfig config = preset.configOver(AgentConfig());
        QCOMPARE(config.version, 7);
        QVERIFY(!config.definition.contains(u"version"_s));
        QCOMPARE(config.definition.value(u"instructions"_s).toString(), u"Answer invoices."_s);
        QCOMPARE(preset.toJson().value(u"version"_s).toInt(), 7); // an agents file keeps it

        QJsonObject saved = config.toJson();
        saved.insert(u"definition"_s, preset.toJson()); // as sessions were saved before
        const AgentConfig reopened = AgentConfig::fromJson(saved);
        QCOMPARE(reopened.definition, config.definition);
        QCOMPARE(reopened.version, 7);
    }

    void topPIsReadFromAnAgentsFileAndLaidOverTheSessions()
    {
        QString error;
        const auto roster = AgentRoster::fromJson(
            agentsFile({agent(u"careful"_s, {{u"top_p"_s, 0.3}}), agent(u"plain"_s)}), &error);
        QVERIFY2(roster, qPrintable(error));
        QCOMPARE(roster->find(u"careful"_s)->topP, std::optional(0.3));
        QVERIFY(!roster->find(u"plain"_s)->topP);
        // Written back under the same name.
        QCOMPARE(roster->find(u"careful"_s)->toJson().value(u"top_p"_s).toDouble(), 0.3);
        QVERIFY(!roster->find(u"plain"_s)->toJson().contains(u"top_p"_s));

        AgentConfig session;
        session.model.topP = 0.8;
        QCOMPARE(roster->find(u"careful"_s)->configOver(session).model.topP, std::optional(0.3));
        QCOMPARE(roster->find(u"plain"_s)->configOver(session).model.topP, std::optional(0.8));
        QVERIFY(!roster->find(u"plain"_s)->configOver(AgentConfig()).model.topP);
    }

    void anEmptyNamePicksTheFirstAgentAndAnUnknownOneIsNamed()
    {
        QString error;
        const auto roster
            = AgentRoster::fromJson(agentsFile({agent(u"first"_s), agent(u"second"_s)}), &error);
        QVERIFY2(roster, qPrintable(error));

        QCOMPARE(roster->pick({}, &error)->name, u"first"_s);
        QCOMPARE(roster->pick(u"second"_s, &error)->name, u"second"_s);
        QVERIFY(!roster->pick(u"third"_s, &error));
        QCOMPARE(error, u"there is no agent \"third\" (the agents are first, second)"_s);
    }

    void aBadFileIsRefusedNamingTheProblem_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error");

        QTest::newRow("not JSON") << "{\"agents\": ["_ba << u"not JSON"_s;
        QTest::newRow("no agents array") << "{}"_ba << u"agents"_s;
        QTest::newRow("an empty agents array") << agentsFile({}) << u"agents is empty"_s;
        QTest::newRow("an unknown top-level field")
            << "{\"agents\": [{\"name\": \"a\", \"instructions\": \"i\"}], \"agent\": 1}"_ba
            << u"unknown field \"agent\""_s;
        QTest::newRow("an unknown agent field") << agentsFile({agent(u"a"_s, {{u"handoff"_s, u"b"_s}})})
                                                << u"agents[0] has an unknown field \"handoff\""_s;
        QTest::newRow("a missing instruction")
            << agentsFile({QJsonObject{{u"name"_s, u"a"_s}}}) << u"agents[0].instructions"_s;
        QTest::newRow("a name that cannot be part of a tool name")
            << agentsFile({agent(u"billing desk"_s)}) << u"agents[0].name must be 1 to 48 letters"_s;
        QTest::newRow("tools that are not strings")
            << agentsFile({agent(u"a"_s, {{u"tools"_s, QJsonArray{1}}})}) << u"agents[0].tools"_s;
        QTest::newRow("an MCP server entry without a server")
            << agentsFile({agent(u"a"_s, {{u"tools"_s, QJsonArray{u"calculator"_s, u"mcp:"_s}}})})
            << u"agents[0].tools[1] must name an MCP server after \"mcp:\""_s;
        QTest::newRow("an MCP server name with spaces around it")
            << agentsFile({agent(u"a"_s, {{u"tools"_s, QJsonArray{u"mcp: files"_s}}})})
            << u"agents[0].tools[0] must name an MCP server after \"mcp:\" (every tool of that server), "
               u"without spaces around the name; it is \"mcp: files\"."_s;
        QTest::newRow("knowledge bases that are not strings")
            << agentsFile({agent(u"a"_s, {{u"knowledge"_s, QJsonArray{1}}})}) << u"agents[0].knowledge"_s;
        QTest::newRow("knowledge that is not a list")
            << agentsFile({agent(u"a"_s, {{u"knowledge"_s, u"notes"_s}})}) << u"agents[0].knowledge"_s;
        QTest::newRow("an iteration limit of zero")
            << agentsFile({agent(u"a"_s, {{u"max_iterations"_s, 0}})}) << u"agents[0].max_iterations"_s;
        QTest::newRow("a time limit over a day")
            << agentsFile({agent(u"a"_s, {{u"time_limit_seconds"_s, 86'401}})})
            << u"agents[0].time_limit_seconds"_s;
        QTest::newRow("a temperature above 2")
            << agentsFile({agent(u"a"_s, {{u"temperature"_s, 3}})}) << u"agents[0].temperature"_s;
        QTest::newRow("a top_p above 1") << agentsFile({agent(u"a"_s, {{u"top_p"_s, 1.5}})})
                                         << u"agents[0].top_p must be a number from 0 to 1; it is 1.5."_s;
        QTest::newRow("a negative top_p") << agentsFile({agent(u"a"_s, {{u"top_p"_s, -0.1}})})
                                          << u"agents[0].top_p must be a number from 0 to 1; it is -0.1."_s;
        QTest::newRow("a top_p that is not a number")
            << agentsFile({agent(u"a"_s, {{u"top_p"_s, u"0.9"_s}})}) << u"agents[0].top_p"_s;
        QTest::newRow("an unknown post-loop mode")
            << agentsFile({agent(u"a"_s, {{u"post_loop"_s, u"think"_s}})}) << u"agents[0].post_loop"_s;
        QTest::newRow("an unknown on_handoff")
            << agentsFile({agent(u"a"_s, {{u"on_handoff"_s, u"stop"_s}})}) << u"agents[0].on_handoff"_s;
        QTest::newRow("an unknown handoff_history")
            << agentsFile({agent(u"a"_s, {{u"handoff_history"_s, u"some"_s}})})
            << u"agents[0].handoff_history"_s;
        QTest::newRow("an unknown compaction strategy")
            << agentsFile({agent(u"a"_s, {{u"compact"_s, u"summarize"_s}})}) << u"agents[0].compact"_s;
        QTest::newRow("a negative max_handoffs")
            << agentsFile({agent(u"a"_s, {{u"max_handoffs"_s, -1}})}) << u"agents[0].max_handoffs"_s;
        QTest::newRow("a version of zero")
            << agentsFile({agent(u"a"_s, {{u"version"_s, 0}})}) << u"version"_s;
        QTest::newRow("a provider that is not a string")
            << agentsFile({agent(u"a"_s, {{u"provider"_s, 7}})}) << u"provider"_s;
        QTest::newRow("an unknown shields field")
            << agentsFile({agent(u"a"_s, {{u"shields"_s, QJsonObject{{u"guard"_s, true}}}})})
            << u"agents[0].shields has an unknown field \"guard\" (known: rules, model)"_s;
        QTest::newRow("a rule without a pattern") << agentsFile(
            {agent(u"a"_s, {{u"shields"_s, QJsonObject{{u"rules"_s, QJsonArray{QJsonObject{}}}}}})})
                                                  << u"agents[0].shields.rules[0].pattern"_s;
        QTest::newRow("a rule's pattern that does not compile")
            << agentsFile({agent(
                   u"a"_s, {{u"shields"_s,
                             QJsonObject{{u"rules"_s, QJsonArray{QJsonObject{{u"pattern"_s, u"(open"_s},
                                                                             {u"kind"_s, u"regex"_s}}}}}}})})
            << u"agents[0].shields.rules[0].pattern: Invalid regular expression \"(open\""_s;
        QTest::newRow("a rule of an unknown kind") << agentsFile(
            {agent(u"a"_s, {{u"shields"_s,
                             QJsonObject{{u"rules"_s, QJsonArray{QJsonObject{{u"pattern"_s, u"x"_s},
                                                                             {u"kind"_s, u"glob"_s}}}}}}})})
                                                   << u"agents[0].shields.rules[0].kind"_s;
        QTest::newRow("a rule on an unknown stage")
            << agentsFile({agent(
                   u"a"_s, {{u"shields"_s,
                             QJsonObject{{u"rules"_s, QJsonArray{QJsonObject{
                                                          {u"pattern"_s, u"x"_s},
                                                          {u"stages"_s, QJsonArray{u"answer"_s}}}}}}}})})
            << u"agents[0].shields.rules[0].stages names the stage \"answer\"; the stages are input, "
               "tool_call, output"_s;
        QTest::newRow("a model shield on tool calls")
            << agentsFile({agent(
                   u"a"_s,
                   {{u"shields"_s,
                     QJsonObject{{u"model"_s, QJsonObject{{u"stages"_s, QJsonArray{u"tool_call"_s}}}}}}})})
            << u"agents[0].shields.model.stages names the stage \"tool_call\"; the stages are input, output"_s;
        QTest::newRow("a model shield's unknown unclear policy") << agentsFile({agent(
            u"a"_s, {{u"shields"_s, QJsonObject{{u"model"_s, QJsonObject{{u"unclear"_s, u"ask"_s}}}}}})})
                                                                 << u"agents[0].shields.model.unclear"_s;
        QTest::newRow("a template without the conversation")
            << agentsFile({agent(
                   u"a"_s, {{u"shields"_s,
                             QJsonObject{{u"model"_s, QJsonObject{{u"template"_s, u"Is it safe?"_s}}}}}})})
            << u"agents[0].shields.model.template must contain {conversation}"_s;
        QTest::newRow("a model shield on an empty provider profile")
            << agentsFile(
                   {agent(u"a"_s,
                          {{u"shields"_s, QJsonObject{{u"model"_s, QJsonObject{{u"provider"_s, u" "_s}}}}}})})
            << u"agents[0].shields.model.provider must name a saved provider profile"_s;
        QTest::newRow("an unknown model shield field")
            << agentsFile(
                   {agent(u"a"_s, {{u"shields"_s,
                                    QJsonObject{{u"model"_s, QJsonObject{{u"profile"_s, u"ollama"_s}}}}}})})
            << u"agents[0].shields.model has an unknown field \"profile\""_s;
        QTest::newRow("duplicate names") << agentsFile({agent(u"a"_s), agent(u"b"_s), agent(u"a"_s)})
                                         << u"two agents are named \"a\": names must be unique"_s;
        QTest::newRow("a handoff to an unknown agent")
            << agentsFile({agent(u"triage"_s, {{u"handoffs"_s, QJsonArray{u"billing"_s}}})})
            << u"agent \"triage\" hands off to \"billing\", which is not an agent of the file"_s;
        QTest::newRow("a handoff to itself")
            << agentsFile({agent(u"triage"_s, {{u"handoffs"_s, QJsonArray{u"triage"_s}}})})
            << u"agent \"triage\" hands off to itself"_s;
        QTest::newRow("an unknown sub-agent")
            << agentsFile({agent(u"triage"_s, {{u"subagents"_s, QJsonArray{u"researcher"_s}}})})
            << u"agent \"triage\" has the sub-agent \"researcher\", which is not an agent of the file"_s;
        QTest::newRow("an agent that is its own sub-agent")
            << agentsFile({agent(u"a"_s, {{u"subagents"_s, QJsonArray{u"a"_s}}})})
            << u"the sub-agents form a cycle: a → a"_s;
        QTest::newRow("a cycle through three agents")
            << agentsFile({agent(u"top"_s, {{u"subagents"_s, QJsonArray{u"a"_s}}}),
                           agent(u"a"_s, {{u"subagents"_s, QJsonArray{u"b"_s}}}),
                           agent(u"b"_s, {{u"subagents"_s, QJsonArray{u"c"_s}}}),
                           agent(u"c"_s, {{u"subagents"_s, QJsonArray{u"a"_s}}})})
            << u"the sub-agents form a cycle: a → b → c → a"_s;
    }

    void aWholeMcpServerIsAToolsEntryOfItsOwn_data()
    {
        QTest::addColumn<QStringList>("tools");
        QTest::addColumn<QStringList>("servers");

        QTest::newRow("a server") << QStringList{u"mcp:files"_s} << QStringList{u"files"_s};
        QTest::newRow("a server beside single tools")
            << QStringList{u"calculator"_s, u"mcp:My Files"_s, u"echo"_s, u"mcp:web:8080"_s}
            << QStringList{u"My Files"_s, u"web:8080"_s};
        QTest::newRow("single tools only") << QStringList{u"calculator"_s, u"files_read"_s} << QStringList();
    }

    void aWholeMcpServerIsAToolsEntryOfItsOwn()
    {
        QFETCH(QStringList, tools);
        QFETCH(QStringList, servers);

        QString error;
        const std::optional<AgentRoster> read = AgentRoster::fromJson(
            agentsFile({agent(u"a"_s, {{u"tools"_s, QJsonArray::fromStringList(tools)}})}), &error);
        QVERIFY2(read, qPrintable(error));
        const AgentPreset &preset = read->agents.constFirst();
        QCOMPARE(preset.tools, std::optional(tools));
        QCOMPARE(preset.mcpServers(), servers);
        QCOMPARE(AgentRoster::fromJson(QJsonDocument(read->toJson()).toJson(), &error), read);
        for (const QString &server : std::as_const(servers)) {
            QCOMPARE(AgentPreset::mcpServerEntry(server), u"mcp:"_s + server);
            // Every tool of a server it names, whatever the tool is called; not another server's.
            QVERIFY(preset.offersMcpTool(server, u"anything_new"_s));
            QVERIFY(!preset.offersMcpTool(u"other"_s, u"anything_new"_s));
        }
    }

    void anMcpToolIsOfferedByItsNameOrItsServersEntry_data()
    {
        QTest::addColumn<std::optional<QStringList>>("tools");
        QTest::addColumn<bool>("offered");

        QTest::newRow("the session's tools") << std::optional<QStringList>() << true;
        QTest::newRow("no tools") << std::optional(QStringList()) << false;
        QTest::newRow("the tool by name") << std::optional(QStringList{u"echo"_s}) << true;
        QTest::newRow("another tool") << std::optional(QStringList{u"add"_s}) << false;
        QTest::newRow("its server") << std::optional(QStringList{u"mcp:everything"_s}) << true;
        QTest::newRow("another server") << std::optional(QStringList{u"mcp:files"_s}) << false;
        // "mcp:" is not a prefix match: the server is named whole.
        QTest::newRow("a server whose name it starts") << std::optional(QStringList{u"mcp:every"_s}) << false;
    }

    void anMcpToolIsOfferedByItsNameOrItsServersEntry()
    {
        QFETCH(std::optional<QStringList>, tools);
        QFETCH(bool, offered);

        AgentPreset preset;
        preset.tools = tools;
        QCOMPARE(preset.offersMcpTool(u"everything"_s, u"echo"_s), offered);
    }

    void aBadFileIsRefusedNamingTheProblem()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);

        QString problem;
        QVERIFY(!AgentRoster::fromJson(bytes, &problem));
        QVERIFY2(problem.contains(error), qPrintable(problem));
    }

    void handoffsBothWaysAndSharedSubagentsAreNoCycle()
    {
        // Handing back and forth is a conversation, not a recursion; two agents may share a helper.
        const QByteArray bytes
            = agentsFile({agent(u"triage"_s, {{u"handoffs"_s, QJsonArray{u"billing"_s}},
                                              {u"subagents"_s, QJsonArray{u"researcher"_s}}}),
                          agent(u"billing"_s, {{u"handoffs"_s, QJsonArray{u"triage"_s}},
                                               {u"subagents"_s, QJsonArray{u"researcher"_s}}}),
                          agent(u"researcher"_s)});

        QString error;
        QVERIFY2(AgentRoster::fromJson(bytes, &error), qPrintable(error));
    }

    void aFileThatCannotBeReadIsNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"missing.json"_s);

        QString error;
        QVERIFY(!AgentRoster::load(path, &error));
        QVERIFY2(error.contains(path), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(AgentPresetTest)
#include "tst_agentpreset.moc"
