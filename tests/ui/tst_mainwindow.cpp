// The whole window over a real OpenAI-compatible server on 127.0.0.1 (the
// demo conversation) and a real keychain (run under with-keyring.sh).

#include "agent/config/appsettings.h"
#include "agent/config/secretstore.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcpmessagelog.h"
#include "agent/mcp/mcpserverinstall.h"
#include "agent/mcp/mcpsettings.h"
#include "agent/playground/playgroundrun.h"
#include "agent/providers/connectiontester.h"
#include "agent/providers/ollamaprobe.h"
#include "agent/replay/replayrun.h"
#include "agent/session/agentstore.h"
#include "agent/session/autosaver.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "tests/support/democonversation.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/testfiles.h"
#include "tests/support/testimages.h"
#include "ui/agents/agentchooser.h"
#include "ui/agents/agentsdialog.h"
#include "ui/agents/agentspage.h"
#include "ui/chat/attachmentchip.h"
#include "ui/chat/chatcomposer.h"
#include "ui/chat/chatitem.h"
#include "ui/chat/chatview.h"
#include "ui/chat/composerattachments.h"
#include "ui/chat/elicitationcard.h"
#include "ui/chat/mcpresourcesdialog.h"
#include "ui/chat/messagewidget.h"
#include "ui/compare/comparedialog.h"
#include "ui/compare/comparisonview.h"
#include "ui/debug/debugpanel.h"
#include "ui/inspector/mcpinspectorwindow.h"
#include "ui/inspector/mcplogfiltermodel.h"
#include "ui/inspector/mcplogpanel.h"
#include "ui/library/librarysidebar.h"
#include "ui/library/sessionlibrarypanel.h"
#include "ui/mainwindow.h"
#include "ui/playground/playgroundwindow.h"
#include "ui/replay/replaywindow.h"
#include "ui/session/autosaveindicator.h"
#include "ui/session/providerpicker.h"
#include "ui/session/sessionactions.h"
#include "ui/session/sessionstatusbar.h"
#include "ui/settings/firstrunpanel.h"
#include "ui/settings/mcpinstaller.h"
#include "ui/settings/settingsdialog.h"
#include "ui/trace/traceinspector.h"

#include <QAbstractButton>
#include <QAction>
#include <QBuffer>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScopeGuard>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

// A keychain that cannot be read, as without a Secret Service running.
class UnreadableSecretStore final : public SecretStore
{
public:
    void read(const QString &, QObject *context, ReadCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done({std::nullopt, u"No Secret Service is running."_s}); });
    }
    void write(const QString &, const QString &, QObject *context, WriteCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done(u"No Secret Service is running."_s); });
    }
    void remove(const QString &, QObject *context, WriteCallback done) override
    {
        QTimer::singleShot(0, context, [done] { done(u"No Secret Service is running."_s); });
    }
};

// Everything a window needs, real, in a throw-away settings file.
struct Fixture
{
    explicit Fixture(const QString &settingsPath)
        : settings(settingsPath, QSettings::IniFormat)
        , profiles(&settings)
        , appSettings(&settings)
        , secrets(u"Loopscope window tests"_s)
        , session(&network)
        , document(&session)
        , library(QFileInfo(settingsPath).path() + u"/library"_s)
    {}

    Ui::MainWindowContext context()
    {
        const Ui::NetworkHelpers helpers{&ollamaProbe, &connectionTester, [this] {
                                             return new PlaygroundRun(&network, &secrets);
                                         }};
        return {&session, &profiles, &appSettings, &secrets, helpers, &settings, &document, &library, agents};
    }

    // As the app does: every finished turn is written into the library.
    void keepTurnsInTheLibrary()
    {
        autosaver = std::make_unique<Autosaver>(&session, library.folder());
        document.setAutosaver(autosaver.get());
        autosaver->setLibrary(&library);
    }

    QSettings settings;
    ProviderProfileStore profiles;
    AppSettings appSettings;
    KeychainSecretStore secrets;
    QNetworkAccessManager network;
    OllamaProbe ollamaProbe{&network};
    ConnectionTester connectionTester{&network};
    ChatSession session;
    SessionDocument document;
    SessionLibrary library;
    std::unique_ptr<Autosaver> autosaver;
    AgentStore *agents = nullptr; // the user's agents, for the tests of the agent chooser
};

} // namespace

class MainWindowTest : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_server = std::make_unique<FakeHttpServer>();
        QVERIFY(m_server->listen());
        DemoConversation::install(*m_server, 1);
        m_fixture = std::make_unique<Fixture>(m_dir.filePath(u"settings-%1.ini"_s.arg(++m_run)));
        // The demo's tools, confined to an empty folder.
        m_fixture->appSettings.setEnabledTools({u"calculator"_s, u"current_time"_s});
        m_fixture->appSettings.setWorkspaceFolder(m_dir.path());
        AgentConfig config = m_fixture->appSettings.agentConfig();
        config.maxIterations = 6;
        m_fixture->appSettings.setAgentConfig(config);
    }

    void cleanup()
    {
        m_fixture.reset();
        m_server.reset();
    }

    void withoutAProviderTheFirstRunPanelExplainsWhatToDo()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start();
        QVERIFY(window.firstRunPanel()->isVisible());
        QVERIFY(!window.composer()->isVisible());
        QVERIFY(window.statusText().contains(u"No provider"_s));
    }

    void theToolbarsAgentChooserRunsTheNextTurnAsTheChosenAgent()
    {
        const std::unique_ptr<AgentStore> agents = useAgentStoreWithBilling();
        QVERIFY(agents);
        Ui::MainWindow window(m_fixture->context());
        window.start();
        QVERIFY(window.agentChooser());
        QComboBox *box = window.agentChooser()->agentBox();
        QCOMPARE(box->count(), 2);
        QCOMPARE(box->itemText(0), u"Default"_s);

        box->setCurrentIndex(box->findText(u"billing"_s));

        QCOMPARE(m_fixture->session.setup().agent, u"billing"_s);
        QCOMPARE(m_fixture->session.agentConfig().systemPrompt, u"You answer invoices."_s);
        window.openAgents();
        const auto *dialog = window.findChild<Ui::AgentsDialog *>();
        QVERIFY(dialog && dialog->isVisible());
        QCOMPARE(dialog->page()->selectedName(), u"billing"_s);
    }

    void anMcpInstallLinkAsksThenHandsTheServerToTheSession()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start();
        // A command that does not exist: the server fails to start, but the session has it.
        window.installMcpServer(McpServerInstall::link({{u"name"_s, u"linked"_s},
                                                        {u"command"_s, u"loopscope-no-such-server"_s},
                                                        {u"args"_s, QJsonArray{u"-v"_s}}}));
        Ui::McpInstallDialog *dialog = window.mcpInstaller()->dialog();
        QVERIFY(dialog && dialog->isVisible());
        QVERIFY(m_fixture->session.mcp()->servers().isEmpty()); // nothing before the user agrees
        QTest::mouseClick(dialog->addButton(), Qt::LeftButton);
        QTRY_COMPARE(m_fixture->session.mcp()->servers().size(), 1);
        QCOMPARE(m_fixture->session.mcp()->servers().constFirst().command, u"loopscope-no-such-server"_s);
        // The fixture's settings outlive this test.
        QString error;
        QVERIFY(McpSettings(&m_fixture->settings)
                    .remove(
                        u"linked"_s, &m_fixture->secrets, &window, [](const QString &) {}, &error));
    }

    void theAgentsPageOffersTheSessionsMcpServersWhole()
    {
        const std::unique_ptr<AgentStore> agents = useAgentStoreWithBilling();
        QVERIFY(agents);
        QString error;
        Ui::MainWindow window(m_fixture->context());
        window.start();
        // A server that cannot start: it is configured all the same, its tools not known yet.
        window.installMcpServer(McpServerInstall::link(
            {{u"name"_s, u"linked"_s}, {u"command"_s, u"loopscope-no-such-server"_s}}));
        QTest::mouseClick(window.mcpInstaller()->dialog()->addButton(), Qt::LeftButton);
        QTRY_COMPARE(m_fixture->session.mcp()->servers().size(), 1);

        window.openAgents();
        const auto *dialog = window.findChild<Ui::AgentsDialog *>();
        QVERIFY(dialog);
        const QTreeWidget *tools = dialog->page()->toolTree();
        QStringList entries;
        for (int row = 0; row < tools->topLevelItemCount(); ++row)
            entries.append(tools->topLevelItem(row)->data(0, Qt::UserRole).toString());
        QVERIFY2(entries.contains(u"mcp:linked"_s), qPrintable(entries.join(u", ")));
        QVERIFY(entries.contains(u"calculator"_s));

        QVERIFY(McpSettings(&m_fixture->settings)
                    .remove(
                        u"linked"_s, &m_fixture->secrets, &window, [](const QString &) {}, &error));
    }

    void theFirstRunPanelOpensAnExampleWithoutAProvider()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start();
        QVERIFY(window.firstRunPanel()->isVisible());
        auto *example = window.firstRunPanel()->findChild<QAbstractButton *>(u"recoveryExampleButton"_s);
        QVERIFY(example && example->isVisible());
        example->click();
        QTRY_VERIFY(m_fixture->session.agent()->history().size() == 7);
        QVERIFY(window.windowTitle().startsWith(u"Example: wrong tool calls"_s));
        QTRY_VERIFY(window.chatView()->isVisible());
        QVERIFY(!window.firstRunPanel()->isVisible());
    }

    void theWindowShowsConversationAndTraceSideBySide()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());

        QCOMPARE(window.splitter()->count(), 2);
        QCOMPARE(window.splitter()->orientation(), Qt::Horizontal);
        QCOMPARE(window.splitter()->widget(0)->accessibleName(), u"Conversation"_s);
        QVERIFY(window.traceInspector()->isVisible());
        QVERIFY(window.composer()->isVisible());
        QVERIFY(!window.debugPanel()->isVisible());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QVERIFY2(window.statusText().contains(u"gpt-4o-mini"_s), qPrintable(window.statusText()));
    }

    void theWindowFitsASmallScreenWithEveryPanelOpen()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        window.debugModeAction()->setChecked(true);
        window.librarySidebar()->toggleAction()->setChecked(true);
        QVERIFY(window.libraryPanel()->isVisible());
        QVERIFY(window.debugPanel()->isVisible());

        const QSize smallScreen(900, 600);
        QVERIFY2(window.minimumSizeHint().width() <= smallScreen.width()
                     && window.minimumSizeHint().height() <= smallScreen.height(),
                 qPrintable(u"minimum %1×%2"_s.arg(window.minimumSizeHint().width())
                                .arg(window.minimumSizeHint().height())));
        QVERIFY2(window.size().width() <= window.screen()->availableSize().width(),
                 qPrintable(u"%1 in %2; the trace %3, its tree %4"_s.arg(window.size().width())
                                .arg(window.screen()->availableSize().width())
                                .arg(window.traceInspector()->minimumSizeHint().width())
                                .arg(window.traceInspector()->treeView()->minimumSizeHint().width())));
    }

    void stopTurnStaysInTheToolbarOfANarrowWindow_data()
    {
        QTest::addColumn<bool>("debugging");
        QTest::addColumn<bool>("withAgents");
        QTest::newRow("without debug mode") << false << false;
        QTest::newRow("in debug mode") << true << false;
        // As the app runs: with the agent box and its buttons in the bar too.
        QTest::newRow("with the agent chooser, in debug mode") << true << true;
    }

    void stopTurnStaysInTheToolbarOfANarrowWindow()
    {
        QFETCH(bool, debugging);
        QFETCH(bool, withAgents);
        AgentStore agents(m_dir.filePath(u"agents-narrow-%1"_s.arg(++m_run)));
        if (withAgents)
            m_fixture->agents = &agents;
        const auto forget = qScopeGuard([this] { m_fixture->agents = nullptr; });
        Ui::MainWindow window(m_fixture->context());
        window.resize(900, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        window.debugModeAction()->setChecked(debugging);
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QCoreApplication::processEvents();
        auto *toolBar = window.findChild<QToolBar *>(u"mainToolBar"_s);
        QVERIFY(toolBar);
        QWidget *stop = toolBar->widgetForAction(window.stopAction());
        QVERIFY(stop);
        // In the bar itself, not in its "››" overflow menu.
        QVERIFY(stop->isVisible());
        QCOMPARE(stop->parentWidget(), toolBar);
        QVERIFY2(toolBar->rect().contains(stop->geometry()),
                 qPrintable(u"Stop Turn at x %1, the bar %2 px"_s.arg(stop->x()).arg(toolBar->width())));
    }

    void theFileMenuShowsTheSaveAsAndSettingsShortcuts()
    {
        Ui::MainWindow window(m_fixture->context());
        QCOMPARE(window.sessionActions()->saveAsAction()->shortcut(),
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
        QMenu *file = window.menuBar()->actions().constFirst()->menu();
        QVERIFY(file);
        QAction *settings = nullptr;
        for (QAction *action : file->actions()) {
            if (action->text() == u"&Settings…"_s)
                settings = action;
        }
        QVERIFY(settings);
        QCOMPARE(settings->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Comma));
    }

    void f1ListsTheMcpAndDeleteShortcutsToo()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAction *shortcuts = nullptr;
        for (QAction *menu : window.menuBar()->actions()) {
            for (QAction *action : menu->menu()->actions()) {
                if (action->text() == u"&Keyboard Shortcuts"_s)
                    shortcuts = action;
            }
        }
        QVERIFY(shortcuts);
        QCOMPARE(shortcuts->shortcut(), QKeySequence(QKeySequence::HelpContents));
        shortcuts->trigger();
        QMessageBox *box = nullptr;
        QTRY_VERIFY((box = window.findChild<QMessageBox *>()) != nullptr);
        QVERIFY2(box->text().contains(u"Ctrl+Shift+M"_s), qPrintable(box->text()));
        QVERIFY2(box->text().contains(u"<b>Delete</b>"_s), qPrintable(box->text()));
        box->close();
    }

    void aThreeIterationTurnStreamsIntoTheChatAndGrowsTheTree()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QAbstractItemModel *tree = window.traceInspector()->treeView()->model();
        int rowsSeenWhileRunning = 0;
        connect(tree, &QAbstractItemModel::rowsInserted, this, [&] {
            if (m_fixture->session.isBusy())
                ++rowsSeenWhileRunning;
        });

        // Ctrl+Enter in the composer sends.
        window.composer()->editor()->setFocus();
        QTest::keyClicks(window.composer()->editor(), QString::fromUtf8(DemoConversation::question));
        QTest::keyClick(window.composer()->editor(), Qt::Key_Return, Qt::ControlModifier);
        QTRY_VERIFY(window.composer()->isBusy());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);

        const auto result = finished.first().first().value<TurnResult>();
        QCOMPARE(result.outcome, TurnOutcome::Answered);
        QCOMPARE(result.iterations, 3);
        QVERIFY(result.text.contains(u"397.8"_s));
        QVERIFY(!window.composer()->isBusy());
        // The streamed answer is the last item; the tools' cards came before it.
        Ui::ChatView *chat = window.chatView();
        QTRY_VERIFY(chat->itemText(chat->itemCount() - 1).contains(u"397.8"_s));
        int toolCards = 0;
        for (int i = 0; i < chat->itemCount(); ++i)
            toolCards += chat->item(i)->kind() == Ui::ChatItem::Kind::ToolCall ? 1 : 0;
        QCOMPARE(toolCards, 3);
        // The tree grew while the loop ran, one turn with its three iterations.
        QVERIFY(rowsSeenWhileRunning > 5);
        QCOMPARE(tree->rowCount(), 1);
        QCOMPARE(tree->rowCount(tree->index(0, 0)), 3);
        QVERIFY2(window.statusText().contains(u"Iteration 3 of 6"_s), qPrintable(window.statusText()));
        QVERIFY2(window.statusText().contains(u"this session"_s), qPrintable(window.statusText()));
        QVERIFY(m_fixture->session.usage()->sessionUsage().total() > 1000);
        // A server on this machine costs nothing; the gauge shows the last request's tokens.
        QVERIFY2(window.statusText().contains(u"Cost: $0 this turn · $0 this session"_s),
                 qPrintable(window.statusText()));
        QVERIFY2(window.statusText().contains(u"Context: "_s), qPrintable(window.statusText()));
        QVERIFY(m_fixture->session.usage()->contextTokens() > 0);
        QVERIFY2(!window.statusText().contains(u"Context: ≈"_s), qPrintable(window.statusText()));
        // A question being typed is counted, as an estimate.
        QTest::keyClicks(window.composer()->editor(), u"And in euros?"_s);
        QVERIFY2(window.statusText().contains(u"Context: ≈"_s), qPrintable(window.statusText()));
    }

    void editingTheLastQuestionShowsOnItUntilCancelledOrEmptied()
    {
        Ui::MainWindow window(m_fixture->context());
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;
        Ui::ChatView *chat = window.chatView();
        int question = -1;
        for (int i = 0; i < chat->itemCount(); ++i) {
            if (chat->item(i)->kind() == Ui::ChatItem::Kind::UserMessage)
                question = i;
        }
        QVERIFY(question >= 0);
        const QString asked = m_fixture->session.lastUserText();

        emit chat->editLastRequested(asked);
        QVERIFY(window.composer()->isEditing());
        QVERIFY(window.composer()->editBanner()->isVisible());
        QCOMPARE(window.composer()->text(), asked);
        QCOMPARE(chat->editedIndex(), question);
        QVERIFY(chat->item(question)->isEditing());

        QTest::keyClick(window.composer()->editor(), Qt::Key_Escape);
        QVERIFY(!window.composer()->isEditing());
        QVERIFY(!window.composer()->editBanner()->isVisible());
        QCOMPARE(chat->editedIndex(), -1);
        QVERIFY2(!window.statusBar()->currentMessage().contains(u"Editing"_s),
                 qPrintable(window.statusBar()->currentMessage()));

        // Emptying the box backs out too: what is written next is a new question.
        emit chat->editLastRequested(asked);
        QCOMPARE(chat->editedIndex(), question);
        window.composer()->editor()->selectAll();
        QTest::keyClick(window.composer()->editor(), Qt::Key_Delete);
        QVERIFY(!window.composer()->isEditing());
        QCOMPARE(chat->editedIndex(), -1);
        QVERIFY(!window.statusBar()->currentMessage().contains(u"Editing"_s));
    }

    void selectingInTheChatSelectsTheTraceNodeAndBack()
    {
        Ui::MainWindow window(m_fixture->context());
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;

        Ui::ChatView *chat = window.chatView();
        int toolIndex = -1;
        for (int i = 0; i < chat->itemCount() && toolIndex < 0; ++i) {
            if (chat->item(i)->kind() == Ui::ChatItem::Kind::ToolCall)
                toolIndex = i;
        }
        QVERIFY(toolIndex >= 0);
        Ui::ChatItem *card = chat->item(toolIndex);
        QVERIFY(card->traceNode() >= 0);
        chat->ensureWidgetVisible(card);
        QTest::mouseClick(card, Qt::LeftButton, {}, QPoint(card->width() / 2, 6));
        QTRY_COMPARE(window.traceInspector()->selectedNode(), card->traceNode());
        QCOMPARE(m_fixture->session.trace()->node(card->traceNode()).kind, TraceKind::ToolCall);

        // The other way: the user picks the turn in the tree; the chat selects its question.
        QTreeView *tree = window.traceInspector()->treeView();
        tree->setFocus();
        tree->setCurrentIndex(tree->model()->index(0, 0));
        QTRY_VERIFY(chat->selectedIndex() >= 0);
        QCOMPARE(chat->item(chat->selectedIndex())->kind(), Ui::ChatItem::Kind::UserMessage);
    }

    void tabGoesFromTheComposerPastTheConversationToTheTraceAndShiftTabBack()
    {
        Ui::MainWindow window(m_fixture->context());
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        Ui::ChatView *chat = window.chatView();
        QVERIFY(chat->itemCount() >= 3);
        QPlainTextEdit *editor = window.composer()->editor();
        QTreeView *tree = window.traceInspector()->treeView();
        editor->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), editor);
        editor->setPlainText(u"Next question"_s); // Send is a stop once there is something to send

        // Every message is behind one stop: the trace comes within four presses.
        QList<QWidget *> walked;
        for (int press = 0; press < 4 && QApplication::focusWidget() != tree; ++press) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            walked.append(QApplication::focusWidget());
        }
        auto names = [&walked] {
            QStringList list;
            for (const QWidget *widget : std::as_const(walked))
                list.append(widget ? QString::fromLatin1(widget->metaObject()->className()) : u"none"_s);
            return list.join(u" → "_s);
        };
        QVERIFY2(QApplication::focusWidget() == tree, qPrintable(names()));
        QVERIFY2(walked.contains(chat), qPrintable(names()));
        QVERIFY2(walked.contains(window.composer()->sendButton()), qPrintable(names()));

        // Back the same way.
        QTest::keyClick(tree, Qt::Key_Backtab);
        QCOMPARE(QApplication::focusWidget(), chat);
        QTest::keyClick(chat, Qt::Key_Backtab);
        QCOMPARE(QApplication::focusWidget(), window.composer()->sendButton());
        QTest::keyClick(window.composer()->sendButton(), Qt::Key_Backtab);
        QCOMPARE(QApplication::focusWidget(), editor);
        // Nor does Shift+Tab from the message walk the messages' buttons.
        QTest::keyClick(editor, Qt::Key_Backtab);
        QVERIFY2(!chat->isAncestorOf(QApplication::focusWidget()),
                 QApplication::focusWidget()->metaObject()->className());
    }

    void inTheConversationTheArrowKeysWalkTheItemsAndSelectTheirSteps()
    {
        Ui::MainWindow window(m_fixture->context());
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;
        Ui::ChatView *chat = window.chatView();
        chat->setFocus();
        QTest::keyClick(chat, Qt::Key_Home);
        QCOMPARE(chat->selectedIndex(), 0);
        QTest::keyClick(chat, Qt::Key_Down);
        QCOMPARE(chat->selectedIndex(), 1);
        QTRY_COMPARE(window.traceInspector()->selectedNode(), chat->item(1)->traceNode());
        QTest::keyClick(chat, Qt::Key_End);
        QCOMPARE(chat->selectedIndex(), chat->itemCount() - 1);
        QTest::keyClick(chat, Qt::Key_Up);
        QCOMPARE(chat->selectedIndex(), chat->itemCount() - 2);
    }

    void escStopsTheTurnAndCtrlNStartsAnEmptyConversation()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QTRY_COMPARE(m_server->requests().size(), 1); // the model picker's listing
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) { exchange.stall(); });
        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);

        QVERIFY(m_fixture->session.send(u"this will hang"_s));
        QTRY_COMPARE(m_server->requests().size(), 2);
        QVERIFY(window.stopAction()->isEnabled());
        QTest::keyClick(window.composer()->editor(), Qt::Key_Escape);
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Cancelled);
        QVERIFY(!window.stopAction()->isEnabled());
        QTRY_VERIFY(window.chatView()->itemCount() > 0);

        // The cancelled turn is an unsaved change: Ctrl+N asks first, without blocking.
        QTest::keyClick(&window, Qt::Key_N, Qt::ControlModifier);
        QMessageBox *question = nullptr;
        QTRY_VERIFY((question = window.findChild<QMessageBox *>()) && question->isVisible());
        QVERIFY(window.chatView()->itemCount() > 0);
        question->button(QMessageBox::Discard)->click();
        QTRY_COMPARE(window.chatView()->itemCount(), 0);
        QCOMPARE(m_fixture->session.trace()->size(), 0);
        QCOMPARE(window.traceInspector()->treeView()->model()->rowCount(), 0);
    }

    void debugShortcutsPauseStepAndContinueTheLoop()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());

        // Ctrl+Shift+D shows the debugger; break before every tool call.
        QTest::keyClick(&window, Qt::Key_D, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(window.debugPanel()->isVisible());
        StepDebugger *debugger = m_fixture->session.debugger();
        QVERIFY(debugger->isEnabled());
        StepDebugger::Breakpoints breakpoints;
        breakpoints.allToolCalls = true;
        debugger->setBreakpoints(breakpoints);

        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(QString::fromUtf8(DemoConversation::question)));
        QTRY_VERIFY_WITH_TIMEOUT(debugger->isPaused(), 10000);
        QVERIFY2(window.statusText().contains(u"Paused"_s), qPrintable(window.statusText()));
        QCOMPARE(debugger->currentStop()->toolCall->call.name, u"calculator"_s);

        // F10 lets the held call go and holds the next one.
        QTest::keyClick(&window, Qt::Key_F10);
        QTRY_VERIFY(debugger->isPaused());
        QCOMPARE(debugger->currentStop()->toolCall->call.name, u"current_time"_s);

        // F5 runs on until the next breakpoint, the third call.
        QTest::keyClick(&window, Qt::Key_F5);
        QTRY_VERIFY_WITH_TIMEOUT(debugger->isPaused() && debugger->currentStop()->toolCall
                                     && debugger->currentStop()->toolCall->call.id == u"call_rest"_s,
                                 10000);

        // Shift+F5 stops: the turn ends as cancelled.
        QTest::keyClick(&window, Qt::Key_F5, Qt::ShiftModifier);
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Cancelled);
        QVERIFY(!debugger->isPaused());
    }

    void theDebuggersButtonsAreInViewAtAHeldCallWithoutScrolling_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("900×600") << QSize(900, 600);
        QTest::newRow("1280×800") << QSize(1280, 800);
    }

    void theDebuggersButtonsAreInViewAtAHeldCallWithoutScrolling()
    {
        QFETCH(QSize, size);
        Ui::MainWindow window(m_fixture->context());
        window.resize(size);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        window.debugModeAction()->setChecked(true);
        StepDebugger *debugger = m_fixture->session.debugger();
        StepDebugger::Breakpoints breakpoints;
        breakpoints.allToolCalls = true;
        debugger->setBreakpoints(breakpoints);
        QVERIFY(m_fixture->session.send(QString::fromUtf8(DemoConversation::question)));
        QTRY_VERIFY_WITH_TIMEOUT(debugger->isPaused(), 10000);
        QCoreApplication::processEvents();

        Ui::DebugPanel *panel = window.debugPanel();
        auto *debugBar = panel->findChild<QToolBar *>(u"debugToolBar"_s);
        QVERIFY(debugBar);
        QList<QWidget *> actions{debugBar->widgetForAction(panel->stepAction()),
                                 debugBar->widgetForAction(panel->continueAction()),
                                 debugBar->widgetForAction(panel->stopAction())};
        for (const QString &name : {u"applyArgumentsButton"_s, u"revertArgumentsButton"_s,
                                    u"useResultButton"_s, u"denyButton"_s, u"resultIsErrorBox"_s})
            actions << panel->findChild<QWidget *>(name);
        for (QWidget *action : std::as_const(actions))
            QVERIFY(action);
        // The stop arrives through queued signals and posted layout requests; a slow build (the
        // sanitizers) needs more than one pass of the event loop before the layout has settled.
        const auto allWhole = [&actions] {
            return std::all_of(actions.cbegin(), actions.cend(), [](const QWidget *action) {
                return action->isVisible() && action->height() >= action->minimumSizeHint().height();
            });
        };
        QTRY_VERIFY_WITH_TIMEOUT(allWhole(), 5000);
        for (QWidget *action : std::as_const(actions)) {
            const QString name
                = action->objectName().isEmpty() ? action->accessibleName() : action->objectName();
            QVERIFY2(action->isVisible(), qPrintable(name));
            QVERIFY2(action->height() >= action->minimumSizeHint().height(),
                     qPrintable(u"%1: %2 px high, the panel %3 of %4"_s.arg(name)
                                    .arg(action->height())
                                    .arg(panel->height())
                                    .arg(panel->minimumSizeHint().height())));
            // Whole, inside every widget around it up to the window: nothing to scroll to.
            for (QWidget *around = action->parentWidget(); around; around = around->parentWidget()) {
                const QRect inAround(action->mapTo(around, QPoint(0, 0)), action->size());
                QVERIFY2(around->rect().contains(inAround),
                         qPrintable(u"%1 at %2,%3 %4×%5 is cut by %6 (%7×%8)"_s.arg(name)
                                        .arg(inAround.x())
                                        .arg(inAround.y())
                                        .arg(inAround.width())
                                        .arg(inAround.height())
                                        .arg(QString::fromLatin1(around->metaObject()->className()))
                                        .arg(around->width())
                                        .arg(around->height())));
                if (around->isWindow())
                    break;
            }
        }
        // The editors are there to type in, however short.
        for (const QString &name : {u"argumentsEditor"_s, u"resultEditor"_s}) {
            auto *editor = panel->findChild<QPlainTextEdit *>(name);
            QVERIFY2(editor && editor->isVisible() && editor->height() >= editor->minimumHeight(),
                     qPrintable(name));
        }
        for (QWidget *around = panel->parentWidget(); around; around = around->parentWidget())
            QVERIFY2(!qobject_cast<QScrollArea *>(around), "the debugger sits in a scroll area");

        m_fixture->session.stop();
        QTRY_VERIFY(!m_fixture->session.isBusy());
    }

    void aSavedSessionReopensAsItWasAndCanBeContinued()
    {
        const QString path = m_dir.filePath(u"saved-%1.loopscope.json"_s.arg(m_run));
        int chatItems = 0;
        int traceNodes = 0;
        QStringList itemTexts;
        {
            Ui::MainWindow window(m_fixture->context());
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.start(demoProfile());
            QTRY_VERIFY(m_fixture->session.hasProvider());
            QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
            QVERIFY(m_fixture->session.send(QString::fromUtf8(DemoConversation::question)));
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
            // The title names the session and marks it unsaved.
            QVERIFY(window.isWindowModified());
            QVERIFY2(window.windowTitle().startsWith(u"What is 17%"_s), qPrintable(window.windowTitle()));

            QString error;
            QVERIFY2(m_fixture->document.save(path, &error), qPrintable(error));
            QVERIFY(!window.isWindowModified());
            chatItems = window.chatView()->itemCount();
            traceNodes = m_fixture->session.trace()->size();
            for (int i = 0; i < chatItems; ++i)
                itemTexts.append(window.chatView()->itemText(i));
            QVERIFY(m_fixture->document.newSession());
            QCOMPARE(window.chatView()->itemCount(), 0);
        }

        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QSignalSpy opened(&m_fixture->document, &SessionDocument::opened);
        window.sessionActions()->openFile(path);
        QTRY_COMPARE(opened.size(), 1);
        QCOMPARE(window.chatView()->itemCount(), chatItems);
        for (int i = 0; i < chatItems; ++i)
            QCOMPARE(window.chatView()->itemText(i), itemTexts.at(i));
        QCOMPARE(m_fixture->session.trace()->size(), traceNodes);
        QCOMPARE(window.traceInspector()->treeView()->model()->rowCount(), 1);
        QVERIFY(!window.isWindowModified());
        QVERIFY(window.sessionActions()->recentFiles().contains(path));

        // Continued with the current provider: the model sees the saved history.
        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(u"And in euros?"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QVERIFY(m_server->requests().constLast().json().value(u"messages"_s).toArray().size() > 6);
        QCOMPARE(window.traceInspector()->treeView()->model()->rowCount(), 2);
    }

    void aFileThatCannotBeOpenedLeavesTheConversationAlone()
    {
        const QString path = m_dir.filePath(u"broken.loopscope.json"_s);
        QFile broken(path);
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"formatVersion\": 2, \"messages\": [");
        broken.close();

        Ui::MainWindow window(m_fixture->context());
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;
        const int items = window.chatView()->itemCount();
        const QList<Message> history = m_fixture->session.agent()->history();
        QVERIFY(m_fixture->document.save(m_dir.filePath(u"kept.loopscope.json"_s)));

        QSignalSpy failed(&m_fixture->document, &SessionDocument::openFailed);
        window.sessionActions()->openFile(path);
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY(!failed.first().at(1).toString().isEmpty());
        QMessageBox *error = nullptr;
        QTRY_VERIFY((error = window.findChild<QMessageBox *>()) && error->isVisible());
        QVERIFY2(error->text().contains(u"broken.loopscope.json"_s), qPrintable(error->text()));
        QCOMPARE(window.chatView()->itemCount(), items);
        QCOMPARE(m_fixture->session.agent()->history(), history);
    }

    void closingWithUnsavedChangesAsks()
    {
        Ui::MainWindow window(m_fixture->context());
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;

        QVERIFY(!window.close());
        QMessageBox *question = nullptr;
        QTRY_VERIFY((question = window.findChild<QMessageBox *>()) && question->isVisible());
        question->button(QMessageBox::Cancel)->click();
        QVERIFY(window.isVisible());

        window.close();
        QTRY_VERIFY((question = window.findChild<QMessageBox *>()) && question->isVisible());
        question->button(QMessageBox::Discard)->click();
        QTRY_VERIFY(!window.isVisible());
    }

    void aNewSessionWhoseTurnsAreAutosavedClosesWithoutAsking()
    {
        m_fixture->keepTurnsInTheLibrary();
        QSignalSpy autosaved(&m_fixture->document, &SessionDocument::autosaved);
        Ui::MainWindow window(m_fixture->context());
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;
        QTRY_COMPARE(autosaved.size(), 1);
        QVERIFY(!m_fixture->document.isModified());
        QVERIFY(!window.isWindowModified());

        // Ctrl+N starts afresh at once: the turn is in the library.
        QTest::keyClick(&window, Qt::Key_N, Qt::ControlModifier);
        QTRY_COMPARE(window.chatView()->itemCount(), 0);
        QVERIFY(!window.findChild<QMessageBox *>());
        QVERIFY(QFile::exists(autosaved.first().first().toString()));

        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(u"Another question"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QTRY_COMPARE(autosaved.size(), 2);
        QVERIFY(window.close());
        QVERIFY(!window.findChild<QMessageBox *>());
    }

    void aFileFromElsewhereWithANewTurnAsksBeforeClosing()
    {
        m_fixture->keepTurnsInTheLibrary();
        const QString path = m_dir.filePath(u"elsewhere-%1.loopscope.json"_s.arg(m_run));
        Ui::MainWindow window(m_fixture->context());
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;
        QString error;
        QVERIFY2(m_fixture->document.save(path, &error), qPrintable(error));
        QVERIFY(m_fixture->document.newSession());
        QSignalSpy opened(&m_fixture->document, &SessionDocument::opened);
        window.sessionActions()->openFile(path);
        QTRY_COMPARE(opened.size(), 1);
        QVERIFY(!m_fixture->document.isModified());

        // The library gets a copy of the turn, the file does not: closing asks.
        QSignalSpy autosaved(&m_fixture->document, &SessionDocument::autosaved);
        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(u"And in euros?"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QTRY_COMPARE(autosaved.size(), 1);
        QVERIFY(autosaved.first().first().toString() != path);
        QVERIFY(m_fixture->document.isModified());
        QVERIFY(!window.close());
        QMessageBox *question = nullptr;
        QTRY_VERIFY((question = window.findChild<QMessageBox *>()) && question->isVisible());
        question->button(QMessageBox::Discard)->click();
        QTRY_VERIFY(!window.isVisible());
    }

    void aFailedAutosaveStaysInSightUntilARetrySucceeds()
    {
        // The library cannot be written: a file stands where its folder's parent should be.
        const QString blocker = m_dir.filePath(u"blocked-library-%1"_s.arg(m_run));
        QFile file(blocker);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        m_fixture->autosaver = std::make_unique<Autosaver>(&m_fixture->session, blocker + u"/library"_s);
        m_fixture->autosaver->setRetryDelays(50, 200);
        m_fixture->document.setAutosaver(m_fixture->autosaver.get());
        QSignalSpy failed(m_fixture->autosaver.get(), &Autosaver::failed);
        Ui::MainWindow window(m_fixture->context());
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;
        auto *indicator = window.findChild<Ui::AutosaveIndicator *>();
        QVERIFY(indicator);

        QTRY_VERIFY(indicator->isVisible());
        QVERIFY2(indicator->text().startsWith(u"Autosave failed: "_s), qPrintable(indicator->text()));
        QVERIFY2(indicator->text().contains(u"blocked-library"_s), qPrintable(indicator->text()));
        // Retried, failing, and in sight all along: not a passing message.
        QTRY_VERIFY(failed.size() >= 3);
        QVERIFY(indicator->isVisible());
        QVERIFY(!window.statusText().contains(u"Autosave failed"_s));
        QVERIFY(m_fixture->document.isModified());

        // Its button is Save As.
        indicator->saveAsButton()->click();
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<QFileDialog *>()) && dialog->isVisible());
        dialog->reject();

        // The next retry once the folder can be written keeps the turn, and the warning goes.
        QVERIFY(QFile::remove(blocker));
        QTRY_VERIFY(!indicator->isVisible());
        QCOMPARE(indicator->text(), QString());
        QCOMPARE(m_fixture->document.unsavedTurns(), 0);
        QVERIFY(!m_fixture->document.isModified());
        QVERIFY(window.close());
    }

    void closingWithTurnsTheLibraryCouldNotKeepSaysHowManyAndOffersSaveAs()
    {
        const QString blocker = m_dir.filePath(u"blocked-library-%1"_s.arg(m_run));
        QFile file(blocker);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        m_fixture->autosaver = std::make_unique<Autosaver>(&m_fixture->session, blocker + u"/library"_s);
        m_fixture->document.setAutosaver(m_fixture->autosaver.get());
        QSignalSpy failed(m_fixture->autosaver.get(), &Autosaver::failed);
        Ui::MainWindow window(m_fixture->context());
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;
        QTRY_COMPARE(failed.size(), 1);
        QCOMPARE(m_fixture->document.unsavedTurns(), 1);

        QVERIFY(!window.close());
        QMessageBox *question = nullptr;
        QTRY_VERIFY((question = window.findChild<QMessageBox *>()) && question->isVisible());
        QVERIFY2(question->text().contains(u"1 finished turn"_s), qPrintable(question->text()));
        QVERIFY2(question->text().contains(u"not saved anywhere"_s), qPrintable(question->text()));
        QVERIFY2(!question->informativeText().contains(u"Every finished turn is also kept"_s),
                 qPrintable(question->informativeText()));
        QVERIFY2(question->informativeText().contains(u"blocked-library"_s),
                 qPrintable(question->informativeText()));
        QVERIFY(question->button(QMessageBox::Cancel));
        QVERIFY(question->button(QMessageBox::Discard));
        QCOMPARE(question->button(QMessageBox::Save)->text(), u"Save &As…"_s);

        // Save As puts the turn in a file elsewhere; then the window closes.
        question->button(QMessageBox::Save)->click();
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<QFileDialog *>()) && dialog->isVisible());
        const QString elsewhere = m_dir.filePath(u"rescued-%1.loopscope.json"_s.arg(m_run));
        emit dialog->fileSelected(elsewhere);
        QTRY_VERIFY(!window.isVisible());
        const TranscriptLoadResult rescued = TranscriptFile::load(elsewhere);
        QVERIFY2(rescued.transcript, qPrintable(rescued.error));
        QCOMPARE(rescued.transcript->turnCount(), 1);
    }

    void anExampleContinuedIsKeptInTheLibraryAndClosesWithoutAsking()
    {
        m_fixture->keepTurnsInTheLibrary();
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        const QString example
            = u":/examples/"_s
              + QDir(u":/examples"_s).entryList({u"*.loopscope.json"_s}, QDir::Files, QDir::Name).value(0);
        window.sessionActions()->openExample(example);
        QTRY_VERIFY(m_fixture->session.agent()->history().size() > 2);
        QVERIFY(!m_fixture->document.isModified());

        // The example itself stays as shipped; the continued conversation is a new library session.
        QSignalSpy autosaved(&m_fixture->document, &SessionDocument::autosaved);
        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(u"And then?"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QTRY_COMPARE(autosaved.size(), 1);
        QVERIFY(
            SessionLibrary::isLibraryFile(m_fixture->library.folder(), autosaved.first().first().toString()));
        QVERIFY(!m_fixture->document.isModified());
        QVERIFY(window.close());
        QVERIFY(!window.findChild<QMessageBox *>());
    }

    void theModelPickerListsTheProvidersModelsAndThePickedOneAnswersTheNextTurn()
    {
        answerModelList({u"gpt-4o-mini"_s, u"gpt-4.1"_s, u"o3-mini"_s});
        ProviderProfile stored = demoProfile();
        stored.id = u"demo"_s;
        m_fixture->profiles.save(stored);
        ProviderProfile other = stored;
        other.id = u"other"_s;
        other.name = u"Other server"_s;
        other.model = u"o3-mini"_s;
        m_fixture->profiles.save(other);
        m_fixture->profiles.setDefaultProfileId(u"demo"_s);

        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start();
        QComboBox *models = window.modelBox();
        QTRY_COMPARE(models->count(), 3);
        QVERIFY(models->isEnabled());
        QCOMPARE(models->currentText(), u"gpt-4o-mini"_s);
        // The key went in its header, as for a turn.
        const HttpRequestRecord listing = m_server->requests().constLast();
        QCOMPARE(listing.method, QByteArray("GET"));
        QCOMPARE(listing.header("Authorization"), QByteArray("Bearer sk-demo-0123456789abcdef"));

        // Picked from the list, as a user does.
        models->showPopup();
        QTRY_VERIFY(models->view()->isVisible());
        models->view()->setCurrentIndex(models->model()->index(1, 0));
        QTest::keyClick(models->view(), Qt::Key_Return);
        QTRY_COMPARE(m_fixture->session.provider()->model, u"gpt-4.1"_s);
        QVERIFY2(window.statusText().contains(u"gpt-4.1"_s), qPrintable(window.statusText()));
        // Remembered as the provider's model, like LM Studio and Jan do.
        QCOMPARE(m_fixture->profiles.profile(u"demo"_s)->model, u"gpt-4.1"_s);

        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(QString::fromUtf8(DemoConversation::question)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QCOMPARE(m_server->requests().constLast().json().value(u"model"_s).toString(), u"gpt-4.1"_s);
        // The saved session says which model ran.
        QCOMPARE(m_fixture->session.toTranscript().config.model.model, u"gpt-4.1"_s);

        // Another provider: the picker follows it and lists its models.
        const qsizetype requests = m_server->requests().size();
        QComboBox *providers = nullptr;
        for (QComboBox *box : window.findChildren<QComboBox *>()) {
            if (box->accessibleName() == u"Provider"_s)
                providers = box;
        }
        QVERIFY(providers);
        const int otherIndex = providers->findData(u"other"_s);
        QVERIFY(otherIndex >= 0);
        providers->setCurrentIndex(otherIndex);
        emit providers->activated(otherIndex);
        QTRY_COMPARE(m_fixture->session.provider()->id, u"other"_s);
        QCOMPARE(models->currentText(), u"o3-mini"_s);
        QTRY_VERIFY(m_server->requests().size() > requests);
        QTRY_COMPARE(models->count(), 3);
        QCOMPARE(models->currentText(), u"o3-mini"_s);
    }

    void aProfileWhoseKeyCannotBeReadIsTheOneShownAndItsTurnFailsWithTheReason()
    {
        answerModelList({u"gpt-4o-mini"_s, u"gpt-4.1"_s});
        // The demo server's profile takes its key from the environment; the other one's key is in a
        // keychain that cannot be read.
        ProviderProfile demo = demoProfile();
        demo.id = u"demo"_s;
        m_fixture->profiles.save(demo);
        ProviderProfile locked;
        locked.id = u"locked"_s;
        locked.name = u"Locked Anthropic"_s;
        locked.kind = ProviderKind::Anthropic;
        locked.baseUrl = m_server->baseUrl();
        locked.model = u"claude-locked"_s;
        m_fixture->profiles.save(locked);
        m_fixture->profiles.setDefaultProfileId(u"demo"_s);
        UnreadableSecretStore keychain;
        Ui::MainWindowContext context = m_fixture->context();
        context.secrets = &keychain;

        Ui::MainWindow window(context);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start();
        ChatSession &session = m_fixture->session;
        QTRY_VERIFY(session.hasProvider());
        QCOMPARE(session.provider()->id, u"demo"_s);
        Ui::ProviderPicker *picker = window.providerPicker();
        QComboBox *providers = picker->providerBox();
        QComboBox *models = window.modelBox();
        QTRY_COMPARE(models->count(), 2); // the demo's models, listed
        QCOMPARE(models->currentText(), u"gpt-4o-mini"_s);
        QVERIFY(!picker->setKeyAction()->isVisible());
        const qsizetype requests = m_server->requests().size();

        // Chosen as a user does: the toolbar, the status bar and the session all name it.
        const int lockedIndex = providers->findData(u"locked"_s);
        QVERIFY(lockedIndex >= 0);
        providers->setCurrentIndex(lockedIndex);
        emit providers->activated(lockedIndex);
        QTRY_COMPARE(session.provider()->id, u"locked"_s);
        QCOMPARE(providers->currentData().toString(), u"locked"_s);
        QTRY_COMPARE(models->currentText(), u"claude-locked"_s);
        QVERIFY2(window.statusText().contains(u"Locked Anthropic · claude-locked"_s),
                 qPrintable(window.statusText()));
        // The fix is offered where the profile is chosen.
        QVERIFY(picker->setKeyAction()->isVisible());
        QVERIFY2(providers->toolTip().contains(u"No Secret Service is running."_s),
                 qPrintable(providers->toolTip()));

        // The turn fails with the reason; nothing goes to the demo server, over any protocol.
        QSignalSpy finished(session.agent(), &Agent::turnFinished);
        window.composer()->setText(u"Which provider answers?"_s);
        window.composer()->send();
        QTRY_COMPARE(finished.size(), 1);
        const auto result = finished.first().first().value<TurnResult>();
        QCOMPARE(result.outcome, TurnOutcome::Failed);
        QVERIFY2(result.error.contains(u"No Secret Service is running."_s), qPrintable(result.error));
        QVERIFY2(result.error.contains(u"Settings → Providers"_s), qPrintable(result.error));
        QCOMPARE(m_server->requests().size(), requests);
        // The saved session names the profile shown, so reopening it stays there.
        QCOMPARE(session.toTranscript().providerKind, u"anthropic"_s);
        QCOMPARE(session.toTranscript().config.model.model, u"claude-locked"_s);

        // A model typed now belongs to the profile shown, and only to it.
        models->lineEdit()->setFocus();
        models->lineEdit()->selectAll();
        QTest::keyClicks(models->lineEdit(), u"claude-typed"_s);
        QTest::keyClick(models->lineEdit(), Qt::Key_Return);
        QTRY_COMPARE(session.provider()->model, u"claude-typed"_s);
        QCOMPARE(m_fixture->profiles.profile(u"locked"_s)->model, u"claude-typed"_s);
        QCOMPARE(m_fixture->profiles.profile(u"demo"_s)->model, u"gpt-4o-mini"_s);
        QCOMPARE(providers->currentData().toString(), u"locked"_s);

        // "Set Key…" opens the settings where the key goes: on the profile whose key is missing.
        picker->setKeyAction()->trigger();
        Ui::SettingsDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<Ui::SettingsDialog *>()) != nullptr);
        auto *pages = dialog->findChild<QTabWidget *>(u"pages"_s);
        QVERIFY(pages);
        QCOMPARE(pages->currentIndex(), int(Ui::SettingsDialog::Page::Providers));
        auto *profilesList = dialog->findChild<QListWidget *>(u"providerList"_s);
        QVERIFY(profilesList && profilesList->currentItem());
        QVERIFY2(profilesList->currentItem()->text().startsWith(u"Locked Anthropic"_s),
                 qPrintable(profilesList->currentItem()->text()));
        dialog->reject();
    }

    void settingsOpenOnTheProfileInUse()
    {
        ProviderProfile first = demoProfile();
        first.id = u"first"_s;
        first.name = u"First profile"_s;
        m_fixture->profiles.save(first);
        ProviderProfile second = demoProfile();
        second.id = u"second"_s;
        second.name = u"Second profile"_s;
        m_fixture->profiles.save(second);
        m_fixture->profiles.setDefaultProfileId(u"first"_s);

        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start();
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QComboBox *providers = window.providerPicker()->providerBox();
        const int secondIndex = providers->findData(u"second"_s);
        QVERIFY(secondIndex >= 0);
        providers->setCurrentIndex(secondIndex);
        emit providers->activated(secondIndex);
        QTRY_COMPARE(m_fixture->session.provider()->id, u"second"_s);

        QTest::keyClick(&window, Qt::Key_Comma, Qt::ControlModifier);
        Ui::SettingsDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<Ui::SettingsDialog *>()) != nullptr);
        auto *profilesList = dialog->findChild<QListWidget *>(u"providerList"_s);
        QVERIFY(profilesList && profilesList->currentItem());
        QVERIFY2(profilesList->currentItem()->text().startsWith(u"Second profile"_s),
                 qPrintable(profilesList->currentItem()->text()));
        dialog->reject();
    }

    void theStatusBarFitsANarrowWindowWithoutClippingItsWords_data()
    {
        QTest::addColumn<int>("width");
        QTest::newRow("900 px") << 900;
        QTest::newRow("1280 px") << 1280;
        QTest::newRow("1920 px") << 1920;
    }

    void theStatusBarFitsANarrowWindowWithoutClippingItsWords()
    {
        QFETCH(int, width);
        Ui::MainWindow window(m_fixture->context());
        window.resize(width, 600);
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;
        QTRY_VERIFY(window.statusBar()->isVisible());
        QCoreApplication::processEvents();
        for (const QLabel *label : window.statusBar()->findChildren<QLabel *>()) {
            if (!label->isVisible() || label->text().isEmpty())
                continue;
            // Each field shows its words whole: shortened or elided, never cut at the edge.
            QVERIFY2(label->fontMetrics().horizontalAdvance(label->text()) <= label->contentsRect().width(),
                     qPrintable(u"%1 (%2 px): %3"_s.arg(label->accessibleName())
                                    .arg(label->contentsRect().width())
                                    .arg(label->text())));
        }
        // What the window says stays whole in its words for anyone who asks.
        QVERIFY2(window.statusText().contains(u"this turn"_s)
                     && window.statusText().contains(u"Iteration 3 of 6"_s),
                 qPrintable(window.statusText()));
    }

    void aReopenedSessionContinuesOnTheModelItRanOn()
    {
        answerModelList({u"gpt-4o-mini"_s, u"gpt-4.1"_s});
        ProviderProfile stored = demoProfile();
        stored.id = u"demo"_s;
        m_fixture->profiles.save(stored);
        // Another protocol on another port: it cannot continue the session.
        ProviderProfile elsewhere;
        elsewhere.id = u"elsewhere"_s;
        elsewhere.name = u"Local Ollama"_s;
        elsewhere.kind = ProviderKind::Ollama;
        elsewhere.baseUrl = QUrl(u"http://127.0.0.1:9"_s);
        elsewhere.model = u"llama3.2"_s;
        m_fixture->profiles.save(elsewhere);
        m_fixture->profiles.setDefaultProfileId(u"demo"_s);

        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start();
        QComboBox *models = window.modelBox();
        QTRY_COMPARE(models->count(), 2);
        ChatSession &session = m_fixture->session;

        // A turn on gpt-4.1, picked for this session only.
        QVERIFY(session.setModel(u"gpt-4.1"_s));
        QSignalSpy finished(session.agent(), &Agent::turnFinished);
        QVERIFY(session.send(QString::fromUtf8(DemoConversation::question)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        const Transcript ranOnGpt41 = session.toTranscript();
        QCOMPARE(ranOnGpt41.config.model.model, u"gpt-4.1"_s);

        // A new session starts on the provider's own model again.
        QVERIFY(session.clear());
        QCOMPARE(session.provider()->model, u"gpt-4o-mini"_s);
        QCOMPARE(models->currentText(), u"gpt-4o-mini"_s);

        // Reopened, it continues on the model it ran on, and the picker says so.
        QVERIFY(session.restore(ranOnGpt41));
        QCOMPARE(session.provider()->model, u"gpt-4.1"_s);
        QCOMPARE(models->currentText(), u"gpt-4.1"_s);
        QVERIFY2(window.statusText().contains(u"gpt-4.1"_s), qPrintable(window.statusText()));
        // The provider's own model is not changed by reopening a session.
        QCOMPARE(m_fixture->profiles.profile(u"demo"_s)->model, u"gpt-4o-mini"_s);

        // Reopened while a provider that cannot continue it is chosen: back to one that can.
        QComboBox *providers = nullptr;
        for (QComboBox *box : window.findChildren<QComboBox *>()) {
            if (box->accessibleName() == u"Provider"_s)
                providers = box;
        }
        QVERIFY(providers);
        QVERIFY(session.clear());
        const int elsewhereIndex = providers->findData(u"elsewhere"_s);
        providers->setCurrentIndex(elsewhereIndex);
        emit providers->activated(elsewhereIndex);
        QTRY_COMPARE(session.provider()->id, u"elsewhere"_s);
        QVERIFY(session.restore(ranOnGpt41));
        QTRY_COMPARE(session.provider()->id, u"demo"_s);
        QCOMPARE(session.provider()->model, u"gpt-4.1"_s);
        QCOMPARE(providers->currentData().toString(), u"demo"_s);
        QTRY_COMPARE(models->currentText(), u"gpt-4.1"_s);

        // The next turn asks that model.
        QVERIFY(session.send(QString::fromUtf8(DemoConversation::question)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 15000);
        QCOMPARE(m_server->requests().constLast().json().value(u"model"_s).toString(), u"gpt-4.1"_s);
    }

    void aTypedModelIsUsedWhenTheListCannotBeHad()
    {
        const FakeHttpServer::Handler demo = m_server->handler();
        m_server->setHandler([demo](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.method == "GET")
                exchange.respond(500, {}, "no list here");
            else
                demo(request, exchange);
        });
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QComboBox *models = window.modelBox();
        // Said where the model is picked, not in a dialog.
        QTRY_VERIFY2(models->toolTip().contains(u"could not be listed"_s), qPrintable(models->toolTip()));
        QVERIFY(!window.findChild<QMessageBox *>());
        QCOMPARE(models->count(), 0);
        QVERIFY(models->isEnabled());

        models->lineEdit()->setFocus();
        models->lineEdit()->selectAll();
        QTest::keyClicks(models->lineEdit(), u"my-local-model"_s);
        QTest::keyClick(models->lineEdit(), Qt::Key_Return);
        QTRY_COMPARE(m_fixture->session.provider()->model, u"my-local-model"_s);

        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(QString::fromUtf8(DemoConversation::question)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QCOMPARE(m_server->requests().constLast().json().value(u"model"_s).toString(), u"my-local-model"_s);
    }

    void theModelCannotChangeWhileATurnRuns()
    {
        answerModelList({u"gpt-4o-mini"_s, u"gpt-4.1"_s});
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QComboBox *models = window.modelBox();
        QTRY_COMPARE(models->count(), 2);
        const FakeHttpServer::Handler list = m_server->handler();
        m_server->setHandler([list](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.method == "GET")
                list(request, exchange);
            else
                exchange.stall();
        });
        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(u"this will hang"_s));
        QTRY_VERIFY(!models->isEnabled());
        QVERIFY(!m_fixture->session.setModel(u"gpt-4.1"_s));
        QCOMPARE(m_fixture->session.provider()->model, u"gpt-4o-mini"_s);
        window.stopAction()->trigger();
        QTRY_COMPARE(finished.size(), 1);
        QTRY_VERIFY(models->isEnabled());
    }

    void theLastSessionReopensOnStartUnlessTheSettingIsOff()
    {
        m_fixture->keepTurnsInTheLibrary();
        QString kept;
        int messages = 0;
        {
            QSignalSpy autosaved(&m_fixture->document, &SessionDocument::autosaved);
            Ui::MainWindow window(m_fixture->context());
            showAfterTheDemoTurn(window);
            if (QTest::currentTestFailed())
                return;
            QTRY_COMPARE(autosaved.size(), 1);
            kept = autosaved.first().first().toString();
            messages = int(m_fixture->session.agent()->history().size());
            QCOMPARE(window.sessionActions()->lastSession(), QFileInfo(kept).absoluteFilePath());
            QVERIFY(window.close());
        }
        QVERIFY(m_fixture->appSettings.reopenLastSession());
        QVERIFY(m_fixture->document.newSession());
        {
            Ui::MainWindow window(m_fixture->context());
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.start(demoProfile());
            QTRY_COMPARE(m_fixture->session.agent()->history().size(), messages);
            QCOMPARE(QFileInfo(m_fixture->document.path()), QFileInfo(kept));
            QTRY_VERIFY(window.chatView()->itemCount() > 0);
        }

        m_fixture->appSettings.setReopenLastSession(false);
        QVERIFY(m_fixture->document.newSession());
        QSignalSpy autosaved(&m_fixture->document, &SessionDocument::autosaved);
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTest::qWait(200);
        QVERIFY(m_fixture->session.agent()->history().isEmpty());
        QVERIFY(m_fixture->document.path().isEmpty());
    }

    void theSessionsSidebarIsBesideTheChatAndCollapsesWithCtrl3()
    {
        {
            Ui::MainWindow window(m_fixture->context());
            window.resize(1280, 800); // the offscreen screen is narrower than the window opens on a desktop
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.start();
            // A chat app's conversation list: there from the first start, left of the chat.
            QTRY_VERIFY(window.libraryPanel()->isVisible());
            QVERIFY(window.libraryPanel()->mapTo(&window, QPoint()).x()
                    < window.chatView()->mapTo(&window, QPoint()).x());
            QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
            QVERIFY(!window.libraryPanel()->isVisible());
            QVERIFY(window.traceInspector()->isVisible());
            window.close();
        }
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start();
        QVERIFY(!window.libraryPanel()->isVisible());
        QTest::keyClick(&window, Qt::Key_3, Qt::ControlModifier);
        QVERIFY(window.libraryPanel()->isVisible());
    }

    void aFinishedTurnReplaysFromItsRecordingWithoutNetwork()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(QString::fromUtf8(DemoConversation::question)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        const qsizetype requests = m_server->requests().size();

        window.replayAction()->trigger();
        auto *replay = window.findChild<Ui::ReplayWindow *>();
        QVERIFY(replay);
        QSignalSpy replayed(replay->run(), &ReplayRun::finished);
        replay->start();
        QTRY_COMPARE_WITH_TIMEOUT(replayed.size(), 1, 15000);
        QVERIFY2(replayed.first().first().toBool(), qPrintable(replay->statusText()));
        QVERIFY2(replay->statusText().startsWith(u"Reproduced"_s), qPrintable(replay->statusText()));
        QCOMPARE(m_server->requests().size(), requests);
        // The replay has its own trace: one turn, three iterations, as recorded.
        QCOMPARE(replay->run()->trace()->roots().size(), 1);
        QCOMPARE(replay->run()->trace()->childrenOf(replay->run()->trace()->roots().constFirst()).size(), 3);
        replay->close();
    }

    void replayAndForkAreOfferedOnlyForAFinishedTurn()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        const auto offered = [&window] {
            return QList<bool>{window.replayAction()->isEnabled(), window.forkAction()->isEnabled()};
        };
        // An empty session has nothing to replay or fork.
        QCOMPARE(offered(), (QList<bool>{false, false}));

        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(QString::fromUtf8(DemoConversation::question)));
        QVERIFY(m_fixture->session.isBusy());
        QCOMPARE(offered(), (QList<bool>{false, false}));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);

        // Replay takes the last turn; Fork needs a step or turn to fork at.
        QCOMPARE(offered(), (QList<bool>{true, false}));
        const Trace *trace = m_fixture->session.trace();
        window.traceInspector()->selectNode(trace->childrenOf(trace->roots().constFirst()).constFirst());
        QCOMPARE(offered(), (QList<bool>{true, true}));
        QVERIFY(!window.playgroundAction()->isEnabled()); // an iteration is not a model call
        // A model call re-runs in the playground, in a window of its own.
        const int iteration = trace->childrenOf(trace->roots().constFirst()).constFirst();
        const int modelCall = trace->childrenOf(iteration).constFirst();
        QCOMPARE(trace->node(modelCall).kind, TraceKind::ModelCall);
        window.traceInspector()->selectNode(modelCall);
        QVERIFY(window.playgroundAction()->isEnabled());
        window.playgroundAction()->trigger();
        auto *playground = window.findChild<Ui::PlaygroundWindow *>();
        QVERIFY(playground && playground->isVisible());
        QCOMPARE(playground->modelCallNode(), modelCall);
        playground->close();
        window.traceInspector()->selectNode(-1);
        QCOMPARE(offered(), (QList<bool>{true, false}));
        QVERIFY(!window.playgroundAction()->isEnabled());

        const Transcript saved = m_fixture->session.toTranscript();
        QVERIFY(m_fixture->session.clear());
        QCOMPARE(offered(), (QList<bool>{false, false}));
        QVERIFY(m_fixture->session.restore(saved));
        QCOMPARE(offered(), (QList<bool>{true, false}));
    }

    void compareWithOnATurnOpensTheDialogAndThenTheComparison()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QVERIFY(window.traceInspector()->treeView()->actions().contains(window.compareWithAction()));
        QVERIFY(!window.compareWithAction()->isEnabled());
        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(QString::fromUtf8(DemoConversation::question)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        QVERIFY(window.compareWithAction()->isEnabled());

        window.traceInspector()->selectNode(m_fixture->session.trace()->roots().constFirst());
        window.compareWithAction()->trigger();
        auto *dialog = window.findChild<Ui::CompareDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        // One turn: it is on both sides, a turn against itself.
        QCOMPARE(dialog->leftTurn()->number, 1);
        QCOMPARE(dialog->rightTurn()->number, 1);
        dialog->accept();
        auto *view = window.findChild<Ui::ComparisonView *>();
        QVERIFY(view);
        QTRY_VERIFY(view->isVisible());
        QCOMPARE(view->summaryLabel()->text(), u"identical"_s);
        view->close();
    }

    void theCompareDialogOffersOpenReplaysAndLibrarySessionsByTitle()
    {
        m_fixture->keepTurnsInTheLibrary();
        // A session of the library, named by a time stamp as the autosaver names files.
        QVERIFY(QDir().mkpath(m_fixture->library.folder()));
        const QString kept
            = m_fixture->library.folder() + u"/20261127-214100-290a"_s + SessionLibrary::fileSuffix();
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(QString::fromUtf8(DemoConversation::question)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
        Transcript other = m_fixture->session.toTranscript();
        other.title = u"Yesterday's sums"_s;
        QVERIFY(TranscriptFile::save(other, kept));
        m_fixture->library.refresh();
        QTRY_VERIFY(std::any_of(m_fixture->library.entries().cbegin(), m_fixture->library.entries().cend(),
                                [&](const SessionLibraryEntry &entry) { return entry.path == kept; }));

        window.replayAction()->trigger();
        auto *replay = window.findChild<Ui::ReplayWindow *>();
        QVERIFY(replay);
        QSignalSpy replayed(replay->run(), &ReplayRun::finished);
        replay->start();
        QTRY_COMPARE_WITH_TIMEOUT(replayed.size(), 1, 15000);

        window.compareAction()->trigger();
        auto *dialog = window.findChild<Ui::CompareDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        QStringList items;
        for (int i = 0; i < dialog->sessionBox(1)->count(); ++i)
            items.append(dialog->sessionBox(1)->itemText(i));
        const QString replayItem = u"Replay: %1 ("_s.arg(m_fixture->session.title());
        QVERIFY2(items.value(1).startsWith(replayItem), qPrintable(items.join(u" | "_s)));
        const auto library = std::find_if(items.cbegin(), items.cend(), [](const QString &item) {
            return item.startsWith(u"Yesterday's sums · "_s);
        });
        QVERIFY2(library != items.cend(), qPrintable(items.join(u" | "_s)));
        QVERIFY2(!items.join(u' ').contains(u"20261127-214100-290a"_s), qPrintable(items.join(u" | "_s)));

        // Chosen, the library session is read and its turns offered, labelled by title and time.
        QSignalSpy loaded(dialog, &Ui::CompareDialog::sessionLoaded);
        const int row = int(library - items.cbegin());
        dialog->sessionBox(1)->setCurrentIndex(row);
        emit dialog->sessionBox(1)->activated(row);
        QTRY_COMPARE(loaded.size(), 1);
        QVERIFY(loaded.first().at(1).toBool());
        QVERIFY2(dialog->rightTurn()->source.startsWith(u"Yesterday's sums · "_s),
                 qPrintable(dialog->rightTurn()->source));
        dialog->reject();
        replay->close();
    }

    void forkingAtAnIterationStartsASessionWithTheHistoryUpToIt_data()
    {
        QTest::addColumn<bool>("pickInTheChat");
        QTest::newRow("the iteration picked in the trace") << false;
        QTest::newRow("one of its tool calls picked in the chat") << true;
    }

    void forkingAtAnIterationStartsASessionWithTheHistoryUpToIt()
    {
        QFETCH(bool, pickInTheChat);
        Ui::MainWindow window(m_fixture->context());
        showAfterTheDemoTurn(window);
        if (QTest::currentTestFailed())
            return;
        const QString title = m_fixture->session.title();

        const Trace *trace = m_fixture->session.trace();
        const int firstIteration = trace->childrenOf(trace->roots().constFirst()).constFirst();
        if (pickInTheChat) {
            // The first tool call belongs to the first iteration.
            Ui::ChatItem *card = nullptr;
            for (int i = 0; i < window.chatView()->itemCount() && !card; ++i) {
                if (window.chatView()->item(i)->kind() == Ui::ChatItem::Kind::ToolCall)
                    card = window.chatView()->item(i);
            }
            QVERIFY(card);
            window.chatView()->ensureWidgetVisible(card);
            QTest::mouseClick(card, Qt::LeftButton, {}, QPoint(card->width() / 2, 6));
            QTRY_COMPARE(trace->node(window.traceInspector()->selectedNode()).parent, firstIteration);
        } else {
            window.traceInspector()->selectNode(firstIteration);
        }
        window.forkAction()->trigger();
        QMessageBox *question = nullptr;
        QTRY_VERIFY((question = window.findChild<QMessageBox *>()) && question->isVisible());
        question->button(QMessageBox::Discard)->click();

        // The question, the calls and their two results: the first iteration, whole.
        QTRY_COMPARE(m_fixture->session.agent()->history().size(), 4);
        QCOMPARE(m_fixture->session.agent()->history().constLast().role, Message::Role::Tool);
        QCOMPARE(m_fixture->session.title(), title + u" (fork)"_s);
        QVERIFY(m_fixture->document.path().isEmpty());
        QCOMPARE(window.chatView()->itemText(0), QString::fromUtf8(DemoConversation::question));
    }

    void theShippedExamplesOpenFromTheHelpMenuWithoutAProvider_data()
    {
        QTest::addColumn<QString>("title");
        QTest::newRow("errors fed back")
            << u"Example: wrong tool calls, the errors fed back, and the recovery"_s;
        QTest::newRow("three iterations")
            << u"Example: two tools in parallel, then a third, in three iterations"_s;
    }

    void theShippedExamplesOpenFromTheHelpMenuWithoutAProvider()
    {
        QFETCH(QString, title);
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start();
        QMenu *examples = nullptr;
        for (QMenu *menu : window.findChildren<QMenu *>()) {
            if (menu->title() == u"&Example Sessions"_s)
                examples = menu;
        }
        QVERIFY(examples);
        QAction *example = nullptr;
        for (QAction *action : examples->actions()) {
            if (action->text() == title)
                example = action;
        }
        QVERIFY(example);
        example->trigger();
        QTRY_VERIFY(m_fixture->session.agent()->history().size() == 7);
        QVERIFY(window.chatView()->itemCount() > 4);
        QCOMPARE(window.traceInspector()->treeView()->model()->rowCount(), 1);
        QVERIFY(window.windowTitle().startsWith(title));
        // The conversation shows instead of the welcome panel.
        QTRY_VERIFY(window.chatView()->isVisible());
        QVERIFY(!window.firstRunPanel()->isVisible());
        // Asking needs a provider: the question stays in the composer and nothing is sent.
        window.composer()->setText(u"And then?"_s);
        window.composer()->send();
        QCOMPARE(m_fixture->session.agent()->history().size(), 7);
        QCOMPARE(window.composer()->text(), u"And then?"_s);
        QVERIFY(!m_fixture->session.isBusy());

        // Replayable offline: no provider is set in this window.
        QVERIFY(!m_fixture->session.hasProvider());
        window.replayAction()->trigger();
        auto *replay = window.findChild<Ui::ReplayWindow *>();
        QVERIFY(replay);
        QSignalSpy replayed(replay->run(), &ReplayRun::finished);
        replay->start();
        QTRY_COMPARE_WITH_TIMEOUT(replayed.size(), 1, 15000);
        QVERIFY2(replayed.first().first().toBool(), qPrintable(replay->statusText()));
    }

    void paneSizesAreRememberedAcrossWindows()
    {
        QList<int> sizes;
        QList<int> traceSizes;
        {
            Ui::MainWindow window(m_fixture->context());
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.splitter()->setSizes({300, 900});
            sizes = window.splitter()->sizes();
            QList<int> trace = window.traceInspector()->splitter()->sizes();
            trace[0] += 30;
            trace[2] -= 30;
            window.traceInspector()->splitter()->setSizes(trace);
            traceSizes = window.traceInspector()->splitter()->sizes();
            window.close();
        }
        Ui::MainWindow again(m_fixture->context());
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.splitter()->sizes(), sizes);
        QCOMPARE(again.traceInspector()->splitter()->sizes(), traceSizes);
    }

    void theStoredMcpServersReachTheSessionsHubWithTheirSecrets()
    {
        McpServerConfig server;
        server.name = u"remote-%1"_s.arg(QCoreApplication::applicationPid());
        server.transport = McpServerConfig::Transport::Http;
        server.url = QUrl(u"https://mcp.example.com/mcp"_s);
        server.headers = {{u"Authorization"_s, u"Bearer sk-window-test"_s}};
        server.enabled = false; // stored and handed over, not started
        McpSettings(&m_fixture->settings).setServers({server});
        std::optional<QStringList> saved;
        QObject context;
        McpSettings::saveSecrets(
            {server}, {}, &m_fixture->secrets, &context,
            [&saved](const QStringList &errors, const QStringList &) { saved = errors; });
        QTRY_VERIFY(saved.has_value());
        QCOMPARE(*saved, QStringList());

        Ui::MainWindow window(m_fixture->context());
        QTRY_COMPARE(m_fixture->session.mcp()->servers().size(), 1);
        QCOMPARE(m_fixture->session.mcp()->servers().first(), server);

        saved.reset();
        McpSettings::saveSecrets(
            {}, {server}, &m_fixture->secrets, &context,
            [&saved](const QStringList &errors, const QStringList &) { saved = errors; });
        QTRY_VERIFY(saved.has_value());
    }

    void anMcpServersQuestionIsAskedInTheChat()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        const QJsonObject schema{
            {u"type"_s, u"object"_s},
            {u"properties"_s, QJsonObject{{u"ok"_s, QJsonObject{{u"type"_s, u"boolean"_s}}}}}};
        emit m_fixture->session.elicitationRequested(4, McpElicitation{u"files"_s, u"Proceed?"_s, schema});
        Ui::ElicitationCard *card = window.chatView()->elicitationCard(4);
        QVERIFY(card);
        QTRY_VERIFY(card->isVisible());
        emit m_fixture->session.elicitationSettled(4);
        QVERIFY(card->isFinished());
    }

    void theMcpButtonOffersPromptsAndResourcesAndInsertsIntoTheComposer()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        window.mcpResourcesAction()->trigger();
        auto *dialog = window.findChild<Ui::McpResourcesDialog *>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        emit dialog->insertRequested(u"From a resource."_s);
        QCOMPARE(window.composer()->text(), u"From a resource."_s);
        dialog->close();
    }

    void toolsMcpInspectorOpensOneWindowThatKeepsItsLog()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAction *action = window.mcpInspectorAction();
        QVERIFY(action);
        QMenu *tools = nullptr;
        for (QAction *menu : window.menuBar()->actions()) {
            if (menu->menu() && menu->menu()->actions().contains(action))
                tools = menu->menu();
        }
        QVERIFY(tools);
        action->trigger();
        QPointer<Ui::McpInspectorWindow> inspector = window.mcpInspector();
        QVERIFY(inspector);
        QTRY_VERIFY(inspector->isVisible());
        QCOMPARE(inspector->windowTitle(), u"MCP Inspector"_s);
        auto *log = inspector->findChild<Ui::McpLogPanel *>();
        QVERIFY(log);
        QAbstractItemModel *messages = log->filterModel()->sourceModel();
        auto *entries = qobject_cast<McpMessageLog *>(messages);
        QVERIFY(entries);
        entries->append(u"files"_s, true, {{u"jsonrpc"_s, u"2.0"_s}, {u"method"_s, u"ping"_s}});
        inspector->close();
        action->trigger();
        QCOMPARE(window.mcpInspector(), inspector.data()); // the same window, its log kept
        QTRY_VERIFY(inspector->isVisible());
        QCOMPARE(entries->rowCount(), 1);
        inspector->close();
    }

    void theMcpButtonLooksLikeAButtonAsWideAsSend()
    {
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto *button = window.findChild<QToolButton *>(u"mcpResourcesButton"_s);
        QVERIFY(button);
        QVERIFY(button->isVisible());
        QVERIFY2(!button->autoRaise(), "a flat button reads as a label beside the composer");
        QTRY_COMPARE(button->width(), window.composer()->sendButton()->width());
    }

    // What the window's composer takes (a drop on the chat, a paste, a drop on the editor) is what the
    // next request carries, in the order attached, before the question; a removed chip goes nowhere.
    void attachmentsFromTheComposerGoWithTheQuestionAndShowInTheChat_data()
    {
        QTest::addColumn<QString>("how");
        QTest::newRow("dropped on the chat") << u"drop on chat"_s;
        QTest::newRow("dropped on the editor") << u"drop on editor"_s;
        QTest::newRow("pasted from the clipboard") << u"paste"_s;
    }
    void attachmentsFromTheComposerGoWithTheQuestionAndShowInTheChat()
    {
        QFETCH(QString, how);
        const QByteArray png = Testing::pngBytes(QSize(64, 48));
        const QString chart = m_dir.filePath(u"chart.png"_s);
        const QString extra = m_dir.filePath(u"extra.txt"_s);
        QVERIFY(Testing::writeFile(chart, png));
        QVERIFY(Testing::writeFile(extra, "not wanted"));

        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QTRY_COMPARE(m_server->requests().size(), 1); // the model picker's listing

        Ui::ChatComposer *composer = window.composer();
        auto *data = new QMimeData;
        data->setUrls({QUrl::fromLocalFile(chart), QUrl::fromLocalFile(extra)});
        if (how == u"paste"_s) {
            QGuiApplication::clipboard()->setMimeData(data);
            composer->editor()->paste();
        } else {
            QWidget *target = how == u"drop on chat"_s ? static_cast<QWidget *>(window.chatView())
                                                       : composer->editor()->viewport();
            const QPoint centre = target->rect().center();
            QDragEnterEvent enter(centre, Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(target, &enter);
            QVERIFY(enter.isAccepted());
            QDropEvent dropped(centre, Qt::CopyAction, data, Qt::LeftButton, Qt::NoModifier);
            QCoreApplication::sendEvent(target, &dropped);
            delete data;
        }
        QTRY_COMPARE(composer->attachmentList()->count(), 2);
        QVERIFY(composer->attachmentList()->isVisible());
        composer->attachmentList()->chips().at(1)->removeButton()->click();
        QTRY_COMPARE(composer->attachmentList()->count(), 1);

        composer->setText(u"What does the chart show?"_s);
        composer->sendButton()->click();
        QTRY_COMPARE(m_server->requests().size(), 2);

        const QJsonArray parts = m_server->requests().at(1).lastMessageParts();
        QCOMPARE(parts.size(), 2);
        const QString url = parts.at(0)[u"image_url"_s][u"url"_s].toString();
        QVERIFY2(url.startsWith(u"data:image/png;base64,"_s), qPrintable(url.left(40)));
        QCOMPARE(QByteArray::fromBase64(url.mid(url.indexOf(u',') + 1).toLatin1()), png);
        QCOMPARE(parts.at(1)[u"text"_s].toString(), u"What does the chart show?"_s);
        QVERIFY(!QJsonDocument(m_server->requests().at(1).json()).toJson().contains("not wanted"));

        // Sent: the composer is empty again, and the question in the chat shows its image.
        QVERIFY(composer->attachments().isEmpty());
        QTRY_VERIFY(!composer->attachmentList()->isVisible());
        Ui::MessageWidget *question = nullptr;
        QTRY_VERIFY((question = lastUserMessage(window.chatView())) != nullptr);
        QTRY_COMPARE(question->attachmentChips().size(), 1);
        QCOMPARE(question->attachmentChips().constFirst()->attachment().name, u"chart.png"_s);
        QVERIFY(question->attachmentChips().constFirst()->isVisible());
        QVERIFY(question->attachmentChips().constFirst()->removeButton() == nullptr);
    }

    void anImageForATextOnlyModelStaysInTheComposerSayingWhy()
    {
        const QString chart = m_dir.filePath(u"chart.png"_s);
        QVERIFY(Testing::writeFile(chart, Testing::pngBytes(QSize(32, 32))));
        Ui::MainWindow window(m_fixture->context());
        ProviderProfile profile = demoProfile();
        profile.model = u"gpt-3.5-turbo"_s;
        askWithAttachment(window, profile, chart);
        if (QTest::currentTestFailed())
            return;
        Ui::ChatComposer *composer = window.composer();

        QCOMPARE(composer->text(), u"What does the chart show?"_s);
        QCOMPARE(composer->attachmentList()->count(), 1);
        QVERIFY2(composer->attachmentList()->problem().contains(u"read text only"_s),
                 qPrintable(composer->attachmentList()->problem()));
        QVERIFY(composer->attachmentList()->problemLabel()->isVisible());
        QTest::qWait(50);
        QCOMPARE(m_server->requests().size(), 1);
        QVERIFY(!m_fixture->session.isBusy());

        // Send Anyway, beside the reason, sends it all the same: the image reaches the provider.
        QPushButton *anyway = composer->sendAnywayButton();
        QVERIFY(anyway->isVisible());
        QVERIFY(anyway->isEnabled());
        anyway->click();
        QTRY_COMPARE(m_server->requests().size(), 2);
        const QJsonArray parts = m_server->requests().at(1).lastMessageParts();
        QCOMPARE(parts.size(), 2);
        QVERIFY(parts.at(0)[u"image_url"_s][u"url"_s].toString().startsWith(u"data:image/png;base64,"_s));
        QCOMPARE(m_server->requests().at(1).json().value(u"model"_s).toString(), u"gpt-3.5-turbo"_s);
        QVERIFY(composer->attachments().isEmpty());
        QVERIFY(composer->text().isEmpty());
        QVERIFY(!anyway->isVisible());
    }

    // Editing the last question brings its files back as removable chips; the resend carries those left.
    void editingTheLastQuestionKeepsItsAttachments_data()
    {
        QTest::addColumn<bool>("removeTheImage");
        QTest::newRow("kept") << false;
        QTest::newRow("removed while editing") << true;
    }
    void editingTheLastQuestionKeepsItsAttachments()
    {
        QFETCH(bool, removeTheImage);
        const QByteArray png = Testing::pngBytes(QSize(64, 48));
        const QString chart = m_dir.filePath(u"chart.png"_s);
        QVERIFY(Testing::writeFile(chart, png));
        Ui::MainWindow window(m_fixture->context());
        askWithAttachment(window, demoProfile(), chart);
        if (QTest::currentTestFailed())
            return;
        Ui::ChatComposer *composer = window.composer();
        QTRY_VERIFY(m_fixture->session.isBusy());
        QTRY_VERIFY(!m_fixture->session.isBusy());
        const qsizetype before = m_server->requests().size();
        // The file may go: the question's image is the session's now.
        QVERIFY(QFile::remove(chart));

        emit window.chatView()->editLastRequested(m_fixture->session.lastUserText());
        QVERIFY(composer->isEditing());
        QCOMPARE(composer->attachmentList()->count(), 1);
        QVERIFY(composer->attachmentList()->isVisible());
        Ui::AttachmentChip *chip = composer->attachmentList()->chips().constFirst();
        QCOMPARE(chip->attachment().name, u"chart.png"_s);
        QCOMPARE(chip->attachment().bytes, png);
        QVERIFY(chip->removeButton() != nullptr);
        if (removeTheImage) {
            chip->removeButton()->click();
            QTRY_COMPARE(composer->attachmentList()->count(), 0);
        }

        composer->setText(u"What does the chart show, in one word?"_s);
        composer->send();
        QTRY_COMPARE(m_server->requests().size(), before + 1);
        const QJsonArray parts = m_server->requests().at(before).lastMessageParts();
        if (removeTheImage) {
            QVERIFY(!QJsonDocument(m_server->requests().at(before).json()).toJson().contains("image_url"));
        } else {
            QCOMPARE(parts.size(), 2);
            const QString url = parts.at(0)[u"image_url"_s][u"url"_s].toString();
            QCOMPARE(QByteArray::fromBase64(url.mid(url.indexOf(u',') + 1).toLatin1()), png);
            QCOMPARE(parts.at(1)[u"text"_s].toString(), u"What does the chart show, in one word?"_s);
        }
        QVERIFY(composer->attachments().isEmpty());
        QTRY_VERIFY(!m_fixture->session.isBusy());
        // The history holds the edited question once, with what it was sent with.
        int questions = 0;
        for (const Message &message : m_fixture->session.agent()->history())
            questions += message.role == Message::Role::User ? 1 : 0;
        QCOMPARE(questions, 1);
        QCOMPARE(m_fixture->session.lastUserAttachments().size(), removeTheImage ? 0 : 1);
    }

    // The context gauge counts the files waiting in the composer as the loop will: an image ≈1,500 tokens.
    void theContextGaugeCountsTheAttachmentsWaitingInTheComposer()
    {
        const QString chart = m_dir.filePath(u"chart.png"_s);
        QVERIFY(Testing::writeFile(chart, Testing::pngBytes(QSize(32, 32))));
        Ui::MainWindow window(m_fixture->context());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        auto *bar = static_cast<Ui::SessionStatusBar *>(window.statusBar());
        QVERIFY2(!bar->text().contains(u"Context: ≈"_s), qPrintable(bar->text()));

        Ui::ChatComposer *composer = window.composer();
        composer->attachmentList()->addFiles({chart});
        QTRY_COMPARE(composer->attachmentList()->count(), 1);
        const qint64 expected = m_fixture->session.usage()->nextRequestEstimate({}, composer->attachments());
        QVERIFY2(expected >= 1500, qPrintable(QString::number(expected)));
        QTRY_VERIFY2(bar->text().contains(u"Context: ≈"_s), qPrintable(bar->text()));
        QVERIFY2(bar->text().contains(u"1.5k"_s), qPrintable(bar->text()));

        composer->attachmentList()->chips().constFirst()->removeButton()->click();
        QTRY_VERIFY2(!bar->text().contains(u"Context: ≈"_s), qPrintable(bar->text()));
    }

private:
    // An agent store in the test's folder holding the agent "billing", in the window's context; nullptr
    // when it cannot be saved.
    std::unique_ptr<AgentStore> useAgentStoreWithBilling()
    {
        auto agents = std::make_unique<AgentStore>(m_dir.filePath(u"agents-%1"_s.arg(m_run)));
        AgentPreset billing;
        billing.name = u"billing"_s;
        billing.instructions = u"You answer invoices."_s;
        QString error;
        if (!agents->save({}, billing, &error))
            return nullptr;
        m_fixture->agents = agents.get();
        return agents;
    }

    // GET …/models answers with \a models; everything else goes to the demo conversation.
    void answerModelList(const QStringList &models)
    {
        QJsonArray data;
        for (const QString &model : models)
            data.append(QJsonObject{{u"id"_s, model}, {u"object"_s, u"model"_s}});
        const FakeHttpServer::Handler demo = m_server->handler();
        m_server->setHandler([demo, data](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.method == "GET" && request.path.endsWith("/models"))
                exchange.respondJson(200, QJsonObject{{u"object"_s, u"list"_s}, {u"data"_s, data}});
            else
                demo(request, exchange);
        });
    }

    // Shows the window on \a profile and sends a question with the file at \a path from its composer.
    void askWithAttachment(Ui::MainWindow &window, const ProviderProfile &profile, const QString &path)
    {
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(profile);
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QTRY_COMPARE(m_server->requests().size(), 1); // the model picker's listing
        Ui::ChatComposer *composer = window.composer();
        composer->attachmentList()->addFiles({path});
        QTRY_COMPARE(composer->attachmentList()->count(), 1);
        composer->setText(u"What does the chart show?"_s);
        composer->send();
    }

    // Shows the window with the demo provider and runs the demo's three-iteration turn to its end.
    void showAfterTheDemoTurn(Ui::MainWindow &window)
    {
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.start(demoProfile());
        QTRY_VERIFY(m_fixture->session.hasProvider());
        QSignalSpy finished(m_fixture->session.agent(), &Agent::turnFinished);
        QVERIFY(m_fixture->session.send(QString::fromUtf8(DemoConversation::question)));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 15000);
    }

    static Ui::MessageWidget *lastUserMessage(const Ui::ChatView *chat)
    {
        for (int i = chat->itemCount() - 1; i >= 0; --i) {
            if (chat->item(i)->kind() == Ui::ChatItem::Kind::UserMessage)
                return static_cast<Ui::MessageWidget *>(chat->item(i));
        }
        return nullptr;
    }

    ProviderProfile demoProfile() const
    {
        ProviderProfile profile;
        profile.id = u"command-line"_s;
        profile.name = u"Demo server"_s;
        profile.kind = ProviderKind::OpenAi;
        profile.baseUrl = m_server->baseUrl().resolved(QUrl(u"/v1"_s));
        profile.model = u"gpt-4o-mini"_s;
        profile.apiKeyEnv = u"LOOPSCOPE_DEMO_KEY"_s;
        qputenv("LOOPSCOPE_DEMO_KEY", "sk-demo-0123456789abcdef");
        return profile;
    }

    QTemporaryDir m_dir;
    int m_run = 0;
    std::unique_ptr<FakeHttpServer> m_server;
    std::unique_ptr<Fixture> m_fixture;
};

QTEST_MAIN(MainWindowTest)
#include "tst_mainwindow.moc"
