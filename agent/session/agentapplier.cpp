#include "agent/session/agentapplier.h"

#include "agent/config/apikeyresolver.h"
#include "agent/session/agentstore.h"
#include "agent/session/chatsession.h"
#include "agent/session/conversationrows.h"
#include "agent/session/knowledgeattachment.h"

#include <QSet>

namespace Loopscope {

AgentApplier::AgentApplier(ChatSession *session, const AgentStore *store,
                           const ProviderProfileStore *profiles, SecretStore *secrets, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_store(store)
    , m_profiles(profiles)
    , m_secrets(secrets)
{
    connect(store, &AgentStore::changed, this, &AgentApplier::reapply);
}

void AgentApplier::choose(const QString &name)
{
    SessionSetup setup = m_session->setup();
    setup.agents = m_store->roster();
    setup.agent = m_store->roster().find(name) ? name : QString();
    if (setup.agent != m_session->setup().agent)
        m_saidMissing.clear(); // another agent chosen: its missing bases are said anew
    m_session->apply(setup);
    resolveProviders();
    attachKnowledge();
}

QString AgentApplier::chosen() const
{
    return m_session->setup().activeAgent() ? m_session->setup().agent : QString();
}

void AgentApplier::setSessionPrompt(const std::optional<QString> &prompt)
{
    SessionSetup setup = m_session->setup();
    setup.sessionPrompt = prompt;
    m_session->apply(setup);
}

void AgentApplier::reapply()
{
    // A reopened session names its agent before the roster is handed over: keep the name.
    choose(m_session->setup().agent);
}

void AgentApplier::setKnowledgeDirectory(const QString &directory)
{
    m_knowledgeDirectory = directory;
    attachKnowledge();
}

void AgentApplier::attachKnowledge()
{
    if (!m_knowledgeDirectory)
        return;
    const SessionSetup setup = m_session->setup(); // a copy: a key read at once applies a new setup
    const KnowledgeLibrary library(*m_knowledgeDirectory);
    const KnowledgeKeyReader keys(m_profiles, m_secrets);
    for (const AgentPreset &agent : setup.agents.agents) {
        for (const QString &name : agent.knowledge.value_or(QStringList())) {
            if (setup.agentKnowledge.contains(name) || m_readingKeys.contains(name))
                continue;
            const std::optional<KnowledgeBaseDefinition> base = library.base(name);
            if (!base) {
                sayLeftOut(name, tr("there is no knowledge base named \"%1\"").arg(name));
                continue;
            }
            // Its embedding key as chat reads a provider's (the keychain answers later), not only
            // from the environment: a base whose key is in the keychain searches by meaning too.
            m_readingKeys.insert(name);
            keys.read(*base, this,
                      [this, name, database = library.databasePath(name)](
                          const std::optional<EmbeddingsEndpoint> &endpoint, const QString &problem) {
                          m_readingKeys.remove(name);
                          if (!problem.isEmpty()) {
                              sayLeftOut(name, problem);
                              return;
                          }
                          SessionSetup setup = m_session->setup();
                          setup.agentKnowledge.insert(
                              name,
                              AttachedKnowledgeBase{name, database, endpoint.value_or(EmbeddingsEndpoint{})});
                          m_session->apply(setup);
                      });
        }
    }
}

void AgentApplier::sayLeftOut(const QString &base, const QString &why)
{
    // Said once while the agent stays chosen, not at every edit: its turns run without the base,
    // and the user should know why its answers miss what the base holds.
    const SessionSetup &setup = m_session->setup();
    const AgentPreset *chosen = setup.activeAgent();
    if (!chosen || !chosen->knowledge.value_or(QStringList()).contains(base) || m_saidMissing.contains(base))
        return;
    m_saidMissing.insert(base);
    m_session->rows()->addNotice(ConversationRow::Notice::Error,
                                 tr("Agent \"%1\" searches the knowledge base \"%2\", which is left out: %3.")
                                     .arg(chosen->name, base, why));
}

void AgentApplier::resolveProviders()
{
    const SessionSetup &setup = m_session->setup();
    QSet<QString> wanted;
    for (const QString &name : setup.namedProfiles()) {
        if (!setup.agentProviders.contains(name))
            wanted.insert(name);
    }
    const QList<ProviderProfile> profiles = m_profiles->profiles();
    const int generation = ++m_generation;
    for (const ProviderProfile &profile : profiles) {
        if (!wanted.contains(profile.name))
            continue;
        // A profile not known here stays unknown: an agent's turns fail saying so
        // (SessionSetup::providerOf), a model shield's checks are unclear saying so.
        const int readTimeoutMs = setup.provider ? setup.provider->readTimeoutMs : 600'000;
        ApiKeyResolver(m_secrets).resolve(
            profile, this, [this, generation, profile, readTimeoutMs](const ApiKeyResolver::Result &key) {
                if (generation != m_generation)
                    return;
                SessionSetup next = m_session->setup();
                next.agentProviders.insert(profile.name,
                                           SessionSetup::providerFor(profile, key, readTimeoutMs));
                m_session->apply(next);
            });
    }
}

} // namespace Loopscope
