#pragma once

#include "agent/config/filesecretstore.h"
#include "agent/config/secretstore.h"

#include <QTimer>

namespace Loopscope {

/*!
    A desktop without a keychain, as QtKeychain reports it without a Secret
    Service: every read, write and removal fails with Problem::NoKeychain (later,
    as a keychain answers). It offers a real key file in its place.
*/
class NoKeychainStore final : public SecretStore
{
public:
    explicit NoKeychainStore(const QString &keyFilePath)
        : m_keyFile(keyFilePath)
    {}

    void read(const QString &, QObject *context, ReadCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done({std::nullopt, reason, Problem::NoKeychain}); });
    }
    void write(const QString &, const QString &, QObject *context, WriteCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done({Problem::NoKeychain, reason}); });
    }
    void remove(const QString &, QObject *context, WriteCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done({Problem::NoKeychain, reason}); });
    }
    SecretStore *keyFile() const override { return const_cast<FileSecretStore *>(&m_keyFile); }

    FileSecretStore m_keyFile;
    static inline const QString reason = QStringLiteral("Cannot autolaunch D-Bus without X11 $DISPLAY");
};

} // namespace Loopscope
