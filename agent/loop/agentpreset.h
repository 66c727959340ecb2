#pragma once

#include "agent/loop/agentconfig.h"
#include "agent/loop/agentshields.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>

namespace Loopscope {

/*!
    One agent as a user describes it: its name and instructions, and only what
    it changes from the session it runs in (the model, the tools, loop options
    and sampling parameters); the agents it may hand the turn to and those it
    may ask as tools. A preset is what an agents file holds and what a session
    runs with when it runs as that agent: configOver() lays it over the
    session's own loop options.
*/
struct AgentPreset
{
    QString name;
    QString instructions;
    // The edit it is of the user's agent (AgentStore counts them from 1); 0: not versioned (a file
    // written by hand).
    int version = 0;
    // The provider profile it runs on, by name; nullopt: the session's provider.
    std::optional<QString> provider;
    std::optional<QString> model; // nullopt: the session's model (or the provider profile's)
    // Built-in tools and MCP tools by the name the model sees, and whole MCP servers as
    // "mcp:SERVER" (mcpServerEntry()); nullopt: the session's tools; [] none.
    std::optional<QStringList> tools;
    QStringList handoffs;  // agents it may hand the turn to: transfer_to_<name>
    QStringList subagents; // agents it may ask as a tool: ask_<name>
    // The knowledge bases its knowledge_search searches, by name; nullopt: the session's; [] none.
    std::optional<QStringList> knowledge;
    std::optional<int> maxIterations;
    std::optional<int> wrapUpIterations;
    std::optional<bool> toolLessFinalIteration;
    std::optional<int> maxParallelTools;
    std::optional<int> maxToolCallsPerResponse;
    std::optional<int> toolTimeoutSeconds;
    std::optional<qint64> tokenBudget;
    std::optional<int> timeLimitSeconds; // 0: none, whatever the session's
    std::optional<PostLoopMode> postLoop;
    std::optional<HandoffMode> onHandoff;
    std::optional<HandoffHistory> handoffHistory;
    std::optional<int> maxHandoffs;
    std::optional<double> temperature;
    std::optional<double> topP; // top_p, 0–1
    std::optional<int> maxOutputTokens;
    // How its requests keep within the context window (compact, compact_at).
    std::optional<CompactionStrategy> compaction;
    std::optional<int> compactAtPercent;
    // What its input, tool calls and answer are checked by; nullopt: the session's shields.
    std::optional<AgentShields> shields;

    // \a base (the session's loop options, model and sampling) as this agent runs it.
    AgentConfig configOver(AgentConfig base) const;

    // The entry of \a tools that offers every tool of the MCP server \a server, those it has now and
    // those it adds later (tools/list_changed): "mcp:" and the server's name. A tool name the model
    // sees never holds ":" (^[a-zA-Z0-9_-]{1,64}$), so the two cannot be confused.
    static QString mcpServerEntry(const QString &server);
    // The server an entry of \a tools names whole, or nullopt when it names a single tool.
    static std::optional<QString> mcpServerOf(const QString &toolsEntry);
    // The MCP servers this agent's tools name whole, in their order.
    QStringList mcpServers() const;
    // Whether this agent is offered the MCP tool \a toolName (the name the model sees) of the server
    // \a server: the agent names it or its server, or leaves its tools to the session.
    bool offersMcpTool(const QString &server, const QString &toolName) const;

    bool operator==(const AgentPreset &) const = default;
    // The same definition whatever its version: what makes an edit a new version.
    bool sameDefinition(const AgentPreset &other) const;
    QJsonObject toJson() const;
    // What a turn records of the agent it ran as (AgentConfig::definition): toJson() without the
    // version, which the turn records on its own (agentVersion, targetVersion).
    QJsonObject definitionJson() const;
    // A definition a trace recorded, as definitionJson() writes it: sessions saved before it kept the
    // version inside as well, which is dropped here so that they compare as newer ones do.
    static QJsonObject recordedDefinition(QJsonObject definition);
    // One agent as toJson() writes it, its fields checked but not the agents it names; nullopt with
    // *error naming the problem.
    static std::optional<AgentPreset> fromJson(const QJsonObject &json, QString *error);
};

/*!
    The agents of an agents file, checked whole: every name is unique and a
    handoff or sub-agent names an agent of the file, and no agent reaches
    itself through sub-agents (a call that would never end). The problem is a
    sentence naming the agent and the field, so `loopscope run` can say it
    before any request and the window before it imports.
*/
struct AgentRoster
{
    Q_DECLARE_TR_FUNCTIONS(AgentRoster)

public:
    QList<AgentPreset> agents;

    // The agent named \a name, or nullptr.
    const AgentPreset *find(const QString &name) const;
    // \a name, or the first agent when it is empty; nullopt with *error when there is none by that name.
    std::optional<AgentPreset> pick(const QString &name, QString *error) const;

    bool operator==(const AgentRoster &) const = default;
    // {"agents": [...]}, read back by fromJson().
    QJsonObject toJson() const;
    // nullopt with *error naming the first problem.
    static std::optional<AgentRoster> fromJson(const QByteArray &bytes, QString *error);
    static std::optional<AgentRoster> load(const QString &path, QString *error);

    // The fields an agent may have, in the order the README lists them.
    static QStringList fieldNames();

    // Empty when the names, handoffs and sub-agents hold together; else the first problem (the same
    // sentence fromJson() gives), e.g. for an edit before it is stored.
    QString checkReferences() const;

private:
    QString findSubagentCycle() const;
};

} // namespace Loopscope
