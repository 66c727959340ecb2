#pragma once

#include <QCoreApplication>
#include <QStringList>

namespace Loopscope::Cli {

/*! What `loopscope run` tells its caller; documented in --help. */
enum ExitCode {
    Success = 0,      // the agent answered (or handed off)
    ModelFailed = 1,  // the provider could not be reached or answered with an error
    BadUsage = 2,     // wrong options, missing key, unreadable files
    LimitReached = 3, // iteration limit without an answer, error limit, token budget
    Blocked = 4,      // a safety shield blocked the input or the answer
    Cancelled = 130,  // SIGINT / SIGTERM: the turn was cancelled cleanly
};

/*!
    `loopscope run [options] "prompt"`: one turn of the agent without a
    window, for terminals and scripts. Prints the answer on stdout, the live
    event stream as JSON Lines and the trace as JSON on request.
*/
class RunCommand final
{
    Q_DECLARE_TR_FUNCTIONS(RunCommand)

public:
    // arguments: as for QCommandLineParser, starting with the program name and "run".
    int exec(const QStringList &arguments);
};

} // namespace Loopscope::Cli
