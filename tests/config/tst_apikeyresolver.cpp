// ApiKeyResolver with a keychain that answers later, as a real one does.

#include "agent/config/apikeyresolver.h"
#include "agent/config/secretstore.h"

#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace Loopscope;
using namespace Qt::StringLiterals;

using Status = ApiKeyResolver::Result::Status;

namespace {

const QByteArray setVariable = "LOOPSCOPE_RESOLVER_TEST_KEY";
const QByteArray unsetVariable = "LOOPSCOPE_RESOLVER_TEST_UNSET";
const QString environmentKey = u"sk-from-environment"_s;
const QString keychainKey = u"sk-from-keychain"_s;

// A keychain that holds one key (or fails) and answers from the event loop.
class FakeSecretStore final : public SecretStore
{
public:
    std::optional<QString> secret;
    QString error;
    QStringList accountsRead;

    void read(const QString &account, QObject *context, ReadCallback done) override
    {
        accountsRead.append(account);
        QTimer::singleShot(0, context, [this, done = std::move(done)] { done({secret, error}); });
    }
    void write(const QString &, const QString &, QObject *, WriteCallback) override {}
    void remove(const QString &, QObject *, WriteCallback) override {}
};

} // namespace

class ApiKeyResolverTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qputenv(setVariable.constData(), "  " + environmentKey.toUtf8() + "\n");
        qunsetenv(unsetVariable.constData());
    }

    void cleanupTestCase() { qunsetenv(setVariable.constData()); }

    void theKeyComesFrom_data()
    {
        QTest::addColumn<ProviderKind>("kind");
        QTest::addColumn<QString>("variable");
        QTest::addColumn<std::optional<QString>>("stored");
        QTest::addColumn<QString>("keychainError");
        QTest::addColumn<Status>("status");
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("keychainAsked");

        const std::optional<QString> nothing;
        const QString set = QString::fromLatin1(setVariable);
        const QString unset = QString::fromLatin1(unsetVariable);
        QTest::newRow("the variable the profile names, trimmed, before the keychain")
            << ProviderKind::OpenAi << set << std::optional(keychainKey) << QString() << Status::Found
            << environmentKey << false;
        QTest::newRow("an unset variable, without falling back to the keychain")
            << ProviderKind::Anthropic << unset << std::optional(keychainKey) << QString()
            << Status::EnvironmentUnset << QString() << false;
        QTest::newRow("the keychain when no variable is named")
            << ProviderKind::Gemini << QString() << std::optional(keychainKey) << QString() << Status::Found
            << keychainKey << true;
        QTest::newRow("an empty keychain: not stored") << ProviderKind::OpenAi << QString() << nothing
                                                       << QString() << Status::NotStored << QString() << true;
        QTest::newRow("an empty key in the keychain: not stored")
            << ProviderKind::OpenAi << QString() << std::optional(QString()) << QString() << Status::NotStored
            << QString() << true;
        QTest::newRow("a keychain that fails says why")
            << ProviderKind::OpenAi << QString() << nothing << u"locked"_s << Status::KeychainUnreadable
            << QString() << true;
        QTest::newRow("ollama needs no key and asks no keychain")
            << ProviderKind::Ollama << QString() << std::optional(keychainKey) << QString()
            << Status::NotNeeded << QString() << false;
        QTest::newRow("ollama with an unset variable still needs no key")
            << ProviderKind::Ollama << unset << nothing << QString() << Status::NotNeeded << QString()
            << false;
        QTest::newRow("ollama takes a key the variable holds")
            << ProviderKind::Ollama << set << nothing << QString() << Status::Found << environmentKey
            << false;
    }

    void theKeyComesFrom()
    {
        QFETCH(ProviderKind, kind);
        QFETCH(QString, variable);
        QFETCH(std::optional<QString>, stored);
        QFETCH(QString, keychainError);
        QFETCH(Status, status);
        QFETCH(QString, key);
        QFETCH(bool, keychainAsked);

        FakeSecretStore keychain;
        keychain.secret = stored;
        keychain.error = keychainError;
        const ProviderProfile profile = profileOf(kind, variable);

        std::optional<ApiKeyResolver::Result> result;
        ApiKeyResolver(&keychain).resolve(profile, this,
                                          [&result](const ApiKeyResolver::Result &r) { result = r; });
        QTRY_VERIFY(result.has_value());
        QCOMPARE(result->status, status);
        QCOMPARE(result->key, key);
        QCOMPARE(result->keychainError, keychainError);
        QCOMPARE(result->isUsable(), status == Status::Found || status == Status::NotNeeded);
        QCOMPARE(keychain.accountsRead, keychainAsked ? QStringList{profile.id} : QStringList());
    }

    void theKeychainAnswersLaterNeverInsideTheCall()
    {
        FakeSecretStore keychain;
        keychain.secret = keychainKey;
        bool answered = false;
        ApiKeyResolver(&keychain).resolve(profileOf(ProviderKind::OpenAi, {}), this,
                                          [&answered](const ApiKeyResolver::Result &) { answered = true; });
        QVERIFY(!answered);
        QTRY_VERIFY(answered);
    }

    void noAnswerArrivesOnceTheContextIsGone()
    {
        FakeSecretStore keychain;
        keychain.secret = keychainKey;
        bool answered = false;
        auto context = std::make_unique<QObject>();
        ApiKeyResolver(&keychain).resolve(profileOf(ProviderKind::OpenAi, {}), context.get(),
                                          [&answered](const ApiKeyResolver::Result &) { answered = true; });
        context.reset();
        QTest::qWait(20);
        QVERIFY(!answered);
    }

    void withoutAKeychainOnlyTheEnvironmentIsAsked_data()
    {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<Status>("status");
        QTest::newRow("a set variable") << QString::fromLatin1(setVariable) << Status::Found;
        QTest::newRow("an unset variable") << QString::fromLatin1(unsetVariable) << Status::EnvironmentUnset;
        QTest::newRow("no variable: not stored anywhere") << QString() << Status::NotStored;
    }

    void withoutAKeychainOnlyTheEnvironmentIsAsked()
    {
        QFETCH(QString, variable);
        QFETCH(Status, status);
        const ProviderProfile profile = profileOf(ProviderKind::OpenAi, variable);

        QCOMPARE(ApiKeyResolver::fromEnvironment(profile).status, status);
        std::optional<ApiKeyResolver::Result> result;
        ApiKeyResolver().resolve(profile, this, [&result](const ApiKeyResolver::Result &r) { result = r; });
        QVERIFY(result.has_value()); // nothing to wait for
        QCOMPARE(result->status, status);
    }

    void theKeyVariablesAreTheProfilesThenEachProvidersOwn_data()
    {
        QTest::addColumn<QString>("variable");
        QTest::addColumn<QStringList>("variables");
        const QStringList conventional{u"OPENAI_API_KEY"_s, u"ANTHROPIC_API_KEY"_s, u"GEMINI_API_KEY"_s};
        QTest::newRow("a variable of its own") << u"MY_KEY"_s << QStringList{u"MY_KEY"_s} + conventional;
        QTest::newRow("a conventional one, once")
            << u"ANTHROPIC_API_KEY"_s
            << QStringList{u"ANTHROPIC_API_KEY"_s, u"OPENAI_API_KEY"_s, u"GEMINI_API_KEY"_s};
        QTest::newRow("none (the keychain)") << QString() << conventional;
    }
    void theKeyVariablesAreTheProfilesThenEachProvidersOwn()
    {
        QFETCH(QString, variable);
        QFETCH(QStringList, variables);
        QCOMPARE(ApiKeyResolver::keyVariables(profileOf(ProviderKind::Ollama, variable)), variables);
    }

private:
    static ProviderProfile profileOf(ProviderKind kind, const QString &variable)
    {
        ProviderProfile profile;
        profile.id = u"resolver-test"_s;
        profile.name = u"Test"_s;
        profile.kind = kind;
        profile.model = u"test-model"_s;
        profile.apiKeyEnv = variable;
        return profile;
    }
};

QTEST_GUILESS_MAIN(ApiKeyResolverTest)
#include "tst_apikeyresolver.moc"
