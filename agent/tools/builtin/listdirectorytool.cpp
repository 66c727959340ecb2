#include "agent/tools/builtin/listdirectorytool.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

ListDirectoryTool::ListDirectoryTool(Workspace workspace, int maxEntries)
    : m_workspace(std::move(workspace))
    , m_maxEntries(qMax(1, maxEntries))
{}

ToolSchema ListDirectoryTool::schema() const
{
    const QJsonObject path{
        {u"type"_s, u"string"_s},
        {u"description"_s,
         u"Folder relative to the workspace root, e.g. \"src\"; \".\" for the root itself."_s},
    };
    return {Name,
            u"Lists the entries of a folder in the workspace, sorted by name, one per line: folders "
            "end with \"/\", files show their size, symbolic links say where they lead. "
            "Not recursive: call it again on a subfolder. Use read_file to read a file."_s,
            QJsonObject{
                {u"type"_s, u"object"_s},
                {u"properties"_s, QJsonObject{{u"path"_s, path}}},
                {u"required"_s, QJsonArray{u"path"_s}},
                {u"additionalProperties"_s, false},
            }};
}

static QString byteCount(qint64 bytes)
{
    return bytes == 1 ? u"1 byte"_s : u"%1 bytes"_s.arg(bytes);
}

static QString describeEntry(const QFileInfo &entry, const QString &root)
{
    const QString name = entry.fileName();
    // QFileInfo::isDir()/size() follow links, so links are looked at first and
    // only followed once their target is known to be inside the workspace.
    if (entry.isSymLink()) {
        const QString target = entry.canonicalFilePath();
        if (target.isEmpty())
            return u"%1 (broken symbolic link)"_s.arg(name);
        if (!Workspace::isWithin(root, target))
            return u"%1 (symbolic link leading outside the workspace, not followed)"_s.arg(name);
        const QString relativeTarget = Workspace::relativePath(root, target);
        if (entry.isDir())
            return u"%1/ (symbolic link to %2/)"_s.arg(name, relativeTarget);
        if (entry.isFile())
            return u"%1 (%2, symbolic link to %3)"_s.arg(name, byteCount(entry.size()), relativeTarget);
        return u"%1 (symbolic link to %2, not a regular file)"_s.arg(name, relativeTarget);
    }
    if (entry.isDir())
        return name + u'/';
    if (entry.isFile())
        return u"%1 (%2)"_s.arg(name, byteCount(entry.size()));
    return u"%1 (special file)"_s.arg(name);
}

ToolResult ListDirectoryTool::invoke(const QJsonObject &arguments, ToolContext &context) const
{
    const QString relativePath = arguments.value(u"path"_s).toString();
    const ResolvedPath resolved = m_workspace.resolve(relativePath);
    if (!resolved.isValid())
        return ToolResult::failure(resolved.error);
    if (!QFileInfo(resolved.path).isDir()) {
        return ToolResult::failure(
            u"'%1' is a file, not a folder; use read_file to read it."_s.arg(relativePath));
    }
    // resolve() succeeded, so the root exists; an empty root here would only mean it vanished since.
    const QString root = m_workspace.canonicalRoot();

    // System lists broken links and special files too; Hidden shows dotfiles like .gitignore.
    const QDir::Filters filters = QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System;
    QFileInfoList entries = QDir(resolved.path).entryInfoList(filters, QDir::NoSort);
    if (entries.isEmpty())
        return ToolResult::success(
            u"The folder '%1' is empty."_s.arg(relativePath.isEmpty() ? u"."_s : relativePath));

    // Case-insensitive first, as people read listings; case-sensitive to make ties deterministic.
    std::sort(entries.begin(), entries.end(), [](const QFileInfo &a, const QFileInfo &b) {
        const QString left = a.fileName();
        const QString right = b.fileName();
        const int order = QString::compare(left, right, Qt::CaseInsensitive);
        return order != 0 ? order < 0 : QString::compare(left, right, Qt::CaseSensitive) < 0;
    });

    QStringList lines;
    const qsizetype shown = qMin<qsizetype>(entries.size(), m_maxEntries);
    lines.reserve(shown + 1);
    for (qsizetype i = 0; i < shown; ++i) {
        if (context.isCancelled())
            return ToolResult::failure(u"Listing '%1' was cancelled."_s.arg(relativePath));
        lines.append(describeEntry(entries.at(i), root));
    }
    if (shown < entries.size()) {
        lines.append(u"[truncated: showed %1 of %2 entries]"_s.arg(QString::number(shown),
                                                                   QString::number(entries.size())));
    }
    return ToolResult::success(lines.join(u'\n'));
}

} // namespace Loopscope
