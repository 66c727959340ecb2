#include "agent/trace/tracetiming.h"

#include <QList>

#include <algorithm>
#include <limits>

namespace Loopscope {

namespace {

struct Span
{
    qint64 startUs = 0;
    qint64 endUs = 0;
};

// The Wait spans in the subtree of \a id, cut to [fromUs, toUs]; a wait still running (or left
// running in an old file) lasts until the step it is measured for ended.
void collectWaits(const Trace &trace, int id, qint64 fromUs, qint64 toUs, QList<Span> &spans)
{
    const TraceNode &node = trace.node(id);
    if (node.kind == TraceKind::Wait) {
        const qint64 start = std::max(node.startedUs, fromUs);
        const qint64 end = std::min(node.endedUs > 0 ? node.endedUs : toUs, toUs);
        if (end > start)
            spans.append({start, end});
    }
    for (int child : node.children)
        collectWaits(trace, child, fromUs, toUs, spans);
}

// The time the spans cover, overlaps counted once.
qint64 coveredUs(QList<Span> spans)
{
    std::sort(spans.begin(), spans.end(), [](const Span &a, const Span &b) { return a.startUs < b.startUs; });
    qint64 covered = 0;
    qint64 reached = std::numeric_limits<qint64>::min();
    for (const Span &span : std::as_const(spans)) {
        const qint64 start = std::max(span.startUs, reached);
        if (span.endUs > start)
            covered += span.endUs - start;
        reached = std::max(reached, span.endUs);
    }
    return covered;
}

} // namespace

StepTiming stepTiming(const Trace &trace, int id)
{
    if (!trace.isValid(id))
        return {};
    const TraceNode &node = trace.node(id);
    if (node.endedUs <= 0 || node.endedUs < node.startedUs)
        return {};
    StepTiming timing;
    timing.durationUs = node.durationUs();
    QList<Span> spans;
    collectWaits(trace, id, node.startedUs, node.endedUs, spans);
    timing.waitingUs = coveredUs(std::move(spans));
    return timing;
}

} // namespace Loopscope
