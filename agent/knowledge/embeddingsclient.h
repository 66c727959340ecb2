#pragma once

#include "agent/providers/providerkind.h"
#include "agent/providers/retrypolicy.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QUrl>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
QT_END_NAMESPACE

namespace Loopscope {

// Where a knowledge base's embeddings come from: a provider's wire format, its base URL, the model, the key.
struct EmbeddingsEndpoint
{
    ProviderKind kind = ProviderKind::OpenAi;
    QUrl baseUrl; // empty: the provider's default
    QString model;
    QString apiKey;
    bool operator==(const EmbeddingsEndpoint &) const = default;
};

using Embedding = QList<float>;

/*!
    Turns passages into vectors through the user's own provider: an
    OpenAI-compatible `POST /embeddings` (OpenAI, LM Studio, llama.cpp, vLLM,
    Ollama's /v1), Ollama's `POST /api/embed` or Gemini's
    `batchEmbedContents`. Many passages go in one request (a batch), a few
    requests at a time (a cap on requests in flight), and a failed request is
    tried again with the backoff chat requests use (RetryPolicy). Every vector
    must have the same number of dimensions — the first one's, or the number
    the index already holds — else the whole run fails saying so.

    Asynchronous, on QNetworkAccessManager: embed() returns at once, and
    finished() gives the vectors in the order of the texts, or failed() says
    why there are none.
*/
class EmbeddingsClient final : public QObject
{
    Q_OBJECT

public:
    static constexpr int DefaultBatchSize = 64;
    static constexpr int DefaultMaxInFlight = 2;

    // \a network is not owned.
    EmbeddingsClient(QNetworkAccessManager *network, EmbeddingsEndpoint endpoint, QObject *parent = nullptr);
    ~EmbeddingsClient() override;

    void setBatchSize(int size) { m_batchSize = std::max(1, size); }
    void setMaxInFlight(int count) { m_maxInFlight = std::max(1, count); }
    void setRetryPolicy(const RetryPolicy &policy) { m_retry = policy; }
    // The dimensions every vector must have; 0 (the default): those of the first vector.
    void setDimensions(int dimensions) { m_dimensions = dimensions; }
    int dimensions() const { return m_dimensions; }

    // Starts embedding \a texts; false while a run is going on.
    bool embed(const QStringList &texts);
    // Ends the run without a signal.
    void cancel();
    bool isBusy() const { return m_busy; }
    // HTTP requests sent so far, retries included.
    int requestCount() const { return m_requestCount; }

    // Where the requests go: the endpoint of the wire format on the base URL.
    QUrl url() const;

signals:
    void progress(int embedded, int total);
    void finished(const QList<Loopscope::Embedding> &vectors);
    void failed(const QString &message);

private:
    struct Batch
    {
        int first = 0;
        int count = 0;
        int retries = 0;
    };

    void sendMore();
    void send(const Batch &batch);
    void onReplyFinished(QNetworkReply *reply, const Batch &batch, quint64 run);
    bool take(const QByteArray &body, const Batch &batch, QString *error);
    void fail(const QString &message);
    QByteArray bodyFor(const Batch &batch) const;

    QPointer<QNetworkAccessManager> m_network;
    EmbeddingsEndpoint m_endpoint;
    RetryPolicy m_retry;
    int m_batchSize = DefaultBatchSize;
    int m_maxInFlight = DefaultMaxInFlight;
    int m_dimensions = 0;

    QStringList m_texts;
    QList<Embedding> m_vectors;
    QList<QPointer<QNetworkReply>> m_replies;
    int m_next = 0;     // the first text not sent yet
    int m_inFlight = 0; // requests sent or waiting to be retried
    int m_embedded = 0;
    int m_requestCount = 0;
    quint64 m_run = 0; // answers of a cancelled run are dropped
    bool m_busy = false;
};

} // namespace Loopscope
