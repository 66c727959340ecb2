#include "agent/replay/replayworkbench.h"

#include "agent/tools/builtin/builtintools.h"
#include "agent/tools/workbench.h"

namespace Loopscope {

namespace {

// A recorded tool that is not available here: it has a face for the model and no behaviour.
class RecordedOnlyTool final : public Tool
{
public:
    // \a handoffTarget: the agent the recorded tool handed the turn to, when it was a handoff.
    explicit RecordedOnlyTool(ToolSchema schema, QString handoffTarget = {})
        : m_schema(std::move(schema))
        , m_handoffTarget(std::move(handoffTarget))
    {}

    ToolSchema schema() const override { return m_schema; }
    ToolBehaviour behaviour() const override
    {
        ToolBehaviour behaviour;
        behaviour.handoffTarget = m_handoffTarget;
        return behaviour;
    }
    ToolResult invoke(const QJsonObject &, ToolContext &) const override
    {
        return ToolResult::failure(
            ReplayWorkbench::tr(
                "The tool %1 is not available here: only its recorded results can be replayed.")
                .arg(m_schema.name));
    }

private:
    ToolSchema m_schema;
    QString m_handoffTarget;
};

} // namespace

void ReplayWorkbench::fill(Workbench &workbench, const RecordedTurn &turn, const ToolProvider &provider)
{
    fill(workbench, turn.tools(), turn.handoffTools, provider);
}

void ReplayWorkbench::fill(Workbench &workbench, const QList<ToolSchema> &tools,
                           const QHash<QString, QString> &handoffTools, const ToolProvider &provider)
{
    workbench.clear();
    for (const ToolSchema &schema : tools) {
        const QString target = handoffTools.value(schema.name);
        std::shared_ptr<const Tool> tool = provider && target.isEmpty() ? provider(schema.name) : nullptr;
        workbench.add(tool ? std::move(tool) : std::make_shared<RecordedOnlyTool>(schema, target));
    }
}

ReplayWorkbench::ToolProvider ReplayWorkbench::builtinTools(const Workspace &workspace)
{
    return [workspace](const QString &name) -> std::shared_ptr<const Tool> {
        std::shared_ptr<const Tool> tool = createBuiltinTool(name, workspace);
        // Tools with effects (writing files, running commands, fetching) never run again unasked:
        // a replay gives their recorded results, and a live call is answered with an error.
        if (tool && tool->behaviour().asksFirst)
            return nullptr;
        return tool;
    };
}

} // namespace Loopscope
