#include "agent/eval/evalcaseresult.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

EvalCaseResult EvalCaseResult::fromVerdict(const EvalVerdict &verdict)
{
    EvalCaseResult result;
    result.messages = verdict.errors + verdict.failures;
    result.status = !verdict.errors.isEmpty()     ? Status::Error
                    : !verdict.failures.isEmpty() ? Status::Failed
                                                  : Status::Passed;
    return result;
}

EvalSummary EvalSummary::of(const QList<EvalCaseResult> &results)
{
    EvalSummary summary;
    summary.cases = int(results.size());
    for (const EvalCaseResult &result : results) {
        switch (result.status) {
        case EvalCaseResult::Status::Passed: ++summary.passed; break;
        case EvalCaseResult::Status::Failed: ++summary.failed; break;
        case EvalCaseResult::Status::Error: ++summary.errors; break;
        case EvalCaseResult::Status::Skipped: ++summary.skipped; break;
        }
    }
    return summary;
}

QString EvalSummary::line(qint64 durationMs) const
{
    QStringList parts{tr("%1 passed").arg(passed), tr("%1 failed").arg(failed)};
    if (errors > 0)
        parts.append(errors == 1 ? tr("1 error") : tr("%1 errors").arg(errors));
    if (skipped > 0)
        parts.append(tr("%1 not run").arg(skipped));
    return tr("%1: %2 (%3 s)")
        .arg(cases == 1 ? tr("1 case") : tr("%1 cases").arg(cases), parts.join(u", "_s))
        .arg(double(durationMs) / 1000.0, 0, 'f', 1);
}

} // namespace Loopscope
