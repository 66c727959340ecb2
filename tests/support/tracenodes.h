#pragma once

#include "agent/trace/trace.h"

#include <QList>

namespace Loopscope::Testing {

// The ids of a trace's nodes of \a kind, in the order they began.
inline QList<int> nodesOfKind(const Trace &trace, TraceKind kind)
{
    QList<int> nodes;
    for (int id = 0; id < trace.size(); ++id) {
        if (trace.node(id).kind == kind)
            nodes.append(id);
    }
    return nodes;
}

} // namespace Loopscope::Testing
