#include "agent/tools/workbench.h"

#include "agent/tools/schemavalidator.h"

namespace Loopscope {

Workbench::Workbench() = default;
Workbench::~Workbench() = default;

void Workbench::add(std::shared_ptr<const Tool> tool)
{
    Q_ASSERT(tool);
    Entry entry;
    entry.schema = tool->schema();
    entry.validator = std::make_shared<SchemaValidator>(entry.schema.parameters);
    entry.tool = std::move(tool);
    if (!m_tools.contains(entry.schema.name))
        m_order.append(entry.schema.name);
    m_tools.insert(entry.schema.name, std::move(entry));
}

bool Workbench::remove(const QString &name)
{
    m_order.removeOne(name);
    return m_tools.remove(name) > 0;
}

void Workbench::clear()
{
    m_tools.clear();
    m_order.clear();
}

std::shared_ptr<const Tool> Workbench::find(const QString &name) const
{
    const auto it = m_tools.constFind(name);
    return it == m_tools.cend() ? nullptr : it->tool;
}

QStringList Workbench::names() const
{
    return m_order;
}

QList<ToolSchema> Workbench::schemas() const
{
    QList<ToolSchema> result;
    result.reserve(m_order.size());
    for (const QString &name : m_order)
        result.append(m_tools.value(name).schema);
    return result;
}

QString Workbench::validateArguments(const QString &name, const QJsonObject &arguments) const
{
    const auto it = m_tools.constFind(name);
    if (it == m_tools.cend())
        return {};
    return it->validator->validate(arguments);
}

} // namespace Loopscope
