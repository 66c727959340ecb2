#pragma once

#include "agent/config/providerprofile.h"

#include <QMainWindow>
#include <QPointer>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QScrollArea;
class QNetworkAccessManager;
class QSettings;
class QSplitter;
class QStackedWidget;
QT_END_NAMESPACE

namespace Loopscope {
class AppSettings;
class ChatSession;
class McpSettings;
class SecretStore;
class SessionDocument;
class SessionLibrary;
class TraceModel;
struct Transcript;
} // namespace Loopscope

namespace Loopscope::Ui {

class ChatComposer;
class ChatView;
class DebugPanel;
class FirstRunPanel;
class McpResourcesDialog;
class ProviderPicker;
class SessionActions;
class SessionLibraryPanel;
class TraceInspector;

/*! What the window works with; nothing here is owned by it. */
struct MainWindowContext
{
    ChatSession *session = nullptr;
    ProviderProfileStore *profiles = nullptr;
    AppSettings *settings = nullptr;
    SecretStore *secrets = nullptr;
    QNetworkAccessManager *network = nullptr;
    QSettings *state = nullptr; // window geometry and pane sizes
    SessionDocument *document = nullptr;
    SessionLibrary *library = nullptr;
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
    QAction *replayAction() const { return m_replayAction; }
    QAction *forkAction() const { return m_forkAction; }
    // Tools → Compare Turns…, and "Compare With…" on a turn in the trace: both open the compare dialog.
    QAction *compareAction() const { return m_compareAction; }
    QAction *compareWithAction() const { return m_compareWithAction; }
    QAction *playgroundAction() const { return m_playgroundAction; }
    SessionActions *sessionActions() const { return m_sessionActions; }
    SessionLibraryPanel *libraryPanel() const { return m_libraryPanel; }
    ProviderPicker *providerPicker() const { return m_picker; }
    // The toolbar's model picker: the provider's models, or one typed in.
    QComboBox *modelBox() const;
    QString statusText() const; // the status bar's fields, joined; for tests

    void openSettings();
    void showMessage(const QString &text);
    // Opens the MCP prompts and resources (the composer's MCP button).
    void openMcpResources();
    QAction *mcpResourcesAction() const { return m_mcpResourcesAction; }

protected:
    void closeEvent(QCloseEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void createActions();
    void createMenus();
    void createToolBar();
    void createStatusBar();
    void connectSession();
    void restoreLayout();
    void saveLayout();

    // The user's settings into the session's setup, then the stored MCP servers once their secrets
    // are read from the keychain.
    void applySettings();
    void showChat(bool show);
    void sendFromComposer(const QString &text);
    void editLastQuestion(const QString &text);
    void setDebugMode(bool on);
    void updateStatus();
    // Sets a status field's words, and the short form it falls back to in a narrow window.
    static void setStatusField(QLabel *label, const QString &full, const QString &brief);
    // Every field whole when they fit, else the brief forms, the least telling first.
    void fitStatusFields();
    void updateTitle();
    void replaySelectedTurn();
    void forkAtSelection();
    // Picks two turns (this session's selected one first) and shows them side by side.
    void compareTurns();
    void openFork(const Transcript &fork);
    void openPlaygroundAtSelection();
    // Replay and Fork only when there is a finished turn (for Fork, a selected step of one).
    void updateTurnActions();
    void createLibraryDock();
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
    QScrollArea *m_debugScroll = nullptr;

    SessionActions *m_sessionActions = nullptr;
    SessionLibraryPanel *m_libraryPanel = nullptr;
    QDockWidget *m_libraryDock = nullptr;
    ProviderPicker *m_picker = nullptr;
    QAction *m_settingsAction = nullptr;
    QAction *m_debugModeAction = nullptr;
    QAction *m_stopAction = nullptr;
    QAction *m_showChatAction = nullptr;
    QAction *m_showTraceAction = nullptr;
    QAction *m_replayAction = nullptr;
    QAction *m_forkAction = nullptr;
    QAction *m_compareAction = nullptr;
    QAction *m_compareWithAction = nullptr;
    QAction *m_playgroundAction = nullptr;
    QAction *m_mcpResourcesAction = nullptr;
    std::unique_ptr<McpSettings> m_mcpSettings;
    QPointer<McpResourcesDialog> m_mcpResources;
    int m_mcpGeneration = 0;

    QLabel *m_providerLabel = nullptr;
    QLabel *m_tokensLabel = nullptr;
    QLabel *m_costLabel = nullptr;
    QLabel *m_contextLabel = nullptr;
    QLabel *m_iterationLabel = nullptr;
    QLabel *m_stateLabel = nullptr;

    bool m_editingLastQuestion = false;
    bool m_paused = false;
    bool m_closeConfirmed = false;
};

} // namespace Loopscope::Ui
