#pragma once

#include <QCoreApplication>
#include <QStringList>
#include <QTextStream>

namespace Loopscope::Cli {

/*!
    `loopscope replay FILE [--turn N] [--live-tools] [--workspace DIR]`:
    runs the turns of a saved session again from their recorded model
    responses, without a network, and says for each whether it reproduced.
    For scripts and CI: did a change to the loop or a tool change what the
    agent does on a conversation we know?
*/
class ReplayCommand final
{
    Q_DECLARE_TR_FUNCTIONS(ReplayCommand)

public:
    enum ExitCode {
        Reproduced = 0, // every turn that could be replayed reproduced
        Diverged = 1,   // at least one turn did not
        BadInput = 2,   // wrong options, an unreadable or malformed file, nothing to replay
    };

    // Prints on stdout and stderr.
    ReplayCommand();
    // Prints on \a out and \a err instead, e.g. for a test.
    ReplayCommand(QTextStream *out, QTextStream *err);

    // arguments: as for QCommandLineParser, starting with the program name and "replay".
    // Runs QCoreApplication::exec() until the last turn is replayed.
    int exec(const QStringList &arguments);

private:
    QTextStream m_stdout;
    QTextStream m_stderr;
    QTextStream *m_out;
    QTextStream *m_err;
};

} // namespace Loopscope::Cli
