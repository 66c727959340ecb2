#pragma once

#include "agent/tools/builtin/workspace.h"

#include <QString>

namespace Loopscope {

/*!
    Where a write to a workspace-relative path would land, also before the file
    exists: the approval card previews a new file, and a folder-scoped "Always
    allow" asks which folder a call touches. The nearest existing folder on the
    way is resolved through Workspace (symlinks and all), so a path that leaves
    the workspace has no target.
*/
struct WriteTarget
{
    QString filePath; // absolute; canonical when the file exists
    QString folder;   // the canonical folder the file is (or would be) in, once its parents exist
    bool exists = false;
    QString error; // why there is no target; empty when there is one

    bool isValid() const { return error.isEmpty(); }
};

WriteTarget resolveWriteTarget(const Workspace &workspace, const QString &relativePath);

} // namespace Loopscope
