#pragma once

#include "agent/config/providerprofile.h"

#include <QString>
#include <QStringList>

#include <functional>

QT_BEGIN_NAMESPACE
class QObject;
QT_END_NAMESPACE

namespace Loopscope {

class SecretStore;

/*!
    Where a profile's API key comes from, decided in one place for the chat,
    `loopscope run` and the settings dialog: the environment variable the
    profile names, else the keychain under the profile's id (or the key file,
    for a profile the user put there: SecretStore::keyFile()); and whether
    having none is a problem, which only ProviderProfile::needsKey() says.
    Without a SecretStore only the environment is asked, so a headless run
    needs no keyring. Callers word the failures for their own audience.
*/
class ApiKeyResolver final
{
public:
    struct Result
    {
        enum class Status {
            Found,              // key holds the key
            NotNeeded,          // no key, and the provider runs without one
            EnvironmentUnset,   // the profile's variable is unset or empty
            NotStored,          // the keychain (or the key file) holds no key, or no store was given
            NoKeychain,         // this desktop has no keychain to hold one
            KeychainUnreadable, // keychainError says why
            KeyFileUnreadable,  // the key file cannot be used; keychainError says why
        };
        Status status = Status::NotStored;
        QString key;
        QString keychainError;

        // Found or NotNeeded: the profile can be used with key.
        bool isUsable() const { return status == Status::Found || status == Status::NotNeeded; }
    };
    using Callback = std::function<void(const Result &)>;

    // secrets may be nullptr: then the keychain is never asked.
    explicit ApiKeyResolver(SecretStore *secrets = nullptr);

    // The answer from the environment alone; synchronous.
    static Result fromEnvironment(const ProviderProfile &profile);
    // The variables an API key may be read from: the one the profile names, then each provider's
    // conventional one (OPENAI_API_KEY, ...), once each. What a command run for the model must not see.
    static QStringList keyVariables(const ProviderProfile &profile);
    // The whole answer. done runs later (never inside this call when the keychain
    // is asked) on context's thread, and not at all once context is gone.
    void resolve(const ProviderProfile &profile, QObject *context, Callback done) const;

private:
    SecretStore *m_secrets;
};

} // namespace Loopscope
