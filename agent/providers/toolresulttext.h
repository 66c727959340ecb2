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

/*!
    The history as a protocol without images in tool results (OpenAI Chat
    Completions, Ollama) sends it: after each run of tool results that carry
    images (an MCP server's image content), a user message with those images
    that names the calls they came from; each such result says where its
    images went. The results stay where they are, together, because the
    protocols want every call's result before the next message. A history
    without such images comes back as it is.
*/
QList<Message> withToolImagesAfterResults(const QList<Message> &messages);

} // namespace Loopscope
