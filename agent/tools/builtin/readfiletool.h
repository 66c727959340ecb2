#pragma once

#include "agent/tools/builtin/workspace.h"
#include "agent/tools/tool.h"

namespace Loopscope {

/*!
    Lets the model read a text file inside the workspace. Output is capped so
    that one large file cannot flood the context window; the cut falls on a
    UTF-8 character boundary and is announced, so the model knows it saw a part.
*/
class ReadFileTool final : public Tool
{
public:
    static constexpr QLatin1StringView Name{"read_file"};
    static constexpr qint64 DefaultMaxBytes = 64 * 1024;
    // Like git and grep: a NUL byte in the first 8 KiB means "binary".
    static constexpr qint64 BinaryProbeBytes = 8 * 1024;

    explicit ReadFileTool(Workspace workspace, qint64 maxBytes = DefaultMaxBytes);

    ToolSchema schema() const override;
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const override;

private:
    Workspace m_workspace;
    qint64 m_maxBytes;
};

} // namespace Loopscope
