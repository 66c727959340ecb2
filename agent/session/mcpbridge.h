#pragma once

#include "agent/debug/toolapprovalpolicy.h"
#include "agent/mcp/mcphub.h"

#include <QHash>
#include <QObject>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

class Agent;
class McpSamplingCall;
class ModelClient;
class Trace;

/*! What the user decided about a server's request for a model call (sampling). */
struct McpSamplingDecision
{
    bool accepted = false;
    McpSamplingRequest request; // as the user left it: messages, system prompt and maxTokens may be edited
    QString model;              // the model to run it on; empty: the session's
};

/*!
    A session's MCP servers as the conversation sees them: the hub that runs
    them, a trace node for each start-up under the turn that waited for it,
    the forms (elicitations) a server asks the user to fill in, with the
    tool time limits paused meanwhile and the time the user took recorded as a
    Wait (as an approval's is), each step of an OAuth sign-in (under the
    start-up or the call that waited for it), the model calls a server asks for
    (sampling: asked like an approval, then run on the session's provider as a
    ModelCall under the tool call, the way a sub-agent nests), and the servers'
    approval rules merged into the session's policy.
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

    // Where an accepted sampling request runs: a new client of the session's provider each time (the
    // agent keeps its own while it waits on the tool). Without one, servers are not offered sampling.
    void setSamplingClients(std::function<std::unique_ptr<ModelClient>()> makeClient);
    // The model a sampling request runs on unless the user picks another: the session's.
    QString samplingModel() const;
    // Answers a request for a model call (samplingRequested); false when it no longer waits.
    bool answerSampling(int id, const McpSamplingDecision &decision);
    // Declines what waits and cancels the model calls that run (the server hears a refusal).
    void cancelSamplings();

signals:
    void toolsChanged();
    void notice(const QString &text);
    void elicitationRequested(int id, const Loopscope::McpElicitation &request);
    void elicitationSettled(int id);
    void samplingRequested(int id, const Loopscope::McpSamplingRequest &request);
    void samplingSettled(int id);
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
    void onSampling(const McpSamplingRequest &request, McpClient::SamplingReply reply);
    // The tools wait for a person or a model call the user allowed: their time limits stand still.
    void updateToolTimeoutPause();
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

    struct PendingSampling
    {
        McpClient::SamplingReply reply;
        int step = -1;     // the tool call (else the turn) it goes under
        int waitNode = -1; // the user's time
    };
    std::function<std::unique_ptr<ModelClient>()> m_makeSamplingClient;
    QHash<int, PendingSampling> m_samplings;
    QList<QPointer<McpSamplingCall>> m_samplingCalls; // accepted, running
    int m_nextSampling = 0;
};

} // namespace Loopscope
