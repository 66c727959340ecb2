#pragma once

// What the GUI benchmarks measure with: the process's CPU time and memory,
// and a heartbeat that shows how long the event loop went without answering.
// Header-only: each benchmark is one source file.

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QList>
#include <QTimer>

#include <sys/resource.h>

#include <cmath>
#include <functional>
#include <time.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace Loopscope::Bench {

inline qint64 nowNs()
{
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// CPU time of the calling thread: a gap in the heartbeat during which the
// GUI thread ran is a stall of ours; one during which it did not is another
// process's (the machine is shared).
inline qint64 threadCpuNs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

inline double round(double value)
{
    return std::round(value * 100.0) / 100.0;
}

struct Cpu
{
    double userMs = 0;
    double systemMs = 0;
    double totalMs() const { return userMs + systemMs; }
};

inline Cpu cpu()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto ms = [](const timeval &t) {
        return double(t.tv_sec) * 1000.0 + double(t.tv_usec) / 1000.0;
    };
    return {ms(usage.ru_utime), ms(usage.ru_stime)};
}

// A field of /proc/self/status in MB: VmRSS now, VmHWM the peak.
inline double statusMb(const char *field)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith(field))
            return line.mid(qstrlen(field)).trimmed().split(' ').constFirst().toDouble() / 1024.0; // kB
    }
    return -1;
}

inline double rssMb()
{
    return statusMb("VmRSS:");
}

inline double peakRssMb()
{
    return statusMb("VmHWM:");
}

// Hands freed heap back to the system, as a long-lived app may after a big free.
inline void trimHeap()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

// The benchmarks run without a display unless told otherwise.
inline void useOffscreenPlatform()
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

// Runs the event loop for \a ms: deferred deletes, layouts and paints happen.
inline void settle(int ms)
{
    const QDeadlineTimer deadline(ms);
    do {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    } while (!deadline.hasExpired());
}

// A timer that should fire every 2 ms; the gaps between its beats are the
// times the event loop was busy with something else.
class Heartbeat final
{
public:
    static constexpr int IntervalMs = 2;

    // The beat itself costs CPU (a wake-up every 2 ms): a longer interval
    // measures the window's own CPU more closely, and its stalls more coarsely.
    explicit Heartbeat(int intervalMs = IntervalMs)
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(intervalMs);
        QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this] { beat(); });
    }

    void start()
    {
        m_beats.clear();
        m_beats.reserve(1 << 16);
        m_cpu.clear();
        m_cpu.reserve(1 << 16);
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    // Called once, at the next beat.
    void onNextBeat(std::function<void()> callback) { m_next = std::move(callback); }

    struct Stalls
    {
        qint64 longestNs = 0;    // the longest time between two beats
        qint64 longestCpuNs = 0; // the most CPU the GUI thread spent between two beats
        int over = 0;            // gaps longer than the limit
    };
    // The gaps between beats within [from, to].
    Stalls stalls(qint64 from, qint64 to, qint64 limitNs) const
    {
        Stalls stalls;
        for (qsizetype i = 1; i < m_beats.size(); ++i) {
            if (m_beats.at(i - 1) < from || m_beats.at(i) > to)
                continue;
            const qint64 gap = m_beats.at(i) - m_beats.at(i - 1);
            stalls.longestNs = std::max(stalls.longestNs, gap);
            stalls.longestCpuNs = std::max(stalls.longestCpuNs, m_cpu.at(i) - m_cpu.at(i - 1));
            stalls.over += gap > limitNs ? 1 : 0;
        }
        return stalls;
    }

private:
    void beat()
    {
        m_beats.append(nowNs());
        m_cpu.append(threadCpuNs());
        if (m_next)
            std::exchange(m_next, {})();
    }

    QTimer m_timer;
    QList<qint64> m_beats;
    QList<qint64> m_cpu;
    std::function<void()> m_next;
};

} // namespace Loopscope::Bench
