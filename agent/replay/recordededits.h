#pragma once

#include "agent/loop/interceptor.h"
#include "agent/replay/recordedturn.h"

namespace Loopscope {

/*!
    Makes the edits the user made while the turn was recorded again: a model
    request the debugger changed, tool arguments it changed. Without them a
    debugged turn could never reproduce: its recorded responses answer the
    edited requests. It must be the first interceptor, so that a debugger
    after it shows the call as the recorded run went on with it. An edit
    applies only where the loop built exactly what it built then.
*/
class RecordedEdits final : public Interceptor
{
public:
    explicit RecordedEdits(const RecordedTurn &turn);

    int appliedCount() const { return m_applied; }

    void interceptModelCall(const ModelCallCheckpoint &checkpoint, ModelCallDecision decision) override;
    void interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision) override;

private:
    QList<RecordedModelCall> m_modelCalls;
    QList<RecordedToolCall> m_toolCalls;
    int m_modelCallsSeen = 0;
    int m_applied = 0;
};

} // namespace Loopscope
