#include "agent/replay/transcriptreplay.h"

#include "agent/tools/workbench.h"

#include <QTimer>

namespace Loopscope {

TranscriptReplay::TranscriptReplay(const QList<RecordedTurn> &turns, QObject *parent)
    : QObject(parent)
    , m_turns(turns)
{}

TranscriptReplay::~TranscriptReplay() = default;

void TranscriptReplay::start()
{
    if (m_running)
        return;
    m_running = true;
    m_next = 0;
    m_reproduced = m_notReproduced = m_skipped = 0;
    QTimer::singleShot(0, this, &TranscriptReplay::replayNext);
}

void TranscriptReplay::replayNext()
{
    // The previous run's agent has returned from its last signal by now.
    m_run.reset();
    m_workbench.reset();
    while (m_next < m_turns.size() && !m_turns.at(m_next).isReplayable()) {
        const RecordedTurn &turn = m_turns.at(m_next++);
        ++m_skipped;
        emit turnSkipped(turn.turnIndex, turn.notReplayable);
    }
    if (m_next >= m_turns.size()) {
        m_running = false;
        emit finished(m_notReproduced == 0);
        return;
    }
    const RecordedTurn &turn = m_turns.at(m_next++);
    m_workbench = std::make_unique<Workbench>();
    ReplayWorkbench::fill(*m_workbench, turn, m_provider);
    m_run = std::make_unique<ReplayRun>(turn, m_workbench.get());
    m_run->setOnDivergence(ReplayModelClient::OnDivergence::Stop);
    m_run->setToolSource(m_source);
    connect(m_run.get(), &ReplayRun::finished, this, &TranscriptReplay::onRunFinished);
    if (!m_run->start()) {
        ++m_skipped;
        emit turnSkipped(turn.turnIndex, tr("The replay could not start."));
        QTimer::singleShot(0, this, &TranscriptReplay::replayNext);
    }
}

void TranscriptReplay::onRunFinished()
{
    const ReplayReport report = *m_run->report();
    ++(report.reproduced ? m_reproduced : m_notReproduced);
    emit turnReplayed(m_run->recording().turnIndex, report);
    QTimer::singleShot(0, this, &TranscriptReplay::replayNext);
}

} // namespace Loopscope
