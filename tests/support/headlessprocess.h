#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>

namespace Loopscope {

/*!
    The loopscope executable run as a script or CI would run a headless
    command: no display, no session bus (so no keyring), no saved settings
    of the user's, and the variables a test adds (an API key).
*/
class HeadlessProcess final
{
public:
    struct Result
    {
        int exitCode = -1; // -1 when it crashed or had to be killed
        QByteArray out;
        QByteArray err;
    };

    // \a configName: a folder under the temporary one that stands in for the user's settings.
    static void start(QProcess &process, const QString &program, const QStringList &arguments,
                      const QProcessEnvironment &extra, const QString &configName);
    // Waits (serving this thread's events, e.g. a FakeHttpServer) until it ends; kills it after \a timeoutMs.
    static Result finish(QProcess &process, int timeoutMs = 60000);
};

} // namespace Loopscope
