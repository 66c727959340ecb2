#include "agent/session/knowledgeattachment.h"

#include "agent/config/apikeyresolver.h"
#include "agent/config/providerprofile.h"
#include "agent/config/secretstore.h"

namespace Loopscope {

std::optional<EmbeddingsEndpoint> KnowledgeAttachment::embeddingsEndpoint(const KnowledgeBaseDefinition &base,
                                                                          QString *error)
{
    if (!base.embedding.isSet())
        return std::nullopt;
    ProviderProfile profile;
    profile.kind = base.embedding.kind;
    profile.baseUrl = base.embedding.baseUrl;
    profile.model = base.embedding.model;
    profile.apiKeyEnv = base.embedding.apiKeyEnv;
    QString key;
    if (!profile.apiKeyEnv.isEmpty()) {
        const ApiKeyResolver::Result found = ApiKeyResolver::fromEnvironment(profile);
        if (!found.isUsable()) {
            *error = tr("the knowledge base '%1' is embedded with \"%2\", whose key is read from the "
                        "environment variable %3, which is not set")
                         .arg(base.name, profile.model, profile.apiKeyEnv);
            return std::nullopt;
        }
        key = found.key;
    }
    return EmbeddingsEndpoint{profile.kind, profile.baseUrl, profile.model, key};
}

std::optional<AttachedKnowledgeBase> KnowledgeAttachment::attach(const KnowledgeLibrary &library,
                                                                 const QString &name, QString *error)
{
    const auto base = library.base(name);
    if (!base) {
        *error = tr("there is no knowledge base named \"%1\"").arg(name);
        return std::nullopt;
    }
    QString keyError;
    const std::optional<EmbeddingsEndpoint> embedding = embeddingsEndpoint(*base, &keyError);
    if (!keyError.isEmpty()) {
        *error = keyError;
        return std::nullopt;
    }
    return AttachedKnowledgeBase{name, library.databasePath(name), embedding.value_or(EmbeddingsEndpoint{})};
}

KnowledgeKeyReader::KnowledgeKeyReader(const ProviderProfileStore *profiles, SecretStore *secrets)
    : m_profiles(profiles)
    , m_secrets(secrets)
{}

void KnowledgeKeyReader::read(const KnowledgeBaseDefinition &base, QObject *context, Callback done) const
{
    std::optional<ProviderProfile> profile;
    if (base.embedding.isSet() && m_profiles && m_secrets && !base.embedding.profileId.isEmpty())
        profile = m_profiles->profile(base.embedding.profileId);
    if (!profile) {
        QString problem;
        const std::optional<EmbeddingsEndpoint> endpoint
            = KnowledgeAttachment::embeddingsEndpoint(base, &problem);
        done(endpoint, problem);
        return;
    }
    // The profile says where its key is kept; the base says where its vectors come from.
    ApiKeyResolver(m_secrets).resolve(
        *profile, context, [base, name = profile->name, done](const ApiKeyResolver::Result &key) {
            if (key.isUsable()) {
                done(EmbeddingsEndpoint{base.embedding.kind, base.embedding.baseUrl, base.embedding.model,
                                        key.key},
                     {});
                return;
            }
            QString problem;
            const std::optional<EmbeddingsEndpoint> endpoint
                = KnowledgeAttachment::embeddingsEndpoint(base, &problem);
            if (!problem.isEmpty()) {
                problem = tr("the knowledge base '%1' is embedded with \"%2\", and the provider '%3' has no "
                             "key to read (%4) nor is the environment variable %5 set")
                              .arg(base.name, base.embedding.model, name,
                                   key.keychainError.isEmpty() ? tr("none is stored") : key.keychainError,
                                   base.embedding.apiKeyEnv);
            }
            done(endpoint, problem);
        });
}

} // namespace Loopscope
