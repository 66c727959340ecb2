#pragma once

#include "agent/mcp/mcpserverconfig.h"

#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace Loopscope {

/*!
    A new MCP server described outside Settings: by the arguments of
    `loopscope mcp add`, or by a loopscope://mcp/install link a web page
    offers. Either way the result is an ordinary McpServerConfig, on and asking
    before every tool call, for McpSettings::add(); a link cannot approve a tool
    in advance, and nothing is added before the user has seen shellCommand().
*/
struct McpServerInstall
{
    // A link's server and what the user should check about it (placeholders, an envFile, …).
    struct FromLink
    {
        McpServerConfig server;
        QStringList notes;
    };

    // `mcp add NAME -- COMMAND ARGS…` with --env KEY=VALUE each; nullopt and *error on bad input.
    static std::optional<McpServerConfig> command(const QString &name, const QStringList &commandLine,
                                                  const QStringList &environment, QString *error);
    // `mcp add NAME --url URL` with --header 'Key: Value' each.
    static std::optional<McpServerConfig> http(const QString &name, const QString &url,
                                               const QStringList &headers, QString *error);

    // loopscope://mcp/install?config=<base64url JSON>: the JSON is one entry as .mcp.json writes it
    // ({"command", "args", "env"} or {"url", "headers"}), named by its "name" or the link's name=.
    static bool isInstallLink(const QUrl &url);
    static std::optional<FromLink> fromLink(const QUrl &link, QString *error);
    // The link that installs \a entry (the JSON of fromLink()), for tests and for pages to copy.
    static QUrl link(const QJsonObject &entry);

    // The command a stdio server runs, as a POSIX shell would take it; characters that could hide
    // what runs (control and formatting characters, e.g. a right-to-left override) are shown escaped.
    static QString shellCommand(const McpServerConfig &server);
    // One word of it, quoted and escaped the same way.
    static QString shellWord(const QString &word);

    // Why \a name cannot name a server (empty, control characters, too long); empty when it can.
    static QString nameProblem(const QString &name);

    // The most a link's decoded JSON may hold.
    static constexpr qsizetype MaxLinkConfigBytes = 64 * 1024;
};

} // namespace Loopscope
