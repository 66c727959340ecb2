#include "agent/providers/contextwindowlookup.h"

#include "agent/providers/providerfactory.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {
// Off unless asked for (QT_LOGGING_RULES="loopscope.contextwindow.debug=true"): a failed lookup
// changes nothing the user must act on.
Q_LOGGING_CATEGORY(lcContextWindow, "loopscope.contextwindow", QtInfoMsg)
} // namespace

ContextWindowLookup::ContextWindowLookup(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_network(network)
{
    Q_ASSERT(network);
}

ContextWindowLookup::~ContextWindowLookup()
{
    for (const QPointer<QNetworkReply> &reply : std::as_const(m_pending)) {
        if (reply) {
            reply->disconnect(this);
            reply->abort();
            reply->deleteLater();
        }
    }
}

bool ContextWindowLookup::canAsk(ProviderKind kind)
{
    return createProviderProtocol(kind)->encodeModelInfo({}, u"model"_s).has_value();
}

QString ContextWindowLookup::keyOf(ProviderKind kind, const QUrl &baseUrl, const QString &model)
{
    // A trailing slash names the same server.
    QString url = baseUrl.toString();
    while (url.endsWith(u'/'))
        url.chop(1);
    return providerKindName(kind) + u'\n' + url + u'\n' + model.trimmed();
}

void ContextWindowLookup::lookUp(ProviderKind kind, const ProviderEndpoint &endpoint, const QString &model)
{
    const QString key = keyOf(kind, endpoint.baseUrl, model);
    if (model.trimmed().isEmpty() || m_answers.contains(key) || m_pending.contains(key))
        return;
    const std::unique_ptr<ProviderProtocol> protocol = createProviderProtocol(kind);
    const std::optional<HttpCall> call = protocol->encodeModelInfo(endpoint, model.trimmed());
    if (!call)
        return;
    QNetworkRequest request(call->url);
    for (const auto &[name, value] : call->headers)
        request.setRawHeader(name, value);
    request.setRawHeader("Accept", "application/json");
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    // Also bounds a server that accepts the connection and then says nothing.
    request.setTransferTimeout(m_timeoutMs);
    QNetworkReply *reply = nullptr;
    if (call->body.isEmpty()) {
        reply = m_network->get(request);
    } else {
        request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
        reply = m_network->post(request, QJsonDocument(call->body).toJson(QJsonDocument::Compact));
    }
    m_pending.insert(key, reply);
    connect(reply, &QNetworkReply::finished, this,
            [this, key, kind, reply] { onFinished(key, kind, reply); });
}

bool ContextWindowLookup::isPending(ProviderKind kind, const QUrl &baseUrl, const QString &model) const
{
    return m_pending.contains(keyOf(kind, baseUrl, model));
}

std::optional<ModelContextInfo> ContextWindowLookup::answer(ProviderKind kind, const QUrl &baseUrl,
                                                            const QString &model) const
{
    return m_answers.value(keyOf(kind, baseUrl, model));
}

void ContextWindowLookup::onFinished(const QString &key, ProviderKind kind, QNetworkReply *reply)
{
    m_pending.remove(key);
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    std::optional<ModelContextInfo> info;
    if (reply->error() != QNetworkReply::NoError && status == 0) {
        // The URL only: a key never travels in it, and its text is all the log needs.
        qCDebug(lcContextWindow, "No context window from %s: %s", qUtf8Printable(reply->url().toString()),
                qUtf8Printable(reply->errorString()));
    } else if (status < 200 || status >= 300) {
        qCDebug(lcContextWindow, "No context window from %s: HTTP %d",
                qUtf8Printable(reply->url().toString()), status);
    } else {
        const QJsonDocument document = QJsonDocument::fromJson(reply->readAll());
        const ModelContextInfo decoded = createProviderProtocol(kind)->decodeModelInfo(document.object());
        if (decoded.contextLength || decoded.configuredWindow)
            info = decoded;
        else
            qCDebug(lcContextWindow, "%s says nothing about the context window",
                    qUtf8Printable(reply->url().toString()));
    }
    m_answers.insert(key, info);
    emit settled();
}

std::optional<qint64> ContextWindowChoice::choose(ProviderKind kind, std::optional<qint64> override,
                                                  const std::optional<ModelContextInfo> &provider,
                                                  std::optional<qint64> table)
{
    if (override && *override > 0)
        return override;
    if (kind != ProviderKind::Ollama) {
        if (provider && provider->contextLength)
            return provider->contextLength;
        return table;
    }
    if (provider && provider->configuredWindow) {
        const qint64 configured = *provider->configuredWindow;
        return provider->contextLength ? std::min(configured, *provider->contextLength) : configured;
    }
    const std::optional<qint64> known = provider && provider->contextLength ? provider->contextLength : table;
    if (!known)
        return std::nullopt;
    return std::min(*known, OllamaWindowCap);
}

} // namespace Loopscope
