#pragma once

#include "agent/model/responselimits.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>

namespace Loopscope {

/*!
    How JSON-RPC messages reach one MCP server: a child process over stdio or
    POSTs to a Streamable HTTP endpoint. The JSON-RPC layer above only sends
    and receives objects; what differs per transport (process exit, HTTP
    status, session ids) is reported through these signals.
*/
class McpTransport : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    // Starts the transport; for stdio the process. Failure comes as closed().
    virtual void open() = 0;
    // Sends one JSON-RPC message (request, notification or response).
    virtual void send(const QJsonObject &message) = 0;
    // The request with this id is no longer waited for (timed out or cancelled).
    virtual void abandon(qint64 requestId) { Q_UNUSED(requestId) }
    // Ends the connection gracefully and asynchronously; emits nothing more afterwards.
    virtual void shutdown() = 0;
    // The negotiated protocol version, for transports that put it on the wire.
    virtual void setProtocolVersion(const QString &version) { Q_UNUSED(version) }
    // Forgets a protocol session (HTTP), so the next message starts a new one.
    virtual void resetSession() {}
    // Runs \a done once the notifications already handed to send() have left (HTTP: their POSTs
    // are answered or failed); at once when none is on its way.
    virtual void whenSent(std::function<void()> done) { done(); }
    // The most one answer may hold; a request whose answer is larger fails at once.
    void setMaxResponseBytes(qint64 bytes) { m_maxResponseBytes = bytes; }
    qint64 maxResponseBytes() const { return m_maxResponseBytes; }

signals:
    void messageReceived(const QJsonObject &message);
    // A request got no JSON-RPC answer from the transport (HTTP only): its status and why, and the
    // JSON-RPC error object an HTTP error body carried (2026-07-28 answers a refusal with 400 and one).
    void requestFailed(qint64 requestId, int httpStatus, const QString &detail, bool sessionExpired,
                       const QJsonObject &bodyError);
    // The connection is gone: for stdio the process exited (exitCode) or could not start (startError).
    void closed(int exitCode, const QString &startError);
    // A line for the server's log: stderr, or stdout that was not JSON-RPC.
    void logLine(const QString &line);

protected:
    QString tooLargeText() const
    {
        return tr("the answer was larger than the response size limit of %1 MB (--max-response-mb)")
            .arg(double(m_maxResponseBytes) / ResponseLimits::MegaByte);
    }

    qint64 m_maxResponseBytes = ResponseLimits::DefaultMaxResponseBytes;
};

} // namespace Loopscope
