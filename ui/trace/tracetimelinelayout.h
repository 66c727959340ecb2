#pragma once

#include "agent/trace/tracenode.h"

#include <QList>
#include <QString>

namespace Loopscope {
class Trace;
}

namespace Loopscope::Ui {

// A stretch of time in microseconds; endUs == startUs for an instant.
struct TimelineSpan
{
    qint64 startUs = 0;
    qint64 endUs = 0;
    bool operator==(const TimelineSpan &) const = default;
};

// The lane of each span, in input order: a span goes to the lowest lane whose
// last span ended by the time it starts, so overlapping spans never share one.
QList<int> timelineLanes(const QList<TimelineSpan> &spans);

// One bar (a model or tool call, a wait for someone) or marker (an error, a blocked shield check, an MCP
// server's start-up) of a turn's timeline.
struct TimelineItem
{
    int nodeId = -1;
    TraceKind kind = TraceKind::ModelCall;
    TraceStatus status = TraceStatus::Running;
    QString label;
    QString toolName;
    qint64 startUs = 0;
    qint64 endUs = 0; // for a running step: now
    int lane = 0;
    // How long before the turn the step began (an MCP server the turn waited for): the timeline shows
    // the turn's own span, so startUs is the turn's start and this part is left out.
    qint64 startedBeforeTurnUs = 0;

    bool isRunning() const { return status == TraceStatus::Running; }
    // Time spent waiting for someone (an approval, a breakpoint): a bar, drawn apart from the machine's.
    bool isWait() const { return kind == TraceKind::Wait; }
    bool isMarker() const
    {
        return kind != TraceKind::ModelCall && kind != TraceKind::ToolCall && kind != TraceKind::Wait;
    }
    bool isError() const
    {
        return kind == TraceKind::Error || status == TraceStatus::Error || status == TraceStatus::Blocked
               || status == TraceStatus::Denied;
    }
    bool operator==(const TimelineItem &) const = default;
};

// The turn's model calls, tool calls, waits and markers in start order, with
// their lanes. Running steps end at nowUs; a step that began before the turn
// starts at the turn's start (startedBeforeTurnUs says by how much).
QList<TimelineItem> timelineItems(const Trace &trace, int turnId, qint64 nowUs);

} // namespace Loopscope::Ui
