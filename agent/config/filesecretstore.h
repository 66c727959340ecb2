#pragma once

#include "agent/config/secretstore.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>

#include <optional>

namespace Loopscope {

/*!
    API keys in a file only the user can read (0600), for a desktop without a
    keychain and only for the profiles the user put there, warned: what `gh`
    and `docker` do when there is no keychain. It refuses a file others could
    read, and never writes over a file it cannot read, so nothing is lost. The
    key never reaches a log. The file is small: it is read and written on the
    caller's thread, and the answer still comes later, as from a keychain.
*/
class FileSecretStore final : public SecretStore
{
    Q_DECLARE_TR_FUNCTIONS(FileSecretStore)

public:
    explicit FileSecretStore(QString path);

    // Where the app keeps it: "keys.json" in the per-user configuration folder.
    static QString defaultPath();
    QString path() const { return m_path; }

    void read(const QString &account, QObject *context, ReadCallback done) override;
    void write(const QString &account, const QString &secret, QObject *context, WriteCallback done) override;
    void remove(const QString &account, QObject *context, WriteCallback done) override;

private:
    // The keys in the file (none when it does not exist); nullopt with *error when it cannot be used.
    std::optional<QHash<QString, QString>> load(QString *error) const;
    // Empty on success, else why not.
    QString store(const QHash<QString, QString> &keys) const;

    QString m_path;
};

} // namespace Loopscope
