#pragma once

#include "agent/providers/providerkind.h"
#include "agent/providers/providerprotocol.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QUrl>

#include <memory>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
class QNetworkReply;
QT_END_NAMESPACE

namespace Loopscope {

/*!
    Asks a provider which models it offers, through the list endpoint every
    protocol has (GET …/models, /v1/models, /v1beta/models, /api/tags). It
    costs no tokens, so it is what the settings' connection test and a model
    picker use. Pages are followed to the end (bounded); the key goes in a
    header and never into a message. One listing at a time; a new list()
    drops the one in flight.
*/
class ModelLister final : public QObject
{
    Q_OBJECT

public:
    static constexpr int DefaultTimeoutMs = 30'000;
    static constexpr int MaxPages = 20;

    explicit ModelLister(QNetworkAccessManager *network, QObject *parent = nullptr);
    ~ModelLister() override;

    // timeoutMs bounds the whole listing, every page included.
    void list(ProviderKind kind, const QUrl &baseUrl, const QString &apiKey,
              int timeoutMs = DefaultTimeoutMs);
    void cancel();
    bool isRunning() const { return !m_reply.isNull(); }

signals:
    void listed(const QStringList &models);
    void failed(const QString &message);

private:
    void requestPage(const QString &pageToken);
    void onFinished();
    void fail(const QString &message);
    void release();

    QNetworkAccessManager *m_network;
    std::unique_ptr<ProviderProtocol> m_protocol;
    ProviderEndpoint m_endpoint;
    QPointer<QNetworkReply> m_reply;
    QTimer m_deadline;
    QStringList m_models;
    int m_pages = 0;
    bool m_timedOut = false;
};

} // namespace Loopscope
