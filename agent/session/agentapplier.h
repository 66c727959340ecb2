#pragma once

#include "agent/config/providerprofile.h"

#include <QObject>
#include <QSet>

#include <optional>

namespace Loopscope {

class AgentStore;
class ChatSession;
class SecretStore;

/*!
    Hands the window's choice of agent to a session: the user's agents (the
    store) as its roster, the chosen one as the agent its next turn starts
    with, the provider profiles those agents name with their keys (read from
    the keychain as the toolbar's profile is), and this session's own system
    prompt. An edit in the store reaches the session's next turn. It exists so
    that the toolbar's chooser holds no set-up logic.
*/
class AgentApplier final : public QObject
{
    Q_OBJECT

public:
    // None of them is owned; \a secrets may be null (profiles then go with environment keys only).
    AgentApplier(ChatSession *session, const AgentStore *store, const ProviderProfileStore *profiles,
                 SecretStore *secrets, QObject *parent = nullptr);

    // The agent the session's next turn starts with; empty: the default agent (Settings → Loop).
    // An agent the store does not have is the default agent.
    void choose(const QString &name);
    QString chosen() const;
    // This session's own system prompt (nullopt: the agent's), for this session only.
    void setSessionPrompt(const std::optional<QString> &prompt);
    // The store's agents again (after an edit, or a reopened session that names one, or new settings
    // whose model shield names a provider profile).
    void reapply();
    // The knowledge library the bases an agent names ("knowledge") are attached from; unset: none is.
    void setKnowledgeDirectory(const QString &directory);

private:
    // Reads the keys of the profiles the agents name that are not known yet; each re-applies when read.
    void resolveProviders();
    // Attaches the bases the agents name that the session does not have yet; one that cannot be (gone
    // from the library, its key missing) is left out, so that agent's search leaves it out too, and the
    // chosen agent's are said in the chat (a notice naming the agent, the base and why).
    void attachKnowledge();
    // Tells the chat that the chosen agent's \a base is left out, and \a why; once while it stays chosen.
    void sayLeftOut(const QString &base, const QString &why);

    ChatSession *m_session;
    const AgentStore *m_store;
    const ProviderProfileStore *m_profiles;
    SecretStore *m_secrets;
    int m_generation = 0;
    std::optional<QString> m_knowledgeDirectory;
    QSet<QString> m_saidMissing; // the chosen agent's bases already said to be left out
    QSet<QString> m_readingKeys; // the bases whose embedding key is being read
};

} // namespace Loopscope
