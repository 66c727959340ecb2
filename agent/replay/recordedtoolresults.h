#pragma once

#include "agent/loop/interceptor.h"
#include "agent/replay/recordedturn.h"

#include <QList>

namespace Loopscope {

/*!
    The tool side of a replay: an Interceptor that answers each tool call
    with the result the recording gave it instead of running the tool. A call
    finds its recording by id, else by name and arguments (the first one not
    used yet); it must have the recorded name and arguments, so a call whose
    arguments were edited on the way (the debugger) does not get a result
    that was never its own.

    A call with no recording (edited, or made after the replay went live)
    runs the real tool, and so does every call with Source::Live. It must be
    the last interceptor: what it answers, no later one sees.
*/
class RecordedToolResults final : public Interceptor
{
public:
    enum class Source { Recorded, Live };

    explicit RecordedToolResults(const QList<RecordedToolCall> &calls);

    void setSource(Source source) { m_source = source; }
    Source source() const { return m_source; }

    // Gives the call \a callId another recorded result: "what if the tool had said this?"
    bool setResult(const QString &callId, const ToolResult &result);

    int suppliedCount() const { return m_supplied; }
    int liveCount() const { return m_live; }

    void interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision) override;

private:
    int find(const ToolCall &call) const;

    QList<RecordedToolCall> m_calls;
    QList<bool> m_used;
    Source m_source = Source::Recorded;
    int m_supplied = 0;
    int m_live = 0;
};

} // namespace Loopscope
