#pragma once

#include "agent/tools/builtin/workspace.h"
#include "agent/tools/tool.h"

namespace Loopscope {

/*!
    Lets the model find text in the workspace, like "grep -rn": each matching
    line as "path:line: text", paths relative to the workspace root so they can
    be passed on to read_file. The walk skips hidden folders (.git), binary and
    large files, never leaves the workspace through a symbolic link, stops when
    the call is cancelled, and caps the matches with a note.
*/
class SearchFilesTool final : public Tool
{
public:
    static constexpr QLatin1StringView Name{"search_files"};
    static constexpr int DefaultMaxMatches = 200;
    static constexpr qint64 MaxFileBytes = 1024 * 1024;
    static constexpr qint64 BinaryProbeBytes = 8 * 1024;
    static constexpr int MaxLineChars = 300; // minified files have megabyte-long lines

    explicit SearchFilesTool(Workspace workspace, int maxMatches = DefaultMaxMatches);

    ToolSchema schema() const override;
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const override;

private:
    Workspace m_workspace;
    int m_maxMatches;
};

} // namespace Loopscope
