#include "ui/mainwindow.h"

#include "agent/compare/comparedturn.h"
#include "agent/compare/runcomparison.h"
#include "agent/config/appsettings.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcpsettings.h"
#include "agent/playground/playgroundrun.h"
#include "agent/providers/connectiontester.h"
#include "agent/providers/ollamaprobe.h"
#include "agent/replay/recordedturn.h"
#include "agent/session/chatsession.h"
#include "agent/session/contextgauge.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "agent/tools/builtin/builtintools.h"
#include "agent/trace/tracemodel.h"
#include "ui/chat/chatcomposer.h"
#include "ui/chat/chatview.h"
#include "ui/chat/elicitationcard.h"
#include "ui/chat/mcpresourcesdialog.h"
#include "ui/compare/comparedialog.h"
#include "ui/compare/comparisonview.h"
#include "ui/debug/debugpanel.h"
#include "ui/library/sessionlibrarypanel.h"
#include "ui/playground/playgroundwindow.h"
#include "ui/replay/replaywindow.h"
#include "ui/session/providerpicker.h"
#include "ui/session/sessionactions.h"
#include "ui/settings/firstrunpanel.h"
#include "ui/settings/settingsdialog.h"
#include "ui/trace/traceicons.h"
#include "ui/trace/traceinspector.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTextDocument>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QString stateText(Agent::State state, bool paused)
{
    if (paused)
        return MainWindow::tr("Paused in the debugger");
    switch (state) {
    case Agent::State::Idle: return MainWindow::tr("Idle");
    case Agent::State::AwaitingDecision: return MainWindow::tr("Waiting for a decision");
    case Agent::State::WaitingForModel: return MainWindow::tr("Waiting for the model");
    case Agent::State::RunningTools: return MainWindow::tr("Running tools");
    }
    return {};
}

} // namespace

MainWindow::MainWindow(const MainWindowContext &context, QWidget *parent)
    : QMainWindow(parent)
    , m_context(context)
    , m_traceModel(new TraceModel(context.session->trace(), this))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_sideSplitter(new QSplitter(Qt::Vertical, m_splitter))
    , m_chatStack(new QStackedWidget(m_splitter))
    , m_firstRun(new FirstRunPanel(context.profiles, new OllamaProbe(context.network, this), m_chatStack))
    , m_chatView(new ChatView)
    , m_composer(new ChatComposer)
    , m_inspector(new TraceInspector(context.session->trace(), m_traceModel, m_sideSplitter))
    , m_debugPanel(new DebugPanel(context.session->debugger(), context.session->workbench(), m_sideSplitter))
    , m_mcpSettings(std::make_unique<McpSettings>(context.state))
{
    Q_ASSERT(context.session && context.profiles && context.settings && context.network && context.state);
    setWindowTitle(tr("Loopscope"));

    auto *chat = new QWidget(m_chatStack);
    chat->setAccessibleName(tr("Conversation"));
    auto *chatLayout = new QVBoxLayout(chat);
    chatLayout->setContentsMargins(0, 0, 0, 0);
    chatLayout->setSpacing(0);
    chatLayout->addWidget(m_chatView, 1);
    chatLayout->addWidget(m_composer);
    m_chatStack->addWidget(chat);
    m_chatStack->addWidget(m_firstRun);
    m_chatStack->setAccessibleName(tr("Conversation"));

    m_chatView->setModel(context.session->rows());
    m_chatView->follow(context.session->agent());
    m_chatView->setApprovalPolicy(context.session->approvals());

    m_inspector->setAccessibleName(tr("Trace"));
    m_debugPanel->setAccessibleName(tr("Debugger"));
    // The debugger's editors need room only while paused; scrolling lets the
    // trace keep most of the height.
    m_debugScroll = new QScrollArea(m_sideSplitter);
    m_debugScroll->setWidget(m_debugPanel);
    m_debugScroll->setWidgetResizable(true);
    m_debugScroll->setFrameShape(QFrame::NoFrame);
    m_debugScroll->setVisible(false);
    m_sideSplitter->addWidget(m_inspector);
    // Below the details, so debugging squeezes them and never the trace tree.
    m_inspector->setSidePanel(m_debugScroll);

    m_splitter->insertWidget(0, m_chatStack);
    m_splitter->setChildrenCollapsible(true);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 1);
    setCentralWidget(m_splitter);

    createActions();
    createLibraryDock();
    createMenus();
    createToolBar();
    createStatusBar();
    connectSession();
    applySettings();
    restoreLayout();
    updateStatus();
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    m_sessionActions = new SessionActions(m_context.document, m_context.state, this);
    connect(m_sessionActions, &SessionActions::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 10'000); });

    m_settingsAction = new QAction(QIcon::fromTheme(u"preferences-system"_s), tr("&Settings…"), this);
    m_settingsAction->setShortcuts({QKeySequence::Preferences, QKeySequence(Qt::CTRL | Qt::Key_Comma)});
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

    m_replayAction = new QAction(tr("&Replay Turn…"), this);
    m_replayAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_R);
    m_replayAction->setToolTip(tr("Re-run the selected turn from its recorded responses, without network"));
    connect(m_replayAction, &QAction::triggered, this, &MainWindow::replaySelectedTurn);

    m_forkAction = new QAction(tr("&Fork From Here"), this);
    m_forkAction->setToolTip(
        tr("Start a new session with the conversation up to the selected turn or iteration"));
    connect(m_forkAction, &QAction::triggered, this, &MainWindow::forkAtSelection);

    m_compareAction = new QAction(tr("Co&mpare Turns…"), this);
    m_compareAction->setToolTip(tr("Show two turns side by side, step by step, with their first difference"));
    connect(m_compareAction, &QAction::triggered, this, &MainWindow::compareTurns);
    m_compareWithAction = new QAction(tr("&Compare With…"), this);
    m_compareWithAction->setToolTip(tr("Compare the selected turn with another turn or session"));
    connect(m_compareWithAction, &QAction::triggered, this, &MainWindow::compareTurns);

    m_playgroundAction = new QAction(tr("Re-run in &Playground…"), this);
    m_playgroundAction->setToolTip(
        tr("Edit the selected model call's request and send it to any provider, beside its recorded answer"));
    connect(m_playgroundAction, &QAction::triggered, this, &MainWindow::openPlaygroundAtSelection);
    // They act on the selected step: offer them where it is picked too.
    auto *separator = new QAction(this);
    separator->setSeparator(true);
    m_inspector->treeView()->addActions(
        {separator, m_replayAction, m_forkAction, m_compareWithAction, m_playgroundAction});

    m_mcpResourcesAction = new QAction(tr("&MCP Prompts and Resources…"), this);
    m_mcpResourcesAction->setIconText(tr("MCP"));
    m_mcpResourcesAction->setToolTip(tr("Put a prompt or a resource of an MCP server into the message"));
    m_mcpResourcesAction->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_M);
    connect(m_mcpResourcesAction, &QAction::triggered, this, &MainWindow::openMcpResources);
    auto *mcpButton = new QToolButton;
    mcpButton->setDefaultAction(m_mcpResourcesAction);
    mcpButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    mcpButton->setAutoRaise(true);
    mcpButton->setObjectName(u"mcpResourcesButton"_s);
    m_composer->addAccessory(mcpButton);

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
    QAction *library = m_libraryDock->toggleViewAction();
    library->setText(tr("Session &Library"));
    library->setShortcut(Qt::CTRL | Qt::Key_3);
    view->addAction(library);

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
    debug->addAction(m_replayAction);
    debug->addAction(m_forkAction);
    debug->addAction(m_playgroundAction);

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(m_mcpResourcesAction);
    tools->addAction(m_compareAction);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    addExamplesMenu(help);
    QAction *shortcuts = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setShortcut(QKeySequence::HelpContents);
    QAction *about = help->addAction(tr("&About Loopscope"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
}

void MainWindow::createLibraryDock()
{
    m_libraryDock = new QDockWidget(tr("Sessions"), this);
    m_libraryDock->setObjectName(u"sessionLibraryDock"_s);
    m_libraryPanel = new SessionLibraryPanel(m_context.library, m_libraryDock);
    m_libraryDock->setWidget(m_libraryPanel);
    addDockWidget(Qt::LeftDockWidgetArea, m_libraryDock);
    m_libraryDock->hide();
    connect(m_libraryPanel, &SessionLibraryPanel::openRequested, m_sessionActions, &SessionActions::openFile);
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

void MainWindow::replaySelectedTurn()
{
    ChatSession *session = m_context.session;
    const int node = m_inspector->selectedNode();
    QString error;
    const std::optional<RecordedTurn> turn = session->recordedTurnAt(node, &error);
    if (!turn) {
        showMessage(error);
        return;
    }
    const QString title
        = session->title().isEmpty() ? tr("turn %1").arg(session->turnIndexAt(node) + 1) : session->title();
    auto *window = new ReplayWindow(
        *turn, title, [session] { return session->createModelClient(); }, session->replayTools(), this);
    window->show();
}

void MainWindow::updateTurnActions()
{
    const ChatSession *session = m_context.session;
    const int node = m_inspector->selectedNode();
    // Without a selection, Replay takes the last turn; while a turn runs, that one is not finished.
    const bool turnDone = !session->isBusy() && session->turnIndexAt(node) >= 0;
    m_replayAction->setEnabled(turnDone);
    m_forkAction->setEnabled(turnDone && node >= 0);
    // Compare Turns can also pick two session files, so it stays on.
    m_compareWithAction->setEnabled(turnDone);
    const Trace *trace = session->trace();
    m_playgroundAction->setEnabled(trace->isValid(node) && trace->node(node).kind == TraceKind::ModelCall
                                   && trace->node(node).endedUs > 0);
}

void MainWindow::forkAtSelection()
{
    QString error;
    const std::optional<Transcript> fork = m_context.session->forkAt(m_inspector->selectedNode(), &error);
    if (!fork) {
        showMessage(error);
        return;
    }
    openFork(*fork);
}

void MainWindow::openFork(const Transcript &fork)
{
    m_sessionActions->whenChangesAreSettled([this, fork] {
        QString error;
        if (m_context.document->openTranscript(fork, {}, &error))
            showMessage(tr("Forked into a new session: \"%1\".").arg(fork.title));
        else
            showMessage(tr("Cannot fork: %1").arg(error));
    });
}

void MainWindow::compareTurns()
{
    const ChatSession *session = m_context.session;
    const QString name = session->title().isEmpty() ? tr("this session") : session->title();
    const QList<ComparedTurn> turns = ComparedSession::turnsOf(*session->trace(), name);
    auto *dialog = new CompareDialog(turns, name, session->turnIndexAt(m_inspector->selectedNode()), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const std::optional<ComparedTurn> left = dialog->leftTurn();
        const std::optional<ComparedTurn> right = dialog->rightTurn();
        if (left && right)
            (new ComparisonView(RunComparison(*left, *right), this))->show();
    });
    dialog->open();
}

void MainWindow::openPlaygroundAtSelection()
{
    const int node = m_inspector->selectedNode();
    const Trace *trace = m_context.session->trace();
    if (!trace->isValid(node) || trace->node(node).kind != TraceKind::ModelCall) {
        showMessage(tr("Select a model call in the trace to re-run it."));
        return;
    }
    auto *window = new PlaygroundWindow(m_context.session, node, m_context.profiles->profiles(),
                                        new PlaygroundRun(m_context.network, m_context.secrets), this);
    connect(window, &PlaygroundWindow::variantAdded, m_context.document, &SessionDocument::noteChange);
    connect(window, &PlaygroundWindow::forkRequested, this, &MainWindow::openFork);
    window->show();
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

    bar->addAction(m_debugModeAction);
    bar->addAction(m_debugPanel->pauseAction());
    bar->addAction(m_debugPanel->stepAction());
    bar->addAction(m_debugPanel->continueAction());
    bar->addSeparator();
    bar->addAction(m_stopAction);
}

void MainWindow::createStatusBar()
{
    const auto field = [this](const QString &accessibleName) {
        auto *label = new QLabel(statusBar());
        label->setAccessibleName(accessibleName);
        label->setContentsMargins(fontMetrics().averageCharWidth(), 0, fontMetrics().averageCharWidth(), 0);
        return label;
    };
    m_providerLabel = field(tr("Provider and model"));
    m_tokensLabel = field(tr("Tokens"));
    m_costLabel = field(tr("Cost"));
    m_contextLabel = field(tr("Context window"));
    m_iterationLabel = field(tr("Iteration"));
    m_stateLabel = field(tr("Loop state"));
    // It takes what the other fields leave, its words elided to fit (see fitStatusFields()).
    m_providerLabel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusBar()->addWidget(m_providerLabel, 1);
    statusBar()->addPermanentWidget(m_tokensLabel);
    statusBar()->addPermanentWidget(m_costLabel);
    statusBar()->addPermanentWidget(m_contextLabel);
    statusBar()->addPermanentWidget(m_iterationLabel);
    statusBar()->addPermanentWidget(m_stateLabel);
}

void MainWindow::connectSession()
{
    ChatSession *session = m_context.session;
    connect(m_composer, &ChatComposer::sendRequested, this, &MainWindow::sendFromComposer);
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

    // An "Always allow" chosen in the chat outlasts the session: it joins the user's rules, where
    // Settings → Tools lists it. A tool-wide one is kept for built-in tools, whose rules the settings
    // hold; an MCP tool's rule belongs to its server's configuration.
    connect(session->approvals(), &ToolApprovalPolicy::alwaysAllowGranted, this,
            [this](const ScopedApproval &approval) {
                AppSettings *settings = m_context.settings;
                if (!settings)
                    return;
                if (approval.scope.kind != ApprovalScope::Kind::Tool) {
                    QList<ScopedApproval> approvals = settings->scopedApprovals();
                    if (!approvals.contains(approval))
                        settings->setScopedApprovals(approvals << approval);
                } else if (builtinToolNames().contains(approval.tool)) {
                    QHash<QString, QString> rules = settings->toolApprovalRules();
                    rules.insert(approval.tool,
                                 ToolApprovalPolicy::ruleName(ToolApprovalPolicy::Rule::Always));
                    settings->setToolApprovalRules(rules);
                }
            });

    // Selecting in one pane selects the same step in the other.
    connect(m_chatView, &ChatView::traceNodeSelected, m_inspector, &TraceInspector::selectNode);
    connect(m_inspector, &TraceInspector::nodeSelected, m_chatView, &ChatView::selectTraceNode);

    connect(session, &ChatSession::busyChanged, this, [this](bool busy) {
        m_composer->setBusy(busy);
        m_stopAction->setEnabled(busy);
        m_debugPanel->setTurnRunning(busy);
        for (QAction *action : {m_sessionActions->newAction(), m_sessionActions->openAction(),
                                m_sessionActions->importAction()})
            action->setEnabled(!busy);
        if (!busy)
            m_paused = false;
        updateStatus();
        updateTurnActions();
    });
    connect(session, &ChatSession::restored, this, [this, session] {
        // A reopened session is worth seeing before any provider is set up.
        if (!session->agent()->history().isEmpty())
            showChat(true);
        updateStatus();
        updateTurnActions();
    });
    connect(session, &ChatSession::cleared, this, &MainWindow::updateTurnActions);
    QItemSelectionModel *selection = m_inspector->treeView()->selectionModel();
    connect(selection, &QItemSelectionModel::selectionChanged, this, &MainWindow::updateTurnActions);
    connect(selection, &QItemSelectionModel::currentChanged, this, &MainWindow::updateTurnActions);
    updateTurnActions();
    SessionDocument *document = m_context.document;
    connect(document, &SessionDocument::modifiedChanged, this, &MainWindow::updateTitle);
    connect(document, &SessionDocument::pathChanged, this, &MainWindow::updateTitle);
    connect(session, &ChatSession::titleChanged, this, &MainWindow::updateTitle);
    connect(session, &ChatSession::usageChanged, this, &MainWindow::updateStatus);
    connect(m_composer->editor(), &QPlainTextEdit::textChanged, this, &MainWindow::updateStatus);
    connect(session, &ChatSession::iterationChanged, this, &MainWindow::updateStatus);
    connect(session, &ChatSession::providerChanged, this, &MainWindow::updateStatus);
    connect(session, &ChatSession::providerFailed, this, [this](const QString &reason) {
        statusBar()->showMessage(reason, 15'000);
        updateStatus();
    });
    connect(session->agent(), &Agent::stateChanged, this, &MainWindow::updateStatus);

    StepDebugger *debugger = session->debugger();
    connect(debugger, &StepDebugger::paused, this, [this] {
        m_paused = true;
        // What is held, and its editors, sit below the breakpoints: bring them into view.
        QTimer::singleShot(0, m_debugScroll, [this] {
            m_debugScroll->verticalScrollBar()->setValue(m_debugPanel->stopView()->y());
        });
        updateStatus();
    });
    connect(debugger, &StepDebugger::resumed, this, [this] {
        m_paused = false;
        updateStatus();
    });
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
    const bool firstStart = !m_context.state->contains(u"window/docks"_s);
    const QString path = !sessionPath.isEmpty()                    ? sessionPath
                         : m_context.settings->reopenLastSession() ? m_sessionActions->lastSession()
                                                                   : QString();
    if (!path.isEmpty()) {
        m_sessionActions->openFile(path);
        return;
    }
    if (!firstStart || !m_context.library)
        return;
    // Sessions kept from before are where a returning user starts; the first scan decides.
    SessionLibrary *library = m_context.library;
    if (!library->entries().isEmpty()) {
        m_libraryDock->show();
    } else {
        // The first scan may have finished on its thread with its result still queued, so it
        // is not "refreshing" any more and has no entries yet: the next result decides.
        auto once = std::make_shared<QMetaObject::Connection>();
        *once = connect(library, &SessionLibrary::entriesChanged, m_libraryDock, [this, library, once] {
            disconnect(*once);
            if (!library->entries().isEmpty() && m_context.document->path().isEmpty()
                && m_context.session->agent()->history().isEmpty())
                m_libraryDock->show();
        });
    }
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
    ChatSession *session = m_context.session;
    session->apply(SessionSetup::fromSettings(*m_context.settings, session->setup()));
    m_composer->setSendOnEnter(m_context.settings->sendOnEnter());

    QStringList problems;
    const QList<McpServerConfig> servers = m_mcpSettings->servers(&problems);
    if (!problems.isEmpty())
        showMessage(problems.join(u' '));
    const auto applyServers = [session](const QList<McpServerConfig> &withSecrets) {
        SessionSetup setup = session->setup();
        setup.mcpServers = withSecrets;
        session->apply(setup);
    };
    if (!m_context.secrets) {
        applyServers(servers);
        return;
    }
    // The keychain answers later; a newer apply wins over an older one still reading.
    const int generation = ++m_mcpGeneration;
    McpSettings::loadSecrets(servers, m_context.secrets, this,
                             [this, generation, applyServers](const QList<McpServerConfig> &withSecrets,
                                                              const QStringList &errors) {
                                 if (generation != m_mcpGeneration)
                                     return;
                                 applyServers(withSecrets);
                                 if (!errors.isEmpty())
                                     showMessage(errors.join(u' '));
                             });
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
    m_mcpResources->show();
}

void MainWindow::showMessage(const QString &text)
{
    statusBar()->showMessage(text, 15'000);
}

void MainWindow::openSettings()
{
    auto *tester = new ConnectionTester(m_context.network);
    auto *dialog
        = new SettingsDialog(m_context.profiles, m_context.settings, m_context.secrets, tester, this);
    tester->setParent(dialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->addMcpServersPage(m_mcpSettings.get(), m_context.session->mcp());
    // Without a provider, or one without a usable key, what is missing is on the Providers page.
    if (m_chatStack->currentIndex() == 1 || !m_context.session->setup().providerProblem().isEmpty())
        dialog->showPage(SettingsDialog::Page::Providers);
    connect(dialog, &SettingsDialog::applied, this, [this] {
        applySettings();
        m_picker->reloadProfiles();
        // A key or a base URL may have changed: use the chosen profile afresh.
        m_picker->useSelectedProfile();
    });
    dialog->open();
}

void MainWindow::sendFromComposer(const QString &text)
{
    if (!m_context.session->hasProvider()) {
        // E.g. an example or a reopened session, looked at before any provider was set up.
        m_composer->setText(text);
        showMessage(tr("Add a provider in Settings to ask the agent; the question is still there."));
        return;
    }
    const bool editing = std::exchange(m_editingLastQuestion, false);
    if (editing)
        m_context.session->editLastAndResend(text);
    else
        m_context.session->send(text);
}

void MainWindow::editLastQuestion(const QString &text)
{
    if (m_context.session->isBusy())
        return;
    m_editingLastQuestion = true;
    m_composer->setText(text);
    m_composer->editor()->setFocus();
    statusBar()->showMessage(tr("Editing the last question: send to ask it again in its place."), 10'000);
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

void MainWindow::updateStatus()
{
    const ChatSession *session = m_context.session;
    const std::optional<ProviderProfile> profile = session->provider();
    setStatusField(m_providerLabel,
                   profile ? tr("%1 · %2").arg(profile->name, profile->model) : tr("No provider"), QString());
    // While an answer streams its tokens are an estimate, marked "≈", until the provider counts them.
    const qint64 streaming = session->streamingTokenEstimate();
    const QString approx = streaming > 0 ? u"≈"_s : QString();
    const qint64 turnTokens = session->turnUsage().total() + streaming;
    const qint64 sessionTokens = session->sessionUsage().total() + streaming;
    setStatusField(
        m_tokensLabel,
        tr("Tokens: %1%L2 this turn · %1%L3 this session").arg(approx).arg(turnTokens).arg(sessionTokens),
        //: The status bar's token counts in a narrow window: this turn · this session
        tr("%1%2 · %1%3 tokens").arg(approx, formatTokenCount(turnTokens), formatTokenCount(sessionTokens)));
    //: The status bar's cost in USD; "—" when no model call had a known price
    setStatusField(m_costLabel,
                   tr("Cost: %1 this turn · %2 this session")
                       .arg(formatCost(session->turnCost()), formatCost(session->sessionCost())),
                   formatCost(session->sessionCost()));
    // The gauge: the last request against the model's window; while a question is typed, ≈ the
    // request it would make (about four characters a token).
    const std::optional<qint64> window = session->contextWindow();
    const qint64 typed = session->isBusy() ? 0 : m_composer->editor()->document()->characterCount() - 1;
    const qint64 contextTokens = session->contextTokens() + (typed > 0 ? (typed + 3) / 4 : 0);
    const QString gauge = ContextGauge::describe(contextTokens, window, typed > 0);
    setStatusField(m_contextLabel, tr("Context: %1").arg(gauge), gauge);
    m_contextLabel->setProperty(
        "helpText",
        tr("The last request's tokens, as the provider counted them, plus its answer, against the "
           "model's context window (from the price table or the provider profile)."));
    QPalette contextPalette = m_contextLabel->palette();
    const ContextGauge::Level level = ContextGauge::level(contextTokens, window);
    // Near the window in the colour of a limit, over it in the colour of an error.
    QColor contextColor = palette().color(QPalette::WindowText);
    if (level == ContextGauge::Level::Near)
        contextColor = TraceIcons::statusColor(TraceStatus::Limited, palette());
    else if (level == ContextGauge::Level::Over)
        contextColor = TraceIcons::statusColor(TraceStatus::Error, palette());
    contextPalette.setColor(QPalette::WindowText, contextColor);
    m_contextLabel->setPalette(contextPalette);
    const int maxIterations = session->agentConfig().maxIterations;
    if (session->iteration() > 0) {
        setStatusField(m_iterationLabel,
                       tr("Iteration %1 of %2").arg(session->iteration()).arg(maxIterations),
                       tr("%1/%2").arg(session->iteration()).arg(maxIterations));
    } else {
        setStatusField(m_iterationLabel, tr("No iteration yet"), QString());
    }
    m_stateLabel->setText(stateText(session->agent()->state(), m_paused));
    fitStatusFields();
}

void MainWindow::setStatusField(QLabel *label, const QString &full, const QString &brief)
{
    label->setProperty("fullText", full);
    label->setProperty("briefText", brief);
    label->setText(full);
}

void MainWindow::fitStatusFields()
{
    // Least telling first: the iteration is in the trace, the context and cost have a brief form
    // that still reads, the tokens last.
    const QList<QLabel *> shrinkable{m_iterationLabel, m_contextLabel, m_costLabel, m_tokensLabel};
    for (QLabel *label : shrinkable) {
        label->setText(label->property("fullText").toString());
        label->setToolTip(label->property("helpText").toString());
    }
    const int spacing = statusBar()->layout()->spacing();
    const auto permanentWidth = [this, spacing] {
        int width = 24; // the size grip
        for (QLabel *label : {m_tokensLabel, m_costLabel, m_contextLabel, m_iterationLabel, m_stateLabel})
            width += label->sizeHint().width() + spacing;
        return width;
    };
    // The provider and model are in the toolbar too: their words here may shrink to this much.
    const int providerRoom = m_providerLabel->fontMetrics().averageCharWidth() * 16;
    for (QLabel *label : shrinkable) {
        if (permanentWidth() + providerRoom <= statusBar()->width())
            break;
        label->setText(label->property("briefText").toString());
        const QString help = label->property("helpText").toString();
        label->setToolTip(label->property("fullText").toString()
                          + (help.isEmpty() ? QString() : u"\n"_s + help));
    }
    // What is left is the provider's, its words cut with an ellipsis rather than clipped.
    const QString provider = m_providerLabel->property("fullText").toString();
    const QMargins margins = m_providerLabel->contentsMargins();
    const int room = statusBar()->width() - permanentWidth() - margins.left() - margins.right() - spacing;
    const QString elided = m_providerLabel->fontMetrics().elidedText(provider, Qt::ElideRight, qMax(0, room));
    m_providerLabel->setText(elided);
    m_providerLabel->setToolTip(elided == provider ? QString() : provider);
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    fitStatusFields();
}

QString MainWindow::statusText() const
{
    // The words a user reads in a window wide enough for all of them.
    const auto full = [](const QLabel *label) {
        const QVariant text = label->property("fullText");
        return text.isValid() ? text.toString() : label->text();
    };
    return QStringList{full(m_providerLabel), full(m_tokensLabel),    full(m_costLabel),
                       full(m_contextLabel),  full(m_iterationLabel), full(m_stateLabel)}
        .join(u" | "_s);
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
        tr("<tr><td><b>Ctrl+1 / Ctrl+2 / Ctrl+3</b></td><td>Show or hide the conversation / the trace / the "
           "session library</td></tr>"),
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
    restoreState(state.value(u"window/docks"_s).toByteArray());
}

void MainWindow::saveLayout()
{
    QSettings &state = *m_context.state;
    state.setValue(u"window/geometry"_s, saveGeometry());
    state.setValue(u"window/splitter"_s, m_splitter->saveState());
    state.setValue(u"window/sideSplitter"_s, m_sideSplitter->saveState());
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
