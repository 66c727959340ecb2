#pragma once

#include <QByteArray>
#include <QString>

namespace Loopscope {

/*!
    Writes \a bytes to \a path whole or not at all (QSaveFile): a full disk or
    a crash halfway leaves the previous file as it was, never half of a new
    one. A file that is read-only (no write permission bit) is refused, not
    replaced, even for root. On failure returns false and sets *error to the
    real cause (the system's words for errno where Qt loses them, "No space
    left on device"), in words the caller can put after "cannot be written: ".
*/
bool writeFileAtomically(const QString &path, const QByteArray &bytes, QString *error = nullptr);

} // namespace Loopscope
