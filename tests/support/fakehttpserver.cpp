#include "tests/support/fakehttpserver.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>

#if defined(Q_OS_UNIX)
#include <sys/socket.h>
#endif

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

constexpr qsizetype MaxHeaderBytes = 64 * 1024;
constexpr qsizetype MaxChunkSizeLineBytes = 1024;
constexpr qsizetype MaxBodyBytes = 256 * 1024 * 1024;

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 100: return "Continue"_ba;
    case 101: return "Switching Protocols"_ba;
    case 200: return "OK"_ba;
    case 201: return "Created"_ba;
    case 202: return "Accepted"_ba;
    case 204: return "No Content"_ba;
    case 206: return "Partial Content"_ba;
    case 301: return "Moved Permanently"_ba;
    case 302: return "Found"_ba;
    case 303: return "See Other"_ba;
    case 304: return "Not Modified"_ba;
    case 307: return "Temporary Redirect"_ba;
    case 308: return "Permanent Redirect"_ba;
    case 400: return "Bad Request"_ba;
    case 401: return "Unauthorized"_ba;
    case 402: return "Payment Required"_ba;
    case 403: return "Forbidden"_ba;
    case 404: return "Not Found"_ba;
    case 405: return "Method Not Allowed"_ba;
    case 408: return "Request Timeout"_ba;
    case 409: return "Conflict"_ba;
    case 413: return "Content Too Large"_ba;
    case 415: return "Unsupported Media Type"_ba;
    case 422: return "Unprocessable Content"_ba;
    case 429: return "Too Many Requests"_ba;
    case 431: return "Request Header Fields Too Large"_ba;
    case 500: return "Internal Server Error"_ba;
    case 501: return "Not Implemented"_ba;
    case 502: return "Bad Gateway"_ba;
    case 503: return "Service Unavailable"_ba;
    case 504: return "Gateway Timeout"_ba;
    case 529: return "Overloaded"_ba; // Anthropic's overload status
    default: break;
    }
    if (status >= 200 && status < 300)
        return "Success"_ba;
    if (status >= 400 && status < 500)
        return "Client Error"_ba;
    if (status >= 500 && status < 600)
        return "Server Error"_ba;
    return "Unknown"_ba;
}

bool containsHeader(const HttpHeaders &headers, QByteArrayView name)
{
    return std::any_of(headers.cbegin(), headers.cend(), [name](const auto &header) {
        return QByteArrayView(header.first).compare(name, Qt::CaseInsensitive) == 0;
    });
}

// Whether a comma-separated header value such as "keep-alive, Upgrade" holds the token.
bool hasToken(QByteArrayView list, QByteArrayView token)
{
    qsizetype start = 0;
    while (start <= list.size()) {
        qsizetype comma = list.indexOf(',', start);
        if (comma < 0)
            comma = list.size();
        if (list.sliced(start, comma - start).trimmed().compare(token, Qt::CaseInsensitive) == 0)
            return true;
        start = comma + 1;
    }
    return false;
}

bool isTokenChar(char c)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return true;
    return QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

bool isToken(QByteArrayView text)
{
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), isTokenChar);
}

bool isDigits(QByteArrayView text)
{
    return !text.isEmpty()
           && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool isHexDigits(QByteArrayView text)
{
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    });
}

// The line starting at pos without its line ending (CRLF, or a lone LF); false until it is complete.
bool takeLine(QByteArrayView data, qsizetype &pos, QByteArrayView &line)
{
    const qsizetype lf = data.indexOf('\n', pos);
    if (lf < 0)
        return false;
    line = data.sliced(pos, lf - pos);
    if (line.endsWith('\r'))
        line.chop(1);
    pos = lf + 1;
    return true;
}

// A "name: value" header line; false when it is not one (this also rejects obsolete line folding).
bool parseHeaderLine(QByteArrayView line, HttpHeaders &headers)
{
    const qsizetype colon = line.indexOf(':');
    if (colon <= 0)
        return false;
    const QByteArrayView name = line.first(colon);
    const QByteArrayView value = line.sliced(colon + 1).trimmed();
    if (!isToken(name) || value.contains('\r') || value.contains('\0'))
        return false;
    headers.append({name.toByteArray(), value.toByteArray()});
    return true;
}

bool parseTarget(const QByteArray &target, HttpRequestRecord &request)
{
    if (std::any_of(target.begin(), target.end(), [](char c) { return uchar(c) <= 0x20 || c == 0x7f; }))
        return false;
    QByteArray pathAndQuery = target;
    if (target.startsWith("http://") || target.startsWith("https://")) { // absolute form, as sent to proxies
        const QUrl url = QUrl::fromEncoded(target, QUrl::StrictMode);
        if (!url.isValid())
            return false;
        pathAndQuery = url.path(QUrl::FullyEncoded).toLatin1();
        if (pathAndQuery.isEmpty())
            pathAndQuery = "/"_ba;
        if (url.hasQuery())
            pathAndQuery += '?' + url.query(QUrl::FullyEncoded).toLatin1();
    } else if (!target.startsWith('/') && target != "*") {
        return false;
    }
    const qsizetype question = pathAndQuery.indexOf('?');
    request.target = target;
    request.path = question < 0 ? pathAndQuery : pathAndQuery.first(question);
    if (question >= 0) {
        QUrl url;
        url.setQuery(QString::fromLatin1(pathAndQuery.sliced(question + 1)), QUrl::TolerantMode);
        request.query = QUrlQuery(url);
    }
    return true;
}

/*
    Parses one request from the start of a connection's buffer. It is stateless: when more bytes
    arrive the buffer is parsed again from its start, which keeps requests split into any number
    of TCP segments simple to get right.
*/
struct ParseResult
{
    enum class Status { NeedMore, Complete, Malformed };
    Status status = Status::NeedMore;
    HttpRequestRecord request;
    qsizetype consumed = 0;
    bool headersComplete = false;
    bool expectsContinue = false;
    bool closeAfter = false;
};

ParseResult parseRequest(QByteArrayView data)
{
    ParseResult result;
    const auto needMore = [&result] {
        result.status = ParseResult::Status::NeedMore;
        return result;
    };
    const auto malformed = [&result] {
        result.status = ParseResult::Status::Malformed;
        return result;
    };

    qsizetype pos = 0;
    // RFC 9112 section 2.2: empty lines before the request line are ignored.
    while (pos < data.size() && (data[pos] == '\r' || data[pos] == '\n'))
        ++pos;
    const qsizetype start = pos;
    const auto headerTooLong = [&] {
        return data.size() - start > MaxHeaderBytes;
    };

    QByteArrayView requestLine;
    if (!takeLine(data, pos, requestLine))
        return headerTooLong() ? malformed() : needMore();
    const qsizetype firstSpace = requestLine.indexOf(' ');
    const qsizetype secondSpace = firstSpace < 0 ? -1 : requestLine.indexOf(' ', firstSpace + 1);
    if (firstSpace <= 0 || secondSpace < 0 || requestLine.indexOf(' ', secondSpace + 1) >= 0)
        return malformed();
    const QByteArrayView method = requestLine.first(firstSpace);
    const QByteArray target = requestLine.sliced(firstSpace + 1, secondSpace - firstSpace - 1).toByteArray();
    const QByteArrayView version = requestLine.sliced(secondSpace + 1);
    if (!isToken(method) || target.isEmpty() || (version != "HTTP/1.1" && version != "HTTP/1.0"))
        return malformed();
    HttpRequestRecord &request = result.request;
    request.method = method.toByteArray();
    if (!parseTarget(target, request))
        return malformed();

    for (;;) {
        QByteArrayView line;
        if (!takeLine(data, pos, line))
            return headerTooLong() ? malformed() : needMore();
        if (pos - start > MaxHeaderBytes)
            return malformed();
        if (line.isEmpty())
            break;
        if (!parseHeaderLine(line, request.headers))
            return malformed();
    }
    result.headersComplete = true;
    result.expectsContinue = request.header("expect").compare("100-continue", Qt::CaseInsensitive) == 0;
    const QByteArray connection = request.header("connection");
    result.closeAfter
        = version == "HTTP/1.0" ? !hasToken(connection, "keep-alive") : hasToken(connection, "close");

    const bool hasLength = request.hasHeader("content-length");
    if (request.hasHeader("transfer-encoding")) {
        // Only plain chunked; with a Content-Length as well the framing would be ambiguous.
        if (hasLength || request.header("transfer-encoding").compare("chunked", Qt::CaseInsensitive) != 0)
            return malformed();
        QByteArray body;
        for (;;) {
            QByteArrayView sizeLine;
            if (!takeLine(data, pos, sizeLine))
                return data.size() - pos > MaxChunkSizeLineBytes ? malformed() : needMore();
            if (const qsizetype semicolon = sizeLine.indexOf(';'); semicolon >= 0)
                sizeLine = sizeLine.first(semicolon); // chunk extensions are ignored
            sizeLine = sizeLine.trimmed();
            if (!isHexDigits(sizeLine) || sizeLine.size() > 8)
                return malformed();
            const qsizetype size = sizeLine.toLongLong(nullptr, 16);
            if (size == 0)
                break;
            if (body.size() + size > MaxBodyBytes)
                return malformed();
            if (data.size() - pos < size + 2)
                return needMore();
            body += data.sliced(pos, size);
            pos += size;
            if (data.sliced(pos, 2) != "\r\n")
                return malformed();
            pos += 2;
        }
        for (;;) { // the trailer section; its fields join the headers
            QByteArrayView line;
            if (!takeLine(data, pos, line))
                return data.size() - pos > MaxHeaderBytes ? malformed() : needMore();
            if (line.isEmpty())
                break;
            if (!parseHeaderLine(line, request.headers))
                return malformed();
        }
        request.body = body;
    } else if (hasLength) {
        // Repeated Content-Length headers arrive joined by ", "; they must all agree.
        const QList<QByteArray> values = request.header("content-length").split(',');
        const QByteArray digits = values.first().trimmed();
        for (const QByteArray &value : values) {
            if (value.trimmed() != digits)
                return malformed();
        }
        if (!isDigits(digits) || digits.size() > 10)
            return malformed();
        const qsizetype length = digits.toLongLong();
        if (length > MaxBodyBytes)
            return malformed();
        if (data.size() - pos < length)
            return needMore();
        request.body = data.sliced(pos, length).toByteArray();
        pos += length;
    }
    result.consumed = pos;
    result.status = ParseResult::Status::Complete;
    return result;
}

QByteArray serializeHead(int status, const HttpHeaders &headers)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\n";
    for (const auto &[name, value] : headers)
        head += name + ": " + value + "\r\n";
    head += "\r\n";
    return head;
}

} // namespace

QByteArray HttpRequestRecord::header(QByteArrayView name) const
{
    QByteArray joined;
    bool found = false;
    for (const auto &[headerName, value] : headers) {
        if (QByteArrayView(headerName).compare(name, Qt::CaseInsensitive) != 0)
            continue;
        if (found)
            joined += ", ";
        joined += value;
        found = true;
    }
    return joined;
}

bool HttpRequestRecord::hasHeader(QByteArrayView name) const
{
    return containsHeader(headers, name);
}

QJsonObject HttpRequestRecord::json() const
{
    return QJsonDocument::fromJson(body).object();
}

QJsonArray HttpRequestRecord::lastMessageParts() const
{
    return json().value(u"messages"_s).toArray().last().toObject().value(u"content"_s).toArray();
}

namespace Internal {

/*
    One accepted TCP connection: it parses requests as bytes arrive, records them, and hands them
    to the server's handler one at a time, so responses on a keep-alive connection never overlap.
    It deletes itself once the socket has closed.
*/
class HttpConnection final : public QObject
{
public:
    HttpConnection(QTcpSocket *socket, FakeHttpServer *server);

    bool isOpen() const { return !m_closed && m_socket->state() == QAbstractSocket::ConnectedState; }
    void write(const QByteArray &bytes);
    qint64 unsentBytes() const { return m_socket->bytesToWrite(); }
    void reset();
    void closeGracefully();
    void exchangeFinished(HttpExchange *exchange);
    // The server is going away: close without calling back into it.
    void shutdown();

private:
    struct PendingRequest
    {
        HttpRequestRecord request;
        int index = -1;
        bool closeAfter = false;
    };

    void readIncoming();
    void dispatchNext();
    void rejectMalformed();
    void onDisconnected();

    FakeHttpServer *m_server = nullptr;
    QTcpSocket *m_socket = nullptr;
    QByteArray m_buffer;
    QList<PendingRequest> m_pending;
    QPointer<HttpExchange> m_active;
    bool m_stopReading = false; // after "Connection: close" or a malformed request
    bool m_malformed = false;
    bool m_continueSent = false;
    bool m_closed = false;
};

HttpConnection::HttpConnection(QTcpSocket *socket, FakeHttpServer *server)
    : QObject(server)
    , m_server(server)
    , m_socket(socket)
{
    m_socket->setParent(this);
    // Small pieces must leave at once, not wait for Nagle's algorithm.
    m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::readIncoming);
    connect(m_socket, &QTcpSocket::disconnected, this, &HttpConnection::onDisconnected);
    if (m_socket->bytesAvailable() > 0)
        QTimer::singleShot(0, this, &HttpConnection::readIncoming);
}

void HttpConnection::write(const QByteArray &bytes)
{
    if (!isOpen() || bytes.isEmpty())
        return;
    m_socket->write(bytes);
    m_socket->flush();
}

void HttpConnection::reset()
{
    if (m_closed)
        return;
#if defined(Q_OS_UNIX)
    // A zero linger time turns the close into a TCP RST, as a crashed or reset server would send.
    if (const qintptr descriptor = m_socket->socketDescriptor(); descriptor != -1) {
        const linger abortive{1, 0};
        ::setsockopt(int(descriptor), SOL_SOCKET, SO_LINGER, &abortive, sizeof abortive);
    }
#endif
    m_socket->abort();
    onDisconnected(); // in case abort() did not report it
}

void HttpConnection::closeGracefully()
{
    m_stopReading = true;
    if (!m_closed)
        m_socket->disconnectFromHost();
}

void HttpConnection::exchangeFinished(HttpExchange *exchange)
{
    if (exchange != m_active)
        return;
    m_active = nullptr;
    if (exchange->m_closeAfter) {
        closeGracefully();
        return;
    }
    QTimer::singleShot(0, this, &HttpConnection::dispatchNext);
}

void HttpConnection::shutdown()
{
    m_closed = true;
    m_pending.clear();
    m_socket->disconnect(this);
    m_socket->abort();
}

void HttpConnection::readIncoming()
{
    const QByteArray incoming = m_socket->readAll();
    if (m_stopReading || m_closed)
        return;
    m_buffer += incoming;
    while (!m_stopReading) {
        const ParseResult result = parseRequest(m_buffer);
        if (result.status == ParseResult::Status::NeedMore) {
            if (result.headersComplete && result.expectsContinue && !m_continueSent && !m_active
                && m_pending.isEmpty()) {
                m_continueSent = true;
                write("HTTP/1.1 100 Continue\r\n\r\n"_ba);
            }
            break;
        }
        if (result.status == ParseResult::Status::Malformed) {
            m_stopReading = true;
            m_malformed = true;
            m_buffer.clear();
            m_server->countMalformed();
            break;
        }
        m_buffer.remove(0, result.consumed);
        m_continueSent = false;
        const int index = m_server->recordRequest(result.request);
        m_pending.append({result.request, index, result.closeAfter});
        if (result.closeAfter) {
            m_stopReading = true;
            m_buffer.clear();
        }
    }
    dispatchNext();
}

void HttpConnection::dispatchNext()
{
    if (m_closed || m_active)
        return;
    if (m_pending.isEmpty()) {
        if (m_malformed)
            rejectMalformed();
        return;
    }
    const PendingRequest next = m_pending.takeFirst();
    auto *exchange = new HttpExchange(next.request, next.index, next.closeAfter, this, m_server);
    m_active = exchange;
    m_server->handle(*exchange);
}

void HttpConnection::rejectMalformed()
{
    m_malformed = false;
    const QByteArray body = "Malformed request\n"_ba;
    write(serializeHead(400, {{"Content-Type"_ba, "text/plain"_ba},
                              {"Content-Length"_ba, QByteArray::number(body.size())},
                              {"Connection"_ba, "close"_ba}})
          + body);
    closeGracefully();
}

void HttpConnection::onDisconnected()
{
    if (m_closed)
        return;
    m_closed = true;
    m_pending.clear();
    // Finish the bookkeeping first: detach() emits HttpExchange::done, which runs test code.
    m_server->forgetConnection(this);
    deleteLater();
    if (HttpExchange *exchange = m_active.data()) {
        m_active = nullptr;
        exchange->detach();
    }
}

} // namespace Internal

HttpExchange::HttpExchange(HttpRequestRecord request, int requestIndex, bool closeAfter,
                           Internal::HttpConnection *connection, QObject *parent)
    : QObject(parent)
    , m_request(std::move(request))
    , m_requestIndex(requestIndex)
    , m_connection(connection)
    , m_timer(new QTimer(this))
    , m_closeAfter(closeAfter)
    , m_headOnly(m_request.method == "HEAD")
{
    m_timer->setSingleShot(true);
    m_timer->setTimerType(Qt::PreciseTimer);
    connect(m_timer, &QTimer::timeout, this, &HttpExchange::playNext);
}

HttpExchange::~HttpExchange() = default;

bool HttpExchange::isClientConnected() const
{
    return m_connection && m_connection->isOpen();
}

bool HttpExchange::isDone() const
{
    return m_doneEmitted;
}

void HttpExchange::respond(int status, const HttpHeaders &headers, const QByteArray &body)
{
    if (!canAct("respond", m_phase == Phase::Idle))
        return;
    m_phase = Phase::Finished;
    HttpHeaders all = headers;
    const bool bodyless = (status >= 100 && status < 200) || status == 204 || status == 304;
    if (!bodyless && !containsHeader(all, "content-length"))
        all.append({"Content-Length"_ba, QByteArray::number(body.size())});
    closeAfterIfAsked(all);
    QByteArray bytes = serializeHead(status, all);
    if (!bodyless && !m_headOnly)
        bytes += body;
    enqueue({Action::Kind::Complete, bytes, 0});
}

void HttpExchange::respondJson(int status, const QJsonObject &json, const HttpHeaders &headers)
{
    HttpHeaders all = headers;
    if (!containsHeader(all, "content-type"))
        all.prepend({"Content-Type"_ba, "application/json"_ba});
    respond(status, all, QJsonDocument(json).toJson(QJsonDocument::Compact));
}

void HttpExchange::beginStream(int status, const HttpHeaders &headers)
{
    if (!canAct("beginStream", m_phase == Phase::Idle))
        return;
    m_phase = Phase::Streaming;
    HttpHeaders all = headers;
    m_rawStream = containsHeader(all, "content-length");
    if (!m_rawStream && !containsHeader(all, "transfer-encoding"))
        all.append({"Transfer-Encoding"_ba, "chunked"_ba});
    closeAfterIfAsked(all);
    enqueue({Action::Kind::Write, serializeHead(status, all), 0});
}

void HttpExchange::send(const QByteArray &data, int delayMs)
{
    if (!canAct("send", m_phase == Phase::Streaming))
        return;
    // An empty chunk would end the body, so an empty piece only waits.
    QByteArray bytes;
    if (m_rawStream)
        bytes = data;
    else if (!data.isEmpty())
        bytes = QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
    enqueue({Action::Kind::Write, bytes, delayMs});
}

void HttpExchange::sendSplit(const QByteArray &data, const QList<int> &cutPositions, int delayMs)
{
    QList<int> cuts = cutPositions;
    std::sort(cuts.begin(), cuts.end());
    int start = 0;
    for (const int cut : std::as_const(cuts)) {
        if (cut <= start || cut >= data.size())
            continue;
        send(data.mid(start, cut - start), delayMs);
        start = cut;
    }
    send(data.mid(start), delayMs);
}

void HttpExchange::sendForever(const QByteArray &data, int delayMs)
{
    if (!canAct("sendForever", m_phase == Phase::Streaming) || data.isEmpty())
        return;
    m_phase = Phase::Finished; // nothing can follow an endless body
    const QByteArray bytes
        = m_rawStream ? data : QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n";
    enqueue({Action::Kind::Repeat, bytes, delayMs});
}

void HttpExchange::end(int delayMs)
{
    if (!canAct("end", m_phase == Phase::Streaming))
        return;
    m_phase = Phase::Finished;
    enqueue({Action::Kind::Complete, m_rawStream ? QByteArray() : "0\r\n\r\n"_ba, delayMs});
}

void HttpExchange::resetConnection(int delayMs)
{
    if (!canAct("resetConnection", m_phase != Phase::Finished))
        return;
    m_phase = Phase::Finished;
    enqueue({Action::Kind::Reset, {}, delayMs});
}

void HttpExchange::closeMidStream(int delayMs)
{
    if (!canAct("closeMidStream", m_phase != Phase::Finished))
        return;
    m_phase = Phase::Finished;
    enqueue({Action::Kind::Close, {}, delayMs});
}

void HttpExchange::stall()
{
    if (!canAct("stall", m_phase != Phase::Finished))
        return;
    m_phase = Phase::Finished;
}

void HttpExchange::closeAfterIfAsked(HttpHeaders &headers)
{
    // The client asked to close, so say so; or the handler said so, so do it.
    const auto connection = std::find_if(headers.cbegin(), headers.cend(), [](const auto &header) {
        return QByteArrayView(header.first).compare("connection", Qt::CaseInsensitive) == 0;
    });
    if (connection == headers.cend()) {
        if (m_closeAfter)
            headers.append({"Connection"_ba, "close"_ba});
    } else if (hasToken(connection->second, "close")) {
        m_closeAfter = true;
    }
}

bool HttpExchange::canAct(const char *function, bool allowedNow) const
{
    if (!m_connection)
        return false; // the client or the server is gone: drop silently
    if (!allowedNow) {
        qWarning("HttpExchange::%s() ignored: the response to request %d is already %s", function,
                 m_requestIndex, m_phase == Phase::Idle ? "not started" : "complete or failed");
        return false;
    }
    return true;
}

void HttpExchange::enqueue(Action action)
{
    m_actions.append(std::move(action));
    if (m_actions.size() == 1 && !m_timer->isActive())
        m_timer->start(std::max(0, m_actions.first().delayMs));
}

void HttpExchange::playNext()
{
    if (m_actions.isEmpty())
        return;
    const Action action = m_actions.takeFirst();
    Internal::HttpConnection *connection = m_connection.data();
    if (!connection) {
        detach();
        return;
    }
    switch (action.kind) {
    case Action::Kind::Write: connection->write(action.bytes); break;
    case Action::Kind::Repeat: {
        constexpr qint64 MaxUnsent = 1024 * 1024;
        if (!connection->isOpen()) {
            detach();
            return;
        }
        const bool clientKeepsUp = connection->unsentBytes() < MaxUnsent;
        if (clientKeepsUp)
            connection->write(action.bytes);
        m_actions.prepend(action);
        m_timer->start(clientKeepsUp ? std::max(0, action.delayMs) : 1);
        return;
    }
    case Action::Kind::Complete:
        connection->write(action.bytes);
        m_actions.clear();
        connection->exchangeFinished(this);
        markDone();
        return;
    case Action::Kind::Reset:
        m_actions.clear();
        connection->reset(); // detaches this exchange
        markDone();
        return;
    case Action::Kind::Close:
        m_actions.clear();
        connection->closeGracefully();
        markDone();
        return;
    }
    if (!m_actions.isEmpty())
        m_timer->start(std::max(0, m_actions.first().delayMs));
}

void HttpExchange::markDone()
{
    if (m_doneEmitted)
        return;
    m_doneEmitted = true;
    emit done();
}

void HttpExchange::detach()
{
    m_connection = nullptr;
    m_timer->stop();
    m_actions.clear();
    m_phase = Phase::Finished;
    markDone();
}

FakeHttpServer::FakeHttpServer(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &FakeHttpServer::acceptConnections);
}

FakeHttpServer::~FakeHttpServer()
{
    m_server->close();
    const QList<Internal::HttpConnection *> connections = std::exchange(m_connections, {});
    for (Internal::HttpConnection *connection : connections)
        connection->shutdown();
    qDeleteAll(connections);
}

bool FakeHttpServer::listen()
{
    if (m_server->isListening())
        return true;
    return m_server->listen(QHostAddress(QHostAddress::LocalHost), 0);
}

bool FakeHttpServer::isListening() const
{
    return m_server->isListening();
}

quint16 FakeHttpServer::port() const
{
    return m_server->serverPort();
}

QUrl FakeHttpServer::baseUrl() const
{
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(u"127.0.0.1"_s);
    url.setPort(port());
    return url;
}

QByteArray FakeHttpServer::sseEvent(const QByteArray &data, const QByteArray &event)
{
    QByteArray out;
    if (!event.isEmpty())
        out += "event: " + event + '\n';
    const QList<QByteArray> lines = data.split('\n');
    for (QByteArray line : lines) {
        if (line.endsWith('\r'))
            line.chop(1);
        out += "data: " + line + '\n';
    }
    out += '\n';
    return out;
}

void FakeHttpServer::acceptConnections()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        ++m_connectionCount;
        m_connections.append(new Internal::HttpConnection(socket, this));
    }
}

int FakeHttpServer::recordRequest(const HttpRequestRecord &request)
{
    m_requests.append(request);
    const int index = int(m_requests.size()) - 1;
    emit requestReceived(index);
    return index;
}

void FakeHttpServer::handle(HttpExchange &exchange)
{
    if (m_handler) {
        m_handler(exchange.request(), exchange);
        return;
    }
    exchange.respond(404, {{"Content-Type"_ba, "text/plain"_ba}}, "FakeHttpServer has no handler\n"_ba);
}

void FakeHttpServer::forgetConnection(Internal::HttpConnection *connection)
{
    m_connections.removeOne(connection);
}

} // namespace Loopscope
