#pragma once

#include <QCoreApplication>
#include <QStringList>
#include <QTextStream>

namespace Loopscope::Cli {

/*!
    `loopscope eval SUITE.jsonl [--junit REPORT.xml] [provider options]`:
    loop regression tests for CI. Runs each case of a suite (a prompt for a
    live model, or a recorded turn to replay without a network), checks what
    the agent did against the case's expectations, prints a line per case
    and a summary, and writes a JUnit XML report on request.
*/
class EvalCommand final
{
    Q_DECLARE_TR_FUNCTIONS(EvalCommand)

public:
    enum ExitCode {
        AllPassed = 0,
        SomeFailed = 1, // at least one case failed or could not be judged
        BadInput = 2,   // wrong options, a malformed suite, a missing key, an unwritable report
        Cancelled = 130,
    };

    // Prints on stdout and stderr.
    EvalCommand();
    // Prints on \a out and \a err instead, e.g. for a test.
    EvalCommand(QTextStream *out, QTextStream *err);

    // arguments: as for QCommandLineParser, starting with the program name and "eval".
    // Runs QCoreApplication::exec() until the last case has ended.
    int exec(const QStringList &arguments);

private:
    void printError(const QString &message);

    QTextStream m_stdout;
    QTextStream m_stderr;
    QTextStream *m_out;
    QTextStream *m_err;
};

} // namespace Loopscope::Cli
