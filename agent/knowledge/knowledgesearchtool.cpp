#include "agent/knowledge/knowledgesearchtool.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QPromise>
#include <QStringList>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

RetrievalHit RetrievedPassage::toRetrievalHit() const
{
    return {base,        hit.path, hit.startLine,
            hit.endLine, hit.bm25, hit.cosine,
            hit.fused,   hit.text, hit.page > 0 ? std::optional<int>(hit.page) : std::nullopt};
}

RetrievalData KnowledgeSearchRecord::toRetrieval() const
{
    RetrievalData data;
    data.query = query;
    for (const AttachedKnowledgeBase &base : bases)
        data.bases.append(base.name);
    data.embeddingModel = embeddingModel;
    data.embeddingUs = embeddingUs;
    data.topK = topK;
    for (const RetrievedPassage &passage : hits)
        data.hits.append(passage.toRetrievalHit());
    data.searchUs = searchUs;
    data.error = error;
    return data;
}

KnowledgeSearchTool::KnowledgeSearchTool(QList<AttachedKnowledgeBase> bases)
    : m_bases(std::move(bases))
{}

ToolSchema KnowledgeSearchTool::schema() const
{
    QStringList names;
    for (const AttachedKnowledgeBase &base : m_bases)
        names.append(base.name);
    const QJsonObject query{
        {u"type"_s, u"string"_s},
        {u"description"_s,
         u"What to look for, in plain words, e.g. \"how are refunds approved\". Passages sharing the most "
         "of its words rank first; no operators are needed."_s},
    };
    const QJsonObject topK{
        {u"type"_s, u"integer"_s},
        {u"minimum"_s, 1},
        {u"maximum"_s, MaxTopK},
        {u"description"_s, u"How many passages to return (default %1)."_s.arg(DefaultTopK)},
    };
    return {Name,
            u"Searches the user's documents (the knowledge bases %1) and returns the best passages, each "
            "with its file and line range, best first. Use it for questions about those documents and cite "
            "the files you draw on."_s.arg(names.join(u", "_s)),
            QJsonObject{
                {u"type"_s, u"object"_s},
                {u"properties"_s, QJsonObject{{u"query"_s, query}, {u"top_k"_s, topK}}},
                {u"required"_s, QJsonArray{u"query"_s}},
                {u"additionalProperties"_s, false},
            }};
}

ToolBehaviour KnowledgeSearchTool::behaviour() const
{
    ToolBehaviour behaviour;
    // An index changes while the app runs (re-indexing): the same query may find other passages.
    behaviour.resultVaries = true;
    return behaviour;
}

QFuture<ToolResult> KnowledgeSearchTool::start(const QJsonObject &arguments,
                                               std::shared_ptr<ToolContext> context) const
{
    Q_UNUSED(context); // a search is short: an answer after a cancel is ignored by the loop
    const QString query = arguments.value(u"query"_s).toString();
    const int topK = std::clamp(arguments.value(u"top_k"_s).toInt(DefaultTopK), 1, MaxTopK);
    const bool hybrid = std::any_of(m_bases.cbegin(), m_bases.cend(), [](const AttachedKnowledgeBase &base) {
        return !base.embedding.model.isEmpty();
    });
    if (!hybrid || query.trimmed().isEmpty()) {
        return QtConcurrent::run(
            [bases = m_bases, query, topK] { return resultFor(search(bases, query, topK)); });
    }
    return embedQuestion(m_bases, query, context)
        .then(QtFuture::Launch::Async, [bases = m_bases, query, topK](const KnowledgeQueryVectors &vectors) {
            return resultFor(search(bases, query, topK, vectors));
        });
}

QFuture<KnowledgeQueryVectors> KnowledgeSearchTool::embedQuestion(const QList<AttachedKnowledgeBase> &bases,
                                                                  const QString &query,
                                                                  const std::shared_ptr<ToolContext> &context)
{
    // One request per distinct endpoint, all at once; the last answer fulfils the promise.
    struct State
    {
        QPromise<KnowledgeQueryVectors> promise;
        KnowledgeQueryVectors vectors;
        QList<AttachedKnowledgeBase> bases;
        QElapsedTimer timer;
        QStringList errors;
        int waiting = 0;
    };
    auto state = std::make_shared<State>();
    state->bases = bases;
    state->promise.start();
    state->timer.start();
    QFuture<KnowledgeQueryVectors> future = state->promise.future();
    // Owns the clients; deleted (with them) when the last answer came or the call was cancelled.
    auto *network = new QNetworkAccessManager;
    QList<EmbeddingsEndpoint> endpoints;
    QStringList models;
    for (const AttachedKnowledgeBase &base : bases) {
        if (!base.embedding.model.isEmpty() && !endpoints.contains(base.embedding)) {
            endpoints.append(base.embedding);
            if (!models.contains(base.embedding.model))
                models.append(base.embedding.model);
        }
    }
    state->vectors.model = models.join(u", "_s);
    state->waiting = std::max(1, int(endpoints.size()));
    const auto settle = [state, network] {
        if (--state->waiting > 0)
            return;
        state->vectors.embeddingUs = state->timer.nsecsElapsed() / 1000;
        state->vectors.error = state->errors.join(u"; "_s);
        state->promise.addResult(state->vectors);
        state->promise.finish();
        network->deleteLater();
    };
    for (const EmbeddingsEndpoint &endpoint : std::as_const(endpoints)) {
        auto *client = new EmbeddingsClient(network, endpoint, network);
        client->setBatchSize(1);
        QObject::connect(client, &EmbeddingsClient::finished, network,
                         [state, endpoint, settle](const QList<Embedding> &vectors) {
                             for (const AttachedKnowledgeBase &base : std::as_const(state->bases)) {
                                 if (base.embedding == endpoint && !vectors.isEmpty())
                                     state->vectors.byBase.insert(base.name, vectors.first());
                             }
                             settle();
                         });
        QObject::connect(
            client, &EmbeddingsClient::failed, network, [state, endpoint, settle](const QString &message) {
                state->errors.append(
                    tr("the question could not be embedded with \"%1\", so it was searched by its "
                       "words only: %2")
                        .arg(endpoint.model, message));
                settle();
            });
        client->embed({query});
    }
    if (endpoints.isEmpty())
        settle();
    if (context) {
        // A cancelled call stops waiting: the clients go, and the promise, dropped unfinished, with them.
        context->onCancelled([guard = QPointer<QNetworkAccessManager>(network)] {
            if (guard)
                guard->deleteLater();
        });
    }
    return future;
}

KnowledgeSearchRecord KnowledgeSearchTool::search(const QList<AttachedKnowledgeBase> &bases,
                                                  const QString &query, int topK,
                                                  const KnowledgeQueryVectors &vectors)
{
    KnowledgeSearchRecord record;
    record.query = query;
    record.bases = bases;
    record.topK = topK;
    record.embeddingModel = vectors.model;
    record.embeddingUs = vectors.embeddingUs;
    QElapsedTimer timer;
    timer.start();
    QStringList errors;
    if (!vectors.error.isEmpty())
        errors.append(vectors.error);
    for (const AttachedKnowledgeBase &base : bases) {
        QString error;
        const auto index = KnowledgeIndex::openForReading(base.databasePath, &error);
        if (!index) {
            errors.append(tr("the knowledge base \"%1\" cannot be read: %2").arg(base.name, error));
            continue;
        }
        const QList<KnowledgeHit> hits = index->search(query, topK, vectors.byBase.value(base.name));
        if (!index->lastError().isEmpty())
            errors.append(
                tr("the knowledge base \"%1\" cannot be searched: %2").arg(base.name, index->lastError()));
        for (const KnowledgeHit &hit : hits)
            record.hits.append({base.name, hit});
    }
    // Scores of different bases are on the same scale only roughly; best first all the same.
    std::stable_sort(
        record.hits.begin(), record.hits.end(),
        [](const RetrievedPassage &a, const RetrievedPassage &b) { return a.hit.score() > b.hit.score(); });
    if (record.hits.size() > topK)
        record.hits.resize(topK);
    record.searchUs = timer.nsecsElapsed() / 1000;
    record.error = errors.join(u"; "_s);
    return record;
}

ToolResult KnowledgeSearchTool::resultFor(const KnowledgeSearchRecord &record)
{
    ToolResult result;
    result.details = QJsonObject{{QString(RetrievalDetailsKey), record.toJson()}};
    if (record.query.trimmed().isEmpty()) {
        result.isError = true;
        result.content = tr("The query is empty: say in a few words what to look for.");
        return result;
    }
    QStringList parts;
    if (!record.error.isEmpty())
        parts.append(tr("Note: %1.").arg(record.error));
    if (record.hits.isEmpty()) {
        parts.append(tr("No passage shares a word with \"%1\". Try other words.").arg(record.query));
        result.isError = !record.error.isEmpty();
    }
    for (qsizetype i = 0; i < record.hits.size(); ++i) {
        const RetrievedPassage &passage = record.hits.at(i);
        const KnowledgeHit &hit = passage.hit;
        // One pass: a path or passage holding "%5" stays as it is.
        const QString where
            = hit.page > 0
                  ? tr("page %1, lines %2-%3")
                        .arg(QString::number(hit.page), QString::number(hit.startLine),
                             QString::number(hit.endLine))
                  : tr("lines %1-%2").arg(QString::number(hit.startLine), QString::number(hit.endLine));
        parts.append(tr("[%1] %2 (%3, knowledge base %4, score %5)\n%6")
                         .arg(QString::number(i + 1), hit.path, where, passage.base,
                              QString::number(hit.score(), 'g', 4), hit.text));
    }
    result.content = parts.join(u"\n\n"_s);
    return result;
}

} // namespace Loopscope
