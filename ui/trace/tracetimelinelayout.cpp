#include "ui/trace/tracetimelinelayout.h"

#include "agent/trace/trace.h"

#include <algorithm>
#include <numeric>

namespace Loopscope::Ui {

QList<int> timelineLanes(const QList<TimelineSpan> &spans)
{
    QList<qsizetype> order(spans.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&spans](qsizetype a, qsizetype b) {
        return spans.at(a).startUs < spans.at(b).startUs;
    });

    QList<int> lanes(spans.size(), 0);
    QList<qint64> laneEnds; // when each lane's last span ends
    for (qsizetype index : std::as_const(order)) {
        const TimelineSpan &span = spans.at(index);
        const qint64 end = std::max(span.startUs, span.endUs);
        const auto free = std::find_if(laneEnds.begin(), laneEnds.end(),
                                       [&span](qint64 laneEnd) { return laneEnd <= span.startUs; });
        if (free == laneEnds.end()) {
            lanes[index] = int(laneEnds.size());
            laneEnds.append(end);
        } else {
            lanes[index] = int(free - laneEnds.begin());
            *free = end;
        }
    }
    return lanes;
}

namespace {

bool shownOnTimeline(const TraceNode &node)
{
    switch (node.kind) {
    case TraceKind::ModelCall:
    case TraceKind::ToolCall:
    case TraceKind::McpServer:
    case TraceKind::McpAuth:
    case TraceKind::Wait:
    case TraceKind::Error: return true;
    case TraceKind::ShieldCheck: return node.status == TraceStatus::Blocked;
    default: return false;
    }
}

void collect(const Trace &trace, int id, qint64 turnStartUs, qint64 nowUs, QList<TimelineItem> &items)
{
    const TraceNode &node = trace.node(id);
    if (shownOnTimeline(node)) {
        TimelineItem item;
        item.nodeId = id;
        item.kind = node.kind;
        item.status = node.status;
        item.label = node.label;
        if (const auto *tool = std::get_if<ToolCallData>(&node.payload))
            item.toolName = tool->call.name;
        item.startUs = std::max(node.startedUs, turnStartUs);
        item.startedBeforeTurnUs = item.startUs - node.startedUs;
        const qint64 end = node.status == TraceStatus::Running ? nowUs : node.endedUs;
        item.endUs = std::max(item.startUs, end);
        items.append(item);
    }
    for (int child : node.children)
        collect(trace, child, turnStartUs, nowUs, items);
}

} // namespace

QList<TimelineItem> timelineItems(const Trace &trace, int turnId, qint64 nowUs)
{
    QList<TimelineItem> items;
    if (!trace.isValid(turnId))
        return items;
    collect(trace, turnId, trace.node(turnId).startedUs, nowUs, items);
    std::stable_sort(items.begin(), items.end(),
                     [](const TimelineItem &a, const TimelineItem &b) { return a.startUs < b.startUs; });
    QList<TimelineSpan> spans;
    spans.reserve(items.size());
    for (const TimelineItem &item : std::as_const(items))
        spans.append({item.startUs, item.endUs});
    const QList<int> lanes = timelineLanes(spans);
    for (qsizetype i = 0; i < items.size(); ++i)
        items[i].lane = lanes.at(i);
    return items;
}

} // namespace Loopscope::Ui
