#include "agent/tools/builtin/workspace.h"

#include <QDir>
#include <QFileInfo>

using namespace Qt::StringLiterals;

namespace Loopscope {

QString Workspace::canonicalRoot() const
{
    if (m_root.isEmpty())
        return {};
    const QFileInfo info(m_root);
    return info.isDir() ? info.canonicalFilePath() : QString();
}

// Checked on the text before touching the disk: these are refused even where
// they would happen to land inside the workspace, so that the model learns the
// one rule ("relative, no ..") instead of probing what slips through.
QString Workspace::lexicalError(const QString &relativePath)
{
    if (relativePath.contains(QChar(u'\0')))
        return u"'%1' contains a NUL character; give a plain relative path."_s.arg(relativePath);

    // Also refuse Windows forms ("C:\x", "C:x", "\\server\share", "\x"), whatever the host:
    // they are never meant relative to the workspace.
    const bool driveLetter = relativePath.size() >= 2 && relativePath.at(1) == u':'
                             && relativePath.at(0).isLetter() && relativePath.at(0).unicode() < 128;
    if (relativePath.startsWith(u'/') || relativePath.startsWith(u'\\') || driveLetter
        || QDir::isAbsolutePath(relativePath)) {
        return u"'%1' is an absolute path; give a path relative to the workspace root, "
               "such as 'src/main.cpp', or '.' for the root itself."_s.arg(relativePath);
    }

    // Backslashes count as separators here so that "a\..\..\x" is refused on every platform.
    const QStringList parts = QString(relativePath).replace(u'\\', u'/').split(u'/');
    if (parts.contains(u".."_s)) {
        return u"'%1' contains '..'; paths must stay inside the workspace, so give them "
               "relative to its root without '..'."_s.arg(relativePath);
    }
    return {};
}

ResolvedPath Workspace::resolve(const QString &relativePath) const
{
    if (m_root.isEmpty())
        return {{}, u"No workspace folder is configured, so files cannot be accessed."_s};
    const QString root = canonicalRoot();
    if (root.isEmpty())
        return {{}, u"The workspace folder '%1' does not exist or is not a folder."_s.arg(m_root)};

    if (relativePath.isEmpty() || relativePath == u".")
        return {root, {}};
    if (QString error = lexicalError(relativePath); !error.isEmpty())
        return {{}, error};

    // canonicalFilePath() resolves every symlink on the way and is empty for
    // anything missing, including a symlink whose target is missing.
    const QString canonical = QFileInfo(root + u'/' + relativePath).canonicalFilePath();
    if (canonical.isEmpty()) {
        return {{},
                u"'%1' was not found in the workspace. Use list_directory to see what exists."_s.arg(
                    relativePath)};
    }
    if (!isWithin(root, canonical)) {
        return {{},
                u"'%1' leads outside the workspace (through a symbolic link) and cannot be "
                "accessed."_s.arg(relativePath)};
    }
    return {canonical, {}};
}

ResolvedPath Workspace::resolveForWriting(const QString &relativePath) const
{
    if (m_root.isEmpty())
        return {{}, u"No workspace folder is configured, so files cannot be written."_s};
    const QString root = canonicalRoot();
    if (root.isEmpty())
        return {{}, u"The workspace folder '%1' does not exist or is not a folder."_s.arg(m_root)};
    if (QString error = lexicalError(relativePath); !error.isEmpty())
        return {{}, error};

    QStringList parts = QString(relativePath).replace(u'\\', u'/').split(u'/', Qt::SkipEmptyParts);
    parts.removeAll(u"."_s);
    if (parts.isEmpty()) {
        return {{},
                u"'%1' is the workspace folder itself; give the path of a file inside it, such as "
                "'notes.txt'."_s.arg(relativePath)};
    }

    // Walk down from the root while the components exist, resolving each
    // existing step (and its symlinks); what is left is created later.
    QString existing = root;
    qsizetype depth = 0;
    for (; depth < parts.size(); ++depth) {
        const QFileInfo step(existing + u'/' + parts.at(depth));
        if (step.isSymLink() && !step.exists()) {
            return {{},
                    u"'%1' goes through the symbolic link '%2', whose target is missing; it cannot be "
                    "written through."_s.arg(relativePath, parts.mid(0, depth + 1).join(u'/'))};
        }
        if (!step.exists())
            break;
        existing = step.canonicalFilePath();
        if (!isWithin(root, existing)) {
            return {{},
                    u"'%1' leads outside the workspace (through a symbolic link) and cannot be "
                    "written."_s.arg(relativePath)};
        }
        if (depth + 1 < parts.size() && !QFileInfo(existing).isDir()) {
            return {{},
                    u"'%1' cannot be created: '%2' is a file, not a folder."_s.arg(
                        relativePath, parts.mid(0, depth + 1).join(u'/'))};
        }
    }
    const QStringList missing = parts.mid(depth);
    return {missing.isEmpty() ? existing : existing + u'/' + missing.join(u'/'), {}};
}

bool Workspace::contains(const QString &path) const
{
    const QString root = canonicalRoot();
    if (root.isEmpty())
        return false;
    return isWithin(root, QFileInfo(path).canonicalFilePath());
}

QString Workspace::relativePath(const QString &canonicalRoot, const QString &path)
{
    const QString relative = QDir(canonicalRoot).relativeFilePath(path);
    return relative.isEmpty() ? u"."_s : relative;
}

bool Workspace::isWithin(const QString &canonicalRoot, const QString &canonicalPath)
{
    if (canonicalRoot.isEmpty() || canonicalPath.isEmpty())
        return false;
    if (canonicalPath == canonicalRoot)
        return true;
    // Compare whole components: "/work/space2" is not inside "/work/space".
    // A root of "/" already ends with the separator.
    const QString prefix = canonicalRoot.endsWith(u'/') ? canonicalRoot : canonicalRoot + u'/';
    return canonicalPath.startsWith(prefix);
}

} // namespace Loopscope
