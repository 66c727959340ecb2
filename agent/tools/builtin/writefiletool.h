#pragma once

#include "agent/tools/builtin/workspace.h"
#include "agent/tools/tool.h"

#include <QCoreApplication>

namespace Loopscope {

/*!
    Lets the model create or overwrite a text file inside the workspace. The
    path goes through Workspace::resolveForWriting(), so neither '..', an
    absolute path nor a symbolic link takes it outside; missing parent folders
    are created inside only. The write is atomic (QSaveFile): a reader sees the
    old file or the new one, never half of it. Binary files and folders are
    refused as targets. It asks the user first (ToolBehaviour::asksFirst), and
    two calls for the same file in one response run in call order (exclusiveKey).
*/
class WriteFileTool final : public Tool
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::WriteFileTool)

public:
    static constexpr QLatin1StringView Name{"write_file"};
    // The largest content accepted, so one call cannot fill the disk.
    static constexpr qint64 MaxBytes = 10 * 1024 * 1024;

    explicit WriteFileTool(Workspace workspace);

    ToolSchema schema() const override;
    ToolBehaviour behaviour() const override;
    QString exclusiveKey(const QJsonObject &arguments) const override;
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const override;

    // "3 lines" for "a\nb\nc" and "a\nb\nc\n" alike; 0 for empty text.
    static qsizetype lineCount(const QByteArray &text);

private:
    Workspace m_workspace;
};

} // namespace Loopscope
