#include "agent/tools/builtin/editfiletool.h"

#include "agent/tools/builtin/filewritesupport.h"
#include "agent/tools/builtin/textreplacement.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QStringDecoder>

using namespace Qt::StringLiterals;

namespace Loopscope {

EditFileTool::EditFileTool(Workspace workspace)
    : m_workspace(std::move(workspace))
{}

ToolSchema EditFileTool::schema() const
{
    const auto text = [](const QString &description) {
        return QJsonObject{{u"type"_s, u"string"_s}, {u"description"_s, description}};
    };
    return {Name,
            u"Edits a text file in the workspace by replacing exact text: old_text must match the file "
            "exactly (whitespace and line breaks included) and, unless replace_all is true, occur exactly "
            "once; otherwise nothing changes and the error says how many matches there were and on which "
            "lines. Read the file first. The user may be asked to approve the edit first. To create a "
            "file or replace all of it, use write_file."_s,
            QJsonObject{
                {u"type"_s, u"object"_s},
                {u"properties"_s,
                 QJsonObject{
                     {u"path"_s, text(u"Path of the file relative to the workspace root, e.g. "
                                      "\"src/main.cpp\". Absolute paths and '..' are refused."_s)},
                     {u"old_text"_s, text(u"The exact text to replace; include enough surrounding lines "
                                          "that it occurs only once."_s)},
                     {u"new_text"_s, text(u"The text to put in its place (may be empty to delete)."_s)},
                     {u"replace_all"_s,
                      QJsonObject{{u"type"_s, u"boolean"_s},
                                  {u"description"_s,
                                   u"Replace every occurrence instead of requiring exactly one. Default: "
                                   "false."_s}}},
                 }},
                {u"required"_s, QJsonArray{u"path"_s, u"old_text"_s, u"new_text"_s}},
                {u"additionalProperties"_s, false},
            }};
}

ToolBehaviour EditFileTool::behaviour() const
{
    ToolBehaviour behaviour;
    behaviour.asksFirst = true;
    return behaviour;
}

QString EditFileTool::exclusiveKey(const QJsonObject &arguments) const
{
    return FileWriteSupport::exclusiveKey(m_workspace, arguments.value(u"path"_s).toString());
}

ToolResult EditFileTool::invoke(const QJsonObject &arguments, ToolContext &) const
{
    const QString relativePath = arguments.value(u"path"_s).toString();
    const QString oldText = arguments.value(u"old_text"_s).toString();
    const QString newText = arguments.value(u"new_text"_s).toString();
    const bool replaceAll = arguments.value(u"replace_all"_s).toBool(false);

    const ResolvedPath resolved = m_workspace.resolve(relativePath);
    if (!resolved.isValid()) {
        // Missing but writable: say which tool creates it.
        if (m_workspace.resolveForWriting(relativePath).isValid()) {
            return ToolResult::failure(tr("'%1' does not exist; edit_file changes existing files, use "
                                          "write_file to create one.")
                                           .arg(relativePath));
        }
        return ToolResult::failure(resolved.error);
    }
    if (const QString problem = FileWriteSupport::targetProblem(resolved.path, relativePath);
        !problem.isEmpty())
        return ToolResult::failure(problem);
    if (QFileInfo(resolved.path).size() > MaxBytes) {
        return ToolResult::failure(
            tr("'%1' is larger than the %2 bytes edit_file handles.").arg(relativePath).arg(MaxBytes));
    }

    QFile file(resolved.path);
    if (!file.open(QIODevice::ReadOnly))
        return ToolResult::failure(tr("Cannot open '%1': %2").arg(relativePath, file.errorString()));
    QByteArray bytes = file.readAll();
    file.close();

    // A byte-order mark stays where it was, outside the text the model matches.
    static constexpr QByteArrayView Bom("\xEF\xBB\xBF");
    const bool hadBom = bytes.startsWith(Bom);
    if (hadBom)
        bytes.remove(0, Bom.size());
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    const QString text = decoder(bytes);
    if (decoder.hasError()) {
        return ToolResult::failure(tr("'%1' is not valid UTF-8 text; edit_file only edits UTF-8 files, so "
                                      "that no character is changed by accident.")
                                       .arg(relativePath));
    }

    const TextReplacement replacement = replaceInFileText(text, oldText, newText, replaceAll);
    if (!replacement.isValid())
        return ToolResult::failure(tr("Nothing changed in '%1': %2").arg(relativePath, replacement.error));

    QByteArray out = replacement.text.toUtf8();
    if (hadBom)
        out.prepend(Bom.data(), Bom.size());
    if (const QString error = FileWriteSupport::writeAtomically(resolved.path, out); !error.isEmpty())
        return ToolResult::failure(tr("Cannot write '%1': %2").arg(relativePath, error));

    QStringList lines;
    for (const int line : replacement.matchLines)
        lines.append(QString::number(line));
    const QString shownPath = Workspace::relativePath(m_workspace.canonicalRoot(), resolved.path);
    ToolResult result = ToolResult::success(
        replacement.replacements == 1
            ? tr("Edited '%1': replaced 1 occurrence (line %2).").arg(shownPath, lines.join(u", "_s))
            : tr("Edited '%1': replaced %2 occurrences (lines %3%4).")
                  .arg(shownPath)
                  .arg(replacement.replacements)
                  .arg(lines.join(u", "_s),
                       replacement.matchCount > lines.size()
                           ? tr(" and %1 more").arg(replacement.matchCount - lines.size())
                           : QString()));
    QJsonArray matchLines;
    for (const int line : replacement.matchLines)
        matchLines.append(line);
    result.details = QJsonObject{{u"file"_s, QJsonObject{{u"path"_s, shownPath},
                                                         {u"replacements"_s, replacement.replacements},
                                                         {u"lines"_s, matchLines},
                                                         {u"bytes"_s, out.size()}}}};
    return result;
}

} // namespace Loopscope
