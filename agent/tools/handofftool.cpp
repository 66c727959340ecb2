#include "agent/tools/functiontool.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Loopscope {

HandoffTool::HandoffTool(QString target, QString description)
    : m_target(std::move(target))
    , m_description(std::move(description))
{}

ToolSchema HandoffTool::schema() const
{
    const QString description
        = m_description.isEmpty()
              ? u"Hand the conversation over to the '%1' agent. Say why in 'reason'."_s.arg(m_target)
              : m_description;
    return {u"transfer_to_"_s + m_target, description,
            QJsonObject{{u"type"_s, u"object"_s},
                        {u"properties"_s, QJsonObject{{u"reason"_s, QJsonObject{{u"type"_s, u"string"_s}}}}},
                        {u"required"_s, QJsonArray{u"reason"_s}}}};
}

ToolBehaviour HandoffTool::behaviour() const
{
    ToolBehaviour behaviour;
    behaviour.handoffTarget = m_target;
    return behaviour;
}

ToolResult HandoffTool::invoke(const QJsonObject &, ToolContext &) const
{
    return ToolResult::success(u"Handed off to %1."_s.arg(m_target));
}

} // namespace Loopscope
