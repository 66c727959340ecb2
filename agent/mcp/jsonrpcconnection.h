#pragma once

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QObject>
#include <QPointer>

#include <functional>

QT_BEGIN_NAMESPACE
class QTimer;
QT_END_NAMESPACE

namespace Loopscope {

class McpTransport;

/*! How one JSON-RPC request ended: the server's response, or why there is none. */
struct JsonRpcReply
{
    QJsonObject response;   // the response message as received; empty without one
    QString transportError; // set when no response came: a timeout, a closed connection, an HTTP failure
    bool timedOut = false;
    int httpStatus = 0;
    bool sessionExpired = false;   // HTTP 404 on a request that carried a session id
    bool connectionClosed = false; // failAll(): transportError is the sentence to show
    QJsonObject bodyError;         // the JSON-RPC error an HTTP error body carried, if any

    bool hasResponse() const { return !response.isEmpty(); }
    bool isError() const { return response.contains(QLatin1String("error")); }
    QJsonObject result() const { return response.value(QLatin1String("result")).toObject(); }
    QJsonObject error() const { return response.value(QLatin1String("error")).toObject(); }
};

/*!
    JSON-RPC 2.0 over one McpTransport: numbers requests, matches responses
    by id, gives each request its own timeout, and hands the server's own
    requests and notifications to whoever answers them. Every pending
    request's callback runs exactly once: with the response, a timeout, or
    the reason the connection ended (failAll()).
*/
class JsonRpcConnection final : public QObject
{
    Q_OBJECT

public:
    using ReplyCallback = std::function<void(const JsonRpcReply &)>;

    explicit JsonRpcConnection(McpTransport *transport, QObject *parent = nullptr);
    ~JsonRpcConnection() override;

    McpTransport *transport() const { return m_transport; }

    // Sends a request and returns its id; `sent` receives the message as sent.
    qint64 request(const QString &method, const QJsonObject &params, int timeoutMs, ReplyCallback done,
                   QJsonObject *sent = nullptr);
    void notify(const QString &method, const QJsonObject &params = {});
    void respond(const QJsonValue &id, const QJsonObject &result);
    void respondError(const QJsonValue &id, int code, const QString &message);

    // Stops waiting for a request without calling its callback; a late answer is ignored.
    void forget(qint64 id);
    // Ends every pending request with this reason.
    void failAll(const QString &reason);
    bool isPending(qint64 id) const { return m_pending.contains(id); }
    // While held, no request times out (a person is signing in); released, each waits its full time again.
    void holdTimeouts(bool hold);

signals:
    void notificationReceived(const QString &method, const QJsonObject &params);
    void requestReceived(const QJsonValue &id, const QString &method, const QJsonObject &params);
    void messageLogged(bool outgoing, const QJsonObject &message);

private:
    struct Pending
    {
        ReplyCallback done;
        QTimer *timer = nullptr;
    };

    void sendMessage(const QJsonObject &message);
    void onMessage(const QJsonObject &message);
    void onRequestFailed(qint64 id, int httpStatus, const QString &detail, bool sessionExpired,
                         const QJsonObject &bodyError);
    void finish(qint64 id, const JsonRpcReply &reply);

    QPointer<McpTransport> m_transport;
    qint64 m_nextId = 1;
    QHash<qint64, Pending> m_pending;
    bool m_holdingTimeouts = false;
};

} // namespace Loopscope
