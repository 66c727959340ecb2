#include "app/cli/interruptwatcher.h"

#include <QSocketNotifier>

#ifdef Q_OS_UNIX
#include <csignal>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
#elif defined(Q_OS_WIN)
#include <QMetaObject>
#include <atomic>
#include <qt_windows.h>
#endif

namespace Loopscope::Cli {

#ifdef Q_OS_UNIX
namespace {
int signalPipe[2] = {-1, -1};

extern "C" void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(signalPipe[0], &byte, 1);
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
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
#elif defined(Q_OS_WIN)
    interruptCount = 0;
    currentWatcher = this;
    ::SetConsoleCtrlHandler(onConsoleControl, TRUE);
#endif
}

InterruptWatcher::~InterruptWatcher()
{
#ifdef Q_OS_UNIX
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
#elif defined(Q_OS_WIN)
    ::SetConsoleCtrlHandler(onConsoleControl, FALSE);
    currentWatcher = nullptr;
#endif
}

} // namespace Loopscope::Cli
