#include "agent/transcript/atomicfile.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstring>

namespace Loopscope {

namespace {

struct AtomicFile
{
    Q_DECLARE_TR_FUNCTIONS(AtomicFile)
};

// Qt's own words where it kept the cause; otherwise the system's for errno. A write cut short by a
// full disk returns fewer bytes without an error, and Qt then says "Unknown error".
QString reasonFor(const QSaveFile &file, int savedErrno)
{
    if (file.error() != QFileDevice::NoError && file.errorString() != u"Unknown error")
        return file.errorString();
    if (savedErrno != 0)
        return QString::fromLocal8Bit(std::strerror(savedErrno));
    return AtomicFile::tr("the data could not be written whole");
}

// QSaveFile replaces a file it may not write to when the folder allows it (root may even replace a
// file no one may write); a file that is read-only for everyone is meant to stay as it is.
bool isReadOnlyFile(const QFileInfo &info)
{
    constexpr QFileDevice::Permissions anyWrite
        = QFileDevice::WriteOwner | QFileDevice::WriteGroup | QFileDevice::WriteOther;
    return info.exists() && !info.isDir() && (!(info.permissions() & anyWrite) || !info.isWritable());
}

} // namespace

bool writeFileAtomically(const QString &path, const QByteArray &bytes, QString *error)
{
    const auto fail = [error](const QString &reason) {
        if (error)
            *error = reason;
        return false;
    };
    if (isReadOnlyFile(QFileInfo(path)))
        return fail(AtomicFile::tr("the file is read-only"));

    QSaveFile file(path);
    errno = 0;
    if (!file.open(QIODevice::WriteOnly))
        return fail(reasonFor(file, errno));
    // A short write is followed by another: that one fails and tells why (ENOSPC, EFBIG).
    // Once a write failed, commit() discards the temporary file and the old file stays.
    qint64 done = 0;
    while (done < bytes.size()) {
        errno = 0;
        const qint64 written = file.write(bytes.constData() + done, bytes.size() - done);
        if (written <= 0)
            return fail(reasonFor(file, errno));
        done += written;
    }
    errno = 0;
    if (!file.flush())
        return fail(reasonFor(file, errno));
    errno = 0;
    if (!file.commit())
        return fail(reasonFor(file, errno));
    return true;
}

} // namespace Loopscope
