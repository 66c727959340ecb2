#pragma once

#include <QObject>

namespace Loopscope {

class AppSettings;
class ChatSession;
class McpSettings;
class SecretStore;

/*!
    Applies the user's settings to a session as one SessionSetup: what AppSettings says at once,
    then the MCP servers once the keychain has handed over their secrets, which it does later. A
    newer apply wins over an older one whose keychain read is still under way. It exists so that
    no window holds the keychain-driven part of a session's set-up.
*/
class SettingsApplier final : public QObject
{
    Q_OBJECT

public:
    // None of them is owned; \a secrets may be null (the MCP servers then go without their secrets).
    SettingsApplier(ChatSession *session, const AppSettings *settings, const McpSettings *mcpSettings,
                    SecretStore *secrets, QObject *parent = nullptr);

    void apply();

signals:
    // Settings that could not be used as they are (a malformed MCP server, a secret the keychain
    // refused), in sentences for the user.
    void problem(const QString &text);

private:
    void applyMcpServers();

    ChatSession *m_session;
    const AppSettings *m_settings;
    const McpSettings *m_mcpSettings;
    SecretStore *m_secrets;
    int m_generation = 0;
};

} // namespace Loopscope
