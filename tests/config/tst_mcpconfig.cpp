#include "agent/config/filesecretstore.h"
#include "agent/config/secretstore.h"
#include "agent/mcp/mcpconfigimport.h"
#include "agent/mcp/mcpsettings.h"

#include <QFile>
#include <QJsonDocument>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

McpServerConfig stdioServer()
{
    McpServerConfig server;
    server.name = u"files"_s;
    server.command = u"npx"_s;
    server.arguments = {u"-y"_s, u"@modelcontextprotocol/server-filesystem"_s, u"/tmp"_s};
    server.environment = {{u"DEBUG"_s, u"1"_s}, {u"GITHUB_TOKEN"_s, u"ghp-secret-env-0123"_s}};
    server.workingDirectory = u"/srv"_s;
    server.enabled = false;
    server.disabledTools = {u"write_file"_s, u"move_file"_s};
    server.toolApproval = {{u"read_file"_s, u"always"_s}, {u"delete"_s, u"never"_s}};
    server.defaultApproval = u"never"_s;
    server.requestTimeoutMs = 12'000;
    server.logLevel = u"warning"_s;
    return server;
}

McpServerConfig httpServer()
{
    McpServerConfig server;
    server.name = u"remote"_s;
    server.transport = McpServerConfig::Transport::Http;
    server.url = QUrl(u"https://mcp.example.com/mcp"_s);
    server.headers = {{u"Authorization"_s, u"Bearer sk-secret-header-4567"_s},
                      {u"X-Client"_s, u"loopscope"_s},
                      {u"X-Session-Token"_s, u"tok-secret-89"_s}};
    return server;
}

// The server as settings give it back: the secret values blank.
McpServerConfig withoutSecrets(McpServerConfig server)
{
    for (const QString &header : server.secretHeaderNames())
        server.headers[header].clear();
    for (const QString &variable : server.secretEnvironmentNames())
        server.environment[variable].clear();
    return server;
}

// A keychain in memory, to count what is written and removed; absent (as on a desktop without a
// Secret Service) when told so, and with a key file when given one.
class MemorySecretStore final : public SecretStore
{
public:
    QHash<QString, QString> secrets;
    bool absent = false;
    SecretStore *file = nullptr;

    void read(const QString &account, QObject *, ReadCallback done) override
    {
        if (absent)
            return done({std::nullopt, u"no Secret Service"_s, Problem::NoKeychain});
        done({secrets.contains(account) ? std::optional(secrets.value(account)) : std::nullopt, {}});
    }
    void write(const QString &account, const QString &secret, QObject *, WriteCallback done) override
    {
        if (absent)
            return done({Problem::NoKeychain, u"no Secret Service"_s});
        secrets.insert(account, secret);
        done({});
    }
    void remove(const QString &account, QObject *, WriteCallback done) override
    {
        if (absent)
            return done({Problem::NoKeychain, u"no Secret Service"_s});
        secrets.remove(account);
        done({});
    }
    SecretStore *keyFile() const override { return file; }
};

McpServerConfig keptIn(McpServerConfig server, McpServerConfig::SecretStorage storage)
{
    server.secretStorage = storage;
    return server;
}

QStringList names(const QList<McpServerConfig> &servers)
{
    QStringList result;
    for (const McpServerConfig &server : servers)
        result.append(server.name);
    return result;
}

} // namespace

// Runs inside dbus-run-session with an unlocked gnome-keyring (see CMakeLists.txt).
class McpConfigTest : public QObject
{
    Q_OBJECT

private slots:
    void aServerSurvivesTheJsonRoundTripWithoutItsSecrets_data()
    {
        QTest::addColumn<McpServerConfig>("server");
        QTest::newRow("stdio with every field") << stdioServer();
        QTest::newRow("http with secret headers") << httpServer();
        McpServerConfig plain;
        plain.name = u"plain"_s;
        plain.command = u"server"_s;
        QTest::newRow("stdio with defaults only") << plain;
    }

    void aServerSurvivesTheJsonRoundTripWithoutItsSecrets()
    {
        QFETCH(McpServerConfig, server);
        const QJsonObject json = server.toJson();
        const QByteArray text = QJsonDocument(json).toJson();
        QVERIFY(!text.contains("sk-secret") && !text.contains("ghp-secret"));
        QVERIFY(!text.contains("tok-secret"));
        QString error;
        const auto back = McpServerConfig::fromJson(json, &error);
        QCOMPARE(error, QString());
        QVERIFY(back);
        QCOMPARE(*back, withoutSecrets(server));
        // The names of the secrets survive, so their values can be found in the keychain again.
        QCOMPARE(back->secretHeaderNames(), server.secretHeaderNames());
        QCOMPARE(back->secretEnvironmentNames(), server.secretEnvironmentNames());
    }

    void secretHeadersAreRecognisedByName_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<bool>("secret");
        QTest::newRow("Authorization") << u"Authorization"_s << true;
        QTest::newRow("lower-case authorization") << u"authorization"_s << true;
        QTest::newRow("x-api-key") << u"X-API-Key"_s << true;
        QTest::newRow("a token") << u"X-Github-Token"_s << true;
        QTest::newRow("a secret") << u"Client-Secret"_s << true;
        QTest::newRow("cookie") << u"Cookie"_s << true;
        QTest::newRow("accept") << u"Accept"_s << false;
        QTest::newRow("user agent") << u"User-Agent"_s << false;
    }

    void secretHeadersAreRecognisedByName()
    {
        QFETCH(QString, header);
        QFETCH(bool, secret);
        McpServerConfig server = httpServer();
        server.headers = {{header, u"value"_s}};
        QCOMPARE(server.secretHeaderNames().contains(header), secret);
    }

    void secretAccountsNameTheServerAndTheHeader()
    {
        QCOMPARE(McpServerConfig::secretAccount(u"remote"_s, u"Authorization"_s),
                 u"mcp/remote/Authorization"_s);
        QVERIFY(McpServerConfig::secretEnvironmentAccount(u"remote"_s, u"TOKEN"_s)
                != McpServerConfig::secretAccount(u"remote"_s, u"TOKEN"_s));
    }

    void badSettingsEntriesAreRefusedWithASentence_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no name") << R"({"command": "x"})"_ba << u"has no name"_s;
        QTest::newRow("stdio without command") << R"({"name": "a"})"_ba << u"“a” has no command"_s;
        QTest::newRow("http without url") << R"({"name": "a", "transport": "http"})"_ba << u"URL"_s;
        QTest::newRow("ftp url") << R"({"name": "a", "transport": "http", "url": "ftp://x/"})"_ba << u"URL"_s;
        QTest::newRow("unknown transport")
            << R"({"name": "a", "transport": "sse", "url": "http://x/"})"_ba << u"unknown transport"_s;
        QTest::newRow("args not strings")
            << R"({"name": "a", "command": "x", "args": [1]})"_ba << u"arguments"_s;
        QTest::newRow("bad rule") << R"({"name": "a", "command": "x", "toolApproval": {"t": "maybe"}})"_ba
                                  << u"“maybe”"_s;
        QTest::newRow("negative timeout")
            << R"({"name": "a", "command": "x", "requestTimeoutMs": -5})"_ba << u"timeout"_s;
        QTest::newRow("unknown log level") << R"({"name": "a", "command": "x", "logLevel": "verbose"})"_ba
                                           << u"unknown log level “verbose”"_s;
    }

    void badSettingsEntriesAreRefusedWithASentence()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        QString error;
        QVERIFY(!McpServerConfig::fromJson(QJsonDocument::fromJson(json).object(), &error));
        QVERIFY2(error.contains(expected), qPrintable(error));
        QVERIFY(error.endsWith(u'.'));
    }

    // JSON here writes "https:\/\/" (the same URL to a JSON parser) in strings over several lines:
    // moc 6.4 reads a // there as a comment and loses every test function after it.
    void importReadsEachFormat_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QStringList>("servers");
        QTest::addColumn<int>("noteCount");

        QTest::newRow("Claude Desktop") << R"({"mcpServers": {
            "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me"]},
            "github": {"command": "docker", "args": ["run", "-i", "ghcr.io/github/github-mcp-server"],
                       "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_x"}}},
            "globalShortcut": ""})"_ba << QStringList{u"filesystem"_s, u"github"_s}
                                        << 0;
        QTest::newRow(".mcp.json with http and stdio") << R"({"mcpServers": {
            "api": {"type": "http", "url": "https:\/\/api.example.com/mcp", "headers": {"Authorization": "Bearer x"}},
            "local": {"type": "stdio", "command": "server", "cwd": "/srv"}}})"_ba
                                                       << QStringList{u"api"_s, u"local"_s} << 0;
        QTest::newRow("Cursor url without type")
            << R"({"mcpServers": {"remote": {"url": "https://x.dev/mcp"}}})"_ba << QStringList{u"remote"_s}
            << 0;
        QTest::newRow("LM Studio streamableHttp")
            << R"({"mcpServers": {"hf": {"type": "streamableHttp", "url": "https://hf.co/mcp"}}})"_ba
            << QStringList{u"hf"_s} << 0;
        QTest::newRow("sse skipped with a note") << R"({"mcpServers": {
            "old": {"type": "sse", "url": "https:\/\/old.example.com/sse"},
            "new": {"command": "server"}}})"_ba << QStringList{u"new"_s}
                                                 << 1;
        QTest::newRow("entry without command or url") << R"({"mcpServers": {"broken": {"args": ["x"]},
            "fine": {"command": "x"}}})"_ba << QStringList{u"fine"_s}
                                                      << 1;
        QTest::newRow("entry not an object")
            << R"({"mcpServers": {"broken": "npx", "fine": {"command": "x"}}})"_ba << QStringList{u"fine"_s}
            << 1;
        QTest::newRow("VS Code with inputs") << R"({
            "inputs": [{"type": "promptString", "id": "api-key", "description": "Key", "password": true}],
            "servers": {
              "perplexity": {"type": "stdio", "command": "npx", "args": ["-y", "server-perplexity-ask"],
                             "env": {"PERPLEXITY_API_KEY": "${input:api-key}"}},
              "docs": {"type": "http", "url": "https:\/\/docs.example.com/mcp"}}})"_ba
                                             << QStringList{u"docs"_s, u"perplexity"_s} << 1;
        QTest::newRow("VS Code workspaceFolder") << R"({"servers": {"fs": {"command": "npx",
            "args": ["server-filesystem", "${workspaceFolder}"]}}})"_ba
                                                 << QStringList{u"fs"_s} << 1;
        QTest::newRow("VS Code settings.json") << R"({"editor.fontSize": 12, "mcp": {"servers": {
            "fs": {"command": "x"}}}})"_ba << QStringList{u"fs"_s}
                                               << 0;
        QTest::newRow("empty list") << R"({"mcpServers": {}})"_ba << QStringList() << 1;
    }

    void importReadsEachFormat()
    {
        QFETCH(QByteArray, json);
        QFETCH(QStringList, servers);
        QFETCH(int, noteCount);
        const McpConfigImport result = McpConfigImport::fromJson(json, u"config.json"_s);
        QCOMPARE(result.error, QString());
        QCOMPARE(names(result.servers), servers);
        QVERIFY2(result.notes.size() == noteCount, qPrintable(result.notes.join(u'\n')));
        for (const McpServerConfig &server : result.servers) {
            QVERIFY(server.enabled);
            QCOMPARE(server.defaultApproval, u"ask"_s);
            // Every imported entry is one the settings accept.
            QString error;
            QVERIFY2(McpServerConfig::fromJson(server.toJson(), &error), qPrintable(error));
        }
    }

    void importKeepsEveryFieldOfAnEntry()
    {
        const McpConfigImport result = McpConfigImport::fromJson(R"({"mcpServers": {
            "api": {"type": "http", "url": "https:\/\/api.example.com/mcp", "headers": {"Authorization": "Bearer x"}},
            "gh": {"command": "docker", "args": ["run", "-i"], "env": {"TOKEN": "t", "PORT": 8080}, "cwd": "/w"}}})"_ba,
                                                                 u"a"_s);
        QCOMPARE(result.servers.size(), 2);
        const McpServerConfig &api = result.servers.at(0);
        QCOMPARE(api.transport, McpServerConfig::Transport::Http);
        QCOMPARE(api.url, QUrl(u"https://api.example.com/mcp"_s));
        QCOMPARE(api.headers.value(u"Authorization"_s), u"Bearer x"_s);
        const McpServerConfig &gh = result.servers.at(1);
        QCOMPARE(gh.transport, McpServerConfig::Transport::Stdio);
        QCOMPARE(gh.command, u"docker"_s);
        QCOMPARE(gh.arguments, (QStringList{u"run"_s, u"-i"_s}));
        QCOMPARE(gh.environment.value(u"PORT"_s), u"8080"_s);
        QCOMPARE(gh.workingDirectory, u"/w"_s);
    }

    void importOfAnUnusableFileIsAnErrorNamingIt_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not JSON") << "{mcpServers: nope"_ba << u"not valid JSON"_s;
        QTest::newRow("not an object") << R"(["a"])"_ba << u"does not hold a JSON object"_s;
        QTest::newRow("empty") << ""_ba << u"is empty"_s;
        QTest::newRow("no servers key")
            << R"({"theme": "dark"})"_ba << u"neither “mcpServers” nor “servers”"_s;
        QTest::newRow("servers not an object") << R"({"mcpServers": []})"_ba << u"not as an object"_s;
    }

    void importOfAnUnusableFileIsAnErrorNamingIt()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        const McpConfigImport result = McpConfigImport::fromJson(json, u"/home/me/mcp.json"_s);
        QVERIFY2(result.error.contains(expected), qPrintable(result.error));
        QVERIFY(result.error.contains(u"/home/me/mcp.json"_s));
        QVERIFY(result.servers.isEmpty());
    }

    void importFromAMissingFileSaysSo()
    {
        const McpConfigImport result = McpConfigImport::fromFile(u"/nonexistent/claude.json"_s);
        QVERIFY(result.error.contains(u"claude.json"_s));
    }

    void claudeDesktopsPathIsTheUsualOne()
    {
        const QString path = McpConfigImport::claudeDesktopConfigPath();
        QVERIFY(path.endsWith(u"Claude/claude_desktop_config.json"_s));
#ifdef Q_OS_LINUX
        if (qEnvironmentVariableIsEmpty("XDG_CONFIG_HOME"))
            QCOMPARE(path, QDir::homePath() + u"/.config/Claude/claude_desktop_config.json"_s);
#endif
    }

    void clashingNamesGetASuffix()
    {
        QCOMPARE(McpConfigImport::uniqueName(u"files"_s, {}), u"files"_s);
        QCOMPARE(McpConfigImport::uniqueName(u"files"_s, {u"files"_s}), u"files (2)"_s);
        QCOMPARE(McpConfigImport::uniqueName(u"files"_s, {u"files"_s, u"files (2)"_s}), u"files (3)"_s);
    }

    void settingsKeepTheServersButNoSecret()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"settings.ini"_s);
        {
            QSettings settings(path, QSettings::IniFormat);
            McpSettings(&settings).setServers({stdioServer(), httpServer()});
        }
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("files"));
        QVERIFY(!text.contains("sk-secret-header-4567"));
        QVERIFY(!text.contains("ghp-secret-env-0123"));
        QVERIFY(!text.contains("tok-secret-89"));

        QSettings settings(path, QSettings::IniFormat);
        QStringList problems;
        const QList<McpServerConfig> servers = McpSettings(&settings).servers(&problems);
        QCOMPARE(problems, QStringList());
        QCOMPARE(servers,
                 (QList<McpServerConfig>{withoutSecrets(stdioServer()), withoutSecrets(httpServer())}));
    }

    void secretsAreWrittenAndRemovedWithTheirServer()
    {
        MemorySecretStore store;
        QObject context;
        std::optional<QStringList> errors;
        McpSettings::saveSecrets({stdioServer(), httpServer()}, {}, &store, &context,
                                 [&errors](const QStringList &e, const QStringList &) { errors = e; });
        QVERIFY(errors && errors->isEmpty());
        QCOMPARE(store.secrets.size(), 3);
        QCOMPARE(store.secrets.value(u"mcp/remote/Authorization"_s), u"Bearer sk-secret-header-4567"_s);

        // Without its token header, and with the stdio server gone.
        McpServerConfig remote = httpServer();
        remote.headers.remove(u"X-Session-Token"_s);
        errors.reset();
        McpSettings::saveSecrets({remote}, {stdioServer(), httpServer()}, &store, &context,
                                 [&errors](const QStringList &e, const QStringList &) { errors = e; });
        QVERIFY(errors && errors->isEmpty());
        QCOMPARE(store.secrets.keys(), QStringList{u"mcp/remote/Authorization"_s});

        // A value not loaded (blank) keeps what is stored.
        errors.reset();
        McpSettings::saveSecrets({withoutSecrets(remote)}, {remote}, &store, &context,
                                 [&errors](const QStringList &e, const QStringList &) { errors = e; });
        QCOMPARE(store.secrets.value(u"mcp/remote/Authorization"_s), u"Bearer sk-secret-header-4567"_s);
    }

    void secretsFollowTheServersChoiceOfKeychainOrKeyFile_data()
    {
        using Storage = McpServerConfig::SecretStorage;
        QTest::addColumn<Storage>("before");
        QTest::addColumn<Storage>("after");
        QTest::addColumn<bool>("keychainThere");
        QTest::addColumn<bool>("typedAgain");
        QTest::addColumn<Storage>("endsIn");
        QTest::newRow("kept in the key file")
            << Storage::File << Storage::File << false << true << Storage::File;
        QTest::newRow("moved to the key file, not typed again")
            << Storage::Keychain << Storage::File << true << false << Storage::File;
        QTest::newRow("moved to the key file, typed again")
            << Storage::Keychain << Storage::File << true << true << Storage::File;
        QTest::newRow("moved back to the keychain")
            << Storage::File << Storage::Keychain << true << false << Storage::Keychain;
        QTest::newRow("moved back to a keychain that is not there")
            << Storage::File << Storage::Keychain << false << false << Storage::File;
    }

    void theOAuthClientSecretIsKeptInTheKeychainNotInTheSettings()
    {
        MemorySecretStore keychain;
        QObject context;
        McpServerConfig server = httpServer();
        server.oauth.clientId = u"loopscope"_s;
        server.oauth.clientSecret = u"oauth-secret-value"_s;
        const QJsonObject json = server.toJson();
        QVERIFY(!QJsonDocument(json).toJson().contains("oauth-secret-value"));
        QCOMPARE(json.value("oauth"_L1).toObject().value("clientId"_L1).toString(), u"loopscope"_s);

        std::optional<QStringList> saveErrors;
        McpSettings::saveSecrets(
            {server}, {}, &keychain, &context,
            [&](const QStringList &errors, const QStringList &) { saveErrors = errors; });
        QTRY_VERIFY(saveErrors.has_value());
        QCOMPARE(*saveErrors, QStringList());

        const std::optional<McpServerConfig> stored = McpServerConfig::fromJson(json);
        QVERIFY(stored);
        QCOMPARE(stored->oauth.clientSecret, QString());
        std::optional<QList<McpServerConfig>> loaded;
        McpSettings::loadSecrets(
            {*stored}, &keychain, &context,
            [&](const QList<McpServerConfig> &servers, const QStringList &) { loaded = servers; });
        QTRY_VERIFY(loaded.has_value());
        QCOMPARE(loaded->value(0).oauth.clientSecret, u"oauth-secret-value"_s);
        QCOMPARE(loaded->value(0).oauth.clientId, u"loopscope"_s);
    }

    void secretsFollowTheServersChoiceOfKeychainOrKeyFile()
    {
        using Storage = McpServerConfig::SecretStorage;
        using Outcome = std::pair<QStringList, QStringList>; // errors, servers whose secrets did not move
        QFETCH(Storage, before);
        QFETCH(Storage, after);
        QFETCH(bool, keychainThere);
        QFETCH(bool, typedAgain);
        QFETCH(Storage, endsIn);
        QTemporaryDir dir;
        FileSecretStore keyFile(dir.filePath(u"keys.json"_s));
        MemorySecretStore keychain;
        keychain.file = &keyFile;
        QObject context;
        const McpServerConfig server = httpServer();
        const auto save = [&](const QList<McpServerConfig> &servers, const QList<McpServerConfig> &previous) {
            std::optional<Outcome> outcome;
            McpSettings::saveSecrets(servers, previous, &keychain, &context,
                                     [&outcome](const QStringList &errors, const QStringList &unmoved) {
                                         outcome = Outcome(errors, unmoved);
                                     });
            const bool answered = QTest::qWaitFor([&] { return outcome.has_value(); }, 10000);
            return answered ? *outcome : Outcome({u"no answer"_s}, {});
        };
        const auto load = [&](const McpServerConfig &stored) {
            std::optional<QList<McpServerConfig>> loaded;
            QStringList errors;
            McpSettings::loadSecrets({withoutSecrets(stored)}, &keychain, &context,
                                     [&](const QList<McpServerConfig> &servers, const QStringList &e) {
                                         loaded = servers;
                                         errors = e;
                                     });
            (void)QTest::qWaitFor([&] { return loaded.has_value(); }, 10000);
            return std::pair(loaded.value_or(QList<McpServerConfig>()).value(0), errors);
        };

        // Stored where it was, while that place was there.
        QCOMPARE(save({keptIn(server, before)}, {}).first, QStringList());
        keychain.absent = !keychainThere;

        const McpServerConfig edited = keptIn(typedAgain ? server : withoutSecrets(server), after);
        const auto [errors, unmoved] = save({edited}, {keptIn(server, before)});
        const bool refused = endsIn != after;
        QCOMPARE(unmoved, refused ? QStringList{server.name} : QStringList());
        const QString said = errors.join(u' ');
        if (refused) {
            QVERIFY2(said.contains(u"there is no keychain on this desktop"_s), qPrintable(said));
            QVERIFY2(said.contains(u"in a file only you can read"_s), qPrintable(said));
        } else {
            QCOMPARE(errors, QStringList());
        }

        // Every secret is in exactly one place: where the server now says it is.
        keychain.absent = false;
        const auto [loaded, loadErrors] = load(keptIn(server, endsIn));
        QCOMPARE(loadErrors, QStringList());
        QCOMPARE(loaded, keptIn(server, endsIn));
        const Storage elsewhere = endsIn == Storage::File ? Storage::Keychain : Storage::File;
        const auto [other, otherErrors] = load(keptIn(server, elsewhere));
        QCOMPARE(otherErrors.size(), server.secretHeaderNames().size()); // "no value in …" for each
        QCOMPARE(other, keptIn(withoutSecrets(server), elsewhere));
        QFile file(keyFile.path());
        const QByteArray onDisk = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        QCOMPARE(onDisk.contains("sk-secret-header-4567"), endsIn == Storage::File);
    }

    void whereAServersSecretsAreKeptSurvivesTheSettings()
    {
        const McpServerConfig server = keptIn(httpServer(), McpServerConfig::SecretStorage::File);
        const QJsonObject json = server.toJson();
        QCOMPARE(json.value(u"secretStorage"_s).toString(), u"file"_s);
        QCOMPARE(McpServerConfig::fromJson(json)->secretStorage, McpServerConfig::SecretStorage::File);
        QVERIFY(!httpServer().toJson().contains(u"secretStorage"_s)); // the keychain, as before
        QJsonObject unknown = json;
        unknown.insert(u"secretStorage"_s, u"cloud"_s);
        QString error;
        QVERIFY(!McpServerConfig::fromJson(unknown, &error));
        QVERIFY2(error.contains(u"cloud"_s), qPrintable(error));
    }

    void secretsComeBackFromTheRealKeychain()
    {
        KeychainSecretStore store(u"Loopscope tests"_s);
        McpServerConfig server = httpServer();
        server.name = u"remote-%1"_s.arg(QCoreApplication::applicationPid());
        QObject context;

        std::optional<QStringList> saveErrors;
        McpSettings::saveSecrets(
            {server}, {}, &store, &context,
            [&saveErrors](const QStringList &e, const QStringList &) { saveErrors = e; });
        QTRY_VERIFY_WITH_TIMEOUT(saveErrors.has_value(), 10000);
        QCOMPARE(*saveErrors, QStringList());

        std::optional<QList<McpServerConfig>> loaded;
        QStringList loadErrors;
        McpSettings::loadSecrets({withoutSecrets(server)}, &store, &context,
                                 [&](const QList<McpServerConfig> &servers, const QStringList &e) {
                                     loaded = servers;
                                     loadErrors = e;
                                 });
        QTRY_VERIFY_WITH_TIMEOUT(loaded.has_value(), 10000);
        QCOMPARE(loadErrors, QStringList());
        QCOMPARE(loaded->value(0), server);

        // Removed with the server; loading then says what is missing.
        saveErrors.reset();
        McpSettings::saveSecrets(
            {}, {server}, &store, &context,
            [&saveErrors](const QStringList &e, const QStringList &) { saveErrors = e; });
        QTRY_VERIFY_WITH_TIMEOUT(saveErrors.has_value(), 10000);
        QCOMPARE(*saveErrors, QStringList());
        loaded.reset();
        McpSettings::loadSecrets({withoutSecrets(server)}, &store, &context,
                                 [&](const QList<McpServerConfig> &servers, const QStringList &e) {
                                     loaded = servers;
                                     loadErrors = e;
                                 });
        QTRY_VERIFY_WITH_TIMEOUT(loaded.has_value(), 10000);
        QCOMPARE(loadErrors.size(), 2);
        QVERIFY(loadErrors.first().contains(u"no value in the keychain"_s));
    }
};

QTEST_GUILESS_MAIN(McpConfigTest)
#include "tst_mcpconfig.moc"
