#pragma once

#include "agent/eval/evalcaseresult.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace Loopscope {

/*!
    A suite's results as JUnit XML, the format CI systems (GitLab, GitHub
    Actions' test reporters, Jenkins) show as test results: one testsuite,
    a testcase per case with its failure, error or skipped element, and the
    answer and tool calls as system-out. Text that XML cannot hold (control
    characters) is replaced, so the report always parses.
*/
class JUnitReport final
{
public:
    static QByteArray toXml(const QString &suiteName, const QList<EvalCaseResult> &results,
                            qint64 durationMs);
};

} // namespace Loopscope
