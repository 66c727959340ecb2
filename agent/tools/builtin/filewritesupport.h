#pragma once

#include "agent/tools/builtin/workspace.h"

#include <QByteArray>
#include <QString>

namespace Loopscope::FileWriteSupport {

// What write_file and edit_file share: the key that orders two writes of the
// same file, the refusal of targets that are not text files, and the atomic write.

// The resolved path as an ordering key: "file:" + path; empty when the path is refused.
QString exclusiveKey(const Workspace &workspace, const QString &relativePath);

// Why an existing path cannot be written as a text file (a folder, a device,
// a binary file), in words for the model; empty when it can, or does not exist.
QString targetProblem(const QString &path, const QString &relativePath);

// Writes data to path atomically (QSaveFile), creating missing parent folders
// (which resolveForWriting() has checked lie inside). Empty on success, else why not.
QString writeAtomically(const QString &path, const QByteArray &data);

} // namespace Loopscope::FileWriteSupport
