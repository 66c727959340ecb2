#include "agent/knowledge/embeddingsclient.h"

#include "agent/providers/toolcallaccumulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

constexpr int TransferTimeoutMs = 120'000;

QString geminiModel(const QString &model)
{
    return model.startsWith(u"models/"_s) ? model : u"models/"_s + model;
}

// A vector from a JSON array of numbers; empty when it is not one.
Embedding vectorOf(const QJsonArray &values)
{
    Embedding vector;
    vector.reserve(values.size());
    for (const QJsonValue &value : values) {
        if (!value.isDouble())
            return {};
        vector.append(float(value.toDouble()));
    }
    return vector;
}

} // namespace

EmbeddingsClient::EmbeddingsClient(QNetworkAccessManager *network, EmbeddingsEndpoint endpoint,
                                   QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_endpoint(std::move(endpoint))
{}

EmbeddingsClient::~EmbeddingsClient()
{
    cancel();
}

QUrl EmbeddingsClient::url() const
{
    const QUrl base = m_endpoint.baseUrl.isEmpty() ? defaultBaseUrl(m_endpoint.kind) : m_endpoint.baseUrl;
    switch (m_endpoint.kind) {
    case ProviderKind::OpenAi:
    case ProviderKind::Anthropic: return QUrl(joinUrl(base, u"/embeddings"_s));
    case ProviderKind::Ollama: return QUrl(joinUrl(base, u"/api/embed"_s));
    case ProviderKind::Gemini: {
        QString root = joinUrl(base, QString());
        if (root.endsWith(u"/v1beta"_s))
            root.chop(7);
        return QUrl(root + u"/v1beta/"_s + geminiModel(m_endpoint.model) + u":batchEmbedContents"_s);
    }
    }
    return {};
}

bool EmbeddingsClient::embed(const QStringList &texts)
{
    if (m_busy)
        return false;
    m_busy = true;
    ++m_run;
    m_texts = texts;
    m_vectors = QList<Embedding>(texts.size());
    m_next = 0;
    m_inFlight = 0;
    m_embedded = 0;
    // Signals never come from inside embed(): the caller connects after calling, as it may.
    QTimer::singleShot(0, this, [this, run = m_run] {
        if (run != m_run || !m_busy)
            return;
        if (m_endpoint.kind == ProviderKind::Anthropic)
            return fail(tr("Anthropic offers no embeddings: choose an OpenAI-compatible provider, Ollama or "
                           "Gemini for the embedding model."));
        if (!m_network)
            return fail(tr("No network to reach the embeddings endpoint."));
        if (m_texts.isEmpty()) {
            m_busy = false;
            emit finished({});
            return;
        }
        sendMore();
    });
    return true;
}

void EmbeddingsClient::cancel()
{
    ++m_run;
    m_busy = false;
    for (const QPointer<QNetworkReply> &reply : std::exchange(m_replies, {})) {
        if (reply) {
            reply->disconnect(this);
            reply->abort();
            reply->deleteLater();
        }
    }
}

void EmbeddingsClient::sendMore()
{
    while (m_busy && m_inFlight < m_maxInFlight && m_next < m_texts.size()) {
        const Batch batch{m_next, int(std::min<qsizetype>(m_batchSize, m_texts.size() - m_next)), 0};
        m_next += batch.count;
        ++m_inFlight;
        send(batch);
    }
}

QByteArray EmbeddingsClient::bodyFor(const Batch &batch) const
{
    const QStringList texts = m_texts.mid(batch.first, batch.count);
    QJsonObject body;
    switch (m_endpoint.kind) {
    case ProviderKind::OpenAi:
    case ProviderKind::Anthropic:
        body = {{u"model"_s, m_endpoint.model},
                {u"input"_s, QJsonArray::fromStringList(texts)},
                {u"encoding_format"_s, u"float"_s}};
        break;
    case ProviderKind::Ollama:
        body = {{u"model"_s, m_endpoint.model}, {u"input"_s, QJsonArray::fromStringList(texts)}};
        break;
    case ProviderKind::Gemini: {
        QJsonArray requests;
        for (const QString &text : texts)
            requests.append(QJsonObject{
                {u"model"_s, geminiModel(m_endpoint.model)},
                {u"content"_s, QJsonObject{{u"parts"_s, QJsonArray{QJsonObject{{u"text"_s, text}}}}}}});
        body = {{u"requests"_s, requests}};
        break;
    }
    }
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

void EmbeddingsClient::send(const Batch &batch)
{
    QNetworkRequest request(url());
    request.setHeader(QNetworkRequest::ContentTypeHeader, "application/json"_ba);
    request.setTransferTimeout(TransferTimeoutMs);
    if (!m_endpoint.apiKey.isEmpty()) {
        if (m_endpoint.kind == ProviderKind::Gemini)
            request.setRawHeader("x-goog-api-key"_ba, m_endpoint.apiKey.toUtf8());
        else
            request.setRawHeader("Authorization"_ba, "Bearer "_ba + m_endpoint.apiKey.toUtf8());
    }
    ++m_requestCount;
    QNetworkReply *reply = m_network->post(request, bodyFor(batch));
    m_replies.append(reply);
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, batch, run = m_run] { onReplyFinished(reply, batch, run); });
}

void EmbeddingsClient::onReplyFinished(QNetworkReply *reply, const Batch &batch, quint64 run)
{
    m_replies.removeAll(reply);
    reply->deleteLater();
    if (run != m_run || !m_busy)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    if (reply->error() != QNetworkReply::NoError || status < 200 || status >= 300) {
        HttpHeaders headers;
        for (const auto &[name, value] : reply->rawHeaderPairs())
            headers.append({name, value});
        if (const std::optional<qint64> delay = m_retry.retryDelay(batch.retries, status, headers)) {
            QTimer::singleShot(std::chrono::milliseconds(*delay), this, [this, batch, run] {
                if (run == m_run && m_busy)
                    send({batch.first, batch.count, batch.retries + 1});
            });
            return;
        }
        const QString detail = status > 0
                                   ? tr("HTTP %1: %2").arg(status).arg(QString::fromUtf8(body.left(300)))
                                   : reply->errorString();
        return fail(tr("The embeddings endpoint %1 failed: %2").arg(url().toDisplayString(), detail));
    }
    QString error;
    if (!take(body, batch, &error))
        return fail(error);
    --m_inFlight;
    m_embedded += batch.count;
    emit progress(m_embedded, int(m_texts.size()));
    if (m_embedded == m_texts.size()) {
        m_busy = false;
        emit finished(std::exchange(m_vectors, {}));
        return;
    }
    sendMore();
}

bool EmbeddingsClient::take(const QByteArray &body, const Batch &batch, QString *error)
{
    const QJsonObject json = QJsonDocument::fromJson(body).object();
    QList<Embedding> vectors;
    switch (m_endpoint.kind) {
    case ProviderKind::OpenAi:
    case ProviderKind::Anthropic: {
        QList<QJsonObject> items;
        for (const QJsonValue &item : json.value(u"data"_s).toArray())
            items.append(item.toObject());
        std::stable_sort(items.begin(), items.end(), [](const QJsonObject &a, const QJsonObject &b) {
            return a.value(u"index"_s).toInt() < b.value(u"index"_s).toInt();
        });
        for (const QJsonObject &item : items)
            vectors.append(vectorOf(item.value(u"embedding"_s).toArray()));
        break;
    }
    case ProviderKind::Ollama:
        for (const QJsonValue &vector : json.value(u"embeddings"_s).toArray())
            vectors.append(vectorOf(vector.toArray()));
        break;
    case ProviderKind::Gemini:
        for (const QJsonValue &item : json.value(u"embeddings"_s).toArray())
            vectors.append(vectorOf(item.toObject().value(u"values"_s).toArray()));
        break;
    }
    if (vectors.size() != batch.count) {
        *error = tr("The embeddings endpoint answered %1 vectors for %2 passages.")
                     .arg(vectors.size())
                     .arg(batch.count);
        return false;
    }
    for (int i = 0; i < vectors.size(); ++i) {
        const Embedding &vector = vectors.at(i);
        if (m_dimensions == 0 && !vector.isEmpty())
            m_dimensions = int(vector.size());
        if (vector.isEmpty() || vector.size() != m_dimensions) {
            *error
                = tr("The embeddings endpoint returned a vector of %1 dimensions for passage %2, not %3: the "
                     "model \"%4\" does not give the vectors this index holds.")
                      .arg(vector.size())
                      .arg(batch.first + i + 1)
                      .arg(m_dimensions)
                      .arg(m_endpoint.model);
            return false;
        }
        m_vectors[batch.first + i] = vector;
    }
    return true;
}

void EmbeddingsClient::fail(const QString &message)
{
    cancel();
    emit failed(message);
}

} // namespace Loopscope
