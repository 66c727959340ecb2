#pragma once

#include <QByteArray>
#include <QString>

namespace Loopscope {

/*!
    Writes \a bytes to \a path whole or not at all (QSaveFile): a full disk or
    a crash halfway leaves the previous file as it was, never half of a new
    one. On failure returns false and sets *error to why, in words the caller
    can put after "cannot be written: ".
*/
bool writeFileAtomically(const QString &path, const QByteArray &bytes, QString *error = nullptr);

} // namespace Loopscope
