#pragma once

#include "agent/tools/tool.h"

#include <QCoreApplication>
#include <QPointer>

namespace Loopscope {

class Agent;

/*!
    Another agent of the team offered as a tool: ask_<name> {task} runs that
    agent's own loop on the task alone (its instructions, tools and model, none
    of the caller's history or instructions) and answers with its answer. When
    it does not answer (its iteration limit, a provider error, a cancellation)
    the call fails with the reason, for the caller's model to read.

    Each call is a loop of its own with a model client of its own, so the
    sub-agent calls of one response run side by side like other tools. Its
    steps go into the trace under the call's node and its events out through
    the session's agent as they happen; cancelling the call cancels its loop
    and the request in flight. A depth limit stops agents that ask each other
    without end.
*/
class SubAgentTool final : public AsyncTool
{
    Q_DECLARE_TR_FUNCTIONS(SubAgentTool)

public:
    // The session's agent asks a sub-agent (depth 1), which may ask another (2), and one more (3).
    static constexpr int DefaultMaxDepth = 3;

    // \a session is the agent whose turns the calls belong to: its trace, team, interceptors (the
    // debugger, approvals), shields, clock and prices are the sub-agent's too, and it announces the
    // sub-agent's events. The tool only refers to it: a call after it is gone fails.
    SubAgentTool(QString agentName, Agent *session, int maxDepth = DefaultMaxDepth);

    static QString toolName(const QString &agentName);

    ToolSchema schema() const override;
    ToolBehaviour behaviour() const override;
    QFuture<ToolResult> start(const QJsonObject &arguments,
                              std::shared_ptr<ToolContext> context) const override;

private:
    QString m_agentName;
    QPointer<Agent> m_session;
    int m_maxDepth;
};

} // namespace Loopscope
