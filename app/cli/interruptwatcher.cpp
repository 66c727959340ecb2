#include "app/cli/interruptwatcher.h"

#include "agent/tools/processgroups.h"

#include <QSocketNotifier>

#include <atomic>

#ifdef Q_OS_UNIX
#include <csignal>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
#elif defined(Q_OS_WIN)
#include <QMetaObject>
#include <qt_windows.h>
#endif

namespace Loopscope::Cli {

#ifdef Q_OS_UNIX
namespace {
int signalPipe[2] = {-1, -1};
std::atomic_int signalCount = 0;
constexpr int watchedSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void onSignal(int)
{
    // Here, not on the event loop: the loop may already have ended while a turn's tools are
    // still being ended, and a second interrupt must hurry that too.
    if (signalCount.fetch_add(1, std::memory_order_relaxed) > 0)
        ProcessGroups::hurry();
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(signalPipe[0], &byte, 1);
}

extern "C" void onSignalAfterWatching(int signal)
{
    ProcessGroups::hurry();
    // Should the ending hang for another reason, the next one has its default action.
    struct sigaction action = {};
    action.sa_handler = SIG_DFL;
    ::sigaction(signal, &action, nullptr);
}
} // namespace
#elif defined(Q_OS_WIN)
namespace {
// Windows has no SIGINT for console programs: Ctrl+C and Ctrl+Break reach a
// console control handler, which runs on a thread of its own.
std::atomic<InterruptWatcher *> currentWatcher = nullptr;
std::atomic<int> interruptCount = 0;

BOOL WINAPI onConsoleControl(DWORD type)
{
    if (type != CTRL_C_EVENT && type != CTRL_BREAK_EVENT && type != CTRL_CLOSE_EVENT)
        return FALSE;
    InterruptWatcher *watcher = currentWatcher.load();
    if (!watcher)
        return FALSE;
    const int count = ++interruptCount;
    if (count > 1)
        ProcessGroups::hurry();
    // Queued to the watcher's thread; dropped if the watcher is gone by then.
    QMetaObject::invokeMethod(
        watcher, [watcher, count] { emit watcher->interrupted(count); }, Qt::QueuedConnection);
    return TRUE;
}
} // namespace
#endif

InterruptWatcher::InterruptWatcher(QObject *parent)
    : QObject(parent)
{
#ifdef Q_OS_UNIX
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, signalPipe) != 0)
        return;
    ::fcntl(signalPipe[0], F_SETFL, O_NONBLOCK);
    ::fcntl(signalPipe[1], F_SETFL, O_NONBLOCK);
    m_notifier = new QSocketNotifier(signalPipe[1], QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, [this] {
        char byte;
        while (::read(signalPipe[1], &byte, 1) > 0) {}
        emit interrupted(++m_count);
    });
    struct sigaction action = {};
    action.sa_handler = onSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int watched : watchedSignals)
        ::sigaction(watched, &action, nullptr);
#elif defined(Q_OS_WIN)
    interruptCount = 0;
    currentWatcher = this;
    ::SetConsoleCtrlHandler(onConsoleControl, TRUE);
#endif
}

InterruptWatcher::~InterruptWatcher()
{
#ifdef Q_OS_UNIX
    // The command's work is done, but a command it ran may still be ending on a pool thread, which
    // waits out the grace before SIGKILL while the program exits. A Ctrl+C now hurries that: the
    // default action would kill Loopscope in the middle and leave the command running. A second
    // one has the default action.
    struct sigaction action = {};
    action.sa_handler = onSignalAfterWatching;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int watched : watchedSignals)
        ::sigaction(watched, &action, nullptr);
#elif defined(Q_OS_WIN)
    ::SetConsoleCtrlHandler(onConsoleControl, FALSE);
    currentWatcher = nullptr;
#endif
}

} // namespace Loopscope::Cli
