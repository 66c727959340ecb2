#pragma once

#include "agent/trace/trace.h"

namespace Loopscope {

/*!
    How a finished step's time splits between the machine and the people it
    waited for. The trace keeps one source for it: the Wait nodes, each a span
    in which the loop was held for someone (an approval, a breakpoint). The
    waiting time of a step is the part of its own span that Wait spans below it
    (or itself) cover, each moment counted once however many waits overlapped.
*/
struct StepTiming
{
    qint64 durationUs = 0; // the whole span, 0 while running
    qint64 waitingUs = 0;  // of which someone was waited for

    qint64 workingUs() const { return durationUs - waitingUs; }
    bool operator==(const StepTiming &) const = default;
};

// The timing of node \a id; zero for a running or unknown node.
StepTiming stepTiming(const Trace &trace, int id);

} // namespace Loopscope
