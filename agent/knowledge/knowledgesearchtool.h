#pragma once

#include "agent/knowledge/knowledgeindex.h"
#include "agent/tools/tool.h"
#include "agent/trace/tracenode.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace Loopscope {

// One knowledge base a session searches: its name and its index's database.
struct AttachedKnowledgeBase
{
    QString name;
    QString databasePath;
    bool operator==(const AttachedKnowledgeBase &) const = default;
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

    It answers later (an AsyncTool): SQLite runs on a pool thread with a
    connection of its own, never on the loop's thread, which may be the GUI's.
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

    // The search itself, on the calling thread: every base's best topK, merged best first.
    static KnowledgeSearchRecord search(const QList<AttachedKnowledgeBase> &bases, const QString &query,
                                        int topK);
    // What the model reads: numbered passages, each with its file, lines and score.
    static ToolResult resultFor(const KnowledgeSearchRecord &record);

private:
    QList<AttachedKnowledgeBase> m_bases;
};

} // namespace Loopscope
