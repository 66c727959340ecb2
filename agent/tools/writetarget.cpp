#include "agent/tools/writetarget.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace Loopscope {

WriteTarget resolveWriteTarget(const Workspace &workspace, const QString &relativePath)
{
    WriteTarget target;
    if (relativePath.isEmpty() || relativePath == u"."_s) {
        target.error = u"A file path is needed, not the workspace folder itself."_s;
        return target;
    }
    if (const QString error = Workspace::lexicalError(relativePath); !error.isEmpty()) {
        target.error = error;
        return target;
    }
    const ResolvedPath existing = workspace.resolve(relativePath);
    if (existing.isValid()) {
        target.filePath = existing.path;
        target.folder = QFileInfo(existing.path).absolutePath();
        target.exists = true;
        return target;
    }
    const QString root = workspace.canonicalRoot();
    if (root.isEmpty()) {
        target.error = existing.error;
        return target;
    }
    // Missing: its parents may be missing too. The nearest one that exists
    // decides where the file lands; the rest are plain names, created later.
    const QString clean = QDir::cleanPath(QString(relativePath).replace(u'\\', u'/'));
    if (QFileInfo(root + u'/' + clean).isSymLink()) { // a dangling link: writing would follow it
        target.error = existing.error;
        return target;
    }
    QString folder = QFileInfo(clean).path();
    while (folder != u"."_s && !QFileInfo::exists(root + u'/' + folder))
        folder = QFileInfo(folder).path();
    const ResolvedPath parent = workspace.resolve(folder);
    if (!parent.isValid()) {
        target.error = parent.error;
        return target;
    }
    if (!QFileInfo(parent.path).isDir()) {
        target.error = u"'%1' is not a folder, so '%2' cannot be created in it."_s.arg(folder, relativePath);
        return target;
    }
    const QString rest = folder == u"."_s ? clean : clean.mid(folder.size() + 1);
    target.filePath = parent.path + u'/' + rest;
    target.folder = QFileInfo(target.filePath).absolutePath();
    return target;
}

} // namespace Loopscope
