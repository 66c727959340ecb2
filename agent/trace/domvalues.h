#pragma once

#include "agent/model/modelrequest.h"

#include <simdjson.h>

namespace Loopscope::Internal {

/*
    The model types read from a simdjson DOM, as their fromJson() reads them
    from Qt's JSON, for the fast path of loading a session. Where fromJson()
    would quietly fall back on a value of the wrong type, these mark
    \a surprised instead, and the loader reads the file the checked way.
*/
ToolCall toolCallFrom(simdjson::dom::object json, bool &surprised);
TokenUsage tokenUsageFrom(simdjson::dom::object json, bool &surprised);
Message messageFrom(simdjson::dom::object json, bool &surprised);
QList<Message> messagesFrom(simdjson::dom::array json, bool &surprised);
ModelRequest modelRequestFrom(simdjson::dom::object json, bool &surprised);
ModelResponse modelResponseFrom(simdjson::dom::object json, bool &surprised);
ModelAttempt modelAttemptFrom(simdjson::dom::object json, bool &surprised);

} // namespace Loopscope::Internal
