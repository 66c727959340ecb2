#include "app/cli/jsonlineswriter.h"

#include <QJsonDocument>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace Loopscope::Cli {

bool JsonLinesWriter::open(const QString &path)
{
    if (path == u"-")
        return m_file.open(stdout, QIODevice::WriteOnly | QIODevice::Unbuffered);
    m_file.setFileName(path);
    return m_file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Unbuffered);
}

bool JsonLinesWriter::write(const QJsonObject &object)
{
    if (!m_file.isOpen())
        return false;
    QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
    line.append('\n');
    // A short write (the disk filled up) returns fewer bytes without an error: the next write
    // fails and tells why.
    // stdout goes through C's buffer: the flush is the write that can fail.
    qint64 done = 0;
    while (done < line.size()) {
        errno = 0;
        const qint64 written = m_file.write(line.constData() + done, line.size() - done);
        if (written <= 0)
            return fail(errno);
        done += written;
    }
    errno = 0;
    if (!m_file.flush())
        return fail(errno);
    return true;
}

bool JsonLinesWriter::fail(int cause)
{
    m_writeError = cause != 0 ? QString::fromLocal8Bit(std::strerror(cause)) : m_file.errorString();
    m_file.close();
    return false;
}

} // namespace Loopscope::Cli
