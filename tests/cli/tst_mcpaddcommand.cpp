// `loopscope mcp add|remove` end to end: the real executable writes the saved servers the window
// reads (McpSettings on the same settings file), secret headers in the real keychain (a private
// gnome-keyring, see tests/config/with-keyring.sh) and never in the settings file.

#include "agent/config/secretstore.h"
#include "agent/mcp/mcpsettings.h"
#include "tests/support/headlessprocess.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString token = u"Bearer sk-mcp-add-secret-0123"_s;

} // namespace

class McpAddCommandTest : public QObject
{
    Q_OBJECT

private:
    std::optional<QTemporaryDir> m_config;

    QString settingsPath() const { return m_config->filePath(u"Loopscope/Loopscope.conf"_s); }

    QByteArray settingsText() const
    {
        QFile file(settingsPath());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    QList<McpServerConfig> savedServers(QStringList *problems = nullptr) const
    {
        QSettings settings(settingsPath(), QSettings::IniFormat);
        return McpSettings(&settings).servers(problems);
    }

    // \a withKeychain: the test's Secret Service is on the command's session bus.
    HeadlessProcess::Result mcp(const QStringList &arguments, bool withKeychain = true)
    {
        HeadlessProcess process(QStringLiteral(LOOPSCOPE_EXECUTABLE), m_config->path());
        if (withKeychain)
            process.setEnvironmentVariable(u"DBUS_SESSION_BUS_ADDRESS"_s,
                                           qEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS"));
        return process.run(QStringList{u"mcp"_s} + arguments);
    }

    std::optional<QString> keychainValue(const QString &account)
    {
        KeychainSecretStore keychain;
        QObject context;
        std::optional<SecretStore::Result> result;
        keychain.read(account, &context, [&result](const SecretStore::Result &r) { result = r; });
        [&] {
            QTRY_VERIFY_WITH_TIMEOUT(result.has_value(), 10000);
        }();
        return result ? result->secret : std::nullopt;
    }

private slots:
    void init()
    {
        m_config.emplace();
        QVERIFY(m_config->isValid());
    }

    void aCommandIsSavedAsTheWindowReadsIt()
    {
        const HeadlessProcess::Result added
            = mcp({u"add"_s, u"files"_s, u"--env"_s, u"DEBUG=1"_s, u"--"_s, u"npx"_s, u"-y"_s,
                   u"@modelcontextprotocol/server-filesystem"_s, u"/tmp/my files"_s, u"--verbose"_s});
        QCOMPARE(added.exitCode, 0);
        QVERIFY2(
            added.out.contains("npx -y @modelcontextprotocol/server-filesystem '/tmp/my files' --verbose"),
            added.out.constData());

        QStringList problems;
        const QList<McpServerConfig> servers = savedServers(&problems);
        QCOMPARE(problems, QStringList());
        QCOMPARE(servers.size(), 1);
        const McpServerConfig &server = servers.constFirst();
        QCOMPARE(server.name, u"files"_s);
        QCOMPARE(server.transport, McpServerConfig::Transport::Stdio);
        QCOMPARE(server.command, u"npx"_s);
        QCOMPARE(server.arguments, (QStringList{u"-y"_s, u"@modelcontextprotocol/server-filesystem"_s,
                                                u"/tmp/my files"_s, u"--verbose"_s}));
        QCOMPARE(server.environment.value(u"DEBUG"_s), u"1"_s);
        QVERIFY(server.enabled);
        QCOMPARE(server.defaultApproval, u"ask"_s);
    }

    void aSecretHeaderGoesToTheKeychainNotTheSettingsFile()
    {
        const HeadlessProcess::Result added
            = mcp({u"add"_s, u"remote"_s, u"--url"_s, u"https://mcp.example.com/mcp"_s, u"--header"_s,
                   u"Authorization: "_s + token, u"--header"_s, u"X-Client: loopscope"_s});
        QCOMPARE(added.exitCode, 0);
        QVERIFY2(added.out.contains("Kept in the keychain, not in the settings: Authorization"),
                 added.out.constData());
        QVERIFY(!added.out.contains(token.toUtf8()));
        QVERIFY(!settingsText().contains(token.toUtf8()));

        const QList<McpServerConfig> servers = savedServers();
        QCOMPARE(servers.size(), 1);
        QCOMPARE(servers.constFirst().url, QUrl(u"https://mcp.example.com/mcp"_s));
        QCOMPARE(servers.constFirst().headers.value(u"X-Client"_s), u"loopscope"_s);
        QCOMPARE(servers.constFirst().secretHeaderNames(), QStringList{u"Authorization"_s});
        QCOMPARE(keychainValue(u"mcp/remote/Authorization"_s), std::optional(token));

        // Removing the server removes its secret too.
        const HeadlessProcess::Result removed = mcp({u"remove"_s, u"remote"_s});
        QCOMPARE(removed.exitCode, 0);
        QCOMPARE(savedServers().size(), 0);
        QCOMPARE(keychainValue(u"mcp/remote/Authorization"_s), std::nullopt);
    }

    void withoutAKeychainASecretIsRefusedAndNothingIsAdded()
    {
        const QStringList arguments{u"add"_s,      u"remote"_s,
                                    u"--url"_s,    u"https://mcp.example.com/mcp"_s,
                                    u"--header"_s, u"Authorization: "_s + token};
        const HeadlessProcess::Result refused = mcp(arguments, false);
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("--key-file"), refused.err.constData());
        QCOMPARE(savedServers().size(), 0);

        // The key file the window offers on such a desktop, only the user can read.
        const HeadlessProcess::Result added = mcp(arguments + QStringList{u"--key-file"_s}, false);
        QCOMPARE(added.exitCode, 0);
        QCOMPARE(savedServers().value(0).secretStorage, McpServerConfig::SecretStorage::File);
        QVERIFY(!settingsText().contains(token.toUtf8()));
        QFile keys(m_config->filePath(u"Loopscope/Loopscope/keys.json"_s));
        QVERIFY(keys.open(QIODevice::ReadOnly));
        QVERIFY(keys.readAll().contains(token.toUtf8()));
        QCOMPARE(keys.permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
    }

    void aTakenNameIsRefusedWhateverItsCase()
    {
        QCOMPARE(mcp({u"add"_s, u"files"_s, u"--"_s, u"server-a"_s}).exitCode, 0);
        const HeadlessProcess::Result again = mcp({u"add"_s, u"Files"_s, u"--"_s, u"server-b"_s});
        QCOMPARE(again.exitCode, 2);
        QVERIFY2(again.err.contains("already an MCP server called"), again.err.constData());
        QCOMPARE(savedServers().size(), 1);
        QCOMPARE(savedServers().constFirst().command, u"server-a"_s);
    }

    void badInputSaysWhatIsWrongAndSavesNothing_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        QTest::newRow("no name") << QStringList{u"add"_s} << u"add takes a name"_s;
        QTest::newRow("neither command nor url")
            << QStringList{u"add"_s, u"x"_s} << u"add needs -- COMMAND"_s;
        QTest::newRow("a command without --")
            << QStringList{u"add"_s, u"x"_s, u"npx"_s} << u"put the server's command after --"_s;
        QTest::newRow("both command and url")
            << QStringList{u"add"_s, u"x"_s, u"--url"_s, u"http://127.0.0.1:1/mcp"_s, u"--"_s, u"npx"_s}
            << u"not both"_s;
        QTest::newRow("an empty command") << QStringList{u"add"_s, u"x"_s, u"--"_s} << u"needs a command"_s;
        QTest::newRow("not an http url")
            << QStringList{u"add"_s, u"x"_s, u"--url"_s, u"ftp://example.com/"_s} << u"http:// or https://"_s;
        QTest::newRow("a header without a colon")
            << QStringList{u"add"_s, u"x"_s, u"--url"_s, u"http://h/mcp"_s, u"--header"_s, u"Bearer abc"_s}
            << u"is not “Name: value”"_s;
        QTest::newRow("a header twice")
            << QStringList{u"add"_s,      u"x"_s,    u"--url"_s,    u"http://h/"_s,
                           u"--header"_s, u"A: 1"_s, u"--header"_s, u"a: 2"_s}
            << u"given twice"_s;
        QTest::newRow("a header for a command")
            << QStringList{u"add"_s, u"x"_s, u"--header"_s, u"A: 1"_s, u"--"_s, u"npx"_s}
            << u"--header is for"_s;
        QTest::newRow("a variable without =")
            << QStringList{u"add"_s, u"x"_s, u"--env"_s, u"TOKEN"_s, u"--"_s, u"npx"_s} << u"not KEY=VALUE"_s;
        QTest::newRow("add with --mcp-config")
            << QStringList{u"add"_s, u"x"_s, u"--mcp-config"_s, u"a.json"_s, u"--"_s, u"npx"_s}
            << u"--mcp-config is for list and call"_s;
        QTest::newRow("--url for list")
            << QStringList{u"list"_s, u"--url"_s, u"http://h/"_s} << u"--url is for add"_s;
        QTest::newRow("remove an unknown server")
            << QStringList{u"remove"_s, u"nope"_s} << u"There is no MCP server called “nope”"_s;
        QTest::newRow("remove without a name") << QStringList{u"remove"_s} << u"remove takes the name"_s;
    }

    void badInputSaysWhatIsWrongAndSavesNothing()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        const HeadlessProcess::Result result = mcp(arguments);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(QString::fromUtf8(result.err).contains(error), result.err.constData());
        QVERIFY(!QFile::exists(settingsPath()) || savedServers().isEmpty());
    }

    void anEntryThatNoLongerParsesIsKeptWhenAnotherIsAdded()
    {
        QDir().mkpath(QFileInfo(settingsPath()).absolutePath());
        {
            QSettings settings(settingsPath(), QSettings::IniFormat);
            settings.setValue(u"mcp/servers"_s, uR"([{"name":"old","transport":"carrier-pigeon"}])"_s);
        }
        QCOMPARE(mcp({u"add"_s, u"new"_s, u"--"_s, u"server"_s}).exitCode, 0);
        QStringList problems;
        QCOMPARE(savedServers(&problems).size(), 1);
        QCOMPARE(problems.size(), 1);
        QVERIFY(settingsText().contains("carrier-pigeon"));
    }
};

QTEST_GUILESS_MAIN(McpAddCommandTest)
#include "tst_mcpaddcommand.moc"
