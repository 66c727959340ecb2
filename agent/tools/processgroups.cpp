#include "agent/tools/processgroups.h"

#include <QDeadlineTimer>
#include <QThread>

#include <atomic>

#ifdef Q_OS_UNIX
#include <cerrno>
#include <csignal>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#endif
#ifdef Q_OS_LINUX
#include <QDir>
#include <QFile>
#include <sys/prctl.h>
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

bool ProcessGroups::becomeSubreaper()
{
#ifdef Q_OS_LINUX
    return ::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
#else
    return false;
#endif
}

void ProcessGroups::endMarked(const QByteArray &entry)
{
#ifdef Q_OS_LINUX
    QList<pid_t> killed;
    const QStringList names = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &name : names) {
        bool isPid = false;
        const pid_t pid = pid_t(name.toInt(&isPid));
        if (!isPid || pid == ::getpid())
            continue;
        QFile environment(QStringLiteral("/proc/%1/environ").arg(pid));
        if (!environment.open(QIODevice::ReadOnly))
            continue; // another user's, or gone
        if (!environment.readAll().split('\0').contains(entry))
            continue;
        ::kill(pid, SIGKILL);
        killed.append(pid);
    }
    // Those reparented to this process are reaped by pid (never a wait for any child: QProcess
    // reaps its own); a killed process whose parent was killed too becomes ours a moment later.
    const QDeadlineTimer deadline(1000);
    while (!killed.isEmpty() && !deadline.hasExpired()) {
        for (qsizetype i = killed.size() - 1; i >= 0; --i) {
            const pid_t pid = killed.at(i);
            const pid_t reaped = ::waitpid(pid, nullptr, WNOHANG);
            if (reaped == pid || (reaped < 0 && !QFile::exists(QStringLiteral("/proc/%1").arg(pid))))
                killed.removeAt(i);
        }
        if (!killed.isEmpty())
            QThread::msleep(10);
    }
#else
    Q_UNUSED(entry);
#endif
}

} // namespace Loopscope
