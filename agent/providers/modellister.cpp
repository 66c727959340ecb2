#include "agent/providers/modellister.h"

#include "agent/providers/providerfactory.h"
#include "agent/wire/secretredactor.h"

#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>

using namespace Qt::StringLiterals;

namespace Loopscope {

ModelLister::ModelLister(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_network(network)
{
    Q_ASSERT(network);
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        if (!m_reply)
            return;
        m_timedOut = true;
        m_reply->abort(); // finished() follows and reports the timeout
    });
}

ModelLister::~ModelLister()
{
    release();
}

void ModelLister::list(ProviderKind kind, const QUrl &baseUrl, const QString &apiKey, int timeoutMs)
{
    release();
    m_protocol = createProviderProtocol(kind);
    m_endpoint = {};
    m_endpoint.baseUrl = baseUrl;
    m_endpoint.apiKey = apiKey;
    m_models.clear();
    m_pages = 0;
    m_timedOut = false;
    m_deadline.start(timeoutMs);
    requestPage({});
}

void ModelLister::cancel()
{
    release();
}

void ModelLister::requestPage(const QString &pageToken)
{
    const HttpCall call = m_protocol->encodeModelList(m_endpoint, pageToken);
    QNetworkRequest request(call.url);
    for (const auto &[name, value] : call.headers)
        request.setRawHeader(name, value);
    request.setRawHeader("Accept", "application/json");
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    ++m_pages;
    m_reply = m_network->get(request);
    connect(m_reply, &QNetworkReply::finished, this, &ModelLister::onFinished);
}

void ModelLister::onFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    m_reply = nullptr;
    reply->deleteLater();

    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    if (m_timedOut) {
        fail(tr("No answer from %1 within %2 s.")
                 .arg(reply->url().host())
                 .arg(m_deadline.interval() / 1000.0));
        return;
    }
    if (status == 0) {
        fail(tr("Could not reach %1: %2").arg(reply->url().host(), reply->errorString()));
        return;
    }
    if (status < 200 || status >= 300) {
        fail(describeHttpStatus(*m_protocol, status, body));
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (!document.isObject()) {
        fail(tr("The model list from %1 is not a JSON object: check the base URL.").arg(reply->url().host()));
        return;
    }
    auto page = m_protocol->decodeModelList(document.object());
    if (const QString *error = std::get_if<QString>(&page)) {
        fail(*error);
        return;
    }
    const ModelListPage &models = std::get<ModelListPage>(page);
    m_models.append(models.models);
    if (!models.nextPageToken.isEmpty() && m_pages < MaxPages) {
        requestPage(models.nextPageToken);
        return;
    }
    m_deadline.stop();
    m_models.removeDuplicates();
    emit listed(m_models);
}

void ModelLister::fail(const QString &message)
{
    m_deadline.stop();
    // Providers like to echo part of a rejected key back.
    SecretRedactor redactor;
    redactor.addSecret(m_endpoint.apiKey);
    emit failed(redactor.text(message));
}

void ModelLister::release()
{
    m_deadline.stop();
    if (QNetworkReply *reply = m_reply) {
        m_reply = nullptr;
        reply->disconnect(this);
        reply->abort();
        reply->deleteLater();
    }
}

} // namespace Loopscope
