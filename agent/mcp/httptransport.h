#pragma once

#include "agent/mcp/mcpauthorizer.h"
#include "agent/mcp/mcptransport.h"
#include "agent/wire/sseparser.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QPointer>
#include <QSet>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;
QT_END_NAMESPACE

namespace Loopscope {

/*!
    An MCP server behind a Streamable HTTP endpoint: every message is a POST
    whose answer is JSON or an SSE stream that may carry the server's own
    requests and notifications before the response. Once a session is
    initialised it also listens on a GET stream for the requests the server
    sends outside any POST (an elicitation from a tool, say); a server without
    one answers 405 and nothing changes. It keeps the session id
    and protocol version headers, mirrors the method and name into headers
    as 2026-07-28 asks, resumes a response stream that ends before its answer
    (a GET with Last-Event-ID after the server's retry: time), and turns HTTP failures into a per-request
   report so the client can tell an expired session (404) from a refusal (401/403). Header values never appear
   in anything it reports. With an authorizer, a 401 (or a 403 for insufficient scope) starts a sign-in and
   the request is sent again with the token, at most MaxAuthorizationAttempts times.
*/
class HttpTransport final : public McpTransport
{
    Q_OBJECT

public:
    HttpTransport(QNetworkAccessManager *network, QUrl url, QMap<QString, QString> headers,
                  QObject *parent = nullptr);
    ~HttpTransport() override;

    void open() override;
    void send(const QJsonObject &message) override;
    void abandon(qint64 requestId) override;
    void shutdown() override;
    void setProtocolVersion(const QString &version) override { m_protocolVersion = version; }
    void resetSession() override;
    void whenSent(std::function<void()> done) override;

    QString sessionId() const { return m_sessionId; }
    // Who signs in when the server asks for OAuth; not owned, may be null (a 401 is then reported).
    void setAuthorizer(McpAuthorizer *authorizer) { m_authorizer = authorizer; }

    static constexpr int MaxAuthorizationAttempts = 3;
    // How often a stream that ended before its answer is resumed (GET with Last-Event-ID), and how
    // long to wait when the server named no retry: time.
    static constexpr int MaxResumptions = 3;
    static constexpr int DefaultRetryMs = 1000;

private:
    struct Exchange
    {
        QNetworkReply *reply = nullptr;
        std::optional<qint64> requestId; // the request this POST carries; none for notifications/responses
        bool answered = false;
        bool usedSession = false;
        bool isStream = false;
        bool listening = false; // the GET stream for messages outside any POST
        bool headersSeen = false;
        std::unique_ptr<SseParser> parser;
        QByteArray body;     // a JSON answer, or the start of an error body
        qint64 received = 0; // of this answer; of the listening stream, since its last message
        QJsonObject message; // the request, to send again after a sign-in
        int authorizationAttempts = 0;
        QString lastEventId; // of this stream, for resuming it
        int resumptions = 0;
    };

    void post(const QJsonObject &message, int authorizationAttempts);
    void addHeaders(QNetworkRequest &request) const;
    bool hasConfiguredAuthorization() const;
    bool authorizeAndResend(Exchange &exchange, int status);
    void resume(const Exchange &ended);

    void onReadyRead(QNetworkReply *reply);
    void onFinished(QNetworkReply *reply);
    void onNotificationSent();
    bool keep(Exchange &exchange, const QByteArray &bytes, int status);
    void failTooLarge(QNetworkReply *reply);
    void readHeaders(Exchange &exchange);
    void deliverPayload(Exchange &exchange, const QByteArray &json);
    void deliver(Exchange &exchange, const QJsonObject &message);
    void sendDelete();
    void listen();
    static QString jsonRpcErrorText(const QJsonObject &error);

    static constexpr qsizetype MaxErrorBodyBytes = 64 * 1024;

    QNetworkAccessManager *m_network = nullptr;
    QUrl m_url;
    QMap<QString, QString> m_headers;
    QPointer<McpAuthorizer> m_authorizer;
    QString m_sessionId;
    QString m_protocolVersion;
    QHash<QNetworkReply *, std::shared_ptr<Exchange>> m_exchanges;
    QSet<qint64> m_waitingToResend; // requests waiting for a sign-in or a retry: time
    bool m_shutDown = false;
    bool m_listening = false;
    // POSTs of notifications and responses still on their way, and who waits for them.
    int m_notificationsInFlight = 0;
    QList<std::function<void()>> m_sentWaiters;
};

} // namespace Loopscope
