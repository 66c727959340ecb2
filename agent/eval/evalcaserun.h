#pragma once

#include "agent/eval/evalcase.h"
#include "agent/eval/evalcaseresult.h"
#include "agent/replay/replayworkbench.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>

namespace Loopscope {

class ChatSession;
class ReplayRun;
class Trace;
class Workbench;
struct TurnResult;

/*!
    One case of a suite, run once: a live case sends its prompt through the
    ChatSession it is given (prepared by the caller: provider, tools,
    approvals), a replay case runs its recorded turn again from the recorded
    model responses with no network. Either way the turn is judged by its
    expectations and finished() reports the result. A case that outlives its
    timeout is stopped and is an error; cancel() stops it and skips it.
*/
class EvalCaseRun final : public QObject
{
    Q_OBJECT

public:
    // What a turn cost in US dollars, from its trace; nullopt when unknown (then max_cost_usd is an error).
    using CostFunction = std::function<std::optional<double>(const Trace &trace, int turnNode)>;

    // \a session: for a live case, prepared and owned from now on; nullptr for a replay.
    EvalCaseRun(const EvalCase &evalCase, std::unique_ptr<ChatSession> session, QObject *parent = nullptr);
    ~EvalCaseRun() override;

    void setTimeoutSeconds(int seconds) { m_timeoutSeconds = seconds; }
    void setCostFunction(const CostFunction &cost) { m_cost = cost; }
    // Saves the case's session there (a *.loopscope.json file) when it ends.
    void setSessionFile(const QString &path) { m_sessionFile = path; }

    void start();
    // Stops the turn; the case is then skipped with \a reason.
    void cancel(const QString &reason);
    bool isRunning() const { return m_running; }

signals:
    void finished(const Loopscope::EvalCaseResult &result);

private:
    void startReplay();
    void onTimeout();
    void onTurnFinished(const Trace &trace, const TurnResult &result,
                        const std::optional<QString> &replayDifference);
    void stopTurn();
    void finish(EvalCaseResult result);
    bool saveSession(const Trace &trace, QString *error) const;

    EvalCase m_case;
    std::unique_ptr<ChatSession> m_session;
    std::unique_ptr<Workbench> m_workbench;
    std::unique_ptr<ReplayRun> m_replay; // after the workbench it uses: it goes first
    CostFunction m_cost;
    QString m_sessionFile;
    int m_timeoutSeconds = 300;
    QTimer m_timer;
    QElapsedTimer m_clock;
    bool m_running = false;
    bool m_timedOut = false;
    QString m_cancelReason;
};

} // namespace Loopscope
