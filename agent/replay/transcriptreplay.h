#pragma once

#include "agent/replay/recordedtoolresults.h"
#include "agent/replay/recordedturn.h"
#include "agent/replay/replayrun.h"
#include "agent/replay/replayworkbench.h"

#include <QObject>

#include <memory>

namespace Loopscope {

class Workbench;

/*!
    Replays recorded turns one after another and reports on each: what
    `loopscope replay` runs. Each turn gets a workbench filled from its own
    recording (ReplayWorkbench) and no network: a divergence stops that turn
    (ReplayModelClient::OnDivergence::Stop) and the next one starts.
*/
class TranscriptReplay final : public QObject
{
    Q_OBJECT

public:
    explicit TranscriptReplay(const QList<RecordedTurn> &turns, QObject *parent = nullptr);
    ~TranscriptReplay() override;

    void setToolProvider(const ReplayWorkbench::ToolProvider &provider) { m_provider = provider; }
    void setToolSource(RecordedToolResults::Source source) { m_source = source; }

    // Replays every turn; turnReplayed() or turnSkipped() for each, then finished().
    void start();
    bool isRunning() const { return m_running; }

    int reproducedCount() const { return m_reproduced; }
    int notReproducedCount() const { return m_notReproduced; }
    int skippedCount() const { return m_skipped; }

signals:
    // \a turn: the turn's index among the trace's turns, from 0.
    void turnSkipped(int turn, const QString &why);
    void turnReplayed(int turn, const Loopscope::ReplayReport &report);
    // allReproduced: every turn that could be replayed reproduced.
    void finished(bool allReproduced);

private:
    void replayNext();
    void onRunFinished();

    QList<RecordedTurn> m_turns;
    ReplayWorkbench::ToolProvider m_provider;
    RecordedToolResults::Source m_source = RecordedToolResults::Source::Recorded;
    std::unique_ptr<Workbench> m_workbench;
    std::unique_ptr<ReplayRun> m_run; // after the workbench it uses: it goes first
    int m_next = 0;
    bool m_running = false;
    int m_reproduced = 0;
    int m_notReproduced = 0;
    int m_skipped = 0;
};

} // namespace Loopscope
