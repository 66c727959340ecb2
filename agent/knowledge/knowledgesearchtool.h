#pragma once

#include "agent/knowledge/knowledgeindex.h"
#include "agent/tools/tool.h"
#include "agent/trace/tracenode.h"

#include <QCoreApplication>
#include <QFuture>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <memory>

namespace Loopscope {

// One knowledge base a session searches: its name, its index's database and, when it has embeddings, where
// the question's vector comes from (the key included: this value is never saved).
struct AttachedKnowledgeBase
{
    QString name;
    QString databasePath;
    EmbeddingsEndpoint embedding; // model empty: searched by its words only
    bool operator==(const AttachedKnowledgeBase &) const = default;
};

// The question's vectors for the bases with embeddings (by base name), and what getting them took.
struct KnowledgeQueryVectors
{
    QHash<QString, Embedding> byBase;
    QString model; // the embedding models asked, comma-separated
    qint64 embeddingUs = 0;
    QString error; // why the question has no vector: those bases are searched by words only
};

// A passage found, and the base it came from.
struct RetrievedPassage
{
    QString base;
    KnowledgeHit hit;

    RetrievalHit toRetrievalHit() const;
    bool operator==(const RetrievedPassage &) const = default;
};

// One search over the attached bases, as the trace keeps it: what was asked, what came back, how long it
// took.
struct KnowledgeSearchRecord
{
    QString query;
    QList<AttachedKnowledgeBase> bases;
    int topK = 0;
    QList<RetrievedPassage> hits; // best first
    QString embeddingModel;       // empty for a lexical search
    qint64 embeddingUs = 0;       // embedding the question (a network call)
    qint64 searchUs = 0;          // opening the indexes and searching them
    QString error;                // why a base could not be searched; the others' hits are kept

    // As the trace keeps it (a Retrieval node), and as the tool result's details carry it.
    RetrievalData toRetrieval() const;
    QJsonObject toJson() const { return toRetrieval().toJson(); }
    bool operator==(const KnowledgeSearchRecord &) const = default;
};

/*!
    Lets the model search the user's documents: `knowledge_search {query,
    top_k?}` over the knowledge bases the session attached. It only reads, so
    it runs without asking and needs no --tools. The query is the model's own
    words (KnowledgeQuery makes them an FTS5 expression), the answer the best
    passages by BM25 with their file and lines, so the model can cite them.
    A base with embeddings is searched hybrid: the question is embedded by the
    base's model and BM25 and cosine rankings are fused.

    It answers later (an AsyncTool): the question's embedding is a request
    answered on the loop's thread's event loop, never waited for; SQLite runs
    on a pool thread with a connection of its own, never on the loop's
    thread, which may be the GUI's.
    The hits also go into the result's details, for the trace.
*/
class KnowledgeSearchTool final : public AsyncTool
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::KnowledgeSearchTool)

public:
    static constexpr QLatin1StringView Name{"knowledge_search"};
    static constexpr int DefaultTopK = 5;
    static constexpr int MaxTopK = 20;

    explicit KnowledgeSearchTool(QList<AttachedKnowledgeBase> bases);

    ToolSchema schema() const override;
    ToolBehaviour behaviour() const override;
    QFuture<ToolResult> start(const QJsonObject &arguments,
                              std::shared_ptr<ToolContext> context) const override;

    // The search itself, on the calling thread: every base's best topK, merged best first; hybrid for the
    // bases the question has a vector for.
    static KnowledgeSearchRecord search(const QList<AttachedKnowledgeBase> &bases, const QString &query,
                                        int topK, const KnowledgeQueryVectors &vectors = {});
    // Embeds the question for every base with embeddings, asynchronously on the calling thread (which
    // needs an event loop); the future never fails: an endpoint's failure is in its error.
    static QFuture<KnowledgeQueryVectors> embedQuestion(const QList<AttachedKnowledgeBase> &bases,
                                                        const QString &query,
                                                        const std::shared_ptr<ToolContext> &context = {});
    // What the model reads: numbered passages, each with its file, lines and score.
    static ToolResult resultFor(const KnowledgeSearchRecord &record);

private:
    QList<AttachedKnowledgeBase> m_bases;
};

} // namespace Loopscope
