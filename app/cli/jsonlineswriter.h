#pragma once

#include <QFile>
#include <QJsonObject>

namespace Loopscope::Cli {

/*!
    Writes one compact JSON object per line to a file or to stdout ("-"),
    flushed as it goes, so a reader can follow the stream live.
*/
class JsonLinesWriter final
{
public:
    bool open(const QString &path);
    bool isOpen() const { return m_file.isOpen(); }
    QString errorString() const { return m_file.errorString(); }
    void write(const QJsonObject &object);

private:
    QFile m_file;
};

} // namespace Loopscope::Cli
