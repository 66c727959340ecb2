#include "agent/eval/evalcaserun.h"

#include "agent/eval/expectationevaluator.h"
#include "agent/replay/replayrun.h"
#include "agent/session/chatsession.h"
#include "agent/tools/workbench.h"
#include "agent/transcript/transcript.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

EvalCaseRun::EvalCaseRun(const EvalCase &evalCase, std::unique_ptr<ChatSession> session, QObject *parent)
    : QObject(parent)
    , m_case(evalCase)
    , m_session(std::move(session))
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &EvalCaseRun::onTimeout);
}

EvalCaseRun::~EvalCaseRun() = default;

void EvalCaseRun::start()
{
    if (m_running)
        return;
    m_running = true;
    m_clock.start();
    m_timer.start(std::chrono::seconds(m_case.timeoutSeconds.value_or(m_timeoutSeconds)));
    if (m_case.isReplay()) {
        startReplay();
        return;
    }
    Q_ASSERT(m_session);
    connect(m_session->agent(), &Agent::turnFinished, this,
            [this](const TurnResult &result) { onTurnFinished(*m_session->trace(), result, std::nullopt); });
    // Queued: a turn can end inside send() (a blocked input), before the caller connected to finished().
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (!m_session->send(m_case.prompt, m_case.attachments)) {
                EvalCaseResult result;
                result.status = EvalCaseResult::Status::Error;
                const QString refusal = m_session->imageRefusal(m_case.attachments);
                result.messages = {refusal.isEmpty() ? tr("the turn could not start") : refusal};
                finish(result);
            }
        },
        Qt::QueuedConnection);
}

void EvalCaseRun::startReplay()
{
    const RecordedTurn &turn = *m_case.recording;
    m_workbench = std::make_unique<Workbench>();
    // Live tools are the built-in ones, confined to the case's workspace.
    ReplayWorkbench::fill(*m_workbench, turn, ReplayWorkbench::builtinTools(Workspace(m_case.workspace)));
    m_replay = std::make_unique<ReplayRun>(turn, m_workbench.get());
    // No network and nobody to ask: a divergence ends the turn, saying where.
    m_replay->setOnDivergence(ReplayModelClient::OnDivergence::Stop);
    m_replay->setToolSource(m_case.liveTools ? RecordedToolResults::Source::Live
                                             : RecordedToolResults::Source::Recorded);
    connect(m_replay.get(), &ReplayRun::finished, this, [this](bool, const TurnResult &result) {
        const ReplayReport report = m_replay->report().value_or(ReplayReport{});
        onTurnFinished(*m_replay->trace(), result, report.reproduced ? QString() : report.summary());
    });
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (!m_replay->start()) {
                EvalCaseResult result;
                result.status = EvalCaseResult::Status::Error;
                result.messages = {tr("the replay could not start")};
                finish(result);
            }
        },
        Qt::QueuedConnection);
}

void EvalCaseRun::cancel(const QString &reason)
{
    if (!m_running)
        return;
    m_cancelReason = reason;
    stopTurn();
}

void EvalCaseRun::onTimeout()
{
    m_timedOut = true;
    stopTurn();
}

void EvalCaseRun::stopTurn()
{
    if (m_replay)
        m_replay->stop();
    else if (m_session)
        m_session->stop();
}

void EvalCaseRun::onTurnFinished(const Trace &trace, const TurnResult &result,
                                 const std::optional<QString> &replayDifference)
{
    if (!m_running)
        return;
    EvalObservation observed = EvalObservation::fromTurn(trace, result);
    observed.replayDifference = replayDifference;
    if (m_cost)
        observed.costUsd = m_cost(trace, result.traceNode);

    EvalCaseResult evaluated;
    if (!m_cancelReason.isEmpty()) {
        evaluated.status = EvalCaseResult::Status::Skipped;
        evaluated.messages = {m_cancelReason};
    } else if (m_timedOut) {
        evaluated.status = EvalCaseResult::Status::Error;
        evaluated.messages
            = {tr("timed out after %1 s").arg(m_case.timeoutSeconds.value_or(m_timeoutSeconds))};
    } else {
        evaluated = EvalCaseResult::fromVerdict(ExpectationEvaluator::evaluate(m_case.expect, observed));
    }
    evaluated.observation = observed;
    QString error;
    if (!m_sessionFile.isEmpty()) {
        if (saveSession(trace, &error)) {
            evaluated.savedSession = m_sessionFile;
        } else {
            // A session the user asked for and cannot have is not a pass.
            evaluated.messages.prepend(tr("cannot save the session to \"%1\": %2").arg(m_sessionFile, error));
            if (evaluated.status != EvalCaseResult::Status::Skipped)
                evaluated.status = EvalCaseResult::Status::Error;
        }
    }
    finish(evaluated);
}

bool EvalCaseRun::saveSession(const Trace &trace, QString *error) const
{
    Transcript transcript;
    if (m_session) {
        transcript = m_session->toTranscript();
    } else {
        // A replay's agent holds the conversation up to and with the replayed turn.
        transcript.created = transcript.updated = QDateTime::currentDateTimeUtc();
        transcript.config = m_case.recording->config;
        transcript.messages = m_replay->agent()->history();
        transcript.trace = trace.toJson();
        for (const ToolSchema &tool : m_case.recording->tools())
            transcript.tools.append(tool.name);
    }
    transcript.title = m_case.name;
    return TranscriptFile::save(transcript, m_sessionFile, error);
}

void EvalCaseRun::finish(EvalCaseResult result)
{
    m_running = false;
    m_timer.stop();
    result.name = m_case.name;
    result.line = m_case.line;
    result.durationMs = m_clock.elapsed();
    emit finished(result);
}

} // namespace Loopscope
