#include "agent/mcp/mcpauthorizer.h"

#include "agent/config/secretstore.h"
#include "agent/mcp/clientassertion.h"
#include "agent/mcp/loopbackreceiver.h"
#include "agent/mcp/urlopener.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

constexpr QByteArrayView FormType = "application/x-www-form-urlencoded";

QString randomUrlSafe(int bytes)
{
    QByteArray data(bytes, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(data.data()), bytes / 4);
    return QString::fromLatin1(data.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QString codeChallenge(const QString &verifier)
{
    return QString::fromLatin1(QCryptographicHash::hash(verifier.toLatin1(), QCryptographicHash::Sha256)
                                   .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QUrl origin(const QUrl &url)
{
    QUrl result;
    result.setScheme(url.scheme());
    result.setHost(url.host());
    result.setPort(url.port());
    return result;
}

// The path of a URL without a trailing '/', empty for the root.
QString trimmedPath(const QUrl &url)
{
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    return path;
}

qint64 nowUs()
{
    return QDateTime::currentMSecsSinceEpoch() * 1000;
}

QUrl withPath(const QUrl &base, const QString &path)
{
    QUrl url = origin(base);
    url.setPath(path);
    return url;
}

QStringList stringList(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list.append(item.toString());
    return list;
}

// Whether the protected resource \a resource covers the MCP endpoint \a server (RFC 8707, RFC 9728 §3.3):
// same origin, and the server's path at or below the resource's.
bool resourceCovers(const QUrl &resource, const QUrl &server)
{
    if (!resource.isValid() || origin(resource) != origin(server))
        return false;
    const QString resourcePath = trimmedPath(resource);
    const QString serverPath = trimmedPath(server);
    return serverPath == resourcePath || serverPath.startsWith(resourcePath + u'/');
}

// Every key and value fully percent-encoded: QUrlQuery leaves '+', '&' and '=' in values alone.
QByteArray formEncoded(const QUrlQuery &form)
{
    QByteArray encoded;
    for (const auto &[key, value] : form.queryItems(QUrl::FullyDecoded)) {
        if (!encoded.isEmpty())
            encoded += '&';
        encoded += QUrl::toPercentEncoding(key) + '=' + QUrl::toPercentEncoding(value);
    }
    return encoded;
}

} // namespace

McpAuthChallenge McpAuthChallenge::parse(const QByteArray &header)
{
    McpAuthChallenge challenge;
    const QString text = QString::fromUtf8(header);
    // auth-param = token "=" ( token / quoted-string ), after the "Bearer" scheme.
    static const QRegularExpression param(
        uR"re(([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+)))re"_s);
    for (auto it = param.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        QString value = match.captured(2).isNull() ? match.captured(3) : match.captured(2);
        value.replace(QRegularExpression(uR"(\\(.))"_s), u"\\1"_s);
        const QString name = match.captured(1).toLower();
        if (name == "error"_L1)
            challenge.error = value;
        else if (name == "scope"_L1)
            challenge.scope = value.simplified();
        else if (name == "resource_metadata"_L1)
            challenge.resourceMetadata = QUrl(value);
    }
    return challenge;
}

struct McpAuthorizer::Flow
{
    int status = 0;
    McpAuthChallenge challenge;
    bool legacy
        = false; // no protected resource metadata: a 2025-03-26 server is its own authorization server
    QJsonObject resourceMetadata;
    QString issuer;
    QUrl authorizationEndpoint;
    QUrl tokenEndpoint;
    QUrl registrationEndpoint;
    QStringList authMethods;
    bool metadataFound = false;
    bool pkceS256 = false;
    bool clientIdMetadataDocuments = false;
    bool issParameter = false; // RFC 9207: the authorization response names its issuer
    QString metadataIssuer;    // "issuer" of the authorization server metadata
    QString clientId;
    QString clientSecret;
    QString authMethod; // what registration said; empty: chosen from authMethods
    QString verifier;
    QString state;
    QUrl redirectUri;
    QPointer<LoopbackReceiver> receiver;
    QTimer redirectTimer;
    qint64 browserStartedUs = 0; // while the browser's part runs
};

McpAuthorizer::McpAuthorizer(QNetworkAccessManager *network, QString serverName, QUrl serverUrl,
                             McpOAuthSettings settings, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_serverName(std::move(serverName))
    , m_serverUrl(std::move(serverUrl))
    , m_settings(std::move(settings))
{
    m_serverUrl.setFragment(QString());
}

McpAuthorizer::~McpAuthorizer() = default;

QString McpAuthorizer::tokenAccount(const QString &serverName, const QString &issuer)
{
    return u"mcp/%1/oauth:%2"_s.arg(serverName, issuer);
}

QString McpAuthorizer::clientAccount(const QString &serverName, const QString &issuer)
{
    return u"mcp/%1/oauth-client:%2"_s.arg(serverName, issuer);
}

std::optional<McpSignIn> McpAuthorizer::signIn() const
{
    if (m_token.access.isEmpty())
        return std::nullopt;
    return McpSignIn{m_issuer, m_token.scope, m_token.expires};
}

void McpAuthorizer::signOut(Done done)
{
    const QString issuer = m_issuer;
    const bool wasSignedIn = !m_token.access.isEmpty();
    m_token = {};
    if (wasSignedIn) {
        log(tr("signed out of %1").arg(issuer));
        emit signInChanged();
    }
    if (!m_store || issuer.isEmpty()) {
        done({});
        return;
    }
    m_store->remove(tokenAccount(m_serverName, issuer), this,
                    [done](const SecretStore::WriteError &error) { done(error.text); });
}

void McpAuthorizer::authorize(int httpStatus, const QByteArray &wwwAuthenticate, Done done)
{
    m_waiting.append(std::move(done));
    if (m_flow)
        return; // the sign-in already under way answers this caller too
    m_flow = std::make_unique<Flow>();
    m_flow->status = httpStatus;
    m_flow->challenge = McpAuthChallenge::parse(wwwAuthenticate);
    start();
}

void McpAuthorizer::finish(const QString &error)
{
    if (!m_flow)
        return;
    if (m_flow->browserStartedUs)
        reportBrowser(error.isEmpty() ? tr("the sign-in ended before the browser came back") : error);
    if (m_flow->receiver)
        m_flow->receiver->deleteLater();
    const bool wasWaiting = m_flow->redirectTimer.isActive() || m_flow->receiver;
    m_flow.reset();
    if (wasWaiting)
        emit waitingForUser(false);
    if (!error.isEmpty())
        log(tr("sign-in failed: %1").arg(error));
    const QList<Done> waiting = std::exchange(m_waiting, {});
    for (const Done &done : waiting)
        done(error);
}

void McpAuthorizer::start()
{
    QList<QUrl> candidates;
    if (m_flow->challenge.resourceMetadata.isValid())
        candidates.append(m_flow->challenge.resourceMetadata);
    const QString path = trimmedPath(m_serverUrl);
    if (!path.isEmpty())
        candidates.append(withPath(m_serverUrl, "/.well-known/oauth-protected-resource"_L1 + path));
    const QUrl root = withPath(m_serverUrl, u"/.well-known/oauth-protected-resource"_s);
    if (!candidates.contains(root))
        candidates.append(root);
    discoverResource(candidates);
}

void McpAuthorizer::discoverResource(QList<QUrl> candidates)
{
    if (candidates.isEmpty()) {
        // No protected resource metadata: the 2025-03-26 rules, where the server's origin is the
        // authorization server.
        m_flow->legacy = true;
        m_flow->issuer = origin(m_serverUrl).toString();
        const QUrl base = origin(m_serverUrl);
        discoverAuthorizationServer({withPath(base, u"/.well-known/oauth-authorization-server"_s),
                                     withPath(base, u"/.well-known/openid-configuration"_s)});
        return;
    }
    const QUrl url = candidates.takeFirst();
    get(url, u"resource_metadata"_s, [this, candidates](int status, const QJsonObject &body) {
        if (status == 200 && !body.isEmpty())
            onResourceMetadata(body);
        else
            discoverResource(candidates);
    });
}

void McpAuthorizer::onResourceMetadata(const QJsonObject &metadata)
{
    m_flow->resourceMetadata = metadata;
    const QString resource = metadata.value("resource"_L1).toString();
    if (!resource.isEmpty() && !resourceCovers(QUrl(resource), m_serverUrl)) {
        finish(tr("the server's protected resource metadata names another resource (%1), not %2")
                   .arg(resource, m_serverUrl.toString()));
        return;
    }
    const QStringList servers = stringList(metadata.value("authorization_servers"_L1));
    const QUrl issuer = servers.isEmpty() ? origin(m_serverUrl) : QUrl(servers.constFirst());
    if (!issuer.isValid() || (issuer.scheme() != "https"_L1 && issuer.scheme() != "http"_L1)) {
        finish(tr("the protected resource metadata names no usable authorization server"));
        return;
    }
    m_flow->issuer = issuer.toString();
    // RFC 8414 §3.1 and OpenID Connect discovery, the path inserted after the well-known part first.
    const QString path = trimmedPath(issuer);
    QList<QUrl> candidates;
    if (path.isEmpty()) {
        candidates = {withPath(issuer, u"/.well-known/oauth-authorization-server"_s),
                      withPath(issuer, u"/.well-known/openid-configuration"_s)};
    } else {
        candidates = {withPath(issuer, "/.well-known/oauth-authorization-server"_L1 + path),
                      withPath(issuer, "/.well-known/openid-configuration"_L1 + path),
                      withPath(issuer, path + "/.well-known/openid-configuration"_L1)};
    }
    discoverAuthorizationServer(candidates);
}

void McpAuthorizer::discoverAuthorizationServer(QList<QUrl> candidates)
{
    if (candidates.isEmpty()) {
        if (!m_flow->legacy) {
            finish(tr("the authorization server %1 publishes no metadata").arg(m_flow->issuer));
            return;
        }
        // 2025-03-26: without metadata the endpoints are at fixed paths of the server's origin.
        const QUrl base = origin(m_serverUrl);
        m_flow->authorizationEndpoint = withPath(base, u"/authorize"_s);
        m_flow->tokenEndpoint = withPath(base, u"/token"_s);
        m_flow->registrationEndpoint = withPath(base, u"/register"_s);
        m_flow->pkceS256 = true;
        readStoredToken();
        return;
    }
    const QUrl url = candidates.takeFirst();
    get(url, u"authorization_server_metadata"_s, [this, candidates](int status, const QJsonObject &body) {
        if (status == 200 && body.contains("token_endpoint"_L1))
            onAuthorizationServer(body);
        else
            discoverAuthorizationServer(candidates);
    });
}

void McpAuthorizer::onAuthorizationServer(const QJsonObject &metadata)
{
    m_flow->metadataFound = true;
    m_flow->authorizationEndpoint = QUrl(metadata.value("authorization_endpoint"_L1).toString());
    m_flow->tokenEndpoint = QUrl(metadata.value("token_endpoint"_L1).toString());
    m_flow->registrationEndpoint = QUrl(metadata.value("registration_endpoint"_L1).toString());
    m_flow->authMethods = stringList(metadata.value("token_endpoint_auth_methods_supported"_L1));
    m_flow->pkceS256 = stringList(metadata.value("code_challenge_methods_supported"_L1)).contains("S256"_L1);
    m_flow->clientIdMetadataDocuments = metadata.value("client_id_metadata_document_supported"_L1).toBool();
    m_flow->issParameter = metadata.value("authorization_response_iss_parameter_supported"_L1).toBool();
    m_flow->metadataIssuer = metadata.value("issuer"_L1).toString();
    readStoredToken();
}

void McpAuthorizer::readStoredToken()
{
    // A token from an earlier run is tried before anyone is asked to sign in again.
    if (!m_store || !m_token.access.isEmpty() || m_flow->status != 401) {
        readStoredClient();
        return;
    }
    readStored(tokenAccount(m_serverName, m_flow->issuer), [this](const QJsonObject &stored) {
        if (!stored.value("access"_L1).toString().isEmpty()) {
            m_issuer = m_flow->issuer;
            m_token.access = stored.value("access"_L1).toString();
            m_token.refresh = stored.value("refresh"_L1).toString();
            m_token.scope = stored.value("scope"_L1).toString();
            m_token.expires = QDateTime::fromString(stored.value("expires"_L1).toString(), Qt::ISODate);
            if (!m_token.expires.isValid() || m_token.expires > QDateTime::currentDateTimeUtc()) {
                log(tr("using the sign-in kept for %1").arg(m_flow->issuer));
                emit signInChanged();
                finish({});
                return;
            }
        }
        readStoredClient();
    });
}

void McpAuthorizer::readStoredClient()
{
    // A client registered dynamically in an earlier run is used again instead of registering anew.
    if (!m_store || !m_settings.clientId.isEmpty()
        || (m_registeredIssuer == m_flow->issuer && !m_registeredClientId.isEmpty())) {
        chooseClient();
        return;
    }
    readStored(clientAccount(m_serverName, m_flow->issuer), [this](const QJsonObject &stored) {
        if (const QString clientId = stored.value("clientId"_L1).toString(); !clientId.isEmpty()) {
            m_registeredIssuer = m_flow->issuer;
            m_registeredClientId = clientId;
            m_registeredClientSecret = stored.value("clientSecret"_L1).toString();
            m_registeredAuthMethod = stored.value("authMethod"_L1).toString();
            log(tr("using the client registration kept for %1").arg(m_flow->issuer));
        }
        chooseClient();
    });
}

void McpAuthorizer::readStored(const QString &account, std::function<void(const QJsonObject &)> done)
{
    m_store->read(account, this, [this, done = std::move(done)](const SecretStore::Result &result) {
        if (m_flow) // else the sign-in ended meanwhile
            done(QJsonDocument::fromJson(result.secret.value_or(QString()).toUtf8()).object());
    });
}

void McpAuthorizer::storeClient()
{
    if (!m_store)
        return;
    const QJsonObject stored{{u"clientId"_s, m_registeredClientId},
                             {u"clientSecret"_s, m_registeredClientSecret},
                             {u"authMethod"_s, m_registeredAuthMethod}};
    m_store->write(clientAccount(m_serverName, m_registeredIssuer),
                   QString::fromUtf8(QJsonDocument(stored).toJson(QJsonDocument::Compact)), this,
                   [](const SecretStore::WriteError &) {
                       // Without a keychain the next run registers again; storeToken() says so once.
                   });
}

void McpAuthorizer::chooseClient()
{
    Flow &flow = *m_flow;
    const bool stepUp = flow.status == 403;
    if (!m_settings.clientId.isEmpty()) {
        flow.clientId = m_settings.clientId;
        flow.clientSecret = m_settings.clientSecret;
    } else if (m_registeredIssuer == flow.issuer && !m_registeredClientId.isEmpty()) {
        flow.clientId = m_registeredClientId;
        flow.clientSecret = m_registeredClientSecret;
        flow.authMethod = m_registeredAuthMethod;
    } else if (flow.clientIdMetadataDocuments && m_settings.clientMetadataUrl.isValid()
               && m_settings.grant == McpOAuthSettings::Grant::AuthorizationCode) {
        flow.clientId = m_settings.clientMetadataUrl.toString();
        flow.authMethod = u"none"_s;
    }

    // An expired token with a refresh token: refreshing needs no person.
    if (!stepUp && !m_token.refresh.isEmpty() && m_issuer == flow.issuer && !flow.clientId.isEmpty()) {
        refresh();
        return;
    }
    if (m_settings.grant == McpOAuthSettings::Grant::ClientCredentials) {
        if (flow.clientId.isEmpty()) {
            finish(tr("client credentials need a client id in the server's “oauth” settings"));
            return;
        }
        if (!m_settings.privateKeyFile.isEmpty())
            flow.authMethod = u"private_key_jwt"_s;
        QUrlQuery form;
        form.addQueryItem(u"grant_type"_s, u"client_credentials"_s);
        if (const QString scope = scopeToRequest(); !scope.isEmpty())
            form.addQueryItem(u"scope"_s, scope);
        form.addQueryItem(u"resource"_s, resourceIndicator());
        requestToken(form, false);
        return;
    }
    if (!flow.metadataFound && !flow.legacy) {
        finish(tr("the authorization server publishes no metadata"));
        return;
    }
    if (!flow.pkceS256) {
        finish(tr("the authorization server %1 does not offer PKCE with S256, which MCP requires")
                   .arg(flow.issuer));
        return;
    }
    auto *receiver = new LoopbackReceiver(this);
    flow.receiver = receiver;
    if (!receiver->listen()) {
        finish(tr("no port on 127.0.0.1 could receive the sign-in: %1").arg(receiver->errorString()));
        return;
    }
    flow.redirectUri = receiver->redirectUri();
    connect(receiver, &LoopbackReceiver::redirected, this, &McpAuthorizer::onRedirected);
    if (flow.clientId.isEmpty())
        registerClient();
    else
        requestAuthorization();
}

void McpAuthorizer::refresh()
{
    log(tr("refreshing the access token"));
    QUrlQuery form;
    form.addQueryItem(u"grant_type"_s, u"refresh_token"_s);
    form.addQueryItem(u"refresh_token"_s, m_token.refresh);
    form.addQueryItem(u"resource"_s, resourceIndicator());
    requestToken(form, true);
}

void McpAuthorizer::registerClient()
{
    Flow &flow = *m_flow;
    if (!flow.registrationEndpoint.isValid() || flow.registrationEndpoint.isEmpty()) {
        finish(tr("the authorization server %1 offers no dynamic client registration; set a client id in "
                  "the server's “oauth” settings")
                   .arg(flow.issuer));
        return;
    }
    QJsonObject request{
        {u"client_name"_s, u"Loopscope"_s},
        {u"redirect_uris"_s, QJsonArray{flow.redirectUri.toString()}},
        {u"grant_types"_s, QJsonArray{u"authorization_code"_s, u"refresh_token"_s}},
        {u"response_types"_s, QJsonArray{u"code"_s}},
        {u"token_endpoint_auth_method"_s, u"none"_s},
    };
    if (const QString scope = scopeToRequest(); !scope.isEmpty())
        request.insert(u"scope"_s, scope);
    post(flow.registrationEndpoint, u"registration"_s, QJsonDocument(request).toJson(QJsonDocument::Compact),
         "application/json", {}, [this](int status, const QJsonObject &body) {
             const QString clientId = body.value("client_id"_L1).toString();
             if ((status != 200 && status != 201) || clientId.isEmpty()) {
                 finish(tr("the authorization server refused to register Loopscope (HTTP %1%2)")
                            .arg(status)
                            .arg(body.contains("error"_L1) ? u", "_s + body.value("error"_L1).toString()
                                                           : QString()));
                 return;
             }
             m_flow->clientId = clientId;
             m_flow->clientSecret = body.value("client_secret"_L1).toString();
             m_flow->authMethod = body.value("token_endpoint_auth_method"_L1).toString();
             m_registeredIssuer = m_flow->issuer;
             m_registeredClientId = m_flow->clientId;
             m_registeredClientSecret = m_flow->clientSecret;
             m_registeredAuthMethod = m_flow->authMethod;
             log(tr("registered Loopscope at %1").arg(m_flow->issuer));
             storeClient();
             requestAuthorization();
         });
}

void McpAuthorizer::requestAuthorization()
{
    Flow &flow = *m_flow;
    flow.verifier = randomUrlSafe(48);
    flow.state = randomUrlSafe(24);
    QUrl url = flow.authorizationEndpoint;
    QUrlQuery query;
    query.addQueryItem(u"response_type"_s, u"code"_s);
    query.addQueryItem(u"client_id"_s, flow.clientId);
    query.addQueryItem(u"redirect_uri"_s, flow.redirectUri.toString());
    query.addQueryItem(u"code_challenge"_s, codeChallenge(flow.verifier));
    query.addQueryItem(u"code_challenge_method"_s, u"S256"_s);
    query.addQueryItem(u"state"_s, flow.state);
    if (const QString scope = scopeToRequest(); !scope.isEmpty())
        query.addQueryItem(u"scope"_s, scope);
    query.addQueryItem(u"resource"_s, resourceIndicator());
    const QByteArray existing = url.query(QUrl::FullyEncoded).toLatin1();
    url.setQuery(
        QString::fromLatin1(existing.isEmpty() ? formEncoded(query) : existing + '&' + formEncoded(query)),
        QUrl::TolerantMode);

    log(tr("opening the browser to sign in at %1").arg(flow.authorizationEndpoint.toString()));
    const QString error = m_opener ? m_opener->open(url) : UrlOpener().open(url);
    if (!error.isEmpty()) {
        finish(error);
        return;
    }
    flow.redirectTimer.setSingleShot(true);
    connect(&flow.redirectTimer, &QTimer::timeout, this, [this] {
        finish(tr("nobody signed in within %n minute(s)", nullptr, m_redirectTimeoutMs / 60000));
    });
    flow.redirectTimer.start(m_redirectTimeoutMs);
    flow.browserStartedUs = nowUs();
    emit waitingForUser(true);
}

void McpAuthorizer::onRedirected(const QUrlQuery &query)
{
    if (!m_flow)
        return;
    Flow &flow = *m_flow;
    flow.redirectTimer.stop();
    if (query.queryItemValue(u"state"_s, QUrl::FullyDecoded) != flow.state) {
        finish(tr("the sign-in came back with a state that does not match the request (refused)"));
        return;
    }
    // RFC 9207: a server that promises to name itself in the response must, and the name must be its
    // own, or the response may come from another authorization server (a mix-up attack).
    const QString expectedIssuer = flow.metadataIssuer.isEmpty() ? flow.issuer : flow.metadataIssuer;
    const QString iss = query.queryItemValue(u"iss"_s, QUrl::FullyDecoded);
    if (iss.isEmpty() && flow.issParameter) {
        finish(tr("the sign-in came back without naming its issuer, which %1 promises (refused)")
                   .arg(expectedIssuer));
        return;
    }
    if (!iss.isEmpty() && iss != expectedIssuer) {
        finish(
            tr("the sign-in came back from the issuer %1, not from %2 (refused)").arg(iss, expectedIssuer));
        return;
    }
    if (query.hasQueryItem(u"error"_s)) {
        finish(tr("the authorization server refused the sign-in: %1 %2")
                   .arg(query.queryItemValue(u"error"_s, QUrl::FullyDecoded),
                        query.queryItemValue(u"error_description"_s, QUrl::FullyDecoded)));
        return;
    }
    const QString code = query.queryItemValue(u"code"_s, QUrl::FullyDecoded);
    if (code.isEmpty()) {
        finish(tr("the sign-in came back without an authorization code"));
        return;
    }
    log(tr("the browser came back from the sign-in"));
    reportBrowser({});
    QUrlQuery form;
    form.addQueryItem(u"grant_type"_s, u"authorization_code"_s);
    form.addQueryItem(u"code"_s, code);
    form.addQueryItem(u"redirect_uri"_s, flow.redirectUri.toString());
    form.addQueryItem(u"code_verifier"_s, flow.verifier);
    form.addQueryItem(u"resource"_s, resourceIndicator());
    requestToken(form, false);
}

void McpAuthorizer::requestToken(QUrlQuery form, bool refreshing)
{
    QByteArray authorization;
    if (const QString error = addClientAuthentication(form, &authorization); !error.isEmpty()) {
        finish(error);
        return;
    }
    const QByteArray body = formEncoded(form);
    post(m_flow->tokenEndpoint, refreshing ? u"refresh"_s : u"token"_s, body, FormType.toByteArray(),
         authorization,
         [this, refreshing](int status, const QJsonObject &answer) { onToken(status, answer, refreshing); });
}

void McpAuthorizer::onToken(int status, const QJsonObject &body, bool refreshing)
{
    const QString access = body.value("access_token"_L1).toString();
    if (status != 200 || access.isEmpty()) {
        const QString why = body.value("error"_L1).toString();
        if (refreshing) {
            // The refresh token is spent or revoked: sign in afresh.
            m_token.refresh.clear();
            chooseClient();
            return;
        }
        finish(tr("the authorization server refused the token request (HTTP %1%2)")
                   .arg(status)
                   .arg(why.isEmpty() ? QString() : u", "_s + why));
        return;
    }
    const QString type = body.value("token_type"_L1).toString(u"Bearer"_s);
    if (type.compare("bearer"_L1, Qt::CaseInsensitive) != 0) {
        finish(tr("the authorization server issued a token of type “%1”, not a bearer token").arg(type));
        return;
    }
    m_issuer = m_flow->issuer;
    m_token.access = access;
    if (body.contains("refresh_token"_L1) || !refreshing)
        m_token.refresh = body.value("refresh_token"_L1).toString();
    m_token.scope = body.value("scope"_L1).toString(scopeToRequest());
    const int expiresIn = body.value("expires_in"_L1).toInt();
    m_token.expires = expiresIn > 0 ? QDateTime::currentDateTimeUtc().addSecs(expiresIn) : QDateTime();
    log(m_token.scope.isEmpty() ? tr("signed in at %1").arg(m_issuer)
                                : tr("signed in at %1 with scope “%2”").arg(m_issuer, m_token.scope));
    storeToken();
    emit signInChanged();
    finish({});
}

void McpAuthorizer::storeToken()
{
    if (!m_store) {
        if (!std::exchange(m_saidNoKeychain, true))
            log(tr("the sign-in is kept in memory for this run only"));
        return;
    }
    const QJsonObject stored{{u"access"_s, m_token.access},
                             {u"refresh"_s, m_token.refresh},
                             {u"scope"_s, m_token.scope},
                             {u"expires"_s, m_token.expires.toString(Qt::ISODate)}};
    m_store->write(tokenAccount(m_serverName, m_issuer),
                   QString::fromUtf8(QJsonDocument(stored).toJson(QJsonDocument::Compact)), this,
                   [this](const SecretStore::WriteError &error) {
                       if (!error.isEmpty() && !std::exchange(m_saidNoKeychain, true))
                           log(tr("the sign-in is kept in memory for this run only: %1").arg(error.text));
                   });
}

QString McpAuthorizer::addClientAuthentication(QUrlQuery &form, QByteArray *authorization) const
{
    const Flow &flow = *m_flow;
    QString method = flow.authMethod;
    if (method.isEmpty()) {
        if (flow.clientSecret.isEmpty())
            method = u"none"_s;
        else if (flow.authMethods.isEmpty() || flow.authMethods.contains("client_secret_basic"_L1))
            method = u"client_secret_basic"_s;
        else
            method = u"client_secret_post"_s;
    }
    if (method == "client_secret_basic"_L1 && !flow.clientSecret.isEmpty()) {
        const QByteArray credentials
            = QUrl::toPercentEncoding(flow.clientId) + ':' + QUrl::toPercentEncoding(flow.clientSecret);
        *authorization = "Basic " + credentials.toBase64();
        return {};
    }
    if (method == "private_key_jwt"_L1) {
        QFile file(m_settings.privateKeyFile);
        if (!file.open(QIODevice::ReadOnly))
            return tr("the private key file %1 cannot be read: %2").arg(file.fileName(), file.errorString());
        QString error;
        const std::optional<QByteArray> assertion
            = ClientAssertion::sign(file.read(64 * 1024), m_settings.algorithm,
                                    ClientAssertion::claims(flow.clientId, flow.issuer), &error);
        if (!assertion)
            return tr("the private key file %1: %2").arg(file.fileName(), error);
        form.addQueryItem(u"client_assertion_type"_s,
                          u"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"_s);
        form.addQueryItem(u"client_assertion"_s, QString::fromLatin1(*assertion));
        return {};
    }
    form.addQueryItem(u"client_id"_s, flow.clientId);
    if (method == "client_secret_post"_L1 && !flow.clientSecret.isEmpty())
        form.addQueryItem(u"client_secret"_s, flow.clientSecret);
    return {};
}

QString McpAuthorizer::scopeToRequest() const
{
    if (!m_flow->challenge.scope.isEmpty())
        return m_flow->challenge.scope;
    if (!m_settings.scope.isEmpty())
        return m_settings.scope;
    return stringList(m_flow->resourceMetadata.value("scopes_supported"_L1)).join(u' ');
}

QString McpAuthorizer::resourceIndicator() const
{
    const QString resource = m_flow->resourceMetadata.value("resource"_L1).toString();
    return resource.isEmpty() ? m_serverUrl.toString() : resource;
}

void McpAuthorizer::reportStep(const QString &step, const QString &method, const QUrl &url, int status,
                               const QString &error, qint64 startedUs)
{
    // The URL without its query, user info or fragment: an authorization URL's query holds the PKCE
    // challenge and the state, a redirect's the code.
    const QString shown = url.toString(QUrl::RemoveQuery | QUrl::RemoveUserInfo | QUrl::RemoveFragment);
    emit stepDone({{m_serverName, step, method, shown, status, error}, startedUs, nowUs()});
}

void McpAuthorizer::reportBrowser(const QString &error)
{
    const qint64 startedUs = std::exchange(m_flow->browserStartedUs, 0);
    reportStep(u"authorization"_s, u"BROWSER"_s, m_flow->authorizationEndpoint, 0, error, startedUs);
}

void McpAuthorizer::get(const QUrl &url, const QString &step, JsonCallback done)
{
    const qint64 startedUs = nowUs();
    QNetworkRequest request(url);
    request.setRawHeader("Accept", "application/json");
    request.setRawHeader("MCP-Protocol-Version", "2025-11-25");
    QNetworkReply *reply = m_network->get(request);
    connect(reply, &QNetworkReply::finished, this, [this, reply, url, step, startedUs, done] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        log(u"GET %1 → %2"_s.arg(url.toString(QUrl::RemoveQuery),
                                 status ? QString::number(status) : reply->errorString()));
        // A discovery that finds nothing is not a failure: the next candidate is tried.
        reportStep(step, u"GET"_s, url, status, status ? QString() : reply->errorString(), startedUs);
        if (m_flow)
            done(status, QJsonDocument::fromJson(reply->readAll()).object());
    });
}

void McpAuthorizer::post(const QUrl &url, const QString &step, const QByteArray &body,
                         const QByteArray &contentType, const QByteArray &authorization, JsonCallback done)
{
    const qint64 startedUs = nowUs();
    QNetworkRequest request(url);
    request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    request.setRawHeader("Accept", "application/json");
    if (!authorization.isEmpty())
        request.setRawHeader("Authorization", authorization);
    QNetworkReply *reply = m_network->post(request, body);
    connect(reply, &QNetworkReply::finished, this, [this, reply, url, step, startedUs, done] {
        reply->deleteLater();
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        log(u"POST %1 → %2"_s.arg(url.toString(QUrl::RemoveQuery),
                                  status ? QString::number(status) : reply->errorString()));
        const QJsonObject answer = QJsonDocument::fromJson(reply->readAll()).object();
        QString error = status ? QString() : reply->errorString();
        if (status >= 300) {
            // The OAuth error code only (RFC 6749 §5.2), never the body: it may echo what was sent.
            const QString code = answer.value("error"_L1).toString();
            error = code.isEmpty() ? u"HTTP %1"_s.arg(status) : u"HTTP %1, %2"_s.arg(status).arg(code);
        }
        reportStep(step, u"POST"_s, url, status, error, startedUs);
        if (m_flow)
            done(status, answer);
    });
}

} // namespace Loopscope
