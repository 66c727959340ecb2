#pragma once

#include "agent/config/providerprofile.h"
#include "agent/knowledge/knowledgesearchtool.h"
#include "agent/loop/agentconfig.h"
#include "agent/loop/agentpreset.h"
#include "agent/mcp/mcpserverconfig.h"
#include "agent/session/sessionsetup.h"

#include <QCoreApplication>
#include <QList>
#include <QStringList>

#include <optional>

namespace Loopscope {
class ChatSession;
} // namespace Loopscope

namespace Loopscope::Cli {

/*!
    What a turn without a window runs with, as the command line says it: the
    provider and its key, the loop options, the built-in tools and their
    workspace, and who approves tool calls when nobody is there to ask.
    `loopscope run` and every live case of `loopscope eval` turn it into the
    SessionSetup their ChatSession applies, as the window does with its own, so
    every front end runs a turn the same way.
*/
struct HeadlessSetup
{
    Q_DECLARE_TR_FUNCTIONS(HeadlessSetup)

public:
    ProviderProfile profile;
    QString apiKey;
    AgentConfig config;
    AgentRoster agents; // --agents: the file's agents
    QString agent;      // the one the turn runs as (--agent, else the file's first)
    // The saved provider profiles the file's agents name ("provider"), with their keys, by name.
    QHash<QString, SessionSetup::Provider> agentProviders;
    QHash<QString, AttachedKnowledgeBase>
        agentKnowledge; // the bases --agents names that --knowledge does not
    QStringList tools;
    QString workspace;
    bool approveAll = true;
    // MCP servers can write files or spend money, and nobody is there to ask: their tools and forms
    // need an explicit --approve all.
    // Also what lets the built-in tools with effects (files, commands, the network) run.
    bool approveMcp = false;
    // --approve-tools: only these built-in tools run, every other call is denied; nullopt without it.
    std::optional<QStringList> approvedTools;
    bool fetchPrivate = false; // fetch_url may reach loopback and private addresses
    QList<McpServerConfig> mcpServers;
    QList<AttachedKnowledgeBase> knowledge; // --knowledge: searched by knowledge_search, which always runs
    bool retrieveBeforeTurn = false; // --retrieve auto: and for the question, before the first iteration
    ResponseLimits limits;           // --max-response-mb, --request-timeout-s

    // The session's setup for this run: every built-in tool with an explicit rule, MCP tools with
    // --approve all's.
    SessionSetup sessionSetup() const;
    // ChatSession::apply(sessionSetup()).
    void applyTo(ChatSession &session) const;
    // The knowledge bases \a roster's agents name ("knowledge") that knowledge does not hold, into
    // agentKnowledge: false with *error naming the agent and the base when one is not in the library or
    // its key is missing, before any request (run and eval alike).
    bool attachAgentKnowledge(const AgentRoster &roster, QString *error);
    // The saved provider profile \a name with its key from the environment, into agentProviders (once):
    // false with *error when there is no such profile or its key cannot be had, before any request.
    // \a subject is who runs on it, the start of the sentence (agent "a", the model shield of agent "a").
    bool attachSavedProfile(const QString &name, const QString &subject, QString *error);
    // The saved provider profiles \a roster's agents and their model shields name ("provider"), as
    // attachSavedProfile() does (run and eval alike).
    bool attachAgentProviders(const AgentRoster &roster, QString *error);
};

} // namespace Loopscope::Cli
