#pragma once

#include "agent/mcp/mcpoauthsettings.h"
#include "agent/model/responselimits.h"

#include <QHash>
#include <QJsonObject>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace Loopscope {

/*!
    One MCP server as the user configured it: how to reach it (a command
    started over stdio, or a Streamable HTTP endpoint), whether it is on, and
    which of its tools the model may see and how each is approved. Header
    values are kept here in memory only; secret ones (Authorization and the
    other credential headers, and environment variables named like tokens or
    keys) are saved in the keychain, or — on a desktop without one, only when
    the user chose it — in the key file only they can read; never in settings.
*/
struct McpServerConfig
{
    enum class Transport { Stdio, Http };
    // Where the values of secret headers and variables are kept (the same choice a provider profile has).
    enum class SecretStorage { Keychain, File };

    QString name; // unique among the configured servers; shown to the user and used as a tool-name prefix
    Transport transport = Transport::Stdio;

    // stdio
    QString command;
    QStringList arguments;
    QMap<QString, QString> environment; // added to the app's own environment
    QString workingDirectory;           // empty: the workspace folder

    // Streamable HTTP
    QUrl url;
    QMap<QString, QString> headers;
    McpOAuthSettings oauth;         // how to sign in when the server asks for OAuth
    bool oauthSecretStored = false; // the OAuth client secret is kept with the other secrets (settings)

    bool enabled = true;
    QSet<QString> disabledTools; // MCP tool names (as the server names them) hidden from the model
    QHash<QString, QString>
        toolApproval; // MCP tool name -> "always" | "ask" | "never"; absent: defaultApproval
    QString defaultApproval = QStringLiteral("ask");
    std::optional<int> requestTimeoutMs; // per-request timeout; unset: 60 s
    // The least severe log level the user chose for the Output tab (one of McpLogMessage::levels());
    // empty: what the server sends by default. Asked for again at each start.
    QString logLevel;
    SecretStorage secretStorage = SecretStorage::Keychain;

    // The most one answer may hold (not saved: the app's setting or --max-response-mb).
    qint64 maxResponseBytes = ResponseLimits::DefaultMaxResponseBytes;

    static constexpr int DefaultRequestTimeoutMs = 60'000;
    int effectiveRequestTimeoutMs() const { return requestTimeoutMs.value_or(DefaultRequestTimeoutMs); }

    // Settings form: everything but the values of secret headers (those are stored with the keychain).
    QJsonObject toJson() const;
    static std::optional<McpServerConfig> fromJson(const QJsonObject &json, QString *error = nullptr);

    // Names of headers whose values are secrets (Authorization, x-api-key, …).
    QStringList secretHeaderNames() const;
    // The keychain account under which a secret header of this server is stored.
    static QString secretAccount(const QString &serverName, const QString &headerName);
    // Environment variables whose values are secrets (…_TOKEN, …_API_KEY, …), kept like secret headers.
    QStringList secretEnvironmentNames() const;
    static QString secretEnvironmentAccount(const QString &serverName, const QString &variable);

    bool operator==(const McpServerConfig &) const = default;
};

} // namespace Loopscope
