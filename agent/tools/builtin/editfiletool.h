#pragma once

#include "agent/tools/builtin/workspace.h"
#include "agent/tools/tool.h"

#include <QCoreApplication>

namespace Loopscope {

/*!
    Lets the model change part of a text file in the workspace by exact-text
    replacement (replaceInFileText(), which the approval card's diff uses too,
    so what is shown is what is written). A missing or, without replace_all,
    ambiguous old_text is an error saying how many matches there were and on
    which lines. UTF-8 only; a byte-order mark and CRLF line breaks are kept.
    The write is atomic; it asks the user first, and two calls for the same
    file in one response run in call order.
*/
class EditFileTool final : public Tool
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::EditFileTool)

public:
    static constexpr QLatin1StringView Name{"edit_file"};
    // Files larger than this are not edited (read in whole and written back).
    static constexpr qint64 MaxBytes = 10 * 1024 * 1024;

    explicit EditFileTool(Workspace workspace);

    ToolSchema schema() const override;
    ToolBehaviour behaviour() const override;
    QString exclusiveKey(const QJsonObject &arguments) const override;
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const override;

private:
    Workspace m_workspace;
};

} // namespace Loopscope
