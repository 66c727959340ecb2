#pragma once

#include "agent/mcp/mcpoauthsettings.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QUrl>
#include <QUrlQuery>

#include <functional>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkRequest;
QT_END_NAMESPACE

namespace Loopscope {

class LoopbackReceiver;
class SecretStore;
class UrlOpener;

/*!
    What a 401 or 403 says in its WWW-Authenticate header (RFC 6750, RFC 9728):
    where the protected resource metadata is, which scope is needed, and why.
*/
struct McpAuthChallenge
{
    QString error; // e.g. invalid_token, insufficient_scope
    QString scope;
    QUrl resourceMetadata;

    static McpAuthChallenge parse(const QByteArray &header);
    bool operator==(const McpAuthChallenge &) const = default;
};

/*!
    Signs Loopscope in to one MCP server that answers 401 (OAuth 2.1 as the
    MCP authorization spec asks): protected resource metadata (RFC 9728, with
    the well-known fallbacks), authorization server metadata (RFC 8414 and
    OpenID Connect discovery, with the path variants), a client id (configured,
    a Client ID Metadata Document, or dynamic registration, RFC 7591), then the
    authorization code with PKCE S256 and the resource indicator (RFC 8707)
    through the browser and a loopback redirect — or client credentials for
    headless use — and refresh tokens. Tokens stay in memory and, when a store
    is given, in the keychain per server and issuer; what it logs are URLs and
    statuses, never a token, code or secret.
*/
class McpAuthorizer final : public QObject
{
    Q_OBJECT

public:
    using Done = std::function<void(const QString &error)>;

    McpAuthorizer(QNetworkAccessManager *network, QString serverName, QUrl serverUrl,
                  McpOAuthSettings settings, QObject *parent = nullptr);
    ~McpAuthorizer() override;

    // Not owned; null: $BROWSER only.
    void setUrlOpener(const UrlOpener *opener) { m_opener = opener; }
    // Not owned; null: tokens live in memory for this run only.
    void setTokenStore(SecretStore *store) { m_store = store; }
    // How long the browser may take to come back (default five minutes).
    void setRedirectTimeout(int milliseconds) { m_redirectTimeoutMs = milliseconds; }

    // The token to send, empty before the first sign-in.
    QString accessToken() const { return m_token.access; }
    bool isSignedIn() const { return !m_token.access.isEmpty(); }
    // The issuer, scopes and expiry of the sign-in; nullopt when not signed in.
    std::optional<McpSignIn> signIn() const;
    // Forgets the tokens, in memory and in the keychain; the next request signs in again. The client
    // registration is kept. \a done gets the keychain's error, if any.
    void signOut(Done done);

    // Answers a 401 or 403 with its WWW-Authenticate header: refreshes or signs in again, then calls
    // \a done with an empty error (the request may be sent again) or why not. While one sign-in runs,
    // further callers wait for it.
    void authorize(int httpStatus, const QByteArray &wwwAuthenticate, Done done);

    // The keychain account of the tokens of \a serverName at \a issuer.
    static QString tokenAccount(const QString &serverName, const QString &issuer);
    // The keychain account of Loopscope's dynamic registration for \a serverName at \a issuer.
    static QString clientAccount(const QString &serverName, const QString &issuer);

signals:
    // One step of the flow, for the server's log: a URL and a status, never a token.
    void logLine(const QString &line);
    // True while the browser is open for a person to sign in, false once that is over.
    void waitingForUser(bool waiting);
    // signIn() changed: signed in, refreshed, or signed out.
    void signInChanged();
    // One step of the flow is over (a discovery, the registration, the browser, a token request).
    void stepDone(const Loopscope::McpAuthStep &step);

private:
    struct Token
    {
        QString access;
        QString refresh;
        QString scope;
        QDateTime expires;
    };
    struct Flow;

    using JsonCallback = std::function<void(int status, const QJsonObject &body)>;

    void start();
    void finish(const QString &error);
    void refresh();
    void discoverResource(QList<QUrl> candidates);
    void onResourceMetadata(const QJsonObject &metadata);
    void discoverAuthorizationServer(QList<QUrl> candidates);
    void onAuthorizationServer(const QJsonObject &metadata);
    void readStoredToken();
    void readStoredClient();
    // Reads \a account from the store as JSON (empty when not stored) while the flow runs.
    void readStored(const QString &account, std::function<void(const QJsonObject &)> done);
    void storeClient();
    void chooseClient();
    void registerClient();
    void requestAuthorization();
    void onRedirected(const QUrlQuery &query);
    void requestToken(QUrlQuery form, bool refreshing);
    void onToken(int status, const QJsonObject &body, bool refreshing);
    void storeToken();

    // \a step names the request in the trace ("resource_metadata", "token", …).
    void get(const QUrl &url, const QString &step, JsonCallback done);
    void post(const QUrl &url, const QString &step, const QByteArray &body, const QByteArray &contentType,
              const QByteArray &authorization, JsonCallback done);
    void reportStep(const QString &step, const QString &method, const QUrl &url, int status,
                    const QString &error, qint64 startedUs);
    // The browser's part is over: it came back (\a error empty) or not.
    void reportBrowser(const QString &error);
    // Empty, or why the client cannot authenticate (an unreadable key, say).
    QString addClientAuthentication(QUrlQuery &form, QByteArray *authorization) const;
    QString scopeToRequest() const;
    QString resourceIndicator() const;
    void log(const QString &line) { emit logLine(QStringLiteral("[OAuth] ") + line); }

    QNetworkAccessManager *m_network = nullptr;
    QString m_serverName;
    QUrl m_serverUrl;
    McpOAuthSettings m_settings;
    const UrlOpener *m_opener = nullptr;
    SecretStore *m_store = nullptr;
    int m_redirectTimeoutMs = 5 * 60 * 1000;

    Token m_token;
    QString m_issuer;           // of the token above
    QString m_registeredIssuer; // of the dynamic registration below
    QString m_registeredClientId;
    QString m_registeredClientSecret;
    QString m_registeredAuthMethod;
    bool m_saidNoKeychain = false;
    std::unique_ptr<Flow> m_flow;
    QList<Done> m_waiting;
};

} // namespace Loopscope
