#pragma once

#include "agent/knowledge/embeddingsclient.h"

#include <QObject>
#include <QString>

#include <memory>

QT_BEGIN_NAMESPACE
class QLockFile;
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

class KnowledgeIndex;

/*!
    Gives the passages of an index that have no vector yet their vectors,
    after KnowledgeIndexer has written the passages: the lexical index is
    complete and searchable before the first embeddings request, and an
    endpoint that fails half-way loses nothing. Passages go to the
    EmbeddingsClient a slice at a time (each slice many batches, a few in
    flight), and each slice's vectors are committed when they come, so the
    next run resumes with the passages still without one. An index whose
    vectors come from another model drops them first and says so: vectors of
    two models cannot be compared.

    Asynchronous (it waits on the network) on the thread that owns it and the
    QNetworkAccessManager; it holds the index's writer lock while it runs, as
    the indexer does.
*/
class KnowledgeEmbedder final : public QObject
{
    Q_OBJECT

public:
    static constexpr int DefaultSliceSize = 512;

    // \a network is not owned.
    KnowledgeEmbedder(QNetworkAccessManager *network, EmbeddingsEndpoint endpoint, QString databasePath,
                      QObject *parent = nullptr);
    ~KnowledgeEmbedder() override;

    EmbeddingsClient &client() { return m_client; }
    // Passages per slice: the most an endpoint failing at once can make a run do again.
    void setSliceSize(int size) { m_sliceSize = std::max(1, size); }

    // Starts; false while running. Every outcome is a signal, never a return from here.
    bool start();
    void cancel();
    bool isRunning() const { return m_index != nullptr; }

signals:
    void notice(const QString &message);
    // embedded of total passages that had no vector when the run started.
    void progress(int embedded, int total);
    // embedded: passages given a vector by this run.
    void finished(int embedded);
    // Why the run stopped; what was embedded before is kept.
    void failed(const QString &message);

private:
    void begin();
    void nextSlice();
    void onEmbedded(const QList<Loopscope::Embedding> &vectors);
    void onFailed(const QString &message);
    void stop();

    EmbeddingsClient m_client;
    QString m_model;
    QString m_databasePath;
    std::unique_ptr<QLockFile> m_lock;
    std::unique_ptr<KnowledgeIndex> m_index;
    QList<qint64> m_slice; // the passages being embedded
    int m_sliceSize = DefaultSliceSize;
    int m_total = 0;
    int m_embedded = 0;
};

} // namespace Loopscope
