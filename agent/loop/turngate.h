#pragma once

#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

namespace Loopscope {

// One iteration of one turn: what a deferred callback belongs to.
struct TurnToken
{
    quint64 turn = 0;
    int iteration = 0;
    bool operator==(const TurnToken &) const = default;
};

/*!
    Decisions, tool progress, timeouts and finished tools arrive late, some on
    other threads, some after the user cancelled or the loop moved on. They all
    pass through here, so that "does this still belong to the running
    iteration?" is asked in one place only.
*/
class TurnGate final : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    void open(TurnToken token) { m_current = token; }
    void close() { m_current.reset(); }
    std::optional<TurnToken> current() const { return m_current; }
    bool isCurrent(TurnToken token) const { return m_current == token; }

    // May be called on any thread: runs step on the gate's thread, later, if the token is still current then.
    static void post(const QPointer<TurnGate> &gate, TurnToken token, std::function<void()> step);
    // For a signal on the gate's thread: a slot that runs step only while the token is current.
    std::function<void()> guard(TurnToken token, std::function<void()> step) const;

private:
    std::optional<TurnToken> m_current;
};

} // namespace Loopscope
