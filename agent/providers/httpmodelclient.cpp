#include "agent/providers/httpmodelclient.h"

#include "agent/providers/readahead.h"
#include "agent/providers/recordedbody.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSet>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace Loopscope {

HttpModelClient::HttpModelClient(QNetworkAccessManager *network, std::unique_ptr<ProviderProtocol> protocol,
                                 ProviderEndpoint endpoint, QObject *parent)
    : ModelClient(parent)
    , m_network(network)
    , m_protocol(std::move(protocol))
    , m_endpoint(std::move(endpoint))
    , m_retryPolicy(m_endpoint.maxRetries)
    , m_clock(std::make_shared<SystemClock>())
{
    Q_ASSERT(m_network && m_protocol);
    m_redactor.addSecret(m_endpoint.apiKey);
    m_secretScan = m_redactor.scan();
    for (QTimer *timer : {&m_connectTimer, &m_readTimer, &m_retryTimer, &m_totalTimer})
        timer->setSingleShot(true);
    connect(&m_connectTimer, &QTimer::timeout, this, [this] { onTimeout(Timeout::Connect); });
    connect(&m_readTimer, &QTimer::timeout, this, [this] { onTimeout(Timeout::Read); });
    connect(&m_totalTimer, &QTimer::timeout, this, [this] { onTimeout(Timeout::Total); });
    connect(&m_rateTimer, &QTimer::timeout, this, &HttpModelClient::checkRate);
    connect(&m_retryTimer, &QTimer::timeout, this, &HttpModelClient::startAttempt);
    connect(&m_preparation, &QFutureWatcher<void>::finished, this, [this] {
        if (m_busy && m_waitingRequest)
            encodeAndStart(*std::exchange(m_waitingRequest, std::nullopt));
    });
}

HttpModelClient::~HttpModelClient()
{
    releaseReply();
}

QString HttpModelClient::providerName() const
{
    return m_protocol->name();
}

void HttpModelClient::setClock(std::shared_ptr<const Clock> clock)
{
    if (clock)
        m_clock = std::move(clock);
}

void HttpModelClient::send(const ModelRequest &request)
{
    Q_ASSERT_X(!m_busy, "HttpModelClient::send", "one request at a time");
    m_busy = true;
    // Images not yet prepared for this protocol (decoded, maybe scaled, base64) are prepared on the
    // thread pool first: a large one takes longer than the GUI thread may stall.
    const ImageLimits limits = m_protocol->imageLimits();
    QList<Attachment> unprepared;
    for (const Message &message : request.messages) {
        for (const Attachment &attachment : message.attachments) {
            if (attachment.isImage() && !AttachmentParts::isPrepared(attachment, limits))
                unprepared.append(attachment);
        }
    }
    if (unprepared.isEmpty()) {
        encodeAndStart(request);
        return;
    }
    m_waitingRequest = request;
    m_preparation.setFuture(QtConcurrent::run([unprepared, limits] {
        for (const Attachment &attachment : unprepared)
            AttachmentParts::image(attachment, limits);
    }));
}

void HttpModelClient::encodeAndStart(const ModelRequest &request)
{
    // An image no scaling brings within the provider's limits fails the request before anything is
    // sent; the ones that were scaled are named in every attempt's record, from what to what.
    const ImageLimits limits = m_protocol->imageLimits();
    m_scaledImages = {};
    QSet<QByteArray> named;
    for (const Message &message : request.messages) {
        for (const Attachment &attachment : message.attachments) {
            if (!attachment.isImage())
                continue;
            const auto image = AttachmentParts::image(attachment, limits);
            if (!image->ok()) {
                // Queued: the caller of send() hears of the failure after send() returned, as of any other.
                QMetaObject::invokeMethod(
                    this,
                    [this, error = image->error] {
                        if (m_busy)
                            fail({ModelError::Kind::Protocol, 0, error});
                    },
                    Qt::QueuedConnection);
                return;
            }
            if (image->scaled && !named.contains(attachment.sha256)) {
                named.insert(attachment.sha256);
                m_scaledImages.append(image->scaledRecord(attachment));
            }
        }
    }
    m_streaming = request.options.stream;
    m_body.clear(); // the protocol builds the new body in the old one's buffer, unless this still shares it
    m_call = m_protocol->encodeForSending(request, m_endpoint, m_encoded, &m_body);
    // Recorded with the other headers, so the trace shows what was sent.
    m_call.headers.prepend({"Content-Type"_ba, "application/json"_ba});
    m_retriesDone = 0;
    startAttempt();
}

void HttpModelClient::cancel()
{
    if (!m_busy)
        return;
    m_busy = false;
    m_retryTimer.stop();
    m_waitingRequest.reset();
    releaseReply();
}

void HttpModelClient::startAttempt()
{
    if (!m_busy)
        return;
    QNetworkRequest request(m_call.url);
    for (const auto &[name, value] : std::as_const(m_call.headers))
        request.setRawHeader(name, value);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);

    m_decoder = m_protocol->createDecoder(m_streaming);
    m_forwarder.reset();
    m_receivedBytes = 0;
    m_windowBytes = 0;
    m_errorBody.clear();
    m_secretScan.reset();
    m_httpStatus = 0;
    m_streamStarted = false;
    m_timedOut = Timeout::None;
    m_attemptStartedUs = m_clock->nowUs();

    m_reply = m_network->post(request, m_body);
    // Flow control: the network thread stops reading once this much waits unread, so a server that
    // sends faster than the answer is handled cannot grow the process behind the size limit's back.
    limitReadAhead(m_reply, ReadAheadBytes);
    connect(m_reply, &QNetworkReply::readyRead, this, &HttpModelClient::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &HttpModelClient::onFinished);
    // The connect timer runs until the request is on the wire; from then on
    // only silence longer than the read timeout counts.
    connect(m_reply, &QNetworkReply::requestSent, this, [this] {
        m_connectTimer.stop();
        m_readTimer.start(m_endpoint.readTimeoutMs);
    });
    m_connectTimer.start(m_endpoint.connectTimeoutMs);
    if (m_endpoint.limits.requestTimeoutMs > 0)
        m_totalTimer.start(m_endpoint.limits.requestTimeoutMs);
}

void HttpModelClient::onReadyRead()
{
    if (!m_reply)
        return;
    m_connectTimer.stop();
    m_readTimer.start(m_endpoint.readTimeoutMs);
    m_httpStatus = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray bytes = m_reply->readAll();
    if (bytes.isEmpty())
        return;
    if (m_receivedBytes == 0 && m_endpoint.limits.minBytesPerWindow > 0 && m_endpoint.limits.rateWindowMs > 0)
        m_rateTimer.start(m_endpoint.limits.rateWindowMs);
    m_receivedBytes += bytes.size();
    m_windowBytes += bytes.size();
    if (m_receivedBytes > m_endpoint.limits.maxResponseBytes) {
        onTimeout(Timeout::TooLarge);
        return;
    }
    if (m_httpStatus < 200 || m_httpStatus >= 300) {
        // Judged in onFinished; a prefix says what went wrong, the rest would only cost memory.
        m_errorBody
            += QByteArrayView(bytes).first(std::min(bytes.size(), MaxErrorBodyBytes - m_errorBody.size()));
        return;
    }
    m_streamStarted = true;
    m_secretScan.feed(bytes);
    const QString error = m_decoder->feed(bytes, m_forwarder);
    if (!error.isEmpty()) {
        const QJsonValue recorded = m_decoder->recordedResponse();
        releaseReply();
        finishAttempt(error, -1, recorded);
        fail({ModelError::Kind::Protocol, m_httpStatus, error});
    }
}

void HttpModelClient::onFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply || !m_busy)
        return;
    m_connectTimer.stop();
    m_readTimer.stop();
    // Take what is left before judging: a last chunk can come with finished().
    if (reply->bytesAvailable() > 0)
        onReadyRead();
    if (!m_reply)
        return; // the decoder already failed the request
    const QNetworkReply::NetworkError networkError = reply->error();
    const QString networkErrorText = reply->errorString();
    m_httpStatus = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    HttpHeaders responseHeaders;
    for (const auto &pair : reply->rawHeaderPairs())
        responseHeaders.append(pair);
    releaseReply();

    if (m_timedOut == Timeout::Total || m_timedOut == Timeout::TooSlow || m_timedOut == Timeout::TooLarge) {
        // Not retried: the same server would likely do it again.
        const QString message = limitMessage(m_timedOut);
        finishAttempt(message, -1, m_streamStarted ? m_decoder->recordedResponse() : QJsonValue());
        fail({m_timedOut == Timeout::TooLarge ? ModelError::Kind::Protocol : ModelError::Kind::Timeout,
              m_httpStatus, message});
        return;
    }
    if (m_timedOut != Timeout::None) {
        const bool connect = m_timedOut == Timeout::Connect;
        const QString message
            = connect ? tr("could not connect to %1 within %2 s")
                            .arg(m_call.url.host())
                            .arg(m_endpoint.connectTimeoutMs / 1000.0)
                      : tr("the provider sent nothing for %1 s").arg(m_endpoint.readTimeoutMs / 1000.0);
        if (m_streamStarted) {
            finishAttempt(message, -1, m_decoder->recordedResponse());
            fail({ModelError::Kind::Timeout, m_httpStatus, tr("The stream stopped: %1.").arg(message)});
        } else {
            retryOrFail({ModelError::Kind::Timeout, 0, message}, {});
        }
        return;
    }

    if (m_httpStatus >= 200 && m_httpStatus < 300) {
        if (networkError != QNetworkReply::NoError) {
            const QString message
                = tr("The connection was cut while the response arrived: %1").arg(networkErrorText);
            finishAttempt(message, -1, m_decoder->recordedResponse());
            fail({ModelError::Kind::Network, m_httpStatus, message});
            return;
        }
        auto outcome = m_decoder->finish();
        if (auto *error = std::get_if<QString>(&outcome)) {
            finishAttempt(*error, -1, m_decoder->recordedResponse());
            fail({ModelError::Kind::Protocol, m_httpStatus, *error});
            return;
        }
        ModelResponse response = std::get<ModelResponse>(std::move(outcome));
        response.streamedChunks = m_streaming ? m_decoder->chunkCount() : 0;
        // Recorded once, in the response; the attempt that brought it refers to it.
        response.raw = m_secretScan.mayHoldSecret() ? m_redactor.json(recordedSuccess()) : recordedSuccess();
        // A key the provider echoed must not reach the history, the trace or an export. Split across
        // two stream events it shows in no event, only in what they assemble: always looked for.
        response.text = m_redactor.text(response.text);
        for (ToolCall &call : response.toolCalls) {
            call.id = m_redactor.text(call.id);
            call.name = m_redactor.text(call.name);
            call.arguments = m_redactor.text(call.arguments);
            if (m_secretScan.mayHoldSecret())
                call.providerData = m_redactor.json(call.providerData).toObject();
        }
        finishAttempt({}, -1, QJsonValue::Undefined);
        succeed(std::move(response));
        return;
    }

    if (m_httpStatus == 0) {
        retryOrFail({ModelError::Kind::Network, 0,
                     tr("could not reach %1: %2").arg(m_call.url.host(), networkErrorText)},
                    {});
        return;
    }
    retryOrFail({ModelError::Kind::Http, m_httpStatus, describeHttpError(m_httpStatus, m_errorBody)},
                responseHeaders);
}

void HttpModelClient::checkRate()
{
    const qint64 received = std::exchange(m_windowBytes, 0);
    // Silence is the read timeout's to judge; a trickle is this one's.
    if (received > 0 && received < m_endpoint.limits.minBytesPerWindow)
        onTimeout(Timeout::TooSlow);
}

QString HttpModelClient::limitMessage(Timeout which) const
{
    const ResponseLimits &limits = m_endpoint.limits;
    switch (which) {
    case Timeout::Total:
        return tr("The answer took longer than the request time limit of %1 s (Settings → Loop, "
                  "--request-timeout-s); it was not retried.")
            .arg(limits.requestTimeoutMs / 1000.0);
    case Timeout::TooSlow:
        return tr("The answer came slower than the minimum rate of %1 bytes in %2 s; it was not retried.")
            .arg(limits.minBytesPerWindow)
            .arg(limits.rateWindowMs / 1000.0);
    case Timeout::TooLarge:
        return tr("The answer was larger than the response size limit of %1 MB (Settings → Loop, "
                  "--max-response-mb); it was cut and not retried.")
            .arg(double(limits.maxResponseBytes) / ResponseLimits::MegaByte);
    case Timeout::None:
    case Timeout::Connect:
    case Timeout::Read: break;
    }
    return {};
}

void HttpModelClient::onTimeout(Timeout which)
{
    if (!m_reply)
        return;
    m_timedOut = which;
    m_reply->abort(); // finished() follows, and onFinished() reports the timeout
}

void HttpModelClient::retryOrFail(const ModelError &error, const HttpHeaders &responseHeaders)
{
    const QJsonValue body = m_errorBody.isEmpty() ? QJsonValue() : [this] {
        const QJsonDocument document = QJsonDocument::fromJson(m_errorBody);
        return document.isNull() ? QJsonValue(QString::fromUtf8(m_errorBody)) : QJsonValue(document.object());
    }();
    const std::optional<qint64> delay
        = m_retryPolicy.retryDelay(m_retriesDone, error.httpStatus, responseHeaders);
    if (!delay) {
        finishAttempt(error.message, -1, body);
        fail(error);
        return;
    }
    const QString message = tr("%1 — retrying in %2 s (attempt %3 of %4)")
                                .arg(m_redactor.text(error.message))
                                .arg(QString::number(*delay / 1000.0, 'g', 3))
                                .arg(m_retriesDone + 2)
                                .arg(m_endpoint.maxRetries + 1);
    finishAttempt(message, *delay, body);
    ++m_retriesDone;
    m_retryTimer.start(int(*delay));
}

void HttpModelClient::finishAttempt(const QString &error, qint64 retryInMs, const QJsonValue &response)
{
    ModelAttempt attempt;
    attempt.number = m_retriesDone + 1;
    attempt.startedUs = m_attemptStartedUs;
    attempt.endedUs = m_clock->nowUs();
    attempt.httpStatus = m_httpStatus;
    attempt.error = m_redactor.text(error);
    attempt.retryInMs = retryInMs;
    QJsonObject headers;
    for (const auto &[name, value] : m_redactor.headers(m_call.headers))
        headers.insert(QString::fromLatin1(name), QString::fromUtf8(value));
    // The body is the protocol's encoding of the call's request, which the trace keeps: recording it
    // again would keep the whole history once per call (RecordedBody rebuilds it on demand).
    attempt.request = {{u"method"_s, u"POST"_s},
                       {u"url"_s, m_redactor.url(m_call.url).toString()},
                       {u"headers"_s, headers},
                       {RecordedBody::key.toString(), RecordedBody::fromRequest.toString()}};
    if (!m_scaledImages.isEmpty())
        attempt.request.insert(u"scaledImages"_s, m_scaledImages);
    // Providers echo keys in error bodies and stream events: scrub whatever is recorded.
    attempt.response = m_redactor.json(response);
    emit attemptFinished(attempt);
}

QJsonValue HttpModelClient::recordedSuccess() const
{
    QJsonValue recorded = m_decoder->recordedResponse();
    if (!m_streaming || !recorded.isArray())
        return recorded;
    // A stream that succeeded said nothing the assembled response does not hold: keep its shape
    // (how many events, the first one and the last two, which carry ids, usage, the finish reason
    // and the end marker), not every event, or a long answer would be kept several times over.
    const QJsonArray events = recorded.toArray();
    constexpr qsizetype KeptWhole = 6;
    if (events.size() <= KeptWhole)
        return recorded;
    return QJsonObject{{u"streamEvents"_s, events.size()},
                       {u"first"_s, QJsonArray{events.first()}},
                       {u"last"_s, QJsonArray{events.at(events.size() - 2), events.last()}},
                       {u"omitted"_s, u"the events between: the response assembles what they said"_s}};
}

void HttpModelClient::succeed(ModelResponse response)
{
    m_forwarder.flush();
    m_busy = false;
    emit finished(response);
}

void HttpModelClient::fail(const ModelError &error)
{
    m_forwarder.flush();
    m_busy = false;
    ModelError redacted = error;
    redacted.message = m_redactor.text(error.message);
    emit failed(redacted);
}

void HttpModelClient::releaseReply()
{
    m_connectTimer.stop();
    m_readTimer.stop();
    m_totalTimer.stop();
    m_rateTimer.stop();
    if (QNetworkReply *reply = m_reply.data()) {
        m_reply = nullptr;
        reply->disconnect(this);
        if (reply->isRunning())
            reply->abort();
        reply->deleteLater();
    }
}

void HttpModelClient::Forwarder::textDelta(const QString &text)
{
    const QString safe = m_client->m_redactor.passOn(m_heldText, text);
    if (!safe.isEmpty())
        emit m_client->textDelta(safe);
}

void HttpModelClient::Forwarder::toolCallDelta(const ToolCallDelta &delta)
{
    const SecretRedactor &redactor = m_client->m_redactor;
    ToolCallDelta safe = delta;
    safe.id = redactor.text(delta.id);
    safe.name = redactor.text(delta.name);
    ToolCallDelta &held = m_heldArguments[delta.index];
    held.index = delta.index;
    safe.argumentsFragment = redactor.passOn(held.argumentsFragment, delta.argumentsFragment);
    if (!safe.id.isEmpty() || !safe.name.isEmpty() || !safe.argumentsFragment.isEmpty())
        emit m_client->toolCallDelta(safe);
}

void HttpModelClient::Forwarder::flush()
{
    const SecretRedactor &redactor = m_client->m_redactor;
    if (!m_heldText.isEmpty())
        emit m_client->textDelta(redactor.passOn(m_heldText, {}, true));
    for (ToolCallDelta &held : m_heldArguments) {
        if (held.argumentsFragment.isEmpty())
            continue;
        held.argumentsFragment = redactor.passOn(held.argumentsFragment, {}, true);
        emit m_client->toolCallDelta(held);
    }
    reset();
}

void HttpModelClient::Forwarder::reset()
{
    m_heldText.clear();
    m_heldArguments.clear();
}

QString HttpModelClient::describeHttpError(int status, const QByteArray &body) const
{
    return describeHttpStatus(*m_protocol, status, body);
}

} // namespace Loopscope
