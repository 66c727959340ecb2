#include "ui/settings/mcpinstaller.h"

#include "agent/mcp/mcpserverinstall.h"
#include "agent/mcp/mcpsettings.h"
#include "ui/settings/mcpinstalldialog.h"

#include <QMessageBox>

namespace Loopscope::Ui {

McpInstaller::McpInstaller(McpSettings *settings, SecretStore *secrets, QWidget *window)
    : QObject(window)
    , m_settings(settings)
    , m_secrets(secrets)
    , m_window(window)
{
    Q_ASSERT(settings && secrets);
}

void McpInstaller::open(const QUrl &link)
{
    QString error;
    const std::optional<McpServerInstall::FromLink> request = McpServerInstall::fromLink(link, &error);
    if (!request)
        return fail(error);
    if (m_dialog)
        m_dialog->reject(); // one question at a time: the newest link wins
    McpSettings *settings = m_settings;
    m_dialog = new McpInstallDialog(
        request->server, request->notes,
        [settings](const QString &name) { return settings->nameProblem(name); }, m_window);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_dialog, &QDialog::accepted, this, &McpInstaller::add);
    m_dialog->open();
}

void McpInstaller::add()
{
    if (!m_dialog)
        return;
    const McpServerConfig server = m_dialog->server();
    m_settings->add(server, m_secrets, this, [this, name = server.name](const QString &error) {
        if (!error.isEmpty())
            return fail(tr("The MCP server “%1” was not added: %2").arg(name, error));
        emit installed(name);
    });
}

void McpInstaller::fail(const QString &error)
{
    auto *box
        = new QMessageBox(QMessageBox::Warning, tr("MCP Server Link"), error, QMessageBox::Close, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit failed(error);
}

} // namespace Loopscope::Ui
