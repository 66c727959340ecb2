#include "app/cli/mcpserveroptions.h"

#include "agent/mcp/mcpconfigimport.h"
#include "agent/mcp/mcpsettings.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QSettings>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

McpServerOptions::McpServerOptions(bool withNoMcp)
    : m_withNoMcp(withNoMcp)
    , m_config(u"mcp-config"_s,
               tr("Use the MCP servers of this file ({\"mcpServers\": {…}}, as Claude Desktop and .mcp.json "
                  "write it); repeatable. Without it: the servers enabled in the saved settings."),
               u"file"_s)
    , m_url(u"mcp-url"_s,
            tr("Also use the Streamable HTTP MCP server at this URL, named after its host:port "
               "(e.g. 127.0.0.1:8080); repeatable. Without --mcp-config: instead of the saved servers."),
            u"url"_s)
    , m_server(u"mcp-server"_s, tr("Use only this MCP server; repeatable."), u"name"_s)
    , m_noMcp(u"no-mcp"_s, tr("Use no MCP server, not even the saved ones."))
{}

void McpServerOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOption(m_config);
    parser.addOption(m_url);
    parser.addOption(m_server);
    if (m_withNoMcp)
        parser.addOption(m_noMcp);
}

std::optional<QList<McpServerConfig>> McpServerOptions::servers(const QCommandLineParser &parser,
                                                                QStringList *notes, QString *error) const
{
    if (m_withNoMcp && parser.isSet(m_noMcp)) {
        if (parser.isSet(m_config) || parser.isSet(m_url) || parser.isSet(m_server)) {
            *error = tr("--no-mcp cannot be combined with --mcp-config, --mcp-url or --mcp-server");
            return std::nullopt;
        }
        return QList<McpServerConfig>();
    }

    QList<McpServerConfig> servers;
    const QStringList files = parser.values(m_config);
    const QStringList urls = parser.values(m_url);
    if (!files.isEmpty() || !urls.isEmpty()) {
        QStringList names;
        for (const QString &file : files) {
            const McpConfigImport imported = McpConfigImport::fromFile(file);
            if (!imported.error.isEmpty()) {
                *error = imported.error;
                return std::nullopt;
            }
            *notes += imported.notes;
            for (const McpServerConfig &server : imported.servers) {
                if (names.contains(server.name)) {
                    *error = tr("the MCP server \"%1\" is configured twice (in \"%2\" again)")
                                 .arg(server.name, file);
                    return std::nullopt;
                }
                names.append(server.name);
                servers.append(server);
            }
        }
        for (const QString &text : urls) {
            const QUrl url = QUrl::fromUserInput(text.trimmed());
            if (!url.isValid() || url.host().isEmpty()
                || (url.scheme() != u"http"_s && url.scheme() != u"https"_s)) {
                *error = tr("--mcp-url takes an http:// or https:// address, not \"%1\"").arg(text);
                return std::nullopt;
            }
            McpServerConfig server;
            server.name = nameForUrl(url);
            server.transport = McpServerConfig::Transport::Http;
            server.url = url;
            if (names.contains(server.name)) {
                *error = tr("the MCP server \"%1\" is configured twice (--mcp-url \"%2\")")
                             .arg(server.name, text);
                return std::nullopt;
            }
            names.append(server.name);
            servers.append(server);
        }
    } else {
        QSettings settings;
        const QList<McpServerConfig> saved = McpSettings(&settings).servers(notes);
        for (const McpServerConfig &server : saved) {
            if (!server.enabled)
                continue;
            if (!server.secretHeaderNames().isEmpty())
                notes->append(
                    tr("the saved MCP server \"%1\" is used without its secret headers: the command "
                       "line reads no keychain (use --mcp-config)")
                        .arg(server.name));
            servers.append(server);
        }
    }

    const QStringList wanted = parser.values(m_server);
    if (wanted.isEmpty()) {
        servers.removeIf([](const McpServerConfig &server) { return !server.enabled; });
        return servers;
    }
    QList<McpServerConfig> chosen;
    QStringList available;
    for (const McpServerConfig &server : std::as_const(servers))
        available.append(server.name);
    for (const QString &name : wanted) {
        const qsizetype index = available.indexOf(name);
        if (index < 0) {
            *error = available.isEmpty() ? tr("there is no MCP server \"%1\": none is configured").arg(name)
                                         : tr("there is no MCP server \"%1\": the servers are %2")
                                               .arg(name, available.join(u", "_s));
            return std::nullopt;
        }
        McpServerConfig server = servers.at(index);
        server.enabled = true;
        if (!chosen.contains(server))
            chosen.append(server);
    }
    return chosen;
}

McpElicitationAnswer McpServerOptions::answerWithoutUser(const McpElicitation &request, bool approveAll)
{
    // A page to open needs a person at the screen: never opened unattended.
    if (!approveAll || request.isUrl())
        return {McpElicitationAnswer::Action::Decline, {}};
    const QJsonObject properties = request.requestedSchema.value(u"properties"_s).toObject();
    QJsonObject content;
    for (auto it = properties.constBegin(); it != properties.constEnd(); ++it) {
        const QJsonObject field = it.value().toObject();
        if (field.contains(u"default"_s))
            content.insert(it.key(), field.value(u"default"_s));
    }
    const QJsonArray required = request.requestedSchema.value(u"required"_s).toArray();
    for (const QJsonValue &name : required) {
        if (!content.contains(name.toString()))
            return {McpElicitationAnswer::Action::Decline, {}};
    }
    return {McpElicitationAnswer::Action::Accept, content};
}

QString McpServerOptions::nameForUrl(const QUrl &url)
{
    const QString host = url.host().contains(u':') ? u'[' + url.host() + u']' : url.host();
    return host + u':' + QString::number(url.port(url.scheme() == u"https"_s ? 443 : 80));
}

} // namespace Loopscope::Cli
