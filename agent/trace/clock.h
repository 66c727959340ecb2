#pragma once

#include <QDateTime>
#include <QElapsedTimer>

namespace Loopscope {

/*!
    Where the trace gets its timestamps. The default combines the wall clock at
    start with a monotonic timer, so that timestamps are microsecond-precise,
    never go backwards, and still mean a date when a transcript is reopened.
*/
class Clock
{
public:
    virtual ~Clock() = default;
    virtual qint64 nowUs() const = 0;
};

class SystemClock final : public Clock
{
public:
    SystemClock()
        : m_epochUs(QDateTime::currentMSecsSinceEpoch() * 1000)
    {
        m_timer.start();
    }
    qint64 nowUs() const override { return m_epochUs + m_timer.nsecsElapsed() / 1000; }

private:
    qint64 m_epochUs;
    QElapsedTimer m_timer;
};

} // namespace Loopscope
