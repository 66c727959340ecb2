#include "agent/config/filesecretstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

constexpr QFileDevice::Permissions OwnerOnly = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions Others = QFileDevice::ReadGroup | QFileDevice::WriteGroup
                                            | QFileDevice::ExeGroup | QFileDevice::ReadOther
                                            | QFileDevice::WriteOther | QFileDevice::ExeOther;
constexpr int FormatVersion = 1;

// Answers later, as a keychain does, and not at all once context is gone.
template<typename Callback, typename Value>
void answerLater(QObject *context, Callback done, Value value)
{
    QTimer::singleShot(0, context, [done = std::move(done), value = std::move(value)] { done(value); });
}

} // namespace

FileSecretStore::FileSecretStore(QString path)
    : m_path(std::move(path))
{}

QString FileSecretStore::defaultPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)).filePath(u"keys.json"_s);
}

std::optional<QHash<QString, QString>> FileSecretStore::load(QString *error) const
{
    QHash<QString, QString> keys;
    const QFileInfo info(m_path);
    if (!info.exists())
        return keys;
    if (info.permissions() & Others) {
        *error = tr("The key file %1 can be read or changed by other users, so Loopscope does not use "
                    "it: make it yours alone (chmod 600 %1) or remove it.")
                     .arg(QDir::toNativeSeparators(m_path));
        return std::nullopt;
    }
    QFile file(m_path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("The key file %1 could not be read: %2")
                     .arg(QDir::toNativeSeparators(m_path), file.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    const QJsonObject stored = document.object().value(u"keys"_s).toObject();
    if (parseError.error != QJsonParseError::NoError || !document.isObject()
        || document.object().value(u"version"_s).toInt() != FormatVersion
        || !document.object().value(u"keys"_s).isObject()) {
        *error = tr("The key file %1 is damaged, so its keys cannot be read; it is left as it is. Move "
                    "it aside and enter the keys again.")
                     .arg(QDir::toNativeSeparators(m_path));
        return std::nullopt;
    }
    for (auto it = stored.begin(); it != stored.end(); ++it) {
        if (it.value().isString())
            keys.insert(it.key(), it.value().toString());
    }
    return keys;
}

QString FileSecretStore::store(const QHash<QString, QString> &keys) const
{
    const QString folder = QFileInfo(m_path).absolutePath();
    if (!QDir().mkpath(folder))
        return tr("The folder %1 could not be created.").arg(QDir::toNativeSeparators(folder));
    QJsonObject stored;
    for (auto it = keys.cbegin(); it != keys.cend(); ++it)
        stored.insert(it.key(), it.value());
    QSaveFile file(m_path);
    // The key is never in a file anyone else can read, not even for a moment: the temporary file is
    // made the owner's alone before it holds anything.
    if (!file.open(QIODevice::WriteOnly) || !file.setPermissions(OwnerOnly)) {
        return tr("The key file %1 could not be written: %2")
            .arg(QDir::toNativeSeparators(m_path), file.errorString());
    }
    file.write(QJsonDocument(QJsonObject{{u"version"_s, FormatVersion}, {u"keys"_s, stored}}).toJson());
    if (!file.commit()) {
        return tr("The key file %1 could not be written: %2")
            .arg(QDir::toNativeSeparators(m_path), file.errorString());
    }
    return {};
}

void FileSecretStore::read(const QString &account, QObject *context, ReadCallback done)
{
    QString error;
    const std::optional<QHash<QString, QString>> keys = load(&error);
    Result result;
    if (!keys)
        result = {std::nullopt, error, Problem::Refused};
    else if (const auto it = keys->constFind(account); it != keys->cend())
        result.secret = it.value();
    answerLater(context, std::move(done), result);
}

void FileSecretStore::write(const QString &account, const QString &secret, QObject *context,
                            WriteCallback done)
{
    QString error;
    std::optional<QHash<QString, QString>> keys = load(&error);
    if (keys) {
        keys->insert(account, secret);
        error = store(*keys);
    }
    answerLater(context, std::move(done), WriteError(error));
}

void FileSecretStore::remove(const QString &account, QObject *context, WriteCallback done)
{
    QString error;
    std::optional<QHash<QString, QString>> keys = load(&error);
    if (keys && keys->remove(account) > 0)
        error = store(*keys);
    answerLater(context, std::move(done), WriteError(error));
}

} // namespace Loopscope
