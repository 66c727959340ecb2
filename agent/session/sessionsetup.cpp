#include "agent/session/sessionsetup.h"

#include "agent/config/appsettings.h"
#include "agent/config/keyenvironment.h"
#include "agent/wire/secretredactor.h"

#include <algorithm>

namespace Loopscope {

SessionSetup SessionSetup::fromSettings(const AppSettings &settings, const SessionSetup &base)
{
    SessionSetup setup = base;
    setup.loop = settings.agentConfig();
    setup.tools = {settings.enabledTools(), settings.workspaceFolder(),
                   settings.fetchAllowsPrivateAddresses(), !settings.workspaceChosen()};
    setup.approvals = {};
    const QHash<QString, QString> names = settings.toolApprovalRules();
    for (auto it = names.cbegin(); it != names.cend(); ++it) {
        if (const auto rule = ToolApprovalPolicy::ruleFromName(it.value()))
            setup.approvals.rules.insert(it.key(), *rule);
    }
    setup.approvals.scoped = settings.scopedApprovals();
    setup.limits = settings.responseLimits();
    // Which bases are attached is the session's choice (base), whether they are searched before each turn
    // the user's setting.
    setup.retrieveBeforeTurn = settings.retrieveKnowledgeBeforeTurn();
    return setup;
}

QList<AttachedKnowledgeBase> SessionSetup::knowledgeOf(const AgentPreset *preset) const
{
    if (!preset || !preset->knowledge)
        return knowledge;
    QList<AttachedKnowledgeBase> bases;
    for (const QString &name : *preset->knowledge) {
        const auto attached
            = std::find_if(knowledge.cbegin(), knowledge.cend(),
                           [&name](const AttachedKnowledgeBase &base) { return base.name == name; });
        if (attached != knowledge.cend())
            bases.append(*attached);
        else if (const auto own = agentKnowledge.constFind(name); own != agentKnowledge.cend())
            bases.append(*own);
    }
    return bases;
}

std::optional<SessionSetup::Provider> SessionSetup::providerOf(const AgentPreset &preset) const
{
    if (!preset.provider)
        return std::nullopt;
    if (const auto it = agentProviders.constFind(*preset.provider); it != agentProviders.cend())
        return *it;
    Provider missing;
    missing.profile.name = *preset.provider;
    missing.keyProblem = tr("Agent \"%1\" runs on the provider profile \"%2\", which does not exist: add "
                            "it in Settings → Providers, or choose another for the agent.")
                             .arg(preset.name, *preset.provider);
    return missing;
}

QStringList SessionSetup::namedProfiles() const
{
    QStringList names;
    const auto add = [&names](const QString &name) {
        if (!name.isEmpty() && !names.contains(name))
            names.append(name);
    };
    const auto addShield = [&add](const AgentShields &shields) {
        if (shields.model)
            add(shields.model->provider);
    };
    addShield(loop.shields);
    for (const AgentPreset &agent : agents.agents) {
        add(agent.provider.value_or(QString()));
        if (agent.shields)
            addShield(*agent.shields);
    }
    return names;
}

std::optional<SessionSetup::Provider> SessionSetup::boundProvider() const
{
    if (const AgentPreset *preset = activeAgent()) {
        if (std::optional<Provider> own = providerOf(*preset))
            return own;
    }
    return provider;
}

CommandSecrets SessionSetup::commandSecrets() const
{
    CommandSecrets secrets;
    SecretRedactor redactor;
    // A key may have come from the keychain, or be readable some other way than the environment (a
    // file the command prints): its value is blanked wherever it shows, not only its variable unset.
    const auto hide = [&secrets, &redactor](const Provider &each) {
        for (const QString &name : ApiKeyResolver::keyVariables(each.profile)) {
            if (!secrets.hiddenVariables.contains(name))
                secrets.hiddenVariables.append(name);
        }
        redactor.addSecret(each.apiKey);
    };
    hide(provider.value_or(Provider{}));
    for (const Provider &each : agentProviders)
        hide(each);
    for (const AttachedKnowledgeBase &base : knowledge)
        redactor.addSecret(base.embedding.apiKey);
    for (const AttachedKnowledgeBase &base : agentKnowledge)
        redactor.addSecret(base.embedding.apiKey);
    for (const QString &name : std::as_const(secrets.hiddenVariables))
        redactor.addSecret(KeyEnvironment::value(name));
    secrets.redact = [redactor](const QString &text) {
        return redactor.text(text);
    };
    return secrets;
}

SessionSetup SessionSetup::withProvider(const ProviderProfile &profile, const QString &apiKey) const
{
    SessionSetup setup = *this;
    setup.provider = Provider{profile, apiKey, {}, provider ? provider->readTimeoutMs : 600'000};
    return setup;
}

SessionSetup::Provider SessionSetup::providerFor(const ProviderProfile &profile,
                                                 const ApiKeyResolver::Result &key, int readTimeoutMs)
{
    Provider provider{profile, key.key, {}, readTimeoutMs};
    using Status = ApiKeyResolver::Result::Status;
    const QString name = profile.name.isEmpty() ? profile.model : profile.name;
    switch (key.status) {
    case Status::Found:
    case Status::NotNeeded: break;
    case Status::EnvironmentUnset:
        provider.keyProblem
            = tr("The environment variable %1 that \"%2\" takes its key from is not set: set it "
                 "and start Loopscope again, or enter a key in Settings → Providers.")
                  .arg(profile.apiKeyEnv, name);
        break;
    case Status::NotStored:
        provider.keyProblem
            = tr("No API key is stored for \"%1\": enter one in Settings → Providers, or name "
                 "an environment variable that holds it.")
                  .arg(name);
        break;
    case Status::NoKeychain:
        provider.keyProblem
            = tr("No keychain is available on this desktop to hold the key for \"%1\": in Settings → "
                 "Providers, name an environment variable that holds it, or store it in a file only "
                 "you can read.")
                  .arg(name);
        break;
    case Status::KeychainUnreadable:
        provider.keyProblem
            = tr("The keychain could not give the key for \"%1\" (%2): unlock the keychain, or "
                 "name an environment variable that holds the key in Settings → Providers.")
                  .arg(name, key.keychainError);
        break;
    case Status::KeyFileUnreadable:
        provider.keyProblem = tr("The key file could not give the key for \"%1\": %2 Then enter the key "
                                 "again in Settings → Providers.")
                                  .arg(name, key.keychainError);
        break;
    }
    if (!provider.keyProblem.isEmpty())
        provider.apiKey.clear();
    return provider;
}

} // namespace Loopscope
