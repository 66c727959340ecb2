#include "agent/config/appsettings.h"
#include "agent/config/providerprofile.h"
#include "agent/config/secretstore.h"
#include "agent/mcp/mcpauthorizer.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcpsettings.h"
#include "agent/providers/connectiontester.h"
#include "tests/mcp/followingopener.h"
#include "tests/mcp/mcptestservers.h"
#include "tests/support/nokeychainstore.h"
#include "ui/settings/mcpservereditor.h"
#include "ui/settings/mcpserverspage.h"
#include "ui/settings/settingsdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

// One test's world: its own settings file, keychain service and hub.
struct Fixture
{
    QTemporaryDir dir;
    QString path = dir.filePath(u"settings.ini"_s);
    QSettings settings{path, QSettings::IniFormat};
    ProviderProfileStore profiles{&settings};
    AppSettings app{&settings};
    McpSettings mcp{&settings};
    KeychainSecretStore keychain{
        u"Loopscope tests %1 %2"_s.arg(QString::fromLatin1(QTest::currentTestFunction()))
            .arg(QCoreApplication::applicationPid())};
    QNetworkAccessManager network;
    ConnectionTester tester{&network};
    McpHub hub{&network};

    std::unique_ptr<Ui::SettingsDialog> open(bool withHub = false, SecretStore *secrets = nullptr)
    {
        auto dialog
            = std::make_unique<Ui::SettingsDialog>(&profiles, &app, secrets ? secrets : &keychain, &tester);
        dialog->addMcpServersPage(&mcp, withHub ? &hub : nullptr);
        dialog->mcpServersPage()->setClaudeDesktopConfigPath(dir.filePath(u"no-claude.json"_s));
        dialog->showPage(Ui::SettingsDialog::Page::McpServers);
        dialog->show();
        return dialog;
    }

    // The page on \a server, started by the hub and ready (or nullptr, the test failed).
    std::unique_ptr<Ui::SettingsDialog> openReady(const McpServerConfig &server)
    {
        mcp.setServers({server});
        hub.setServers({server});
        auto dialog = open(true);
        auto *status = dialog->findChild<QLabel *>(u"mcpStatusLabel"_s);
        if (!QTest::qWaitFor([status] { return status->text().startsWith(u"Ready"_s); }, 15000)) {
            qWarning("not ready: %s", qPrintable(status->text()));
            return nullptr;
        }
        return dialog;
    }

    QByteArray ini()
    {
        settings.sync();
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    SecretStore::Result readKey(const QString &account)
    {
        std::optional<SecretStore::Result> result;
        QObject context;
        keychain.read(account, &context, [&result](const SecretStore::Result &r) { result = r; });
        if (!QTest::qWaitFor([&] { return result.has_value(); }, 10000))
            return {std::nullopt, u"the keychain did not answer"_s};
        return *result;
    }

    QString writeFile(const QString &name, const QByteArray &content)
    {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(content);
        return file.fileName();
    }
};

template<typename T>
T *child(QWidget *parent, const QString &name)
{
    T *widget = parent->findChild<T *>(name);
    if (!widget)
        qWarning("no %s named %s", T::staticMetaObject.className(), qPrintable(name));
    return widget;
}

void typeInto(QLineEdit *edit, const QString &text)
{
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
}

// OK, then wait until the keychain has finished and the dialog closed.
bool pressOk(Ui::SettingsDialog *dialog)
{
    auto *box = dialog->findChild<QDialogButtonBox *>(u"buttonBox"_s);
    box->button(QDialogButtonBox::Ok)->click();
    return QTest::qWaitFor([dialog] { return !dialog->isVisible(); }, 10000);
}

QString statusOf(Ui::SettingsDialog *dialog)
{
    return dialog->findChild<QLabel *>(u"statusLabel"_s)->text();
}

const QByteArray ClaudeConfig = R"({"mcpServers": {
    "filesystem": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
    "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}})";

McpServerConfig uiServer(const QString &name)
{
    McpServerConfig server;
    server.name = name;
    server.command = u"python3"_s;
    server.arguments = {QStringLiteral(MCPUI_SERVER)};
    return server;
}

} // namespace

class McpServersPageTest : public QObject
{
    Q_OBJECT

private slots:
    void aServerAddedEditedAndRemovedIsStored()
    {
        Fixture fixture;
        {
            auto dialog = fixture.open();
            child<QPushButton>(dialog.get(), u"addMcpServerButton"_s)->click();
            typeInto(child<QLineEdit>(dialog.get(), u"mcpNameEdit"_s), u"files"_s);
            typeInto(child<QLineEdit>(dialog.get(), u"mcpCommandEdit"_s), u"npx"_s);
            child<QPlainTextEdit>(dialog.get(), u"mcpArgumentsEdit"_s)
                ->setPlainText(u"-y\nserver-filesystem\n/tmp"_s);
            child<QPlainTextEdit>(dialog.get(), u"mcpEnvironmentEdit"_s)->setPlainText(u"DEBUG=1"_s);
            QVERIFY2(pressOk(dialog.get()), qPrintable(statusOf(dialog.get())));
        }
        QList<McpServerConfig> stored = fixture.mcp.servers();
        QCOMPARE(stored.size(), 1);
        QCOMPARE(stored.first().name, u"files"_s);
        QCOMPARE(stored.first().command, u"npx"_s);
        QCOMPARE(stored.first().arguments, (QStringList{u"-y"_s, u"server-filesystem"_s, u"/tmp"_s}));
        QCOMPARE(stored.first().environment.value(u"DEBUG"_s), u"1"_s);
        QVERIFY(stored.first().enabled);

        {
            auto dialog = fixture.open();
            auto *list = child<QListWidget>(dialog.get(), u"mcpServerList"_s);
            QCOMPARE(list->count(), 1);
            QVERIFY(list->item(0)->text().startsWith(u"files\n"_s));
            typeInto(child<QLineEdit>(dialog.get(), u"mcpCommandEdit"_s), u"uvx"_s);
            QVERIFY(pressOk(dialog.get()));
        }
        QCOMPARE(fixture.mcp.servers().value(0).command, u"uvx"_s);

        {
            auto dialog = fixture.open();
            child<QPushButton>(dialog.get(), u"removeMcpServerButton"_s)->click();
            QVERIFY(pressOk(dialog.get()));
        }
        QCOMPARE(fixture.mcp.servers(), QList<McpServerConfig>());
    }

    void aSecretHeaderGoesToTheKeychainAndStaysMasked()
    {
        Fixture fixture;
        {
            auto dialog = fixture.open();
            child<QPushButton>(dialog.get(), u"addMcpServerButton"_s)->click();
            typeInto(child<QLineEdit>(dialog.get(), u"mcpNameEdit"_s), u"remote"_s);
            auto *transport = child<QComboBox>(dialog.get(), u"mcpTransportCombo"_s);
            transport->setCurrentIndex(1);
            typeInto(child<QLineEdit>(dialog.get(), u"mcpUrlEdit"_s), u"https://mcp.example.com/mcp"_s);
            child<QPlainTextEdit>(dialog.get(), u"mcpHeadersEdit"_s)
                ->setPlainText(u"Authorization: Bearer sk-ui-secret-123\nX-Client: loopscope"_s);
            QVERIFY2(pressOk(dialog.get()), qPrintable(statusOf(dialog.get())));
        }
        QVERIFY(!fixture.ini().contains("sk-ui-secret-123"));
        QVERIFY(fixture.ini().contains("X-Client"));
        QCOMPARE(fixture.readKey(u"mcp/remote/Authorization"_s).secret,
                 std::optional<QString>(u"Bearer sk-ui-secret-123"_s));

        {
            // Shown masked; saved again untouched, the stored value stays.
            auto dialog = fixture.open();
            auto *headers = child<QPlainTextEdit>(dialog.get(), u"mcpHeadersEdit"_s);
            QTRY_VERIFY(headers->toPlainText().contains(u"Authorization: "_s + Ui::McpServerEditor::mask()));
            QVERIFY(!headers->toPlainText().contains(u"sk-ui"_s));
            QTRY_COMPARE(dialog->mcpServersPage()->servers().value(0).headers.value(u"Authorization"_s),
                         u"Bearer sk-ui-secret-123"_s);
            QVERIFY(pressOk(dialog.get()));
        }
        QCOMPARE(fixture.readKey(u"mcp/remote/Authorization"_s).secret,
                 std::optional<QString>(u"Bearer sk-ui-secret-123"_s));

        {
            auto dialog = fixture.open();
            child<QPushButton>(dialog.get(), u"removeMcpServerButton"_s)->click();
            QVERIFY(pressOk(dialog.get()));
        }
        QCOMPARE(fixture.readKey(u"mcp/remote/Authorization"_s).secret, std::nullopt);
    }

    void withoutAKeychainAServersSecretsGoToAFileOnlyTheUserCanRead()
    {
        Fixture fixture;
        const QString keyFilePath = fixture.dir.filePath(u"config/keys.json"_s);
        NoKeychainStore store(keyFilePath);
        {
            auto dialog = fixture.open(false, &store);
            child<QPushButton>(dialog.get(), u"addMcpServerButton"_s)->click();
            typeInto(child<QLineEdit>(dialog.get(), u"mcpNameEdit"_s), u"remote"_s);
            child<QComboBox>(dialog.get(), u"mcpTransportCombo"_s)->setCurrentIndex(1);
            typeInto(child<QLineEdit>(dialog.get(), u"mcpUrlEdit"_s), u"https://mcp.example.com/mcp"_s);
            child<QPlainTextEdit>(dialog.get(), u"mcpHeadersEdit"_s)
                ->setPlainText(u"Authorization: Bearer sk-ui-file-123"_s);
            auto *inFile = child<QCheckBox>(dialog.get(), u"mcpKeyFileCheck"_s);
            QVERIFY(!inFile->isVisible()); // nothing to offer before the keychain is known to be missing

            // Saved into the keychain that is not there: the dialog says so and how to get around it,
            // and the editor offers the file.
            auto *buttons = dialog->findChild<QDialogButtonBox *>(u"buttonBox"_s);
            buttons->button(QDialogButtonBox::Ok)->click();
            QTRY_VERIFY(!dialog->isSaving());
            QVERIFY(dialog->isVisible());
            QVERIFY2(statusOf(dialog.get()).contains(u"there is no keychain on this desktop"_s),
                     qPrintable(statusOf(dialog.get())));
            QVERIFY2(statusOf(dialog.get()).contains(u"in a file only you can read"_s),
                     qPrintable(statusOf(dialog.get())));
            QVERIFY(!QFile::exists(keyFilePath));
            auto *hint = child<QLabel>(dialog.get(), u"mcpSecretHint"_s);
            QTRY_VERIFY2(hint->text().contains(u"No keychain is available on this desktop"_s),
                         qPrintable(hint->text()));
            QVERIFY(inFile->isVisible());
            QVERIFY(!inFile->isChecked());

            // The file once the warning is read and agreed to.
            inFile->click();
            QMessageBox *warning = nullptr;
            QTRY_VERIFY((warning = dialog->findChild<QMessageBox *>(u"keyFileWarning"_s)) != nullptr);
            QVERIFY2(warning->text().contains(u"unencrypted"_s), qPrintable(warning->text()));
            QVERIFY(!inFile->isChecked());
            for (QAbstractButton *button : warning->buttons()) {
                if (warning->buttonRole(button) == QMessageBox::AcceptRole)
                    button->click();
            }
            QTRY_VERIFY(inFile->isChecked());
            QVERIFY2(pressOk(dialog.get()), qPrintable(statusOf(dialog.get())));
        }
        QVERIFY(!fixture.ini().contains("sk-ui-file-123"));
        QCOMPARE(fixture.mcp.servers().value(0).secretStorage, McpServerConfig::SecretStorage::File);
        QFile file(keyFilePath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("sk-ui-file-123"));
        QCOMPARE(file.permissions() & (QFileDevice::ReadGroup | QFileDevice::ReadOther),
                 QFileDevice::Permissions());

        // Reopened: the value comes back from the file, masked, and the box says where it is.
        auto dialog = fixture.open(false, &store);
        QTRY_COMPARE(dialog->mcpServersPage()->servers().value(0).headers.value(u"Authorization"_s),
                     u"Bearer sk-ui-file-123"_s);
        QVERIFY(child<QCheckBox>(dialog.get(), u"mcpKeyFileCheck"_s)->isChecked());
        QVERIFY(
            !child<QPlainTextEdit>(dialog.get(), u"mcpHeadersEdit"_s)->toPlainText().contains(u"sk-ui"_s));
        QVERIFY2(
            child<QLabel>(dialog.get(), u"mcpSecretHint"_s)->text().contains(u"file only you can read"_s),
            qPrintable(child<QLabel>(dialog.get(), u"mcpSecretHint"_s)->text()));
    }

    void twoServersOfOneNameAreRefused()
    {
        Fixture fixture;
        auto dialog = fixture.open();
        for (int i = 0; i < 2; ++i) {
            child<QPushButton>(dialog.get(), u"addMcpServerButton"_s)->click();
            typeInto(child<QLineEdit>(dialog.get(), u"mcpNameEdit"_s), u"same"_s);
            typeInto(child<QLineEdit>(dialog.get(), u"mcpCommandEdit"_s), u"x"_s);
        }
        auto *box = dialog->findChild<QDialogButtonBox *>(u"buttonBox"_s);
        box->button(QDialogButtonBox::Ok)->click();
        QVERIFY(dialog->isVisible());
        QVERIFY2(statusOf(dialog.get()).contains(u"“same”"_s), qPrintable(statusOf(dialog.get())));
        QCOMPARE(fixture.mcp.servers(), QList<McpServerConfig>());
    }

    void claudeDesktopsServersAreOfferedAndImported()
    {
        Fixture fixture;
        const QString claude = fixture.writeFile(u"claude_desktop_config.json"_s, ClaudeConfig);
        auto dialog = fixture.open();
        Ui::McpServersPage *page = dialog->mcpServersPage();
        auto *offer = child<QLabel>(dialog.get(), u"claudeImportOffer"_s);
        QVERIFY(!offer->isVisibleTo(page));
        page->setClaudeDesktopConfigPath(claude);
        QVERIFY(offer->isVisibleTo(page));
        QCOMPARE(offer->text(), u"Import 2 servers from Claude Desktop"_s);

        child<QPushButton>(dialog.get(), u"claudeImportButton"_s)->click();
        QCOMPARE(child<QListWidget>(dialog.get(), u"mcpServerList"_s)->count(), 2);
        QVERIFY(!offer->isVisibleTo(page)); // now configured
        QVERIFY(child<QLabel>(dialog.get(), u"mcpImportNotes"_s)->text().contains(u"Imported 2 servers"_s));
        QVERIFY(pressOk(dialog.get()));
        const QList<McpServerConfig> stored = fixture.mcp.servers();
        QCOMPARE(stored.size(), 2);
        QCOMPARE(stored.at(0).name, u"filesystem"_s);
        QCOMPARE(stored.at(0).defaultApproval, u"ask"_s);
        QCOMPARE(stored.at(1).arguments.last(), u"@modelcontextprotocol/server-memory"_s);
    }

    void anImportedNameThatIsTakenGetsASuffix()
    {
        Fixture fixture;
        McpServerConfig mine;
        mine.name = u"memory"_s;
        mine.command = u"my-memory"_s;
        fixture.mcp.setServers({mine});
        const QString file = fixture.writeFile(u"mcp.json"_s, ClaudeConfig);
        auto dialog = fixture.open();
        dialog->mcpServersPage()->importFile(file);
        const QList<McpServerConfig> servers = dialog->mcpServersPage()->servers();
        QCOMPARE(servers.size(), 3);
        QCOMPARE(servers.at(2).name, u"memory (2)"_s);
        QVERIFY(child<QLabel>(dialog.get(), u"mcpImportNotes"_s)->text().contains(u"“memory (2)”"_s));
    }

    void anUnreadableImportSaysWhy()
    {
        Fixture fixture;
        const QString file = fixture.writeFile(u"broken.json"_s, "{nope");
        auto dialog = fixture.open();
        dialog->mcpServersPage()->importFile(file);
        QVERIFY(child<QLabel>(dialog.get(), u"mcpImportNotes"_s)->text().contains(u"not valid JSON"_s));
        QCOMPARE(dialog->mcpServersPage()->servers().size(), 0);
    }

    void aServerWhoseCommandDoesNotExistShowsFailedWithTheReason()
    {
        Fixture fixture;
        McpServerConfig ghost;
        ghost.name = u"ghost"_s;
        ghost.command = u"/nonexistent/loopscope-no-such-server"_s;
        fixture.mcp.setServers({ghost});
        fixture.hub.setServers({ghost});
        auto dialog = fixture.open(true);
        auto *status = child<QLabel>(dialog.get(), u"mcpStatusLabel"_s);
        QTRY_VERIFY_WITH_TIMEOUT(status->text().startsWith(u"Failed: "_s), 15000);
        QVERIFY2(status->text().size() > u"Failed: "_s.size() + 5, qPrintable(status->text()));
        QVERIFY(
            child<QListWidget>(dialog.get(), u"mcpServerList"_s)->item(0)->text().contains(u"Failed: "_s));
    }

    void aRunningServersStatusToolsAndOutputAreShownAndItsToolRulesStored()
    {
        Fixture fixture;
        const McpServerConfig server = uiServer(u"ui"_s);
        fixture.mcp.setServers({server});
        fixture.hub.setServers({server});
        auto dialog = fixture.open(true);
        auto *status = child<QLabel>(dialog.get(), u"mcpStatusLabel"_s);
        QTRY_VERIFY2_WITH_TIMEOUT(status->text().startsWith(u"Ready · 2 tools · protocol "_s),
                                  qPrintable(status->text()), 15000);
        QTRY_VERIFY(child<QPlainTextEdit>(dialog.get(), u"mcpStderrView"_s)
                        ->toPlainText()
                        .contains(u"uiserver: ready for questions"_s));

        auto *tree = child<QTreeWidget>(dialog.get(), u"mcpToolTree"_s);
        QCOMPARE(tree->topLevelItemCount(), 2);
        QTreeWidgetItem *erase = tree->topLevelItem(1);
        QCOMPARE(erase->data(0, Qt::UserRole).toString(), u"erase"_s);
        QCOMPARE(erase->checkState(0), Qt::Checked);
        erase->setCheckState(0, Qt::Unchecked);
        auto *rule = child<QComboBox>(dialog.get(), u"mcpToolRule_lookup"_s);
        QCOMPARE(rule->currentData().toString(), u"ask"_s);
        rule->setCurrentIndex(rule->findData(u"always"_s));
        emit rule->activated(rule->currentIndex());
        QVERIFY(pressOk(dialog.get()));

        const McpServerConfig stored = fixture.mcp.servers().value(0);
        QCOMPARE(stored.disabledTools, QSet<QString>{u"erase"_s});
        QCOMPARE(stored.toolApproval, (QHash<QString, QString>{{u"lookup"_s, u"always"_s}}));
    }

    void theOutputTabShowsLogMessagesFromTheChosenLevel()
    {
        Fixture fixture;
        auto dialog = fixture.openReady(McpTestServers::faultServer(u"logging"_s, u"logs"_s));
        QVERIFY(dialog);
        auto *level = child<QComboBox>(dialog.get(), u"mcpLogLevelCombo"_s);
        QVERIFY(level->isEnabled());
        QCOMPARE(level->currentIndex(), -1); // the server's own choice until one is made
        level->setCurrentIndex(level->findData(u"error"_s));
        emit level->activated(level->currentIndex());
        QCOMPARE(fixture.hub.client(u"logs"_s)->logLevel(), u"error"_s);

        // The fault server logs one message per level at or above its threshold on each call.
        std::optional<McpCallOutcome> outcome;
        fixture.hub.client(u"logs"_s)->callTool(u"echo"_s, {}, 10000, {},
                                                [&outcome](const McpCallOutcome &o) { outcome = o; });
        QTRY_VERIFY(outcome.has_value());
        const QString output = child<QPlainTextEdit>(dialog.get(), u"mcpStderrView"_s)->toPlainText();
        QVERIFY2(output.contains(u"[error] fault.db: {\"level\":\"error\",\"n\":4}"_s), qPrintable(output));
        QVERIFY2(output.contains(u"[emergency] fault.db: "_s), qPrintable(output));
        QVERIFY2(!output.contains(u"[warning]"_s), qPrintable(output));

        // Kept with the server: its next start (and `loopscope run`) asks for the same level.
        QVERIFY(pressOk(dialog.get()));
        QCOMPARE(fixture.mcp.servers().value(0).logLevel, u"error"_s);
    }

    void aServerWithoutLoggingOffersNoLevel()
    {
        Fixture fixture;
        auto dialog = fixture.openReady(uiServer(u"ui"_s));
        QVERIFY(dialog);
        auto *level = child<QComboBox>(dialog.get(), u"mcpLogLevelCombo"_s);
        QVERIFY(!level->isEnabled());
        QVERIFY2(level->toolTip().contains(u"does not declare logging"_s), qPrintable(level->toolTip()));
    }

    void statusLinesSayWhatAServerIsDoing_data()
    {
        QTest::addColumn<bool>("enabled");
        QTest::addColumn<QString>("expected");
        QTest::newRow("off") << false << u"Off"_s;
        QTest::newRow("not started yet") << true << u"Starts when saved"_s;
    }

    void statusLinesSayWhatAServerIsDoing()
    {
        QFETCH(bool, enabled);
        QFETCH(QString, expected);
        McpServerConfig server = uiServer(u"x"_s);
        server.enabled = enabled;
        QCOMPARE(Ui::McpServersPage::statusText(server, nullptr), expected);
    }

    void signingOutOfAnHttpServerRemovesItsTokensFromTheKeychain()
    {
        Fixture fixture;
        QProcess authServer;
        QString error;
        const quint16 port = McpTestServers::startAuthServer(authServer, u"ok"_s, &error);
        QVERIFY2(port, qPrintable(error));
        McpTestServers::FollowingOpener browser(&fixture.network);
        fixture.hub.setAuthorizationServices(&browser, &fixture.keychain);
        const McpServerConfig server = McpTestServers::authServer(port);
        fixture.mcp.setServers({server});
        fixture.hub.setServers({server});
        auto dialog = fixture.open(true);
        auto *label = child<QLabel>(dialog.get(), u"mcpSignInLabel"_s);
        auto *signIn = child<QPushButton>(dialog.get(), u"mcpSignInButton"_s);
        auto *signOut = child<QPushButton>(dialog.get(), u"mcpSignOutButton"_s);
        const QString issuer = u"http://127.0.0.1:%1"_s.arg(port);

        QTRY_VERIFY2_WITH_TIMEOUT(
            label->text().startsWith(u"Signed in at %1 · scopes files:read · expires "_s.arg(issuer)),
            qPrintable(label->text()), 15000);
        QVERIFY(signOut->isVisible());
        QVERIFY(!signIn->isVisible());
        const QString account = McpAuthorizer::tokenAccount(server.name, issuer);
        QTRY_VERIFY_WITH_TIMEOUT(fixture.readKey(account).secret.has_value(), 10000);

        signOut->click();
        QTRY_COMPARE(label->text(), u"Not signed in"_s);
        QVERIFY(signIn->isVisible());
        QVERIFY(!signOut->isVisible());
        const SecretStore::Result removed = fixture.readKey(account);
        QCOMPARE(removed.error, QString());
        QVERIFY(!removed.secret.has_value());

        // Sign in restarts the server, which asks again: the browser opens a second time.
        signIn->click();
        QTRY_VERIFY2_WITH_TIMEOUT(label->text().startsWith(u"Signed in at "_s), qPrintable(label->text()),
                                  15000);
        QCOMPARE(browser.opened, 2);
        fixture.hub.shutdown();
        authServer.kill();
        authServer.waitForFinished(5000);
    }

    void anHttpServerShowsTheSignInAndACommandDoesNot_data()
    {
        QTest::addColumn<bool>("http");
        QTest::newRow("HTTP: the sign-in line") << true;
        QTest::newRow("a command: none") << false;
    }

    void anHttpServerShowsTheSignInAndACommandDoesNot()
    {
        QFETCH(bool, http);
        Fixture fixture;
        McpServerConfig server = uiServer(u"x"_s);
        if (http) {
            server = McpTestServers::authServer(McpTestServers::freePort(), u"x"_s);
            server.enabled = false;
        }
        fixture.mcp.setServers({server});
        auto dialog = fixture.open();
        auto *label = child<QLabel>(dialog.get(), u"mcpSignInLabel"_s);
        QTRY_COMPARE(label->isVisible(), http);
        if (http) {
            QCOMPARE(label->text(), u"Not signed in"_s);
            QVERIFY(!child<QPushButton>(dialog.get(), u"mcpSignInButton"_s)->isEnabled()); // not running yet
        }
    }
};

QTEST_MAIN(McpServersPageTest)
#include "tst_mcpserverspage.moc"
