#pragma once

#include "agent/config/providerprofile.h"

#include <QMainWindow>
#include <QPointer>

#include <functional>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QAction;
class QComboBox;
class QMenu;
class QSettings;
class QSplitter;
class QStackedWidget;
QT_END_NAMESPACE

namespace Loopscope {
class AgentApplier;
class AgentStore;
class AppSettings;
class ChatSession;
class ConnectionTester;
class KnowledgeBasesModel;
class McpSettings;
class OllamaProbe;
class PlaygroundRun;
class SecretStore;
class SessionDocument;
class SessionLibrary;
class SessionKnowledge;
class SettingsApplier;
class TraceModel;
struct ScopedApproval;
} // namespace Loopscope

namespace Loopscope::Ui {

class AgentChooser;
class AgentsDialog;
class ChatComposer;
class ChatView;
class DebugPanel;
class FirstRunPanel;
class LibrarySidebar;
class McpInspectorWindow;
class McpInstaller;
class McpResourcesDialog;
class ProviderPicker;
class SessionActions;
class SessionLibraryPanel;
class SessionStatusBar;
class SettingsDialog;
class TraceInspector;
class TurnActions;

/*!
    The network helpers the window hands its panels, made outside ui/ (app/ holds the one
    QNetworkAccessManager): no widget creates a network client.
*/
struct NetworkHelpers
{
    OllamaProbe *ollamaProbe = nullptr;                // the first-run panel's
    ConnectionTester *connectionTester = nullptr;      // Settings: "Test connection"
    std::function<PlaygroundRun *()> newPlaygroundRun; // one per playground window, which takes it
};

/*! What the window works with; nothing here is owned by it. */
struct MainWindowContext
{
    ChatSession *session = nullptr;
    ProviderProfileStore *profiles = nullptr;
    AppSettings *settings = nullptr;
    SecretStore *secrets = nullptr;
    NetworkHelpers network;
    QSettings *state = nullptr; // window geometry and pane sizes
    SessionDocument *document = nullptr;
    SessionLibrary *library = nullptr;
    AgentStore *agents = nullptr; // the user's agents; null: no agent chooser (the default agent only)
};

/*!
    The window users live in: the conversation on one side, the trace of the
    agent's loop (and, in debug mode, the step debugger) on the other, a
    toolbar and a status bar. It arranges the panels and passes the user's
    intents to the ChatSession; the loop itself lives in agent/.
*/
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(const MainWindowContext &context, QWidget *parent = nullptr);
    ~MainWindow() override;

    // Uses the saved default profile, or \a commandLine when given (for this
    // run only); with neither, shows the first-run panel. Opens \a sessionPath,
    // else the last session if the settings say so; with nothing opened on a
    // first start, shows the session library when it has sessions.
    void start(const std::optional<ProviderProfile> &commandLine = std::nullopt,
               const QString &sessionPath = {});

    QSplitter *splitter() const { return m_splitter; }
    ChatView *chatView() const { return m_chatView; }
    ChatComposer *composer() const { return m_composer; }
    TraceInspector *traceInspector() const { return m_inspector; }
    DebugPanel *debugPanel() const { return m_debugPanel; }
    FirstRunPanel *firstRunPanel() const { return m_firstRun; }
    QAction *debugModeAction() const { return m_debugModeAction; }
    QAction *stopAction() const { return m_stopAction; }
    TurnActions *turnActions() const { return m_turnActions; }
    QAction *replayAction() const;
    QAction *forkAction() const;
    QAction *compareAction() const;
    QAction *compareWithAction() const;
    QAction *playgroundAction() const;
    SessionActions *sessionActions() const { return m_sessionActions; }
    SessionLibraryPanel *libraryPanel() const;
    LibrarySidebar *librarySidebar() const { return m_librarySidebar; }
    ProviderPicker *providerPicker() const { return m_picker; }
    // The toolbar's agent chooser; nullptr without an agent store.
    AgentChooser *agentChooser() const { return m_agentChooser; }
    // The toolbar's model picker: the provider's models, or one typed in.
    QComboBox *modelBox() const;
    QString statusText() const; // the status bar's fields, joined; for tests

    SettingsDialog *openSettings();
    // The Agents page (from the toolbar's Agents… action).
    void openAgents();
    void showMessage(const QString &text);
    // Opens the MCP prompts and resources (the composer's MCP button).
    void openMcpResources();
    QAction *mcpResourcesAction() const { return m_mcpResourcesAction; }
    // Tools → MCP Inspector: opens (or raises) the inspector window.
    void openMcpInspector();
    QAction *mcpInspectorAction() const { return m_mcpInspectorAction; }
    McpInspectorWindow *mcpInspector() const; // null until first opened
    // A loopscope://mcp/install link (the desktop's URL handler passes it on): asks, then adds the server.
    void installMcpServer(const QUrl &link);
    McpInstaller *mcpInstaller() const { return m_mcpInstaller; }

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createActions();
    void createMenus();
    void createToolBar();
    void connectSession();
    void keepAlwaysAllowed(const ScopedApproval &approval);
    void restoreLayout();
    void saveLayout();

    // The user's settings into the session's setup, then the stored MCP servers once their secrets
    // are read from the keychain.
    void applySettings();
    void showChat(bool show);
    // The configured MCP servers and their tools known now, into the open Agents page's Tools checklist.
    void offerMcpServersToAgents();
    void sendFromComposer(const QString &text, bool pastAttachmentCheck);
    void resendEditedQuestion(const QString &text, bool pastAttachmentCheck);
    void editLastQuestion(const QString &text);
    void setDebugMode(bool on);
    void setTurnRunning(bool running);
    void updateTitle();
    void openSessionOnStart(const QString &sessionPath);
    void addExamplesMenu(QMenu *help);
    void showShortcuts();
    void showAbout();

    MainWindowContext m_context;
    TraceModel *m_traceModel;

    QSplitter *m_splitter;
    QSplitter *m_sideSplitter;
    QStackedWidget *m_chatStack;
    FirstRunPanel *m_firstRun;
    ChatView *m_chatView;
    ChatComposer *m_composer;
    TraceInspector *m_inspector;
    DebugPanel *m_debugPanel;

    SessionActions *m_sessionActions = nullptr;
    TurnActions *m_turnActions = nullptr;
    SessionStatusBar *m_statusBar = nullptr;
    LibrarySidebar *m_librarySidebar = nullptr;
    ProviderPicker *m_picker = nullptr;
    AgentApplier *m_agentApplier = nullptr;
    AgentChooser *m_agentChooser = nullptr;
    QPointer<AgentsDialog> m_agentsDialog;
    QAction *m_settingsAction = nullptr;
    QAction *m_debugModeAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_showChatAction = nullptr;
    QAction *m_showTraceAction = nullptr;
    QAction *m_mcpResourcesAction = nullptr;
    QAction *m_mcpInspectorAction = nullptr;
    std::unique_ptr<McpSettings> m_mcpSettings;
    QPointer<McpResourcesDialog> m_mcpResources;
    QPointer<McpInspectorWindow> m_mcpInspector;
    SettingsApplier *m_settingsApplier = nullptr;
    // The knowledge bases, indexed and watched while the window is open, and the session's choice of them.
    KnowledgeBasesModel *m_knowledgeBases = nullptr;
    SessionKnowledge *m_sessionKnowledge = nullptr;
    McpInstaller *m_mcpInstaller = nullptr;

    bool m_closeConfirmed = false;
};

} // namespace Loopscope::Ui
