#include "agent/mcp/mcpconfigimport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::McpConfigImport)
};

// A JSON scalar as the text a config file meant by it ("port": 8080 → "8080").
std::optional<QString> scalarText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isDouble())
        return QString::number(value.toDouble(), 'g', 17);
    if (value.isBool())
        return value.toBool() ? u"true"_s : u"false"_s;
    return std::nullopt;
}

std::optional<QMap<QString, QString>> stringMap(const QJsonValue &value)
{
    QMap<QString, QString> map;
    if (value.isUndefined() || value.isNull())
        return map;
    if (!value.isObject())
        return std::nullopt;
    const QJsonObject object = value.toObject();
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        const auto text = scalarText(it.value());
        if (!text)
            return std::nullopt;
        map.insert(it.key(), *text);
    }
    return map;
}

std::optional<QStringList> stringList(const QJsonValue &value)
{
    QStringList list;
    if (value.isUndefined() || value.isNull())
        return list;
    if (!value.isArray())
        return std::nullopt;
    for (const QJsonValue &item : value.toArray()) {
        const auto text = scalarText(item);
        if (!text)
            return std::nullopt;
        list.append(*text);
    }
    return list;
}

// Notes for the ${…} placeholders other apps expand and Loopscope does not.
void notePlaceholders(const McpServerConfig &config, QStringList *notes)
{
    QStringList texts{config.command, config.workingDirectory, config.url.toString(QUrl::FullyDecoded)};
    texts += config.arguments;
    texts += config.environment.values();
    texts += config.headers.values();
    static const QRegularExpression placeholder(u"\\$\\{([^}]*)\\}"_s);
    QStringList seen;
    for (const QString &text : std::as_const(texts)) {
        for (auto it = placeholder.globalMatch(text); it.hasNext();) {
            const QString inside = it.next().captured(1);
            if (seen.contains(inside))
                continue;
            seen.append(inside);
            if (inside.startsWith("input:"_L1))
                notes->append(Tr::tr("“%1” uses ${%2}, which VS Code asks for when it starts the server: "
                                     "edit the server and put the value in its place.")
                                  .arg(config.name, inside));
            else if (inside == "workspaceFolder"_L1)
                notes->append(Tr::tr("“%1” uses ${workspaceFolder}: edit the server and put the folder in "
                                     "its place.")
                                  .arg(config.name));
            else
                notes->append(Tr::tr("“%1” uses ${%2}, which Loopscope does not expand: edit the server and "
                                     "put the value in its place.")
                                  .arg(config.name, inside));
        }
    }
}

// One entry of mcpServers/servers; nullopt (with a note) when it cannot be used.
std::optional<McpServerConfig> importEntry(const QString &name, const QJsonValue &value, QStringList *notes)
{
    const auto skip = [&](const QString &why) -> std::optional<McpServerConfig> {
        notes->append(Tr::tr("Skipped “%1”: %2").arg(name, why));
        return std::nullopt;
    };
    if (name.trimmed().isEmpty())
        return skip(Tr::tr("a server needs a name."));
    if (!value.isObject())
        return skip(Tr::tr("its entry is not an object."));
    const QJsonObject entry = value.toObject();

    McpServerConfig config;
    config.name = name.trimmed();
    config.enabled = !entry.value("disabled"_L1).toBool(false);
    config.defaultApproval = u"ask"_s;

    const QString type = entry.value("type"_L1).toString().toLower();
    const QString command = entry.value("command"_L1).toString().trimmed();
    const QString url = entry.value("url"_L1).toString(entry.value("serverUrl"_L1).toString()).trimmed();

    if (type == "sse"_L1)
        return skip(Tr::tr("it uses the old HTTP+SSE transport, which Loopscope does not support. If the "
                           "server also offers Streamable HTTP, add it by hand with that URL."));
    const bool http = type == "http"_L1 || type == "streamablehttp"_L1 || type == "streamable-http"_L1
                      || (type.isEmpty() && command.isEmpty() && !url.isEmpty());
    if (!type.isEmpty() && !http && type != "stdio"_L1)
        return skip(Tr::tr("its type “%1” is unknown.").arg(entry.value("type"_L1).toString()));

    if (http) {
        config.transport = McpServerConfig::Transport::Http;
        if (url.isEmpty())
            return skip(Tr::tr("it has no URL."));
        config.url = QUrl(url);
        if (!config.url.isValid()
            || (config.url.scheme() != "http"_L1 && config.url.scheme() != "https"_L1
                && !url.contains("${"_L1)))
            return skip(Tr::tr("its URL “%1” is not an http:// or https:// address.").arg(url));
        const auto headers = stringMap(entry.value("headers"_L1));
        if (!headers)
            return skip(Tr::tr("its headers are not an object of strings."));
        config.headers = *headers;
        QString oauthError;
        const auto oauth = McpOAuthSettings::fromJson(entry.value("oauth"_L1), &oauthError);
        if (!oauth)
            return skip(Tr::tr("it %1").arg(oauthError));
        config.oauth = *oauth;
        if (type.isEmpty() && config.url.path().endsWith("/sse"_L1))
            notes->append(Tr::tr("“%1” has a URL ending in /sse, which usually means the old HTTP+SSE "
                                 "transport Loopscope does not support; it was imported as Streamable HTTP.")
                              .arg(config.name));
    } else {
        config.transport = McpServerConfig::Transport::Stdio;
        if (command.isEmpty())
            return skip(Tr::tr("it has neither a command nor a URL."));
        config.command = command;
        const auto arguments = stringList(entry.value("args"_L1));
        if (!arguments)
            return skip(Tr::tr("its args are not a list of strings."));
        config.arguments = *arguments;
        const auto environment = stringMap(entry.value("env"_L1));
        if (!environment)
            return skip(Tr::tr("its env is not an object of strings."));
        config.environment = *environment;
        config.workingDirectory = entry.value("cwd"_L1).toString();
        if (entry.contains("envFile"_L1))
            notes->append(Tr::tr("“%1” reads variables from an envFile, which Loopscope does not: add them "
                                 "to its environment by hand.")
                              .arg(config.name));
    }
    notePlaceholders(config, notes);
    return config;
}

} // namespace

McpConfigImport McpConfigImport::fromJson(const QByteArray &json, const QString &sourceName)
{
    McpConfigImport result;
    if (json.trimmed().isEmpty()) {
        result.error = Tr::tr("The file %1 is empty.").arg(sourceName);
        return result;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        result.error = Tr::tr("The file %1 is not valid JSON: %2 at offset %3.")
                           .arg(sourceName, parseError.errorString())
                           .arg(parseError.offset);
        return result;
    }
    if (!document.isObject()) {
        result.error = Tr::tr("The file %1 does not hold a JSON object.").arg(sourceName);
        return result;
    }
    QJsonObject root = document.object();
    // VS Code's settings.json keeps the same list under "mcp".
    if (!root.contains("mcpServers"_L1) && !root.contains("servers"_L1) && root.value("mcp"_L1).isObject())
        root = root.value("mcp"_L1).toObject();

    const bool vscode = !root.contains("mcpServers"_L1) && root.contains("servers"_L1);
    const QJsonValue servers = vscode ? root.value("servers"_L1) : root.value("mcpServers"_L1);
    if (servers.isUndefined()) {
        result.error = Tr::tr("The file %1 lists no MCP servers: it has neither “mcpServers” nor “servers”.")
                           .arg(sourceName);
        return result;
    }
    if (!servers.isObject()) {
        result.error = Tr::tr("The file %1 has “%2”, but not as an object of servers.")
                           .arg(sourceName, vscode ? u"servers"_s : u"mcpServers"_s);
        return result;
    }
    const QJsonObject entries = servers.toObject();
    for (auto it = entries.constBegin(); it != entries.constEnd(); ++it) {
        if (auto config = importEntry(it.key(), it.value(), &result.notes))
            result.servers.append(*config);
    }
    if (entries.isEmpty())
        result.notes.append(Tr::tr("The file %1 lists no MCP servers.").arg(sourceName));
    return result;
}

McpConfigImport McpConfigImport::fromFile(const QString &path)
{
    const QString sourceName = QDir::toNativeSeparators(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        McpConfigImport result;
        result.error = Tr::tr("Cannot read %1: %2.").arg(sourceName, file.errorString());
        return result;
    }
    return fromJson(file.readAll(), sourceName);
}

QString McpConfigImport::claudeDesktopConfigPath()
{
    const QString file = u"Claude/claude_desktop_config.json"_s;
#if defined(Q_OS_WIN)
    const QString appData = qEnvironmentVariable("APPDATA");
    const QString base = appData.isEmpty() ? QDir::homePath() + u"/AppData/Roaming"_s : appData;
    return QDir::cleanPath(base + u'/' + file);
#elif defined(Q_OS_MACOS)
    return QDir::homePath() + u"/Library/Application Support/"_s + file;
#else
    const QString config = qEnvironmentVariable("XDG_CONFIG_HOME");
    return (config.isEmpty() ? QDir::homePath() + u"/.config"_s : config) + u'/' + file;
#endif
}

QString McpConfigImport::uniqueName(const QString &name, const QStringList &taken)
{
    QString candidate = name;
    for (int n = 2; taken.contains(candidate, Qt::CaseInsensitive); ++n)
        candidate = u"%1 (%2)"_s.arg(name).arg(n);
    return candidate;
}

} // namespace Loopscope
