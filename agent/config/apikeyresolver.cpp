#include "agent/config/apikeyresolver.h"

#include "agent/config/keyenvironment.h"
#include "agent/config/secretstore.h"
#include "agent/providers/providerfactory.h"

namespace Loopscope {

namespace {

using Status = ApiKeyResolver::Result::Status;

ApiKeyResolver::Result noKey(const ProviderProfile &profile, Status whyMissing)
{
    return {profile.needsKey() ? whyMissing : Status::NotNeeded, {}, {}};
}

} // namespace

ApiKeyResolver::ApiKeyResolver(SecretStore *secrets)
    : m_secrets(secrets)
{}

ApiKeyResolver::Result ApiKeyResolver::fromEnvironment(const ProviderProfile &profile)
{
    if (profile.apiKeyEnv.isEmpty())
        return noKey(profile, Status::NotStored);
    const QString key = KeyEnvironment::value(profile.apiKeyEnv);
    if (key.isEmpty())
        return noKey(profile, Status::EnvironmentUnset);
    return {Status::Found, key, {}};
}

QStringList ApiKeyResolver::keyVariables(const ProviderProfile &profile)
{
    QStringList names;
    if (!profile.apiKeyEnv.isEmpty())
        names.append(profile.apiKeyEnv);
    for (ProviderKind kind : providerKinds()) {
        const QString name = defaultApiKeyEnv(kind);
        if (!name.isEmpty() && !names.contains(name))
            names.append(name);
    }
    return names;
}

void ApiKeyResolver::resolve(const ProviderProfile &profile, QObject *context, Callback done) const
{
    // A variable the profile names replaces the keychain, set or not: the user chose it.
    if (!profile.apiKeyEnv.isEmpty() || !profile.needsKey() || !m_secrets) {
        done(fromEnvironment(profile));
        return;
    }
    const bool inFile = profile.keyStorage == ProviderProfile::KeyStorage::File;
    SecretStore *store = inFile ? m_secrets->keyFile() : m_secrets;
    if (!store) {
        done(noKey(profile, Status::NotStored));
        return;
    }
    store->read(profile.id, context, [inFile, done = std::move(done)](const SecretStore::Result &stored) {
        if (stored.problem == SecretStore::Problem::NoKeychain)
            done({Status::NoKeychain, {}, stored.error});
        else if (!stored.error.isEmpty())
            done({inFile ? Status::KeyFileUnreadable : Status::KeychainUnreadable, {}, stored.error});
        else if (stored.secret && !stored.secret->isEmpty())
            done({Status::Found, *stored.secret, {}});
        else
            done({Status::NotStored, {}, {}});
    });
}

} // namespace Loopscope
