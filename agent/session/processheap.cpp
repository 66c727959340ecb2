#include "agent/session/processheap.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace Loopscope::ProcessHeap {

void keepOneArena()
{
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, 1);
#endif
}

} // namespace Loopscope::ProcessHeap
