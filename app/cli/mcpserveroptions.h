#pragma once

#include "agent/mcp/mcpserverconfig.h"

#include <QCommandLineOption>
#include <QCoreApplication>
#include <QList>
#include <QStringList>

#include <optional>

QT_BEGIN_NAMESPACE
class QCommandLineParser;
QT_END_NAMESPACE

namespace Loopscope::Cli {

/*!
    The MCP servers a headless command uses, chosen the same way by
    `loopscope run` and `loopscope mcp list`: from files in the mcpServers
    format (--mcp-config, repeatable), else the servers enabled in the saved
    settings, narrowed to some by name (--mcp-server). The saved servers come
    without their secret header values: a command line has no keyring to
    unlock, as with the API key.
*/
class McpServerOptions final
{
    Q_DECLARE_TR_FUNCTIONS(McpServerOptions)

public:
    // withNoMcp: also --no-mcp (no server at all, whatever the settings say).
    explicit McpServerOptions(bool withNoMcp);

    void addTo(QCommandLineParser &parser) const;
    // The servers to use; nullopt with *error on a file that cannot be read or an unknown name.
    // Notes about the files (skipped entries, things to check) go to \a notes.
    std::optional<QList<McpServerConfig>> servers(const QCommandLineParser &parser, QStringList *notes,
                                                  QString *error) const;

private:
    bool m_withNoMcp;
    QCommandLineOption m_config;
    QCommandLineOption m_server;
    QCommandLineOption m_noMcp;
};

} // namespace Loopscope::Cli
