#include "agent/replay/recordedtoolresults.h"

#include "agent/replay/requestcomparison.h"

namespace Loopscope {

RecordedToolResults::RecordedToolResults(const QList<RecordedToolCall> &calls)
    : m_calls(calls)
    , m_used(calls.size(), false)
{}

bool RecordedToolResults::setResult(const QString &callId, const ToolResult &result)
{
    for (RecordedToolCall &recorded : m_calls) {
        if (recorded.call.id == callId) {
            recorded.result = result;
            return true;
        }
    }
    return false;
}

int RecordedToolResults::find(const ToolCall &call) const
{
    const auto matches = [&call](const RecordedToolCall &recorded) {
        return recorded.call.name == call.name
               && RequestComparison::sameArguments(recorded.call.arguments, call.arguments);
    };
    for (int i = 0; i < m_calls.size(); ++i) {
        if (!m_used.at(i) && m_calls.at(i).call.id == call.id)
            return matches(m_calls.at(i)) ? i : -1;
    }
    for (int i = 0; i < m_calls.size(); ++i) {
        if (!m_used.at(i) && matches(m_calls.at(i)))
            return i;
    }
    return -1;
}

void RecordedToolResults::interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision)
{
    const int index = m_source == Source::Recorded ? find(checkpoint.call) : -1;
    if (index < 0) {
        ++m_live;
        decision.allow();
        return;
    }
    m_used[index] = true;
    ++m_supplied;
    decision.supplyResult(m_calls.at(index).result);
}

} // namespace Loopscope
