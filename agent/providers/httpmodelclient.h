#pragma once

#include "agent/model/modelclient.h"
#include "agent/providers/providerprotocol.h"
#include "agent/providers/retrypolicy.h"
#include "agent/trace/clock.h"
#include "agent/wire/secretredactor.h"

#include <QFutureWatcher>
#include <QHash>
#include <QJsonArray>
#include <QPointer>
#include <QTimer>

#include <memory>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
QT_END_NAMESPACE

namespace Loopscope {

/*!
    A ModelClient that speaks HTTP for any ProviderProtocol: it sends the
    encoded request on a shared QNetworkAccessManager, streams the body
    through the protocol's decoder, retries what the SDKs retry (never once a
    stream has started), enforces the connect and idle-read timeouts and the
    ResponseLimits (size, total time, minimum rate: an answer cut by one is
    not retried), and reports every attempt, redacted, for the trace. What it
    passes on of a successful answer is redacted too, deltas included, even
    when a key is split across two reads.
*/
class HttpModelClient final : public ModelClient
{
    Q_OBJECT

public:
    HttpModelClient(QNetworkAccessManager *network, std::unique_ptr<ProviderProtocol> protocol,
                    ProviderEndpoint endpoint, QObject *parent = nullptr);
    ~HttpModelClient() override;

    void send(const ModelRequest &request) override;
    void cancel() override;
    QString providerName() const override;

    const ProviderEndpoint &endpoint() const { return m_endpoint; }
    void setClock(std::shared_ptr<const Clock> clock);
    RetryPolicy &retryPolicy() { return m_retryPolicy; }
    // What building the last request's body cost, for the tests that keep a long turn cheap.
    EncodedMessages::Cost lastEncodingCost() const { return m_encoded.lastCost(); }
    // For the next attempt; the one in flight keeps its limits.
    void setLimits(const ResponseLimits &limits) { m_endpoint.limits = limits; }

    // How much of an error body is kept for the message and the trace.
    static constexpr qsizetype MaxErrorBodyBytes = 64 * 1024;
    static constexpr qint64 ReadAheadBytes = 1024 * 1024;

private:
    enum class Timeout { None, Connect, Read, Total, TooSlow, TooLarge };

    void encodeAndStart(const ModelRequest &request);
    void startAttempt();
    void onReadyRead();
    void onFinished();
    void onTimeout(Timeout which);
    void checkRate();
    QString limitMessage(Timeout which) const;
    void retryOrFail(const ModelError &error, const HttpHeaders &responseHeaders);
    void succeed(ModelResponse response);
    void fail(const ModelError &error);
    void finishAttempt(const QString &error, qint64 retryInMs, const QJsonValue &response);
    void releaseReply();
    QJsonValue recordedSuccess() const;
    QString describeHttpError(int status, const QByteArray &body) const;

    // Forwards a decoder's deltas as this client's signals, redacted: the end of a delta that could
    // begin a secret waits for the next one, so a key split across two reads is still caught.
    class Forwarder final : public StreamSink
    {
    public:
        explicit Forwarder(HttpModelClient *client)
            : m_client(client)
        {}
        void textDelta(const QString &text) override;
        void toolCallDelta(const ToolCallDelta &delta) override;
        // Passes on what was held back, at the end of a stream.
        void flush();
        void reset();

    private:
        HttpModelClient *m_client;
        QString m_heldText;
        QHash<int, ToolCallDelta> m_heldArguments; // by tool call index
    };

    QNetworkAccessManager *m_network;
    std::unique_ptr<ProviderProtocol> m_protocol;
    ProviderEndpoint m_endpoint;
    RetryPolicy m_retryPolicy;
    SecretRedactor m_redactor;
    SecretScan m_secretScan; // of the response body in flight
    std::shared_ptr<const Clock> m_clock;
    Forwarder m_forwarder{this};

    // The request in flight. Not the request itself: holding its messages would make the agent's
    // next append to its history copy the whole list.
    bool m_streaming = false;
    HttpCall m_call; // url and headers; the body is m_body
    EncodedMessages m_encoded;
    QByteArray m_body;
    QPointer<QNetworkReply> m_reply;
    // A request whose images are being scaled and encoded on the thread pool (the first request that
    // carries them; later ones find them ready), and what the trace says of the scaled ones.
    std::optional<ModelRequest> m_waitingRequest;
    QFutureWatcher<void> m_preparation;
    QJsonArray m_scaledImages;
    std::unique_ptr<ResponseDecoder> m_decoder;
    QByteArray m_errorBody;
    int m_httpStatus = 0;
    int m_retriesDone = 0;
    bool m_busy = false;
    bool m_streamStarted = false;
    qint64 m_attemptStartedUs = 0;
    Timeout m_timedOut = Timeout::None;
    QTimer m_connectTimer;
    QTimer m_readTimer;
    QTimer m_retryTimer;
    QTimer m_totalTimer;
    QTimer m_rateTimer;
    qint64 m_receivedBytes = 0; // of the body in this attempt
    qint64 m_windowBytes = 0;   // since the rate timer last looked
};

} // namespace Loopscope
