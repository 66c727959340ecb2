#pragma once

#include "agent/config/apikeyresolver.h"
#include "agent/config/providerprofile.h"
#include "agent/debug/approvalscope.h"
#include "ui/settings/providerprofileeditor.h"

#include <QDialog>
#include <QHash>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTabWidget;
QT_END_NAMESPACE

namespace Loopscope {
class AppSettings;
class ConnectionTester;
class McpHub;
class McpSettings;
class SecretStore;
} // namespace Loopscope

namespace Loopscope::Ui {

class McpServersPage;

/*!
    Everything a user configures, on four pages: provider profiles, the
    loop's limits, the built-in tools and their approval rules, and how the
    composer sends; and a fifth, MCP servers, when addMcpServersPage() is called. Edits stay in the dialog
   until Apply or OK; Cancel drops them. Settings are written at once, keys go to the keychain, which is
    asynchronous: OK closes only once every key write has finished, and a
    keychain error keeps the dialog open and is shown in it. Open the dialog
    with open() or show(), not exec().

    Controls carry object names (e.g. "addProviderButton", "apiKeyEdit",
    "maxIterationsSpin", "statusLabel") so tests and the main window can
    reach them.
*/
class SettingsDialog final : public QDialog
{
    Q_OBJECT

public:
    enum class Page { Providers, Loop, Tools, Appearance, McpServers };

    // tester answers "Test connection"; the dialog uses it, never creates a client itself.
    SettingsDialog(ProviderProfileStore *profiles, AppSettings *settings, SecretStore *secrets,
                   ConnectionTester *tester, QWidget *parent = nullptr);
    ~SettingsDialog() override;

    // Adds the MCP Servers page (once); \a hub (the session's, may be null) gives live status.
    void addMcpServersPage(McpSettings *settings, McpHub *hub);
    McpServersPage *mcpServersPage() const { return m_mcpPage; }

    void showPage(Page page);
    // Whether an Apply or OK is waiting for the keychain.
    bool isSaving() const { return m_pendingWrites > 0; }

    void accept() override;
    void reject() override;

signals:
    // Apply or OK stored everything (settings and keys).
    void applied();

private:
    // A profile as edited here; the stores only see it on Apply or OK.
    struct Draft
    {
        ProviderProfile profile;
        ProviderProfileEditor::KeyState keyState = ProviderProfileEditor::KeyState::Missing;
        QString keyError;
        QString invalidReason; // why it cannot be saved yet; empty when it can
        QString newKey;        // typed, not yet in the keychain
        bool saved = false;    // in the profile store (it has an id)
        bool isDefault = false;
    };

    QWidget *createProvidersPage();
    QWidget *createLoopPage();
    QWidget *createToolsPage();
    void refreshScopedApprovals();
    void removeScopedApproval();
    static QString describeScopedApproval(const ScopedApproval &approval);
    QWidget *createAppearancePage();

    void load();
    void checkStoredKey(const QString &id);
    void refreshProviderList();
    void selectProvider(int row);
    void commitEditor();
    void addProvider();
    void removeProvider();
    void makeDefault();
    void testConnection();
    void testWithKey(const ProviderProfile &profile, const ApiKeyResolver::Result &key, int timeoutMs);
    void startTest(const ProviderProfile &profile, const QString &apiKey, int timeoutMs);
    void chooseWorkspace();
    void updateProviderButtons();

    // Writes everything; keys asynchronously. Returns false when something must be fixed first.
    bool save(bool closeWhenDone);
    void keyOperationFinished(const QString &error);
    QString newProfileId(const ProviderProfile &profile) const;
    void setStatus(const QString &text);
    void setSaving(bool saving);

    ProviderProfileStore *m_profiles;
    AppSettings *m_settings;
    SecretStore *m_secrets;
    ConnectionTester *m_tester;

    QTabWidget *m_tabs;
    // Providers
    QListWidget *m_providerList;
    QPushButton *m_addButton;
    QPushButton *m_removeButton;
    QPushButton *m_defaultButton;
    QStackedWidget *m_editorStack;
    ProviderProfileEditor *m_editor;
    // Loop
    QSpinBox *m_maxIterations;
    QSpinBox *m_parallelTools;
    QComboBox *m_postLoop;
    QSpinBox *m_toolTimeout;
    QSpinBox *m_readTimeout;
    QPlainTextEdit *m_systemPrompt;
    // Tools
    QHash<QString, QCheckBox *> m_toolEnabled;
    QHash<QString, QComboBox *> m_toolRule;
    QListWidget *m_scopedList;
    QPushButton *m_removeScopedButton;
    QList<ScopedApproval> m_scopedApprovals; // as edited here; saved on Apply
    QLineEdit *m_workspace;
    QCheckBox *m_fetchPrivate;
    QPushButton *m_browseButton;
    // Appearance
    QCheckBox *m_sendOnEnter;
    QCheckBox *m_reopenLastSession;

    McpServersPage *m_mcpPage = nullptr;

    QLabel *m_status;
    QDialogButtonBox *m_buttons;

    QList<Draft> m_drafts;
    QStringList m_removedIds; // saved profiles removed here: their keys go on Apply
    int m_current = -1;
    // The values shown when loaded, so an untouched field never rounds a stored one.
    int m_loadedToolTimeoutS = 0;
    int m_loadedReadTimeoutS = 0;
    int m_testGeneration = 0;

    int m_pendingWrites = 0;
    QStringList m_saveErrors;
    bool m_closeWhenSaved = false;
};

} // namespace Loopscope::Ui
