#include "agent/mcp/jsonrpcconnection.h"

#include "agent/mcp/mcptransport.h"

#include <QTimer>

using namespace Qt::StringLiterals;

namespace Loopscope {

JsonRpcConnection::JsonRpcConnection(McpTransport *transport, QObject *parent)
    : QObject(parent)
    , m_transport(transport)
{
    connect(transport, &McpTransport::messageReceived, this, &JsonRpcConnection::onMessage);
    connect(transport, &McpTransport::requestFailed, this, &JsonRpcConnection::onRequestFailed);
}

JsonRpcConnection::~JsonRpcConnection()
{
    for (const Pending &pending : std::as_const(m_pending))
        delete pending.timer;
}

qint64 JsonRpcConnection::request(const QString &method, const QJsonObject &params, int timeoutMs,
                                  ReplyCallback done, QJsonObject *sent)
{
    const qint64 id = m_nextId++;
    QJsonObject message{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"method"_s, method}};
    if (!params.isEmpty())
        message.insert(u"params"_s, params);
    Pending pending;
    pending.done = std::move(done);
    if (timeoutMs > 0) {
        pending.timer = new QTimer(this);
        pending.timer->setSingleShot(true);
        connect(pending.timer, &QTimer::timeout, this, [this, id, method, timeoutMs] {
            JsonRpcReply reply;
            reply.timedOut = true;
            reply.transportError = tr("no answer to %1 within %2 s").arg(method).arg(timeoutMs / 1000.0);
            if (m_transport)
                m_transport->abandon(id);
            finish(id, reply);
        });
        pending.timer->setInterval(timeoutMs);
        if (!m_holdingTimeouts)
            pending.timer->start();
    }
    m_pending.insert(id, std::move(pending));
    if (sent)
        *sent = message;
    sendMessage(message);
    return id;
}

void JsonRpcConnection::holdTimeouts(bool hold)
{
    m_holdingTimeouts = hold;
    for (const Pending &pending : std::as_const(m_pending)) {
        if (!pending.timer)
            continue;
        if (hold)
            pending.timer->stop();
        else
            pending.timer->start();
    }
}

void JsonRpcConnection::notify(const QString &method, const QJsonObject &params)
{
    QJsonObject message{{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, method}};
    if (!params.isEmpty())
        message.insert(u"params"_s, params);
    sendMessage(message);
}

void JsonRpcConnection::respond(const QJsonValue &id, const QJsonObject &result)
{
    sendMessage({{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}});
}

void JsonRpcConnection::respondError(const QJsonValue &id, int code, const QString &message)
{
    sendMessage({{u"jsonrpc"_s, u"2.0"_s},
                 {u"id"_s, id},
                 {u"error"_s, QJsonObject{{u"code"_s, code}, {u"message"_s, message}}}});
}

void JsonRpcConnection::forget(qint64 id)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    delete it->timer;
    m_pending.erase(it);
}

void JsonRpcConnection::failAll(const QString &reason)
{
    const QList<qint64> ids = m_pending.keys();
    for (qint64 id : ids) {
        JsonRpcReply reply;
        reply.transportError = reason;
        reply.connectionClosed = true;
        finish(id, reply);
    }
}

void JsonRpcConnection::sendMessage(const QJsonObject &message)
{
    emit messageLogged(true, message);
    if (m_transport)
        m_transport->send(message);
}

void JsonRpcConnection::onMessage(const QJsonObject &message)
{
    emit messageLogged(false, message);
    const QString method = message.value(u"method"_s).toString();
    const bool hasId = message.contains(u"id"_s) && !message.value(u"id"_s).isNull();
    if (!method.isEmpty()) {
        const QJsonObject params = message.value(u"params"_s).toObject();
        if (hasId)
            emit requestReceived(message.value(u"id"_s), method, params);
        else
            emit notificationReceived(method, params);
        return;
    }
    if (!hasId)
        return; // an error without id: nothing to match it to
    const QJsonValue idValue = message.value(u"id"_s);
    const qint64 id = idValue.isString() ? idValue.toString().toLongLong() : idValue.toInteger(-1);
    if (!m_pending.contains(id))
        return; // late, cancelled or unknown
    JsonRpcReply reply;
    reply.response = message;
    finish(id, reply);
}

void JsonRpcConnection::onRequestFailed(qint64 id, int httpStatus, const QString &detail, bool sessionExpired,
                                        const QJsonObject &bodyError)
{
    if (!m_pending.contains(id))
        return;
    JsonRpcReply reply;
    reply.httpStatus = httpStatus;
    reply.transportError = detail;
    reply.sessionExpired = sessionExpired;
    reply.bodyError = bodyError;
    finish(id, reply);
}

void JsonRpcConnection::finish(qint64 id, const JsonRpcReply &reply)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;
    Pending pending = std::move(*it);
    m_pending.erase(it);
    if (pending.timer)
        pending.timer->deleteLater();
    if (pending.done)
        pending.done(reply);
}

} // namespace Loopscope
