#pragma once

#include "agent/knowledge/embeddingsclient.h"
#include "agent/knowledge/knowledgelibrary.h"
#include "agent/knowledge/knowledgesearchtool.h"

#include <QCoreApplication>

#include <functional>
#include <optional>

namespace Loopscope {

class ProviderProfileStore;
class SecretStore;

/*!
    A knowledge base as something runs with it: where its embeddings come
    from, the key read from the environment variable its definition names
    (never recorded), and the base as a session attaches it. The command line,
    the window and eval all attach bases the same way.
*/
class KnowledgeAttachment final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::KnowledgeAttachment)

public:
    // Where \a base's vectors come from, its key read now; nullopt without an embedding model, or
    // with *error set when the key's variable is not set.
    static std::optional<EmbeddingsEndpoint> embeddingsEndpoint(const KnowledgeBaseDefinition &base,
                                                                QString *error);
    // The base named \a name in \a library; nullopt with *error when there is none or its key is missing.
    static std::optional<AttachedKnowledgeBase> attach(const KnowledgeLibrary &library, const QString &name,
                                                       QString *error);
};

/*!
    Where the window reads a base's embeddings key: the way chat reads its
    provider's (ApiKeyResolver: the variable the profile names, else its
    keychain entry or key file), from the provider profile the base was chosen
    from, then the variable the base names. The key goes into the endpoint
    only, never into the definition, a message or the trace. Without a store
    of profiles or of secrets, or for a base made on the command line, only
    the environment is read, and at once.
*/
class KnowledgeKeyReader final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::KnowledgeKeyReader)

public:
    // endpoint: nullopt for a lexical base, or with problem saying why there is no key.
    using Callback
        = std::function<void(const std::optional<EmbeddingsEndpoint> &endpoint, const QString &problem)>;

    // Neither is owned; both may be nullptr.
    explicit KnowledgeKeyReader(const ProviderProfileStore *profiles = nullptr,
                                SecretStore *secrets = nullptr);

    // done runs on context's thread, later when a keychain is asked, and not at all once context is gone.
    void read(const KnowledgeBaseDefinition &base, QObject *context, Callback done) const;

private:
    const ProviderProfileStore *m_profiles;
    SecretStore *m_secrets;
};

} // namespace Loopscope
