#include "agent/tools/processgroups.h"

#include <QDeadlineTimer>
#include <QThread>

#include <atomic>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <csignal>
#include <sys/types.h>
#endif

namespace Loopscope {

namespace {
std::atomic_bool hurried = false;
static_assert(std::atomic_bool::is_always_lock_free, "hurry() must be async-signal-safe");
} // namespace

void ProcessGroups::hurry() noexcept
{
    hurried.store(true, std::memory_order_relaxed);
}

bool ProcessGroups::isHurried() noexcept
{
    return hurried.load(std::memory_order_relaxed);
}

bool ProcessGroups::exists(qint64 group)
{
#ifdef Q_OS_UNIX
    return group > 0 && (::kill(-pid_t(group), 0) == 0 || errno == EPERM);
#else
    Q_UNUSED(group);
    return false;
#endif
}

bool ProcessGroups::end(qint64 group, int graceMs, const std::function<void()> &waitStep)
{
#ifdef Q_OS_UNIX
    if (!exists(group))
        return false;
    ::kill(-pid_t(group), SIGTERM);
    const QDeadlineTimer grace(graceMs);
    while (!grace.hasExpired() && !isHurried()) {
        if (waitStep)
            waitStep();
        else
            QThread::msleep(20);
        if (!exists(group))
            return false;
    }
    if (!exists(group))
        return false;
    ::kill(-pid_t(group), SIGKILL);
    return true;
#else
    Q_UNUSED(group);
    Q_UNUSED(graceMs);
    Q_UNUSED(waitStep);
    return false;
#endif
}

} // namespace Loopscope
