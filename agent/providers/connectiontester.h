#pragma once

#include "agent/providers/providerkind.h"

#include <QUrl>

#include <QObject>
#include <QPointer>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

class HttpModelClient;

/*!
    Answers "does this provider work?" for the settings, beside OllamaProbe so
    that no widget creates a network client: it sends one tiny
    request ("ping", a few output tokens, no stream, no retry) through the
    same HttpModelClient a chat would use, and reports the client's own words
    for a failure. One test at a time; a new test() drops the one in flight.
*/
class ConnectionTester final : public QObject
{
    Q_OBJECT

public:
    static constexpr int DefaultTimeoutMs = 30'000;

    explicit ConnectionTester(QNetworkAccessManager *network, QObject *parent = nullptr);
    ~ConnectionTester() override;

    // Tests \a model at \a baseUrl over \a kind's protocol. apiKey may be empty
    // (a local server); it lives only as long as the request.
    void test(ProviderKind kind, const QUrl &baseUrl, const QString &model, const QString &apiKey,
              int timeoutMs = DefaultTimeoutMs);
    void cancel();
    bool isRunning() const { return !m_client.isNull(); }

signals:
    void succeeded(const QString &message);
    void failed(const QString &message);

private:
    void release();

    QNetworkAccessManager *m_network;
    QPointer<HttpModelClient> m_client;
};

} // namespace Loopscope
