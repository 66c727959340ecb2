#include "ui/mainwindow.h"

#include "agent/config/appsettings.h"
#include "agent/knowledge/knowledgelibrary.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcpmessagelog.h"
#include "agent/mcp/mcpsettings.h"
#include "agent/session/agentapplier.h"
#include "agent/session/agentstore.h"
#include "agent/session/chatsession.h"
#include "agent/session/knowledgebasesmodel.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionknowledge.h"
#include "agent/session/sessionlibrary.h"
#include "agent/session/settingsapplier.h"
#include "agent/tools/builtin/builtintools.h"
#include "agent/trace/tracemodel.h"
#include "ui/agents/agentchooser.h"
#include "ui/agents/agentsdialog.h"
#include "ui/agents/agentspage.h"
#include "ui/chat/chatcomposer.h"
#include "ui/chat/chatview.h"
#include "ui/chat/composerattachments.h"
#include "ui/chat/elicitationcard.h"
#include "ui/chat/mcpresourcesdialog.h"
#include "ui/debug/debugpanel.h"
#include "ui/inspector/mcpinspectorwindow.h"
#include "ui/library/librarysidebar.h"
#include "ui/library/sessionlibrarypanel.h"
#include "ui/session/autosaveindicator.h"
#include "ui/session/knowledgebutton.h"
#include "ui/session/providerpicker.h"
#include "ui/session/sessionactions.h"
#include "ui/session/sessionstatusbar.h"
#include "ui/session/turnactions.h"
#include "ui/settings/firstrunpanel.h"
#include "ui/settings/mcpinstaller.h"
#include "ui/settings/settingsdialog.h"
#include "ui/trace/traceinspector.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

MainWindow::MainWindow(const MainWindowContext &context, QWidget *parent)
    : QMainWindow(parent)
    , m_context(context)
    , m_traceModel(new TraceModel(context.session->trace(), this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_sideSplitter(new QSplitter(Qt::Vertical, m_splitter))
    , m_chatStack(new QStackedWidget(m_splitter))
    , m_firstRun(new FirstRunPanel(context.profiles, context.network.ollamaProbe, m_chatStack))
    , m_chatView(new ChatView)
    , m_composer(new ChatComposer)
    , m_inspector(new TraceInspector(context.session->trace(), m_traceModel, m_sideSplitter))
    , m_debugPanel(new DebugPanel(context.session->debugger(), context.session->workbench(), m_sideSplitter))
    , m_mcpSettings(std::make_unique<McpSettings>(context.state))
{
    Q_ASSERT(context.session && context.profiles && context.settings && context.state);
    Q_ASSERT(context.network.ollamaProbe && context.network.connectionTester
             && context.network.newPlaygroundRun);
    setWindowTitle(tr("Loopscope"));
    m_settingsApplier
        = new SettingsApplier(context.session, context.settings, m_mcpSettings.get(), context.secrets, this);
    connect(m_settingsApplier, &SettingsApplier::problem, this, &MainWindow::showMessage);
    m_knowledgeBases = new KnowledgeBasesModel(KnowledgeLibrary::defaultDirectory(), this);
    m_knowledgeBases->setKeyReader(KnowledgeKeyReader(context.profiles, context.secrets));
    connect(m_knowledgeBases, &KnowledgeBasesModel::message, this, &MainWindow::showMessage);
    m_sessionKnowledge = new SessionKnowledge(context.session, KnowledgeLibrary::defaultDirectory(), this);
    m_sessionKnowledge->setKeyReader(KnowledgeKeyReader(context.profiles, context.secrets));
    connect(m_sessionKnowledge, &SessionKnowledge::problem, this, &MainWindow::showMessage);
    m_mcpInstaller = new McpInstaller(m_mcpSettings.get(), context.secrets, this);
    connect(m_mcpInstaller, &McpInstaller::installed, this, [this](const QString &name) {
        applySettings(); // starts the new server
        showMessage(tr("Added the MCP server “%1”.").arg(name));
    });

    auto *chat = new QWidget(m_chatStack);
    chat->setAccessibleName(tr("Conversation"));
    auto *chatLayout = new QVBoxLayout(chat);
    chatLayout->setContentsMargins(0, 0, 0, 0);
    chatLayout->setSpacing(0);
    chatLayout->addWidget(m_chatView, 1);
    chatLayout->addWidget(m_composer);
    m_composer->takeDropsOn(m_chatView); // a file dropped on the chat goes with the next question
    m_chatStack->addWidget(chat);
    m_chatStack->addWidget(m_firstRun);
    m_chatStack->setAccessibleName(tr("Conversation"));

    m_chatView->setModel(context.session->rows());
    m_chatView->follow(context.session->agent());
    m_chatView->setApprovalPolicy(context.session->approvals());
    m_chatView->setMcpHub(context.session->mcp());

    m_inspector->setAccessibleName(tr("Trace"));
    m_debugPanel->setAccessibleName(tr("Debugger"));
    // Not in a scroll area: its buttons stay in view, its editors scroll themselves.
    m_debugPanel->setVisible(false);
    m_sideSplitter->addWidget(m_inspector);
    // Below the details, so debugging squeezes them and never the trace tree.
    m_inspector->setSidePanel(m_debugPanel);

    m_splitter->insertWidget(0, m_chatStack);
    m_splitter->setChildrenCollapsible(true);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);

    // First: every part below may have something to say in it.
    m_statusBar = new SessionStatusBar(context.session, m_composer->editor(), this);
    setStatusBar(m_statusBar);
    connect(m_composer->attachmentList(), &ComposerAttachments::changed, m_statusBar,
            [this] { m_statusBar->setDraftAttachments(m_composer->attachments()); });
    createActions();
    // The conversations beside the chat, as chat apps keep them.
    m_librarySidebar = new LibrarySidebar(context.library, m_sessionActions, context.state, this);
    setCentralWidget(m_librarySidebar->wrap(m_splitter));
    createMenus();
    createToolBar();
    // Tab: the message, Send (Stop while a turn runs), the conversation as one stop, the trace.
    setTabOrder(m_composer->sendButton(), m_composer->stopButton());
    setTabOrder(m_composer->stopButton(), m_chatView);
    setTabOrder(m_chatView, m_inspector->treeView());
    connectSession();
    applySettings();
    restoreLayout();
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    m_sessionActions = new SessionActions(m_context.document, m_context.state, this);
    if (m_context.library)
        m_sessionActions->setLibraryFolder(m_context.library->folder());
    connect(m_sessionActions, &SessionActions::message, this,
            [this](const QString &text) { m_statusBar->say(text); });
    // A failed autosave stays in sight until a save succeeds.
    m_statusBar->addPermanentWidget(
        new AutosaveIndicator(m_context.document, m_sessionActions->saveAsAction(), m_statusBar));
    m_turnActions = new TurnActions(m_context.session, m_sessionActions, m_inspector, m_context.profiles,
                                    m_context.network.newPlaygroundRun, this);
    connect(m_turnActions, &TurnActions::message, this, &MainWindow::showMessage);
    m_turnActions->setLibrary(m_context.library);

    m_settingsAction = new QAction(QIcon::fromTheme(u"preferences-system"_s), tr("&Settings…"), this);
    // Ctrl+, first, so that the menu shows it: only some platforms bind Preferences.
    QList<QKeySequence> settingsKeys{QKeySequence(Qt::CTRL | Qt::Key_Comma)};
    for (const QKeySequence &key : QKeySequence::keyBindings(QKeySequence::Preferences)) {
        if (!settingsKeys.contains(key))
            settingsKeys.append(key);
    }
    m_settingsAction->setShortcuts(settingsKeys);
    m_settingsAction->setMenuRole(QAction::PreferencesRole);
    connect(m_settingsAction, &QAction::triggered, this, &MainWindow::openSettings);

    m_stopAction = new QAction(QIcon::fromTheme(u"process-stop"_s), tr("S&top Turn"), this);
    m_stopAction->setShortcut(Qt::Key_Escape);
    m_stopAction->setToolTip(tr("Cancel the running turn (Esc)"));
    m_stopAction->setEnabled(false);
    connect(m_stopAction, &QAction::triggered, m_context.session, &ChatSession::stop);

    m_debugModeAction = new QAction(QIcon::fromTheme(u"debug-run"_s), tr("&Debug Mode"), this);
    m_debugModeAction->setCheckable(true);
    m_debugModeAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_D);
    m_debugModeAction->setToolTip(tr("Show the step debugger and stop at its breakpoints (Ctrl+Shift+D)"));
    connect(m_debugModeAction, &QAction::toggled, this, &MainWindow::setDebugMode);

    m_mcpResourcesAction = new QAction(tr("&MCP Prompts and Resources…"), this);
    m_mcpResourcesAction->setIconText(tr("MCP"));
    m_mcpResourcesAction->setToolTip(tr("Put a prompt or a resource of an MCP server into the message"));
    m_mcpResourcesAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_M);
    connect(m_mcpResourcesAction, &QAction::triggered, this, &MainWindow::openMcpResources);
    m_mcpInspectorAction = new QAction(tr("MCP &Inspector"), this);
    m_mcpInspectorAction->setToolTip(
        tr("List an MCP server's tools, resources and prompts, call them by hand, and watch every message"));
    connect(m_mcpInspectorAction, &QAction::triggered, this, &MainWindow::openMcpInspector);
    auto *mcpButton = new QToolButton;
    mcpButton->setDefaultAction(m_mcpResourcesAction);
    // A raised button: flat, the word beside the composer read as a label.
    mcpButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    mcpButton->setObjectName(u"mcpResourcesButton"_s);
    m_composer->addAccessory(mcpButton);
    auto *knowledgeButton = new KnowledgeButton(m_knowledgeBases, m_sessionKnowledge);
    connect(knowledgeButton, &KnowledgeButton::manageRequested, this,
            [this] { openSettings()->showPage(SettingsDialog::Page::Knowledge); });
    m_composer->addAccessory(knowledgeButton);

    m_showChatAction = new QAction(tr("&Conversation"), this);
    m_showChatAction->setCheckable(true);
    m_showChatAction->setChecked(true);
    m_showChatAction->setShortcut(Qt::CTRL | Qt::Key_1);
    connect(m_showChatAction, &QAction::toggled, m_chatStack, &QWidget::setVisible);

    m_showTraceAction = new QAction(tr("&Trace"), this);
    m_showTraceAction->setCheckable(true);
    m_showTraceAction->setChecked(true);
    m_showTraceAction->setShortcut(Qt::CTRL | Qt::Key_2);
    connect(m_showTraceAction, &QAction::toggled, m_sideSplitter, &QWidget::setVisible);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_sessionActions->newAction());
    file->addAction(m_sessionActions->openAction());
    file->addMenu(m_sessionActions->recentMenu());
    file->addSeparator();
    file->addAction(m_sessionActions->saveAction());
    file->addAction(m_sessionActions->saveAsAction());
    file->addSeparator();
    file->addAction(m_sessionActions->importAction());
    file->addMenu(m_sessionActions->exportMenu());
    file->addSeparator();
    file->addAction(m_settingsAction);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_showChatAction);
    view->addAction(m_showTraceAction);
    view->addAction(m_librarySidebar->toggleAction());

    QMenu *debug = menuBar()->addMenu(tr("&Debug"));
    debug->addAction(m_debugModeAction);
    debug->addSeparator();
    debug->addAction(m_debugPanel->pauseAction());
    debug->addAction(m_debugPanel->stepAction());
    debug->addAction(m_debugPanel->continueAction());
    debug->addAction(m_debugPanel->stopAction());
    debug->addSeparator();
    debug->addAction(m_stopAction);
    debug->addSeparator();
    debug->addAction(m_turnActions->replayAction());
    debug->addAction(m_turnActions->forkAction());
    debug->addAction(m_turnActions->playgroundAction());

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(m_mcpResourcesAction);
    tools->addAction(m_mcpInspectorAction);
    tools->addAction(m_turnActions->compareAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    addExamplesMenu(help);
    QAction *shortcuts = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setShortcut(QKeySequence::HelpContents);
    QAction *about = help->addAction(tr("&About Loopscope"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
}

SessionLibraryPanel *MainWindow::libraryPanel() const
{
    return m_librarySidebar->panel();
}

void MainWindow::addExamplesMenu(QMenu *help)
{
    // Recorded through the real loop; replayable without a provider.
    QMenu *examples = help->addMenu(tr("&Example Sessions"));
    const QStringList files
        = QDir(u":/examples"_s).entryList({u"*.loopscope.json"_s}, QDir::Files, QDir::Name);
    for (const QString &file : files) {
        const QString path = u":/examples/"_s + file;
        const TranscriptLoadResult result = TranscriptFile::load(path);
        const QString title = result.transcript ? result.transcript->title : file;
        examples->addAction(title, this, [this, path] { m_sessionActions->openExample(path); });
    }
    examples->setEnabled(!files.isEmpty());
    help->addSeparator();
}

void MainWindow::updateTitle()
{
    setWindowTitle(tr("%1[*] — Loopscope").arg(m_context.document->displayName()));
    setWindowModified(m_context.document->isModified());
}

void MainWindow::createToolBar()
{
    QToolBar *bar = addToolBar(tr("Main"));
    bar->setObjectName(u"mainToolBar"_s);
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_librarySidebar->toggleAction());
    bar->addAction(m_sessionActions->newAction());
    bar->addSeparator();

    m_picker = new ProviderPicker(m_context.session, m_context.profiles, m_context.settings,
                                  m_context.secrets, bar);
    m_picker->addTo(bar);
    connect(m_picker, &ProviderPicker::message, this, &MainWindow::showMessage);
    connect(m_picker, &ProviderPicker::profileChosen, this, [this] { showChat(true); });
    connect(m_picker, &ProviderPicker::setKeyRequested, this, &MainWindow::openSettings);
    bar->addAction(m_settingsAction);
    bar->addSeparator();
    // Before the debugger's actions: a narrow window moves the last ones into the "››" menu, and
    // Stop Turn must stay in sight while a turn runs.
    bar->addAction(m_stopAction);
    bar->addSeparator();
    if (m_context.agents) {
        // After Stop Turn, which a narrow window keeps in sight: the agent box may go into "››".
        m_agentApplier = new AgentApplier(m_context.session, m_context.agents, m_context.profiles,
                                          m_context.secrets, this);
        m_agentApplier->setKnowledgeDirectory(KnowledgeLibrary::defaultDirectory());
        m_agentChooser = new AgentChooser(m_context.session, m_context.agents, m_agentApplier, bar);
        m_agentChooser->addTo(bar);
        connect(m_agentChooser, &AgentChooser::manageRequested, this, &MainWindow::openAgents);
        bar->addSeparator();
    }

    bar->addAction(m_debugModeAction);
    bar->addAction(m_debugPanel->pauseAction());
    bar->addAction(m_debugPanel->stepAction());
    bar->addAction(m_debugPanel->continueAction());
}

void MainWindow::connectSession()
{
    ChatSession *session = m_context.session;
    connect(m_composer, &ChatComposer::sendRequested, this, &MainWindow::sendFromComposer);
    // A model known to read no images is said so before the message leaves, with Send Anyway.
    m_composer->setAttachmentCheck(
        [session = QPointer<ChatSession>(session)](const QList<Attachment> &attachments) {
            return session ? session->imageRefusal(attachments) : QString();
        });
    connect(m_composer, &ChatComposer::editResendRequested, this, &MainWindow::resendEditedQuestion);
    // The question being edited shows so in the chat for as long as the composer edits it.
    connect(m_composer, &ChatComposer::editingChanged, m_chatView, &ChatView::setEditingLastQuestion);
    // Another conversation has another last question.
    connect(session, &ChatSession::cleared, m_composer, &ChatComposer::cancelEdit);
    connect(session, &ChatSession::restored, m_composer, &ChatComposer::cancelEdit);
    connect(m_composer, &ChatComposer::cancelRequested, session, &ChatSession::stop);
    connect(m_chatView, &ChatView::editLastRequested, this, &MainWindow::editLastQuestion);
    connect(m_chatView, &ChatView::regenerateRequested, session, &ChatSession::regenerate);
    connect(m_chatView, &ChatView::retryRequested, session, &ChatSession::retry);
    connect(m_debugPanel, &DebugPanel::stopRequested, session, &ChatSession::stop);

    // An MCP server's questions appear in the chat; the answers go back through the session.
    connect(session, &ChatSession::elicitationRequested, m_chatView, &ChatView::showElicitation);
    connect(session, &ChatSession::elicitationSettled, m_chatView, &ChatView::settleElicitation);
    connect(
        m_chatView, &ChatView::elicitationAnswered, session,
        [session](int id, const McpElicitationAnswer &answer) { session->answerElicitation(id, answer); });
    connect(session, &ChatSession::samplingRequested, m_chatView,
            [this, session](int id, const McpSamplingRequest &request) {
                m_chatView->showSampling(id, request, session->samplingModel());
            });
    connect(session, &ChatSession::samplingSettled, m_chatView, &ChatView::settleSampling);
    connect(
        m_chatView, &ChatView::samplingDecided, session,
        [session](int id, const McpSamplingDecision &decision) { session->answerSampling(id, decision); });

    connect(session->approvals(), &ToolApprovalPolicy::alwaysAllowGranted, this,
            &MainWindow::keepAlwaysAllowed);
    // Selecting in one pane selects the same step in the other.
    connect(m_chatView, &ChatView::traceNodeSelected, m_inspector, &TraceInspector::selectNode);
    connect(m_inspector, &TraceInspector::nodeSelected, m_chatView, &ChatView::selectTraceNode);
    connect(session, &ChatSession::busyChanged, this, &MainWindow::setTurnRunning);
    SessionDocument *document = m_context.document;
    connect(document, &SessionDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document, &SessionDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(session, &ChatSession::titleChanged, this, &MainWindow::updateTitle);

    connect(session, &ChatSession::restored, this, [this, session] {
        // A reopened session is worth seeing before any provider is set up.
        if (!session->agent()->history().isEmpty())
            showChat(true);
    });

    StepDebugger *debugger = session->debugger();
    // The panel's own switch and Pause turn debug mode on too.
    connect(debugger, &StepDebugger::settingsChanged, this,
            [this, debugger] { m_debugModeAction->setChecked(debugger->isEnabled()); });

    connect(m_firstRun, &FirstRunPanel::profileCreated, this, [this](const QString &id) {
        m_picker->reloadProfiles(id);
        m_picker->useSelectedProfile();
    });
    connect(m_firstRun, &FirstRunPanel::openSettingsRequested, this, &MainWindow::openSettings);
    connect(m_firstRun, &FirstRunPanel::openExampleRequested, m_sessionActions, &SessionActions::openExample);
}

void MainWindow::keepAlwaysAllowed(const ScopedApproval &approval)
{
    // An "Always allow" chosen in the chat outlasts the session: it joins the user's rules, where
    // Settings → Tools lists it. A tool-wide one is kept for built-in tools, whose rules the settings
    // hold; an MCP tool's rule belongs to its server's configuration.
    AppSettings *settings = m_context.settings;
    if (approval.scope.kind != ApprovalScope::Kind::Tool) {
        QList<ScopedApproval> approvals = settings->scopedApprovals();
        if (!approvals.contains(approval))
            settings->setScopedApprovals(approvals << approval);
    } else if (builtinToolNames().contains(approval.tool)) {
        QHash<QString, QString> rules = settings->toolApprovalRules();
        rules.insert(approval.tool, ToolApprovalPolicy::ruleName(ToolApprovalPolicy::Rule::Always));
        settings->setToolApprovalRules(rules);
    }
}

void MainWindow::setTurnRunning(bool running)
{
    m_composer->setBusy(running);
    m_stopAction->setEnabled(running);
    m_debugPanel->setTurnRunning(running);
}

void MainWindow::start(const std::optional<ProviderProfile> &commandLine, const QString &sessionPath)
{
    m_picker->setCommandLineProfile(commandLine);
    m_picker->reloadProfiles(commandLine ? commandLine->id : m_context.profiles->defaultProfileId());
    if (!m_picker->hasProfiles()) {
        showChat(false);
        m_firstRun->lookForOllama();
    } else {
        showChat(true);
        m_picker->useSelectedProfile();
    }
    openSessionOnStart(sessionPath);
}

void MainWindow::openSessionOnStart(const QString &sessionPath)
{
    const QString path = !sessionPath.isEmpty()                    ? sessionPath
                         : m_context.settings->reopenLastSession() ? m_sessionActions->lastSession()
                                                                   : QString();
    if (!path.isEmpty())
        m_sessionActions->openFile(path);
}

QComboBox *MainWindow::modelBox() const
{
    return m_picker->modelBox();
}

void MainWindow::showChat(bool show)
{
    m_chatStack->setCurrentIndex(show ? 0 : 1);
    if (show)
        m_composer->editor()->setFocus();
}

void MainWindow::applySettings()
{
    m_settingsApplier->apply();
    // The settings' model shield may name a provider profile whose key is read there.
    if (m_agentApplier)
        m_agentApplier->reapply();
    m_composer->setSendOnEnter(m_context.settings->sendOnEnter());
}

void MainWindow::openMcpResources()
{
    if (m_mcpResources) {
        m_mcpResources->refresh();
        m_mcpResources->raise();
        m_mcpResources->activateWindow();
        return;
    }
    m_mcpResources = new McpResourcesDialog(m_context.session->mcp(), this);
    m_mcpResources->setAttribute(Qt::WA_DeleteOnClose);
    connect(m_mcpResources, &McpResourcesDialog::insertRequested, m_composer, &ChatComposer::insertText);
    connect(m_mcpResources, &McpResourcesDialog::attachRequested, m_composer->attachmentList(),
            &ComposerAttachments::addBytes);
    m_mcpResources->show();
}

void MainWindow::openMcpInspector()
{
    if (!m_mcpInspector) {
        // The log lives with the window: closing it hides it, and the messages are there when it reopens.
        m_mcpInspector = new McpInspectorWindow(m_context.session->mcp(), new McpMessageLog(this), this);
    }
    m_mcpInspector->refreshServers();
    m_mcpInspector->show();
    m_mcpInspector->raise();
    m_mcpInspector->activateWindow();
}

McpInspectorWindow *MainWindow::mcpInspector() const
{
    return m_mcpInspector;
}

void MainWindow::installMcpServer(const QUrl &link)
{
    m_mcpInstaller->open(link);
}

void MainWindow::showMessage(const QString &text)
{
    m_statusBar->say(text);
}

void MainWindow::openAgents()
{
    if (!m_context.agents)
        return;
    if (!m_agentsDialog) {
        QStringList profileNames;
        for (const ProviderProfile &profile : m_context.profiles->profiles())
            profileNames.append(profile.name);
        // The tools an agent may name: the built-in ones, and each MCP server whole or tool by tool.
        m_agentsDialog = new AgentsDialog(m_context.agents, profileNames, builtinToolNames(), this);
        m_agentsDialog->setAttribute(Qt::WA_DeleteOnClose);
        m_agentsDialog->page()->setKnowledgeBaseNames(m_knowledgeBases->names());
        offerMcpServersToAgents();
        // A server that starts while the page is open brings its tools.
        connect(m_context.session->mcp(), &McpHub::toolsChanged, m_agentsDialog,
                [this] { offerMcpServersToAgents(); });
    }
    m_agentsDialog->show();
    m_agentsDialog->raise();
    m_agentsDialog->activateWindow();
}

void MainWindow::offerMcpServersToAgents()
{
    const McpHub *hub = m_context.session->mcp();
    QList<AgentsPage::McpServerTools> servers;
    for (const McpServerConfig &server : hub->servers())
        servers.append({server.name, {}});
    for (const auto &tool : hub->tools()) {
        const std::optional<McpHub::ToolRef> source = hub->resolve(tool->name());
        for (AgentsPage::McpServerTools &server : servers) {
            if (source && server.server == source->server)
                server.tools.append(tool->name());
        }
    }
    m_agentsDialog->page()->setMcpServers(servers);
}

SettingsDialog *MainWindow::openSettings()
{
    auto *dialog = new SettingsDialog(m_context.profiles, m_context.settings, m_context.secrets,
                                      m_context.network.connectionTester, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->addMcpServersPage(m_mcpSettings.get(), m_context.session->mcp());
    dialog->addKnowledgePage(m_knowledgeBases, m_context.profiles);
    // The Providers page opens on the profile the next turn goes to (the agent's own, when it has
    // one), not on the first one.
    const std::optional<ProviderProfile> active = m_context.session->nextTurnProvider();
    if (active && !active->id.isEmpty())
        dialog->selectProvider(active->id);
    // Without a provider, or one without a usable key (or an agent's that does not exist), what is
    // missing is on the Providers page.
    if (m_chatStack->currentIndex() == 1)
        dialog->showPage(SettingsDialog::Page::Providers);
    else if (!m_context.session->nextTurnProviderProblem().isEmpty() && active && !active->id.isEmpty())
        dialog->showProvider(active->id);
    else if (!m_context.session->nextTurnProviderProblem().isEmpty())
        dialog->showPage(SettingsDialog::Page::Providers);
    connect(dialog, &SettingsDialog::applied, this, [this] {
        applySettings();
        m_picker->reloadProfiles();
        // A key or a base URL may have changed: use the chosen profile afresh.
        m_picker->useSelectedProfile();
    });
    dialog->open();
    return dialog;
}

void MainWindow::sendFromComposer(const QString &text, bool pastAttachmentCheck)
{
    // A provider whose key is still being read takes the question once it is known.
    if (!m_context.session->hasProvider() && !m_context.session->isReadingKey()) {
        // E.g. an example or a reopened session, looked at before any provider was set up.
        m_composer->setText(text);
        showMessage(tr("Add a provider in Settings to ask the agent; the question is still there."));
        return;
    }
    // The attachments go as `loopscope run --attach` sends them; the composer asked the session's image
    // check before (setAttachmentCheck), and Send Anyway goes past it as --send-images-anyway does.
    const QList<Attachment> attachments = m_composer->attachments();
    const auto check = pastAttachmentCheck ? ChatSession::ImageCheck::SendAnyway
                                           : ChatSession::ImageCheck::RefuseForTextOnlyModels;
    if (m_context.session->send(text, attachments, check))
        m_composer->clearAttachments();
    else
        m_composer->setText(text);
}

void MainWindow::resendEditedQuestion(const QString &text, bool pastAttachmentCheck)
{
    const QList<Attachment> attachments = m_composer->attachments();
    if (!m_context.session->hasProvider()) {
        m_composer->beginEdit(text, attachments);
        showMessage(tr("Add a provider in Settings to ask the agent; the question is still there."));
        return;
    }
    const auto check = pastAttachmentCheck ? ChatSession::ImageCheck::SendAnyway
                                           : ChatSession::ImageCheck::RefuseForTextOnlyModels;
    // The edited question goes with the attachments left in the composer: its own, less any removed.
    if (m_context.session->editLastAndResend(text, attachments, check))
        m_composer->clearAttachments();
    else
        m_composer->beginEdit(text, attachments);
}

void MainWindow::editLastQuestion(const QString &text)
{
    if (m_context.session->isBusy())
        return;
    // The composer's banner says so, with Cancel, until the edit is sent, cancelled or emptied.
    m_composer->beginEdit(text, m_context.session->lastUserAttachments());
}

void MainWindow::setDebugMode(bool on)
{
    StepDebugger *debugger = m_context.session->debugger();
    if (debugger->isEnabled() != on)
        debugger->setEnabled(on);
    if (on && !m_sideSplitter->isVisible())
        m_showTraceAction->setChecked(true);
    m_inspector->showSidePanel(on);
}

QAction *MainWindow::replayAction() const
{
    return m_turnActions->replayAction();
}

QAction *MainWindow::forkAction() const
{
    return m_turnActions->forkAction();
}

QAction *MainWindow::compareAction() const
{
    return m_turnActions->compareAction();
}

QAction *MainWindow::compareWithAction() const
{
    return m_turnActions->compareWithAction();
}

QAction *MainWindow::playgroundAction() const
{
    return m_turnActions->playgroundAction();
}

QString MainWindow::statusText() const
{
    return m_statusBar->text();
}

void MainWindow::showShortcuts()
{
    const QString rows = QStringList{
        tr("<tr><td><b>Ctrl+Enter</b></td><td>Send (Enter too, if set in Settings)</td></tr>"),
        tr("<tr><td><b>Esc</b></td><td>Stop the running turn</td></tr>"),
        tr("<tr><td><b>Ctrl+N</b></td><td>New session</td></tr>"),
        tr("<tr><td><b>Ctrl+O</b></td><td>Open a session</td></tr>"),
        tr("<tr><td><b>Ctrl+S / Ctrl+Shift+S</b></td><td>Save / Save As</td></tr>"),
        tr("<tr><td><b>Ctrl+,</b></td><td>Settings</td></tr>"),
        tr("<tr><td><b>Ctrl+Shift+D</b></td><td>Debug mode</td></tr>"),
        tr("<tr><td><b>F5</b></td><td>Continue</td></tr>"),
        tr("<tr><td><b>F10</b></td><td>Step to the next model call or tool execution</td></tr>"),
        tr("<tr><td><b>Shift+F5</b></td><td>Stop debugging (cancels the turn)</td></tr>"),
        tr("<tr><td><b>Ctrl+Shift+R</b></td><td>Replay the selected turn from its recording</td></tr>"),
        tr("<tr><td><b>Ctrl+Shift+M</b></td><td>Put an MCP prompt or resource into the message</td></tr>"),
        tr("<tr><td><b>F2</b></td><td>Rename the selected session in the sessions sidebar</td></tr>"),
        tr("<tr><td><b>Delete</b></td><td>Delete the selected session in the sessions sidebar</td></tr>"),
        tr("<tr><td><b>Ctrl+1 / Ctrl+2 / Ctrl+3</b></td><td>Show or hide the conversation / the trace / the "
           "sessions sidebar</td></tr>"),
    }.join(QString());
    auto *box = new QMessageBox(QMessageBox::NoIcon, tr("Keyboard Shortcuts"),
                                u"<table cellspacing=6>"_s + rows + u"</table>"_s, QMessageBox::Close, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Loopscope"),
                       tr("<b>Loopscope %1</b><p>Chat with an LLM agent and see, step by step, what its tool "
                          "loop does.</p>")
                           .arg(QCoreApplication::applicationVersion()));
}

void MainWindow::restoreLayout()
{
    QSettings &state = *m_context.state;
    // Never larger than the screen it opens on (a 900×600 display included).
    resize(QSize(1280, 800).boundedTo(screen()->availableSize()));
    m_splitter->setSizes({680, 600});
    m_sideSplitter->setSizes({480, 320});
    restoreGeometry(state.value(u"window/geometry"_s).toByteArray());
    m_splitter->restoreState(state.value(u"window/splitter"_s).toByteArray());
    m_sideSplitter->restoreState(state.value(u"window/sideSplitter"_s).toByteArray());
    m_inspector->restoreSplitterState(state.value(u"window/traceSplitter"_s).toByteArray());
    restoreState(state.value(u"window/docks"_s).toByteArray());
}

void MainWindow::saveLayout()
{
    QSettings &state = *m_context.state;
    state.setValue(u"window/geometry"_s, saveGeometry());
    state.setValue(u"window/splitter"_s, m_splitter->saveState());
    state.setValue(u"window/sideSplitter"_s, m_sideSplitter->saveState());
    state.setValue(u"window/traceSplitter"_s, m_inspector->splitterState());
    state.setValue(u"window/docks"_s, saveState());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!m_closeConfirmed && m_context.document->isModified()) {
        // Asked without blocking; the window closes again once the user has chosen.
        event->ignore();
        m_sessionActions->whenChangesAreSettled([this] {
            m_closeConfirmed = true;
            close();
        });
        return;
    }
    m_context.session->stop();
    saveLayout();
    event->accept();
}

} // namespace Loopscope::Ui
