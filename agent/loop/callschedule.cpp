#include "agent/loop/callschedule.h"

namespace Loopscope {

void CallSchedule::reset(int calls)
{
    m_stages.assign(std::size_t(calls), Stage::Checking);
    m_keys.assign(std::size_t(calls), QString());
    m_startable.clear();
    m_unfinishedByKey.clear();
    m_running = 0;
    m_awaitingDecision = 0;
    m_done = 0;
}

void CallSchedule::setStage(int call, Stage stage)
{
    const Stage before = this->stage(call);
    if (before == stage)
        return;
    count(before, -1);
    count(stage, +1);
    if (before == Stage::Queued)
        m_startable.erase(call);
    m_stages[std::size_t(call)] = stage;
    if (stage == Stage::Queued && isFirstUnfinishedOfItsKey(call))
        m_startable.insert(call);
    if (stage == Stage::Done)
        leaveKey(call);
}

void CallSchedule::setExclusiveKey(int call, const QString &key)
{
    if (m_keys.at(std::size_t(call)) == key || stage(call) == Stage::Done)
        return;
    leaveKey(call);
    m_keys[std::size_t(call)] = key;
    enterKey(call);
}

std::optional<int> CallSchedule::nextStartable() const
{
    if (m_startable.empty())
        return std::nullopt;
    return *m_startable.cbegin();
}

bool CallSchedule::isFirstUnfinishedOfItsKey(int call) const
{
    const QString &key = m_keys.at(std::size_t(call));
    if (key.isEmpty())
        return true;
    const auto unfinished = m_unfinishedByKey.constFind(key);
    return unfinished == m_unfinishedByKey.cend() || *unfinished->cbegin() == call;
}

void CallSchedule::count(Stage stage, int delta)
{
    switch (stage) {
    case Stage::AwaitingDecision: m_awaitingDecision += delta; break;
    case Stage::Running: m_running += delta; break;
    case Stage::Done: m_done += delta; break;
    case Stage::Checking:
    case Stage::Queued: break;
    }
}

// The call no longer holds its key back: the next unfinished call of the key may be startable.
void CallSchedule::leaveKey(int call)
{
    const QString &key = m_keys.at(std::size_t(call));
    if (key.isEmpty())
        return;
    const auto unfinished = m_unfinishedByKey.find(key);
    if (unfinished == m_unfinishedByKey.end())
        return;
    unfinished->erase(call);
    if (unfinished->empty()) {
        m_unfinishedByKey.erase(unfinished);
        return;
    }
    const int next = *unfinished->cbegin();
    if (stage(next) == Stage::Queued)
        m_startable.insert(next);
}

// The call holds its key from now on; a later call of the key that was startable no longer is.
void CallSchedule::enterKey(int call)
{
    const QString &key = m_keys.at(std::size_t(call));
    if (key.isEmpty()) {
        if (stage(call) == Stage::Queued)
            m_startable.insert(call);
        return;
    }
    std::set<int> &unfinished = m_unfinishedByKey[key];
    if (!unfinished.empty() && *unfinished.cbegin() > call)
        m_startable.erase(*unfinished.cbegin());
    unfinished.insert(call);
    if (stage(call) == Stage::Queued) {
        if (*unfinished.cbegin() == call)
            m_startable.insert(call);
        else
            m_startable.erase(call);
    }
}

} // namespace Loopscope
