#pragma once

#include <QString>

namespace Loopscope {

/*! Where a workspace-relative path leads: a canonical absolute path, or why it was refused. */
struct ResolvedPath
{
    QString path;  // canonical (symlinks resolved) and absolute; empty when refused
    QString error; // in words a model can act on; empty when resolved

    bool isValid() const { return error.isEmpty() && !path.isEmpty(); }
    bool operator==(const ResolvedPath &) const = default;
};

/*!
    The folder the file tools are confined to. A model names files relative to
    it; resolve() is the one gate that turns such a name into a real path, and
    it refuses anything that would end up outside, be it by "..", an absolute
    path or a symbolic link. Paths are checked on every call, so a workspace
    whose folder appears later, or is removed, behaves accordingly.
*/
class Workspace final
{
public:
    Workspace() = default;
    explicit Workspace(QString root)
        : m_root(std::move(root))
    {}

    QString root() const { return m_root; } // as configured
    bool isEmpty() const { return m_root.isEmpty(); }
    // The root with symlinks resolved; empty when it does not exist or is no folder.
    QString canonicalRoot() const;

    // "." and "" mean the root. The path must exist.
    ResolvedPath resolve(const QString &relativePath) const;
    // Why a path is refused before the disk is looked at (absolute, "..", NUL); empty when it is not.
    static QString lexicalError(const QString &relativePath);
    // For a file about to be written, which may not exist yet (nor its parent
    // folders): the path it will have, with the deepest existing ancestor's
    // symlinks resolved and checked to lie inside. Refuses the root itself, a
    // symlink whose target is missing (it could lead anywhere once created) and
    // anything resolve() refuses. Missing folders are left to the caller to create.
    ResolvedPath resolveForWriting(const QString &relativePath) const;

    // Whether an existing path, with its symlinks resolved, lies inside the workspace.
    // For entries met while walking folders.
    bool contains(const QString &path) const;

    // How tool output names a path: relative to the root, "." for the root itself.
    static QString relativePath(const QString &canonicalRoot, const QString &path);
    // Plain string test on two canonical paths: equal, or path is below root.
    static bool isWithin(const QString &canonicalRoot, const QString &canonicalPath);

    bool operator==(const Workspace &) const = default;

private:
    QString m_root;
};

} // namespace Loopscope
