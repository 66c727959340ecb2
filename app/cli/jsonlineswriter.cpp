#include "app/cli/jsonlineswriter.h"

#include <QJsonDocument>

#include <cstdio>

namespace Loopscope::Cli {

bool JsonLinesWriter::open(const QString &path)
{
    if (path == u"-")
        return m_file.open(stdout, QIODevice::WriteOnly | QIODevice::Unbuffered);
    m_file.setFileName(path);
    return m_file.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Unbuffered);
}

void JsonLinesWriter::write(const QJsonObject &object)
{
    QByteArray line = QJsonDocument(object).toJson(QJsonDocument::Compact);
    line.append('\n');
    m_file.write(line);
}

} // namespace Loopscope::Cli
