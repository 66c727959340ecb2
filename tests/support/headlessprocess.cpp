#include "tests/support/headlessprocess.h"

#include <QDir>
#include <QtCore/qtestsupport_core.h>

using namespace Qt::StringLiterals;

namespace Loopscope {

void HeadlessProcess::start(QProcess &process, const QString &program, const QStringList &arguments,
                            const QProcessEnvironment &extra, const QString &configName)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "DBUS_SESSION_BUS_ADDRESS"})
        env.remove(QString::fromLatin1(name));
    // No saved settings of the user's (their MCP servers would start).
    env.insert(u"XDG_CONFIG_HOME"_s, QDir::tempPath() + u'/' + configName);
    env.insert(extra);
    process.setProcessEnvironment(env);
    process.start(program, arguments);
}

HeadlessProcess::Result HeadlessProcess::finish(QProcess &process, int timeoutMs)
{
    Result result;
    if (!QTest::qWaitFor([&process] { return process.state() == QProcess::NotRunning; }, timeoutMs)) {
        process.kill();
        process.waitForFinished();
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

} // namespace Loopscope
