#include "agent/session/knowledgeattachment.h"

#include "agent/config/apikeyresolver.h"

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

} // namespace Loopscope
