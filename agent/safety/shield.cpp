#include "agent/safety/shield.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

// Recorded in ShieldCheckData::stage: keep the names stable.
QString shieldStageName(ShieldStage stage)
{
    switch (stage) {
    case ShieldStage::Input: return u"input"_s;
    case ShieldStage::ToolCall: return u"tool_call"_s;
    case ShieldStage::Output: return u"output"_s;
    }
    return {};
}

} // namespace Loopscope
