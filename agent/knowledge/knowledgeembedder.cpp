#include "agent/knowledge/knowledgeembedder.h"

#include "agent/knowledge/knowledgeindex.h"

#include <QLockFile>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Loopscope {

KnowledgeEmbedder::KnowledgeEmbedder(QNetworkAccessManager *network, EmbeddingsEndpoint endpoint,
                                     QString databasePath, QObject *parent)
    : QObject(parent)
    , m_client(network, endpoint)
    , m_model(endpoint.model)
    , m_databasePath(std::move(databasePath))
{
    connect(&m_client, &EmbeddingsClient::finished, this, &KnowledgeEmbedder::onEmbedded);
    connect(&m_client, &EmbeddingsClient::failed, this, &KnowledgeEmbedder::onFailed);
    connect(&m_client, &EmbeddingsClient::progress, this,
            [this](int embedded, int) { emit progress(m_embedded + embedded, m_total); });
}

KnowledgeEmbedder::~KnowledgeEmbedder()
{
    cancel();
}

bool KnowledgeEmbedder::start()
{
    if (isRunning() || m_lock)
        return false;
    m_lock = std::make_unique<QLockFile>(m_databasePath + u".lock"_s);
    // Signals never come from inside start(): the caller connects after calling, as it may.
    QTimer::singleShot(0, this, &KnowledgeEmbedder::begin);
    return true;
}

void KnowledgeEmbedder::begin()
{
    if (!m_lock)
        return; // cancelled before it began
    if (!m_lock->tryLock(0)) {
        m_lock.reset();
        emit failed(
            tr("The knowledge base's index '%1' is being written by another process.").arg(m_databasePath));
        return;
    }
    QString error;
    m_index = KnowledgeIndex::open(m_databasePath, &error);
    if (!m_index)
        return onFailed(error);
    for (const QString &message : m_index->notices())
        emit notice(message);
    const QString recorded = m_index->embeddingModel();
    bool dropped = false;
    if (!m_index->useEmbeddingModel(m_model, &dropped))
        return onFailed(m_index->lastError());
    if (dropped) {
        emit notice(tr("The passages were embedded with the model \"%1\", and this base now uses \"%2\": "
                       "every passage is embedded again (vectors of two models cannot be compared).")
                        .arg(recorded, m_model));
    }
    m_client.setDimensions(m_index->embeddingDimensions());
    m_total = m_index->countChunksWithoutVectors();
    m_embedded = 0;
    if (!m_index->lastError().isEmpty())
        return onFailed(m_index->lastError());
    nextSlice();
}

void KnowledgeEmbedder::nextSlice()
{
    const QList<KnowledgePendingChunk> chunks = m_index->chunksWithoutVectors(m_sliceSize);
    if (!m_index->lastError().isEmpty())
        return onFailed(m_index->lastError());
    if (chunks.isEmpty()) {
        const int embedded = m_embedded;
        stop();
        emit finished(embedded);
        return;
    }
    m_slice.clear();
    QStringList texts;
    for (const KnowledgePendingChunk &chunk : chunks) {
        m_slice.append(chunk.id);
        texts.append(chunk.text);
    }
    m_client.embed(texts);
}

void KnowledgeEmbedder::onEmbedded(const QList<Embedding> &vectors)
{
    if (!m_index)
        return;
    QList<std::pair<qint64, Embedding>> rows;
    rows.reserve(vectors.size());
    for (qsizetype i = 0; i < vectors.size() && i < m_slice.size(); ++i)
        rows.append({m_slice.at(i), vectors.at(i)});
    if (!m_index->storeVectors(rows))
        return onFailed(m_index->lastError());
    m_embedded += int(rows.size());
    emit progress(m_embedded, m_total);
    nextSlice();
}

void KnowledgeEmbedder::onFailed(const QString &message)
{
    const int left = m_index ? m_index->countChunksWithoutVectors() : 0;
    stop();
    emit failed(tr("%1 The base is still searched by its words; %2 passages have no vector yet, and the next "
                   "indexing embeds them.")
                    .arg(message)
                    .arg(left));
}

void KnowledgeEmbedder::cancel()
{
    m_client.cancel();
    stop();
}

void KnowledgeEmbedder::stop()
{
    m_index.reset();
    m_lock.reset(); // unlocks
    m_slice.clear();
}

} // namespace Loopscope
