#pragma once

#include <QCoreApplication>
#include <QProcess>
#include <QString>

#include <optional>

namespace Loopscope::Bench {

/*!
    loopscope-bench-server as a child process: for one-command runs, and so that the
    server's memory is not counted with the client's. It prints "listening on
    PORT" once ready; it is stopped when this goes.
*/
class SpawnedServer final
{
public:
    ~SpawnedServer()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(3000))
            m_process.kill();
        m_process.waitForFinished(1000);
    }

    // Blocks until the server reported its port; before the event loop runs, so nothing waits on us.
    std::optional<quint16> start(QString *error)
    {
        const QString program
            = QCoreApplication::applicationDirPath() + QStringLiteral("/loopscope-bench-server");
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.start(program, {QStringLiteral("--port"), QStringLiteral("0")});
        if (!m_process.waitForStarted(5000)) {
            *error = QStringLiteral("cannot start %1: %2").arg(program, m_process.errorString());
            return std::nullopt;
        }
        QByteArray output;
        while (!output.contains('\n')) {
            if (!m_process.waitForReadyRead(5000)) {
                *error = QStringLiteral("%1 did not report its port").arg(program);
                return std::nullopt;
            }
            output += m_process.readAllStandardOutput();
        }
        const QByteArray line = output.left(output.indexOf('\n')).trimmed();
        bool ok = false;
        const uint port = line.startsWith("listening on ") ? line.mid(13).toUInt(&ok) : 0;
        if (!ok || port == 0 || port > 65535) {
            *error = QStringLiteral("unexpected first line from the server: %1").arg(QString::fromUtf8(line));
            return std::nullopt;
        }
        return quint16(port);
    }

private:
    QProcess m_process;
};

} // namespace Loopscope::Bench
