#pragma once

#include <QByteArray>
#include <QtGlobal>

#include <functional>

namespace Loopscope {

/*!
    How Loopscope ends the process groups it starts (a run_command command,
    an MCP stdio server): SIGTERM to the whole group, a grace, then SIGKILL
    to whatever is left, so that nothing a command started in the background
    outlives it. A second Ctrl+C hurries every ending still under way and
    every later one: the grace is skipped, the group is killed at once.
    Without process groups (Windows) the groups are never found to exist.
*/
class ProcessGroups final
{
public:
    ProcessGroups() = delete;

    // From now on, endings skip their grace. Async-signal-safe: a signal handler may call it.
    static void hurry() noexcept;
    static bool isHurried() noexcept;

    // Whether any process of \a group still exists (zombies count until they are reaped).
    static bool exists(qint64 group);

    // SIGTERM to \a group, then \a waitStep (which waits a little, e.g. reaping the leader)
    // until the group is gone or \a graceMs passed (at once when hurried), then SIGKILL.
    // Returns whether the group had to be killed.
    static bool end(qint64 group, int graceMs, const std::function<void()> &waitStep);

    // Kills every process of this user whose environment holds \a entry ("NAME=value", given to
    // a command Loopscope started and inherited by all it starts, also by what left its group with
    // setsid()), and reaps those that are children of this process. Linux only (/proc).
    static void endMarked(const QByteArray &entry);
    // Makes this process a child subreaper (Linux): orphaned descendants are reparented to it, not
    // to init, so they stay its to find and end. Call once at start-up.
    static bool becomeSubreaper();
};

} // namespace Loopscope
