#pragma once

#include "agent/config/apikeyresolver.h"
#include "agent/config/providerprofile.h"
#include "agent/debug/approvalscope.h"
#include "agent/debug/toolapprovalpolicy.h"
#include "agent/knowledge/knowledgesearchtool.h"
#include "agent/loop/agentconfig.h"
#include "agent/loop/agentpreset.h"
#include "agent/mcp/mcpserverconfig.h"
#include "agent/model/responselimits.h"
#include "agent/tools/builtin/runcommandtool.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QStringList>

#include <optional>

namespace Loopscope {

class AppSettings;

/*!
    Everything a conversation runs with, as one value: the provider profile
    and its key (or why there is none), the loop options, the built-in tools
    and their workspace, the MCP servers, and who approves tool calls. The
    window builds it from the user's settings and the toolbar's choice, `loopscope
    run` and `eval` from their command line; ChatSession::apply() is the one
    place it takes effect, so what the toolbar shows is what the next request uses.
*/
struct SessionSetup
{
    Q_DECLARE_TR_FUNCTIONS(SessionSetup)

public:
    struct Provider
    {
        ProviderProfile profile; // its model is the one the next turn asks
        QString apiKey;
        // Why the profile has no usable key (a sentence with the fix), empty when it has one: its
        // turns then fail with this reason, and never go to another profile.
        QString keyProblem;
        int readTimeoutMs = 600'000;

        bool isUsable() const { return keyProblem.isEmpty(); }
        bool operator==(const Provider &) const = default;
    };

    struct Tools
    {
        QStringList names;         // built-in tools; unknown names are left out
        QString workspace;         // where the file tools and run_command are confined
        bool fetchPrivate = false; // fetch_url may reach loopback and private addresses
        // The workspace is the default folder, nobody chose it: it is made when a turn first offers
        // the file tools. A chosen folder that is missing stays missing (a drive not mounted).
        bool makeWorkspace = false;

        bool operator==(const Tools &) const = default;
    };

    struct Approvals
    {
        QHash<QString, ToolApprovalPolicy::Rule> rules; // by tool name
        QList<ScopedApproval> scoped;
        // nullopt: ask before tools that ask first, run the others (the window).
        std::optional<ToolApprovalPolicy::Rule> defaultRule;
        QString neverReason; // what the model is told when a Never rule denies a call
        // Every MCP tool gets this rule instead of its configured one (runs nobody watches).
        std::optional<ToolApprovalPolicy::Rule> mcpOverride;

        bool operator==(const Approvals &) const = default;
    };

    std::optional<Provider> provider; // nullopt: no provider configured yet
    AgentConfig loop;                 // the model and its options come from the provider
    // The agents a conversation may run as (an agents file), and the one its turns start with: its
    // instructions, model, tools and options laid over the rest. Empty: no agent, today's loop.
    AgentRoster agents;
    QString agent;
    // The provider profiles its agents and their model shields name ("provider"), by profile name, each
    // with its key: an agent with one runs on it, as the session's turns do while it is the active agent;
    // a model shield with one asks it. A name missing here fails saying so, never on another profile.
    QHash<QString, Provider> agentProviders;
    // This session's own system prompt, over whichever the starting agent (or Settings → Loop) says;
    // the agent itself is not changed. nullopt: the agent's.
    std::optional<QString> sessionPrompt;
    Tools tools;
    QList<McpServerConfig> mcpServers;
    // The knowledge bases the model may search (knowledge_search, read-only: it needs no tools entry
    // and runs without asking): --knowledge on the command line.
    QList<AttachedKnowledgeBase> knowledge;
    // The knowledge bases its agents name ("knowledge") that are not among those, by base name: an agent
    // with its own list searches those bases instead of the session's.
    QHash<QString, AttachedKnowledgeBase> agentKnowledge;
    // Also search them for the user's question before each turn and put the best passages into its
    // requests (--retrieve auto, Settings → Knowledge); knowledge_search stays offered either way.
    bool retrieveBeforeTurn = false;
    Approvals approvals;
    // What one answer from the provider or an MCP server may cost (size, time of an attempt, rate):
    // Settings → Loop, or --max-response-mb and --request-timeout-s.
    ResponseLimits limits;

    bool operator==(const SessionSetup &) const = default;

    // The agent the turns start with, or nullptr when the session runs without one.
    const AgentPreset *activeAgent() const { return agent.isEmpty() ? nullptr : agents.find(agent); }
    // The provider \a preset runs on when it names a profile: its entry of agentProviders, or one whose
    // turns fail saying the profile does not exist (never another profile). nullopt: the session's.
    std::optional<Provider> providerOf(const AgentPreset &preset) const;
    // The bases \a preset's knowledge_search searches: the session's unless it names its own (nullptr:
    // the session's). A name attached nowhere is left out (run and the window attach them first).
    QList<AttachedKnowledgeBase> knowledgeOf(const AgentPreset *preset) const;
    // The provider profiles named by the agents (their "provider" and their model shields') and by the
    // session's own model shield (Settings → Loop), each once.
    QStringList namedProfiles() const;
    // What the session's own turns go to: the active agent's provider, else the session's.
    std::optional<Provider> boundProvider() const;

    // This setup on \a profile with \a apiKey.
    SessionSetup withProvider(const ProviderProfile &profile, const QString &apiKey) const;
    // What run_command hides from its commands: every key this session holds — the provider's, those
    // of the profiles its agents and model shields run on, its knowledge bases' embedding keys —
    // left out of the environment by variable and blanked wherever a command prints one.
    CommandSecrets commandSecrets() const;
    // Why the provider's turns fail before they start (no usable key); empty when they can go out.
    QString providerProblem() const { return provider ? provider->keyProblem : QString(); }

    // The user's settings (loop, tools, approval rules, response limits; a rule with an unknown name is left
    // out), keeping \a base's provider and MCP servers, which have their own sources (the toolbar's choice
    // with its key, the MCP settings with their secrets).
    static SessionSetup fromSettings(const AppSettings &settings, const SessionSetup &base);
    // \a profile with the key ApiKeyResolver found; when it found none the provider is kept, in a
    // state whose turns fail with the reason and how to fix it.
    static Provider providerFor(const ProviderProfile &profile, const ApiKeyResolver::Result &key,
                                int readTimeoutMs);
};

} // namespace Loopscope
