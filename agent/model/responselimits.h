#pragma once

#include <QtGlobal>

namespace Loopscope {

/*!
    What one answer from a provider or an MCP server may cost before Loopscope gives up on it: a
    server that sends without end, or a trickle that never finishes, must not grow the process or
    hold a turn forever. The defaults are generous (a local model on a CPU stays well inside them);
    an answer cut by one of them is not retried, since the same server would likely do it again.
*/
struct ResponseLimits
{
    static constexpr qint64 DefaultMaxResponseBytes = 64LL * 1024 * 1024;
    static constexpr int DefaultRequestTimeoutMs = 30 * 60 * 1000;
    static constexpr qint64 MegaByte = 1024 * 1024;

    // The bytes of one response body, success or error; past it the request fails.
    qint64 maxResponseBytes = DefaultMaxResponseBytes;
    // One attempt, from sending to the last byte; 0 means none.
    int requestTimeoutMs = DefaultRequestTimeoutMs;
    // A body that arrives, yet slower than this many bytes per window, fails: a trickle keeps the
    // idle timer from ever firing. A window with nothing in it is the idle timer's to judge.
    qint64 minBytesPerWindow = 128;
    int rateWindowMs = 120'000;

    bool operator==(const ResponseLimits &) const = default;
};

} // namespace Loopscope
