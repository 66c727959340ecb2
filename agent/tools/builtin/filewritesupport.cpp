#include "agent/tools/builtin/filewritesupport.h"

#include "agent/tools/builtin/readfiletool.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace Loopscope::FileWriteSupport {

QString exclusiveKey(const Workspace &workspace, const QString &relativePath)
{
    const ResolvedPath resolved = workspace.resolveForWriting(relativePath);
    return resolved.isValid() ? u"file:"_s + resolved.path : QString();
}

QString targetProblem(const QString &path, const QString &relativePath)
{
    const QFileInfo info(path);
    if (!info.exists())
        return {};
    if (info.isDir())
        return u"'%1' is a folder; give the path of a file."_s.arg(relativePath);
    if (!info.isFile())
        return u"'%1' is not a regular file (a pipe, socket or device) and cannot be written."_s.arg(
            relativePath);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return u"Cannot open '%1': %2"_s.arg(relativePath, file.errorString());
    // As read_file decides: a NUL byte near the start means binary.
    if (file.read(ReadFileTool::BinaryProbeBytes).contains('\0')) {
        return u"'%1' is a binary file (it contains NUL bytes); only text files can be written or "
               "edited."_s.arg(relativePath);
    }
    return {};
}

QString writeAtomically(const QString &path, const QByteArray &data)
{
    const QString folder = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(folder))
        return u"Cannot create the folder '%1'."_s.arg(QFileInfo(folder).fileName());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return file.errorString();
    if (file.write(data) != data.size()) {
        const QString error = file.errorString();
        file.cancelWriting();
        return error;
    }
    if (!file.commit())
        return file.errorString();
    return {};
}

} // namespace Loopscope::FileWriteSupport
