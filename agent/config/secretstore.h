#pragma once

#include <QObject>
#include <QString>

#include <functional>
#include <optional>

namespace Loopscope {

/*!
    Where API keys live: the OS keychain in the app, something else in tests.
    Asynchronous, because keychains are (and may ask the user to unlock);
    results arrive on the caller's thread while `context` is alive.
*/
class SecretStore
{
public:
    // What kind of failure an error is, for callers that offer a way around it.
    enum class Problem {
        None,
        NoKeychain, // there is no keychain on this desktop at all (no Secret Service, no backend)
        Refused,    // the store is there but said no (locked, denied, damaged, …); the words say why
    };

    struct Result
    {
        std::optional<QString> secret; // nullopt: not stored (or failed)
        QString error;                 // empty on success, including "not stored"
        Problem problem = Problem::None;
    };

    // What a write or a removal came to. It converts to and from its words, so a caller that only
    // shows them needs nothing more; problem says whether there is a keychain at all.
    struct WriteError
    {
        WriteError() = default;
        WriteError(QString text) // NOLINT: a failure in words, Refused unless empty
            : problem(text.isEmpty() ? Problem::None : Problem::Refused)
            , text(std::move(text))
        {}
        WriteError(Problem problem, QString text)
            : problem(problem)
            , text(std::move(text))
        {}
        bool isEmpty() const { return text.isEmpty(); }
        operator QString() const { return text; } // NOLINT

        Problem problem = Problem::None;
        QString text;
    };

    using ReadCallback = std::function<void(const Result &)>;
    using WriteCallback = std::function<void(const WriteError &error)>;

    virtual ~SecretStore() = default;
    virtual void read(const QString &account, QObject *context, ReadCallback done) = 0;
    virtual void write(const QString &account, const QString &secret, QObject *context, WriteCallback done)
        = 0;
    virtual void remove(const QString &account, QObject *context, WriteCallback done) = 0;

    // Where keys go that the user chose to keep in a file only they can read (a FileSecretStore),
    // offered when there is no keychain; nullptr when this store offers no such file.
    virtual SecretStore *keyFile() const { return nullptr; }
};

/*!
    The system keychain through QtKeychain (Secret Service, macOS Keychain,
    Windows Credential Manager). It never falls back to a file on its own: a
    desktop without a keychain is reported as Problem::NoKeychain, and the key
    file it names (setKeyFile()) is used only for the profiles the user put there.
*/
class KeychainSecretStore final : public SecretStore
{
public:
    explicit KeychainSecretStore(QString service = QStringLiteral("Loopscope"));

    void read(const QString &account, QObject *context, ReadCallback done) override;
    void write(const QString &account, const QString &secret, QObject *context, WriteCallback done) override;
    void remove(const QString &account, QObject *context, WriteCallback done) override;

    SecretStore *keyFile() const override { return m_keyFile; }
    // Not owned; may be null.
    void setKeyFile(SecretStore *keyFile) { m_keyFile = keyFile; }

private:
    QString m_service;
    SecretStore *m_keyFile = nullptr;
};

} // namespace Loopscope
