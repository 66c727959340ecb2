#include "agent/tools/builtin/readfiletool.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QStringDecoder>

using namespace Qt::StringLiterals;

namespace Loopscope {

ReadFileTool::ReadFileTool(Workspace workspace, qint64 maxBytes)
    : m_workspace(std::move(workspace))
    , m_maxBytes(qMax<qint64>(1, maxBytes))
{}

ToolSchema ReadFileTool::schema() const
{
    const QJsonObject path{
        {u"type"_s, u"string"_s},
        {u"description"_s,
         u"Path of the file relative to the workspace root, e.g. \"src/main.cpp\". Absolute "
         "paths and '..' are refused."_s},
    };
    return {Name,
            u"Reads a text file from the workspace and returns its contents. Files larger than "
            "%1 bytes are cut, which the output then says at its end. Binary files and folders are "
            "refused: use list_directory to see folders and search_files to find text."_s.arg(m_maxBytes),
            QJsonObject{
                {u"type"_s, u"object"_s},
                {u"properties"_s, QJsonObject{{u"path"_s, path}}},
                {u"required"_s, QJsonArray{u"path"_s}},
                {u"additionalProperties"_s, false},
            }};
}

// The largest prefix of data, at most maxBytes long, that does not split a
// UTF-8 sequence: back off over continuation bytes (10xxxxxx) to a lead byte.
static qsizetype utf8Boundary(const QByteArray &data, qsizetype maxBytes)
{
    if (data.size() <= maxBytes)
        return data.size();
    qsizetype cut = maxBytes;
    // A sequence is at most 4 bytes; in invalid UTF-8 don't back off further than that.
    for (int backed = 0; cut > 0 && backed < 4 && (static_cast<uchar>(data.at(cut)) & 0xC0) == 0x80; ++backed)
        --cut;
    return (static_cast<uchar>(data.at(cut)) & 0xC0) == 0x80 ? maxBytes : cut;
}

ToolResult ReadFileTool::invoke(const QJsonObject &arguments, ToolContext &) const
{
    const QString relativePath = arguments.value(u"path"_s).toString();
    const ResolvedPath resolved = m_workspace.resolve(relativePath);
    if (!resolved.isValid())
        return ToolResult::failure(resolved.error);

    const QFileInfo info(resolved.path);
    if (info.isDir()) {
        return ToolResult::failure(
            u"'%1' is a folder, not a file; use list_directory to see what it contains."_s.arg(relativePath));
    }
    // Pipes, sockets and devices: reading them could block forever or never end.
    if (!info.isFile())
        return ToolResult::failure(u"'%1' is not a regular file and cannot be read."_s.arg(relativePath));

    QFile file(resolved.path);
    if (!file.open(QIODevice::ReadOnly))
        return ToolResult::failure(u"Cannot open '%1': %2"_s.arg(relativePath, file.errorString()));

    // One byte more than shown tells "exactly maxBytes" apart from "cut", even if the size changes meanwhile.
    const QByteArray data = file.read(qMax(m_maxBytes + 1, BinaryProbeBytes));
    if (file.error() != QFileDevice::NoError)
        return ToolResult::failure(u"Cannot read '%1': %2"_s.arg(relativePath, file.errorString()));
    if (data.left(BinaryProbeBytes).contains('\0')) {
        return ToolResult::failure(
            u"'%1' looks like a binary file (it contains NUL bytes); read_file only shows text."_s.arg(
                relativePath));
    }
    if (data.isEmpty())
        return ToolResult::success(u"[the file '%1' is empty]"_s.arg(relativePath));

    const qsizetype shown = utf8Boundary(data, m_maxBytes);
    QStringDecoder decoder(QStringDecoder::Utf8);
    QString content = decoder(QByteArrayView(data).first(shown));
    if (decoder.hasError())
        content += u"\n[note: the file is not valid UTF-8; undecodable bytes are shown as \uFFFD]"_s;
    if (shown < data.size()) {
        const qint64 total = qMax(file.size(), qint64(data.size()));
        content += u"\n[truncated: showed %1 of %2 bytes]"_s.arg(shown).arg(total);
    }
    return ToolResult::success(content);
}

} // namespace Loopscope
