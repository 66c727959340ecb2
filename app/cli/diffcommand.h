#pragma once

#include <QCoreApplication>
#include <QStringList>
#include <QTextStream>

namespace Loopscope {
class RunComparison;
}

namespace Loopscope::Cli {

/*!
    `loopscope diff A.loopscope.json B.loopscope.json [--turn N] [--turn-b M]`:
    a turn of one saved session beside a turn of another (or the same) one,
    aligned step by step, with the first difference in one line. For a
    script: did the agent do the same on both runs?
*/
class DiffCommand final
{
    Q_DECLARE_TR_FUNCTIONS(DiffCommand)

public:
    enum ExitCode {
        Equal = 0,     // the same steps, results and answer (tokens and time may differ)
        Different = 1, // the runs differ somewhere
        BadInput = 2,  // wrong options, an unreadable or malformed file, no such turn
    };

    // Prints on stdout and stderr.
    DiffCommand();
    // Prints on \a out and \a err instead, e.g. for a test.
    DiffCommand(QTextStream *out, QTextStream *err);

    // arguments: as for QCommandLineParser, starting with the program name and "diff".
    int exec(const QStringList &arguments);

    // The step list as printed under the summary: one line per row, with the legend's marks.
    static QStringList stepLines(const RunComparison &comparison);

private:
    QTextStream m_stdout;
    QTextStream m_stderr;
    QTextStream *m_out;
    QTextStream *m_err;
};

} // namespace Loopscope::Cli
