#include "app/cli/headlesssetup.h"

#include "agent/session/chatsession.h"

namespace Loopscope::Cli {

void HeadlessSetup::applyTo(ChatSession &session) const
{
    session.setProvider(profile, apiKey);
    session.setAgentConfig(config);
    session.setTools(tools, workspace);
    // Nobody is there to ask, so no tool is left to its own default (ask, for the tools that ask first).
    session.approvals()->setDefaultRule(approveAll ? ToolApprovalPolicy::Rule::Always
                                                   : ToolApprovalPolicy::Rule::Never);
    if (!approveAll) {
        session.approvals()->setNeverReason(tr("tool calls are not approved in this run (--approve none)"));
    } else if (!approveMcp) {
        session.approvals()->setNeverReason(
            tr("MCP tools are not approved in this run: they need an explicit --approve all"));
    }
    // Nobody is there to ask: MCP tools run only with an explicit --approve all.
    session.setMcpApprovalOverride(approveMcp ? ToolApprovalPolicy::Rule::Always
                                              : ToolApprovalPolicy::Rule::Never);
    session.setMcpServers(mcpServers);
}

} // namespace Loopscope::Cli
