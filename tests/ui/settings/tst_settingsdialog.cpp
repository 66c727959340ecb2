#include "agent/config/appsettings.h"
#include "agent/config/filesecretstore.h"
#include "agent/config/providerprofile.h"
#include "agent/config/secretstore.h"
#include "agent/providers/connectiontester.h"
#include "agent/session/chatsession.h"
#include "agent/tools/builtin/builtintools.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/nokeychainstore.h"
#include "tests/support/openaicompletion.h"
#include "ui/settings/settingsdialog.h"

#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cmath>
#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

// Where the key a connection test uses comes from.
enum class KeySource { Typed, Stored, Environment };

const QString StoredPlaceholder = u"stored in the keychain — type to replace"_s;

// A keychain that is locked for writing: the one failure a real Secret Service will not produce on demand.
class LockedSecretStore final : public SecretStore
{
public:
    void read(const QString &, QObject *context, ReadCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done({}); });
    }
    void write(const QString &, const QString &, QObject *context, WriteCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done(u"the collection is locked"_s); });
    }
    void remove(const QString &, QObject *context, WriteCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done({}); });
    }
};

// One test's world: its own settings file and its own keychain service, so no test sees another's keys.
struct Fixture
{
    QTemporaryDir dir;
    QString path = dir.filePath(u"settings.ini"_s);
    QSettings settings{path, QSettings::IniFormat};
    ProviderProfileStore profiles{&settings};
    AppSettings app{&settings};
    KeychainSecretStore keychain{
        u"Loopscope tests %1 %2"_s.arg(QString::fromLatin1(QTest::currentTestFunction()))
            .arg(QCoreApplication::applicationPid())};
    QNetworkAccessManager network;
    ConnectionTester tester{&network};

    std::unique_ptr<Ui::SettingsDialog> open(SecretStore *secrets = nullptr)
    {
        auto dialog
            = std::make_unique<Ui::SettingsDialog>(&profiles, &app, secrets ? secrets : &keychain, &tester);
        dialog->show();
        return dialog;
    }

    QByteArray ini()
    {
        settings.sync();
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    // What a fresh process would read from the same file.
    std::unique_ptr<QSettings> reread()
    {
        settings.sync();
        return std::make_unique<QSettings>(path, QSettings::IniFormat);
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

    QString writeKey(const QString &account, const QString &key)
    {
        std::optional<QString> error;
        QObject context;
        keychain.write(account, key, &context, [&error](const QString &e) { error = e; });
        if (!QTest::qWaitFor([&] { return error.has_value(); }, 10000))
            return u"the keychain did not answer"_s;
        return *error;
    }

    ProviderProfile seedProfile(const QString &id, const QString &model, const QUrl &baseUrl = {})
    {
        ProviderProfile profile{id, id.toUpper(), ProviderKind::OpenAi, baseUrl, model, {}, {}};
        profile.defaults.model = model;
        profiles.save(profile);
        if (profiles.defaultProfileId().isEmpty())
            profiles.setDefaultProfileId(id);
        return profile;
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

QPushButton *dialogButton(QWidget *dialog, QDialogButtonBox::StandardButton which)
{
    auto *box = child<QDialogButtonBox>(dialog, u"buttonBox"_s);
    return box ? box->button(which) : nullptr;
}

void retype(QLineEdit *edit, const QString &text)
{
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

// Every string a widget could show or speak, so a test can say a key appears nowhere.
QStringList everyVisibleString(QWidget *root)
{
    QStringList strings;
    QList<QWidget *> widgets = root->findChildren<QWidget *>();
    widgets.prepend(root);
    for (QWidget *widget : std::as_const(widgets)) {
        for (const char *property :
             {"text", "plainText", "placeholderText", "currentText", "toolTip", "statusTip", "whatsThis",
              "accessibleName", "accessibleDescription", "windowTitle"}) {
            const QVariant value = widget->property(property);
            if (value.isValid())
                strings.append(value.toString());
        }
        if (auto *list = qobject_cast<QListWidget *>(widget)) {
            for (int row = 0; row < list->count(); ++row)
                strings.append(list->item(row)->text());
        }
        if (auto *combo = qobject_cast<QComboBox *>(widget)) {
            for (int row = 0; row < combo->count(); ++row)
                strings.append(combo->itemText(row));
        }
    }
    return strings;
}

} // namespace

Q_DECLARE_METATYPE(KeySource)

// Runs inside dbus-run-session with an unlocked gnome-keyring (tests/config/with-keyring.sh):
// keys really go through QtKeychain to a Secret Service.
class SettingsDialogTest : public QObject
{
    Q_OBJECT

private slots:
    void aProfileAddedThroughTheDialogIsSavedAndItsKeyGoesToTheKeychain()
    {
        Fixture f;
        auto dialog = f.open();
        const QString key = u"sk-live-added-0123456789abcdef"_s;
        QVERIFY(child<QLabel>(dialog.get(), u"noProviderLabel"_s)->isVisible());

        QTest::mouseClick(child<QPushButton>(dialog.get(), u"addProviderButton"_s), Qt::LeftButton);
        retype(child<QLineEdit>(dialog.get(), u"nameEdit"_s), u"Work OpenAI"_s);
        auto *kind = child<QComboBox>(dialog.get(), u"kindCombo"_s);
        kind->setCurrentIndex(kind->findData(u"anthropic"_s));
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"baseUrlEdit"_s), u"https://llm.example.test"_s);
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"modelEdit"_s), u"claude-test"_s);
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s), key);
        QCOMPARE(child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s)->echoMode(), QLineEdit::Password);

        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(dialog->isSaving()); // the keychain answers later; the dialog waits for it
        QVERIFY(dialog->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isVisible(), 10000);
        QCOMPARE(dialog->result(), int(QDialog::Accepted));

        const auto settings = f.reread();
        ProviderProfileStore store(settings.get());
        QCOMPARE(store.profiles().size(), 1);
        const ProviderProfile saved = store.profiles().constFirst();
        QCOMPARE(saved.id, u"work-openai"_s);
        QCOMPARE(saved.name, u"Work OpenAI"_s);
        QCOMPARE(saved.kind, ProviderKind::Anthropic);
        QCOMPARE(saved.baseUrl, QUrl(u"https://llm.example.test"_s));
        QCOMPARE(saved.model, u"claude-test"_s);
        QCOMPARE(store.defaultProfileId(), saved.id);

        const SecretStore::Result stored = f.readKey(saved.id);
        QCOMPARE(stored.error, QString());
        QCOMPARE(stored.secret, std::optional<QString>(key));
        QVERIFY(!f.ini().isEmpty());
        QVERIFY(!f.ini().contains(key.toUtf8()));
        QVERIFY(!f.ini().contains("sk-live"));
    }

    void reopeningTheDialogNeverShowsTheStoredKey()
    {
        Fixture f;
        const QString key = u"sk-reopen-0123456789abcdef"_s;
        f.seedProfile(u"with-key"_s, u"gpt-a"_s);
        f.seedProfile(u"without-key"_s, u"gpt-b"_s);
        QCOMPARE(f.writeKey(u"with-key"_s, key), QString());

        auto dialog = f.open();
        auto *list = child<QListWidget>(dialog.get(), u"providerList"_s);
        auto *keyEdit = child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s);
        QCOMPARE(list->count(), 2);
        list->setCurrentRow(0);
        QCOMPARE(child<QLineEdit>(dialog.get(), u"nameEdit"_s)->text(), u"WITH-KEY"_s);

        QTRY_COMPARE(keyEdit->placeholderText(), StoredPlaceholder);
        QCOMPARE(keyEdit->text(), QString());
        QCOMPARE(keyEdit->echoMode(), QLineEdit::Password);
        for (const QString &text : everyVisibleString(dialog.get()))
            QVERIFY2(!text.contains(key), qPrintable(text));

        list->setCurrentRow(1);
        QTRY_COMPARE(keyEdit->placeholderText(), u"not set"_s);
        QCOMPARE(keyEdit->text(), QString());
    }

    void theStoredKeyChangesOnlyWhenANewOneIsTyped_data()
    {
        QTest::addColumn<QString>("typedKey");
        QTest::newRow("other fields edited, key field left empty") << QString();
        QTest::newRow("a new key typed") << u"sk-replacement-0123456789"_s;
    }

    void theStoredKeyChangesOnlyWhenANewOneIsTyped()
    {
        QFETCH(QString, typedKey);
        Fixture f;
        const QString oldKey = u"sk-original-0123456789abcdef"_s;
        f.seedProfile(u"work"_s, u"gpt-old"_s);
        QCOMPARE(f.writeKey(u"work"_s, oldKey), QString());

        auto dialog = f.open();
        QTRY_COMPARE(child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s)->placeholderText(), StoredPlaceholder);
        retype(child<QLineEdit>(dialog.get(), u"modelEdit"_s), u"gpt-new"_s);
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s), typedKey);
        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isVisible(), 10000);

        const auto settings = f.reread();
        QCOMPARE(ProviderProfileStore(settings.get()).profile(u"work"_s)->model, u"gpt-new"_s);
        const SecretStore::Result stored = f.readKey(u"work"_s);
        QCOMPARE(stored.error, QString());
        QCOMPARE(stored.secret, std::optional<QString>(typedKey.isEmpty() ? oldKey : typedKey));
        QVERIFY(!f.ini().contains(oldKey.toUtf8()));
        QVERIFY(typedKey.isEmpty() || !f.ini().contains(typedKey.toUtf8()));
    }

    void removingAProfileRemovesItsKeyAndPassesTheDefaultOn()
    {
        Fixture f;
        f.seedProfile(u"first"_s, u"gpt-a"_s);
        f.seedProfile(u"second"_s, u"gpt-b"_s);
        QCOMPARE(f.profiles.defaultProfileId(), u"first"_s);
        QCOMPARE(f.writeKey(u"first"_s, u"sk-doomed-0123456789"_s), QString());
        QCOMPARE(f.writeKey(u"second"_s, u"sk-kept-0123456789"_s), QString());

        auto dialog = f.open();
        auto *list = child<QListWidget>(dialog.get(), u"providerList"_s);
        list->setCurrentRow(0);
        QCOMPARE(list->currentItem()->text(), u"FIRST (default)"_s);
        QTest::mouseClick(child<QPushButton>(dialog.get(), u"removeProviderButton"_s), Qt::LeftButton);
        QCOMPARE(list->count(), 1);
        QCOMPARE(list->item(0)->text(), u"SECOND (default)"_s);
        QCOMPARE(f.readKey(u"first"_s).secret,
                 std::optional<QString>(u"sk-doomed-0123456789"_s)); // not before OK

        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!dialog->isVisible(), 10000);

        const auto settings = f.reread();
        ProviderProfileStore store(settings.get());
        QCOMPARE(store.profile(u"first"_s), std::nullopt);
        QCOMPARE(store.defaultProfileId(), u"second"_s);
        QCOMPARE(f.readKey(u"first"_s).secret, std::nullopt);
        QCOMPARE(f.readKey(u"second"_s).secret, std::optional<QString>(u"sk-kept-0123456789"_s));
    }

    void makeDefaultChoosesTheProfileNewConversationsUse()
    {
        Fixture f;
        f.seedProfile(u"first"_s, u"gpt-a"_s);
        f.seedProfile(u"second"_s, u"gpt-b"_s);
        auto dialog = f.open();
        auto *makeDefault = child<QPushButton>(dialog.get(), u"makeDefaultButton"_s);
        auto *list = child<QListWidget>(dialog.get(), u"providerList"_s);
        list->setCurrentRow(0);
        QVERIFY(!makeDefault->isEnabled());
        list->setCurrentRow(1);
        QVERIFY(makeDefault->isEnabled());
        QTest::mouseClick(makeDefault, Qt::LeftButton);
        QCOMPARE(list->item(1)->text(), u"SECOND (default)"_s);
        QCOMPARE(list->item(0)->text(), u"FIRST"_s);
        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY(!dialog->isVisible());
        const auto settings = f.reread();
        QCOMPARE(ProviderProfileStore(settings.get()).defaultProfileId(), u"second"_s);
    }

    void aProfilesTopPIsSavedAndShownAgainAndItsMinimumIsTheProviderDefault_data()
    {
        QTest::addColumn<double>("stored"); // NaN: none
        QTest::addColumn<double>("typed");  // NaN: the minimum, "provider default"
        QTest::newRow("set where there was none") << qQNaN() << 0.9;
        QTest::newRow("zero is a value") << 0.5 << 0.0;
        QTest::newRow("back to the provider default") << 0.9 << qQNaN();
    }

    void aProfilesTopPIsSavedAndShownAgainAndItsMinimumIsTheProviderDefault()
    {
        QFETCH(double, stored);
        QFETCH(double, typed);
        Fixture f;
        ProviderProfile profile = f.seedProfile(u"work"_s, u"gpt-a"_s);
        if (!std::isnan(stored)) {
            profile.defaults.topP = stored;
            f.profiles.save(profile);
        }
        const auto topPSpin = [](QWidget *dialog) {
            return child<QDoubleSpinBox>(dialog, u"topPSpin"_s);
        };
        const auto shown = [](QDoubleSpinBox *spin) {
            return spin->value() == spin->minimum() ? qQNaN() : spin->value();
        };
        auto dialog = f.open();
        QVERIFY(topPSpin(dialog.get()));
        QCOMPARE(shown(topPSpin(dialog.get())), stored);

        topPSpin(dialog.get())->setValue(std::isnan(typed) ? topPSpin(dialog.get())->minimum() : typed);
        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY(!dialog->isVisible());

        const auto settings = f.reread();
        const std::optional<ProviderProfile> saved = ProviderProfileStore(settings.get()).profile(u"work"_s);
        QVERIFY(saved);
        QCOMPARE(saved->defaults.topP, std::isnan(typed) ? std::nullopt : std::optional(typed));
        // What the dialog says after reopening is what was saved.
        dialog = f.open();
        QCOMPARE(shown(topPSpin(dialog.get())), typed);
    }

    void loopToolsAndAppearanceSettingsPersistOnlyWhenConfirmed_data()
    {
        QTest::addColumn<QDialogButtonBox::StandardButton>("button");
        QTest::addColumn<bool>("persisted");
        QTest::addColumn<bool>("staysOpen");
        QTest::newRow("OK saves and closes") << QDialogButtonBox::Ok << true << false;
        QTest::newRow("Apply saves and stays open") << QDialogButtonBox::Apply << true << true;
        QTest::newRow("Cancel discards") << QDialogButtonBox::Cancel << false << false;
    }

    void loopToolsAndAppearanceSettingsPersistOnlyWhenConfirmed()
    {
        QFETCH(QDialogButtonBox::StandardButton, button);
        QFETCH(bool, persisted);
        QFETCH(bool, staysOpen);
        Fixture f;
        const QStringList tools = builtinToolNames();
        auto dialog = f.open();
        QSignalSpy applied(dialog.get(), &Ui::SettingsDialog::applied);

        dialog->showPage(Ui::SettingsDialog::Page::Loop);
        child<QSpinBox>(dialog.get(), u"maxIterationsSpin"_s)->setValue(7);
        child<QSpinBox>(dialog.get(), u"parallelToolsSpin"_s)->setValue(1);
        QCOMPARE(child<QSpinBox>(dialog.get(), u"maxToolCallsSpin"_s)->value(), 1000);
        QCOMPARE(child<QSpinBox>(dialog.get(), u"maxToolCallsSpin"_s)->maximum(), 100'000);
        child<QSpinBox>(dialog.get(), u"maxToolCallsSpin"_s)->setValue(250);
        auto *postLoop = child<QComboBox>(dialog.get(), u"postLoopCombo"_s);
        postLoop->setCurrentIndex(postLoop->findData(u"summary"_s));
        auto *compaction = child<QComboBox>(dialog.get(), u"compactionCombo"_s);
        QCOMPARE(compaction->currentData().toString(), u"auto"_s);
        compaction->setCurrentIndex(compaction->findData(u"drop-oldest"_s));
        QCOMPARE(child<QSpinBox>(dialog.get(), u"compactAtSpin"_s)->value(), 80);
        child<QSpinBox>(dialog.get(), u"compactAtSpin"_s)->setValue(65);
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"compactionModelEdit"_s), u"small-model"_s);
        auto *summaryPrompt = child<QPlainTextEdit>(dialog.get(), u"compactionPromptEdit"_s);
        QCOMPARE(summaryPrompt->toPlainText(), AgentConfig().compactionPrompt);
        summaryPrompt->setPlainText(u"Keep only the numbers."_s);
        child<QSpinBox>(dialog.get(), u"toolTimeoutSpin"_s)->setValue(90);
        child<QSpinBox>(dialog.get(), u"readTimeoutSpin"_s)->setValue(120);
        QCOMPARE(child<QSpinBox>(dialog.get(), u"maxResponseSpin"_s)->value(), 64);
        QCOMPARE(child<QSpinBox>(dialog.get(), u"requestTimeoutSpin"_s)->value(), 1800);
        child<QSpinBox>(dialog.get(), u"maxResponseSpin"_s)->setValue(8);
        child<QSpinBox>(dialog.get(), u"requestTimeoutSpin"_s)->setValue(300);
        QTest::keyClicks(child<QPlainTextEdit>(dialog.get(), u"systemPromptEdit"_s), u"Be terse."_s);
        dialog->showPage(Ui::SettingsDialog::Page::Tools);
        QTest::keyClick(child<QCheckBox>(dialog.get(), u"toolEnabled_"_s + tools.at(0)), Qt::Key_Space);
        QVERIFY(!child<QComboBox>(dialog.get(), u"toolRule_"_s + tools.at(0))->isEnabled());
        auto *rule = child<QComboBox>(dialog.get(), u"toolRule_"_s + tools.at(1));
        rule->setCurrentIndex(rule->findData(u"ask"_s));
        auto *never = child<QComboBox>(dialog.get(), u"toolRule_"_s + tools.at(2));
        never->setCurrentIndex(never->findData(u"never"_s));
        retype(child<QLineEdit>(dialog.get(), u"workspaceEdit"_s), f.dir.path());
        QTest::keyClick(child<QCheckBox>(dialog.get(), u"fetchPrivateCheck"_s), Qt::Key_Space);
        dialog->showPage(Ui::SettingsDialog::Page::Appearance);
        QTest::keyClick(child<QCheckBox>(dialog.get(), u"sendOnEnterCheck"_s), Qt::Key_Space);

        QTest::mouseClick(dialogButton(dialog.get(), button), Qt::LeftButton);
        QTRY_COMPARE(dialog->isVisible(), staysOpen);
        QTRY_VERIFY(!dialog->isSaving());
        QCOMPARE(applied.size(), persisted ? 1 : 0);
        if (staysOpen)
            QCOMPARE(child<QLabel>(dialog.get(), u"statusLabel"_s)->text(), u"Saved."_s);

        const auto settings = f.reread();
        const AppSettings app(settings.get());
        if (!persisted) {
            QCOMPARE(app.agentConfig(), AgentConfig());
            QCOMPARE(app.enabledTools(), tools);
            QCOMPARE(app.toolApprovalRules(), (QHash<QString, QString>()));
            QCOMPARE(app.sendOnEnter(), false);
            QCOMPARE(app.responseLimits(), ResponseLimits());
            QVERIFY(settings->allKeys().isEmpty());
            return;
        }
        AgentConfig expected;
        expected.maxIterations = 7;
        expected.maxParallelTools = 1;
        expected.maxToolCallsPerResponse = 250;
        expected.postLoop = PostLoopMode::Summary;
        expected.compaction = CompactionStrategy::DropOldest;
        expected.compactAtPercent = 65;
        expected.compactionModel = u"small-model"_s;
        expected.compactionPrompt = u"Keep only the numbers."_s;
        expected.toolTimeoutMs = 90'000;
        expected.systemPrompt = u"Be terse."_s;
        QCOMPARE(app.agentConfig(), expected);
        QCOMPARE(app.providerReadTimeoutMs(), 120'000);
        QCOMPARE(app.responseLimits().maxResponseBytes, 8 * ResponseLimits::MegaByte);
        QCOMPARE(app.responseLimits().requestTimeoutMs, 300'000);
        QCOMPARE(app.enabledTools(), tools.mid(1));
        QCOMPARE(app.toolApprovalRules().value(tools.at(1)), u"ask"_s);
        QCOMPARE(app.toolApprovalRules().value(tools.at(2)), u"never"_s);
        QCOMPARE(app.toolApprovalRules().value(tools.at(3)), u"always"_s);
        QCOMPARE(app.workspaceFolder(), f.dir.path());
        QCOMPARE(app.fetchAllowsPrivateAddresses(), true);
        QCOMPARE(app.sendOnEnter(), true);
    }

    void scopedApprovalsAreListedAndARemovedOneIsGoneOnOk()
    {
        Fixture f;
        const ScopedApproval git{u"run_command"_s, {ApprovalScope::Kind::CommandPrefix, u"git"_s}};
        const ScopedApproval docs{u"fetch_url"_s, {ApprovalScope::Kind::Host, u"docs.qt.io"_s}};
        f.app.setScopedApprovals({git, docs});
        auto dialog = f.open();
        dialog->showPage(Ui::SettingsDialog::Page::Tools);
        auto *list = child<QListWidget>(dialog.get(), u"scopedApprovalsList"_s);
        auto *remove = child<QPushButton>(dialog.get(), u"removeScopedApprovalButton"_s);
        QCOMPARE(list->count(), 2);
        QVERIFY2(list->item(0)->text().contains(u"“git”"_s), qPrintable(list->item(0)->text()));
        QVERIFY(list->item(1)->text().contains(u"docs.qt.io"_s));
        QVERIFY(!remove->isEnabled());

        list->setCurrentRow(0);
        QVERIFY(remove->isEnabled());
        QTest::mouseClick(remove, Qt::LeftButton);
        QCOMPARE(list->count(), 1);
        QCOMPARE(f.app.scopedApprovals().size(), 2); // only Apply or OK saves

        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY(!dialog->isVisible());
        const auto settings = f.reread();
        QCOMPARE(AppSettings(settings.get()).scopedApprovals(), QList<ScopedApproval>{docs});
    }

    void untouchedTimeoutsKeepTheirExactStoredValues()
    {
        Fixture f;
        AgentConfig config;
        config.toolTimeoutMs = 2'400; // shown as 2 s
        f.app.setAgentConfig(config);
        f.app.setProviderReadTimeoutMs(45'500);
        auto dialog = f.open();
        QCOMPARE(child<QSpinBox>(dialog.get(), u"toolTimeoutSpin"_s)->value(), 2);
        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY(!dialog->isVisible());
        const auto settings = f.reread();
        QCOMPARE(AppSettings(settings.get()).agentConfig().toolTimeoutMs, 2'400);
        QCOMPARE(AppSettings(settings.get()).providerReadTimeoutMs(), 45'500);
    }

    void testConnectionReportsWhatTheProviderSaid_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<KeySource>("keySource");
        QTest::addColumn<QString>("shown");
        QTest::newRow("200 with a typed key")
            << 200 << KeySource::Typed << u"Connected: gpt-test is available."_s;
        QTest::newRow("200 with the key in the keychain")
            << 200 << KeySource::Stored << u"Connected: gpt-test is available."_s;
        QTest::newRow("200 with the key from an environment variable")
            << 200 << KeySource::Environment << u"Connected: gpt-test is available."_s;
        QTest::newRow("401 shows the human error")
            << 401 << KeySource::Typed << u"Connection failed: the API key was rejected (401)"_s;
    }

    void testConnectionReportsWhatTheProviderSaid()
    {
        QFETCH(int, status);
        QFETCH(KeySource, keySource);
        QFETCH(QString, shown);
        const QString key = u"sk-test-%1-0123456789abcdef"_s.arg(int(keySource));
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler([status, key](const HttpRequestRecord &, HttpExchange &exchange) {
            if (status == 200) // the model list: a test must not spend tokens
                exchange.respondJson(200, {{u"object"_s, u"list"_s},
                                           {u"data"_s, QJsonArray{QJsonObject{{u"id"_s, u"gpt-test"_s}}}}});
            else // like OpenAI, the error quotes the key; the dialog must not show it
                exchange.respondJson(
                    status, {{u"error"_s,
                              QJsonObject{{u"message"_s, QString(u"Incorrect API key provided: "_s + key)},
                                          {u"type"_s, u"invalid_request_error"_s}}}});
        });
        Fixture f;
        const QByteArray envName = "LOOPSCOPE_SETTINGS_TEST_KEY";
        qunsetenv(envName.constData());
        const QUrl baseUrl(server.baseUrl().toString() + u"/v1"_s);
        if (keySource != KeySource::Typed) {
            f.seedProfile(u"local"_s, u"gpt-test"_s, baseUrl);
            if (keySource == KeySource::Stored) {
                QCOMPARE(f.writeKey(u"local"_s, key), QString());
            } else {
                qputenv(envName.constData(), key.toUtf8());
                ProviderProfile profile = *f.profiles.profile(u"local"_s);
                profile.apiKeyEnv = QString::fromLatin1(envName);
                f.profiles.save(profile);
            }
        }
        auto dialog = f.open();
        if (keySource == KeySource::Typed) {
            QTest::mouseClick(child<QPushButton>(dialog.get(), u"addProviderButton"_s), Qt::LeftButton);
            QTest::keyClicks(child<QLineEdit>(dialog.get(), u"baseUrlEdit"_s), baseUrl.toString());
            QTest::keyClicks(child<QLineEdit>(dialog.get(), u"modelEdit"_s), u"gpt-test"_s);
            QTest::keyClicks(child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s), key);
        } else if (keySource == KeySource::Stored) {
            QTRY_COMPARE(child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s)->placeholderText(),
                         StoredPlaceholder);
        }
        auto *result = child<QLabel>(dialog.get(), u"testResultLabel"_s);
        auto *test = child<QPushButton>(dialog.get(), u"testConnectionButton"_s);

        QTest::mouseClick(test, Qt::LeftButton);

        QTRY_VERIFY_WITH_TIMEOUT(result->text().startsWith(shown), 10000);
        QVERIFY(test->isEnabled());
        QVERIFY2(!result->text().contains(key), qPrintable(result->text()));
        QCOMPARE(server.requests().size(), 1); // no retry
        const HttpRequestRecord request = server.requests().constFirst();
        // The free model list, never a chat request that would cost tokens.
        QCOMPARE(request.method, "GET"_ba);
        QCOMPARE(request.path, "/v1/models"_ba);
        QCOMPARE(request.header("Authorization"), "Bearer "_ba + key.toUtf8());
        qunsetenv(envName.constData());
        // Testing saves nothing.
        QCOMPARE(f.profiles.profiles().size(), keySource == KeySource::Typed ? 0 : 1);
    }

    void testConnectionNamesAnUnsetVariableWithoutSendingAnything()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(200, openAiCompletion(u"pong"_s, u"gpt-test"_s));
        });
        Fixture f;
        const QByteArray envName = "LOOPSCOPE_SETTINGS_TEST_UNSET";
        qunsetenv(envName.constData());
        ProviderProfile profile
            = f.seedProfile(u"local"_s, u"gpt-test"_s, QUrl(server.baseUrl().toString() + u"/v1"_s));
        profile.apiKeyEnv = QString::fromLatin1(envName);
        f.profiles.save(profile);
        auto dialog = f.open();
        auto *result = child<QLabel>(dialog.get(), u"testResultLabel"_s);

        QTest::mouseClick(child<QPushButton>(dialog.get(), u"testConnectionButton"_s), Qt::LeftButton);

        QTRY_COMPARE(
            result->text(),
            u"Connection failed: the environment variable LOOPSCOPE_SETTINGS_TEST_UNSET is not set."_s);
        QTest::qWait(50);
        QCOMPARE(server.requests().size(), 0);

        // On a 900×600 screen the message and the key's help are shown whole, not cut.
        dialog->resize(dialog->minimumSize().boundedTo(QSize(880, 560)));
        const auto shownWhole = [](const QLabel *label) {
            return label->isVisible() && label->height() >= label->heightForWidth(label->width());
        };
        QTRY_VERIFY(shownWhole(result));
        QVERIFY(shownWhole(child<QLabel>(dialog.get(), u"keyHintLabel"_s)));
        QVERIFY(result->width() > child<QPushButton>(dialog.get(), u"testConnectionButton"_s)->width() * 2);
    }

    void aProfileThatCannotBeSavedKeepsTheDialogOpenAndSaysWhy_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("baseUrl");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("complaint");
        QTest::newRow("no model") << u"Work"_s << QString() << QString() << u"Enter the model"_s;
        QTest::newRow("no name") << QString() << QString() << u"gpt-x"_s << u"Give the profile a name"_s;
        QTest::newRow("a base URL that is not http")
            << u"Work"_s << u"ftp://example.test"_s << u"gpt-x"_s << u"http:// or https://"_s;
    }

    void aProfileThatCannotBeSavedKeepsTheDialogOpenAndSaysWhy()
    {
        QFETCH(QString, name);
        QFETCH(QString, baseUrl);
        QFETCH(QString, model);
        QFETCH(QString, complaint);
        Fixture f;
        auto dialog = f.open();
        QTest::mouseClick(child<QPushButton>(dialog.get(), u"addProviderButton"_s), Qt::LeftButton);
        auto *nameEdit = child<QLineEdit>(dialog.get(), u"nameEdit"_s);
        nameEdit->clear();
        QTest::keyClicks(nameEdit, name);
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"baseUrlEdit"_s), baseUrl);
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"modelEdit"_s), model);
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s), u"sk-never-saved-0123456789"_s);
        dialog->showPage(Ui::SettingsDialog::Page::Appearance);

        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);

        QVERIFY(dialog->isVisible());
        QVERIFY(!dialog->isSaving());
        auto *status = child<QLabel>(dialog.get(), u"statusLabel"_s);
        QVERIFY(status->isVisible());
        QVERIFY2(status->text().contains(complaint), qPrintable(status->text()));
        QCOMPARE(child<QTabWidget>(dialog.get(), u"pages"_s)->currentIndex(),
                 int(Ui::SettingsDialog::Page::Providers));
        QVERIFY(f.profiles.profiles().isEmpty());
        QCOMPARE(f.readKey(u"work"_s).secret, std::nullopt);
    }

    void aKeychainFailureKeepsTheDialogOpenAndSaysSo()
    {
        Fixture f;
        LockedSecretStore locked;
        auto dialog = f.open(&locked);
        QSignalSpy applied(dialog.get(), &Ui::SettingsDialog::applied);
        QTest::mouseClick(child<QPushButton>(dialog.get(), u"addProviderButton"_s), Qt::LeftButton);
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"modelEdit"_s), u"gpt-x"_s);
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s), u"sk-unsaved-0123456789"_s);

        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);

        QTRY_VERIFY(!dialog->isSaving());
        QVERIFY(dialog->isVisible());
        QCOMPARE(applied.size(), 0);
        auto *status = child<QLabel>(dialog.get(), u"statusLabel"_s);
        QVERIFY2(status->text().contains(u"the collection is locked"_s), qPrintable(status->text()));
        QVERIFY(dialogButton(dialog.get(), QDialogButtonBox::Ok)->isEnabled()); // the user may retry
        // The typed key is still there to retry with, as dots.
        QCOMPARE(child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s)->text(), u"sk-unsaved-0123456789"_s);
    }

    void withoutAKeychainTheProfileSaysSoAndOffersAnEnvironmentVariable()
    {
        Fixture f;
        f.seedProfile(u"work"_s, u"gpt-a"_s);
        NoKeychainStore store(f.dir.filePath(u"keys.json"_s));
        auto dialog = f.open(&store);
        auto *panel = child<QWidget>(dialog.get(), u"noKeychainPanel"_s);
        QVERIFY(panel);
        QTRY_VERIFY(panel->isVisible());
        const QString message = child<QLabel>(dialog.get(), u"noKeychainLabel"_s)->text();
        QVERIFY2(message.contains(u"No keychain is available on this desktop"_s), qPrintable(message));
        auto *keyFile = child<QCheckBox>(dialog.get(), u"keyFileCheck"_s);
        QVERIFY(keyFile);
        QVERIFY(keyFile->isVisible());
        QVERIFY(!keyFile->isChecked());
        QCOMPARE(child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s)->placeholderText(),
                 u"no keychain on this desktop"_s);

        QTest::mouseClick(child<QPushButton>(dialog.get(), u"useEnvironmentButton"_s), Qt::LeftButton);
        auto *variable = child<QLineEdit>(dialog.get(), u"apiKeyEnvEdit"_s);
        QCOMPARE(variable->text(), u"OPENAI_API_KEY"_s);
        QVERIFY(variable->hasFocus());
        QVERIFY(!panel->isVisible());
        QVERIFY(!keyFile->isVisible());

        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY(!dialog->isVisible());
        QCOMPARE(f.reread()->value(u"providers/work/apiKeyEnv"_s).toString(), u"OPENAI_API_KEY"_s);
    }

    void withoutAKeychainAKeyGoesToAFileOnlyTheUserCanReadOnceTheWarningIsAccepted()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.method == "GET" && request.path.endsWith("/models")) {
                exchange.respondJson(
                    200, QJsonObject{{u"object"_s, u"list"_s},
                                     {u"data"_s, QJsonArray{QJsonObject{{u"id"_s, u"gpt-a"_s}},
                                                            QJsonObject{{u"id"_s, u"gpt-b"_s}}}}});
            } else {
                exchange.respondJson(404, QJsonObject{});
            }
        });
        Fixture f;
        const QString keyFilePath = f.dir.filePath(u"config/keys.json"_s);
        NoKeychainStore store(keyFilePath);
        auto dialog = f.open(&store);
        QSignalSpy applied(dialog.get(), &Ui::SettingsDialog::applied);
        QTest::mouseClick(child<QPushButton>(dialog.get(), u"addProviderButton"_s), Qt::LeftButton);
        retype(child<QLineEdit>(dialog.get(), u"nameEdit"_s), u"Work"_s);
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"baseUrlEdit"_s),
                         server.baseUrl().resolved(QUrl(u"/v1"_s)).toString());
        QTest::keyClicks(child<QLineEdit>(dialog.get(), u"modelEdit"_s), u"gpt-a"_s);
        auto *key = child<QLineEdit>(dialog.get(), u"apiKeyEdit"_s);
        QTest::keyClicks(key, u"sk-file-0123456789"_s);

        // Saved as a user would: the keychain is not there, and that is what the dialog says.
        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY(!dialog->isSaving());
        QVERIFY(dialog->isVisible());
        QCOMPARE(applied.size(), 0);
        const QString status = child<QLabel>(dialog.get(), u"statusLabel"_s)->text();
        QVERIFY2(status.contains(u"No keychain is available on this desktop"_s), qPrintable(status));
        QVERIFY2(!status.contains(u"refused"_s), qPrintable(status));
        auto *panel = child<QWidget>(dialog.get(), u"noKeychainPanel"_s);
        QVERIFY(panel);
        QTRY_VERIFY(panel->isVisible());
        QCOMPARE(key->text(), u"sk-file-0123456789"_s); // still there, to be stored elsewhere

        // The file only with the warning read and agreed to: first declined, then accepted.
        auto *keyFile = child<QCheckBox>(dialog.get(), u"keyFileCheck"_s);
        QVERIFY(keyFile);
        QVERIFY(keyFile->isVisible());
        keyFile->click();
        QMessageBox *warning = nullptr;
        QTRY_VERIFY((warning = dialog->findChild<QMessageBox *>(u"keyFileWarning"_s)) != nullptr);
        QTRY_VERIFY(warning->isVisible());
        QVERIFY2(warning->text().contains(u"unencrypted"_s), qPrintable(warning->text()));
        QVERIFY(!keyFile->isChecked());
        warning->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(dialog->findChild<QMessageBox *>(u"keyFileWarning"_s) == nullptr);
        QVERIFY(!keyFile->isChecked());
        QVERIFY(!QFile::exists(keyFilePath));

        keyFile->click();
        QTRY_VERIFY((warning = dialog->findChild<QMessageBox *>(u"keyFileWarning"_s)) != nullptr);
        QAbstractButton *agree = nullptr;
        for (QAbstractButton *button : warning->buttons()) {
            if (warning->buttonRole(button) == QMessageBox::AcceptRole)
                agree = button;
        }
        QVERIFY(agree);
        agree->click();
        QTRY_VERIFY(keyFile->isChecked());
        QVERIFY(!panel->isVisible());

        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY(!dialog->isVisible());
        QCOMPARE(applied.size(), 1);
        QCOMPARE(QFile::permissions(keyFilePath)
                     & (QFileDevice::ReadGroup | QFileDevice::ReadOther | QFileDevice::WriteGroup
                        | QFileDevice::WriteOther),
                 QFileDevice::Permissions());
        QVERIFY(!f.ini().contains("sk-file")); // never in the settings file

        // Reopened as after a restart: the profile says where its key is, and its models list with it.
        const std::unique_ptr<QSettings> settings = f.reread();
        ProviderProfileStore reopened(settings.get());
        const QList<ProviderProfile> profiles = reopened.profiles();
        QCOMPARE(profiles.size(), 1);
        QCOMPARE(profiles.first().keyStorage, ProviderProfile::KeyStorage::File);
        NoKeychainStore restarted(keyFilePath);
        ChatSession session(&f.network);
        QSignalSpy listed(&session, &ChatSession::modelsListed);
        session.useProfile(profiles.first(), &restarted);
        QTRY_VERIFY(session.hasProvider());
        QCOMPARE(session.setup().providerProblem(), QString());
        session.listModels();
        QTRY_COMPARE(listed.size(), 1);
        QCOMPARE(listed.first().first().toStringList(), (QStringList{u"gpt-a"_s, u"gpt-b"_s}));
        QCOMPARE(server.requests().constLast().header("Authorization"), "Bearer sk-file-0123456789"_ba);
    }

    void aKeyMovedBackToTheKeychainLeavesTheKeyFile()
    {
        Fixture f;
        const QString keyFilePath = f.dir.filePath(u"config/keys.json"_s);
        FileSecretStore keyFile(keyFilePath);
        f.keychain.setKeyFile(&keyFile);
        ProviderProfile profile = f.seedProfile(u"work"_s, u"gpt-a"_s);
        profile.keyStorage = ProviderProfile::KeyStorage::File;
        f.profiles.save(profile);
        const auto writeToFile = [&keyFile](const QString &key) {
            std::optional<QString> error;
            QObject context;
            keyFile.write(u"work"_s, key, &context, [&error](const QString &e) { error = e; });
            return QTest::qWaitFor([&] { return error.has_value(); }, 10000) && error->isEmpty();
        };
        const auto readFromFile = [&keyFile] {
            std::optional<SecretStore::Result> result;
            QObject context;
            keyFile.read(u"work"_s, &context, [&result](const SecretStore::Result &r) { result = r; });
            (void)QTest::qWaitFor([&] { return result.has_value(); }, 10000);
            return result.value_or(SecretStore::Result{std::nullopt, u"no answer"_s});
        };
        QVERIFY(writeToFile(u"sk-moving-0123456789"_s));

        // The keychain is there again: the user unticks the file, and says nothing else.
        auto dialog = f.open();
        auto *inFile = child<QCheckBox>(dialog.get(), u"keyFileCheck"_s);
        QVERIFY(inFile);
        QTRY_VERIFY(inFile->isVisible());
        QVERIFY(inFile->isChecked());
        inFile->click();
        QVERIFY(!inFile->isChecked());
        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY(!dialog->isVisible());

        QCOMPARE(f.profiles.profile(u"work"_s)->keyStorage, ProviderProfile::KeyStorage::Keychain);
        QCOMPARE(f.readKey(u"work"_s).secret, std::optional<QString>(u"sk-moving-0123456789"_s));
        const SecretStore::Result left = readFromFile();
        QCOMPARE(left.error, QString());
        QCOMPARE(left.secret, std::nullopt); // gone from the file
        QFile file(keyFilePath);
        QVERIFY(!file.open(QIODevice::ReadOnly) || !file.readAll().contains("sk-moving"));
    }

    void aKeyTheKeychainRefusesStaysInTheKeyFile()
    {
        Fixture f;
        const QString keyFilePath = f.dir.filePath(u"config/keys.json"_s);
        NoKeychainStore store(keyFilePath); // the keychain is gone again: the write fails
        ProviderProfile profile = f.seedProfile(u"work"_s, u"gpt-a"_s);
        profile.keyStorage = ProviderProfile::KeyStorage::File;
        f.profiles.save(profile);
        std::optional<QString> written;
        QObject context;
        store.m_keyFile.write(u"work"_s, u"sk-kept-0123456789"_s, &context,
                              [&written](const QString &e) { written = e; });
        QTRY_VERIFY(written.has_value());

        auto dialog = f.open(&store);
        auto *inFile = child<QCheckBox>(dialog.get(), u"keyFileCheck"_s);
        QTRY_VERIFY(inFile->isVisible());
        inFile->click();
        QVERIFY(!inFile->isChecked());
        QTest::mouseClick(dialogButton(dialog.get(), QDialogButtonBox::Ok), Qt::LeftButton);
        QTRY_VERIFY(!dialog->isSaving());

        QVERIFY(dialog->isVisible());
        const QString status = child<QLabel>(dialog.get(), u"statusLabel"_s)->text();
        QVERIFY2(status.contains(u"stays in the key file"_s), qPrintable(status));
        QCOMPARE(f.profiles.profile(u"work"_s)->keyStorage, ProviderProfile::KeyStorage::File);
        std::optional<SecretStore::Result> read;
        store.m_keyFile.read(u"work"_s, &context, [&read](const SecretStore::Result &r) { read = r; });
        QTRY_VERIFY(read.has_value());
        QCOMPARE(read->secret, std::optional<QString>(u"sk-kept-0123456789"_s));
    }

    void everyControlHasAnAccessibleNameAndEveryPageDistinctMnemonics()
    {
        Fixture f;
        f.seedProfile(u"work"_s, u"gpt-a"_s);
        auto dialog = f.open();
        const QList<QWidget *> widgets = dialog->findChildren<QWidget *>();
        for (QWidget *widget : widgets) {
            const bool control
                = qobject_cast<QLineEdit *>(widget) || qobject_cast<QComboBox *>(widget)
                  || qobject_cast<QAbstractSpinBox *>(widget) || qobject_cast<QPlainTextEdit *>(widget)
                  || qobject_cast<QListWidget *>(widget) || qobject_cast<QAbstractButton *>(widget);
            // Parts of a compound control (a spin box's editor, a line edit's clear button, a table's
            // corner button) are named by it.
            QWidget *parent = widget->parentWidget();
            const bool part = qobject_cast<QAbstractSpinBox *>(parent) || qobject_cast<QComboBox *>(parent)
                              || qobject_cast<QLineEdit *>(parent)
                              || qobject_cast<QAbstractItemView *>(parent);
            if (!control || part)
                continue;
            const auto *button = qobject_cast<QAbstractButton *>(widget);
            const bool named = !widget->accessibleName().isEmpty() || (button && !button->text().isEmpty());
            QVERIFY2(named, qPrintable(widget->objectName() + u' '
                                       + QString::fromLatin1(widget->metaObject()->className())));
        }

        const auto *tabs = child<QTabWidget>(dialog.get(), u"pages"_s);
        QStringList dialogTexts;
        for (QAbstractButton *button : child<QDialogButtonBox>(dialog.get(), u"buttonBox"_s)->buttons())
            dialogTexts.append(button->text());
        for (int page = 0; page < tabs->count(); ++page) {
            QStringList texts = dialogTexts;
            for (const QLabel *label : tabs->widget(page)->findChildren<QLabel *>()) {
                texts.append(label->text());
                // Without a buddy the "&" is shown as is and the shortcut leads nowhere.
                if (QString(label->text()).remove(u"&&"_s).contains(u'&'))
                    QVERIFY2(label->buddy(), qPrintable(label->text()));
            }
            for (const QAbstractButton *button : tabs->widget(page)->findChildren<QAbstractButton *>())
                texts.append(button->text());
            QString seen;
            for (QString text : std::as_const(texts)) {
                text.remove(u"&&"_s);
                const qsizetype at = text.indexOf(u'&');
                if (at < 0 || at + 1 >= text.size())
                    continue;
                const QChar mnemonic = text.at(at + 1).toLower();
                QVERIFY2(!seen.contains(mnemonic), qPrintable(tabs->tabText(page) + u": "_s + text));
                seen.append(mnemonic);
            }
            QVERIFY(!seen.isEmpty());
        }
    }
};

QTEST_MAIN(SettingsDialogTest)
#include "tst_settingsdialog.moc"
