#pragma once

#include <QFile>
#include <QJsonObject>

namespace Loopscope::Cli {

/*!
    Writes one compact JSON object per line to a file or to stdout ("-"),
    flushed as it goes, so a reader can follow the stream live. Every write is
    checked: the first that fails (a full disk) stops the stream, and
    writeError() says why in the system's words, so that the run can report it
    and end with an error instead of leaving a cut file behind in silence.
*/
class JsonLinesWriter final
{
public:
    bool open(const QString &path);
    bool isOpen() const { return m_file.isOpen(); }
    QString errorString() const { return m_file.errorString(); }
    // False once a write failed; the stream is closed then and later lines are dropped.
    bool write(const QJsonObject &object);
    // Why the stream stopped; empty while every line was written.
    QString writeError() const { return m_writeError; }

private:
    bool fail(int cause);

    QFile m_file;
    QString m_writeError;
};

} // namespace Loopscope::Cli
