#pragma once

#include "ui/settings/mcpinstalldialog.h"

#include <QObject>
#include <QPointer>
#include <QUrl>

namespace Loopscope {
class McpSettings;
class SecretStore;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    What a loopscope://mcp/install link does in the window: a link that cannot
    be read is said so in a message box; one that can opens McpInstallDialog,
    and only when the user adds the server is it saved, as Settings → MCP
    Servers would save it (McpSettings::add(), secrets in the keychain). The
    window then applies the settings, which starts the server.
*/
class McpInstaller final : public QObject
{
    Q_OBJECT

public:
    // None is owned; \a window parents the dialogs.
    McpInstaller(McpSettings *settings, SecretStore *secrets, QWidget *window);

    void open(const QUrl &link);
    // The dialog asking about the last link, while it is open (for tests).
    McpInstallDialog *dialog() const { return m_dialog; }

signals:
    void installed(const QString &serverName);
    // The link could not be read, or the server could not be saved; in a sentence, also shown.
    void failed(const QString &error);

private:
    void add();
    void fail(const QString &error);

    McpSettings *m_settings;
    SecretStore *m_secrets;
    QWidget *m_window;
    QPointer<McpInstallDialog> m_dialog;
};

} // namespace Loopscope::Ui
