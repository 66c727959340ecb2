#pragma once

#include "agent/tools/builtin/workspace.h"
#include "agent/tools/tool.h"

#include <QStringList>

#include <memory>

namespace Loopscope {

// The names of the tools that ship with Loopscope, for the CLI's --tools and the settings.
QStringList builtinToolNames();

// A built-in tool by name, its file tools confined to workspace; nullptr for an unknown name.
std::shared_ptr<const Tool> createBuiltinTool(const QString &name, const Workspace &workspace);

} // namespace Loopscope
