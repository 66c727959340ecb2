#include "agent/tools/builtin/builtintools.h"

#include "agent/tools/builtin/calculatortool.h"
#include "agent/tools/builtin/currenttimetool.h"
#include "agent/tools/builtin/listdirectorytool.h"
#include "agent/tools/builtin/readfiletool.h"
#include "agent/tools/builtin/searchfilestool.h"

namespace Loopscope {

QStringList builtinToolNames()
{
    return {CalculatorTool::Name, CurrentTimeTool::Name, ReadFileTool::Name, ListDirectoryTool::Name,
            SearchFilesTool::Name};
}

std::shared_ptr<const Tool> createBuiltinTool(const QString &name, const Workspace &workspace)
{
    if (name == CalculatorTool::Name)
        return std::make_shared<CalculatorTool>();
    if (name == CurrentTimeTool::Name)
        return std::make_shared<CurrentTimeTool>();
    if (name == ReadFileTool::Name)
        return std::make_shared<ReadFileTool>(workspace);
    if (name == ListDirectoryTool::Name)
        return std::make_shared<ListDirectoryTool>(workspace);
    if (name == SearchFilesTool::Name)
        return std::make_shared<SearchFilesTool>(workspace);
    return nullptr;
}

} // namespace Loopscope
