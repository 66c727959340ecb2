#include "agent/replay/replayrun.h"

#include "agent/loop/agent.h"
#include "agent/loop/turncontextsource.h"
#include "agent/replay/recordededits.h"
#include "agent/replay/recordedteam.h"
#include "agent/replay/requestcomparison.h"
#include "agent/trace/trace.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

QString ReplayReport::summary() const
{
    if (reproduced)
        return tr("reproduced");
    if (differences.isEmpty())
        return tr("not reproduced");
    if (divergence)
        return differences.constFirst();
    return tr("not reproduced: %1").arg(differences.constFirst());
}

namespace {

// The recorded search for the question, answered at once: the replayed turn gets its Retrieval node
// again, with the recorded hits. No note: the passages are in the recovered system prompt already.
class RecordedRetrieval final : public TurnContextSource
{
public:
    explicit RecordedRetrieval(RetrievalData retrieval)
        : m_retrieval(std::move(retrieval))
    {}

    QFuture<TurnContext> contextFor(const QString &) const override
    {
        return QtFuture::makeReadyFuture(TurnContext{{}, m_retrieval});
    }

private:
    RetrievalData m_retrieval;
};

} // namespace

ReplayRun::ReplayRun(const RecordedTurn &turn, Workbench *workbench, QObject *parent)
    : QObject(parent)
    , m_turn(turn)
    , m_trace(std::make_unique<Trace>())
    , m_client(std::make_unique<ReplayModelClient>(turn))
    , m_edits(std::make_unique<RecordedEdits>(turn))
    , m_results(std::make_unique<RecordedToolResults>(turn.toolCalls))
    , m_team(turn.handedTo.isEmpty() ? nullptr : std::make_unique<RecordedTeam>(turn))
    , m_agent(std::make_unique<Agent>(m_client.get(), workbench, m_trace.get()))
{
    m_agent->setTeam(m_team.get());
    m_agent->addInterceptor(m_edits.get());
    m_agent->addInterceptor(m_results.get());
    connect(m_client.get(), &ReplayModelClient::diverged, this, &ReplayRun::diverged);
    // The recorded user cancelled here, or the recorded turn ran out of time: so does the replay,
    // once the client's call has returned.
    connect(
        m_client.get(), &ReplayModelClient::recordingEnded, m_agent.get(),
        [this] {
            if (m_turn.outcome == turnOutcomeName(TurnOutcome::TimeLimit))
                m_agent->expireTimeLimit();
            else
                m_agent->cancel();
        },
        Qt::QueuedConnection);
    connect(m_client.get(), &ReplayModelClient::wentLive, this, &ReplayRun::onWentLive);
    connect(m_agent.get(), &Agent::turnFinished, this, &ReplayRun::onTurnFinished);
}

ReplayRun::~ReplayRun() = default;

void ReplayRun::setOnDivergence(ReplayModelClient::OnDivergence policy)
{
    m_client->setOnDivergence(policy);
}

void ReplayRun::setLiveClient(ModelClient *live)
{
    m_client->setLiveClient(live);
}

void ReplayRun::setToolSource(RecordedToolResults::Source source)
{
    m_results->setSource(source);
}

bool ReplayRun::setToolResult(const QString &callId, const ToolResult &result)
{
    return m_results->setResult(callId, result);
}

bool ReplayRun::start()
{
    if (m_started || !m_turn.isReplayable())
        return false;
    m_started = true;
    m_agent->setConfig(m_turn.config);
    m_agent->setHistory(m_turn.history);
    if (m_turn.retrieval)
        m_agent->setContextSource(std::make_shared<RecordedRetrieval>(*m_turn.retrieval));
    // Whatever the caller added since construction comes before the recorded results.
    m_agent->removeInterceptor(m_results.get());
    m_agent->addInterceptor(m_results.get());
    return m_agent->send(m_turn.userText, m_turn.attachments);
}

bool ReplayRun::isRunning() const
{
    return m_agent->isRunning();
}

bool ReplayRun::continueLive(ModelClient *live)
{
    return m_client->goLive(live);
}

void ReplayRun::stop()
{
    if (m_client->isWaiting())
        m_client->stop();
    else if (m_agent->isRunning())
        m_agent->cancel();
}

void ReplayRun::onWentLive()
{
    // The trace named the provider when the call went out; the live one answers it.
    for (int id = m_trace->size() - 1; id >= 0; --id) {
        const TraceNode &node = m_trace->node(id);
        if (node.kind == TraceKind::ModelCall && node.status == TraceStatus::Running) {
            const QString provider = m_client->providerName();
            m_trace->update(id,
                            [&provider](TraceNode &call) { call.data<ModelCallData>().provider = provider; });
            return;
        }
    }
}

void ReplayRun::onTurnFinished(const TurnResult &result)
{
    // A turn that ends before the recording did never asks for the call that would have shown it.
    const int asked = int(m_client->requests().size());
    if (!m_client->divergence() && asked < m_turn.modelCalls.size()) {
        m_lateDivergence = Divergence{asked + 1, tr("the replayed turn ended before model call %1; the "
                                                    "recording has %2 model calls")
                                                     .arg(asked + 1)
                                                     .arg(m_turn.modelCalls.size())};
        emit diverged(m_lateDivergence->modelCall, m_lateDivergence->what);
    }
    m_report = compare(result);
    emit finished(m_report->reproduced, result);
}

ReplayReport ReplayRun::compare(const TurnResult &result) const
{
    ReplayReport report;
    report.result = result;
    report.divergence = m_client->divergence() ? m_client->divergence() : m_lateDivergence;
    if (report.divergence) {
        report.differences.append(tr("diverged at model call %1: %2")
                                      .arg(report.divergence->modelCall)
                                      .arg(report.divergence->what));
    }
    const QString outcome = turnOutcomeName(result.outcome);
    // Recordings made before forced_final existed called a forced answer
    // "answered" or "reflected": the requests and the answer still tell.
    const bool olderNameOfForcedFinal = result.outcome == TurnOutcome::ForcedFinal
                                        && (m_turn.outcome == turnOutcomeName(TurnOutcome::Answered)
                                            || m_turn.outcome == turnOutcomeName(TurnOutcome::Reflected));
    if (outcome != m_turn.outcome && !olderNameOfForcedFinal)
        report.differences.append(
            tr("the turn ended differently: recorded %1, now %2").arg(m_turn.outcome, outcome));
    if (result.text != m_turn.answer)
        report.differences.append(
            tr("the answer differs: %1").arg(RequestComparison::recordedNow(m_turn.answer, result.text)));

    const QList<ToolCall> replayed = executedToolCalls(*m_trace, result.traceNode);
    for (qsizetype i = 0; i < std::min(replayed.size(), m_turn.toolCalls.size()); ++i) {
        const ToolCall &then = m_turn.toolCalls.at(i).call;
        const ToolCall &now = replayed.at(i);
        if (then.name != now.name || !RequestComparison::sameArguments(then.arguments, now.arguments)) {
            report.differences.append(tr("tool call %1 differs: recorded %2 %3, now %4 %5")
                                          .arg(i + 1)
                                          .arg(then.name, then.arguments, now.name, now.arguments));
            break;
        }
    }
    if (replayed.size() != m_turn.toolCalls.size())
        report.differences.append(tr("the turn made %1 tool calls; the recording has %2")
                                      .arg(replayed.size())
                                      .arg(m_turn.toolCalls.size()));
    report.reproduced = report.differences.isEmpty();
    return report;
}

} // namespace Loopscope
