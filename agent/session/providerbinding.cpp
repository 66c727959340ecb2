#include "agent/session/providerbinding.h"

#include "agent/config/profilepricing.h"
#include "agent/providers/contextwindowlookup.h"
#include "agent/providers/httpmodelclient.h"
#include "agent/providers/modellister.h"
#include "agent/providers/providerfactory.h"

#include <QTimer>

#include <tuple>
#include <utility>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

/*!
    The model client when no request can go out: before a provider is chosen,
    or for a profile without a usable key. Every request fails at once with
    a message that says what to do, so the agent never waits on nothing.
*/
class UnavailableClient final : public ModelClient
{
public:
    UnavailableClient(QString providerName, QString reason)
        : m_providerName(std::move(providerName))
        , m_reason(std::move(reason))
    {}

    void send(const ModelRequest &) override
    {
        // Asynchronous like every client: the agent is still inside send().
        QTimer::singleShot(0, this, [this] { emit failed({ModelError::Kind::Protocol, 0, m_reason}); });
    }
    void cancel() override {}
    QString providerName() const override { return m_providerName; }

private:
    QString m_providerName;
    QString m_reason;
};

ProviderEndpoint endpointOf(const SessionSetup::Provider &provider, const ResponseLimits &limits)
{
    ProviderEndpoint endpoint;
    endpoint.baseUrl = provider.profile.effectiveBaseUrl();
    endpoint.apiKey = provider.apiKey;
    endpoint.readTimeoutMs = provider.readTimeoutMs;
    endpoint.limits = limits;
    return endpoint;
}

} // namespace

ProviderBinding::ProviderBinding(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_client(makeClient())
    , m_windowLookup(new ContextWindowLookup(network, this))
{
    connect(m_windowLookup, &ContextWindowLookup::settled, this, [this] {
        updateContextWindow();
        emit contextWindowSettled();
    });
}

ProviderBinding::~ProviderBinding() = default;

std::unique_ptr<ModelClient> ProviderBinding::refusingClient(const QString &providerName,
                                                             const QString &reason)
{
    return std::make_unique<UnavailableClient>(providerName, reason);
}

std::unique_ptr<ModelClient> ProviderBinding::makeClient() const
{
    if (!m_provider)
        return std::make_unique<UnavailableClient>(
            u"none"_s, tr("No provider is configured: add one in Settings → Providers."));
    return createClientFor(*m_provider);
}

std::unique_ptr<ModelClient> ProviderBinding::createClientFor(const SessionSetup::Provider &provider) const
{
    if (!provider.isUsable())
        return std::make_unique<UnavailableClient>(providerKindName(provider.profile.kind),
                                                   provider.keyProblem);
    return std::make_unique<HttpModelClient>(m_network, createProviderProtocol(provider.profile.kind),
                                             endpointOf(provider, m_limits));
}

std::unique_ptr<ModelClient> ProviderBinding::bind(const std::optional<SessionSetup::Provider> &provider)
{
    // A listing for another endpoint would offer models this one may not have.
    const auto endpointKey = [](const std::optional<SessionSetup::Provider> &p) {
        return p ? std::tuple(p->profile.kind, p->profile.effectiveBaseUrl(), p->apiKey)
                 : std::tuple(ProviderKind::OpenAi, QUrl(), QString());
    };
    if (m_lister && (!m_provider || !provider || endpointKey(m_provider) != endpointKey(provider)))
        m_lister->cancel();
    m_provider = provider;
    std::unique_ptr<ModelClient> previous = std::exchange(m_client, makeClient());
    updateContextWindow();
    return previous;
}

bool ProviderBinding::setModel(const QString &model)
{
    const QString name = model.trimmed();
    if (!m_provider || name.isEmpty())
        return false;
    m_provider->profile.model = name;
    updateContextWindow();
    return true;
}

void ProviderBinding::setLimits(const ResponseLimits &limits)
{
    m_limits = limits;
    // The bound client takes them from its next attempt; the one in flight keeps its own.
    if (auto *http = qobject_cast<HttpModelClient *>(m_client.get()))
        http->setLimits(limits);
}

ModelClient *ProviderBinding::client() const
{
    return m_client.get();
}

std::unique_ptr<ModelClient> ProviderBinding::createModelClient() const
{
    if (!m_provider)
        return nullptr;
    return makeClient();
}

void ProviderBinding::listModels()
{
    if (!m_provider)
        return;
    if (!m_lister) {
        m_lister = new ModelLister(m_network, this);
        connect(m_lister, &ModelLister::listed, this, &ProviderBinding::modelsListed);
        connect(m_lister, &ModelLister::failed, this, &ProviderBinding::modelsListFailed);
    }
    if (!m_provider->isUsable()) {
        // Without a key the provider would only refuse; the reason is the answer.
        m_lister->cancel();
        QTimer::singleShot(0, m_lister,
                           [this, reason = m_provider->keyProblem] { emit modelsListFailed(reason); });
        return;
    }
    const ProviderEndpoint endpoint = endpointOf(*m_provider, m_limits);
    m_lister->list(m_provider->profile.kind, endpoint.baseUrl, endpoint.apiKey);
}

namespace {

// \a loop's options with \a profile's model and \a window; the profile's sampling parameters are
// defaults, the loop's own win, and so does a window the loop was given (--context-window).
AgentConfig onProfile(const AgentConfig &loop, const ProviderProfile &profile, std::optional<qint64> window)
{
    AgentConfig config = loop;
    const ModelOptions own = config.model;
    config.model = profile.defaults;
    config.model.model = profile.model;
    config.model.stream = own.stream;
    if (own.temperature)
        config.model.temperature = own.temperature;
    if (own.topP)
        config.model.topP = own.topP;
    if (own.maxOutputTokens)
        config.model.maxOutputTokens = own.maxOutputTokens;
    config.model.contextWindow = own.contextWindow ? own.contextWindow : window;
    return config;
}

} // namespace

AgentConfig ProviderBinding::configFor(const AgentConfig &loop) const
{
    if (!m_provider) {
        AgentConfig config = loop;
        config.model.contextWindow = loop.model.contextWindow ? loop.model.contextWindow : m_contextWindow;
        return config;
    }
    return onProfile(loop, m_provider->profile, m_contextWindow);
}

AgentConfig ProviderBinding::configOn(const ProviderProfile &profile, const AgentConfig &loop) const
{
    // No lookup of its own: what an earlier one said for this endpoint and model, else the profile's
    // and the table's window.
    const QUrl baseUrl = profile.effectiveBaseUrl();
    const std::optional<qint64> window = ContextWindowChoice::choose(
        profile.kind, profile.contextWindow, m_windowLookup->answer(profile.kind, baseUrl, profile.model),
        PriceTable::builtIn().contextWindow(providerKindName(profile.kind), profile.model, baseUrl));
    return onProfile(loop, profile, window);
}

void ProviderBinding::updateContextWindow()
{
    m_contextWindow.reset();
    if (!m_provider)
        return;
    const ProviderProfile &profile = m_provider->profile;
    const QUrl baseUrl = profile.effectiveBaseUrl();
    m_contextWindow = ContextWindowChoice::choose(
        profile.kind, profile.contextWindow, m_windowLookup->answer(profile.kind, baseUrl, profile.model),
        PriceTable::builtIn().contextWindow(providerKindName(profile.kind), profile.model, baseUrl));
}

void ProviderBinding::lookUpContextWindow()
{
    // Without a key Gemini would only refuse; the profile's own window needs no asking.
    if (!m_provider || !m_provider->isUsable() || m_provider->profile.contextWindow.value_or(0) > 0)
        return;
    m_windowLookup->lookUp(m_provider->profile.kind, endpointOf(*m_provider, m_limits),
                           m_provider->profile.model);
}

bool ProviderBinding::isLookingUpContextWindow() const
{
    return m_provider
           && m_windowLookup->isPending(m_provider->profile.kind, m_provider->profile.effectiveBaseUrl(),
                                        m_provider->profile.model);
}

void ProviderBinding::setContextWindowTimeoutMs(int timeoutMs)
{
    m_windowLookup->setTimeoutMs(timeoutMs);
}

PriceLookup ProviderBinding::priceLookup() const
{
    if (!m_provider)
        return {};
    return ProfilePricing(m_provider->profile, PriceTable::builtIn()).lookup();
}

} // namespace Loopscope
