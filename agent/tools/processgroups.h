#pragma once

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
};

} // namespace Loopscope
