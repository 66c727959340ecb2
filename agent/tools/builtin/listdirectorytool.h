#pragma once

#include "agent/tools/builtin/workspace.h"
#include "agent/tools/tool.h"

namespace Loopscope {

/*!
    Lets the model see what a workspace folder holds: one entry per line,
    folders with a trailing "/", files with their size. Symbolic links are
    described, never followed out of the workspace, and long listings are
    capped with a note so that a huge folder cannot flood the context window.
*/
class ListDirectoryTool final : public Tool
{
public:
    static constexpr QLatin1StringView Name{"list_directory"};
    static constexpr int DefaultMaxEntries = 500;

    explicit ListDirectoryTool(Workspace workspace, int maxEntries = DefaultMaxEntries);

    ToolSchema schema() const override;
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const override;

private:
    Workspace m_workspace;
    int m_maxEntries;
};

} // namespace Loopscope
