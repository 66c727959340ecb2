#pragma once

#include "agent/eval/evalobservation.h"
#include "agent/eval/expectationevaluator.h"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

namespace Loopscope {

/*! How one case of a suite went: what the report and the command's output say about it. */
struct EvalCaseResult
{
    Q_DECLARE_TR_FUNCTIONS(EvalCaseResult)

public:
    enum class Status {
        Passed,
        Failed,  // an expectation was not met
        Error,   // the case could not be judged: the model failed, it timed out, a cost without prices
        Skipped, // cancelled before it ended
    };

    QString name;
    int line = 0;
    Status status = Status::Passed;
    QStringList messages; // errors first, then failures; the first is the one a summary shows
    EvalObservation observation;
    qint64 durationMs = 0;
    QString savedSession; // the session file, with --save-sessions

    static EvalCaseResult fromVerdict(const EvalVerdict &verdict);
    QString firstMessage() const { return messages.value(0); }
    bool operator==(const EvalCaseResult &) const = default;
};

/*! The counts of a suite's results and the one-line summary of them. */
struct EvalSummary
{
    Q_DECLARE_TR_FUNCTIONS(EvalSummary)

public:
    int cases = 0;
    int passed = 0;
    int failed = 0;
    int errors = 0;
    int skipped = 0;

    static EvalSummary of(const QList<EvalCaseResult> &results);
    bool allPassed() const { return passed == cases; }
    // "5 cases: 4 passed, 1 failed (2.1 s)"; errors and skipped cases only when there are any.
    QString line(qint64 durationMs) const;
};

} // namespace Loopscope
