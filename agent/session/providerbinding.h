#pragma once

#include "agent/loop/agentconfig.h"
#include "agent/model/modelclient.h"
#include "agent/model/responselimits.h"
#include "agent/session/sessionsetup.h"
#include "agent/trace/tracecost.h"

#include <QObject>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

class ContextWindowLookup;
class ModelLister;

/*!
    The session's provider: a profile and its key made into the model client
    the agent talks to, the models that provider lists, and what its model
    costs and holds. A profile without a usable key is bound all the same, to
    a client whose every request fails with the reason, so a turn never goes
    out over another profile's protocol. No provider: a client that says how to add one.
*/
class ProviderBinding final : public QObject
{
    Q_OBJECT

public:
    explicit ProviderBinding(QNetworkAccessManager *network, QObject *parent = nullptr);
    ~ProviderBinding() override;

    // The client for \a provider from now on; the previous one is handed back, to be let go once
    // nothing points to it.
    [[nodiscard]] std::unique_ptr<ModelClient> bind(const std::optional<SessionSetup::Provider> &provider);
    const std::optional<SessionSetup::Provider> &provider() const { return m_provider; }
    // Another model of the bound profile; false without a provider or a name.
    bool setModel(const QString &model);
    // What one answer may cost, for the bound client (from its next attempt) and every client made
    // from now on, whatever the provider.
    void setLimits(const ResponseLimits &limits);
    const ResponseLimits &limits() const { return m_limits; }
    ModelClient *client() const;
    // A second client like client(), e.g. for a replay that goes live; nullptr without a provider.
    std::unique_ptr<ModelClient> createModelClient() const;
    // A client for \a provider (another profile than the bound one, e.g. an agent's own) with the same
    // limits; one that refuses every request with the reason when it has no usable key.
    std::unique_ptr<ModelClient> createClientFor(const SessionSetup::Provider &provider) const;
    // A client whose every request fails with \a reason, reaching no provider.
    static std::unique_ptr<ModelClient> refusingClient(const QString &providerName, const QString &reason);
    // modelsListed() or modelsListFailed() follows; nothing without a provider.
    void listModels();

    // The loop's options with the profile's model, and its sampling parameters and context window
    // where the loop sets none.
    AgentConfig configFor(const AgentConfig &loop) const;
    // The same on \a profile, an agent's own, which is not bound: its model, sampling defaults and
    // context window.
    AgentConfig configOn(const ProviderProfile &profile, const AgentConfig &loop) const;
    PriceLookup priceLookup() const;
    // The model's context window: the profile's override, else what the provider said, else the
    // price table's; for Ollama capped as ContextWindowChoice says.
    std::optional<qint64> contextWindow() const { return m_contextWindow; }
    // Asks the provider for the bound model's window, once per endpoint and model, where it says
    // (Ollama, Gemini) and the profile sets none; contextWindowSettled() follows a new lookup.
    void lookUpContextWindow();
    bool isLookingUpContextWindow() const;
    // Tests bound a slow provider's lookup more tightly.
    void setContextWindowTimeoutMs(int timeoutMs);

signals:
    void modelsListed(const QStringList &models);
    void modelsListFailed(const QString &reason);
    // A lookup of the window ended, with or without an answer: contextWindow() may have changed.
    void contextWindowSettled();

private:
    std::unique_ptr<ModelClient> makeClient() const;
    void updateContextWindow();

    QNetworkAccessManager *m_network;
    std::optional<SessionSetup::Provider> m_provider;
    ResponseLimits m_limits;
    std::unique_ptr<ModelClient> m_client;
    ModelLister *m_lister = nullptr; // created at the first listModels()
    ContextWindowLookup *m_windowLookup;
    std::optional<qint64> m_contextWindow;
};

} // namespace Loopscope
