#pragma once

#include <QString>
#include <QStringList>

namespace Loopscope {

/*!
    The API keys given in environment variables, taken out of the process's
    environment as soon as they are read: every command run_command runs can
    read the app's own environment through /proc/<pid>/environ, around any
    mask on what it prints. take() keeps the value here, removes the variable
    (so no child process inherits it) and overwrites its bytes in the
    environment block the kernel shows as /proc/<pid>/environ. Later reads
    get the kept value; a variable set again is taken again. main() takes,
    before any thread runs, the well-known names, --api-key-env's and every
    saved profile's; `loopscope eval` takes its cases' once it has read them.
    ApiKeyResolver and the run_command mask read through value().
*/
class KeyEnvironment final
{
public:
    KeyEnvironment() = delete;

    // The variable's value (trimmed), taken out of the environment if it is still there.
    static QString take(const QString &name);
    static void takeAll(const QStringList &names);
    // The variable's value (trimmed): from the environment while it is there, else as taken.
    static QString value(const QString &name);
    // The conventional key variables of the providers and of their common neighbours.
    static QStringList wellKnownNames();
};

} // namespace Loopscope
