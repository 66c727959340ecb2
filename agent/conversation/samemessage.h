#pragma once

#include "agent/conversation/message.h"

namespace Loopscope {

// Whether \a a equals \a b, answered at once for copies of one message. A tool loop resends its
// history with every call, and whoever compares it with the last call's (the encoder's cache, the
// trace's request deltas) compares copies that share their text and calls: comparing those
// character by character would cost time in proportion to the whole history, each call.
inline bool isSameMessage(const Message &a, const Message &b)
{
    const auto shared = [](const auto &x, const auto &y) {
        return x.constData() == y.constData() && x.size() == y.size();
    };
    if (a.role == b.role && a.isError == b.isError && shared(a.text, b.text)
        && shared(a.toolCalls, b.toolCalls) && shared(a.toolCallId, b.toolCallId)
        && shared(a.toolName, b.toolName) && shared(a.attachments, b.attachments))
        return true;
    return a == b;
}

} // namespace Loopscope
