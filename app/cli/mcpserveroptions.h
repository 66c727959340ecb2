#pragma once

#include "agent/mcp/mcpclient.h"
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
    `loopscope run`, `loopscope mcp list` and `loopscope mcp call`: from files
    in the mcpServers format (--mcp-config, repeatable) and ad-hoc Streamable
    HTTP endpoints (--mcp-url, repeatable, named after their host:port, for a
    quick check without a file), else the servers enabled in the saved
    settings, narrowed to some by name (--mcp-server). The saved servers get
    their secret values from the keychain the window keeps them in (or the key
    file), so a server added with a secret header works from the command line
    too; without a keychain that is said once and they start without them.
    Nobody is there to fill in a server's form either: answerWithoutUser()
    answers it the way --approve says.
*/
class McpServerOptions final
{
    Q_DECLARE_TR_FUNCTIONS(McpServerOptions)

public:
    // withNoMcp: also --no-mcp (no server at all, whatever the settings say).
    explicit McpServerOptions(bool withNoMcp);

    void addTo(QCommandLineParser &parser) const;
    // The servers to use; nullopt with *error on a file that cannot be read or an unknown name.
    // Notes about the files (skipped entries, things to check) and secrets that could not be read
    // go to \a notes. Reading the saved servers' secrets runs the event loop until the keychain answers.
    std::optional<QList<McpServerConfig>> servers(const QCommandLineParser &parser, QStringList *notes,
                                                  QString *error) const;

    // A form from an MCP server, answered without a user: with \a approveAll, accepted with the
    // fields' default values when every required field has one; otherwise (and a page to open) declined.
    static McpElicitationAnswer answerWithoutUser(const McpElicitation &request, bool approveAll);
    // The name an ad-hoc server of --mcp-url gets: its host:port ("127.0.0.1:8080").
    static QString nameForUrl(const QUrl &url);

private:
    bool m_withNoMcp;
    QCommandLineOption m_config;
    QCommandLineOption m_url;
    QCommandLineOption m_server;
    QCommandLineOption m_noMcp;
};

} // namespace Loopscope::Cli
