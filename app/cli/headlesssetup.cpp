#include "app/cli/headlesssetup.h"

#include "app/cli/knowledgecommand.h"

#include "agent/config/apikeyresolver.h"
#include "agent/config/providerprofile.h"
#include "agent/session/chatsession.h"
#include "agent/tools/builtin/builtintools.h"

#include <QSettings>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

SessionSetup HeadlessSetup::sessionSetup() const
{
    SessionSetup setup;
    setup.provider = SessionSetup::Provider{profile, apiKey, {}, 600'000};
    setup.loop = config;
    setup.agents = agents;
    setup.agent = agent;
    setup.agentProviders = agentProviders;
    setup.tools = {tools, workspace, fetchPrivate};
    setup.mcpServers = mcpServers;
    setup.knowledge = knowledge;
    setup.agentKnowledge = agentKnowledge;
    setup.retrieveBeforeTurn = retrieveBeforeTurn;
    setup.limits = limits;
    // Every built-in tool gets an explicit rule: nobody is there to ask.
    using Rule = ToolApprovalPolicy::Rule;
    SessionSetup::Approvals &approvals = setup.approvals;
    if (approvedTools) {
        approvals.defaultRule = Rule::Never;
        for (const QString &name : builtinToolNames())
            approvals.rules.insert(name, approvedTools->contains(name) ? Rule::Always : Rule::Never);
        approvals.neverReason
            = tr("this tool is not approved in this run (only %1 are, by --approve-tools)")
                  .arg(approvedTools->isEmpty() ? tr("no tools") : approvedTools->join(u", "));
    } else if (!approveAll) {
        approvals.defaultRule = Rule::Never;
        for (const QString &name : builtinToolNames())
            approvals.rules.insert(name, Rule::Never);
        approvals.neverReason = tr("tool calls are not approved in this run (--approve none)");
    } else {
        approvals.defaultRule = Rule::Always;
        // Tools with effects (files, commands, the network) need the same explicit --approve all as MCP
        // tools.
        for (const QString &name : builtinToolNames()) {
            const auto tool = createBuiltinTool(name, Workspace());
            approvals.rules.insert(name,
                                   approveMcp || !tool->behaviour().asksFirst ? Rule::Always : Rule::Never);
        }
        if (!approveMcp) {
            approvals.neverReason
                = tr("not approved in this run: tools that write files, run commands or fetch URLs, and MCP "
                     "tools, need an explicit --approve all or --approve-tools");
        }
    }
    // Attaching a base with --knowledge is what approves searching it, whatever --approve says: it only
    // reads (the default Never rule of --approve none and --approve-tools would deny it).
    approvals.rules.insert(QString(KnowledgeSearchTool::Name), Rule::Always);
    // Nobody is there to ask: MCP tools run only with an explicit --approve all.
    approvals.mcpOverride = approveMcp ? Rule::Always : Rule::Never;
    return setup;
}

void HeadlessSetup::applyTo(ChatSession &session) const
{
    SessionSetup setup = sessionSetup();
    // A continued session keeps its own system prompt (set in the window).
    setup.sessionPrompt = session.setup().sessionPrompt;
    session.apply(setup);
}

bool HeadlessSetup::attachAgentKnowledge(const AgentRoster &roster, QString *error)
{
    for (const AgentPreset &preset : roster.agents) {
        for (const QString &name : preset.knowledge.value_or(QStringList())) {
            const bool attached
                = agentKnowledge.contains(name)
                  || std::any_of(knowledge.cbegin(), knowledge.cend(),
                                 [&name](const AttachedKnowledgeBase &base) { return base.name == name; });
            if (attached)
                continue;
            QString problem;
            const std::optional<AttachedKnowledgeBase> base = KnowledgeCommand::attach(name, &problem);
            if (!base) {
                *error = tr("agent \"%1\" searches the knowledge base \"%2\": %3")
                             .arg(preset.name, name, problem);
                return false;
            }
            agentKnowledge.insert(name, *base);
        }
    }
    return true;
}

bool HeadlessSetup::attachSavedProfile(const QString &name, const QString &subject, QString *error)
{
    if (agentProviders.contains(name))
        return true;
    QSettings settings;
    const QList<ProviderProfile> profiles = ProviderProfileStore(&settings).profiles();
    const auto named = std::find_if(profiles.cbegin(), profiles.cend(),
                                    [&name](const ProviderProfile &p) { return p.name == name; });
    if (named == profiles.cend()) {
        QStringList names;
        for (const ProviderProfile &profile : profiles)
            names.append(profile.name);
        *error = tr("%1 runs on the provider profile \"%2\", which is not a saved profile (the profiles are: "
                    "%3)")
                     .arg(subject, name, names.isEmpty() ? tr("none") : names.join(u", "_s));
        return false;
    }
    const SessionSetup::Provider provider
        = SessionSetup::providerFor(*named, ApiKeyResolver::fromEnvironment(*named), 600'000);
    if (!provider.isUsable()) {
        *error = tr("%1 runs on the provider profile \"%2\": %3").arg(subject, name, provider.keyProblem);
        return false;
    }
    agentProviders.insert(name, provider);
    return true;
}

bool HeadlessSetup::attachAgentProviders(const AgentRoster &roster, QString *error)
{
    for (const AgentPreset &preset : roster.agents) {
        if (preset.provider
            && !attachSavedProfile(*preset.provider, tr("agent \"%1\"").arg(preset.name), error))
            return false;
        const QString shieldProfile
            = preset.shields && preset.shields->model ? preset.shields->model->provider : QString();
        if (!shieldProfile.isEmpty()
            && !attachSavedProfile(shieldProfile, tr("the model shield of agent \"%1\"").arg(preset.name),
                                   error))
            return false;
    }
    return true;
}

} // namespace Loopscope::Cli
