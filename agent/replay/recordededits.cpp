#include "agent/replay/recordededits.h"

#include "agent/replay/requestcomparison.h"

namespace Loopscope {

RecordedEdits::RecordedEdits(const RecordedTurn &turn)
    : m_modelCalls(turn.modelCalls)
    , m_toolCalls(turn.toolCalls)
{}

void RecordedEdits::interceptModelCall(const ModelCallCheckpoint &checkpoint, ModelCallDecision decision)
{
    // Every checkpoint becomes one model call, so the count says which recorded call this is.
    const int index = m_modelCallsSeen++;
    if (index < m_modelCalls.size()) {
        const RecordedModelCall &recorded = m_modelCalls.at(index);
        if (recorded.originalRequest && *recorded.originalRequest == checkpoint.request) {
            ++m_applied;
            decision.proceed(recorded.request);
            return;
        }
    }
    decision.proceed();
}

void RecordedEdits::interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision)
{
    for (const RecordedToolCall &recorded : std::as_const(m_toolCalls)) {
        if (recorded.call.id != checkpoint.call.id)
            continue;
        if (!recorded.originalArguments.isEmpty() && recorded.call.name == checkpoint.call.name
            && RequestComparison::sameArguments(recorded.originalArguments, checkpoint.call.arguments)) {
            ++m_applied;
            decision.allowWithArguments(recorded.call.arguments);
            return;
        }
        break;
    }
    decision.allow();
}

} // namespace Loopscope
