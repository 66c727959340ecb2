#pragma once

#include "agent/providers/providerkind.h"

#include <QUrl>

#include <QObject>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

class ModelLister;

/*!
    Answers "does this provider work?" for the settings, beside OllamaProbe so
    that no widget creates a network client. It asks for the provider's model
    list (ModelLister): that checks the address, the key and the protocol
    without spending a token on a paid API, and tells whether the profile's
    model is on offer. One test at a time; a new test() drops the one in flight.
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
    bool isRunning() const;

signals:
    void succeeded(const QString &message);
    void failed(const QString &message);

private:
    void report(const QStringList &models);

    ModelLister *m_lister;
    ProviderKind m_kind = ProviderKind::OpenAi;
    QString m_model;
};

} // namespace Loopscope
