#include "agent/transcript/atomicfile.h"

#include <QSaveFile>

namespace Loopscope {

bool writeFileAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile file(path);
    // Once open, a failed write makes commit() discard the temporary file.
    const bool written
        = file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size() && file.commit();
    if (!written && error)
        *error = file.errorString();
    return written;
}

} // namespace Loopscope
