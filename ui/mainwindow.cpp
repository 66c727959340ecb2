#include "ui/mainwindow.h"

#include "agent/config/appsettings.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcpsettings.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "agent/tools/builtin/builtintools.h"
#include "agent/trace/tracemodel.h"
#include "ui/chat/chatcomposer.h"
#include "ui/chat/chatview.h"
#include "ui/chat/elicitationcard.h"
#include "ui/chat/mcpresourcesdialog.h"
#include "ui/debug/debugpanel.h"
#include "ui/library/sessionlibrarypanel.h"
#include "ui/session/sessionactions.h"
#include "ui/session/sessionstatusbar.h"
#include "ui/session/turnactions.h"
#include "ui/settings/firstrunpanel.h"
#include "ui/settings/settingsdialog.h"
#include "ui/trace/traceinspector.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
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
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

const QString commandLineProfileId = u"command-line"_s;

} // namespace

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

    m_chatView->setRows(context.session->rows());
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
    m_statusBar = new SessionStatusBar(context.session, m_composer->editor(), this);
    setStatusBar(m_statusBar);
    connectSession();
    applySettings();
    applyMcpServers();
    restoreLayout();
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions()
{
    m_sessionActions = new SessionActions(m_context.document, m_context.state, this);
    connect(m_sessionActions, &SessionActions::message, this,
            [this](const QString &text) { statusBar()->showMessage(text, 10'000); });
    m_turnActions = new TurnActions(m_context.session, m_sessionActions, m_inspector, m_context.profiles,
                                    m_context.network.newPlaygroundRun, this);
    connect(m_turnActions, &TurnActions::message, this, &MainWindow::showMessage);

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
    debug->addAction(m_turnActions->replayAction());
    debug->addAction(m_turnActions->forkAction());
    debug->addAction(m_turnActions->playgroundAction());

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    tools->addAction(m_mcpResourcesAction);
    tools->addAction(m_turnActions->compareAction());

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

    auto *providerLabel = new QLabel(tr("&Provider:"), bar);
    m_providerBox = new QComboBox(bar);
    m_providerBox->setAccessibleName(tr("Provider"));
    // A fixed width keeps the toolbar whole in a narrow window; long names are elided.
    m_providerBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_providerBox->setMinimumContentsLength(10);
    providerLabel->setBuddy(m_providerBox);
    providerLabel->setContentsMargins(fontMetrics().averageCharWidth(), 0,
                                      fontMetrics().averageCharWidth() / 2, 0);
    bar->addWidget(providerLabel);
    bar->addWidget(m_providerBox);
    connect(m_providerBox, &QComboBox::activated, this, &MainWindow::onProfileChosen);

    auto *modelLabel = new QLabel(tr("&Model:"), bar);
    m_modelBox = new QComboBox(bar);
    m_modelBox->setObjectName(u"modelBox"_s);
    m_modelBox->setAccessibleName(tr("Model"));
    m_modelBox->setEditable(true);
    m_modelBox->setInsertPolicy(QComboBox::NoInsert);
    m_modelBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_modelBox->setMinimumContentsLength(13);
    // Model names run long ("mistral-small-24b-instruct-2501"): the list shows them whole.
    m_modelBox->view()->setMinimumWidth(fontMetrics().averageCharWidth() * 36);
    m_providerBox->view()->setMinimumWidth(fontMetrics().averageCharWidth() * 24);
    m_modelBox->setEnabled(false);
    m_modelBox->completer()->setCaseSensitivity(Qt::CaseInsensitive);
    m_modelBox->completer()->setFilterMode(Qt::MatchContains);
    m_modelBox->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_modelBox->setToolTip(tr("The model for the next turn of this session"));
    modelLabel->setBuddy(m_modelBox);
    modelLabel->setContentsMargins(fontMetrics().averageCharWidth(), 0, fontMetrics().averageCharWidth() / 2,
                                   0);
    bar->addWidget(modelLabel);
    bar->addWidget(m_modelBox);
    connect(m_modelBox, &QComboBox::textActivated, this, &MainWindow::chooseModel);
    // A typed name counts once it is confirmed, with Enter or by leaving the field.
    connect(m_modelBox->lineEdit(), &QLineEdit::editingFinished, this,
            [this] { chooseModel(m_modelBox->currentText()); });
    bar->addAction(m_settingsAction);
    bar->addSeparator();

    bar->addAction(m_debugModeAction);
    bar->addAction(m_debugPanel->pauseAction());
    bar->addAction(m_debugPanel->stepAction());
    bar->addAction(m_debugPanel->continueAction());
    bar->addSeparator();
    bar->addAction(m_stopAction);
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
        m_recordedModelPending = !continueOnRecordedModel();
    });
    connect(session, &ChatSession::cleared, this, [this] {
        m_recordedModelPending = false;
        returnToProfileModel();
    });
    connect(session, &ChatSession::providerChanged, this, &MainWindow::onProviderChanged);
    connect(session, &ChatSession::modelsListed, this, &MainWindow::showModels);
    connect(session, &ChatSession::modelsListFailed, this, &MainWindow::showModelListFailure);
    // The model changes between turns only.
    connect(session, &ChatSession::busyChanged, m_modelBox,
            [this, session](bool busy) { m_modelBox->setEnabled(!busy && session->hasProvider()); });

    StepDebugger *debugger = session->debugger();
    connect(debugger, &StepDebugger::paused, this, &MainWindow::showDebuggerStop);
    // The panel's own switch and Pause turn debug mode on too.
    connect(debugger, &StepDebugger::settingsChanged, this,
            [this, debugger] { m_debugModeAction->setChecked(debugger->isEnabled()); });

    connect(m_firstRun, &FirstRunPanel::profileCreated, this, [this](const QString &id) {
        reloadProfiles(id);
        onProfileChosen(m_providerBox->currentIndex());
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
    m_providerBox->setEnabled(!running);
}

void MainWindow::showDebuggerStop()
{
    // What is held, and its editors, sit below the breakpoints: bring them into view.
    QTimer::singleShot(0, m_debugScroll, [this] {
        m_debugScroll->verticalScrollBar()->setValue(m_debugPanel->stopView()->y());
    });
}

void MainWindow::start(const std::optional<ProviderProfile> &commandLine, const QString &sessionPath)
{
    m_commandLineProfile = commandLine;
    reloadProfiles(commandLine ? commandLineProfileId : m_context.profiles->defaultProfileId());
    if (m_providerBox->count() == 0) {
        showChat(false);
        m_firstRun->lookForOllama();
    } else {
        showChat(true);
        onProfileChosen(m_providerBox->currentIndex());
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

void MainWindow::reloadProfiles(const QString &selectId)
{
    const QString current = selectId.isEmpty() ? m_providerBox->currentData().toString() : selectId;
    m_providerBox->clear();
    if (m_commandLineProfile)
        m_providerBox->addItem(m_commandLineProfile->name, commandLineProfileId);
    for (const ProviderProfile &profile : m_context.profiles->profiles())
        m_providerBox->addItem(profile.name.isEmpty() ? profile.model : profile.name, profile.id);
    const int index = m_providerBox->findData(current);
    m_providerBox->setCurrentIndex(index >= 0 ? index : 0);
}

void MainWindow::onProfileChosen(int index)
{
    if (index < 0)
        return;
    const QString id = m_providerBox->itemData(index).toString();
    std::optional<ProviderProfile> profile
        = id == commandLineProfileId ? m_commandLineProfile : m_context.profiles->profile(id);
    if (!profile)
        return;
    if (id != commandLineProfileId)
        m_context.profiles->setDefaultProfileId(id);
    m_modelsListedFor.clear(); // its key or endpoint may have changed: list its models afresh
    showChat(true);
    m_context.session->useProfile(*profile, m_context.secrets, m_context.settings->providerReadTimeoutMs());
}

void MainWindow::onProviderChanged()
{
    const std::optional<ProviderProfile> profile = m_context.session->provider();
    if (!profile)
        return;
    if (m_recordedModelPending) {
        m_recordedModelPending = false;
        continueOnRecordedModel();
        if (m_context.session->provider() != profile)
            return; // setModel() announced the recorded model through its own providerChanged()
    }
    m_modelBox->setEnabled(!m_context.session->isBusy());
    if (!m_modelBox->lineEdit()->hasFocus() || m_modelBox->currentText().isEmpty())
        m_modelBox->setEditText(profile->model);
    // Another provider (or the same one chosen afresh, see onProfileChosen()): its own models.
    const QString listedFor = profile->id;
    if (listedFor == m_modelsListedFor)
        return;
    m_modelsListedFor = listedFor;
    m_modelBox->clear();
    m_modelBox->setEditText(profile->model);
    m_modelBox->setToolTip(tr("Listing the models of %1…").arg(profile->name));
    m_context.session->listModels();
}

void MainWindow::showModels(const QStringList &models)
{
    const QString current = m_context.session->provider() ? m_context.session->provider()->model : QString();
    m_modelBox->clear();
    m_modelBox->addItems(models);
    // The list opens at the model in use; one typed by hand stays as typed.
    m_modelBox->setCurrentIndex(m_modelBox->findText(current));
    m_modelBox->setEditText(current);
    m_modelBox->lineEdit()->setPlaceholderText(tr("Type a model"));
    m_modelBox->setToolTip(models.isEmpty()
                               ? tr("The provider lists no models: type the name of one.")
                               : tr("The model for the next turn of this session; %n listed, or type one.",
                                    nullptr, int(models.size())));
}

void MainWindow::showModelListFailure(const QString &reason)
{
    // Not worth a dialog: the model can still be typed.
    m_modelBox->clear();
    if (const auto profile = m_context.session->provider())
        m_modelBox->setEditText(profile->model);
    m_modelBox->lineEdit()->setPlaceholderText(tr("Type a model"));
    m_modelBox->setToolTip(tr("The models could not be listed: %1\nType the name of a model.").arg(reason));
}

void MainWindow::chooseModel(const QString &model)
{
    ChatSession *session = m_context.session;
    const std::optional<ProviderProfile> profile = session->provider();
    if (!profile)
        return;
    const QString name = model.trimmed();
    if (name.isEmpty() || name == profile->model || !session->setModel(name)) {
        m_modelBox->setEditText(profile->model);
        return;
    }
    // Like LM Studio and Jan: the picked model is the active one, and the
    // provider's model the next time it is used (this session's file records it too).
    if (profile->id == commandLineProfileId) {
        if (m_commandLineProfile)
            m_commandLineProfile->model = name;
    } else if (std::optional<ProviderProfile> stored = m_context.profiles->profile(profile->id)) {
        stored->model = name;
        m_context.profiles->save(*stored);
        if (stored->name.isEmpty())
            reloadProfiles();
    }
    showMessage(tr("The next turn uses %1.").arg(name));
}

bool MainWindow::continueOnRecordedModel()
{
    ChatSession *session = m_context.session;
    const std::optional<RecordedProvider> recorded = session->recordedProvider();
    if (!recorded)
        return true;
    const std::optional<ProviderProfile> current = session->provider();
    QList<ProviderProfile> profiles = m_context.profiles->profiles();
    if (m_commandLineProfile)
        profiles.prepend(*m_commandLineProfile);
    std::optional<ProviderProfile> profile = profileForRecordedProvider(current, profiles, *recorded);
    if (!profile) {
        if (!current)
            return false;
        if (current->model != recorded->model) {
            showMessage(tr("This session ran on %1, which no provider here reaches; the next turn uses %2.")
                            .arg(recorded->model, current->model));
        }
        return true;
    }
    if (current && profile->id == current->id) {
        // Like Jan and LM Studio: a chat keeps its model; the provider's own model stays as it was.
        if (current->model != recorded->model && session->setModel(recorded->model))
            showMessage(tr("This session continues on %1.").arg(recorded->model));
        return true;
    }
    // Another profile reaches the provider the session ran on: switch to it, on the session's model.
    profile->model = recorded->model;
    {
        const QSignalBlocker quiet(m_providerBox);
        m_providerBox->setCurrentIndex(m_providerBox->findData(profile->id));
    }
    m_modelsListedFor.clear();
    session->useProfile(*profile, m_context.secrets, m_context.settings->providerReadTimeoutMs());
    showMessage(tr("This session continues on %1 with %2.").arg(profile->name, recorded->model));
    return true;
}

void MainWindow::returnToProfileModel()
{
    ChatSession *session = m_context.session;
    const std::optional<ProviderProfile> current = session->provider();
    if (!current)
        return;
    const std::optional<ProviderProfile> chosen = current->id == commandLineProfileId
                                                      ? m_commandLineProfile
                                                      : m_context.profiles->profile(current->id);
    if (chosen && !chosen->model.isEmpty() && chosen->model != current->model)
        session->setModel(chosen->model);
}

void MainWindow::showChat(bool show)
{
    m_chatStack->setCurrentIndex(show ? 0 : 1);
    if (show)
        m_composer->editor()->setFocus();
}

void MainWindow::applySettings()
{
    m_context.session->applySettings(*m_context.settings);
    m_composer->setSendOnEnter(m_context.settings->sendOnEnter());
}

void MainWindow::applyMcpServers()
{
    QStringList problems;
    const QList<McpServerConfig> servers = m_mcpSettings->servers(&problems);
    if (!problems.isEmpty())
        showMessage(problems.join(u' '));
    ChatSession *session = m_context.session;
    if (!m_context.secrets) {
        session->setMcpServers(servers);
        return;
    }
    // The keychain answers later; a newer apply wins over an older one still reading.
    const int generation = ++m_mcpGeneration;
    McpSettings::loadSecrets(
        servers, m_context.secrets, this,
        [this, generation, session](const QList<McpServerConfig> &withSecrets, const QStringList &errors) {
            if (generation != m_mcpGeneration)
                return;
            session->setMcpServers(withSecrets);
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
    auto *dialog = new SettingsDialog(m_context.profiles, m_context.settings, m_context.secrets,
                                      m_context.network.connectionTester, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->addMcpServersPage(m_mcpSettings.get(), m_context.session->mcp());
    if (m_chatStack->currentIndex() == 1)
        dialog->showPage(SettingsDialog::Page::Providers);
    connect(dialog, &SettingsDialog::applied, this, [this] {
        applySettings();
        applyMcpServers();
        reloadProfiles();
        // A key or a base URL may have changed: use the chosen profile afresh.
        if (m_providerBox->count() > 0 && !m_context.session->isBusy())
            onProfileChosen(m_providerBox->currentIndex());
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
