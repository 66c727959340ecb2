#include "agent/config/providerprofile.h"
#include "agent/config/secretstore.h"

#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// Declared before the tests use it: a release build instantiates QMetaTypeId
// at the first use and refuses a later specialisation.
Q_DECLARE_METATYPE(Loopscope::ProviderProfile)

using namespace Loopscope;
using namespace Qt::StringLiterals;

// Runs inside dbus-run-session with an unlocked gnome-keyring (see CMakeLists.txt):
// the keychain calls below reach a real Secret Service.
class ProviderConfigTest : public QObject
{
    Q_OBJECT

private:
    static SecretStore::Result readSecret(SecretStore &store, const QString &account)
    {
        std::optional<SecretStore::Result> result;
        QObject context;
        store.read(account, &context, [&result](const SecretStore::Result &r) { result = r; });
        if (!QTest::qWaitFor([&] { return result.has_value(); }, 10000))
            return {std::nullopt, u"the keychain did not answer"_s};
        return *result;
    }

    static QString writeSecret(SecretStore &store, const QString &account, const QString &secret)
    {
        std::optional<QString> error;
        QObject context;
        store.write(account, secret, &context, [&error](const QString &e) { error = e; });
        if (!QTest::qWaitFor([&] { return error.has_value(); }, 10000))
            return u"the keychain did not answer"_s;
        return *error;
    }

private slots:
    void aKeyWrittenToTheKeychainReadsBackAndCanBeReplacedAndRemoved()
    {
        KeychainSecretStore store(u"Loopscope tests"_s);
        const QString account = u"profile-%1"_s.arg(QCoreApplication::applicationPid());

        QCOMPARE(writeSecret(store, account, u"sk-first-0123456789"_s), QString());
        SecretStore::Result read = readSecret(store, account);
        QCOMPARE(read.error, QString());
        QCOMPARE(read.secret, std::optional<QString>(u"sk-first-0123456789"_s));

        QCOMPARE(writeSecret(store, account, u"sk-second-ÄÖÜ-0123456789"_s), QString());
        QCOMPARE(readSecret(store, account).secret, std::optional<QString>(u"sk-second-ÄÖÜ-0123456789"_s));

        std::optional<QString> removeError;
        QObject context;
        store.remove(account, &context, [&removeError](const QString &e) { removeError = e; });
        QTRY_VERIFY(removeError.has_value());
        QCOMPARE(*removeError, QString());
        read = readSecret(store, account);
        QCOMPARE(read.secret, std::nullopt);
        QCOMPARE(read.error, QString());
    }

    void aMissingKeyIsNotAnError()
    {
        KeychainSecretStore store(u"Loopscope tests"_s);
        const SecretStore::Result read = readSecret(store, u"never-written"_s);
        QCOMPARE(read.secret, std::nullopt);
        QCOMPARE(read.error, QString());
    }

    void aCallbackWhoseContextIsGoneIsNotCalled()
    {
        KeychainSecretStore store(u"Loopscope tests"_s);
        bool called = false;
        auto *context = new QObject;
        store.read(u"whatever"_s, context, [&called](const SecretStore::Result &) { called = true; });
        delete context;
        QTest::qWait(300);
        QVERIFY(!called);
    }

    void profilesRoundTripThroughSettings_data()
    {
        QTest::addColumn<ProviderProfile>("profile");
        ProviderProfile openai{u"work"_s,
                               u"Work OpenAI"_s,
                               ProviderKind::OpenAi,
                               QUrl(u"https://api.openai.com/v1"_s),
                               u"gpt-4o-mini"_s,
                               u"OPENAI_API_KEY"_s,
                               {}};
        openai.defaults.temperature = 0.2;
        openai.defaults.topP = 0.9;
        openai.defaults.maxOutputTokens = 1024;
        openai.defaults.model = openai.model;
        ProviderProfile ollama{u"local"_s, u"Ollama"_s, ProviderKind::Ollama, {}, u"qwen2.5"_s, {}, {}};
        ollama.defaults.model = ollama.model;
        ollama.defaults.stream = false;
        ProviderProfile priced = openai;
        priced.id = u"priced"_s;
        priced.inputPricePerMTok = 0.0; // a real price: free
        priced.outputPricePerMTok = 1.25;
        priced.contextWindow = 32768;
        QTest::newRow("openai with parameters") << openai;
        QTest::newRow("ollama with defaults") << ollama;
        QTest::newRow("prices and a context window of its own") << priced;
        ProviderProfile nucleus = ollama;
        nucleus.id = u"nucleus"_s;
        nucleus.defaults.topP = 0.0; // a value, not "provider default"
        QTest::newRow("a top p of zero, without a temperature") << nucleus;
    }

    void profilesRoundTripThroughSettings()
    {
        QFETCH(ProviderProfile, profile);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"settings.ini"_s);
        {
            QSettings settings(path, QSettings::IniFormat);
            ProviderProfileStore store(&settings);
            store.save(profile);
            store.setDefaultProfileId(profile.id);
        }
        QSettings settings(path, QSettings::IniFormat);
        ProviderProfileStore store(&settings);
        QCOMPARE(store.profiles().size(), 1);
        QCOMPARE(store.profile(profile.id), std::optional<ProviderProfile>(profile));
        QCOMPARE(store.defaultProfileId(), profile.id);
        QCOMPARE(store.profile(profile.id)->needsKey(), profile.kind != ProviderKind::Ollama);
        QCOMPARE(store.profile(u"local"_s).has_value() ? store.profile(u"local"_s)->effectiveBaseUrl()
                                                       : QUrl(u"http://localhost:11434"_s),
                 QUrl(u"http://localhost:11434"_s));
        store.remove(profile.id);
        QVERIFY(store.profiles().isEmpty());
        QCOMPARE(store.defaultProfileId(), QString());
    }

    void aProfileWithoutAnIdIsRefusedAndTheOthersStay()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        ProviderProfileStore store(&settings);
        const ProviderProfile kept{u"work"_s, u"Work"_s, ProviderKind::OpenAi, {}, u"gpt-4o"_s, {}, {}};
        store.save(kept);
        ProviderProfile nameless = kept;
        nameless.id.clear();

        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"no id"_s));
        store.save(nameless);

        QCOMPARE(store.profiles().size(), 1);
        QCOMPARE(store.profiles().constFirst().id, kept.id);
    }

    void aRecordedSessionContinuesOnAProfileThatReachesItsProvider_data()
    {
        QTest::addColumn<QString>("recordedKind");
        QTest::addColumn<QString>("recordedUrl");
        QTest::addColumn<QString>("currentId");
        QTest::addColumn<QString>("expectedId"); // empty: none reaches it

        // The profiles: "cloud" is OpenAI at its default URL, "lan" OpenAI-compatible on a
        // LAN box, "local" Ollama at its default URL.
        QTest::newRow("the current profile reaches it")
            << u"openai"_s << u"https://api.openai.com/v1"_s << u"cloud"_s << u"cloud"_s;
        QTest::newRow("a trailing slash is the same endpoint")
            << u"openai"_s << u"http://10.0.0.5:8080/v1/"_s << u"lan"_s << u"lan"_s;
        QTest::newRow("another profile reaches it")
            << u"openai"_s << u"http://10.0.0.5:8080/v1"_s << u"local"_s << u"lan"_s;
        QTest::newRow("no recorded URL: the protocol decides, current first")
            << u"openai"_s << QString() << u"lan"_s << u"lan"_s;
        QTest::newRow("same URL, other protocol")
            << u"anthropic"_s << u"https://api.openai.com/v1"_s << u"cloud"_s << QString();
        QTest::newRow("nobody reaches it")
            << u"openai"_s << u"http://10.9.9.9/v1"_s << u"cloud"_s << QString();
        QTest::newRow("no current profile yet")
            << u"ollama"_s << u"http://localhost:11434"_s << QString() << u"local"_s;
    }

    void aRecordedSessionContinuesOnAProfileThatReachesItsProvider()
    {
        QFETCH(QString, recordedKind);
        QFETCH(QString, recordedUrl);
        QFETCH(QString, currentId);
        QFETCH(QString, expectedId);

        ProviderProfile cloud{u"cloud"_s, u"OpenAI"_s, ProviderKind::OpenAi, {}, u"gpt-4o-mini"_s, {}, {}};
        ProviderProfile lan{
            u"lan"_s, u"LAN box"_s, ProviderKind::OpenAi, QUrl(u"http://10.0.0.5:8080/v1"_s), u"qwen3"_s, {},
            {}};
        ProviderProfile local{u"local"_s, u"Ollama"_s, ProviderKind::Ollama, {}, u"llama3.2"_s, {}, {}};
        const QList<ProviderProfile> profiles{cloud, lan, local};
        std::optional<ProviderProfile> current;
        for (const ProviderProfile &profile : profiles) {
            if (profile.id == currentId)
                current = profile;
        }

        const RecordedProvider recorded{recordedKind, QUrl(recordedUrl), u"some-model"_s};
        const std::optional<ProviderProfile> chosen = profileForRecordedProvider(current, profiles, recorded);
        QCOMPARE(chosen ? chosen->id : QString(), expectedId);
    }

    void providerKindsHaveStableNames()
    {
        for (auto kind :
             {ProviderKind::OpenAi, ProviderKind::Anthropic, ProviderKind::Gemini, ProviderKind::Ollama})
            QCOMPARE(providerKindFromName(providerKindName(kind)), std::optional<ProviderKind>(kind));
        QCOMPARE(providerKindFromName(u" OpenAI "_s), std::optional<ProviderKind>(ProviderKind::OpenAi));
        QCOMPARE(providerKindFromName(u"mistral"_s), std::nullopt);
    }
};

QTEST_GUILESS_MAIN(ProviderConfigTest)
#include "tst_providerconfig.moc"
