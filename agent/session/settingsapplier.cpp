#include "agent/session/settingsapplier.h"

#include "agent/mcp/mcpsettings.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessionsetup.h"

namespace Loopscope {

SettingsApplier::SettingsApplier(ChatSession *session, const AppSettings *settings,
                                 const McpSettings *mcpSettings, SecretStore *secrets, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_settings(settings)
    , m_mcpSettings(mcpSettings)
    , m_secrets(secrets)
{}

void SettingsApplier::apply()
{
    m_session->apply(SessionSetup::fromSettings(*m_settings, m_session->setup()));
    applyMcpServers();
}

void SettingsApplier::applyMcpServers()
{
    QStringList problems;
    const QList<McpServerConfig> servers = m_mcpSettings->servers(&problems);
    if (!problems.isEmpty())
        emit problem(problems.join(u' '));
    const auto useServers = [this](const QList<McpServerConfig> &withSecrets) {
        SessionSetup setup = m_session->setup();
        setup.mcpServers = withSecrets;
        m_session->apply(setup);
    };
    if (!m_secrets) {
        useServers(servers);
        return;
    }
    const int generation = ++m_generation;
    McpSettings::loadSecrets(
        servers, m_secrets, this,
        [this, generation, useServers](const QList<McpServerConfig> &withSecrets, const QStringList &errors) {
            if (generation != m_generation)
                return;
            useServers(withSecrets);
            if (!errors.isEmpty())
                emit problem(errors.join(u' '));
        });
}

} // namespace Loopscope
