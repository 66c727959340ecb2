#pragma once

#include "agent/mcp/mcpserverconfig.h"

#include <QString>

QT_BEGIN_NAMESPACE
class QProcess;
QT_END_NAMESPACE

namespace Loopscope::McpTestServers {

/*!
    Where the MCP servers the tests run against live: the pinned npm
    reference servers that the mcp_servers_install fixture put under
    $LOOPSCOPE_MCP_SERVERS, and the fault server of tests/mcp. Shared by
    every MCP test executable (client, hub, session).
*/

// $LOOPSCOPE_MCP_SERVERS: the node_modules folder with the reference servers; empty when unset.
QString modulesDirectory();
// Why the servers cannot be used (no variable, no node, a missing script); empty when they can.
QString unavailableReason();
QString nodeProgram();
QString everythingScript();  // …/server-everything/dist/index.js
QString filesystemScript();  // …/server-filesystem/dist/index.js
QString faultServerScript(); // tests/mcp/faultserver.py
QString pythonProgram();

// A stdio configuration for server-everything, server-filesystem (allowed to see `folder`) and the fault
// server.
McpServerConfig everythingStdio(const QString &name = QStringLiteral("everything"));
McpServerConfig filesystemStdio(const QString &folder, const QString &name = QStringLiteral("filesystem"));
McpServerConfig faultServer(const QString &mode, const QString &name = QStringLiteral("fault"));
McpServerConfig httpServer(quint16 port, const QString &name = QStringLiteral("everything-http"));

// A TCP port on 127.0.0.1 nobody listens on right now.
quint16 freePort();
// Starts server-everything in streamableHttp mode on a free port and waits (at most timeoutMs)
// until the port accepts connections. `process` must be new (not started). Returns the port, 0 on failure.
quint16 startEverythingHttp(QProcess &process, QString *error = nullptr, int timeoutMs = 20'000);

// Starts tests/mcp/authserver.py (an MCP server behind OAuth) in \a mode on a free port and waits
// until it says it is ready. Returns the port, 0 on failure (with \a error saying why).
quint16 startAuthServer(QProcess &process, const QString &mode, QString *error = nullptr);
// An HTTP configuration for that server.
McpServerConfig authServer(quint16 port, const QString &name = QStringLiteral("auth"));

} // namespace Loopscope::McpTestServers
