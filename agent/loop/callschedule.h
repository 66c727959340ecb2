#pragma once

#include <QHash>
#include <QString>

#include <optional>
#include <set>
#include <vector>

namespace Loopscope {

/*!
    Which of one response's tool calls may start next. Calls go through their stages in the
    model's order of preference: the earliest queued call starts first, and calls that share a
    non-empty exclusive key (the same file, say) run one after another, each waiting while an
    earlier one of its key is unfinished in whatever stage (even awaiting a decision).

    Every change and query costs at most O(log n), so a response that asks for tens of thousands
    of calls is scheduled in time linear in their number, not quadratic.
*/
class CallSchedule final
{
public:
    enum class Stage { Checking, AwaitingDecision, Queued, Running, Done };

    // Starts over with this many calls, all Checking and without a key.
    void reset(int calls);

    [[nodiscard]] Stage stage(int call) const { return m_stages.at(std::size_t(call)); }
    void setStage(int call, Stage stage);
    // A call's key may change while it is unfinished (edited arguments name another file).
    void setExclusiveKey(int call, const QString &key);

    // The earliest queued call no earlier call of its key holds back, if there is one.
    [[nodiscard]] std::optional<int> nextStartable() const;
    [[nodiscard]] int running() const { return m_running; }
    [[nodiscard]] int awaitingDecision() const { return m_awaitingDecision; }
    [[nodiscard]] bool allDone() const { return m_done == int(m_stages.size()); }

private:
    [[nodiscard]] bool isFirstUnfinishedOfItsKey(int call) const;
    void count(Stage stage, int delta);
    void leaveKey(int call);
    void enterKey(int call);

    std::vector<Stage> m_stages;
    std::vector<QString> m_keys;
    std::set<int> m_startable; // queued, and first unfinished of its key (or without a key)
    QHash<QString, std::set<int>> m_unfinishedByKey;
    int m_running = 0;
    int m_awaitingDecision = 0;
    int m_done = 0;
};

} // namespace Loopscope
