#pragma once

#include "agent/trace/tracenode.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QUrl>

#include <optional>

namespace Loopscope {

/*!
    How Loopscope identifies itself to the authorization server of one MCP
    server: the server's config entry may carry an "oauth" object, the same
    JSON in Settings, --mcp-config files and the conformance adapter. Without
    a client id Loopscope uses a Client ID Metadata Document (when the server
    advertises them and one is named here) or registers itself dynamically.
    A private key file makes the client sign a JWT (RFC 7523) instead of
    sending a secret. "grant": "client_credentials" is for servers used headless, with no person
    to sign in.
*/
struct McpOAuthSettings
{
    enum class Grant { AuthorizationCode, ClientCredentials };

    QString clientId;
    QString clientSecret;   // empty: a public client
    QUrl clientMetadataUrl; // a Client ID Metadata Document, used as the client id where supported
    QString scope;          // space-separated; empty: what the server asks for or offers
    QString privateKeyFile; // a PEM key: the client authenticates with a signed JWT (private_key_jwt)
    QString algorithm = QStringLiteral("ES256"); // of that JWT: ES256 or RS256
    Grant grant = Grant::AuthorizationCode;

    bool isEmpty() const { return *this == McpOAuthSettings{}; }
    // With the secret: what a --mcp-config file holds. Settings save the secret in the keychain instead.
    QJsonObject toJson(bool withSecret) const;
    static std::optional<McpOAuthSettings> fromJson(const QJsonValue &json, QString *error);

    bool operator==(const McpOAuthSettings &) const = default;
};

/*!
    Who an MCP server is signed in as, for the settings page: the issuer that
    gave the token, its scopes and when it expires — never the token itself.
*/
struct McpSignIn
{
    QString issuer;
    QString scope;     // space-separated; empty: the server did not say
    QDateTime expires; // invalid: no expiry given

    bool operator==(const McpSignIn &) const = default;
};

/*!
    One step of a sign-in as it happened, for the trace: the step (URL, HTTP
    status, why it failed) and when it ran, in microseconds since the epoch.
*/
struct McpAuthStep
{
    McpAuthData data;
    qint64 startedUs = 0;
    qint64 endedUs = 0;
    bool operator==(const McpAuthStep &) const = default;
};

} // namespace Loopscope
