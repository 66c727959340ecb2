#include "agent/loop/agentpreset.h"

#include "agent/trace/jsonfields.h"

#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>

using namespace Qt::StringLiterals;
using Loopscope::Internal::JsonFields;
using Loopscope::Internal::JsonProblem;
using Loopscope::Internal::Need;

namespace Loopscope {

namespace {

// A name becomes part of tool names (transfer_to_<name>, ask_<name>), which providers limit to 64
// characters of this set.
const QRegularExpression agentNamePattern(u"^[A-Za-z0-9_-]{1,48}$"_s);

constexpr QStringView McpServerPrefix = u"mcp:";

// "mcp:" with no server after it, or one with spaces around it, which no configured server is
// called (the window trims them).
void checkMcpServerEntries(JsonFields &fields, const QStringList &tools)
{
    for (qsizetype index = 0; index < tools.size() && fields.ok(); ++index) {
        const std::optional<QString> server = AgentPreset::mcpServerOf(tools.at(index));
        if (server && (server->isEmpty() || *server != server->trimmed())) {
            fields.fail(AgentRoster::tr("%1[%2] must name an MCP server after \"mcp:\" (every tool of "
                                        "that server), without spaces around the name; it is %3.")
                            .arg(fields.path(u"tools"))
                            .arg(index)
                            .arg(JsonFields::quoted(tools.at(index))));
        }
    }
}

AgentPreset readPreset(JsonFields &fields)
{
    AgentPreset preset;
    preset.name = fields.string(u"name", Need::Required);
    if (fields.ok() && !agentNamePattern.match(preset.name).hasMatch()) {
        fields.fail(AgentRoster::tr("%1 must be 1 to 48 letters, digits, _ or - (it becomes part of tool "
                                    "names); it is %2.")
                        .arg(fields.path(u"name"), JsonFields::quoted(preset.name)));
    }
    preset.instructions = fields.string(u"instructions", Need::Required);
    if (fields.has(u"version"))
        preset.version = int(fields.integer(u"version", Need::Required, 1, 1, 1'000'000'000));
    if (fields.has(u"provider"))
        preset.provider = fields.string(u"provider", Need::Required);
    if (fields.has(u"model"))
        preset.model = fields.string(u"model", Need::Required);
    if (fields.has(u"tools")) {
        preset.tools = fields.strings(u"tools", Need::Required);
        checkMcpServerEntries(fields, *preset.tools);
    }
    if (fields.has(u"knowledge"))
        preset.knowledge = fields.strings(u"knowledge", Need::Required);
    preset.handoffs = fields.strings(u"handoffs", Need::Optional);
    preset.subagents = fields.strings(u"subagents", Need::Optional);
    const auto integer = [&fields](QStringView key, qint64 min, qint64 max) -> std::optional<qint64> {
        if (!fields.has(key))
            return std::nullopt;
        return fields.integer(key, Need::Required, min, min, max);
    };
    if (const auto n = integer(u"max_iterations", 1, 1000))
        preset.maxIterations = int(*n);
    if (const auto n = integer(u"wrap_up_iterations", 0, 1000))
        preset.wrapUpIterations = int(*n);
    if (fields.has(u"final_iteration_without_tools"))
        preset.toolLessFinalIteration = fields.boolean(u"final_iteration_without_tools", Need::Required);
    if (const auto n = integer(u"parallel_tools", 1, 64))
        preset.maxParallelTools = int(*n);
    if (const auto n = integer(u"max_tool_calls", 1, AgentConfig::MaxToolCallsLimit))
        preset.maxToolCallsPerResponse = int(*n);
    if (const auto n = integer(u"tool_timeout_seconds", 1, 86'400))
        preset.toolTimeoutSeconds = int(*n);
    if (const auto n = integer(u"token_budget", 0, qint64(1) << 40))
        preset.tokenBudget = *n;
    if (const auto n = integer(u"time_limit_seconds", 0, 86'400))
        preset.timeLimitSeconds = int(*n);
    if (fields.has(u"post_loop")) {
        preset.postLoop = postLoopModeFromName(
            fields.name(u"post_loop", Need::Required, {u"reflect"_s, u"summary"_s, u"none"_s}));
    }
    if (fields.has(u"on_handoff"))
        preset.onHandoff
            = handoffModeFromName(fields.name(u"on_handoff", Need::Required, {u"continue"_s, u"end"_s}));
    if (fields.has(u"handoff_history"))
        preset.handoffHistory
            = handoffHistoryFromName(fields.name(u"handoff_history", Need::Required, {u"all"_s, u"text"_s}));
    if (const auto n = integer(u"max_handoffs", 0, 100))
        preset.maxHandoffs = int(*n);
    if (fields.has(u"temperature"))
        preset.temperature = fields.number(u"temperature", 0, 2);
    if (fields.has(u"top_p"))
        preset.topP = fields.number(u"top_p", 0, 1);
    if (const auto n = integer(u"max_tokens", 1, 10'000'000))
        preset.maxOutputTokens = int(*n);
    if (fields.has(u"compact"))
        preset.compaction = compactionStrategyFromName(
            fields.name(u"compact", Need::Required,
                        {u"auto"_s, u"trim-tool-results"_s, u"summarise"_s, u"drop-oldest"_s, u"off"_s}));
    if (const auto n = integer(u"compact_at", 1, 100))
        preset.compactAtPercent = int(*n);
    if (fields.ok() && fields.has(u"shields")) {
        const QJsonObject shields = fields.object(u"shields", Need::Required);
        if (fields.ok()) {
            JsonProblem problem;
            if (auto read = AgentShields::fromJson(shields, fields.path(u"shields"), problem))
                preset.shields = std::move(*read);
            else
                fields.fail(problem.message());
        }
    }
    return preset;
}

} // namespace

AgentConfig AgentPreset::configOver(AgentConfig base) const
{
    base.name = name;
    // What each turn records of the agent it ran as.
    base.version = version;
    base.definition = definitionJson();
    base.systemPrompt = instructions;
    if (model)
        base.model.model = *model;
    if (temperature)
        base.model.temperature = temperature;
    if (topP)
        base.model.topP = topP;
    if (maxOutputTokens)
        base.model.maxOutputTokens = maxOutputTokens;
    base.maxIterations = maxIterations.value_or(base.maxIterations);
    base.wrapUpIterations = wrapUpIterations.value_or(base.wrapUpIterations);
    base.toolLessFinalIteration = toolLessFinalIteration.value_or(base.toolLessFinalIteration);
    base.maxParallelTools = maxParallelTools.value_or(base.maxParallelTools);
    base.maxToolCallsPerResponse = maxToolCallsPerResponse.value_or(base.maxToolCallsPerResponse);
    if (toolTimeoutSeconds)
        base.toolTimeoutMs = *toolTimeoutSeconds * 1000;
    base.tokenBudget = tokenBudget.value_or(base.tokenBudget);
    if (timeLimitSeconds)
        base.turnTimeLimitMs = *timeLimitSeconds * 1000;
    base.postLoop = postLoop.value_or(base.postLoop);
    base.handoff = onHandoff.value_or(base.handoff);
    base.handoffHistory = handoffHistory.value_or(base.handoffHistory);
    base.maxHandoffs = maxHandoffs.value_or(base.maxHandoffs);
    base.compaction = compaction.value_or(base.compaction);
    base.compactAtPercent = compactAtPercent.value_or(base.compactAtPercent);
    if (shields)
        base.shields = *shields;
    return base;
}

QString AgentPreset::mcpServerEntry(const QString &server)
{
    return McpServerPrefix + server;
}

std::optional<QString> AgentPreset::mcpServerOf(const QString &toolsEntry)
{
    if (!toolsEntry.startsWith(McpServerPrefix))
        return std::nullopt;
    return toolsEntry.sliced(McpServerPrefix.size());
}

QStringList AgentPreset::mcpServers() const
{
    QStringList servers;
    for (const QString &entry : tools.value_or(QStringList())) {
        if (const std::optional<QString> server = mcpServerOf(entry))
            servers.append(*server);
    }
    return servers;
}

bool AgentPreset::offersMcpTool(const QString &server, const QString &toolName) const
{
    return !tools || tools->contains(toolName) || tools->contains(mcpServerEntry(server));
}

bool AgentPreset::sameDefinition(const AgentPreset &other) const
{
    AgentPreset unversioned = other;
    unversioned.version = version;
    return *this == unversioned;
}

QJsonObject AgentPreset::toJson() const
{
    QJsonObject json{{u"name"_s, name}, {u"instructions"_s, instructions}};
    if (version > 0)
        json.insert(u"version"_s, version);
    if (provider)
        json.insert(u"provider"_s, *provider);
    if (model)
        json.insert(u"model"_s, *model);
    if (tools)
        json.insert(u"tools"_s, QJsonArray::fromStringList(*tools));
    if (knowledge)
        json.insert(u"knowledge"_s, QJsonArray::fromStringList(*knowledge));
    if (!handoffs.isEmpty())
        json.insert(u"handoffs"_s, QJsonArray::fromStringList(handoffs));
    if (!subagents.isEmpty())
        json.insert(u"subagents"_s, QJsonArray::fromStringList(subagents));
    const auto put = [&json](const QString &key, const auto &value) {
        if (value)
            json.insert(key, *value);
    };
    put(u"max_iterations"_s, maxIterations);
    put(u"wrap_up_iterations"_s, wrapUpIterations);
    put(u"final_iteration_without_tools"_s, toolLessFinalIteration);
    put(u"parallel_tools"_s, maxParallelTools);
    put(u"max_tool_calls"_s, maxToolCallsPerResponse);
    put(u"tool_timeout_seconds"_s, toolTimeoutSeconds);
    put(u"token_budget"_s, tokenBudget);
    put(u"time_limit_seconds"_s, timeLimitSeconds);
    if (postLoop)
        json.insert(u"post_loop"_s, postLoopModeName(*postLoop));
    if (onHandoff)
        json.insert(u"on_handoff"_s, handoffModeName(*onHandoff));
    if (handoffHistory)
        json.insert(u"handoff_history"_s, handoffHistoryName(*handoffHistory));
    put(u"max_handoffs"_s, maxHandoffs);
    put(u"temperature"_s, temperature);
    put(u"top_p"_s, topP);
    put(u"max_tokens"_s, maxOutputTokens);
    if (compaction)
        json.insert(u"compact"_s, compactionStrategyName(*compaction));
    put(u"compact_at"_s, compactAtPercent);
    if (shields)
        json.insert(u"shields"_s, shields->toJson());
    return json;
}

QJsonObject AgentPreset::definitionJson() const
{
    return recordedDefinition(toJson());
}

QJsonObject AgentPreset::recordedDefinition(QJsonObject definition)
{
    definition.remove(u"version"_s);
    return definition;
}

std::optional<AgentPreset> AgentPreset::fromJson(const QJsonObject &json, QString *error)
{
    const QStringList known = AgentRoster::fieldNames();
    for (auto it = json.constBegin(); it != json.constEnd(); ++it) {
        if (!known.contains(it.key())) {
            *error = AgentRoster::tr("the agent has an unknown field \"%1\" (known: %2)")
                         .arg(it.key(), known.join(u", "_s));
            return std::nullopt;
        }
    }
    JsonProblem problem;
    JsonFields fields(json, {}, problem);
    AgentPreset preset = readPreset(fields);
    if (!problem.ok()) {
        *error = problem.message();
        return std::nullopt;
    }
    return preset;
}

QStringList AgentRoster::fieldNames()
{
    return {u"name"_s,
            u"instructions"_s,
            u"version"_s,
            u"provider"_s,
            u"model"_s,
            u"tools"_s,
            u"knowledge"_s,
            u"handoffs"_s,
            u"subagents"_s,
            u"max_iterations"_s,
            u"wrap_up_iterations"_s,
            u"final_iteration_without_tools"_s,
            u"parallel_tools"_s,
            u"max_tool_calls"_s,
            u"tool_timeout_seconds"_s,
            u"token_budget"_s,
            u"time_limit_seconds"_s,
            u"post_loop"_s,
            u"on_handoff"_s,
            u"handoff_history"_s,
            u"max_handoffs"_s,
            u"temperature"_s,
            u"top_p"_s,
            u"max_tokens"_s,
            u"compact"_s,
            u"compact_at"_s,
            u"shields"_s};
}

const AgentPreset *AgentRoster::find(const QString &name) const
{
    for (const AgentPreset &agent : agents) {
        if (agent.name == name)
            return &agent;
    }
    return nullptr;
}

std::optional<AgentPreset> AgentRoster::pick(const QString &name, QString *error) const
{
    if (name.isEmpty() && !agents.isEmpty())
        return agents.constFirst();
    if (const AgentPreset *agent = find(name))
        return *agent;
    QStringList names;
    for (const AgentPreset &agent : agents)
        names.append(agent.name);
    *error = tr("there is no agent \"%1\" (the agents are %2)").arg(name, names.join(u", "_s));
    return std::nullopt;
}

QJsonObject AgentRoster::toJson() const
{
    QJsonArray array;
    for (const AgentPreset &agent : agents)
        array.append(agent.toJson());
    return {{u"agents"_s, array}};
}

std::optional<AgentRoster> AgentRoster::fromJson(const QByteArray &bytes, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = tr("not JSON: %1 at offset %2").arg(parseError.errorString()).arg(parseError.offset);
        return std::nullopt;
    }
    if (!document.isObject()) {
        *error = tr("the file must hold an object with an \"agents\" array");
        return std::nullopt;
    }
    const QJsonObject top = document.object();
    JsonProblem problem;
    JsonFields file(top, {}, problem);
    const QList<QJsonObject> objects = file.objects(u"agents", Need::Required);
    for (auto it = top.constBegin(); problem.ok() && it != top.constEnd(); ++it) {
        if (it.key() != u"agents")
            problem.set(tr("unknown field \"%1\" (the file holds only \"agents\")").arg(it.key()));
    }
    if (problem.ok() && objects.isEmpty())
        problem.set(tr("agents is empty: name at least one agent"));
    AgentRoster roster;
    const QStringList known = fieldNames();
    for (qsizetype i = 0; i < objects.size() && problem.ok(); ++i) {
        const QString where = JsonFields::element(u"agents"_s, i);
        const QJsonObject &object = objects.at(i);
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (!known.contains(it.key())) {
                problem.set(tr("%1 has an unknown field \"%2\" (known: %3)")
                                .arg(where, it.key(), known.join(u", "_s)));
            }
        }
        JsonFields fields(object, where, problem);
        AgentPreset preset = readPreset(fields);
        if (problem.ok())
            roster.agents.append(std::move(preset));
    }
    if (problem.ok())
        problem.set(roster.checkReferences());
    if (!problem.ok()) {
        *error = problem.message();
        return std::nullopt;
    }
    return roster;
}

std::optional<AgentRoster> AgentRoster::load(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read the agents file \"%1\": %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QString problem;
    std::optional<AgentRoster> roster = fromJson(file.readAll(), &problem);
    if (!roster)
        *error = tr("the agents file \"%1\": %2").arg(path, problem);
    return roster;
}

QString AgentRoster::checkReferences() const
{
    QSet<QString> names;
    for (const AgentPreset &agent : agents) {
        if (names.contains(agent.name))
            return tr("two agents are named \"%1\": names must be unique").arg(agent.name);
        names.insert(agent.name);
    }
    for (const AgentPreset &agent : agents) {
        for (const QString &target : agent.handoffs) {
            if (!names.contains(target))
                return tr("agent \"%1\" hands off to \"%2\", which is not an agent of the file")
                    .arg(agent.name, target);
            if (target == agent.name)
                return tr("agent \"%1\" hands off to itself").arg(agent.name);
        }
        for (const QString &target : agent.subagents) {
            if (!names.contains(target))
                return tr("agent \"%1\" has the sub-agent \"%2\", which is not an agent of the file")
                    .arg(agent.name, target);
        }
    }
    return findSubagentCycle();
}

// A depth-first walk of the sub-agent graph; the first cycle found, as "a → b → a".
QString AgentRoster::findSubagentCycle() const
{
    enum class Mark { Unvisited, OnPath, Done };
    QHash<QString, Mark> marks;
    QStringList path;
    std::function<QString(const AgentPreset &)> visit = [&](const AgentPreset &agent) -> QString {
        marks.insert(agent.name, Mark::OnPath);
        path.append(agent.name);
        for (const QString &target : agent.subagents) {
            const Mark mark = marks.value(target, Mark::Unvisited);
            if (mark == Mark::OnPath) {
                const QStringList cycle = path.mid(path.indexOf(target)) << target;
                return tr("the sub-agents form a cycle: %1 (an agent must not reach itself through "
                          "sub-agents)")
                    .arg(cycle.join(u" → "_s));
            }
            if (mark == Mark::Unvisited) {
                if (QString cycle = visit(*find(target)); !cycle.isEmpty())
                    return cycle;
            }
        }
        path.removeLast();
        marks.insert(agent.name, Mark::Done);
        return {};
    };
    for (const AgentPreset &agent : agents) {
        if (marks.value(agent.name, Mark::Unvisited) == Mark::Unvisited) {
            if (QString cycle = visit(agent); !cycle.isEmpty())
                return cycle;
        }
    }
    return {};
}

} // namespace Loopscope
