#include "agent/eval/evalrunner.h"

#include "agent/session/chatsession.h"
#include "agent/session/filenamestem.h"

#include <QDir>
#include <QSet>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Loopscope {

EvalRunner::EvalRunner(const QList<EvalCase> &cases, SessionFactory sessions, QObject *parent)
    : QObject(parent)
    , m_cases(cases)
    , m_sessions(std::move(sessions))
{
    m_runs.resize(size_t(m_cases.size()));
    m_results.resize(m_cases.size());
}

EvalRunner::~EvalRunner() = default;

void EvalRunner::start()
{
    m_clock.start();
    if (!m_sessionFolder.isEmpty()) {
        // Named after the case; two names that make the same file name get the line number too.
        QSet<QString> used;
        for (const EvalCase &evalCase : std::as_const(m_cases)) {
            QString stem = fileNameStem(evalCase.name);
            if (used.contains(stem.toLower()))
                stem += u"-line%1"_s.arg(evalCase.line);
            used.insert(stem.toLower());
            m_sessionFiles.append(QDir(m_sessionFolder).filePath(stem + u".loopscope.json"_s));
        }
    }
    QTimer::singleShot(0, this, &EvalRunner::startMore);
}

void EvalRunner::startMore()
{
    while (m_cancelReason.isEmpty() && m_running < m_jobs && m_next < m_cases.size()) {
        const int index = m_next++;
        const EvalCase &evalCase = m_cases.at(index);
        auto run = std::make_unique<EvalCaseRun>(evalCase, evalCase.isReplay() ? nullptr : m_sessions(index));
        run->setTimeoutSeconds(m_timeoutSeconds);
        run->setCostFunction(m_cost);
        if (!m_sessionFiles.isEmpty())
            run->setSessionFile(m_sessionFiles.at(index));
        connect(run.get(), &EvalCaseRun::finished, this,
                [this, index](const EvalCaseResult &result) { onCaseFinished(index, result); });
        ++m_running;
        run->start();
        m_runs[size_t(index)] = std::move(run);
    }
    reportInOrder();
}

void EvalRunner::cancel(const QString &reason)
{
    if (!m_cancelReason.isEmpty() || m_finished)
        return;
    m_cancelReason = reason;
    for (const std::unique_ptr<EvalCaseRun> &run : m_runs) {
        if (run && run->isRunning())
            run->cancel(reason);
    }
    // Cases that never started are skipped too.
    for (; m_next < m_cases.size(); ++m_next) {
        EvalCaseResult skipped;
        skipped.name = m_cases.at(m_next).name;
        skipped.line = m_cases.at(m_next).line;
        skipped.status = EvalCaseResult::Status::Skipped;
        skipped.messages = {reason};
        m_results[m_next] = skipped;
    }
    reportInOrder();
}

void EvalRunner::onCaseFinished(int index, const EvalCaseResult &result)
{
    m_results[index] = result;
    --m_running;
    // The run is inside its turn's last signal: it goes once that has returned.
    QTimer::singleShot(0, this, [this, index] {
        m_runs[size_t(index)].reset();
        startMore();
    });
}

void EvalRunner::reportInOrder()
{
    while (m_reported < m_results.size() && m_results.at(m_reported)) {
        const int index = m_reported++;
        emit caseFinished(index, *m_results.at(index));
    }
    if (!m_finished && m_reported == m_results.size() && m_running == 0) {
        m_finished = true;
        emit finished();
    }
}

QList<EvalCaseResult> EvalRunner::results() const
{
    QList<EvalCaseResult> results;
    for (const std::optional<EvalCaseResult> &result : m_results) {
        if (result)
            results.append(*result);
    }
    return results;
}

} // namespace Loopscope
