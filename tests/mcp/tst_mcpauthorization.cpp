#include "agent/config/secretstore.h"
#include "agent/mcp/clientassertion.h"
#include "agent/mcp/mcpauthorizer.h"
#include "agent/mcp/mcpclient.h"
#include "agent/mcp/mcpconfigimport.h"
#include "agent/mcp/urlopener.h"
#include "tests/mcp/followingopener.h"
#include "tests/mcp/mcptestservers.h"
#include "tests/support/nokeychainstore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

#include <openssl/evp.h>
#include <openssl/pem.h>

using namespace Qt::StringLiterals;
using namespace Loopscope;

Q_DECLARE_METATYPE(Loopscope::McpAuthChallenge)

namespace {

// A keychain in memory, answering later as a keychain does.
class MemoryStore final : public SecretStore
{
public:
    void read(const QString &account, QObject *context, ReadCallback done) override
    {
        const std::optional<QString> secret
            = secrets.contains(account) ? std::optional(secrets.value(account)) : std::nullopt;
        QTimer::singleShot(0, context, [done, secret] { done({secret, {}, Problem::None}); });
    }
    void write(const QString &account, const QString &secret, QObject *context, WriteCallback done) override
    {
        secrets.insert(account, secret);
        QTimer::singleShot(0, context, [done] { done({}); });
    }
    void remove(const QString &account, QObject *context, WriteCallback done) override
    {
        secrets.remove(account);
        QTimer::singleShot(0, context, [done] { done({}); });
    }
    QHash<QString, QString> secrets;
};

// A fresh private key as PEM: "EC" (P-256) or "RSA".
QByteArray generatedKey(const char *type)
{
    EVP_PKEY *key = qstrcmp(type, "EC") == 0 ? EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256")
                                             : EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t(2048));
    BIO *bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(bio, key, nullptr, nullptr, 0, nullptr, nullptr);
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    const QByteArray pem(data, size);
    BIO_free(bio);
    EVP_PKEY_free(key);
    return pem;
}

} // namespace

class TestMcpAuthorization final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();

    void theChallengeIsReadFromWwwAuthenticate_data();
    void theChallengeIsReadFromWwwAuthenticate();
    void theBrowserCommandTakesTheUrlInPlaceOfPercentSOrAtTheEnd_data();
    void theBrowserCommandTakesTheUrlInPlaceOfPercentSOrAtTheEnd();
    void theOauthEntryIsReadFromAnMcpConfigFile();
    void aClientAssertionIsAJwtSignedWithTheClientsKey_data();
    void aClientAssertionIsAJwtSignedWithTheClientsKey();
    void aKeyThatDoesNotFitTheAlgorithmSignsNothing();

    void aServerThatAsksForOAuthIsSignedInToThroughTheBrowser();
    void noTokenReachesTheLogTheMessagesOrACallOutcome();
    void withoutAKeychainTheSignInIsKeptInMemoryAndThatIsSaidOnce();
    void anExpiredTokenIsRefreshedWithoutTheBrowser();
    void aSignInKeptInTheStoreIsUsedByTheNextRun();
    void aRefusingAuthorizationServerFailsTheStartWithItsAnswer();
    void aSlowSignInIsWaitedForBeyondTheStartupTimeout();
    void aRedirectWithAnotherStateIsRefused();
    void theIssuerOfTheAuthorizationResponseIsChecked_data();
    void theIssuerOfTheAuthorizationResponseIsChecked();
    void aDynamicallyRegisteredClientIsUsedAgainAfterSigningOut();
    void tokensAndTheRegistrationLiveInTheKeychainUntilSignOut();

private:
    std::unique_ptr<McpClient> startClient(const QString &mode, SecretStore *store = nullptr,
                                           int startupTimeoutMs = 30'000);
    QString baseUrl() const { return u"http://127.0.0.1:%1"_s.arg(m_port); }

    QNetworkAccessManager m_network;
    std::unique_ptr<McpTestServers::FollowingOpener> m_opener;
    std::unique_ptr<QProcess> m_server;
    quint16 m_port = 0;
    QStringList m_log;
};

void TestMcpAuthorization::init()
{
    m_opener = std::make_unique<McpTestServers::FollowingOpener>(&m_network);
    m_log.clear();
}

void TestMcpAuthorization::cleanup()
{
    if (m_server) {
        m_server->kill();
        m_server->waitForFinished(5000);
        m_server.reset();
    }
}

std::unique_ptr<McpClient> TestMcpAuthorization::startClient(const QString &mode, SecretStore *store,
                                                             int startupTimeoutMs)
{
    if (!m_server) {
        m_server = std::make_unique<QProcess>();
        QString error;
        m_port = McpTestServers::startAuthServer(*m_server, mode, &error);
        if (!m_port)
            qFatal("%s", qPrintable(error));
    }
    auto client = std::make_unique<McpClient>(McpTestServers::authServer(m_port), &m_network);
    client->setAuthorizationServices(m_opener.get(), store);
    client->setStartupTimeoutMs(startupTimeoutMs);
    connect(client.get(), &McpClient::stderrLine, this, [this](const QString &line) { m_log.append(line); });
    connect(client.get(), &McpClient::messageLogged, this, [this](bool, const QJsonObject &message) {
        m_log.append(QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact)));
    });
    client->start();
    return client;
}

void TestMcpAuthorization::theChallengeIsReadFromWwwAuthenticate_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<McpAuthChallenge>("expected");
    QTest::newRow("resource metadata only")
        << QByteArray(
               R"(Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource")")
        << McpAuthChallenge{{}, {}, QUrl(u"https://mcp.example.com/.well-known/oauth-protected-resource"_s)};
    QTest::newRow("insufficient scope with two scopes")
        << QByteArray(R"(Bearer error="insufficient_scope", scope="files:read files:write")")
        << McpAuthChallenge{u"insufficient_scope"_s, u"files:read files:write"_s, {}};
    QTest::newRow("token values and escaped quotes")
        << QByteArray(R"(Bearer realm="a \"b\"", error=invalid_token, scope=mcp)")
        << McpAuthChallenge{u"invalid_token"_s, u"mcp"_s, {}};
    QTest::newRow("nothing") << QByteArray("Bearer") << McpAuthChallenge{};
}

void TestMcpAuthorization::theChallengeIsReadFromWwwAuthenticate()
{
    QFETCH(QByteArray, header);
    QFETCH(McpAuthChallenge, expected);
    const McpAuthChallenge challenge = McpAuthChallenge::parse(header);
    QCOMPARE(challenge.error, expected.error);
    QCOMPARE(challenge.scope, expected.scope);
    QCOMPARE(challenge.resourceMetadata, expected.resourceMetadata);
}

void TestMcpAuthorization::theBrowserCommandTakesTheUrlInPlaceOfPercentSOrAtTheEnd_data()
{
    QTest::addColumn<QString>("browser");
    QTest::addColumn<QStringList>("expected");
    const QString url = u"https://as.example.com/authorize?a=1&b=2"_s;
    QTest::newRow("appended") << u"curl -sL"_s << QStringList{u"curl"_s, u"-sL"_s, url};
    QTest::newRow("in place of %s") << u"firefox --new-window %s --private"_s
                                    << QStringList{u"firefox"_s, u"--new-window"_s, url, u"--private"_s};
    QTest::newRow("quoted program") << u"\"/opt/my browser/run\""_s
                                    << QStringList{u"/opt/my browser/run"_s, url};
    QTest::newRow("unset") << QString() << QStringList{};
}

void TestMcpAuthorization::theBrowserCommandTakesTheUrlInPlaceOfPercentSOrAtTheEnd()
{
    QFETCH(QString, browser);
    QFETCH(QStringList, expected);
    QCOMPARE(UrlOpener::browserCommand(browser, QUrl(u"https://as.example.com/authorize?a=1&b=2"_s)),
             expected);
}

void TestMcpAuthorization::theOauthEntryIsReadFromAnMcpConfigFile()
{
    const QByteArray json = R"({"mcpServers": {"remote": {"url": "https://mcp.example.com/mcp",
        "oauth": {"clientId": "loopscope", "clientSecret": "s3", "scope": "a  b", "grant": "client_credentials"}}}})";
    const McpConfigImport imported = McpConfigImport::fromJson(json, u"mcp.json"_s);
    QCOMPARE(imported.servers.size(), 1);
    const McpOAuthSettings &oauth = imported.servers.constFirst().oauth;
    QCOMPARE(oauth.clientId, u"loopscope"_s);
    QCOMPARE(oauth.clientSecret, u"s3"_s);
    QCOMPARE(oauth.scope, u"a b"_s);
    QCOMPARE(oauth.grant, McpOAuthSettings::Grant::ClientCredentials);
    // Settings keep the secret in the keychain, not in the settings JSON.
    QVERIFY(!imported.servers.constFirst().toJson().value("oauth"_L1).toObject().contains("clientSecret"_L1));
    QVERIFY(imported.servers.constFirst().toJson().value("oauth"_L1).toObject().contains("clientId"_L1));
}

void TestMcpAuthorization::aClientAssertionIsAJwtSignedWithTheClientsKey_data()
{
    QTest::addColumn<QByteArray>("keyType");
    QTest::addColumn<QString>("algorithm");
    QTest::addColumn<int>("signatureBytes");
    QTest::newRow("ES256: R and S, 32 bytes each") << QByteArray("EC") << u"ES256"_s << 64;
    QTest::newRow("RS256: one 2048-bit block") << QByteArray("RSA") << u"RS256"_s << 256;
}

void TestMcpAuthorization::aClientAssertionIsAJwtSignedWithTheClientsKey()
{
    QFETCH(QByteArray, keyType);
    QFETCH(QString, algorithm);
    QFETCH(int, signatureBytes);
    QString error;
    const std::optional<QByteArray> jwt
        = ClientAssertion::sign(generatedKey(keyType.constData()), algorithm,
                                ClientAssertion::claims(u"loopscope"_s, u"https://as.example.com"_s), &error);
    QVERIFY2(jwt, qPrintable(error));
    const QList<QByteArray> parts = jwt->split('.');
    QCOMPARE(parts.size(), 3);
    const auto decoded = [](const QByteArray &part) {
        return QJsonDocument::fromJson(QByteArray::fromBase64(part, QByteArray::Base64UrlEncoding)).object();
    };
    QCOMPARE(decoded(parts[0]).value("alg"_L1).toString(), algorithm);
    const QJsonObject claims = decoded(parts[1]);
    QCOMPARE(claims.value("iss"_L1).toString(), u"loopscope"_s);
    QCOMPARE(claims.value("sub"_L1).toString(), u"loopscope"_s);
    QCOMPARE(claims.value("aud"_L1).toString(), u"https://as.example.com"_s);
    QVERIFY(claims.value("exp"_L1).toInteger() > claims.value("iat"_L1).toInteger());
    QCOMPARE(QByteArray::fromBase64(parts[2], QByteArray::Base64UrlEncoding).size(), signatureBytes);
}

void TestMcpAuthorization::aKeyThatDoesNotFitTheAlgorithmSignsNothing()
{
    QString error;
    QVERIFY(!ClientAssertion::sign(generatedKey("RSA"), u"ES256"_s, {}, &error));
    QVERIFY2(error.contains(u"does not fit"_s), qPrintable(error));
    QVERIFY(!ClientAssertion::sign("not a key", u"ES256"_s, {}, &error));
    QVERIFY2(error.contains(u"not a PEM private key"_s), qPrintable(error));
}

void TestMcpAuthorization::aServerThatAsksForOAuthIsSignedInToThroughTheBrowser()
{
    const auto client = startClient(u"ok"_s);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Ready, 15'000);
    QCOMPARE(m_opener->opened, 1);
    QCOMPARE(client->tools().size(), 1);
    QVERIFY(m_log.join(u'\n').contains(u"[OAuth] POST %1/token → 200"_s.arg(baseUrl())));
}

void TestMcpAuthorization::noTokenReachesTheLogTheMessagesOrACallOutcome()
{
    const auto client = startClient(u"ok"_s);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Ready, 15'000);
    std::optional<McpCallOutcome> outcome;
    client->callTool(u"whoami"_s, {}, 10'000, {},
                     [&outcome](const McpCallOutcome &result) { outcome = result; });
    QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), 10'000);
    QCOMPARE(outcome->failure, QString());
    QVERIFY(!m_log.isEmpty());
    const QString everything = m_log.join(u'\n') + client->stderrTail().join(u'\n')
                               + outcome->stderrLines.join(u'\n')
                               + QString::fromUtf8(QJsonDocument(outcome->request).toJson())
                               + QString::fromUtf8(QJsonDocument(outcome->response).toJson());
    QVERIFY2(!everything.contains(u"SECRET-"_s), qPrintable(everything));
}

void TestMcpAuthorization::withoutAKeychainTheSignInIsKeptInMemoryAndThatIsSaidOnce()
{
    QTemporaryDir folder;
    NoKeychainStore store(folder.filePath(u"keys"_s));
    const auto client = startClient(u"expire"_s, &store);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Ready, 15'000);
    for (int call = 0; call < 2; ++call) {
        std::optional<McpCallOutcome> outcome;
        client->callTool(u"whoami"_s, {}, 10'000, {}, [&outcome](const McpCallOutcome &r) { outcome = r; });
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), 10'000);
        QCOMPARE(outcome->failure, QString());
    }
    QTRY_COMPARE(m_log.filter(u"kept in memory for this run only"_s).size(), 1);
}

void TestMcpAuthorization::anExpiredTokenIsRefreshedWithoutTheBrowser()
{
    const auto client = startClient(u"expire"_s);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Ready, 15'000);
    QStringList texts;
    for (int call = 0; call < 2; ++call) {
        std::optional<McpCallOutcome> outcome;
        client->callTool(u"whoami"_s, {}, 10'000, {}, [&outcome](const McpCallOutcome &r) { outcome = r; });
        QTRY_VERIFY_WITH_TIMEOUT(outcome.has_value(), 10'000);
        QCOMPARE(outcome->failure, QString());
        texts.append(outcome->text);
    }
    QCOMPARE(texts, (QStringList{u"refreshed 0"_s, u"refreshed 1"_s}));
    QCOMPARE(m_opener->opened, 1);
}

void TestMcpAuthorization::aSignInKeptInTheStoreIsUsedByTheNextRun()
{
    MemoryStore store;
    {
        const auto first = startClient(u"ok"_s, &store);
        QTRY_COMPARE_WITH_TIMEOUT(first->state(), McpClient::State::Ready, 15'000);
    }
    const QString account = McpAuthorizer::tokenAccount(u"auth"_s, baseUrl());
    QTRY_VERIFY(store.secrets.contains(account));
    QCOMPARE(QJsonDocument::fromJson(store.secrets.value(account).toUtf8())[u"access"_s].toString(),
             u"SECRET-ACCESS-1"_s);
    const auto second = startClient(u"ok"_s, &store);
    QTRY_COMPARE_WITH_TIMEOUT(second->state(), McpClient::State::Ready, 15'000);
    QCOMPARE(m_opener->opened, 1); // only the first run opened the browser
}

void TestMcpAuthorization::aRefusingAuthorizationServerFailsTheStartWithItsAnswer()
{
    const auto client = startClient(u"refuse-token"_s);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, 15'000);
    QVERIFY2(client->failureReason().contains(u"refused the token request (HTTP 400, invalid_grant)"_s),
             qPrintable(client->failureReason()));
}

void TestMcpAuthorization::aSlowSignInIsWaitedForBeyondTheStartupTimeout()
{
    m_opener->delayMs = 2500;
    const auto client = startClient(u"ok"_s, nullptr, 1000);
    QTRY_VERIFY_WITH_TIMEOUT(client->state() != McpClient::State::Starting, 15'000);
    QCOMPARE(client->failureReason(), QString());
    QCOMPARE(client->state(), McpClient::State::Ready);
}

void TestMcpAuthorization::aRedirectWithAnotherStateIsRefused()
{
    const auto client = startClient(u"wrong-state"_s);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, 15'000);
    QVERIFY2(client->failureReason().contains(u"state that does not match"_s),
             qPrintable(client->failureReason()));
    QVERIFY(!m_log.join(u'\n').contains(u"/token →"_s)); // the code was never exchanged
}

void TestMcpAuthorization::theIssuerOfTheAuthorizationResponseIsChecked_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("failure"); // empty: signed in
    QTest::newRow("the promised issuer is named") << u"iss"_s << QString();
    QTest::newRow("another issuer is named")
        << u"wrong-iss"_s << u"came back from the issuer https://mix-up.example, not from %1 (refused)"_s;
    QTest::newRow("the promised issuer is missing")
        << u"no-iss"_s << u"came back without naming its issuer, which %1 promises (refused)"_s;
}

void TestMcpAuthorization::theIssuerOfTheAuthorizationResponseIsChecked()
{
    QFETCH(QString, mode);
    QFETCH(QString, failure);
    const auto client = startClient(mode);
    QTRY_VERIFY_WITH_TIMEOUT(client->state() != McpClient::State::Starting, 15'000);
    if (failure.isEmpty()) {
        QCOMPARE(client->failureReason(), QString());
        QCOMPARE(client->state(), McpClient::State::Ready);
        return;
    }
    QCOMPARE(client->state(), McpClient::State::Failed);
    QVERIFY2(client->failureReason().contains(failure.arg(baseUrl())), qPrintable(client->failureReason()));
    QVERIFY(!m_log.join(u'\n').contains(u"/token →"_s)); // the code was never exchanged
}

void TestMcpAuthorization::aDynamicallyRegisteredClientIsUsedAgainAfterSigningOut()
{
    MemoryStore store;
    const auto first = startClient(u"ok"_s, &store);
    QTRY_COMPARE_WITH_TIMEOUT(first->state(), McpClient::State::Ready, 15'000);
    const std::optional<McpSignIn> signIn = first->signIn();
    QVERIFY(signIn);
    QCOMPARE(signIn->issuer, baseUrl());
    QCOMPARE(signIn->scope, u"files:read"_s);
    QVERIFY(signIn->expires > QDateTime::currentDateTimeUtc().addSecs(3000));
    const QString tokens = McpAuthorizer::tokenAccount(u"auth"_s, baseUrl());
    const QString registration = McpAuthorizer::clientAccount(u"auth"_s, baseUrl());
    QTRY_VERIFY(store.secrets.contains(tokens));
    QCOMPARE(QJsonDocument::fromJson(store.secrets.value(registration).toUtf8())[u"clientId"_s].toString(),
             u"dynamic-client"_s);

    QSignalSpy changed(first.get(), &McpClient::signInChanged);
    std::optional<QString> signOutError;
    first->signOut([&signOutError](const QString &error) { signOutError = error; });
    QTRY_VERIFY(signOutError.has_value());
    QCOMPARE(*signOutError, QString());
    QCOMPARE(changed.size(), 1);
    QVERIFY(!first->signIn());
    QVERIFY(!store.secrets.contains(tokens));
    QVERIFY(store.secrets.contains(registration)); // signing out keeps the registration

    const auto second = startClient(u"ok"_s, &store);
    QTRY_COMPARE_WITH_TIMEOUT(second->state(), McpClient::State::Ready, 15'000);
    QCOMPARE(m_opener->opened, 2); // signed in again through the browser …
    const QString log = m_log.join(u'\n');
    QCOMPARE(log.count(u"POST %1/register"_s.arg(baseUrl())), 1); // … as the client registered before
    QVERIFY(log.contains(u"using the client registration kept for %1"_s.arg(baseUrl())));
}

void TestMcpAuthorization::tokensAndTheRegistrationLiveInTheKeychainUntilSignOut()
{
    // A real Secret Service (the test runs under with-keyring.sh), under a service of its own.
    KeychainSecretStore keychain(u"Loopscope-test-%1"_s.arg(QCoreApplication::applicationPid()));
    const auto read = [&keychain, this](const QString &account) {
        std::optional<SecretStore::Result> result;
        keychain.read(account, this, [&result](const SecretStore::Result &r) { result = r; });
        [&] {
            QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 10'000);
        }();
        return result.value_or(SecretStore::Result{});
    };
    {
        const auto first = startClient(u"ok"_s, &keychain);
        QTRY_COMPARE_WITH_TIMEOUT(first->state(), McpClient::State::Ready, 15'000);
    }
    const QString tokens = McpAuthorizer::tokenAccount(u"auth"_s, baseUrl());
    QTRY_VERIFY_WITH_TIMEOUT(read(tokens).secret.has_value(), 10'000);
    const SecretStore::Result stored = read(tokens);
    QCOMPARE(stored.error, QString());
    QCOMPARE(QJsonDocument::fromJson(stored.secret->toUtf8())[u"access"_s].toString(), u"SECRET-ACCESS-1"_s);
    QVERIFY(read(McpAuthorizer::clientAccount(u"auth"_s, baseUrl())).secret.has_value());

    const auto second = startClient(u"ok"_s, &keychain);
    QTRY_COMPARE_WITH_TIMEOUT(second->state(), McpClient::State::Ready, 15'000);
    QCOMPARE(m_opener->opened, 1); // the keychain's token, no browser
    QVERIFY(second->signIn());

    std::optional<QString> signOutError;
    second->signOut([&signOutError](const QString &error) { signOutError = error; });
    QTRY_VERIFY_WITH_TIMEOUT(signOutError.has_value(), 10'000);
    QCOMPARE(*signOutError, QString());
    const SecretStore::Result afterSignOut = read(tokens);
    QCOMPARE(afterSignOut.error, QString());
    QVERIFY(!afterSignOut.secret.has_value());
    keychain.remove(McpAuthorizer::clientAccount(u"auth"_s, baseUrl()), this, [](const auto &) {});
}

QTEST_GUILESS_MAIN(TestMcpAuthorization)
#include "tst_mcpauthorization.moc"
