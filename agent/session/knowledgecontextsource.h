#pragma once

#include "agent/knowledge/knowledgesearchtool.h"
#include "agent/loop/turncontextsource.h"

#include <QCoreApplication>

namespace Loopscope {

/*!
    `--retrieve auto`: the user's question is searched in the attached
    knowledge bases before the first iteration and the best passages go into
    the request, so the model sees them without having to call
    knowledge_search (which stays offered for searching further). The search
    is the tool's own: the question embedded asynchronously on the calling
    thread, SQLite on a pool thread.
*/
class KnowledgeContextSource final : public TurnContextSource
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::KnowledgeContextSource)

public:
    explicit KnowledgeContextSource(QList<AttachedKnowledgeBase> bases,
                                    int topK = KnowledgeSearchTool::DefaultTopK);

    QFuture<TurnContext> contextFor(const QString &question) const override;

    // What the model reads: the numbered passages under a heading; empty when nothing was found.
    static TurnContext contextFrom(const KnowledgeSearchRecord &record);

private:
    QList<AttachedKnowledgeBase> m_bases;
    int m_topK;
};

} // namespace Loopscope
