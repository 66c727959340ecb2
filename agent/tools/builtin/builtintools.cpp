#include "agent/tools/builtin/builtintools.h"

#include "agent/tools/builtin/calculatortool.h"
#include "agent/tools/builtin/currenttimetool.h"
#include "agent/tools/builtin/editfiletool.h"
#include "agent/tools/builtin/fetchurltool.h"
#include "agent/tools/builtin/listdirectorytool.h"
#include "agent/tools/builtin/readfiletool.h"
#include "agent/tools/builtin/runcommandtool.h"
#include "agent/tools/builtin/searchfilestool.h"
#include "agent/tools/builtin/writefiletool.h"

namespace Loopscope {

QStringList builtinToolNames()
{
    return {CalculatorTool::Name,    CurrentTimeTool::Name, ReadFileTool::Name,
            ListDirectoryTool::Name, SearchFilesTool::Name, WriteFileTool::Name,
            EditFileTool::Name,      RunCommandTool::Name,  FetchUrlTool::Name};
}

bool builtinToolUsesWorkspace(const QString &name)
{
    return name == ReadFileTool::Name || name == ListDirectoryTool::Name || name == SearchFilesTool::Name
           || name == WriteFileTool::Name || name == EditFileTool::Name || name == RunCommandTool::Name;
}

std::shared_ptr<const Tool> createBuiltinTool(const QString &name, const BuiltinToolContext &context)
{
    if (name == CalculatorTool::Name)
        return std::make_shared<CalculatorTool>();
    if (name == CurrentTimeTool::Name)
        return std::make_shared<CurrentTimeTool>();
    if (name == ReadFileTool::Name)
        return std::make_shared<ReadFileTool>(context.workspace);
    if (name == ListDirectoryTool::Name)
        return std::make_shared<ListDirectoryTool>(context.workspace);
    if (name == SearchFilesTool::Name)
        return std::make_shared<SearchFilesTool>(context.workspace);
    if (name == WriteFileTool::Name)
        return std::make_shared<WriteFileTool>(context.workspace);
    if (name == EditFileTool::Name)
        return std::make_shared<EditFileTool>(context.workspace);
    if (name == RunCommandTool::Name)
        return std::make_shared<RunCommandTool>(context.workspace, context.commandSecrets);
    if (name == FetchUrlTool::Name) {
        FetchUrlTool::Options options;
        options.allowPrivateAddresses = context.fetchAllowsPrivateAddresses;
        return std::make_shared<FetchUrlTool>(context.network, options);
    }
    return nullptr;
}

std::shared_ptr<const Tool> createBuiltinTool(const QString &name, const Workspace &workspace)
{
    return createBuiltinTool(name, BuiltinToolContext{workspace, {}, false, {}});
}

} // namespace Loopscope
