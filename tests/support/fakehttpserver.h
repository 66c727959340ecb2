#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QUrl>
#include <QUrlQuery>

#include <functional>
#include <utility>

QT_BEGIN_NAMESPACE
class QTcpServer;
class QTimer;
QT_END_NAMESPACE

namespace Loopscope {

namespace Internal {
class HttpConnection;
} // namespace Internal

using HttpHeaders = QList<std::pair<QByteArray, QByteArray>>;

/*!
    One HTTP request exactly as the fake server received it, so a test can
    assert what a provider adapter put on the wire (method, target, headers,
    body) without trusting the adapter's own view of it.
*/
struct HttpRequestRecord
{
    QByteArray method;
    QByteArray target; // path and query as sent, still percent-encoded
    QByteArray path;   // target without the query, still percent-encoded
    QUrlQuery query;
    HttpHeaders headers; // in arrival order, names as sent
    QByteArray body;     // de-chunked when the request was sent chunked

    // Case-insensitive; repeated headers are joined with ", ". Empty when absent.
    QByteArray header(QByteArrayView name) const;
    bool hasHeader(QByteArrayView name) const;
    // The body parsed as a JSON object; empty when it is not one.
    QJsonObject json() const;
    // The content parts of the last message of an OpenAI chat request (an array); empty otherwise.
    QJsonArray lastMessageParts() const;

    bool operator==(const HttpRequestRecord &other) const = default;
};

/*!
    The response to one request, handed to the server's handler. Tests script
    a response (complete, streamed piece by piece, or failing in a chosen way)
    by calling its functions; every call is queued and played in call order,
    each piece after its own delay and flushed on its own, so a client sees
    the stream split exactly where the test split it.

    The exchange is owned by the FakeHttpServer and lives as long as it does,
    so a handler may keep the reference (or a QPointer) and answer later from a
    timer. Once the client has gone, every call is a silent no-op.
*/
class HttpExchange final : public QObject
{
    Q_OBJECT

public:
    ~HttpExchange() override;

    const HttpRequestRecord &request() const { return m_request; }
    int requestIndex() const { return m_requestIndex; }
    // Whether the connection that carried the request is still open.
    bool isClientConnected() const;
    // Whether every queued action has been played (or dropped because the client left).
    bool isDone() const;

    // A complete response; Content-Length is added unless given in headers.
    void respond(int status, const HttpHeaders &headers = {}, const QByteArray &body = {});
    void respondJson(int status, const QJsonObject &json, const HttpHeaders &headers = {});

    // Starts a response whose body follows through send(): chunked, unless the
    // headers carry a Content-Length, in which case pieces are written raw.
    void beginStream(int status, const HttpHeaders &headers = {});
    // One piece of the body, written delayMs after the previous action, as its own chunk.
    void send(const QByteArray &data, int delayMs = 0);
    // Splits data at the given byte positions and sends each piece after delayMs.
    void sendSplit(const QByteArray &data, const QList<int> &cutPositions, int delayMs = 0);
    // Sends data again and again, each piece delayMs after the previous one, for as long as the
    // client stays: an endless body (no delay) or a trickle (a byte every few seconds). Writing waits
    // while the client has not taken what was written, so the server's memory stays flat.
    void sendForever(const QByteArray &data, int delayMs = 0);
    // Writes the terminating chunk and completes the response.
    void end(int delayMs = 0);

    // Aborts the connection with a TCP reset (before or after the headers).
    void resetConnection(int delayMs = 0);
    // Closes the connection cleanly after what was sent, without completing the response.
    void closeMidStream(int delayMs = 0);
    // Sends nothing more but keeps the connection open, so client timeouts fire.
    void stall();

signals:
    // Every queued action has been played, or the client went away.
    void done();

private:
    friend class Internal::HttpConnection;

    enum class Phase { Idle, Streaming, Finished };
    struct Action
    {
        enum class Kind { Write, Repeat, Complete, Reset, Close };
        Kind kind = Kind::Write;
        QByteArray bytes;
        int delayMs = 0;
    };

    HttpExchange(HttpRequestRecord request, int requestIndex, bool closeAfter,
                 Internal::HttpConnection *connection, QObject *parent);

    bool canAct(const char *function, bool allowedNow) const;
    void closeAfterIfAsked(HttpHeaders &headers);
    void enqueue(Action action);
    void playNext();
    void markDone();
    void detach();

    HttpRequestRecord m_request;
    int m_requestIndex = -1;
    QPointer<Internal::HttpConnection> m_connection;
    QTimer *m_timer = nullptr;
    QList<Action> m_actions;
    Phase m_phase = Phase::Idle;
    bool m_closeAfter = false; // the connection closes once this response is complete
    bool m_rawStream = false;
    bool m_headOnly = false;
    bool m_doneEmitted = false;
};

/*!
    A real HTTP/1.1 server on 127.0.0.1 for tests and benchmarks, so provider
    adapters are exercised through QNetworkAccessManager over actual TCP:
    keep-alive, chunked streams split at awkward bytes, stalls, resets and cut
    streams. It records every request and lets a handler script each response
    through an HttpExchange. Loopback only; it never listens elsewhere.
*/
class FakeHttpServer final : public QObject
{
    Q_OBJECT

public:
    using Handler = std::function<void(const HttpRequestRecord &, HttpExchange &)>;

    explicit FakeHttpServer(QObject *parent = nullptr);
    ~FakeHttpServer() override;

    // Listens on 127.0.0.1 with a port chosen by the OS.
    bool listen();
    bool isListening() const;
    quint16 port() const;
    QUrl baseUrl() const; // http://127.0.0.1:PORT

    // Called once per request, in order per connection. Without a handler every request gets a 404.
    void setHandler(Handler handler) { m_handler = std::move(handler); }
    // The handler set last, e.g. to answer some requests and pass the others on.
    Handler handler() const { return m_handler; }

    QList<HttpRequestRecord> requests() const { return m_requests; }
    // Connections accepted since construction; keep-alive reuse keeps this at 1.
    int connectionCount() const { return m_connectionCount; }
    int openConnectionCount() const { return int(m_connections.size()); }
    // Requests rejected as malformed (answered 400 and closed).
    int malformedRequestCount() const { return m_malformedCount; }

    // An SSE event: "event: <event>\n" (when given), one "data: " line per line of data, then a blank line.
    static QByteArray sseEvent(const QByteArray &data, const QByteArray &event = {});

signals:
    void requestReceived(int index);

private:
    friend class Internal::HttpConnection;

    void acceptConnections();
    int recordRequest(const HttpRequestRecord &request);
    void handle(HttpExchange &exchange);
    void forgetConnection(Internal::HttpConnection *connection);
    void countMalformed() { ++m_malformedCount; }

    QTcpServer *m_server = nullptr;
    Handler m_handler;
    QList<HttpRequestRecord> m_requests;
    QList<Internal::HttpConnection *> m_connections;
    int m_connectionCount = 0;
    int m_malformedCount = 0;
};

} // namespace Loopscope
