#include "agent/providers/connectiontester.h"

#include "agent/providers/httpmodelclient.h"
#include "agent/providers/providerfactory.h"

#include <QNetworkAccessManager>

using namespace Qt::StringLiterals;

namespace Loopscope {

ConnectionTester::ConnectionTester(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_network(network)
{
    Q_ASSERT(network);
}

ConnectionTester::~ConnectionTester()
{
    release();
}

void ConnectionTester::test(ProviderKind kind, const QUrl &baseUrl, const QString &model,
                            const QString &apiKey, int timeoutMs)
{
    release();

    ProviderEndpoint endpoint;
    endpoint.baseUrl = baseUrl;
    endpoint.apiKey = apiKey;
    endpoint.connectTimeoutMs = qMin(endpoint.connectTimeoutMs, timeoutMs);
    endpoint.readTimeoutMs = timeoutMs;
    endpoint.maxRetries = 0; // a test should say what is wrong now, not wait it out

    ModelRequest request;
    request.messages = {Message::user(u"ping"_s)};
    request.options.model = model;
    request.options.maxOutputTokens = 16;
    request.options.stream = false;

    auto *client = new HttpModelClient(m_network, createProviderProtocol(kind), endpoint, this);
    m_client = client;
    connect(client, &ModelClient::finished, this, [this, model](const ModelResponse &response) {
        release();
        emit succeeded(tr("Connected: %1 answered.").arg(response.model.isEmpty() ? model : response.model));
    });
    connect(client, &ModelClient::failed, this, [this](const ModelError &error) {
        release();
        emit failed(error.message);
    });
    client->send(request);
}

void ConnectionTester::cancel()
{
    release();
}

void ConnectionTester::release()
{
    if (HttpModelClient *client = m_client) {
        m_client = nullptr;
        client->disconnect(this);
        client->cancel();
        client->deleteLater();
    }
}

} // namespace Loopscope
