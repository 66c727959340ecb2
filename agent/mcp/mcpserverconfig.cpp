#include "agent/mcp/mcpserverconfig.h"

#include "agent/mcp/mcpclient.h"
#include "agent/wire/secretredactor.h"

#include <QCoreApplication>
#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::McpServerConfig)
};

bool nameLooksSecret(const QString &name)
{
    for (QLatin1StringView word : {"token"_L1, "secret"_L1, "key"_L1, "password"_L1, "auth"_L1}) {
        if (name.contains(word, Qt::CaseInsensitive))
            return true;
    }
    return false;
}

QJsonObject mapToJson(const QMap<QString, QString> &map, const QStringList &leaveOut = {})
{
    QJsonObject object;
    for (auto it = map.cbegin(); it != map.cend(); ++it) {
        if (!leaveOut.contains(it.key()))
            object.insert(it.key(), it.value());
    }
    return object;
}

std::optional<QMap<QString, QString>> mapFromJson(const QJsonValue &value)
{
    QMap<QString, QString> map;
    if (value.isUndefined() || value.isNull())
        return map;
    if (!value.isObject())
        return std::nullopt;
    const QJsonObject object = value.toObject();
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (!it.value().isString())
            return std::nullopt;
        map.insert(it.key(), it.value().toString());
    }
    return map;
}

std::optional<QStringList> stringsFromJson(const QJsonValue &value)
{
    QStringList strings;
    if (value.isUndefined() || value.isNull())
        return strings;
    if (!value.isArray())
        return std::nullopt;
    for (const QJsonValue &item : value.toArray()) {
        if (!item.isString())
            return std::nullopt;
        strings.append(item.toString());
    }
    return strings;
}

bool isApprovalRule(const QString &rule)
{
    return rule == "always"_L1 || rule == "ask"_L1 || rule == "never"_L1;
}

std::optional<McpServerConfig> failWith(QString *error, const QString &text)
{
    if (error)
        *error = text;
    return std::nullopt;
}

} // namespace

QJsonObject McpServerConfig::toJson() const
{
    QJsonObject json;
    json.insert("name"_L1, name);
    json.insert("transport"_L1, transport == Transport::Http ? u"http"_s : u"stdio"_s);
    if (!command.isEmpty())
        json.insert("command"_L1, command);
    if (!arguments.isEmpty())
        json.insert("args"_L1, QJsonArray::fromStringList(arguments));
    const QStringList secretEnv = secretEnvironmentNames();
    if (!environment.isEmpty())
        json.insert("env"_L1, mapToJson(environment, secretEnv));
    if (!secretEnv.isEmpty())
        json.insert("secretEnv"_L1, QJsonArray::fromStringList(secretEnv));
    if (!workingDirectory.isEmpty())
        json.insert("cwd"_L1, workingDirectory);
    if (!url.isEmpty())
        json.insert("url"_L1, url.toString());
    const QStringList secretHeaders = secretHeaderNames();
    if (!headers.isEmpty())
        json.insert("headers"_L1, mapToJson(headers, secretHeaders));
    if (!secretHeaders.isEmpty())
        json.insert("secretHeaders"_L1, QJsonArray::fromStringList(secretHeaders));
    if (!oauth.isEmpty())
        json.insert("oauth"_L1, oauth.toJson(false)); // the client secret is kept with the other secrets
    if (!oauth.clientSecret.isEmpty() || oauthSecretStored)
        json.insert("secretOAuth"_L1, true);
    json.insert("enabled"_L1, enabled);
    if (!disabledTools.isEmpty()) {
        QStringList tools = disabledTools.values();
        tools.sort();
        json.insert("disabledTools"_L1, QJsonArray::fromStringList(tools));
    }
    if (!toolApproval.isEmpty()) {
        QJsonObject approval;
        for (auto it = toolApproval.cbegin(); it != toolApproval.cend(); ++it)
            approval.insert(it.key(), it.value());
        json.insert("toolApproval"_L1, approval);
    }
    json.insert("defaultApproval"_L1, defaultApproval);
    if (requestTimeoutMs)
        json.insert("requestTimeoutMs"_L1, *requestTimeoutMs);
    if (!logLevel.isEmpty())
        json.insert("logLevel"_L1, logLevel);
    if (secretStorage == SecretStorage::File)
        json.insert("secretStorage"_L1, u"file"_s);
    return json;
}

std::optional<McpServerConfig> McpServerConfig::fromJson(const QJsonObject &json, QString *error)
{
    McpServerConfig config;
    config.name = json.value("name"_L1).toString().trimmed();
    if (config.name.isEmpty())
        return failWith(error, Tr::tr("An MCP server has no name."));
    const auto fail = [&](const QString &problem) {
        return failWith(error, Tr::tr("The MCP server “%1” %2").arg(config.name, problem));
    };

    const QString transport = json.value("transport"_L1).toString(u"stdio"_s);
    if (transport == "stdio"_L1)
        config.transport = Transport::Stdio;
    else if (transport == "http"_L1)
        config.transport = Transport::Http;
    else
        return fail(Tr::tr("has an unknown transport “%1” (stdio or http).").arg(transport));

    config.command = json.value("command"_L1).toString();
    const auto arguments = stringsFromJson(json.value("args"_L1));
    if (!arguments)
        return fail(Tr::tr("has arguments that are not a list of strings."));
    config.arguments = *arguments;
    const auto environment = mapFromJson(json.value("env"_L1));
    if (!environment)
        return fail(Tr::tr("has an environment that is not an object of strings."));
    config.environment = *environment;
    const auto secretEnv = stringsFromJson(json.value("secretEnv"_L1));
    if (!secretEnv)
        return fail(Tr::tr("has secret environment names that are not a list of strings."));
    for (const QString &variable : *secretEnv)
        config.environment.insert(variable, QString()); // the value comes from the keychain
    config.workingDirectory = json.value("cwd"_L1).toString();

    const QString url = json.value("url"_L1).toString();
    if (!url.isEmpty())
        config.url = QUrl(url, QUrl::StrictMode);
    const auto headers = mapFromJson(json.value("headers"_L1));
    if (!headers)
        return fail(Tr::tr("has headers that are not an object of strings."));
    config.headers = *headers;
    const auto secretHeaders = stringsFromJson(json.value("secretHeaders"_L1));
    if (!secretHeaders)
        return fail(Tr::tr("has secret header names that are not a list of strings."));
    for (const QString &header : *secretHeaders)
        config.headers.insert(header, QString()); // the value comes from the keychain
    QString oauthError;
    const auto oauth = McpOAuthSettings::fromJson(json.value("oauth"_L1), &oauthError);
    if (!oauth)
        return fail(oauthError);
    config.oauth = *oauth;
    config.oauthSecretStored = json.value("secretOAuth"_L1).toBool();

    if (config.transport == Transport::Stdio && config.command.trimmed().isEmpty())
        return fail(Tr::tr("has no command to start."));
    if (config.transport == Transport::Http) {
        if (!config.url.isValid() || config.url.host().isEmpty()
            || (config.url.scheme() != "http"_L1 && config.url.scheme() != "https"_L1))
            return fail(Tr::tr("needs an http:// or https:// URL, not “%1”.").arg(url));
    }

    const QString storage = json.value("secretStorage"_L1).toString(u"keychain"_s);
    if (storage == "file"_L1)
        config.secretStorage = SecretStorage::File;
    else if (storage != "keychain"_L1)
        return fail(Tr::tr("keeps its secrets in an unknown place “%1” (keychain or file).").arg(storage));

    config.enabled = json.value("enabled"_L1).toBool(true);
    const auto disabled = stringsFromJson(json.value("disabledTools"_L1));
    if (!disabled)
        return fail(Tr::tr("has disabled tools that are not a list of strings."));
    config.disabledTools = QSet<QString>(disabled->cbegin(), disabled->cend());
    const auto approval = mapFromJson(json.value("toolApproval"_L1));
    if (!approval)
        return fail(Tr::tr("has tool approval rules that are not an object of strings."));
    for (auto it = approval->cbegin(); it != approval->cend(); ++it) {
        if (!isApprovalRule(it.value()))
            return fail(Tr::tr("has an unknown approval rule “%1” for the tool “%2” (always, ask or never).")
                            .arg(it.value(), it.key()));
        config.toolApproval.insert(it.key(), it.value());
    }
    config.defaultApproval = json.value("defaultApproval"_L1).toString(u"ask"_s);
    if (!isApprovalRule(config.defaultApproval))
        return fail(Tr::tr("has an unknown default approval “%1” (always, ask or never).")
                        .arg(config.defaultApproval));
    const QJsonValue timeout = json.value("requestTimeoutMs"_L1);
    if (!timeout.isUndefined() && !timeout.isNull()) {
        const int milliseconds = timeout.toInt(-1);
        if (!timeout.isDouble() || milliseconds <= 0)
            return fail(Tr::tr("has a request timeout that is not a positive number of milliseconds."));
        config.requestTimeoutMs = milliseconds;
    }
    config.logLevel = json.value("logLevel"_L1).toString();
    if (!config.logLevel.isEmpty() && !McpLogMessage::levels().contains(config.logLevel))
        return fail(Tr::tr("has an unknown log level “%1” (%2).")
                        .arg(config.logLevel, McpLogMessage::levels().join(u", "_s)));
    if (error)
        error->clear();
    return config;
}

QStringList McpServerConfig::secretHeaderNames() const
{
    QStringList names;
    for (auto it = headers.cbegin(); it != headers.cend(); ++it) {
        if (SecretRedactor::isCredentialHeader(it.key().toUtf8()) || nameLooksSecret(it.key()))
            names.append(it.key());
    }
    return names;
}

QStringList McpServerConfig::secretEnvironmentNames() const
{
    QStringList names;
    for (auto it = environment.cbegin(); it != environment.cend(); ++it) {
        if (nameLooksSecret(it.key()))
            names.append(it.key());
    }
    return names;
}

QString McpServerConfig::secretAccount(const QString &serverName, const QString &headerName)
{
    return u"mcp/%1/%2"_s.arg(serverName, headerName);
}

QString McpServerConfig::secretEnvironmentAccount(const QString &serverName, const QString &variable)
{
    // A colon cannot be part of a header name, so the two kinds never share an account.
    return u"mcp/%1/env:%2"_s.arg(serverName, variable);
}

} // namespace Loopscope
