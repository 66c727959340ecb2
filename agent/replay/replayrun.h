#pragma once

#include "agent/loop/turnresult.h"
#include "agent/replay/recordedtoolresults.h"
#include "agent/replay/recordedturn.h"
#include "agent/replay/replaymodelclient.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <optional>

namespace Loopscope {

class Agent;
class Interceptor;
class ModelClient;
class RecordedEdits;
class RecordedTeam;
class Trace;
class Workbench;

/*!
    How a replay compared with its recording. Reproduced means: no model
    request differed, the turn ended the same way with the same text, and it
    made the same tool calls (names and arguments, in order).
*/
struct ReplayReport
{
    Q_DECLARE_TR_FUNCTIONS(ReplayReport)

public:
    bool reproduced = false;
    std::optional<Divergence> divergence;
    QStringList differences; // why it did not reproduce, first the divergence
    TurnResult result;

    // "reproduced", "diverged at model call 2: …", "not reproduced: …"
    QString summary() const;
    bool operator==(const ReplayReport &) const = default;
};

/*!
    One recorded turn run again: a real Agent, with its own new Trace, on the
    caller's Workbench, asking a ReplayModelClient instead of a provider and
    taking tool results from the recording (RecordedToolResults), with the
    edits the user made back then made again (RecordedEdits).

    Everything the app attaches to an agent works on agent(): the chat and
    trace views, the step debugger, shields. Interceptors added before
    start() are consulted after the recorded edits and before the recorded
    results, so a debugger sees every model and tool call and what the user
    changes there decides what the replay does next.

    When the run diverges, diverged() says where; with the Wait policy (the
    default) the turn then waits for continueLive() or stop(). finished()
    reports whether the turn reproduced; report() has the details.
*/
class ReplayRun final : public QObject
{
    Q_OBJECT

public:
    ReplayRun(const RecordedTurn &turn, Workbench *workbench, QObject *parent = nullptr);
    ~ReplayRun() override;

    const RecordedTurn &recording() const { return m_turn; }
    Agent *agent() const { return m_agent.get(); }
    Trace *trace() const { return m_trace.get(); }
    ReplayModelClient *modelClient() const { return m_client.get(); }
    const RecordedToolResults &toolResults() const { return *m_results; }

    void setOnDivergence(ReplayModelClient::OnDivergence policy);
    // For the GoLive policy; continueLive() may name one too. Not owned.
    void setLiveClient(ModelClient *live);
    // Recorded (the default): tools run only for calls the recording has no result for.
    void setToolSource(RecordedToolResults::Source source);
    // Changes a recorded tool result before the replay reaches it.
    bool setToolResult(const QString &callId, const ToolResult &result);

    // Starts the turn; false when the recording cannot be replayed or this run started already.
    bool start();
    bool isRunning() const;
    // A divergence holds the turn until continueLive() or stop().
    bool isWaitingForDecision() const { return m_client->isWaiting(); }
    // After a divergence: this and every later model call go to \a live.
    bool continueLive(ModelClient *live = nullptr);
    // After a divergence the turn fails saying where it diverged; before one, it is cancelled.
    void stop();

    std::optional<Divergence> divergence() const { return m_client->divergence(); }
    std::optional<ReplayReport> report() const { return m_report; }

signals:
    void diverged(int modelCall, const QString &what);
    void finished(bool reproduced, const Loopscope::TurnResult &result);

private:
    void onWentLive();
    void onTurnFinished(const TurnResult &result);
    ReplayReport compare(const TurnResult &result) const;

    RecordedTurn m_turn;
    std::unique_ptr<Trace> m_trace;
    std::unique_ptr<ReplayModelClient> m_client;
    std::unique_ptr<RecordedEdits> m_edits;
    std::unique_ptr<RecordedToolResults> m_results;
    std::unique_ptr<RecordedTeam> m_team; // the agents the turn was handed to, as recorded
    std::unique_ptr<Agent> m_agent;       // last: it goes first
    bool m_started = false;
    std::optional<Divergence> m_lateDivergence;
    std::optional<ReplayReport> m_report;
};

} // namespace Loopscope
