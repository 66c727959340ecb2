#include "agent/replay/replayworkbench.h"

#include "agent/tools/builtin/builtintools.h"
#include "agent/tools/workbench.h"

namespace Loopscope {

namespace {

// A recorded tool that is not available here: it has a face for the model and no behaviour.
class RecordedOnlyTool final : public Tool
{
public:
    explicit RecordedOnlyTool(ToolSchema schema)
        : m_schema(std::move(schema))
    {}

    ToolSchema schema() const override { return m_schema; }
    ToolResult invoke(const QJsonObject &, ToolContext &) const override
    {
        return ToolResult::failure(
            ReplayWorkbench::tr(
                "The tool %1 is not available here: only its recorded results can be replayed.")
                .arg(m_schema.name));
    }

private:
    ToolSchema m_schema;
};

} // namespace

void ReplayWorkbench::fill(Workbench &workbench, const RecordedTurn &turn, const ToolProvider &provider)
{
    workbench.clear();
    for (const ToolSchema &schema : turn.tools()) {
        std::shared_ptr<const Tool> tool = provider ? provider(schema.name) : nullptr;
        workbench.add(tool ? std::move(tool) : std::make_shared<RecordedOnlyTool>(schema));
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
