#pragma once

#include "agent/mcp/mcpclient.h"
#include "agent/mcp/mcpserverconfig.h"

#include <QPointer>
#include <QWidget>

#include <functional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTreeWidget;
QT_END_NAMESPACE

namespace Loopscope {
class McpHub;
class McpSettings;
class SecretStore;
} // namespace Loopscope

namespace Loopscope::Ui {

class McpServerEditor;
class McpSignInBar;

/*!
    The settings dialog's MCP Servers page: the configured servers with a live
    status line each (from the session's McpHub, which it is given and never
    creates), an HTTP server's OAuth sign-in (McpSignInBar), an editor for the selected one, its tools with an
   on/off switch and an approval rule each, and its output: the last lines it wrote to stderr and the log
   messages it sent (notifications/message), with a chooser for the least severe level it should send
   (logging/setLevel). Servers can be added,
   removed, restarted and imported from another app's file; when Claude Desktop's file holds servers not
   configured here, the page offers to import them. Edits stay here until the dialog saves (save()).

    Controls carry object names ("mcpServerList", "addMcpServerButton",
    "importMcpButton", "mcpStatusLabel", "mcpToolTree", "mcpStderrView", "mcpLogLevelCombo", …) for tests.
*/
class McpServersPage final : public QWidget
{
    Q_OBJECT

public:
    // \a hub may be null (no live status then); not owned, nor are the others.
    McpServersPage(McpSettings *settings, SecretStore *secrets, McpHub *hub, QWidget *parent = nullptr);
    ~McpServersPage() override;

    // Reads the stored servers, then their secrets from the keychain.
    void load();
    // The servers as edited here.
    QList<McpServerConfig> servers() const;
    // Empty when every server can be saved; else a sentence (and the row shown).
    QString validationError();
    // Writes the servers to settings and their secrets to the keychain; \a done
    // gets the keychain's errors (empty: all stored).
    void save(std::function<void(const QStringList &errors)> done);

    // Adds the servers of another app's configuration file; its notes are shown on the page.
    void importFile(const QString &path);
    // Where to look for Claude Desktop's file (tests point it elsewhere).
    void setClaudeDesktopConfigPath(const QString &path);

    // "Starting…", "Ready · 3 tools · protocol 2025-11-25", "Failed: …" (null client: not running).
    static QString statusText(const McpServerConfig &server, const McpClient *client);

private:
    // A server as edited here; appliedName is its name in settings and the hub (empty: new).
    struct Draft
    {
        McpServerConfig config;
        QString appliedName;
    };

    void refreshList();
    // Says in the editor whether this desktop has a keychain (it offers the key file when not).
    void checkForKeychain();
    // The servers whose secrets could not move keep their old place; returns what to tell the user.
    QStringList keepSecretsWhereTheyAre(const QStringList &servers);
    void refreshStatuses();
    void selectServer(int row);
    void commitEditor();
    void addServer();
    void removeServer();
    void restartServer();
    void chooseImportFile();
    void importServers(const QList<McpServerConfig> &servers, const QStringList &notes, const QString &error);
    void updateClaudeOffer();
    void attachClient();
    void refreshTools();
    void refreshLogLevel();
    void chooseLogLevel(int index);
    void updateButtons();
    McpClient *clientOf(int row) const;

    McpSettings *m_settings;
    SecretStore *m_secrets;
    QPointer<McpHub> m_hub;

    QLabel *m_claudeOffer;
    QPushButton *m_claudeImportButton;
    QWidget *m_claudeBar;
    QListWidget *m_list;
    QPushButton *m_addButton;
    QPushButton *m_removeButton;
    QPushButton *m_importButton;
    QPushButton *m_restartButton;
    QLabel *m_notes;
    QStackedWidget *m_editorStack;
    McpServerEditor *m_editor;
    QLabel *m_status;
    McpSignInBar *m_signInBar;
    QTabWidget *m_detailTabs;
    QTreeWidget *m_tools;
    QLabel *m_toolsHint;
    QPlainTextEdit *m_stderr;
    QComboBox *m_logLevel;

    QList<Draft> m_drafts;
    QList<McpServerConfig> m_stored; // as last saved: whose secrets to remove
    QString m_claudePath;
    int m_current = -1;
    int m_loadGeneration = 0;
    QPointer<McpClient> m_client; // the selected server's, while it has one
};

} // namespace Loopscope::Ui
