#pragma once

#include "agent/tools/tool.h"

namespace Loopscope {

/*!
    Evaluates arithmetic for the model, which is poor at it. Backed by muparser:
    a parser per call, because a muparser instance is not thread-safe and calls
    run concurrently on worker threads.
*/
class CalculatorTool final : public Tool
{
public:
    static constexpr QLatin1StringView Name{"calculator"};

    ToolSchema schema() const override;
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const override;
};

} // namespace Loopscope
