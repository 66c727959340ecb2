#include "tests/mcp/mcptestservers.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

using namespace Qt::StringLiterals;

namespace Loopscope::McpTestServers {

QString modulesDirectory()
{
    return qEnvironmentVariable("LOOPSCOPE_MCP_SERVERS");
}

QString nodeProgram()
{
    return QStandardPaths::findExecutable(u"node"_s);
}

QString pythonProgram()
{
    return QStandardPaths::findExecutable(u"python3"_s);
}

QString everythingScript()
{
    return modulesDirectory() + u"/@modelcontextprotocol/server-everything/dist/index.js"_s;
}

QString filesystemScript()
{
    return modulesDirectory() + u"/@modelcontextprotocol/server-filesystem/dist/index.js"_s;
}

QString faultServerScript()
{
    return QStringLiteral(LOOPSCOPE_MCP_TEST_SOURCE_DIR) + u"/faultserver.py"_s;
}

QString unavailableReason()
{
    if (modulesDirectory().isEmpty())
        return u"LOOPSCOPE_MCP_SERVERS is not set: run the test through ctest (fixture mcp_servers)"_s;
    if (nodeProgram().isEmpty())
        return u"node is not installed"_s;
    for (const QString &script : {everythingScript(), filesystemScript()}) {
        if (!QFileInfo::exists(script))
            return u"%1 is missing: the mcp_servers_install test did not run or failed"_s.arg(script);
    }
    return {};
}

McpServerConfig everythingStdio(const QString &name)
{
    McpServerConfig config;
    config.name = name;
    config.command = nodeProgram();
    config.arguments = {everythingScript(), u"stdio"_s};
    return config;
}

McpServerConfig filesystemStdio(const QString &folder, const QString &name)
{
    McpServerConfig config;
    config.name = name;
    config.command = nodeProgram();
    config.arguments = {filesystemScript(), folder};
    return config;
}

McpServerConfig faultServer(const QString &mode, const QString &name)
{
    McpServerConfig config;
    config.name = name;
    config.command = pythonProgram();
    config.arguments = {u"-u"_s, faultServerScript(), mode};
    return config;
}

McpServerConfig httpServer(quint16 port, const QString &name)
{
    McpServerConfig config;
    config.name = name;
    config.transport = McpServerConfig::Transport::Http;
    config.url = QUrl(u"http://127.0.0.1:%1/mcp"_s.arg(port));
    return config;
}

quint16 freePort()
{
    QTcpServer server;
    if (!server.listen(QHostAddress::LocalHost, 0))
        return 0;
    return server.serverPort();
}

quint16 startAuthServer(QProcess &process, const QString &mode, QString *error)
{
    const quint16 port = freePort();
    process.start(pythonProgram(),
                  {u"-u"_s, QStringLiteral(LOOPSCOPE_MCP_TEST_SOURCE_DIR) + u"/authserver.py"_s,
                   QString::number(port), mode});
    if (!process.waitForReadyRead(10'000)) {
        if (error)
            *error = u"the auth server did not start: "_s + QString::fromUtf8(process.readAllStandardError());
        return 0;
    }
    return port;
}

McpServerConfig authServer(quint16 port, const QString &name)
{
    return httpServer(port, name);
}

quint16 startEverythingHttp(QProcess &process, QString *error, int timeoutMs)
{
    const quint16 port = freePort();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"PORT"_s, QString::number(port));
    process.setProcessEnvironment(environment);
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(nodeProgram(), {everythingScript(), u"streamableHttp"_s});
    if (!process.waitForStarted(5000)) {
        if (error)
            *error = u"node did not start: "_s + process.errorString();
        return 0;
    }
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, port);
        if (socket.waitForConnected(200))
            return port;
        if (process.state() != QProcess::Running) {
            if (error)
                *error = u"server-everything exited (code %1) before listening"_s.arg(process.exitCode());
            return 0;
        }
        QTest::qWait(100);
    }
    if (error)
        *error = u"server-everything did not listen on port %1 within %2 ms"_s.arg(port).arg(timeoutMs);
    return 0;
}

} // namespace Loopscope::McpTestServers
