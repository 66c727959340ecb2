#include "agent/config/secretstore.h"

#include <QDir>
#include <QFileInfo>

#include <qt6keychain/keychain.h>

namespace Loopscope {

namespace {

template<typename JobType>
JobType *prepare(const QString &service, const QString &account)
{
    auto *job = new JobType(service);
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // a key must never land in a plain file
    job->setKey(account);
    return job;
}

// Whether a Secret Service could be reached at all: on Linux it lives on the session bus, and
// without a bus address, a bus socket or a display to start one from there is none to ask.
bool sessionBusReachable()
{
#if defined(Q_OS_UNIX) && !defined(Q_OS_DARWIN)
    const auto isSet = [](const char *name) {
        return !qEnvironmentVariableIsEmpty(name);
    };
    if (isSet("DBUS_SESSION_BUS_ADDRESS") || isSet("DISPLAY") || isSet("WAYLAND_DISPLAY"))
        return true;
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    return !runtime.isEmpty() && QFileInfo::exists(QDir(runtime).filePath(QStringLiteral("bus")));
#else
    return true;
#endif
}

SecretStore::Problem problemOf(const QKeychain::Job *job)
{
    switch (job->error()) {
    case QKeychain::NoError:
    case QKeychain::EntryNotFound: return SecretStore::Problem::None;
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented: return SecretStore::Problem::NoKeychain;
    case QKeychain::OtherError:
        // QtKeychain's Secret Service backend says "Cannot autolaunch D-Bus…" as an OtherError.
        return sessionBusReachable() ? SecretStore::Problem::Refused : SecretStore::Problem::NoKeychain;
    case QKeychain::CouldNotDeleteEntry:
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied: return SecretStore::Problem::Refused;
    }
    return SecretStore::Problem::Refused;
}

SecretStore::WriteError errorOf(const QKeychain::Job *job)
{
    if (job->error() == QKeychain::NoError)
        return {};
    return {problemOf(job), job->errorString()};
}

} // namespace

KeychainSecretStore::KeychainSecretStore(QString service)
    : m_service(std::move(service))
{}

void KeychainSecretStore::read(const QString &account, QObject *context, ReadCallback done)
{
    auto *job = prepare<QKeychain::ReadPasswordJob>(m_service, account);
    QObject::connect(job, &QKeychain::Job::finished, context, [job, done = std::move(done)] {
        Result result;
        if (job->error() == QKeychain::NoError)
            result.secret = job->textData();
        else if (job->error() != QKeychain::EntryNotFound)
            result = {std::nullopt, job->errorString(), problemOf(job)};
        done(result);
    });
    job->start();
}

void KeychainSecretStore::write(const QString &account, const QString &secret, QObject *context,
                                WriteCallback done)
{
    auto *job = prepare<QKeychain::WritePasswordJob>(m_service, account);
    job->setTextData(secret);
    QObject::connect(job, &QKeychain::Job::finished, context,
                     [job, done = std::move(done)] { done(errorOf(job)); });
    job->start();
}

void KeychainSecretStore::remove(const QString &account, QObject *context, WriteCallback done)
{
    auto *job = prepare<QKeychain::DeletePasswordJob>(m_service, account);
    QObject::connect(job, &QKeychain::Job::finished, context, [job, done = std::move(done)] {
        done(job->error() == QKeychain::EntryNotFound ? SecretStore::WriteError() : errorOf(job));
    });
    job->start();
}

} // namespace Loopscope
