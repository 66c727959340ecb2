#include "agent/config/secretstore.h"

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

QString errorOf(const QKeychain::Job *job)
{
    return job->error() == QKeychain::NoError ? QString() : job->errorString();
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
            result.error = job->errorString();
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
        done(job->error() == QKeychain::EntryNotFound ? QString() : errorOf(job));
    });
    job->start();
}

} // namespace Loopscope
