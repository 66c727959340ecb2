#pragma once

#include "agent/model/modelrequest.h"
#include "agent/model/responselimits.h"
#include "agent/providers/attachmentparts.h"
#include "agent/wire/httpheaders.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <variant>

namespace Loopscope {

/*! Where and how to reach one provider. The key lives in memory only. */
struct ProviderEndpoint
{
    QUrl baseUrl;
    QString apiKey;
    int connectTimeoutMs = 5'000;
    int readTimeoutMs = 600'000; // idle time between reads, not the whole response
    int maxRetries = 2;
    int defaultMaxOutputTokens = 4096; // for protocols that require one (Anthropic)
    ResponseLimits limits;
};

/*! One HTTP request as a protocol wants it sent. */
struct HttpCall
{
    QUrl url;
    HttpHeaders headers;
    QJsonObject body;
};

/*!
    The body a protocol sent for the previous request, and the compact JSON of each message in it.
    A tool loop resends its whole history with every call; with this, only the messages added since
    are encoded, and the body is built in place in the last one's buffer: a call costs its new
    messages, not its whole history. A message's bytes are reused only when it equals the message
    encoded at its position, so an edited history (the debugger) is encoded afresh from the first
    change. A leading system message is kept apart: the loop adds a note to it near the iteration
    limit, and that must not move every other message out of the cache.
*/
class EncodedMessages final
{
public:
    using Encoder = std::function<QByteArray(const Message &)>; // a message's compact JSON text

    // \a head, the JSON texts of \a messages joined with commas (each from \a encode unless
    // cached), then \a tail. The caller should hold no earlier body when it asks, or the buffer is
    // copied before it is changed.
    QByteArray body(QByteArrayView head, const QList<Message> &messages, const Encoder &encode,
                    QByteArrayView tail);
    // What \a encode gives for the rest of \a request (its tools, tool choice and options), which
    // stays the same from call to call of a turn: encoded again only when that changed.
    QByteArray rest(const ModelRequest &request, const std::function<QByteArray()> &encode);
    void clear();

    // What the last body() cost: the bytes of the messages it encoded, and those of an earlier
    // body it had to copy because a caller still held that body. In a tool loop both stay the size
    // of the messages a call adds, however long the history grows (tests/agent/tst_turncost).
    struct Cost
    {
        qsizetype encodedBytes = 0;
        qsizetype copiedBytes = 0;
    };
    Cost lastCost() const { return m_lastCost; }

private:
    // m_body is the head, the system message and a comma when there is one (m_prefixSize bytes),
    // the history's messages joined, and the tail. Each history message ends at its offset in
    // m_ends, counted from the end of the prefix; the comma before the next one is not included.
    QByteArray m_body;
    qsizetype m_prefixSize = 0;
    QList<Message> m_messages;
    QList<qsizetype> m_ends;
    std::optional<Message> m_system;
    QByteArray m_systemBytes;
    std::optional<ModelRequest> m_restOf; // the request the rest was encoded for, without messages
    QByteArray m_restBytes;
    Cost m_lastCost;
};

/*! One page of a provider's model list, as its list endpoint returns it. */
struct ModelListPage
{
    QStringList models;    // the names a request's "model" accepts
    QString nextPageToken; // empty on the last page
};

/*!
    What a provider says about one model's context, from its model-information endpoint:
    the length the model was trained for and, where the server keeps one, the window it is
    configured to run with (an Ollama Modelfile's num_ctx). Either may be missing.
*/
struct ModelContextInfo
{
    std::optional<qint64> contextLength;
    std::optional<qint64> configuredWindow;

    bool operator==(const ModelContextInfo &) const = default;
};

/*! What a decoder tells the client while a response streams in. */
class StreamSink
{
public:
    virtual ~StreamSink() = default;
    virtual void textDelta(const QString &text) = 0;
    virtual void toolCallDelta(const ToolCallDelta &delta) = 0;
};

/*!
    Turns one provider's response bytes into a ModelResponse. A streaming
    decoder is fed the body as it arrives; a plain one gets it whole in
    feed() too. finish() says how it ended: a response or a protocol error
    (a malformed chunk, an error event inside a 200 stream, a cut stream).
*/
class ResponseDecoder
{
public:
    virtual ~ResponseDecoder() = default;
    // Returns an error message to stop early (e.g. an error event), else empty.
    virtual QString feed(QByteArrayView bytes, StreamSink &sink) = 0;
    virtual std::variant<ModelResponse, QString> finish() = 0;
    // Streamed events or chunks seen so far, for the trace.
    virtual int chunkCount() const = 0;
    // What to record as the response in the trace: the body, or the stream's events.
    virtual QJsonValue recordedResponse() const = 0;
};

/*!
    The non-streaming half of most protocols: the body arrives whole and must
    be one JSON object. Subclasses only say what the object means.
*/
class JsonBodyDecoder : public ResponseDecoder
{
public:
    // \a provider names the service in the message for a body that is not JSON.
    explicit JsonBodyDecoder(QString provider)
        : m_provider(std::move(provider))
    {}

    QString feed(QByteArrayView bytes, StreamSink &sink) final;
    std::variant<ModelResponse, QString> finish() final;
    int chunkCount() const final { return 0; }
    QJsonValue recordedResponse() const final;

protected:
    virtual std::variant<ModelResponse, QString> decode(const QJsonObject &body) = 0;

private:
    QString m_provider;
    QByteArray m_body;
    QJsonObject m_parsed; // the body, once finish() parsed it
};

/*!
    One wire protocol, with no network in it: how a provider-neutral request
    becomes an HTTP call, how the answer is decoded, and how the provider
    words its errors. HttpModelClient does the sending, retrying and timing.
*/
class ProviderProtocol
{
public:
    virtual ~ProviderProtocol() = default;

    virtual QString name() const = 0; // "openai", "anthropic", "gemini", "ollama"
    virtual HttpCall encode(const ModelRequest &request, const ProviderEndpoint &endpoint) const = 0;
    // The call as HttpModelClient sends it: url and headers, the body only as \a body's bytes (the
    // returned call's body is empty). They parse to encode()'s body. The default serialises
    // encode()'s body; a protocol whose messages encode one by one reuses \a cache.
    virtual HttpCall encodeForSending(const ModelRequest &request, const ProviderEndpoint &endpoint,
                                      EncodedMessages &cache, QByteArray *body) const;
    virtual std::unique_ptr<ResponseDecoder> createDecoder(bool streaming) const = 0;
    // What the provider takes of an image as it is; AttachmentParts scales or converts the rest.
    virtual ImageLimits imageLimits() const = 0;
    // The GET request for the provider's model list: the first page, or the one after \a pageToken.
    // It costs nothing, which is why the settings' connection test uses it.
    virtual HttpCall encodeModelList(const ProviderEndpoint &endpoint, const QString &pageToken) const = 0;
    // One page of that list, or what is wrong with the body.
    virtual std::variant<ModelListPage, QString> decodeModelList(const QJsonObject &body) const = 0;
    // The provider's own error text from an error body, empty if it has none.
    virtual QString errorMessage(const QByteArray &body) const;
    // The request for what the provider says about \a model (Ollama's POST /api/show, Gemini's
    // GET models/{model}); nullopt for a protocol without one. A call with a body is a POST.
    virtual std::optional<HttpCall> encodeModelInfo(const ProviderEndpoint &endpoint,
                                                    const QString &model) const;
    // The model's context as that answer gives it; empty fields where it says nothing.
    virtual ModelContextInfo decodeModelInfo(const QJsonObject &body) const;
};

// An HTTP error status in words for the user ("the API key was rejected (401): …"), with the
// provider's own explanation from the body when it gives one.
QString describeHttpStatus(const ProviderProtocol &protocol, int status, const QByteArray &body);

} // namespace Loopscope
