// Takes the README's screenshots: the idle window, a finished three-iteration
// turn with the trace expanded, the session library, a replay that diverged
// and its comparison with the recording, a
// paused debug step, a turn with MCP tools (waiting for approval, then done), a
// question with an image and its request, and the settings dialog with its MCP page; and records the example
// sessions. The window, the agent and the HTTP traffic are real; the model is the demo conversation on
// 127.0.0.1. Run under Xvfb with a fresh keyring (tests/config/with-keyring.sh), so nothing of the user's is
// touched.

#include "agent/compare/comparedturn.h"
#include "agent/compare/runcomparison.h"
#include "agent/config/appsettings.h"
#include "agent/config/secretstore.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcpsettings.h"
#include "agent/playground/playgroundrun.h"
#include "agent/providers/connectiontester.h"
#include "agent/providers/ollamaprobe.h"
#include "agent/replay/replayrun.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "agent/transcript/transcript.h"
#include "tests/support/democonversation.h"
#include "tests/support/fakehttpserver.h"
#include "translations/translations.h"
#include "ui/chat/chatcomposer.h"
#include "ui/chat/composerattachments.h"
#include "ui/chat/schemaform.h"
#include "ui/compare/comparisonview.h"
#include "ui/inspector/inspectortoolspanel.h"
#include "ui/inspector/mcpinspectorwindow.h"
#include "ui/inspector/mcplogpanel.h"
#include "ui/inspector/mcpresultview.h"
#include "ui/library/librarysidebar.h"
#include "ui/library/sessionlibrarypanel.h"
#include "ui/mainwindow.h"
#include "ui/replay/replaywindow.h"
#include "ui/settings/settingsdialog.h"
#include "ui/trace/jsontreeview.h"
#include "ui/trace/tracedetailspane.h"
#include "ui/trace/traceinspector.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>

#include <functional>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

// Runs the event loop until \a done holds, at most timeoutMs.
bool waitFor(const std::function<bool()> &done, int timeoutMs = 20000)
{
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

// Lets layouts, batched stream renders and animations finish.
void settle(int ms = 400)
{
    QElapsedTimer timer;
    timer.start();
    waitFor([&timer, ms] { return timer.elapsed() > ms; });
}

bool save(QWidget *widget, const QString &path)
{
    settle();
    const bool ok = widget->grab().save(path);
    QTextStream(stdout) << (ok ? "wrote " : "could not write ") << path << Qt::endl;
    return ok;
}

// A small bar chart to attach: something a reader recognises as an image at a glance.
QImage barChart()
{
    QImage image(640, 400, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(Qt::darkGray, 2));
    painter.drawLine(60, 350, 610, 350);
    painter.drawLine(60, 40, 60, 350);
    const int values[] = {120, 210, 160, 280, 240};
    const QColor colours[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
                              QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd)};
    for (int i = 0; i < 5; ++i) {
        painter.fillRect(QRect(90 + i * 105, 350 - values[i], 70, values[i]), colours[i]);
        painter.setPen(Qt::black);
        painter.drawText(QRect(90 + i * 105, 355, 70, 30), Qt::AlignCenter, u"Q%1"_s.arg(i + 1));
        painter.drawText(QRect(90 + i * 105, 325 - values[i], 70, 20), Qt::AlignCenter,
                         QString::number(values[i]));
    }
    painter.setFont(QFont(painter.font().family(), 16, QFont::Bold));
    painter.drawText(QRect(0, 5, 640, 30), Qt::AlignCenter, u"Widgets sold per quarter"_s);
    return image;
}

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(u"Loopscope"_s);
    // As the app does: "2 messages", never "2 message(s)".
    Translations::install();
    const QString outDir = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QDir::currentPath();

    QTemporaryDir dir;
    FakeHttpServer server;
    if (!server.listen())
        return 1;
    DemoConversation::install(server, 15);

    QSettings settings(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
    ProviderProfileStore profiles(&settings);
    AppSettings appSettings(&settings);
    KeychainSecretStore secrets(u"Loopscope screenshots"_s);
    QNetworkAccessManager network;
    ChatSession session(&network);
    SessionDocument document(&session);
    SessionLibrary library(dir.filePath(u"library"_s));

    ProviderProfile profile;
    profile.id = u"local"_s;
    profile.name = u"Local OpenAI-compatible"_s;
    profile.kind = ProviderKind::OpenAi;
    profile.baseUrl = server.baseUrl().resolved(QUrl(u"/v1"_s));
    profile.model = u"gpt-4o-mini"_s;
    profile.apiKeyEnv = u"LOOPSCOPE_SCREENSHOT_KEY"_s;
    qputenv("LOOPSCOPE_SCREENSHOT_KEY", "sk-screenshot-0123456789");
    profiles.save(profile);
    profiles.setDefaultProfileId(profile.id);
    appSettings.setEnabledTools({u"calculator"_s, u"current_time"_s, u"read_file"_s});
    appSettings.setWorkspaceFolder(dir.path());

    OllamaProbe ollamaProbe(&network);
    ConnectionTester connectionTester(&network);
    const Ui::NetworkHelpers helpers{&ollamaProbe, &connectionTester, [&network, &secrets] {
                                         return new PlaygroundRun(&network, &secrets);
                                     }};
    Ui::MainWindow window(
        {&session, &profiles, &appSettings, &secrets, helpers, &settings, &document, &library});
    // The README's size; LOOPSCOPE_SCREENSHOT_SIZE=900x600 (say) to look at the window at another.
    const QStringList size = qEnvironmentVariable("LOOPSCOPE_SCREENSHOT_SIZE", u"1440x900"_s).split(u'x');
    window.resize(size.value(0).toInt() > 0 ? size.value(0).toInt() : 1440,
                  size.value(1).toInt() > 0 ? size.value(1).toInt() : 900);
    window.show();
    window.start();
    if (!waitFor([&] { return session.hasProvider(); }))
        return 2;
    bool ok = save(&window, outDir + u"/idle-window.png"_s);

    window.composer()->setText(QString::fromUtf8(DemoConversation::question));
    window.composer()->send();
    if (!waitFor([&] { return session.lastResult().has_value(); }))
        return 3;
    window.traceInspector()->treeView()->expandAll();
    // The second model call: its request holds the first iteration's results.
    const QModelIndex turn = window.traceInspector()->treeView()->model()->index(0, 0);
    const QModelIndex secondIteration = window.traceInspector()->treeView()->model()->index(1, 0, turn);
    window.traceInspector()->treeView()->setCurrentIndex(
        window.traceInspector()->treeView()->model()->index(0, 0, secondIteration));
    ok = save(&window, outDir + u"/finished-turn.png"_s) && ok;

    // The same turn is the example session shipped in resources/examples.
    session.setTitle(u"Example: two tools in parallel, then a third, in three iterations"_s);
    QString error;
    if (!TranscriptFile::save(session.toTranscript(), outDir + u"/example-three-iterations.loopscope.json"_s,
                              &error)) {
        QTextStream(stderr) << "cannot save the example: " << error << Qt::endl;
        ok = false;
    }

    // The session library with a few saved sessions, searched.
    const Transcript finished = session.toTranscript();
    const QStringList titles{u"Example: two tools in parallel, then a third, in three iterations"_s,
                             u"Which notes mention Qt?"_s, u"Convert 72 °F to Celsius"_s};
    for (int i = 0; i < titles.size(); ++i) {
        Transcript saved = finished;
        saved.title = titles.at(i);
        saved.updated = finished.updated.addSecs(-3600 * 26 * i);
        ok = TranscriptFile::save(saved, library.folder() + u"/screenshot-%1.loopscope.json"_s.arg(i), &error)
             && ok;
    }
    library.refresh();
    window.librarySidebar()->toggleAction()->setChecked(true);
    window.libraryPanel()->searchField()->setText(u"parallel"_s);
    waitFor([&] { return window.libraryPanel()->searchResults()->topLevelItemCount() > 0; });
    ok = save(&window, outDir + u"/session-library.png"_s) && ok;
    window.libraryPanel()->searchField()->clear();
    window.librarySidebar()->toggleAction()->setChecked(false);

    // A replay of the turn in which the user changed the first tool's result:
    // it diverges at the next model call and waits to continue live or stop.
    window.replayAction()->trigger();
    auto *replay = window.findChild<Ui::ReplayWindow *>();
    if (!replay)
        return 7;
    replay->resize(1440, 900);
    QString firstCall;
    for (int node = 0; node < session.trace()->size() && firstCall.isEmpty(); ++node) {
        if (const auto *call = std::get_if<ToolCallData>(&session.trace()->node(node).payload))
            firstCall = call->call.id;
    }
    replay->run()->setToolResult(firstCall, ToolResult::success(u"-1"_s));
    replay->start();
    if (!waitFor([&] { return replay->run()->isWaitingForDecision(); }))
        return 8;
    replay->traceInspector()->treeView()->expandAll();
    ok = save(replay, outDir + u"/replay-diverged.png"_s) && ok;

    // That replay beside its recording, step by step, at the first difference.
    const Trace *replayed = replay->run()->trace();
    const std::optional<ComparedTurn> recordedTurn = ComparedTurn::fromTrace(
        *session.trace(), session.trace()->roots().constLast(), u"the recording, turn 1"_s);
    const std::optional<ComparedTurn> replayedTurn = ComparedTurn::fromTrace(
        *replayed, replayed->roots().constLast(), u"its replay, with -1 as the first result"_s);
    if (!recordedTurn || !replayedTurn)
        return 9;
    auto *comparison = new Ui::ComparisonView(RunComparison(*recordedTurn, *replayedTurn));
    comparison->resize(1280, 800);
    comparison->show();
    // A model request's diff below the steps: the second, which carried the changed result.
    for (QTreeWidgetItemIterator it(comparison->stepTree()); *it; ++it) {
        const int row = Ui::ComparisonView::rowOf(*it);
        if (comparison->comparison().rows().at(row).kind == ComparisonRow::Kind::ModelRequest
            && comparison->comparison().rows().at(row).status == ComparisonRow::Status::Differs) {
            comparison->stepTree()->setCurrentItem(*it);
            break;
        }
    }
    ok = save(comparison, outDir + u"/compare-runs.png"_s) && ok;
    comparison->close();
    replay->close();

    // A debug step: break before every tool call, then ask again from scratch.
    session.clear();
    window.debugModeAction()->setChecked(true);
    StepDebugger::Breakpoints breakpoints;
    breakpoints.toolNames = {u"calculator"_s};
    session.debugger()->setBreakpoints(breakpoints);
    session.send(QString::fromUtf8(DemoConversation::question));
    if (!waitFor([&] { return session.debugger()->isPaused(); }))
        return 4;
    window.traceInspector()->selectNode(session.debugger()->currentStop()->toolCall->traceNode);
    ok = save(&window, outDir + u"/debug-paused.png"_s) && ok;
    session.stop();
    window.debugModeAction()->setChecked(false);

    // The second example: calls gone wrong, the errors fed back, the recovery.
    session.clear();
    DemoConversation::installRecovery(server, 15);
    session.send(QString::fromUtf8(DemoConversation::recoveryQuestion));
    if (!waitFor([&] { return !session.isBusy() && session.agent()->history().size() >= 7; }))
        return 9;
    session.setTitle(u"Example: wrong tool calls, the errors fed back, and the recovery"_s);
    if (!TranscriptFile::save(session.toTranscript(), outDir + u"/example-error-recovery.loopscope.json"_s,
                              &error)) {
        QTextStream(stderr) << "cannot save the example: " << error << Qt::endl;
        ok = false;
    }

    // Tools that change things: the approval card shows the edit as a diff and the command with its
    // folder before anything runs; the edit is allowed first, so the command counts what it left.
    {
        session.clear();
        window.debugModeAction()->setChecked(false);
        QFile notes(dir.filePath(u"notes.md"_s));
        if (!notes.open(QIODevice::WriteOnly) || notes.write(DemoConversation::editFileBefore) < 0)
            return 13;
        notes.close();
        appSettings.setEnabledTools({u"read_file"_s, u"edit_file"_s, u"run_command"_s});
        session.apply(SessionSetup::fromSettings(appSettings, session.setup()));
        DemoConversation::installEdit(server, 15);
        window.composer()->setText(QString::fromUtf8(DemoConversation::editQuestion));
        window.composer()->send();
        if (!waitFor([&] { return session.approvals()->pending().size() == 2; }))
            return 14;
        window.traceInspector()->treeView()->expandAll();
        ok = save(&window, outDir + u"/approval-diff.png"_s) && ok;
        const auto pendingCall = [&](const QString &tool) {
            for (const ToolApprovalPolicy::Request &request : session.approvals()->pending()) {
                if (request.checkpoint.call.name == tool)
                    return request.callId;
            }
            return QString();
        };
        session.approvals()->allowOnce(pendingCall(u"edit_file"_s));
        if (!waitFor([&] {
                QFile edited(notes.fileName());
                return edited.open(QIODevice::ReadOnly) && edited.readAll().contains("- [x] tag v1.4");
            }))
            return 15;
        session.approvals()->allowOnce(pendingCall(u"run_command"_s));
        if (!waitFor([&] { return !session.isBusy() && session.lastResult().has_value(); }))
            return 16;
        appSettings.setEnabledTools({u"calculator"_s, u"current_time"_s, u"read_file"_s});
        session.apply(SessionSetup::fromSettings(appSettings, session.setup()));
    }

    // Tools from an MCP server: server-everything from the npm folder the tests install
    // (LOOPSCOPE_MCP_SERVERS=build/dev/mcp-servers/node_modules). Both calls wait for approval
    // inline, then run in parallel, the long one reporting progress.
    const QString everything = qEnvironmentVariable("LOOPSCOPE_MCP_SERVERS")
                               + u"/@modelcontextprotocol/server-everything/dist/index.js"_s;
    if (QFile::exists(everything)) {
        session.clear();
        window.debugModeAction()->setChecked(false);
        McpServerConfig config;
        config.name = u"everything"_s;
        config.command = u"node"_s;
        config.arguments = {everything, u"stdio"_s};
        McpSettings(&settings).setServers({config});
        SessionSetup setup = session.setup();
        setup.mcpServers = {config};
        session.apply(setup);
        if (!waitFor([&] {
                const McpClient *client = session.mcp()->client(config.name);
                return client && client->state() == McpClient::State::Ready;
            }))
            return 10;
        DemoConversation::installMcp(server, 15);
        window.composer()->setText(QString::fromUtf8(DemoConversation::mcpQuestion));
        window.composer()->send();
        if (!waitFor([&] { return session.approvals()->pending().size() == 2; }))
            return 11;
        window.traceInspector()->treeView()->expandAll();
        ok = save(&window, outDir + u"/mcp-approval.png"_s) && ok;
        for (const ToolApprovalPolicy::Request &request : session.approvals()->pending())
            session.approvals()->allowOnce(request.callId);
        if (!waitFor([&] { return !session.isBusy() && session.lastResult().has_value(); }))
            return 12;
        window.traceInspector()->treeView()->expandAll();
        for (int node = 0; node < session.trace()->size(); ++node) {
            const auto *call = std::get_if<ToolCallData>(&session.trace()->node(node).payload);
            if (call && call->call.name == u"trigger-long-running-operation")
                window.traceInspector()->selectNode(node);
        }
        ok = save(&window, outDir + u"/mcp-turn.png"_s) && ok;
    } else {
        QTextStream(stderr) << "no MCP screenshots: set LOOPSCOPE_MCP_SERVERS to the tests' node_modules"
                            << Qt::endl;
    }

    // A question with an image: the chip under the question, and the first model call's request in the
    // details pane saying what the image part is instead of its base64.
    document.newSession();
    appSettings.setEnabledTools({u"calculator"_s, u"current_time"_s, u"read_file"_s});
    session.apply(SessionSetup::fromSettings(appSettings, session.setup()));
    DemoConversation::install(server, 15);
    const QString chart = dir.filePath(u"chart.png"_s);
    if (!barChart().save(chart))
        return 7;
    window.composer()->attachmentList()->addFiles({chart});
    if (!waitFor([&] { return window.composer()->attachmentList()->count() == 1; }))
        return 8;
    bool imageTurnEnded = false;
    QObject::connect(session.agent(), &Agent::turnFinished, &window,
                     [&imageTurnEnded] { imageTurnEnded = true; });
    window.composer()->setText(u"What does this chart show? Work out the total too."_s);
    window.composer()->send();
    if (!waitFor([&] { return imageTurnEnded; }))
        return 9;
    {
        QTreeView *tree = window.traceInspector()->treeView();
        tree->expandAll();
        const QModelIndex turn = tree->model()->index(0, 0);
        const QModelIndex firstIteration = tree->model()->index(0, 0, turn);
        tree->setCurrentIndex(tree->model()->index(0, 0, firstIteration));
        // The question's message opened down to its parts, the tool schemas folded, to make room.
        Ui::JsonTreeView *request = window.traceInspector()->detailsPane()->requestView();
        const std::function<void(QTreeWidgetItem *, int)> open = [&open](QTreeWidgetItem *item, int depth) {
            item->setExpanded(true);
            for (int i = 0; depth > 0 && i < item->childCount(); ++i)
                open(item->child(i), depth - 1);
        };
        for (int i = 0; i < request->topLevelItemCount(); ++i) {
            QTreeWidgetItem *item = request->topLevelItem(i);
            if (item->text(Ui::JsonTreeView::KeyColumn) == u"messages")
                open(item, 6);
            else if (item->text(Ui::JsonTreeView::KeyColumn) == u"tools")
                item->setExpanded(false);
        }
        request->resizeColumnToContents(Ui::JsonTreeView::KeyColumn);
    }
    ok = save(&window, outDir + u"/attachment-request.png"_s) && ok;

    // Nothing to save in a screenshot run.
    document.newSession();
    window.openSettings();
    auto *dialog = window.findChild<Ui::SettingsDialog *>();
    if (!dialog)
        return 5;
    dialog->showPage(Ui::SettingsDialog::Page::Providers);
    ok = save(dialog, outDir + u"/settings.png"_s) && ok;
    if (QFile::exists(everything)) {
        dialog->showPage(Ui::SettingsDialog::Page::McpServers);
        ok = save(dialog, outDir + u"/settings-mcp.png"_s) && ok;
    }
    dialog->reject();

    // Tools → MCP Inspector on the same server: echo called by hand from its form, then the log.
    if (QFile::exists(everything)) {
        window.openMcpInspector();
        Ui::McpInspectorWindow *inspector = window.mcpInspector();
        if (!inspector || !inspector->chooseServer(u"everything"_s))
            return 20;
        Ui::InspectorToolsPanel *tools = inspector->toolsPanel();
        if (!waitFor([&] { return !tools->toolList()->findItems(u"echo"_s, Qt::MatchExactly).isEmpty(); }))
            return 21;
        tools->toolList()->setCurrentItem(tools->toolList()->findItems(u"echo"_s, Qt::MatchExactly).first());
        auto *message = qobject_cast<QLineEdit *>(tools->form()->field(u"message"_s));
        if (!message)
            return 22;
        message->setText(u"Hello from the Inspector"_s);
        tools->callButton()->click();
        if (!waitFor([&] { return tools->resultView()->summary().startsWith(u"Result"_s); }))
            return 23;
        ok = save(inspector, outDir + u"/mcp-inspector.png"_s) && ok;
        inspector->tabs()->setCurrentWidget(inspector->logPanel());
        inspector->logPanel()->methodFilter()->setText(u"tools/"_s);
        QTableView *log = inspector->logPanel()->table();
        log->setCurrentIndex(log->model()->index(log->model()->rowCount() - 1, 0));
        ok = save(inspector, outDir + u"/mcp-inspector-log.png"_s) && ok;
        inspector->close();
    }

    // Agents: a turn that triage handed off to billing, which asked the researcher as a sub-agent; the
    // recorded session from the replay tests, opened as a user opens a saved session.
    const TranscriptLoadResult agents = TranscriptFile::load(QStringLiteral(LOOPSCOPE_AGENTS_SESSION));
    if (!agents.transcript || !session.restore(*agents.transcript, &error)) {
        QTextStream(stderr) << "cannot open the agents session: " << agents.error << error << Qt::endl;
        return 24;
    }
    waitFor([&] { return window.traceInspector()->treeView()->model()->rowCount() > 0; });
    window.traceInspector()->treeView()->expandAll();
    for (int node = 0; node < session.trace()->size(); ++node) {
        if (std::holds_alternative<HandoffData>(session.trace()->node(node).payload)) {
            window.traceInspector()->selectNode(node);
            break;
        }
    }
    ok = save(&window, outDir + u"/agents-handoff-subagent.png"_s) && ok;
    return ok ? 0 : 6;
}
