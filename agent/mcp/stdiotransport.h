#pragma once

#include "agent/mcp/mcptransport.h"

#include <QByteArray>
#include <QMap>
#include <QProcess>
#include <QSet>
#include <QStringList>

namespace Loopscope {

/*!
    An MCP server as a child process: one JSON-RPC message per line on its
    stdin and stdout, its stderr a log. Lines on stdout that are not JSON-RPC
    are logged and skipped rather than ending the connection; a line longer
    than the response size limit fails the request it answers at once. Shutting down
    closes stdin, then sends SIGTERM, then SIGKILL, each after a grace period,
    without blocking the thread. The server runs in a process group of its
    own and the signals go to the whole group, so what a wrapper (sh -c, npx,
    uvx) started ends too; once the server's own process ended, the rest of
    its group is killed. On Linux the direct child also gets SIGTERM when the
    thread that started it dies.
*/
class StdioTransport final : public McpTransport
{
    Q_OBJECT

public:
    StdioTransport(QString program, QStringList arguments, QMap<QString, QString> environment,
                   QString workingDirectory, QObject *parent = nullptr);
    ~StdioTransport() override;

    void open() override;
    void send(const QJsonObject &message) override;
    void shutdown() override;

    qint64 processId() const;
    bool isRunning() const;
    // Ends the process now, waiting at most a few seconds: for destructors only.
    void terminateBlocking();

    static constexpr int GraceMs = 2000;

private:
    void readStdout();
    void readStderr();
    void handleLine(const QByteArray &line);
    void dropLongLine();
    void onFinished(int exitCode);
    void onErrorOccurred(QProcess::ProcessError error);
    // SIGTERM or SIGKILL to the server's process group (the process alone without groups).
    void signalGroup(bool kill);
    void terminateGroup();
    void killGroup();

    QString m_program;
    QStringList m_arguments;
    QMap<QString, QString> m_environment;
    QString m_workingDirectory;
    QProcess *m_process = nullptr;
    qint64 m_group = 0;         // the server's process group: its pid, once started
    QByteArray m_pendingWrites; // written once the process has started
    QByteArray m_stdoutBuffer;
    QSet<qint64> m_waiting;  // ids of the requests sent and not yet answered
    bool m_skipLine = false; // the rest of a line too long to keep is skipped
    QByteArray m_stderrBuffer;
    bool m_shuttingDown = false;
    bool m_closedEmitted = false;
};

} // namespace Loopscope
