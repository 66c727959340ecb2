#pragma once

#include "agent/eval/evalcase.h"
#include "agent/eval/evalcaseresult.h"
#include "agent/eval/evalcaserun.h"

#include <QElapsedTimer>
#include <QObject>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace Loopscope {

class ChatSession;

/*!
    Runs a suite's cases, one after another or up to jobs() at once (every
    case is asynchronous, so parallel cases share one thread), and reports
    each result in the suite's order as soon as it and every case before it
    have ended. Live cases get a fresh ChatSession each from the caller's
    factory, so nothing carries over from one case to the next.
*/
class EvalRunner final : public QObject
{
    Q_OBJECT

public:
    // A fresh session for the live case at \a index, prepared to run it.
    using SessionFactory = std::function<std::unique_ptr<ChatSession>(int index)>;

    EvalRunner(const QList<EvalCase> &cases, SessionFactory sessions, QObject *parent = nullptr);
    ~EvalRunner() override;

    void setJobs(int jobs) { m_jobs = std::max(1, jobs); }
    int jobs() const { return m_jobs; }
    void setTimeoutSeconds(int seconds) { m_timeoutSeconds = seconds; }
    void setCostFunction(const EvalCaseRun::CostFunction &cost) { m_cost = cost; }
    // Each case's session is saved into this folder (which must exist), named after the case.
    void setSessionFolder(const QString &folder) { m_sessionFolder = folder; }

    void start();
    // Stops the running cases and runs no more; they and the rest are skipped with \a reason.
    void cancel(const QString &reason);

    // In the suite's order; complete once finished() was emitted.
    QList<EvalCaseResult> results() const;
    qint64 elapsedMs() const { return m_clock.elapsed(); }

signals:
    void caseFinished(int index, const Loopscope::EvalCaseResult &result);
    void finished();

private:
    void startMore();
    void onCaseFinished(int index, const EvalCaseResult &result);
    void reportInOrder();
    QString sessionFileFor(int index) const;

    QList<EvalCase> m_cases;
    SessionFactory m_sessions;
    EvalCaseRun::CostFunction m_cost;
    QString m_sessionFolder;
    QStringList m_sessionFiles;
    int m_jobs = 1;
    int m_timeoutSeconds = 300;
    std::vector<std::unique_ptr<EvalCaseRun>> m_runs;
    QList<std::optional<EvalCaseResult>> m_results;
    int m_next = 0;     // the next case to start
    int m_reported = 0; // cases reported so far, in order
    int m_running = 0;
    QString m_cancelReason;
    QElapsedTimer m_clock;
    bool m_finished = false;
};

} // namespace Loopscope
