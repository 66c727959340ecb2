#pragma once

#include "agent/mcp/mcpclient.h"
#include "agent/model/modelrequest.h"

namespace Loopscope::McpSampling {

/*!
    Between a server's sampling request and Loopscope's provider-neutral
    model request: what the user approved becomes the request any provider
    runs (system prompt first, the server's tools offered but never run here,
    maxTokens as the output limit), and the provider's answer becomes the
    CreateMessageResult the server reads (a tool call as tool_use content,
    stopReason toolUse).
*/

// \a options: the session's (its model, or the one the user picked, and how it streams); the request's
// maxTokens and temperature go over them.
ModelRequest toModelRequest(const McpSamplingRequest &request, const ModelOptions &options);
QJsonObject toResult(const ModelResponse &response);
// The text of a SamplingMessage's content (one block or an array), for the card and the trace.
QString messageText(const QJsonObject &message);

} // namespace Loopscope::McpSampling
