#pragma once

#include "agent/knowledge/embeddingsclient.h"
#include "agent/knowledge/knowledgelibrary.h"
#include "agent/knowledge/knowledgesearchtool.h"

#include <QCoreApplication>

#include <optional>

namespace Loopscope {

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

} // namespace Loopscope
