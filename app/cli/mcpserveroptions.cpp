#include "app/cli/mcpserveroptions.h"

#include "agent/config/filesecretstore.h"
#include "agent/config/secretstore.h"
#include "agent/mcp/mcpconfigimport.h"
#include "agent/mcp/mcpsettings.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QSettings>

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

namespace {

// The keychain, noting whether it found none: a desktop without one is said once for all the
// saved servers, not once for each of their secrets.
class NoKeychainNoticingStore final : public SecretStore
{
public:
    explicit NoKeychainNoticingStore(SecretStore *keychain)
        : m_keychain(keychain)
    {}

    bool foundNone() const { return m_foundNone; }

    void read(const QString &account, QObject *context, ReadCallback done) override
    {
        m_keychain->read(account, context, [this, done = std::move(done)](const Result &result) {
            if (result.problem == Problem::NoKeychain)
                m_foundNone = true;
            done(result);
        });
    }
    void write(const QString &account, const QString &secret, QObject *context, WriteCallback done) override
    {
        m_keychain->write(account, secret, context, std::move(done));
    }
    void remove(const QString &account, QObject *context, WriteCallback done) override
    {
        m_keychain->remove(account, context, std::move(done));
    }
    SecretStore *keyFile() const override { return m_keychain->keyFile(); }

private:
    SecretStore *m_keychain;
    bool m_foundNone = false;
};

struct LoadedSecrets
{
    QList<McpServerConfig> servers;
    QStringList errors;
};

// McpSettings::loadSecrets() run to its end before anything starts. The command has not entered
// its event loop yet, so this is the outermost one, as in `loopscope mcp add`.
LoadedSecrets loadSecrets(const QList<McpServerConfig> &servers, SecretStore *store)
{
    QObject context;
    std::optional<LoadedSecrets> loaded;
    McpSettings::loadSecrets(servers, store, &context,
                             [&loaded](const QList<McpServerConfig> &withSecrets, const QStringList &errors) {
                                 loaded = LoadedSecrets{withSecrets, errors};
                                 QCoreApplication::exit(0);
                             });
    if (!loaded)
        QCoreApplication::exec();
    return loaded.value_or(LoadedSecrets{servers, {}});
}

// The saved servers with the secret values the window keeps for them (header values, variables,
// the OAuth client secret) from the keychain, or from the key file for a server the user put
// there. What cannot be read goes to \a notes and the server starts without it, as in the window.
QList<McpServerConfig> withSavedSecrets(QList<McpServerConfig> servers, QStringList *notes)
{
    const auto hasSecrets = [](const McpServerConfig &server) {
        return !McpSettings::secretAccounts(server).isEmpty();
    };
    if (std::none_of(servers.cbegin(), servers.cend(), hasSecrets))
        return servers; // no keychain to ask, and nothing to say about one

    FileSecretStore keyFile(FileSecretStore::defaultPath());
    KeychainSecretStore keychain;
    keychain.setKeyFile(&keyFile);
    NoKeychainNoticingStore noticing(&keychain);

    // Those in the keychain apart from those in the key file, so "no keychain" replaces only
    // what the keychain would have said.
    QList<qsizetype> inKeychain;
    QList<qsizetype> inKeyFile;
    for (qsizetype index = 0; index < servers.size(); ++index) {
        if (!hasSecrets(servers.at(index)))
            continue;
        (servers.at(index).secretStorage == McpServerConfig::SecretStorage::File ? inKeyFile : inKeychain)
            .append(index);
    }
    const auto load = [&servers, &noticing](const QList<qsizetype> &indexes) {
        QList<McpServerConfig> some;
        for (qsizetype index : indexes)
            some.append(servers.at(index));
        LoadedSecrets loaded = loadSecrets(some, &noticing);
        for (qsizetype i = 0; i < indexes.size() && i < loaded.servers.size(); ++i)
            servers[indexes.at(i)] = loaded.servers.at(i);
        return loaded.errors;
    };

    const QStringList keychainErrors = load(inKeychain);
    if (noticing.foundNone()) {
        QStringList names;
        for (qsizetype index : std::as_const(inKeychain))
            names.append(servers.at(index).name);
        notes->append(McpServerOptions::tr("there is no keychain on this desktop, so the saved MCP servers "
                                           "%1 start without the secrets kept in it (add them again with "
                                           "--key-file, or use --mcp-config)")
                          .arg(names.join(u", "_s)));
    } else {
        *notes += keychainErrors;
    }
    *notes += load(inKeyFile);
    return servers;
}

} // namespace

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
            if (server.enabled)
                servers.append(server);
        }
    }
    // Only the servers this command uses have their secrets read (a keychain may ask to be unlocked).
    const bool saved = files.isEmpty() && urls.isEmpty();
    const auto finish = [saved, notes](const QList<McpServerConfig> &chosen) {
        return saved ? withSavedSecrets(chosen, notes) : chosen;
    };

    const QStringList wanted = parser.values(m_server);
    if (wanted.isEmpty()) {
        servers.removeIf([](const McpServerConfig &server) { return !server.enabled; });
        return finish(servers);
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
    return finish(chosen);
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
