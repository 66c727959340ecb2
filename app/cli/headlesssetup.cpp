#include "app/cli/headlesssetup.h"

#include "agent/session/chatsession.h"
#include "agent/tools/builtin/builtintools.h"

namespace Loopscope::Cli {

void HeadlessSetup::applyTo(ChatSession &session) const
{
    session.setProvider(profile, apiKey);
    session.setAgentConfig(config);
    session.setFetchAllowsPrivateAddresses(fetchPrivate);
    session.setTools(tools, workspace);
    // Every built-in tool gets an explicit rule: nobody is there to ask.
    using Rule = ToolApprovalPolicy::Rule;
    ToolApprovalPolicy *approvals = session.approvals();
    if (approvedTools) {
        approvals->setDefaultRule(Rule::Never);
        for (const QString &name : builtinToolNames())
            approvals->setRule(name, approvedTools->contains(name) ? Rule::Always : Rule::Never);
        approvals->setNeverReason(
            tr("this tool is not approved in this run (only %1 are, by --approve-tools)")
                .arg(approvedTools->isEmpty() ? tr("no tools") : approvedTools->join(u", ")));
    } else if (!approveAll) {
        approvals->setDefaultRule(Rule::Never);
        for (const QString &name : builtinToolNames())
            approvals->setRule(name, Rule::Never);
        approvals->setNeverReason(tr("tool calls are not approved in this run (--approve none)"));
    } else {
        approvals->setDefaultRule(Rule::Always);
        // Tools with effects (files, commands, the network) need the same explicit --approve all as MCP
        // tools.
        for (const QString &name : builtinToolNames()) {
            const auto tool = createBuiltinTool(name, Workspace());
            approvals->setRule(name, approveMcp || !tool->behaviour().asksFirst ? Rule::Always : Rule::Never);
        }
        if (!approveMcp) {
            approvals->setNeverReason(
                tr("not approved in this run: tools that write files, run commands or fetch URLs, and MCP "
                   "tools, need an explicit --approve all or --approve-tools"));
        }
    }
    // Nobody is there to ask: MCP tools run only with an explicit --approve all.
    session.setMcpApprovalOverride(approveMcp ? Rule::Always : Rule::Never);
    session.setMcpServers(mcpServers);
}

} // namespace Loopscope::Cli
