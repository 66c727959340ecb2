#pragma once

#include "agent/tools/tool.h"

#include <QHash>
#include <QStringList>

#include <memory>

namespace Loopscope {

class SchemaValidator;

/*!
    The tools an agent may use, found by name, each with its parameter schema
    compiled once. Tools are shared so that a call still running on a worker
    thread keeps its tool alive even if the tool is removed meanwhile.
*/
class Workbench final
{
public:
    Workbench();
    ~Workbench();
    Workbench(const Workbench &) = delete;
    Workbench &operator=(const Workbench &) = delete;

    // Replaces a tool of the same name.
    void add(std::shared_ptr<const Tool> tool);
    bool remove(const QString &name);
    void clear();

    std::shared_ptr<const Tool> find(const QString &name) const;
    QStringList names() const; // in the order they were added
    QList<ToolSchema> schemas() const;
    bool isEmpty() const { return m_order.isEmpty(); }

    // Empty when the arguments satisfy the tool's schema, else what breaks it.
    QString validateArguments(const QString &name, const QJsonObject &arguments) const;

private:
    struct Entry
    {
        std::shared_ptr<const Tool> tool;
        ToolSchema schema;
        std::shared_ptr<SchemaValidator> validator;
    };
    QHash<QString, Entry> m_tools;
    QStringList m_order;
};

} // namespace Loopscope
