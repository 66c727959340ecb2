#pragma once

namespace Loopscope::ProcessHeap {

/*!
    Keeps the whole process on malloc's one main arena (glibc; elsewhere it does nothing).
    Each thread that allocates gets an arena of its own by default, and an arena keeps the
    high-water mark of what was ever built on it: the network thread that sends each request and
    reads its answer, and the pool threads that autosave the session or run a tool, build things
    that grow with the conversation, so a
    long session's window grew by about 0.13 MB per turn in free memory no thread used again
    (tests/bench/turnmemorybench.cpp: 0.35 MB per turn with an arena per thread, 0.21 MB with
    one). The threads allocate little at the same time, so sharing one arena costs no
    measurable time (loopscope-bench, 8 parallel tool calls per round). Call it before any
    thread starts.
*/
void keepOneArena();

} // namespace Loopscope::ProcessHeap
