#include "agent/safety/shield.h"

#include "agent/conversation/enumnames.h"
using namespace Qt::StringLiterals;

namespace Loopscope {

// Recorded in ShieldCheckData::stage: keep the names stable.
constexpr EnumName<ShieldStage> ShieldStageNames[] = {
    {ShieldStage::Input, u"input"},
    {ShieldStage::ToolCall, u"tool_call"},
    {ShieldStage::Output, u"output"},
};

QString shieldStageName(ShieldStage stage)
{
    return nameOf(ShieldStageNames, stage);
}

std::optional<ShieldStage> shieldStageFromName(QStringView name)
{
    return valueNamed(ShieldStageNames, name);
}

} // namespace Loopscope
