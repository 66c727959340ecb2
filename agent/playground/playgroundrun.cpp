#include "agent/playground/playgroundrun.h"

#include "agent/config/apikeyresolver.h"
#include "agent/providers/httpmodelclient.h"
#include "agent/providers/providerfactory.h"
#include "agent/trace/trace.h"

namespace Loopscope {

PlaygroundRun::PlaygroundRun(QNetworkAccessManager *network, SecretStore *secrets, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_secrets(secrets)
    , m_clock(std::make_shared<SystemClock>())
{}

PlaygroundRun::~PlaygroundRun() = default;

void PlaygroundRun::start(const ProviderProfile &profile, const ModelRequest &request)
{
    Q_ASSERT(!m_running);
    m_running = true;
    m_profile = profile;
    m_variant = {};
    m_variant.request = request;
    if (m_variant.request.options.model.isEmpty())
        m_variant.request.options.model = profile.model;
    m_variant.profileName = profile.name;
    m_variant.providerKind = providerKindName(profile.kind);
    // A URL may carry credentials (user:password@, ?key=): the variant is saved, they are not.
    m_variant.baseUrl = profile.effectiveBaseUrl().toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery);
    m_variant.model = m_variant.request.options.model;
    m_variant.startedUs = m_clock->nowUs();

    const int generation = ++m_generation;
    ApiKeyResolver(m_secrets).resolve(profile, this, [this, generation](const ApiKeyResolver::Result &key) {
        if (generation != m_generation || !m_running)
            return;
        using Status = ApiKeyResolver::Result::Status;
        switch (key.status) {
        case Status::Found:
        case Status::NotNeeded: send(key.key); return;
        case Status::EnvironmentUnset:
            m_variant.error = tr("The environment variable %1 that \"%2\" takes its key from is not set.")
                                  .arg(m_profile.apiKeyEnv, m_profile.name);
            break;
        case Status::NotStored:
            m_variant.error = tr("No API key is stored for \"%1\".").arg(m_profile.name);
            break;
        case Status::NoKeychain:
            m_variant.error = tr("No keychain is available on this desktop to hold the key for \"%1\".")
                                  .arg(m_profile.name);
            break;
        case Status::KeychainUnreadable:
            m_variant.error = tr("The keychain could not give the key for \"%1\": %2")
                                  .arg(m_profile.name, key.keychainError);
            break;
        case Status::KeyFileUnreadable:
            m_variant.error = tr("The key file could not give the key for \"%1\": %2")
                                  .arg(m_profile.name, key.keychainError);
            break;
        }
        finish(m_variant);
    });
}

void PlaygroundRun::send(const QString &key)
{
    ProviderEndpoint endpoint;
    endpoint.baseUrl = m_profile.effectiveBaseUrl();
    endpoint.apiKey = key;
    // One try: what the user tries out is the provider's own answer, a 429 or 500 included.
    endpoint.maxRetries = 0;
    auto client
        = std::make_unique<HttpModelClient>(m_network, createProviderProtocol(m_profile.kind), endpoint);
    client->setClock(m_clock);
    connect(client.get(), &ModelClient::textDelta, this, &PlaygroundRun::textDelta);
    connect(client.get(), &ModelClient::finished, this, [this](const ModelResponse &response) {
        m_variant.response = response;
        finish(m_variant);
    });
    connect(client.get(), &ModelClient::failed, this, [this](const ModelError &error) {
        m_variant.error = error.message;
        m_variant.httpStatus = error.httpStatus;
        finish(m_variant);
    });
    m_client = std::move(client);
    m_client->send(m_variant.request);
}

void PlaygroundRun::cancel()
{
    if (!m_running)
        return;
    m_running = false;
    ++m_generation;
    if (m_client)
        m_client->cancel();
}

void PlaygroundRun::finish(ModelCallVariant variant)
{
    if (!m_running)
        return;
    m_running = false;
    variant.endedUs = m_clock->nowUs();
    // The client may be the sender of this signal: let it return before it goes.
    if (m_client)
        m_client.release()->deleteLater();
    emit finished(variant);
}

bool addModelCallVariant(Trace &trace, int node, const ModelCallVariant &variant)
{
    if (!trace.isValid(node) || !std::holds_alternative<ModelCallData>(trace.node(node).payload))
        return false;
    trace.update(node, [&](TraceNode &call) { call.data<ModelCallData>().variants.append(variant); });
    return true;
}

} // namespace Loopscope
