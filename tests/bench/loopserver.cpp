// loopscope-bench-server: a lean OpenAI-compatible endpoint that plays a
// deterministic tool loop at zero latency, so that what loopscope-bench
// measures is the client's own overhead and nothing else.
//
// It shares no code with the client on purpose: the wire format is written
// here independently, from what OpenAI sends, so the benchmark exercises the
// real decoder against a second implementation rather than against itself.

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>

#include <cstdio>
#include <optional>

#if defined(Q_OS_LINUX)
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#endif

using namespace Qt::StringLiterals;

namespace Loopscope::Bench {

namespace {

constexpr qsizetype MaxHeaderBytes = 64 * 1024;
constexpr qsizetype MaxBodyBytes = 256 * 1024 * 1024;

// ---------------------------------------------------------------------------
// The scripted model

struct PlannedCall
{
    QByteArray id;
    QByteArray tool;      // "add", or "calculator" for the calc-K-P models
    QByteArray arguments; // the JSON text the model "wrote"
};

/*! One answer of the scripted model: either tool calls or text, never both. */
struct ScriptedAnswer
{
    QList<PlannedCall> calls;
    QList<QByteArray> textPieces; // streamed one per chunk
    qint64 promptTokens = 0;
    qint64 completionTokens = 0;

    bool isToolCall() const { return !calls.isEmpty(); }
    QByteArray text() const { return textPieces.join(); }
};

/*!
    The model "loop-K-P": K rounds of P parallel calls to add, then the sum of
    every tool result it was given. "calc-K-P" plays the same loop with
    Loopscope's built-in calculator ({"expression": "a+b"}), for runs of the
    real app (loopscope run --tools calculator). "text-N" answers at once with
    N words, one stream chunk each: what a long streamed answer costs. "chat-N" plays a long
    conversation: each question gets a calculator call, then an answer of about N bytes. It keeps no state: a
   round is an assistant message with tool calls in the request, so any number of conversations can run
   against one server.
*/
class LoopModel final
{
public:
    static std::optional<LoopModel> fromName(const QString &name)
    {
        const QStringList parts = name.split(u'-');
        if (parts.size() == 2 && parts.at(0) == u"chat") {
            bool ok = false;
            const int bytes = parts.at(1).toInt(&ok);
            if (!ok || bytes < 1 || bytes > 10'000'000)
                return std::nullopt;
            LoopModel model(0, 1, true);
            model.m_chatBytes = bytes;
            return model;
        }
        if (parts.size() == 2 && parts.at(0) == u"text") {
            bool ok = false;
            const int words = parts.at(1).toInt(&ok);
            if (!ok || words < 1 || words > 10'000'000)
                return std::nullopt;
            LoopModel model(0, 1, false);
            model.m_words = words;
            return model;
        }
        if (parts.size() != 3 || (parts.at(0) != u"loop" && parts.at(0) != u"calc"))
            return std::nullopt;
        bool roundsOk = false;
        bool parallelOk = false;
        const int rounds = parts.at(1).toInt(&roundsOk);
        const int parallel = parts.at(2).toInt(&parallelOk);
        if (!roundsOk || !parallelOk || rounds < 0 || parallel < 1 || parallel > 100'000)
            return std::nullopt;
        return LoopModel(rounds, parallel, parts.at(0) == u"calc");
    }

    QByteArray name() const
    {
        if (m_chatBytes > 0)
            return "chat-"_ba + QByteArray::number(m_chatBytes);
        if (m_words > 0)
            return "text-"_ba + QByteArray::number(m_words);
        return (m_calculator ? "calc-"_ba : "loop-"_ba) + QByteArray::number(m_rounds) + '-'
               + QByteArray::number(m_parallel);
    }

    ScriptedAnswer answer(const QJsonArray &messages, qsizetype requestBytes) const
    {
        int roundsDone = 0;
        qint64 total = 0;
        int notNumbers = 0;
        for (const QJsonValue &value : messages) {
            const QJsonObject message = value.toObject();
            const QString role = message.value(u"role"_s).toString();
            if (role == u"assistant") {
                roundsDone += !message.value(u"tool_calls"_s).toArray().isEmpty();
            } else if (role == u"tool") {
                if (const std::optional<qint64> number = parseNumber(message.value(u"content"_s)))
                    total += *number;
                else
                    ++notNumbers;
            }
        }

        ScriptedAnswer answer;
        answer.promptTokens = requestBytes / 4; // the usual rule of thumb for English text
        if (m_chatBytes > 0)
            return chatAnswer(messages, answer);
        if (m_words > 0) {
            static const QList<QByteArray> vocabulary{"the ",     "loop ", "calls ",   "a ",
                                                      "tool ",    "and ",  "reads ",   "its ",
                                                      "result; ", "then ", "answers. "};
            for (int i = 0; i < m_words; ++i)
                answer.textPieces.append(vocabulary.at(i % vocabulary.size()));
            answer.completionTokens = m_words;
            return answer;
        }
        if (roundsDone < m_rounds) {
            for (int call = 0; call < m_parallel; ++call)
                answer.calls.append(plannedCall(roundsDone, call, m_calculator));
            answer.completionTokens = 12 * m_parallel;
        } else {
            answer.textPieces = {"The total "_ba, "is "_ba, QByteArray::number(total), "."_ba};
            if (notNumbers > 0)
                answer.textPieces.append(" ("_ba + QByteArray::number(notNumbers)
                                         + " tool results were not numbers.)"_ba);
            answer.completionTokens = 2 * answer.textPieces.size();
        }
        return answer;
    }

private:
    // chat-N: each question (user message) gets one calculator call, and its result an answer of
    // about N bytes in paragraphs, so any number of turns runs in one conversation.
    ScriptedAnswer chatAnswer(const QJsonArray &messages, ScriptedAnswer answer) const
    {
        int questions = 0;
        std::optional<qint64> result;
        for (const QJsonValue &value : messages) {
            const QString role = value[u"role"_s].toString();
            if (role == u"user") {
                ++questions;
                result.reset();
            } else if (role == u"tool") {
                result = parseNumber(value[u"content"_s]).value_or(0);
            }
        }
        if (!result) {
            answer.calls.append(plannedCall(questions, 0, true));
            answer.completionTokens = 12;
            return answer;
        }
        static const QList<QByteArray> vocabulary{"the ",   "loop ", "calls ",   "a ",    "tool ",    "and ",
                                                  "reads ", "its ",  "result; ", "then ", "answers. "};
        answer.textPieces.append("The result is "_ba + QByteArray::number(*result) + ".\n\n"_ba);
        qsizetype bytes = answer.textPieces.constFirst().size();
        for (int i = 0; bytes < m_chatBytes; ++i) {
            // A paragraph break every 40 words, as a model writes them.
            QByteArray piece = vocabulary.at(i % vocabulary.size());
            if (i % 40 == 39)
                piece = "answers.\n\n"_ba;
            bytes += piece.size();
            answer.textPieces.append(piece);
        }
        answer.completionTokens = answer.textPieces.size();
        return answer;
    }

    LoopModel(int rounds, int parallel, bool calculator)
        : m_rounds(rounds)
        , m_parallel(parallel)
        , m_calculator(calculator)
    {}

    // Arguments differ between any two consecutive calls, so the agent's
    // repeated-call guard never fires, and b goes negative now and then so
    // the sum is not trivially monotonic. Ids are unique per conversation.
    static PlannedCall plannedCall(int round, int call, bool calculator)
    {
        const qint64 a = 100 * qint64(round + 1) + 17 * call;
        const qint64 b = (31 * qint64(round) + 7 * call) % 50 - 10;
        const QByteArray id = "call_"_ba + QByteArray::number(round) + '_' + QByteArray::number(call);
        if (calculator)
            return {id, "calculator"_ba,
                    "{\"expression\":\""_ba + QByteArray::number(a) + '+' + QByteArray::number(b) + "\"}"_ba};
        return {id, "add"_ba,
                "{\"a\":"_ba + QByteArray::number(a) + ",\"b\":"_ba + QByteArray::number(b) + '}'};
    }

    static std::optional<qint64> parseNumber(const QJsonValue &content)
    {
        if (content.isDouble())
            return content.toInteger();
        // Loopscope's calculator answers "200+21 = 221": the number is after the last '='.
        const QString text = content.toString();
        bool ok = false;
        const qint64 number = QStringView(text).mid(text.lastIndexOf(u'=') + 1).trimmed().toLongLong(&ok);
        return ok ? std::optional<qint64>(number) : std::nullopt;
    }

    int m_rounds;
    int m_parallel;
    bool m_calculator;
    int m_words = 0;     // text-N: the words of the answer
    int m_chatBytes = 0; // chat-N: the bytes of each turn's answer
};

// ---------------------------------------------------------------------------
// The wire format, written by hand: every value but the tool arguments is
// ASCII we produce ourselves, and this keeps the server far cheaper than the
// client it measures.

void appendJsonString(QByteArray &out, QByteArrayView raw)
{
    out += '"';
    for (const char c : raw) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                out += "\\u00";
                out += "0123456789abcdef"[(c >> 4) & 0xf];
                out += "0123456789abcdef"[c & 0xf];
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

QByteArray jsonString(QByteArrayView raw)
{
    QByteArray out;
    out.reserve(raw.size() + 8);
    appendJsonString(out, raw);
    return out;
}

QByteArray usageJson(const ScriptedAnswer &answer)
{
    return "{\"prompt_tokens\":"_ba + QByteArray::number(answer.promptTokens) + ",\"completion_tokens\":"_ba
           + QByteArray::number(answer.completionTokens) + ",\"total_tokens\":"_ba
           + QByteArray::number(answer.promptTokens + answer.completionTokens) + '}';
}

/*! Chat Completions bodies and stream chunks for one response, as OpenAI lays them out. */
class CompletionEncoder final
{
public:
    CompletionEncoder(QByteArray completionId, QByteArray model, bool includeUsage)
        : m_includeUsage(includeUsage)
    {
        m_head = "{\"id\":\""_ba + completionId + "\",\"object\":\"chat.completion.chunk\",\"created\":"_ba
                 + QByteArray::number(QDateTime::currentSecsSinceEpoch()) + ",\"model\":\""_ba + model
                 + "\",\"system_fingerprint\":null,\"choices\":[{\"index\":0,\"delta\":"_ba;
        m_bodyHead = "{\"id\":\""_ba + completionId + "\",\"object\":\"chat.completion\",\"created\":"_ba
                     + QByteArray::number(QDateTime::currentSecsSinceEpoch()) + ",\"model\":\""_ba + model
                     + '"';
    }

    // The whole non-streaming response body.
    QByteArray body(const ScriptedAnswer &answer) const
    {
        QByteArray out = m_bodyHead;
        out += ",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":";
        if (answer.isToolCall()) {
            out += "null,\"tool_calls\":[";
            for (qsizetype i = 0; i < answer.calls.size(); ++i) {
                const PlannedCall &call = answer.calls.at(i);
                out += (i ? ",{\"id\":\"" : "{\"id\":\"") + call.id
                       + "\",\"type\":\"function\",\"function\":{\"name\":\"" + call.tool
                       + "\",\"arguments\":" + jsonString(call.arguments) + "}}";
            }
            out += "],\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"tool_calls\"}]";
        } else {
            appendJsonString(out, answer.text());
            out += ",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"stop\"}]";
        }
        out += ",\"usage\":" + usageJson(answer) + '}';
        return out;
    }

    // Every SSE event of the streamed response, "data: [DONE]" last.
    QList<QByteArray> events(const ScriptedAnswer &answer) const
    {
        QList<QByteArray> events;
        events.reserve(4 + 3 * answer.calls.size() + answer.textPieces.size());
        events.append(chunk(answer.isToolCall() ? "{\"role\":\"assistant\",\"content\":null}"
                                                : "{\"role\":\"assistant\",\"content\":\"\"}"));
        for (qsizetype i = 0; i < answer.calls.size(); ++i) {
            const PlannedCall &call = answer.calls.at(i);
            const QByteArray index = QByteArray::number(i);
            // Like OpenAI: the id and name come first with empty arguments,
            // then the arguments in fragments that split the JSON anywhere.
            events.append(chunk("{\"tool_calls\":[{\"index\":" + index + ",\"id\":\"" + call.id
                                + "\",\"type\":\"function\",\"function\":{\"name\":\"" + call.tool
                                + "\",\"arguments\":\"\"}}]}"));
            const qsizetype cut = qMax<qsizetype>(1, call.arguments.indexOf(','));
            for (const QByteArrayView fragment :
                 {QByteArrayView(call.arguments).first(cut), QByteArrayView(call.arguments).sliced(cut)}) {
                events.append(chunk("{\"tool_calls\":[{\"index\":" + index
                                    + ",\"function\":{\"arguments\":" + jsonString(fragment) + "}}]}"));
            }
        }
        for (const QByteArray &piece : answer.textPieces)
            events.append(chunk("{\"content\":" + jsonString(piece) + '}'));
        events.append(chunk("{}", answer.isToolCall() ? "\"tool_calls\"" : "\"stop\""));
        if (m_includeUsage) {
            QByteArray usage = m_head;
            usage.truncate(usage.indexOf("\"choices\":"));
            usage += "\"choices\":[],\"usage\":" + usageJson(answer) + '}';
            events.append(sseEvent(usage));
        }
        events.append("data: [DONE]\n\n"_ba);
        return events;
    }

private:
    QByteArray chunk(const QByteArray &delta, const char *finishReason = "null") const
    {
        // With include_usage OpenAI puts "usage": null on every chunk but the last.
        return sseEvent(m_head + delta + ",\"logprobs\":null,\"finish_reason\":" + finishReason + "}]"
                        + (m_includeUsage ? ",\"usage\":null}" : "}"));
    }

    static QByteArray sseEvent(const QByteArray &json) { return "data: " + json + "\n\n"; }

    QByteArray m_head;     // a chunk up to its delta
    QByteArray m_bodyHead; // a body up to its choices
    bool m_includeUsage;
};

QByteArray errorBody(const QString &message, const QString &type, const QString &code)
{
    const QJsonObject error{{u"message"_s, message},
                            {u"type"_s, type},
                            {u"param"_s, QJsonValue::Null},
                            {u"code"_s, code.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(code)}};
    return QJsonDocument(QJsonObject{{u"error"_s, error}}).toJson(QJsonDocument::Compact);
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK"_ba;
    case 400: return "Bad Request"_ba;
    case 404: return "Not Found"_ba;
    case 405: return "Method Not Allowed"_ba;
    case 411: return "Length Required"_ba;
    case 413: return "Content Too Large"_ba;
    case 431: return "Request Header Fields Too Large"_ba;
    default: return "Unknown"_ba;
    }
}

} // namespace

// ---------------------------------------------------------------------------
// HTTP/1.1 (outside the anonymous namespace: moc cannot name classes in one)

struct ServerOptions
{
    bool flushEachEvent = true; // each stream event leaves in its own write
    bool quickAck = true;       // acknowledge request bytes at once (Linux)
};

struct HttpRequest
{
    QByteArray method;
    QByteArray path; // without the query
    QByteArray body;
    bool keepAlive = true;
};

class HttpConnection;

/*! The one thing the server does: answer Chat Completions for loop-K-P models. */
class ChatService final
{
public:
    void handle(const HttpRequest &request, HttpConnection &connection);

private:
    quint64 m_completions = 0;
};

/*!
    One keep-alive client connection: parses requests with Content-Length
    bodies as they arrive and writes the responses the service produces.
    Deletes itself once the client has gone.
*/
class HttpConnection final : public QObject
{
    Q_OBJECT

public:
    HttpConnection(QTcpSocket *socket, ChatService *service, const ServerOptions &options, QObject *parent)
        : QObject(parent)
        , m_socket(socket)
        , m_service(service)
        , m_flushEachEvent(options.flushEachEvent)
        , m_quickAck(options.quickAck)
    {
        m_socket->setParent(this);
        // Small writes per event must leave at once, not wait for Nagle.
        m_socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        connect(m_socket, &QTcpSocket::readyRead, this, &HttpConnection::onReadyRead);
        connect(m_socket, &QTcpSocket::disconnected, this, &QObject::deleteLater);
    }

    void respond(int status, const char *contentType, const QByteArray &body)
    {
        QByteArray out = head(status, contentType);
        out += "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n";
        out += body;
        m_socket->write(out);
    }

    void respondError(int status, const QString &message, const QString &type, const QString &code = {})
    {
        respond(status, "application/json", errorBody(message, type, code));
    }

    // A chunked event stream; each event is its own HTTP chunk.
    void respondStream(const QList<QByteArray> &events)
    {
        QByteArray out = head(200, "text/event-stream; charset=utf-8");
        out += "Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n";
        for (const QByteArray &event : events) {
            out += QByteArray::number(event.size(), 16) + "\r\n" + event + "\r\n";
            if (m_flushEachEvent) {
                // Each event leaves in its own segment, as it would from a real model.
                m_socket->write(out);
                m_socket->flush();
                out.clear();
            }
        }
        out += "0\r\n\r\n";
        m_socket->write(out);
    }

private:
    QByteArray head(int status, const char *contentType) const
    {
        return "HTTP/1.1 " + QByteArray::number(status) + ' ' + reasonPhrase(status) + "\r\nContent-Type: "
               + contentType + (m_keepAlive ? "\r\nConnection: keep-alive\r\n" : "\r\nConnection: close\r\n");
    }

    void onReadyRead()
    {
        m_buffer += m_socket->readAll();
        if (m_quickAck)
            acknowledgeAtOnce();
        while (m_socket->state() == QAbstractSocket::ConnectedState) {
            std::optional<HttpRequest> request = takeRequest();
            if (!request)
                return;
            m_keepAlive = request->keepAlive;
            m_service->handle(*request, *this);
            if (!m_keepAlive) {
                m_socket->disconnectFromHost(); // after the response is written
                return;
            }
        }
    }

    // QNetworkAccessManager leaves Nagle on and writes a body in 16 KiB pieces,
    // so the last piece of a larger request waits for our ACK of the previous
    // one, and Linux delays that ACK by 40 ms. A real server across a network
    // would cost a round trip there; a zero-latency one must not cost 40 ms.
    // Linux clears TCP_QUICKACK again by itself, hence after every read.
    void acknowledgeAtOnce()
    {
#if defined(Q_OS_LINUX) && defined(TCP_QUICKACK)
        const int on = 1;
        ::setsockopt(int(m_socket->socketDescriptor()), IPPROTO_TCP, TCP_QUICKACK, &on, sizeof on);
#endif
    }

    // The next complete request, or nothing while more bytes are needed (or after an error, answered).
    std::optional<HttpRequest> takeRequest()
    {
        if (m_headerEnd < 0) {
            m_headerEnd = m_buffer.indexOf("\r\n\r\n");
            if (m_headerEnd < 0) {
                if (m_buffer.size() > MaxHeaderBytes)
                    reject(431, u"The request headers are too large."_s);
                return std::nullopt;
            }
            if (!parseHead(QByteArrayView(m_buffer).first(m_headerEnd)))
                return std::nullopt;
        }
        const qsizetype bodyStart = m_headerEnd + 4;
        if (m_buffer.size() - bodyStart < m_pending.contentLength)
            return std::nullopt;

        HttpRequest request = std::move(m_pending.request);
        request.body = m_buffer.mid(bodyStart, m_pending.contentLength);
        m_buffer.remove(0, bodyStart + m_pending.contentLength);
        m_headerEnd = -1;
        m_pending = {};
        return request;
    }

    bool parseHead(QByteArrayView head)
    {
        const QList<QByteArrayView> lines = splitLines(head);
        const QList<QByteArray> requestLine = lines.value(0).toByteArray().split(' ');
        if (requestLine.size() != 3 || !requestLine.at(2).startsWith("HTTP/1.")) {
            reject(400, u"Malformed request line."_s);
            return false;
        }
        HttpRequest &request = m_pending.request;
        request.method = requestLine.at(0);
        const QByteArray &target = requestLine.at(1);
        const qsizetype query = target.indexOf('?');
        request.path = query < 0 ? target : target.left(query);
        request.keepAlive = requestLine.at(2) != "HTTP/1.0";
        bool chunked = false;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArrayView line = lines.at(i);
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0)
                continue;
            const QByteArray name = line.first(colon).trimmed().toByteArray().toLower();
            const QByteArray value = line.sliced(colon + 1).trimmed().toByteArray();
            if (name == "content-length") {
                bool ok = false;
                m_pending.contentLength = value.toLongLong(&ok);
                if (!ok || m_pending.contentLength < 0) {
                    reject(400, u"Malformed Content-Length."_s);
                    return false;
                }
            } else if (name == "connection") {
                const QByteArray token = value.toLower();
                if (token.contains("close"))
                    request.keepAlive = false;
                else if (token.contains("keep-alive"))
                    request.keepAlive = true;
            } else if (name == "transfer-encoding") {
                chunked = !value.isEmpty();
            }
        }
        if (chunked) {
            reject(411, u"Send the request body with a Content-Length."_s);
            return false;
        }
        if (m_pending.contentLength > MaxBodyBytes) {
            reject(413, u"The request body is too large."_s);
            return false;
        }
        return true;
    }

    static QList<QByteArrayView> splitLines(QByteArrayView head)
    {
        QList<QByteArrayView> lines;
        qsizetype start = 0;
        while (start <= head.size()) {
            qsizetype end = head.indexOf("\r\n", start);
            if (end < 0)
                end = head.size();
            lines.append(head.sliced(start, end - start));
            start = end + 2;
        }
        return lines;
    }

    // A request we cannot frame leaves the connection unusable: answer and close.
    void reject(int status, const QString &message)
    {
        m_keepAlive = false;
        respondError(status, message, u"invalid_request_error"_s);
        m_socket->disconnectFromHost();
    }

    struct Pending
    {
        HttpRequest request;
        qint64 contentLength = 0;
    };

    QTcpSocket *m_socket;
    ChatService *m_service;
    QByteArray m_buffer;
    qsizetype m_headerEnd = -1; // of the request being received, once its head is complete
    Pending m_pending;
    bool m_keepAlive = true;
    const bool m_flushEachEvent;
    const bool m_quickAck;
};

void ChatService::handle(const HttpRequest &request, HttpConnection &connection)
{
    if (request.path != "/v1/chat/completions") {
        connection.respondError(404,
                                u"Invalid URL (%1 %2)"_s.arg(QString::fromLatin1(request.method),
                                                             QString::fromLatin1(request.path)),
                                u"invalid_request_error"_s, u"unknown_url"_s);
        return;
    }
    if (request.method != "POST") {
        connection.respondError(405, u"Only POST is supported on /v1/chat/completions."_s,
                                u"invalid_request_error"_s, u"method_not_allowed"_s);
        return;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(request.body, &parseError);
    if (!document.isObject()) {
        connection.respondError(
            400, u"The request body is not a JSON object (%1)."_s.arg(parseError.errorString()),
            u"invalid_request_error"_s);
        return;
    }
    const QJsonObject body = document.object();
    const QString modelName = body.value(u"model"_s).toString();
    const std::optional<LoopModel> model = LoopModel::fromName(modelName);
    if (!model) {
        connection.respondError(
            404,
            u"The model `%1` does not exist. Use loop-K-P: K rounds of P parallel calls."_s.arg(modelName),
            u"invalid_request_error"_s, u"model_not_found"_s);
        return;
    }
    const QJsonValue messages = body.value(u"messages"_s);
    if (!messages.isArray() || messages.toArray().isEmpty()) {
        connection.respondError(400, u"'messages' must be a non-empty array."_s, u"invalid_request_error"_s);
        return;
    }

    const ScriptedAnswer answer = model->answer(messages.toArray(), request.body.size());
    const bool stream = body.value(u"stream"_s).toBool();
    const bool includeUsage = body.value(u"stream_options"_s).toObject().value(u"include_usage"_s).toBool();
    const CompletionEncoder encoder("chatcmpl-bench"_ba + QByteArray::number(++m_completions), model->name(),
                                    stream && includeUsage);
    if (stream)
        connection.respondStream(encoder.events(answer));
    else
        connection.respond(200, "application/json", encoder.body(answer));
}

/*! Listens on 127.0.0.1 only and hands every connection to the chat service. */
class LoopServer final : public QObject
{
    Q_OBJECT

public:
    explicit LoopServer(const ServerOptions &options, QObject *parent = nullptr)
        : QObject(parent)
        , m_server(this)
        , m_options(options)
    {
        connect(&m_server, &QTcpServer::newConnection, this, &LoopServer::acceptConnections);
    }

    bool listen(quint16 port) { return m_server.listen(QHostAddress::LocalHost, port); }
    quint16 port() const { return m_server.serverPort(); }
    QString errorString() const { return m_server.errorString(); }

private:
    void acceptConnections()
    {
        while (QTcpSocket *socket = m_server.nextPendingConnection())
            new HttpConnection(socket, &m_service, m_options, this);
    }

    QTcpServer m_server;
    ChatService m_service;
    const ServerOptions m_options;
};

} // namespace Loopscope::Bench

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"loopscope-bench-server"_s);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"A zero-latency OpenAI-compatible server for the loop benchmark. Model loop-K-P answers K rounds "
        "of P parallel calls to the tool add, then the sum of all tool results."_s);
    parser.addHelpOption();
    const QCommandLineOption portOption(u"port"_s, u"Port on 127.0.0.1; 0 picks a free one."_s, u"N"_s,
                                        u"0"_s);
    const QCommandLineOption flushOption(
        u"flush-events"_s,
        u"1: every stream event leaves in its own write, as from a real model; 0: one write per response."_s,
        u"0|1"_s, u"1"_s);
    const QCommandLineOption quickAckOption(
        u"quick-ack"_s,
        u"1: acknowledge request bytes at once; 0: keep Linux's 40 ms delayed ACK, which stalls "
        "QNetworkAccessManager uploads over 16 KiB."_s,
        u"0|1"_s, u"1"_s);
    parser.addOptions({portOption, flushOption, quickAckOption});
    parser.process(app);

    bool ok = false;
    const uint port = parser.value(portOption).toUInt(&ok);
    if (!ok || port > 65535) {
        std::fprintf(stderr, "loopscope-bench-server: --port wants a number from 0 to 65535\n");
        return 2;
    }
    Loopscope::Bench::ServerOptions options;
    options.flushEachEvent = parser.value(flushOption) != u"0";
    options.quickAck = parser.value(quickAckOption) != u"0";
    Loopscope::Bench::LoopServer server(options);
    if (!server.listen(quint16(port))) {
        std::fprintf(stderr, "loopscope-bench-server: cannot listen on 127.0.0.1:%u: %s\n", port,
                     qPrintable(server.errorString()));
        return 1;
    }
    // The benchmark (or a script) reads this line to learn the port.
    std::printf("listening on %u\n", unsigned(server.port()));
    std::fflush(stdout);
    return QCoreApplication::exec();
}

#include "loopserver.moc"
