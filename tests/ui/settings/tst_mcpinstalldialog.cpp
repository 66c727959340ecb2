// A loopscope://mcp/install link in the window: it asks first, shows what would run, and only then
// saves the server as Settings → MCP Servers would (secrets in a real, throw-away keychain).

#include "agent/config/secretstore.h"
#include "agent/mcp/mcpserverinstall.h"
#include "agent/mcp/mcpsettings.h"
#include "tests/support/nokeychainstore.h"
#include "ui/settings/mcpinstalldialog.h"
#include "ui/settings/mcpinstaller.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString token = u"Bearer sk-link-secret-4567"_s;

QUrl commandLink(const QString &name, const QJsonArray &args)
{
    return McpServerInstall::link({{u"name"_s, name}, {u"command"_s, u"npx"_s}, {u"args"_s, args}});
}

// One test's world: its own settings file, keychain service and window.
struct Fixture
{
    QTemporaryDir dir;
    QString path = dir.filePath(u"settings.ini"_s);
    QSettings settings{path, QSettings::IniFormat};
    McpSettings mcp{&settings};
    KeychainSecretStore keychain{
        u"Loopscope tests %1 %2"_s.arg(QString::fromLatin1(QTest::currentTestFunction()))
            .arg(QCoreApplication::applicationPid())};
    QWidget window;
    Ui::McpInstaller installer{&mcp, &keychain, &window};
};

QMessageBox *messageBox(QWidget *window)
{
    const QList<QMessageBox *> boxes = window->findChildren<QMessageBox *>();
    return boxes.isEmpty() ? nullptr : boxes.constLast();
}

} // namespace

class McpInstallDialogTest : public QObject
{
    Q_OBJECT

private slots:
    void theDialogShowsTheCommandAndCancelAddsNothing()
    {
        Fixture f;
        QSignalSpy installed(&f.installer, &Ui::McpInstaller::installed);
        f.installer.open(commandLink(
            u"files"_s, {u"-y"_s, u"@modelcontextprotocol/server-filesystem"_s, u"/home/me/my notes"_s}));
        Ui::McpInstallDialog *dialog = f.installer.dialog();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->findChild<QPlainTextEdit *>(u"mcpInstallWhat"_s)->toPlainText(),
                 u"npx -y @modelcontextprotocol/server-filesystem '/home/me/my notes'"_s);
        QCOMPARE(dialog->findChild<QLineEdit *>(u"mcpInstallName"_s)->text(), u"files"_s);
        // Enter does not add: Cancel is the default button.
        QVERIFY(dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Cancel)->isDefault());
        QVERIFY(!dialog->addButton()->isDefault());

        QTest::keyClick(dialog, Qt::Key_Escape);
        QTRY_VERIFY(!f.installer.dialog());
        QCOMPARE(installed.count(), 0);
        QVERIFY(f.mcp.servers().isEmpty());
    }

    void addSavesTheServerWithItsSecretInTheKeychain()
    {
        Fixture f;
        QSignalSpy installed(&f.installer, &Ui::McpInstaller::installed);
        f.installer.open(McpServerInstall::link({{u"name"_s, u"remote"_s},
                                                 {u"url"_s, u"https://mcp.example.com/mcp"_s},
                                                 {u"headers"_s, QJsonObject{{u"Authorization"_s, token}}}}));
        Ui::McpInstallDialog *dialog = f.installer.dialog();
        QVERIFY(dialog);
        const QString shown = dialog->findChild<QPlainTextEdit *>(u"mcpInstallWhat"_s)->toPlainText();
        QVERIFY2(shown.startsWith(u"https://mcp.example.com/mcp\nHeader: Authorization: "_s),
                 qPrintable(shown));
        QVERIFY(!shown.contains(token)); // masked

        QTest::mouseClick(dialog->addButton(), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(installed.count(), 1, 10000);
        QCOMPARE(installed.constFirst().constFirst().toString(), u"remote"_s);
        const QList<McpServerConfig> servers = f.mcp.servers();
        QCOMPARE(servers.size(), 1);
        QCOMPARE(servers.constFirst().url, QUrl(u"https://mcp.example.com/mcp"_s));
        QVERIFY(servers.constFirst().enabled);
        f.settings.sync();
        QFile file(f.path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains(token.toUtf8()));

        std::optional<SecretStore::Result> stored;
        f.keychain.read(McpServerConfig::secretAccount(u"remote"_s, u"Authorization"_s), &f.window,
                        [&stored](const SecretStore::Result &result) { stored = result; });
        QTRY_VERIFY_WITH_TIMEOUT(stored.has_value(), 10000);
        QCOMPARE(stored->secret, std::optional(token));
        // Clean the throw-away keychain.
        std::optional<QString> removed;
        QString error;
        QVERIFY(f.mcp.remove(
            u"remote"_s, &f.keychain, &f.window, [&removed](const QString &e) { removed = e; }, &error));
        QTRY_VERIFY_WITH_TIMEOUT(removed.has_value(), 10000);
    }

    void aTakenNameMustBeChangedBeforeAdding()
    {
        Fixture f;
        f.mcp.setServers({*McpServerInstall::command(u"files"_s, {u"other"_s}, {}, nullptr)});
        QSignalSpy installed(&f.installer, &Ui::McpInstaller::installed);
        f.installer.open(commandLink(u"Files"_s, {u"server-filesystem"_s}));
        Ui::McpInstallDialog *dialog = f.installer.dialog();
        QVERIFY(dialog);
        auto *problem = dialog->findChild<QLabel *>(u"mcpInstallNameProblem"_s);
        QVERIFY(!dialog->addButton()->isEnabled());
        QVERIFY(problem->isVisible());
        QVERIFY2(problem->text().contains(u"already an MCP server called “files”"_s),
                 qPrintable(problem->text()));

        auto *name = dialog->findChild<QLineEdit *>(u"mcpInstallName"_s);
        name->selectAll();
        QTest::keyClicks(name, u"files 2"_s);
        QVERIFY(dialog->addButton()->isEnabled());
        QVERIFY(!problem->isVisible());
        QTest::mouseClick(dialog->addButton(), Qt::LeftButton);
        QTRY_COMPARE(installed.count(), 1);
        const QList<McpServerConfig> servers = f.mcp.servers();
        QCOMPARE(servers.size(), 2);
        QCOMPARE(servers.at(1).name, u"files 2"_s);
        QCOMPARE(servers.at(1).arguments, QStringList{u"server-filesystem"_s});
    }

    void hiddenCharactersInTheCommandAreShownEscaped()
    {
        Fixture f;
        f.installer.open(commandLink(u"x"_s, {u"notes\u202Etxt.sh"_s, u"a\nrm -rf ~"_s}));
        QVERIFY(f.installer.dialog());
        const QString shown
            = f.installer.dialog()->findChild<QPlainTextEdit *>(u"mcpInstallWhat"_s)->toPlainText();
        QCOMPARE(shown, u"npx $'notes\\u202etxt.sh' $'a\\u000arm -rf ~'"_s);
    }

    void aBadLinkIsExplainedAndOpensNoDialog()
    {
        Fixture f;
        QSignalSpy failed(&f.installer, &Ui::McpInstaller::failed);
        f.installer.open(QUrl(u"loopscope://mcp/install?config=%%%"_s));
        QCOMPARE(failed.count(), 1);
        QVERIFY(!f.installer.dialog());
        QMessageBox *box = messageBox(&f.window);
        QVERIFY(box);
        QCOMPARE(box->text(), failed.constFirst().constFirst().toString());
    }

    void withoutAKeychainASecretLinkAddsNothingAndSaysWhy()
    {
        Fixture f;
        NoKeychainStore noKeychain(f.dir.filePath(u"keys.json"_s));
        Ui::McpInstaller installer(&f.mcp, &noKeychain, &f.window);
        QSignalSpy failed(&installer, &Ui::McpInstaller::failed);
        installer.open(McpServerInstall::link({{u"name"_s, u"remote"_s},
                                               {u"url"_s, u"https://mcp.example.com/mcp"_s},
                                               {u"headers"_s, QJsonObject{{u"Authorization"_s, token}}}}));
        QVERIFY(installer.dialog());
        QTest::mouseClick(installer.dialog()->addButton(), Qt::LeftButton);
        QTRY_COMPARE(failed.count(), 1);
        QVERIFY2(failed.constFirst().constFirst().toString().contains(u"no keychain"_s),
                 qPrintable(failed.constFirst().constFirst().toString()));
        QVERIFY(f.mcp.servers().isEmpty());
    }
};

QTEST_MAIN(McpInstallDialogTest)
#include "tst_mcpinstalldialog.moc"
