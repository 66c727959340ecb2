#include "agent/mcp/httptransport.h"

#include "agent/mcp/mcpauthorizer.h"
#include "agent/providers/readahead.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// How much of an answer Qt's HTTP thread may read ahead of the transport.
constexpr qint64 ReadAheadBytes = 1024 * 1024;

bool isAsciiHeaderValue(const QString &value)
{
    for (QChar c : value) {
        if (c.unicode() < 0x20 || c.unicode() > 0x7e)
            return false;
    }
    return true;
}

} // namespace

HttpTransport::HttpTransport(QNetworkAccessManager *network, QUrl url, QMap<QString, QString> headers,
                             QObject *parent)
    : McpTransport(parent)
    , m_network(network)
    , m_url(std::move(url))
    , m_headers(std::move(headers))
{
    Q_ASSERT(m_network);
}

HttpTransport::~HttpTransport()
{
    shutdown();
}

void HttpTransport::open()
{
    // Nothing to start: the first POST opens the conversation.
}

void HttpTransport::send(const QJsonObject &message)
{
    post(message, 0);
}

void HttpTransport::addHeaders(QNetworkRequest &request) const
{
    for (auto it = m_headers.cbegin(); it != m_headers.cend(); ++it)
        request.setRawHeader(it.key().toUtf8(), it.value().toUtf8());
    // A configured Authorization header wins over a sign-in.
    if (!hasConfiguredAuthorization() && m_authorizer && m_authorizer->isSignedIn())
        request.setRawHeader("Authorization", "Bearer " + m_authorizer->accessToken().toUtf8());
}

bool HttpTransport::hasConfiguredAuthorization() const
{
    const QStringList names = m_headers.keys();
    return names.contains(u"Authorization"_s, Qt::CaseInsensitive);
}

void HttpTransport::post(const QJsonObject &message, int authorizationAttempts)
{
    if (m_shutDown)
        return;
    QNetworkRequest request(m_url);
    addHeaders(request);
    request.setHeader(QNetworkRequest::ContentTypeHeader, u"application/json"_s);
    request.setRawHeader("Accept", "application/json, text/event-stream");
    if (!m_sessionId.isEmpty())
        request.setRawHeader("Mcp-Session-Id", m_sessionId.toUtf8());
    if (!m_protocolVersion.isEmpty())
        request.setRawHeader("MCP-Protocol-Version", m_protocolVersion.toUtf8());
    const QString method = message.value(u"method"_s).toString();
    const bool isRequest = !method.isEmpty() && message.contains(u"id"_s);
    if (isRequest) {
        request.setRawHeader("Mcp-Method", method.toUtf8());
        const QJsonObject params = message.value(u"params"_s).toObject();
        QString name;
        if (method == u"tools/call"_s || method == u"prompts/get"_s)
            name = params.value(u"name"_s).toString();
        else if (method == u"resources/read"_s)
            name = params.value(u"uri"_s).toString();
        else if (method.startsWith(u"tasks/"_s)) // the tasks extension routes by the task
            name = params.value(u"taskId"_s).toString();
        if (!name.isEmpty()) {
            const QByteArray value
                = isAsciiHeaderValue(name) ? name.toUtf8() : "=?base64?" + name.toUtf8().toBase64() + "?=";
            request.setRawHeader("Mcp-Name", value);
        }
    }
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);

    QNetworkReply *reply = m_network->post(request, QJsonDocument(message).toJson(QJsonDocument::Compact));
    limitReadAhead(reply, ReadAheadBytes); // flow control: unread bytes wait in the socket, not in memory
    if (!isRequest) {
        // A notification or a response: its answer says nothing, but it must leave, also when the
        // transport shuts down right after (a cancellation on Ctrl+C). It cleans up after itself.
        ++m_notificationsInFlight;
        connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
        connect(reply, &QNetworkReply::finished, this, &HttpTransport::onNotificationSent);
        if (method == u"notifications/initialized"_s)
            listen();
        return;
    }
    auto exchange = std::make_shared<Exchange>();
    exchange->reply = reply;
    exchange->usedSession = !m_sessionId.isEmpty();
    exchange->requestId = message.value(u"id"_s).toInteger();
    exchange->message = message;
    exchange->authorizationAttempts = authorizationAttempts;
    m_exchanges.insert(reply, exchange);
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
}

void HttpTransport::onNotificationSent()
{
    if (--m_notificationsInFlight > 0)
        return;
    m_notificationsInFlight = 0;
    const auto waiters = std::exchange(m_sentWaiters, {});
    for (const auto &waiter : waiters)
        waiter();
}

void HttpTransport::whenSent(std::function<void()> done)
{
    if (m_notificationsInFlight == 0)
        done();
    else
        m_sentWaiters.append(std::move(done));
}

void HttpTransport::listen()
{
    if (m_listening || m_shutDown || m_sessionId.isEmpty())
        return;
    m_listening = true;
    QNetworkRequest request(m_url);
    addHeaders(request);
    request.setRawHeader("Accept", "text/event-stream");
    request.setRawHeader("Mcp-Session-Id", m_sessionId.toUtf8());
    if (!m_protocolVersion.isEmpty())
        request.setRawHeader("MCP-Protocol-Version", m_protocolVersion.toUtf8());
    // No transfer timeout: the stream stays open for as long as the session.
    request.setTransferTimeout(0);
    QNetworkReply *reply = m_network->get(request);
    limitReadAhead(reply, ReadAheadBytes);
    auto exchange = std::make_shared<Exchange>();
    exchange->reply = reply;
    exchange->usedSession = true;
    exchange->listening = true;
    m_exchanges.insert(reply, exchange);
    connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
    connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
}

void HttpTransport::abandon(qint64 requestId)
{
    m_waitingToResend.remove(requestId);
    for (auto it = m_exchanges.begin(); it != m_exchanges.end(); ++it) {
        if ((*it)->requestId == requestId) {
            QNetworkReply *reply = (*it)->reply;
            m_exchanges.erase(it);
            reply->disconnect(this);
            reply->abort();
            reply->deleteLater();
            return;
        }
    }
}

void HttpTransport::resetSession()
{
    m_sessionId.clear();
    // The old session's stream ends with it; the next session opens its own.
    for (auto it = m_exchanges.begin(); it != m_exchanges.end(); ++it) {
        if ((*it)->listening) {
            QNetworkReply *reply = (*it)->reply;
            m_exchanges.erase(it);
            reply->disconnect(this);
            reply->abort();
            reply->deleteLater();
            break;
        }
    }
    m_listening = false;
}

void HttpTransport::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    const auto exchanges = m_exchanges;
    m_exchanges.clear();
    for (const auto &exchange : exchanges) {
        exchange->reply->disconnect(this);
        exchange->reply->abort();
        exchange->reply->deleteLater();
    }
    sendDelete();
}

void HttpTransport::sendDelete()
{
    if (m_sessionId.isEmpty())
        return;
    QNetworkRequest request(m_url);
    addHeaders(request);
    request.setRawHeader("Mcp-Session-Id", m_sessionId.toUtf8());
    if (!m_protocolVersion.isEmpty())
        request.setRawHeader("MCP-Protocol-Version", m_protocolVersion.toUtf8());
    // Fire and forget: the reply cleans up after itself, also when this transport is gone.
    QNetworkReply *reply = m_network->deleteResource(request);
    connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
    m_sessionId.clear();
}

void HttpTransport::readHeaders(Exchange &exchange)
{
    if (exchange.headersSeen)
        return;
    exchange.headersSeen = true;
    const QByteArray session = exchange.reply->rawHeader("Mcp-Session-Id");
    if (!session.isEmpty())
        m_sessionId = QString::fromUtf8(session);
    const QString contentType = exchange.reply->header(QNetworkRequest::ContentTypeHeader).toString();
    exchange.isStream = contentType.startsWith(u"text/event-stream"_s, Qt::CaseInsensitive);
    if (exchange.isStream)
        exchange.parser = std::make_unique<SseParser>();
}

void HttpTransport::onReadyRead(QNetworkReply *reply)
{
    const std::shared_ptr<Exchange> exchange = m_exchanges.value(reply);
    if (!exchange)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    // Read as it comes, whatever it is: what waits in the reply is memory too.
    const QByteArray bytes = reply->readAll();
    if (!keep(*exchange, bytes, status)) {
        failTooLarge(reply);
        return;
    }
    if (status < 200 || status >= 300 || !exchange->isStream)
        return; // judged at the end
    exchange->parser->feed(bytes);
    const QList<SseEvent> events = exchange->parser->takeEvents();
    for (const SseEvent &event : events) {
        if (!event.id.isEmpty())
            exchange->lastEventId = event.id; // where a resumed stream picks up
        if (event.type != u"message"_s || event.data.isEmpty())
            continue;
        if (exchange->listening)
            exchange->received = 0; // the session-long stream is limited per message
        deliverPayload(*exchange, event.data.toUtf8());
        // A delivered message may have led to abandon() or shutdown().
        if (!m_exchanges.contains(reply))
            return;
        if (exchange->answered && exchange->resumptions > 0) {
            // A resumed stream is the request's: once answered, nothing more is waited for on it.
            m_exchanges.remove(reply);
            reply->disconnect(this);
            reply->abort();
            reply->deleteLater();
            return;
        }
    }
}

bool HttpTransport::keep(Exchange &exchange, const QByteArray &bytes, int status)
{
    exchange.received += bytes.size();
    if (exchange.received > m_maxResponseBytes)
        return false;
    if (status < 200 || status >= 300) {
        // A prefix says what went wrong; the rest would only cost memory.
        exchange.body += QByteArrayView(bytes).first(
            std::min(bytes.size(), std::max<qsizetype>(0, MaxErrorBodyBytes - exchange.body.size())));
        return true;
    }
    readHeaders(exchange);
    if (!exchange.isStream)
        exchange.body += bytes;
    return true;
}

void HttpTransport::failTooLarge(QNetworkReply *reply)
{
    const std::shared_ptr<Exchange> exchange = m_exchanges.take(reply);
    reply->disconnect(this);
    reply->abort();
    reply->deleteLater();
    if (exchange->listening)
        m_listening = false;
    emit logLine(u"[HTTP] "_s + tooLargeText());
    if (exchange->requestId && !exchange->answered && !m_shutDown)
        emit requestFailed(*exchange->requestId, 0, tooLargeText(), false, {});
}

void HttpTransport::onFinished(QNetworkReply *reply)
{
    if (!m_exchanges.contains(reply))
        return;
    onReadyRead(reply);
    const std::shared_ptr<Exchange> owned = m_exchanges.take(reply);
    if (!owned)
        return;
    Exchange &exchange = *owned;
    reply->disconnect(this);
    reply->deleteLater();
    if (exchange.listening)
        m_listening = false; // not opened again: a server that ends it has nothing more to send there

    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray rest = std::exchange(exchange.body, {});
    if (status >= 200 && status < 300) {
        readHeaders(exchange);
        if (exchange.isStream) {
            exchange.parser->finish();
            for (const SseEvent &event : exchange.parser->takeEvents()) {
                if (!event.id.isEmpty())
                    exchange.lastEventId = event.id;
                if (event.type == u"message"_s && !event.data.isEmpty())
                    deliverPayload(exchange, event.data.toUtf8());
            }
        } else if (!rest.trimmed().isEmpty()) {
            deliverPayload(exchange, rest);
        }
    }
    if (!exchange.requestId || exchange.answered || m_shutDown)
        return;
    if ((status == 401 || status == 403) && authorizeAndResend(exchange, status))
        return;
    if (status >= 200 && status < 300 && exchange.isStream && !exchange.lastEventId.isEmpty()
        && exchange.resumptions < MaxResumptions) {
        resume(exchange);
        return;
    }

    QString detail;
    QJsonObject bodyError;
    if (status == 0)
        detail = reply->errorString();
    else if (status >= 200 && status < 300)
        detail = tr("the response ended without an answer to the request");
    else {
        detail = tr("HTTP %1").arg(status);
        bodyError = QJsonDocument::fromJson(rest).object().value(u"error"_s).toObject();
        if (!bodyError.isEmpty())
            detail += u": "_s + jsonRpcErrorText(bodyError);
    }
    emit requestFailed(*exchange.requestId, status, detail, status == 404 && exchange.usedSession, bodyError);
}

void HttpTransport::resume(const Exchange &ended)
{
    // The stream ended before the answer (SEP-1699): after the server's retry: time, a GET with
    // Last-Event-ID picks it up where it stopped.
    const qint64 requestId = *ended.requestId;
    m_waitingToResend.insert(requestId);
    const int delay = ended.parser && ended.parser->retryMs() ? *ended.parser->retryMs() : DefaultRetryMs;
    QTimer::singleShot(
        delay, this,
        [this, requestId, lastEventId = ended.lastEventId, resumptions = ended.resumptions + 1,
         message = ended.message] {
            if (!m_waitingToResend.remove(requestId) || m_shutDown)
                return;
            QNetworkRequest request(m_url);
            addHeaders(request);
            request.setRawHeader("Accept", "text/event-stream");
            request.setRawHeader("Last-Event-ID", lastEventId.toUtf8());
            if (!m_sessionId.isEmpty())
                request.setRawHeader("Mcp-Session-Id", m_sessionId.toUtf8());
            if (!m_protocolVersion.isEmpty())
                request.setRawHeader("MCP-Protocol-Version", m_protocolVersion.toUtf8());
            QNetworkReply *reply = m_network->get(request);
            limitReadAhead(reply, ReadAheadBytes);
            auto exchange = std::make_shared<Exchange>();
            exchange->reply = reply;
            exchange->usedSession = !m_sessionId.isEmpty();
            exchange->requestId = requestId;
            exchange->message = message;
            exchange->resumptions = resumptions;
            exchange->lastEventId = lastEventId;
            m_exchanges.insert(reply, exchange);
            connect(reply, &QNetworkReply::readyRead, this, [this, reply] { onReadyRead(reply); });
            connect(reply, &QNetworkReply::finished, this, [this, reply] { onFinished(reply); });
        });
}

bool HttpTransport::authorizeAndResend(Exchange &exchange, int status)
{
    if (!m_authorizer || hasConfiguredAuthorization())
        return false;
    const QByteArray challenge = exchange.reply->rawHeader("WWW-Authenticate");
    if (status == 403 && McpAuthChallenge::parse(challenge).error != "insufficient_scope"_L1)
        return false;
    if (exchange.authorizationAttempts >= MaxAuthorizationAttempts) {
        emit logLine(u"[OAuth] "_s
                     + tr("HTTP %1 again after %2 sign-ins: giving up on this request")
                           .arg(status)
                           .arg(MaxAuthorizationAttempts));
        return false;
    }
    const qint64 requestId = *exchange.requestId;
    const QJsonObject message = exchange.message;
    const int attempts = exchange.authorizationAttempts + 1;
    m_waitingToResend.insert(requestId);
    m_authorizer->authorize(
        status, challenge,
        [this, guard = QPointer(this), requestId, message, attempts, status](const QString &error) {
            if (!guard || !m_waitingToResend.remove(requestId) || m_shutDown)
                return; // abandoned or shut down meanwhile
            if (error.isEmpty())
                post(message, attempts);
            else
                emit requestFailed(requestId, status, error, false, {});
        });
    return true;
}

void HttpTransport::deliverPayload(Exchange &exchange, const QByteArray &json)
{
    const QJsonDocument document = QJsonDocument::fromJson(json);
    if (document.isObject()) {
        deliver(exchange, document.object());
    } else if (document.isArray()) {
        for (const QJsonValue &value : document.array())
            deliver(exchange, value.toObject());
    } else {
        emit logLine(u"[HTTP, not JSON-RPC] "_s + QString::fromUtf8(json.left(2000)));
    }
}

void HttpTransport::deliver(Exchange &exchange, const QJsonObject &message)
{
    if (message.value(u"jsonrpc"_s).toString() != u"2.0"_s) {
        emit logLine(u"[HTTP, not JSON-RPC] "_s
                     + QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact).left(2000)));
        return;
    }
    if (exchange.requestId && !message.contains(u"method"_s)
        && message.value(u"id"_s).toInteger(-1) == *exchange.requestId)
        exchange.answered = true;
    emit messageReceived(message);
}

QString HttpTransport::jsonRpcErrorText(const QJsonObject &error)
{
    return u"%1 (%2)"_s.arg(error.value(u"message"_s).toString()).arg(error.value(u"code"_s).toInt());
}

} // namespace Loopscope
