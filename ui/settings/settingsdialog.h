#pragma once

#include <QDialog>

QT_BEGIN_NAMESPACE
class QDialogButtonBox;
class QLabel;
class QTabWidget;
QT_END_NAMESPACE

namespace Loopscope {
class AppSettings;
class ConnectionTester;
class KnowledgeBasesModel;
class McpHub;
class McpSettings;
class ProviderProfileStore;
class SecretStore;
} // namespace Loopscope

namespace Loopscope::Ui {

class AppearancePage;
class KnowledgePage;
class LoopPage;
class McpServersPage;
class ProvidersPage;
class ToolsPage;

/*!
    Everything a user configures, on four pages: provider profiles
    (ProvidersPage), the loop's limits (LoopPage), the built-in tools and their
    approval rules (ToolsPage), and how the composer sends (AppearancePage);
    and a fifth, MCP servers (McpServersPage), when addMcpServersPage() is
    called. The dialog only assembles the pages: each loads and saves its own
    values. Edits stay in the pages until Apply or OK; Cancel drops them.
    Settings are written at once, keys go to the keychain, which is
    asynchronous: OK closes only once every key write has finished, and a
    keychain error keeps the dialog open and is shown in it. Open the dialog
    with open() or show(), not exec().

    Controls carry object names (e.g. "addProviderButton", "apiKeyEdit",
    "maxIterationsSpin", "statusLabel") so tests can reach them.
*/
class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    enum class Page { Providers, Loop, Tools, Appearance, McpServers, Knowledge };

    // tester answers "Test connection"; the dialog uses it, never creates a client itself.
    SettingsDialog(ProviderProfileStore *profiles, AppSettings *settings, SecretStore *secrets,
                   ConnectionTester *tester, QWidget *parent = nullptr);
    ~SettingsDialog() override;

    // Adds the MCP Servers page (once); \a hub (the session's, may be null) gives live status.
    void addMcpServersPage(McpSettings *settings, McpHub *hub);
    McpServersPage *mcpServersPage() const { return m_mcpPage; }
    // Adds the Knowledge page (once) over the window's \a bases; \a profiles offers embedding providers.
    void addKnowledgePage(KnowledgeBasesModel *bases, const ProviderProfileStore *profiles);
    KnowledgePage *knowledgePage() const { return m_knowledgePage; }

    void showPage(Page page);
    // The Providers page on the profile with \a id (e.g. the one whose key is missing).
    void showProvider(const QString &id);
    // The profile with \a id selected on the Providers page, whichever page is shown.
    void selectProvider(const QString &id);
    // Whether an Apply or OK is waiting for the keychain.
    bool isSaving() const { return m_pendingWrites > 0; }

    void accept() override;
    void reject() override;

signals:
    // Apply or OK stored everything (settings and keys).
    void applied();

private:
    // Writes every page; keys asynchronously. Returns false when something must be fixed first.
    bool save(bool closeWhenDone);
    // The first page's problem, shown with its page; false when there is none.
    bool showProblem();
    void keyOperationFinished(const QString &error);
    void setStatus(const QString &text);
    void setSaving(bool saving);

    AppSettings *m_settings;
    SecretStore *m_secrets;

    QTabWidget *m_tabs;
    ProvidersPage *m_providersPage;
    LoopPage *m_loopPage;
    ToolsPage *m_toolsPage;
    AppearancePage *m_appearancePage;
    McpServersPage *m_mcpPage = nullptr;
    KnowledgePage *m_knowledgePage = nullptr;

    QLabel *m_status;
    QDialogButtonBox *m_buttons;

    int m_pendingWrites = 0;
    QStringList m_saveErrors;
    bool m_closeWhenSaved = false;
};

} // namespace Loopscope::Ui
