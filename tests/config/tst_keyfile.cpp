// The key file (FileSecretStore) on a real file system, and the keychain on a desktop without one:
// no session bus, so no Secret Service can answer.

#include "agent/config/apikeyresolver.h"
#include "agent/config/filesecretstore.h"
#include "agent/config/providerprofile.h"
#include "agent/session/sessionsetup.h"

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

constexpr QFileDevice::Permissions OwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions Everyone
    = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadGroup
      | QFileDevice::WriteGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther | QFileDevice::WriteOther
      | QFileDevice::ExeOther;

SecretStore::Result readSecret(SecretStore &store, const QString &account)
{
    std::optional<SecretStore::Result> result;
    QObject context;
    store.read(account, &context, [&result](const SecretStore::Result &r) { result = r; });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, 10000))
        return {std::nullopt, u"the store did not answer"_s};
    return *result;
}

SecretStore::WriteError writeSecret(SecretStore &store, const QString &account, const QString &secret)
{
    std::optional<SecretStore::WriteError> error;
    QObject context;
    store.write(account, secret, &context, [&error](const SecretStore::WriteError &e) { error = e; });
    if (!QTest::qWaitFor([&] { return error.has_value(); }, 10000))
        return {u"the store did not answer"_s};
    return *error;
}

QString removeSecret(SecretStore &store, const QString &account)
{
    std::optional<QString> error;
    QObject context;
    store.remove(account, &context, [&error](const QString &e) { error = e; });
    if (!QTest::qWaitFor([&] { return error.has_value(); }, 10000))
        return u"the store did not answer"_s;
    return *error;
}

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &data, QFileDevice::Permissions permissions)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(data);
    file.close();
    QVERIFY(file.setPermissions(permissions));
}

ApiKeyResolver::Result resolve(const ApiKeyResolver &resolver, const ProviderProfile &profile)
{
    std::optional<ApiKeyResolver::Result> result;
    QObject context;
    resolver.resolve(profile, &context, [&result](const ApiKeyResolver::Result &r) { result = r; });
    if (!QTest::qWaitFor([&] { return result.has_value(); }, 10000))
        return {ApiKeyResolver::Result::Status::KeychainUnreadable, {}, u"no answer"_s};
    return *result;
}

} // namespace

class KeyFileTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // A desktop without a keychain: no session bus to find a Secret Service on.
        for (const char *name : {"DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY"})
            qunsetenv(name);
        QVERIFY(m_runtime.isValid());
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_runtime.path()));
    }

    void aKeyRoundTripsThroughAFileOnlyTheOwnerCanRead()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"config/Loopscope/keys.json"_s); // the folder is made too
        FileSecretStore store(path);
        QCOMPARE(readSecret(store, u"work"_s).secret, std::nullopt);
        QCOMPARE(readSecret(store, u"work"_s).error, QString());

        QCOMPARE(QString(writeSecret(store, u"work"_s, u"sk-work-0123456789"_s)), QString());
        QCOMPARE(QString(writeSecret(store, u"home"_s, u"sk-home-0123456789"_s)), QString());
        QCOMPARE(QFile::permissions(path) & Everyone, OwnerOnly);
        QCOMPARE(readSecret(store, u"work"_s).secret, u"sk-work-0123456789"_s);
        QCOMPARE(readSecret(store, u"home"_s).secret, u"sk-home-0123456789"_s);

        // A second store on the same file, as after a restart of the app.
        FileSecretStore reopened(path);
        QCOMPARE(QString(writeSecret(reopened, u"work"_s, u"sk-replaced-0123456789"_s)), QString());
        QCOMPARE(readSecret(store, u"work"_s).secret, u"sk-replaced-0123456789"_s);
        QCOMPARE(QString(removeSecret(reopened, u"work"_s)), QString());
        QCOMPARE(readSecret(store, u"work"_s).secret, std::nullopt);
        QCOMPARE(readSecret(store, u"home"_s).secret, u"sk-home-0123456789"_s);
        QCOMPARE(QFile::permissions(path) & Everyone, OwnerOnly);
        QVERIFY(!contents(path).contains("sk-replaced"));
    }

    void aFileOthersCouldReadIsRefusedAndLeftAsItIs_data()
    {
        QTest::addColumn<QFileDevice::Permissions>("permissions");
        QTest::newRow("readable by the group") << (OwnerOnly | QFileDevice::ReadGroup);
        QTest::newRow("readable by everyone")
            << (OwnerOnly | QFileDevice::ReadGroup | QFileDevice::ReadOther);
        QTest::newRow("writable by the group") << (OwnerOnly | QFileDevice::WriteGroup);
    }
    void aFileOthersCouldReadIsRefusedAndLeftAsItIs()
    {
        QFETCH(QFileDevice::Permissions, permissions);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"keys.json"_s);
        const QByteArray stored = "{\"version\": 1, \"keys\": {\"work\": \"sk-work-0123456789\"}}";
        writeFile(path, stored, permissions);
        FileSecretStore store(path);

        const SecretStore::Result read = readSecret(store, u"work"_s);
        QCOMPARE(read.secret, std::nullopt);
        QCOMPARE(read.problem, SecretStore::Problem::Refused);
        QVERIFY2(read.error.contains(u"other users"_s) && read.error.contains(u"chmod 600"_s),
                 qPrintable(read.error));
        QVERIFY(!read.error.contains(u"sk-work"_s));
        const SecretStore::WriteError written = writeSecret(store, u"home"_s, u"sk-home-0123456789"_s);
        QCOMPARE(written.problem, SecretStore::Problem::Refused);
        QCOMPARE(contents(path), stored);
        QCOMPARE(QFile::permissions(path) & Everyone, permissions);
    }

    void aDamagedFileGivesAClearErrorAndLosesNothing_data()
    {
        QTest::addColumn<QByteArray>("stored");
        QTest::newRow("cut short") << QByteArray("{\"version\": 1, \"keys\": {\"work\": \"sk-wo");
        QTest::newRow("not an object") << QByteArray("[\"sk-work-0123456789\"]");
        QTest::newRow("a newer format") << QByteArray("{\"version\": 2, \"keys\": {}}");
    }
    void aDamagedFileGivesAClearErrorAndLosesNothing()
    {
        QFETCH(QByteArray, stored);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"keys.json"_s);
        writeFile(path, stored, OwnerOnly);
        FileSecretStore store(path);

        const SecretStore::Result read = readSecret(store, u"work"_s);
        QCOMPARE(read.secret, std::nullopt);
        QVERIFY2(read.error.contains(u"damaged"_s) && read.error.contains(path), qPrintable(read.error));
        QVERIFY(!writeSecret(store, u"home"_s, u"sk-home-0123456789"_s).isEmpty());
        QVERIFY(!removeSecret(store, u"work"_s).isEmpty());
        QCOMPARE(contents(path), stored);
    }

    void theAnswerComesLaterNeverInsideTheCall()
    {
        QTemporaryDir dir;
        FileSecretStore store(dir.filePath(u"keys.json"_s));
        bool answered = false;
        store.read(u"work"_s, this, [&answered](const SecretStore::Result &) { answered = true; });
        QVERIFY(!answered);
        QTRY_VERIFY(answered);
    }

    void withoutASessionBusTheKeychainSaysThereIsNone()
    {
        KeychainSecretStore keychain(u"Loopscope tests"_s);
        const SecretStore::Result read = readSecret(keychain, u"work"_s);
        QCOMPARE(read.problem, SecretStore::Problem::NoKeychain);
        QVERIFY(!read.error.isEmpty());
        QCOMPARE(writeSecret(keychain, u"work"_s, u"sk-work-0123456789"_s).problem,
                 SecretStore::Problem::NoKeychain);

        ProviderProfile profile;
        profile.id = u"work"_s;
        profile.name = u"Work"_s;
        profile.model = u"gpt-x"_s;
        const ApiKeyResolver::Result key = resolve(ApiKeyResolver(&keychain), profile);
        QCOMPARE(key.status, ApiKeyResolver::Result::Status::NoKeychain);
        const QString problem = SessionSetup::providerFor(profile, key, 1000).keyProblem;
        QVERIFY2(problem.contains(u"No keychain is available"_s)
                     && problem.contains(u"environment variable"_s)
                     && problem.contains(u"file only you can read"_s),
                 qPrintable(problem));
    }

    void aProfileThatChoseTheKeyFileTakesItsKeyFromThereAndRemembersIt()
    {
        QTemporaryDir dir;
        FileSecretStore keyFile(dir.filePath(u"keys.json"_s));
        KeychainSecretStore keychain(u"Loopscope tests"_s);
        keychain.setKeyFile(&keyFile);
        QCOMPARE(QString(writeSecret(keyFile, u"work"_s, u"sk-work-0123456789"_s)), QString());

        QSettings settings(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        ProviderProfile profile;
        profile.id = u"work"_s;
        profile.name = u"Work"_s;
        profile.model = u"gpt-x"_s;
        profile.keyStorage = ProviderProfile::KeyStorage::File;
        ProviderProfileStore(&settings).save(profile);
        settings.sync();
        QSettings reread(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
        const std::optional<ProviderProfile> reopened = ProviderProfileStore(&reread).profile(u"work"_s);
        QVERIFY(reopened);
        QCOMPARE(reopened->keyStorage, ProviderProfile::KeyStorage::File);

        const ApiKeyResolver::Result key = resolve(ApiKeyResolver(&keychain), *reopened);
        QCOMPARE(key.status, ApiKeyResolver::Result::Status::Found);
        QCOMPARE(key.key, u"sk-work-0123456789"_s);
        // The keychain's profiles stay in the keychain, which here says there is none.
        ProviderProfile inKeychain = *reopened;
        inKeychain.keyStorage = ProviderProfile::KeyStorage::Keychain;
        QCOMPARE(resolve(ApiKeyResolver(&keychain), inKeychain).status,
                 ApiKeyResolver::Result::Status::NoKeychain);
    }

private:
    QTemporaryDir m_runtime;
};

QTEST_MAIN(KeyFileTest)
#include "tst_keyfile.moc"
