#pragma once

#include "agent/tools/tool.h"

namespace Loopscope {

/*! A tool made from a schema and a callable: for embedding apps, examples and tests. */
class FunctionTool final : public Tool
{
public:
    using Function = std::function<ToolResult(const QJsonObject &, ToolContext &)>;

    FunctionTool(ToolSchema schema, Function function, ToolBehaviour behaviour = {})
        : m_schema(std::move(schema))
        , m_function(std::move(function))
        , m_behaviour(std::move(behaviour))
    {}

    ToolSchema schema() const override { return m_schema; }
    ToolBehaviour behaviour() const override { return m_behaviour; }
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const override
    {
        return m_function(arguments, context);
    }

private:
    ToolSchema m_schema;
    Function m_function;
    ToolBehaviour m_behaviour;
};

/*! FunctionTool's counterpart for a tool that answers later: the callable returns the future. */
class AsyncFunctionTool final : public AsyncTool
{
public:
    using Function = std::function<QFuture<ToolResult>(const QJsonObject &, std::shared_ptr<ToolContext>)>;

    AsyncFunctionTool(ToolSchema schema, Function function, ToolBehaviour behaviour = {})
        : m_schema(std::move(schema))
        , m_function(std::move(function))
        , m_behaviour(std::move(behaviour))
    {}

    ToolSchema schema() const override { return m_schema; }
    ToolBehaviour behaviour() const override { return m_behaviour; }
    QFuture<ToolResult> start(const QJsonObject &arguments,
                              std::shared_ptr<ToolContext> context) const override
    {
        return m_function(arguments, std::move(context));
    }

private:
    ToolSchema m_schema;
    Function m_function;
    ToolBehaviour m_behaviour;
};

/*!
    Hands the conversation to another agent profile. The loop never invokes it:
    a call to it ends the turn with a handoff result naming the target and reason.
*/
class HandoffTool final : public Tool
{
public:
    explicit HandoffTool(QString target, QString description = {});

    ToolSchema schema() const override;
    ToolBehaviour behaviour() const override;
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const override;

private:
    QString m_target;
    QString m_description;
};

} // namespace Loopscope
