#include "agent/session/knowledgecontextsource.h"

#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

KnowledgeContextSource::KnowledgeContextSource(QList<AttachedKnowledgeBase> bases, int topK)
    : m_bases(std::move(bases))
    , m_topK(std::clamp(topK, 1, KnowledgeSearchTool::MaxTopK))
{}

QFuture<TurnContext> KnowledgeContextSource::contextFor(const QString &question) const
{
    const bool hybrid = std::any_of(m_bases.cbegin(), m_bases.cend(), [](const AttachedKnowledgeBase &base) {
        return !base.embedding.model.isEmpty();
    });
    if (!hybrid || question.trimmed().isEmpty()) {
        return QtConcurrent::run([bases = m_bases, question, topK = m_topK] {
            return contextFrom(KnowledgeSearchTool::search(bases, question, topK));
        });
    }
    return KnowledgeSearchTool::embedQuestion(m_bases, question)
        .then(QtFuture::Launch::Async,
              [bases = m_bases, question, topK = m_topK](const KnowledgeQueryVectors &vectors) {
                  return contextFrom(KnowledgeSearchTool::search(bases, question, topK, vectors));
              });
}

TurnContext KnowledgeContextSource::contextFrom(const KnowledgeSearchRecord &record)
{
    TurnContext context;
    context.retrieval = record.toRetrieval();
    if (record.hits.isEmpty())
        return context;
    // The same numbered passages the tool answers with, so the model cites them the same way.
    context.note = tr("Passages from your knowledge bases, found for the user's question (cite the files you "
                      "draw on; knowledge_search finds more):\n\n%1")
                       .arg(KnowledgeSearchTool::resultFor(record).content);
    return context;
}

} // namespace Loopscope
