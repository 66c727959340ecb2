#include "agent/loop/subagenttool.h"

#include "agent/loop/agent.h"
#include "agent/model/modelclient.h"

#include <QJsonArray>
#include <QPromise>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

/*
    One call's loop: its model client and agent, from the task to the agent's
    end of turn, which settles the call's future. A child of the session's
    agent, so none outlives it; it lets itself go once its turn ended.
*/
class SubAgentRun final : public QObject
{
public:
    SubAgentRun(Agent *session, std::unique_ptr<ModelClient> client, const AgentTeam::Member &member,
                const ToolCallSite &site)
        : QObject(session)
        , m_client(std::move(client))
        , m_agent(std::make_unique<Agent>(m_client.get(), member.workbench, session->trace()))
    {
        m_agent->setConfig(member.config);
        m_agent->setTeam(session->team());
        m_agent->setClock(session->clock());
        // On a profile of its own, its calls cost what that profile's cost.
        m_agent->setPriceLookup(member.prices ? member.prices : session->priceLookup());
        // Its approval cards stop the turn's clocks, and the session's stop its.
        m_agent->sharePersonWaits(session->personWaits());
        for (const auto &shield : session->shields())
            m_agent->addShield(shield);
        // The same debugger and approvals: a sub-agent's tool asks in the chat like its caller's.
        for (Interceptor *interceptor : session->interceptors())
            m_agent->addInterceptor(interceptor);
        // The trace node's id is unique in the session: its calls' ids are unique beside every other agent's.
        m_agent->nestUnder(site.traceNode, site.depth + 1, u"a%1_"_s.arg(site.traceNode));
        connect(m_agent.get(), &Agent::event, session, &Agent::announceNested);
        connect(m_agent.get(), &Agent::turnFinished, this, &SubAgentRun::onTurnFinished);
        m_promise.start();
    }

    QFuture<ToolResult> future() { return m_promise.future(); }
    void begin(const QString &task) { m_agent->send(task); }
    void cancel() { m_agent->cancel(); }

private:
    void onTurnFinished(const TurnResult &result)
    {
        ToolResult answer;
        if (result.isAnswer()) {
            answer = ToolResult::success(result.text);
        } else {
            const QString reason = result.error.isEmpty() ? result.text : result.error;
            answer = ToolResult::failure(
                result.limitReached
                    ? SubAgentTool::tr("%1 reached its limit of %n iteration(s) without an answer: %2",
                                       nullptr, result.iterations)
                          .arg(result.agent, reason)
                    : SubAgentTool::tr("%1 did not answer: %2").arg(result.agent, reason));
        }
        answer.usage = result.usage;
        m_promise.addResult(answer);
        m_promise.finish();
        deleteLater();
    }

    std::unique_ptr<ModelClient> m_client; // declared first: the agent goes before its client
    std::unique_ptr<Agent> m_agent;
    QPromise<ToolResult> m_promise;
};

} // namespace

SubAgentTool::SubAgentTool(QString agentName, Agent *session, int maxDepth)
    : m_agentName(std::move(agentName))
    , m_session(session)
    , m_maxDepth(maxDepth)
{}

QString SubAgentTool::toolName(const QString &agentName)
{
    return u"ask_"_s + agentName;
}

ToolSchema SubAgentTool::schema() const
{
    const QString description
        = u"Ask the '%1' agent to do a task on its own and answer with the result. It sees only the "
          u"task, not this conversation: say in 'task' everything it needs."_s.arg(m_agentName);
    return {toolName(m_agentName), description,
            QJsonObject{{u"type"_s, u"object"_s},
                        {u"properties"_s, QJsonObject{{u"task"_s, QJsonObject{{u"type"_s, u"string"_s}}}}},
                        {u"required"_s, QJsonArray{u"task"_s}}}};
}

ToolBehaviour SubAgentTool::behaviour() const
{
    ToolBehaviour behaviour;
    // No time limit of the caller's: the sub-agent's own iteration and tool limits bound it, and the
    // user's Stop cancels it.
    behaviour.timeoutMs = 0;
    // A model's answer to the same task may differ: a repeat is not refused as a runaway.
    behaviour.resultVaries = true;
    return behaviour;
}

QFuture<ToolResult> SubAgentTool::start(const QJsonObject &arguments,
                                        std::shared_ptr<ToolContext> context) const
{
    const auto fail = [](const QString &message) {
        return QtFuture::makeReadyFuture(ToolResult::failure(message));
    };
    const QString task = arguments.value(u"task"_s).toString();
    if (task.trimmed().isEmpty())
        return fail(tr("Say in \"task\" what %1 should do.").arg(m_agentName));
    const ToolCallSite site = context->callSite();
    if (site.depth >= m_maxDepth)
        return fail(tr("%1 was not asked: sub-agents may be nested at most %n deep, and this call would go "
                       "deeper. Do the task yourself or answer with what you have.",
                       nullptr, m_maxDepth)
                        .arg(m_agentName));
    AgentTeam *team = m_session ? m_session->team() : nullptr;
    const std::optional<AgentTeam::Member> member = team ? team->member(m_agentName) : std::nullopt;
    if (!member || !member->workbench)
        return fail(tr("There is no agent named %1 to ask.").arg(m_agentName));
    std::unique_ptr<ModelClient> client = team->createClient(m_agentName);
    if (!client)
        return fail(tr("%1 cannot be asked: there is no provider to run it with.").arg(m_agentName));

    auto *run = new SubAgentRun(m_session, std::move(client), *member, site);
    QFuture<ToolResult> future = run->future();
    run->begin(task);
    // After begin(): a call cancelled already ends the turn that has just begun.
    context->onCancelled([run = QPointer<SubAgentRun>(run)] {
        if (run)
            run->cancel();
    });
    return future;
}

} // namespace Loopscope
