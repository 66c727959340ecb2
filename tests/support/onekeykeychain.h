#pragma once

#include "agent/config/secretstore.h"

#include <QTimer>

namespace Loopscope::Testing {

// A keychain holding one profile's key, answering later as a real one does.
class OneKeyKeychain final : public SecretStore
{
public:
    OneKeyKeychain(QString account, QString key)
        : m_account(std::move(account))
        , m_key(std::move(key))
    {}
    void read(const QString &account, QObject *context, ReadCallback done) override
    {
        const std::optional<QString> secret = account == m_account ? std::optional(m_key) : std::nullopt;
        QTimer::singleShot(0, context, [done, secret] { done({secret, {}, Problem::None}); });
    }
    void write(const QString &, const QString &, QObject *context, WriteCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done(QStringLiteral("read-only in this test")); });
    }
    void remove(const QString &, QObject *context, WriteCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done(QStringLiteral("read-only in this test")); });
    }

private:
    QString m_account;
    QString m_key;
};

} // namespace Loopscope::Testing
