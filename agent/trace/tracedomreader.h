#pragma once

#include "agent/trace/trace.h"

#include <simdjson.h>

#include <optional>

namespace Loopscope::Internal {

// Trace::readJson() for a trace in a simdjson DOM, the fast path of loading a
// session: nullopt on anything unexpected, without a message; the caller then
// reads the trace with Trace::readJson(), which names the problem.
std::optional<TraceForest> readTraceDom(simdjson::dom::array json);

} // namespace Loopscope::Internal
