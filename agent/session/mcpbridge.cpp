#include "agent/session/mcpbridge.h"

#include "agent/loop/agent.h"
#include "agent/mcp/mcpsampling.h"
#include "agent/session/mcpsamplingcall.h"
#include "agent/trace/trace.h"

#include <QDateTime>
#include <QJsonArray>
#include <QPointer>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace Loopscope {

McpBridge::McpBridge(QNetworkAccessManager *network, Agent *agent, Trace *trace,
                     ToolApprovalPolicy *approvals, QObject *parent)
    : QObject(parent)
    , m_agent(agent)
    , m_trace(trace)
    , m_approvals(approvals)
    , m_hub(new McpHub(network, this))
{
    connect(m_hub, &McpHub::toolsChanged, this, &McpBridge::toolsChanged);
    connect(m_hub, &McpHub::notice, this, &McpBridge::notice);
    connect(m_hub, &McpHub::serverStateChanged, this, &McpBridge::onServerStateChanged);
    connect(m_hub, &McpHub::authStep, this, &McpBridge::onAuthStep);
    m_hub->setElicitationHandler(
        [self = QPointer<McpBridge>(this)](const McpElicitation &request, McpClient::ElicitationReply reply) {
            if (self)
                self->onElicitation(request, std::move(reply));
            else
                reply({McpElicitationAnswer::Action::Cancel, {}});
        });
}

McpBridge::~McpBridge()
{
    cancelElicitations();
    cancelSamplings();
    // No server outlives the session; a tool call still waiting gets its failure.
    m_hub->shutdown();
}

void McpBridge::setServers(const QList<McpServerConfig> &servers, qint64 maxResponseBytes)
{
    QList<McpServerConfig> limited = servers;
    for (McpServerConfig &server : limited)
        server.maxResponseBytes = maxResponseBytes;
    m_hub->setServers(limited);
    // A start-up of a server no longer configured is not shown.
    for (auto it = m_startups.begin(); it != m_startups.end();) {
        if (!m_hub->client(it.key()))
            it = m_startups.erase(it);
        else
            ++it;
    }
}

void McpBridge::mergeApprovalRules()
{
    QHash<QString, ToolApprovalPolicy::Rule> serverRules;
    const QHash<QString, QString> named = m_hub->approvalRules();
    for (auto it = named.cbegin(); it != named.cend(); ++it) {
        serverRules.insert(
            it.key(),
            m_override.value_or(
                ToolApprovalPolicy::ruleFromName(it.value()).value_or(ToolApprovalPolicy::Rule::Ask)));
    }
    QHash<QString, ToolApprovalPolicy::Rule> rules = m_approvals->rules();
    for (auto it = m_mergedRules.cbegin(); it != m_mergedRules.cend(); ++it) {
        if (!serverRules.contains(it.key()))
            rules.remove(it.key());
    }
    for (auto it = serverRules.cbegin(); it != serverRules.cend(); ++it) {
        if (!rules.contains(it.key()) || m_mergedRules.value(it.key()) != it.value()
            || !m_mergedRules.contains(it.key()))
            rules.insert(it.key(), it.value());
    }
    m_mergedRules = serverRules;
    if (rules != m_approvals->rules())
        m_approvals->setRules(rules);
}

bool McpBridge::prepareTurn()
{
    m_hub->prepareTurn();
    return m_hub->isStarting();
}

void McpBridge::turnStarted(int turnNode)
{
    m_turnNode = turnNode;
    recordStartups();
}

void McpBridge::turnFinished()
{
    cancelElicitations();
    cancelSamplings();
    m_turnNode = -1;
}

void McpBridge::onServerStateChanged(const QString &name, McpClient::State state)
{
    const qint64 nowUs = QDateTime::currentMSecsSinceEpoch() * 1000;
    if (state == McpClient::State::Starting) {
        m_startups.insert(name, {nowUs, 0, state, false});
    } else if (auto it = m_startups.find(name);
               it != m_startups.end() && it->state == McpClient::State::Starting) {
        if (state == McpClient::State::Stopped) {
            m_startups.erase(it); // stopped while starting: nothing to show
        } else {
            it->endedUs = nowUs;
            it->state = state;
            if (m_turnNode >= 0)
                recordStartups();
        }
    }
    if (!m_hub->isStarting())
        emit startupsSettled();
}

void McpBridge::recordStartups()
{
    if (m_turnNode < 0 || !m_trace->isValid(m_turnNode))
        return;
    for (auto it = m_startups.begin(); it != m_startups.end(); ++it) {
        Startup &startup = it.value();
        if (startup.recorded || startup.state == McpClient::State::Starting)
            continue;
        startup.recorded = true;
        McpServerData data;
        data.server = it.key();
        McpClient *client = m_hub->client(it.key());
        if (client && startup.state == McpClient::State::Ready) {
            if (const std::optional<McpStartupInfo> info = client->startupInfo()) {
                QJsonArray exchange;
                for (const QJsonObject &message : info->exchange)
                    exchange.append(message);
                data.startup
                    = {{u"protocolVersion"_s, info->protocolVersion}, {u"discovered"_s, info->discovered},
                       {u"serverInfo"_s, info->serverInfo},           {u"toolCount"_s, info->toolCount},
                       {u"durationMs"_s, info->durationMs},           {u"exchange"_s, exchange}};
                if (!info->instructions.isEmpty())
                    data.startup.insert(u"instructions"_s, info->instructions);
            }
        } else {
            data.error = client ? client->failureReason() : tr("The MCP server was removed.");
            if (client)
                data.stderrTail
                    = client->stderrTail().mid(std::max<qsizetype>(0, client->stderrTail().size() - 20));
        }
        const bool ok = startup.state == McpClient::State::Ready;
        const int node = m_trace->begin(m_turnNode, TraceKind::McpServer, tr("MCP server %1").arg(it.key()),
                                        startup.startedUs, data);
        m_trace->finish(node, ok ? TraceStatus::Ok : TraceStatus::Error, startup.endedUs);
        for (const McpAuthStep &step : std::as_const(startup.authSteps))
            recordAuthStep(node, step);
        startup.authSteps.clear();
    }
}

void McpBridge::onAuthStep(const QString &server, const McpAuthStep &step)
{
    if (auto it = m_startups.find(server);
        it != m_startups.end() && it->state == McpClient::State::Starting) {
        it->authSteps.append(step);
        return;
    }
    // A sign-in again (an expired token, a step-up) while a turn runs: under the call that waits for it.
    if (const int parent = waitingStep(server); parent >= 0)
        recordAuthStep(parent, step);
}

void McpBridge::recordAuthStep(int parent, const McpAuthStep &step)
{
    const McpAuthData &data = step.data;
    const QString outcome
        = data.status ? QString::number(data.status) : (data.error.isEmpty() ? tr("done") : tr("failed"));
    //: A trace step of an MCP server's OAuth sign-in: the step, the method and URL, the HTTP status
    const QString label = tr("OAuth %1: %2 %3 → %4")
                              .arg(QString(data.step).replace(u'_', u' '), data.method, data.url, outcome);
    const int node = m_trace->begin(parent, TraceKind::McpAuth, label, step.startedUs, data);
    m_trace->finish(node, data.error.isEmpty() ? TraceStatus::Ok : TraceStatus::Error, step.endedUs);
}

void McpBridge::onElicitation(const McpElicitation &request, McpClient::ElicitationReply reply)
{
    const int id = ++m_nextElicitation;
    m_elicitations.insert(id, std::move(reply));
    // The tool that asks waits for a person: its time limit must not run out meanwhile.
    updateToolTimeoutPause();
    if (const int step = waitingStep(request.serverName); step >= 0) {
        WaitData wait;
        wait.waitingFor = u"answer"_s;
        wait.preview = request.message; // what the user was asked; never what they answer
        const qint64 nowUs = QDateTime::currentMSecsSinceEpoch() * 1000;
        //: A trace step: an MCP server asked the user a question and waits for the answer
        m_elicitationWaits.insert(
            id, m_trace->begin(step, TraceKind::Wait,
                               tr("Waiting for your answer to %1").arg(request.serverName), nowUs, wait));
    }
    emit elicitationRequested(id, request);
}

int McpBridge::waitingStep(const QString &server) const
{
    if (m_turnNode < 0 || !m_trace->isValid(m_turnNode))
        return -1;
    // The server's tool call that is still running, the latest if several are.
    int found = -1;
    QList<int> pending{m_turnNode};
    while (!pending.isEmpty()) {
        const TraceNode &node = m_trace->node(pending.takeFirst());
        if (const auto *call = std::get_if<ToolCallData>(&node.payload);
            call && node.status == TraceStatus::Running) {
            const std::optional<McpHub::ToolRef> tool = m_hub->resolve(call->call.name);
            if (tool && tool->server == server
                && (found < 0 || m_trace->node(found).startedUs <= node.startedUs))
                found = node.id;
        }
        pending.append(node.children);
    }
    return found >= 0 ? found : m_turnNode;
}

bool McpBridge::answerElicitation(int id, const McpElicitationAnswer &answer)
{
    const auto it = m_elicitations.find(id);
    if (it == m_elicitations.end())
        return false;
    const McpClient::ElicitationReply reply = it.value();
    m_elicitations.erase(it);
    updateToolTimeoutPause();
    const int wait = m_elicitationWaits.value(id, -1);
    m_elicitationWaits.remove(id);
    if (m_trace->isValid(wait)) {
        const QString decision = answer.action == McpElicitationAnswer::Action::Accept    ? u"accepted"_s
                                 : answer.action == McpElicitationAnswer::Action::Decline ? u"declined"_s
                                                                                          : u"cancelled"_s;
        m_trace->update(wait, [&decision](TraceNode &node) { node.data<WaitData>().decision = decision; });
        m_trace->finish(wait,
                        answer.action == McpElicitationAnswer::Action::Cancel ? TraceStatus::Cancelled
                                                                              : TraceStatus::Ok,
                        QDateTime::currentMSecsSinceEpoch() * 1000);
    }
    if (reply)
        reply(answer);
    emit elicitationSettled(id);
    return true;
}

void McpBridge::cancelElicitations()
{
    const QList<int> ids = m_elicitations.keys();
    for (int id : ids)
        answerElicitation(id, {McpElicitationAnswer::Action::Cancel, {}});
}

void McpBridge::updateToolTimeoutPause()
{
    m_agent->pauseToolTimeouts(!m_elicitations.isEmpty() || !m_samplings.isEmpty()
                               || !m_samplingCalls.isEmpty());
}

void McpBridge::setSamplingClients(std::function<std::unique_ptr<ModelClient>()> makeClient)
{
    m_makeSamplingClient = std::move(makeClient);
    if (!m_makeSamplingClient) {
        m_hub->setSamplingHandler({});
        return;
    }
    m_hub->setSamplingHandler([self = QPointer<McpBridge>(this)](const McpSamplingRequest &request,
                                                                 McpClient::SamplingReply reply) {
        if (self)
            self->onSampling(request, std::move(reply));
        else
            reply({});
    });
}

QString McpBridge::samplingModel() const
{
    return m_agent->config().model.model;
}

void McpBridge::onSampling(const McpSamplingRequest &request, McpClient::SamplingReply reply)
{
    const int id = ++m_nextSampling;
    PendingSampling pending;
    pending.reply = std::move(reply);
    pending.step = waitingStep(request.serverName);
    if (pending.step >= 0) {
        WaitData wait;
        wait.waitingFor = u"approval"_s;
        wait.preview = request.messages.isEmpty()
                           ? QString()
                           : McpSampling::messageText(request.messages.last().toObject()).left(200);
        //: A trace step: an MCP server asked for a model call and waits for the user to allow it
        pending.waitNode
            = m_trace->begin(pending.step, TraceKind::Wait,
                             tr("Waiting for you to allow a model call for %1").arg(request.serverName),
                             QDateTime::currentMSecsSinceEpoch() * 1000, wait);
    }
    m_samplings.insert(id, std::move(pending));
    updateToolTimeoutPause();
    emit samplingRequested(id, request);
}

bool McpBridge::answerSampling(int id, const McpSamplingDecision &decision)
{
    const auto it = m_samplings.find(id);
    if (it == m_samplings.end())
        return false;
    const PendingSampling pending = std::move(*it);
    m_samplings.erase(it);
    if (m_trace->isValid(pending.waitNode)) {
        const QString answer = decision.accepted ? u"accepted"_s : u"declined"_s;
        m_trace->update(pending.waitNode,
                        [&answer](TraceNode &node) { node.data<WaitData>().decision = answer; });
        m_trace->finish(pending.waitNode, TraceStatus::Ok, QDateTime::currentMSecsSinceEpoch() * 1000);
    }
    std::unique_ptr<ModelClient> client
        = decision.accepted && m_makeSamplingClient ? m_makeSamplingClient() : nullptr;
    if (!client) {
        if (pending.reply)
            pending.reply({}); // declined: the server hears the spec's refusal
    } else {
        ModelOptions options = m_agent->config().model;
        if (!decision.model.isEmpty())
            options.model = decision.model;
        auto *call = new McpSamplingCall(std::move(client), m_trace, pending.step, m_agent->priceLookup(),
                                         pending.reply, this);
        m_samplingCalls.append(call);
        // Told as a sub-agent's answers are, one level below the agent whose tool asked: the session
        // counts its tokens and cost into the turn's, the chat shows no row for it.
        connect(call, &McpSamplingCall::responded, this,
                [this, call, server = decision.request.serverName](const ModelResponse &response) {
                    AgentEvent event;
                    event.kind = AgentEvent::Kind::ModelResponse;
                    event.traceNode = call->traceNode();
                    event.text = response.text;
                    event.agent = server;
                    event.depth = m_agent->depth() + 1;
                    event.payload = ModelResponseInfo{response.finishReason, int(response.toolCalls.size()),
                                                      response.usage};
                    m_agent->announceNested(event);
                });
        connect(call, &McpSamplingCall::finished, this, [this, call] {
            m_samplingCalls.removeAll(call);
            call->deleteLater();
            updateToolTimeoutPause();
        });
        call->start(decision.request, options);
    }
    updateToolTimeoutPause();
    emit samplingSettled(id);
    return true;
}

void McpBridge::cancelSamplings()
{
    // Nobody answered: the server hears a refusal, the trace that the wait was cut short.
    const auto waiting = std::exchange(m_samplings, {});
    for (auto it = waiting.cbegin(); it != waiting.cend(); ++it) {
        if (m_trace->isValid(it->waitNode)) {
            m_trace->update(it->waitNode,
                            [](TraceNode &node) { node.data<WaitData>().decision = u"cancelled"_s; });
            m_trace->finish(it->waitNode, TraceStatus::Cancelled, QDateTime::currentMSecsSinceEpoch() * 1000);
        }
        if (it->reply)
            it->reply({});
        emit samplingSettled(it.key());
    }
    const QList<QPointer<McpSamplingCall>> running = m_samplingCalls;
    for (const QPointer<McpSamplingCall> &call : running) {
        if (call)
            call->cancel();
    }
    if (!waiting.isEmpty())
        updateToolTimeoutPause();
}

} // namespace Loopscope
