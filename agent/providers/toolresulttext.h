#pragma once

#include "agent/conversation/message.h"

namespace Loopscope {

/*!
    The content a tool result is sent with on protocols that have no error
    flag (OpenAI Chat Completions, Ollama). There a refused path or bad
    arguments would reach the model as plain text that reads like data, so an
    error result leads with "Error: ", as the official agent SDKs word it. A
    text that already says so is left alone; a success is sent as it is.
*/
QString flaglessToolResultText(const Message &result);

} // namespace Loopscope
