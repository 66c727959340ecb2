#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace Loopscope {

/*!
    How many agents of one turn wait for a person right now: the session's
    agent and the sub-agents it asks share one, so that a card a sub-agent
    shows stops every clock of the turn, its caller's included.
*/
class PersonWaits final : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    void add(int delta)
    {
        const bool before = m_count > 0;
        m_count += delta;
        if ((m_count > 0) != before)
            emit anyoneWaitingChanged(m_count > 0);
    }
    bool anyoneWaiting() const { return m_count > 0; }

signals:
    void anyoneWaitingChanged(bool waiting);

private:
    int m_count = 0;
};

/*!
    The wall-clock time a turn may take (AgentConfig::turnTimeLimitMs). It
    counts the agent's own time only: while the turn waits for a person (an
    approval, a breakpoint, a question a tool asked) the clock stands still,
    so that a limit meant for the model and the tools does not run out while
    the user reads. expired() comes once, on the agent's thread.
*/
class TurnTimeLimit final : public QObject
{
    Q_OBJECT

public:
    explicit TurnTimeLimit(QObject *parent = nullptr);

    // Starts counting \a limitMs afresh; 0 or less: no limit. It stands still while \a waits has
    // anyone waiting (nullptr: never).
    void start(int limitMs, const PersonWaits *waits);
    void stop();
    // The clock stands still while \a held.
    void setHeld(bool held);

    int limitMs() const { return m_limitMs; }
    bool isHeld() const { return m_held; }
    // What is left of the limit now (the whole limit before start()).
    qint64 remainingMs() const;

signals:
    void expired();

private:
    void resume();

    QTimer m_timer;
    QElapsedTimer m_running; // since the clock last started or resumed
    int m_limitMs = 0;
    qint64 m_usedMs = 0; // counted before the last hold
    bool m_held = false;
    bool m_active = false;
};

} // namespace Loopscope
