#pragma once

#include "agent/tools/tool.h"

#include <QDateTime>
#include <QTimeZone>

#include <functional>

namespace Loopscope {

/*!
    Tells the model the date and time, which it cannot know. The clock and the
    default zone come in from outside so that tests need not depend on when
    and where they run.
*/
class CurrentTimeTool final : public Tool
{
public:
    static constexpr QLatin1StringView Name{"current_time"};
    using Clock = std::function<QDateTime()>;

    // Without a zone argument the answer is in defaultZone (the system's by default).
    explicit CurrentTimeTool(Clock clock = &QDateTime::currentDateTimeUtc,
                             QTimeZone defaultZone = QTimeZone::systemTimeZone());

    ToolSchema schema() const override;
    // Asked again, it tells a later time.
    ToolBehaviour behaviour() const override
    {
        ToolBehaviour behaviour;
        behaviour.resultVaries = true;
        return behaviour;
    }
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const override;

private:
    Clock m_clock;
    QTimeZone m_defaultZone;
};

} // namespace Loopscope
