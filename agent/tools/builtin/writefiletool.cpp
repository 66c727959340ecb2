#include "agent/tools/builtin/writefiletool.h"

#include "agent/tools/builtin/filewritesupport.h"

#include <QFileInfo>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Loopscope {

WriteFileTool::WriteFileTool(Workspace workspace)
    : m_workspace(std::move(workspace))
{}

ToolSchema WriteFileTool::schema() const
{
    const QJsonObject path{
        {u"type"_s, u"string"_s},
        {u"description"_s,
         u"Path of the file relative to the workspace root, e.g. \"src/notes.md\". Missing folders are "
         "created. Absolute paths and '..' are refused."_s},
    };
    const QJsonObject content{
        {u"type"_s, u"string"_s},
        {u"description"_s, u"The whole new content of the file, as UTF-8 text."_s},
    };
    return {Name,
            u"Creates a text file in the workspace, or replaces the whole content of an existing one, "
            "and says which it did. The user may be asked to approve the write first. To change part "
            "of an existing file, prefer edit_file. Binary files and folders are refused."_s,
            QJsonObject{
                {u"type"_s, u"object"_s},
                {u"properties"_s, QJsonObject{{u"path"_s, path}, {u"content"_s, content}}},
                {u"required"_s, QJsonArray{u"path"_s, u"content"_s}},
                {u"additionalProperties"_s, false},
            }};
}

ToolBehaviour WriteFileTool::behaviour() const
{
    ToolBehaviour behaviour;
    behaviour.asksFirst = true;
    return behaviour;
}

QString WriteFileTool::exclusiveKey(const QJsonObject &arguments) const
{
    return FileWriteSupport::exclusiveKey(m_workspace, arguments.value(u"path"_s).toString());
}

qsizetype WriteFileTool::lineCount(const QByteArray &text)
{
    if (text.isEmpty())
        return 0;
    return text.count('\n') + (text.endsWith('\n') ? 0 : 1);
}

ToolResult WriteFileTool::invoke(const QJsonObject &arguments, ToolContext &) const
{
    const QString relativePath = arguments.value(u"path"_s).toString();
    const QByteArray data = arguments.value(u"content"_s).toString().toUtf8();
    const ResolvedPath resolved = m_workspace.resolveForWriting(relativePath);
    if (!resolved.isValid())
        return ToolResult::failure(resolved.error);
    if (data.size() > MaxBytes) {
        return ToolResult::failure(tr("The content is %1 bytes, more than the %2 bytes write_file accepts.")
                                       .arg(data.size())
                                       .arg(MaxBytes));
    }
    if (const QString problem = FileWriteSupport::targetProblem(resolved.path, relativePath);
        !problem.isEmpty())
        return ToolResult::failure(problem);

    const QFileInfo before(resolved.path);
    const bool existed = before.exists();
    const qint64 oldSize = existed ? before.size() : 0;
    if (const QString error = FileWriteSupport::writeAtomically(resolved.path, data); !error.isEmpty())
        return ToolResult::failure(tr("Cannot write '%1': %2").arg(relativePath, error));

    const QString shownPath = Workspace::relativePath(m_workspace.canonicalRoot(), resolved.path);
    const qsizetype lines = lineCount(data);
    ToolResult result = ToolResult::success(
        existed ? tr("Overwrote '%1' with %2 bytes (%3 lines); it had %4 bytes.")
                      .arg(shownPath)
                      .arg(data.size())
                      .arg(lines)
                      .arg(oldSize)
                : tr("Created '%1' with %2 bytes (%3 lines).").arg(shownPath).arg(data.size()).arg(lines));
    result.details = QJsonObject{{u"file"_s, QJsonObject{{u"path"_s, shownPath},
                                                         {u"created"_s, !existed},
                                                         {u"bytes"_s, data.size()},
                                                         {u"lines"_s, lines},
                                                         {u"previousBytes"_s, oldSize}}}};
    return result;
}

} // namespace Loopscope
