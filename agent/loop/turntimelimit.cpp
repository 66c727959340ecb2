#include "agent/loop/turntimelimit.h"

namespace Loopscope {

TurnTimeLimit::TurnTimeLimit(QObject *parent)
    : QObject(parent)
{
    m_timer.setSingleShot(true);
    // A coarse timer may fire up to 5% late: a limit of minutes is not meant to the millisecond, but
    // a limit of a second is, so the precise kind is used.
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        m_active = false;
        emit expired();
    });
}

void TurnTimeLimit::start(int limitMs, const PersonWaits *waits)
{
    stop();
    if (limitMs <= 0)
        return;
    m_limitMs = limitMs;
    m_active = true;
    m_held = waits && waits->anyoneWaiting();
    if (!m_held)
        resume();
}

void TurnTimeLimit::stop()
{
    m_timer.stop();
    m_active = false;
    m_limitMs = 0;
    m_usedMs = 0;
    m_running.invalidate();
}

void TurnTimeLimit::setHeld(bool held)
{
    if (m_held == held)
        return;
    m_held = held;
    if (!m_active)
        return;
    if (held) {
        m_usedMs += m_running.isValid() ? m_running.elapsed() : 0;
        m_running.invalidate();
        m_timer.stop();
    } else {
        resume();
    }
}

qint64 TurnTimeLimit::remainingMs() const
{
    if (!m_active)
        return m_limitMs;
    const qint64 running = m_running.isValid() ? m_running.elapsed() : 0;
    return qMax<qint64>(0, m_limitMs - m_usedMs - running);
}

void TurnTimeLimit::resume()
{
    m_running.start();
    m_timer.start(int(qMax<qint64>(0, m_limitMs - m_usedMs)));
}

} // namespace Loopscope
