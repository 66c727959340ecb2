#pragma once

#include "agent/debug/toolapprovalpolicy.h"
#include "agent/mcp/mcphub.h"

#include <QHash>
#include <QObject>

#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

class Agent;
class Trace;

/*!
    A session's MCP servers as the conversation sees them: the hub that runs
    them, a trace node for each start-up under the turn that waited for it,
    the forms (elicitations) a server asks the user to fill in, with the
    tool time limits paused meanwhile and the time the user took recorded as a
    Wait (as an approval's is), each step of an OAuth sign-in (under the
    start-up or the call that waited for it), and the servers' approval rules merged
    into the session's policy.
*/
class McpBridge final : public QObject
{
    Q_OBJECT

public:
    McpBridge(QNetworkAccessManager *network, Agent *agent, Trace *trace, ToolApprovalPolicy *approvals,
              QObject *parent = nullptr);
    ~McpBridge() override;

    McpHub *hub() const { return m_hub; }
    // Each server's answers are capped at \a maxResponseBytes; a server whose cap changes connects again.
    void setServers(const QList<McpServerConfig> &servers, qint64 maxResponseBytes);
    // Every MCP tool gets \a rule instead of its configured one; nullopt: the configured rules.
    void setApprovalOverride(std::optional<ToolApprovalPolicy::Rule> rule) { m_override = rule; }
    // The servers' rules into the policy; a rule the user changed since (always allow) stays until
    // the configuration says otherwise.
    void mergeApprovalRules();
    // The user's rules were replaced: the servers' rules are added back at the next merge.
    void forgetMergedRules() { m_mergedRules.clear(); }

    // Servers that are down start again; true while any starts (startupsSettled() follows).
    bool prepareTurn();
    bool isStarting() const { return m_hub->isStarting(); }
    void turnStarted(int turnNode);
    void turnFinished();

    // Answers a form (elicitationRequested); false when it no longer waits.
    bool answerElicitation(int id, const McpElicitationAnswer &answer);
    void cancelElicitations();

signals:
    void toolsChanged();
    void notice(const QString &text);
    void elicitationRequested(int id, const Loopscope::McpElicitation &request);
    void elicitationSettled(int id);
    // No server is starting any more.
    void startupsSettled();

private:
    // One start-up of an MCP server, until the trace shows it.
    struct Startup
    {
        qint64 startedUs = 0;
        qint64 endedUs = 0;
        McpClient::State state = McpClient::State::Starting;
        bool recorded = true;
        QList<McpAuthStep> authSteps; // an OAuth sign-in during the start-up: children of its node
    };

    void onServerStateChanged(const QString &name, McpClient::State state);
    // Trace nodes for the start-ups the trace does not show yet, under the running turn.
    void recordStartups();
    // A step of a sign-in: under the server's start-up while it starts, else under the call waiting for it.
    void onAuthStep(const QString &server, const McpAuthStep &step);
    void recordAuthStep(int parent, const McpAuthStep &step);
    void onElicitation(const McpElicitation &request, McpClient::ElicitationReply reply);
    // The trace node a question of \a server holds: its running tool call, else the turn; -1 outside a turn.
    int waitingStep(const QString &server) const;

    Agent *m_agent;
    Trace *m_trace;
    ToolApprovalPolicy *m_approvals;
    McpHub *m_hub;
    std::optional<ToolApprovalPolicy::Rule> m_override;
    QHash<QString, ToolApprovalPolicy::Rule> m_mergedRules; // as last merged into the policy
    int m_turnNode = -1;
    QHash<QString, Startup> m_startups;
    QHash<int, McpClient::ElicitationReply> m_elicitations;
    QHash<int, int> m_elicitationWaits; // elicitation id -> its Wait node: the user's time, not the machine's
    int m_nextElicitation = 0;
};

} // namespace Loopscope
