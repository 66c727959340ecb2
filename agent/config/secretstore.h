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
    struct Result
    {
        std::optional<QString> secret; // nullopt: not stored (or failed)
        QString error;                 // empty on success, including "not stored"
    };
    using ReadCallback = std::function<void(const Result &)>;
    using WriteCallback = std::function<void(const QString &error)>;

    virtual ~SecretStore() = default;
    virtual void read(const QString &account, QObject *context, ReadCallback done) = 0;
    virtual void write(const QString &account, const QString &secret, QObject *context, WriteCallback done)
        = 0;
    virtual void remove(const QString &account, QObject *context, WriteCallback done) = 0;
};

/*!
    The system keychain through QtKeychain (Secret Service, macOS Keychain,
    Windows Credential Manager). It never falls back to a plain-text file.
*/
class KeychainSecretStore final : public SecretStore
{
public:
    explicit KeychainSecretStore(QString service = QStringLiteral("Loopscope"));

    void read(const QString &account, QObject *context, ReadCallback done) override;
    void write(const QString &account, const QString &secret, QObject *context, WriteCallback done) override;
    void remove(const QString &account, QObject *context, WriteCallback done) override;

private:
    QString m_service;
};

} // namespace Loopscope
