#include "agent/providers/ollamaprobe.h"

#include "agent/providers/toolcallaccumulator.h" // joinUrl

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>

using namespace Qt::StringLiterals;

namespace Loopscope {

OllamaProbe::OllamaProbe(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_network(network)
{
    Q_ASSERT(network);
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        if (!m_reply)
            return;
        m_timedOut = true;
        m_reply->abort(); // finished() follows and reports it
    });
}

OllamaProbe::~OllamaProbe()
{
    releaseReply();
}

void OllamaProbe::probe(const QUrl &baseUrl, int timeoutMs)
{
    releaseReply();
    m_baseUrl = baseUrl;
    m_timedOut = false;
    QNetworkRequest request(QUrl(joinUrl(baseUrl, u"/api/tags"_s)));
    request.setRawHeader("Accept"_ba, "application/json"_ba);
    m_reply = m_network->get(request);
    connect(m_reply, &QNetworkReply::finished, this, &OllamaProbe::onFinished);
    m_timeout.start(timeoutMs);
}

void OllamaProbe::onFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    m_reply = nullptr;
    m_timeout.stop();
    reply->deleteLater();

    const QString where = m_baseUrl.toDisplayString();
    if (m_timedOut) {
        emit notFound(tr("%1 did not answer within %2 s.").arg(where).arg(m_timeout.interval() / 1000.0));
        return;
    }
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (reply->error() != QNetworkReply::NoError) {
        emit notFound(
            status != 0 ? tr("%1 answered with HTTP status %2: not an Ollama server.").arg(where).arg(status)
                        : tr("Nothing answered at %1 (%2).").arg(where, reply->errorString()));
        return;
    }
    const QJsonDocument document = QJsonDocument::fromJson(reply->readAll());
    const QJsonValue models = document.object().value(u"models"_s);
    if (!models.isArray()) {
        emit notFound(tr("%1 answered, but not like an Ollama server.").arg(where));
        return;
    }
    QStringList names;
    for (const QJsonValue &model : models.toArray()) {
        const QString name = model.toObject().value(u"name"_s).toString();
        if (!name.isEmpty())
            names.append(name);
    }
    emit found(m_baseUrl, names);
}

void OllamaProbe::releaseReply()
{
    m_timeout.stop();
    if (QNetworkReply *reply = m_reply) {
        m_reply = nullptr;
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

} // namespace Loopscope
