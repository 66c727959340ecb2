#include "ui/session/turnactions.h"

#include "agent/compare/comparedturn.h"
#include "agent/compare/runcomparison.h"
#include "agent/playground/playgroundrun.h"
#include "agent/replay/replayrun.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "agent/trace/trace.h"
#include "ui/compare/comparedialog.h"
#include "ui/compare/comparisonview.h"
#include "ui/playground/playgroundwindow.h"
#include "ui/replay/replaywindow.h"
#include "ui/session/sessionactions.h"
#include "ui/trace/traceinspector.h"

#include <QAction>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QTreeView>

namespace Loopscope::Ui {

TurnActions::TurnActions(ChatSession *session, SessionActions *sessionActions, TraceInspector *inspector,
                         ProviderProfileStore *profiles, std::function<PlaygroundRun *()> newPlaygroundRun,
                         QWidget *window)
    : QObject(window)
    , m_session(session)
    , m_sessionActions(sessionActions)
    , m_inspector(inspector)
    , m_profiles(profiles)
    , m_newPlaygroundRun(std::move(newPlaygroundRun))
    , m_window(window)
    , m_replay(new QAction(tr("&Replay Turn…"), this))
    , m_fork(new QAction(tr("&Fork From Here"), this))
    , m_compare(new QAction(tr("Co&mpare Turns…"), this))
    , m_compareWith(new QAction(tr("&Compare With…"), this))
    , m_playground(new QAction(tr("Re-run in &Playground…"), this))
{
    Q_ASSERT(session && sessionActions && inspector && profiles && m_newPlaygroundRun);
    m_replay->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_R);
    m_replay->setToolTip(tr("Re-run the selected turn from its recorded responses, without network"));
    connect(m_replay, &QAction::triggered, this, &TurnActions::replaySelectedTurn);

    m_fork->setToolTip(tr("Start a new session with the conversation up to the selected turn or iteration"));
    connect(m_fork, &QAction::triggered, this, &TurnActions::forkAtSelection);

    m_compare->setToolTip(tr("Show two turns side by side, step by step, with their first difference"));
    connect(m_compare, &QAction::triggered, this, &TurnActions::compareTurns);
    m_compareWith->setToolTip(tr("Compare the selected turn with another turn or session"));
    connect(m_compareWith, &QAction::triggered, this, &TurnActions::compareTurns);

    m_playground->setToolTip(
        tr("Edit the selected model call's request and send it to any provider, beside its recorded answer"));
    connect(m_playground, &QAction::triggered, this, &TurnActions::openPlaygroundAtSelection);
    // They act on the selected step: offer them where it is picked too.
    auto *separator = new QAction(this);
    separator->setSeparator(true);
    inspector->treeView()->addActions({separator, m_replay, m_fork, m_compareWith, m_playground});

    connect(session, &ChatSession::busyChanged, this, &TurnActions::updateEnabled);
    connect(session, &ChatSession::restored, this, &TurnActions::updateEnabled);
    connect(session, &ChatSession::cleared, this, &TurnActions::updateEnabled);
    QItemSelectionModel *selection = inspector->treeView()->selectionModel();
    connect(selection, &QItemSelectionModel::selectionChanged, this, &TurnActions::updateEnabled);
    connect(selection, &QItemSelectionModel::currentChanged, this, &TurnActions::updateEnabled);
    updateEnabled();
}

void TurnActions::updateEnabled()
{
    const ChatSession *session = m_session;
    const int node = m_inspector->selectedNode();
    // Without a selection, Replay takes the last turn; while a turn runs, that one is not finished.
    const bool turnDone = !session->isBusy() && session->turnIndexAt(node) >= 0;
    m_replay->setEnabled(turnDone);
    m_fork->setEnabled(turnDone && node >= 0);
    // Compare Turns can also pick two session files, so it stays on.
    m_compareWith->setEnabled(turnDone);
    const Trace *trace = session->trace();
    m_playground->setEnabled(trace->isValid(node) && trace->node(node).kind == TraceKind::ModelCall
                             && trace->node(node).endedUs > 0);
}

void TurnActions::replaySelectedTurn()
{
    ChatSession *session = m_session;
    const int node = m_inspector->selectedNode();
    QString error;
    const std::optional<RecordedTurn> turn = session->recordedTurnAt(node, &error);
    if (!turn) {
        emit message(error);
        return;
    }
    const QString title
        = session->title().isEmpty() ? tr("turn %1").arg(session->turnIndexAt(node) + 1) : session->title();
    auto *window = new ReplayWindow(
        *turn, title, [session] { return session->createModelClient(); }, session->replayTools(), m_window);
    if (m_library)
        window->setSaveFolder(m_library->folder());
    m_replays.removeAll(nullptr);
    m_replays.append(window);
    // The recording as it is now: the window may show another session by the time Compare is pressed.
    const Trace &trace = *session->trace();
    const int root = trace.roots().value(turn->turnIndex, -1);
    //: The recorded turn a replay is compared with
    const std::optional<ComparedTurn> recorded = ComparedTurn::fromTrace(
        trace, root, tr("%1, turn %2 as recorded").arg(title).arg(turn->turnIndex + 1));
    connect(window, &ReplayWindow::compareRequested, this,
            [this, window, recorded] { compareReplay(window, recorded); });
    connect(window, &ReplayWindow::saved, this, [this](const QString &) {
        if (m_library)
            m_library->refresh();
    });
    window->show();
}

void TurnActions::forkAtSelection()
{
    QString error;
    const std::optional<Transcript> fork = m_session->forkAt(m_inspector->selectedNode(), &error);
    if (!fork) {
        emit message(error);
        return;
    }
    openFork(*fork);
}

void TurnActions::openFork(const Transcript &fork)
{
    m_sessionActions->whenChangesAreSettled([this, fork] {
        QString error;
        if (m_sessionActions->document()->openTranscript(fork, {}, &error))
            emit message(tr("Forked into a new session: \"%1\".").arg(fork.title));
        else
            emit message(tr("Cannot fork: %1").arg(error));
    });
}

void TurnActions::setLibrary(SessionLibrary *library)
{
    m_library = library;
}

QList<ReplayWindow *> TurnActions::replayWindows() const
{
    QList<ReplayWindow *> windows;
    for (const QPointer<ReplayWindow> &window : m_replays) {
        if (window)
            windows.append(window);
    }
    return windows;
}

void TurnActions::compareTurns()
{
    const ChatSession *session = m_session;
    const QString name = session->title().isEmpty() ? tr("this session") : session->title();
    const QList<ComparedTurn> turns = ComparedSession::turnsOf(*session->trace(), name);
    auto *dialog
        = new CompareDialog(turns, name, session->turnIndexAt(m_inspector->selectedNode()), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The replays open now, by their titles; then the library's sessions, newest first.
    for (ReplayWindow *replay : replayWindows()) {
        if (replay->run() && replay->run()->trace())
            dialog->addTurns(
                tr("Replay: %1").arg(replay->title()),
                ComparedSession::turnsOf(*replay->run()->trace(), tr("Replay: %1").arg(replay->title())));
    }
    if (m_library) {
        dialog->setLibraryFolder(m_library->folder());
        const QString open = m_sessionActions->document()->libraryPath();
        for (const SessionLibraryEntry &entry : m_library->entries()) {
            if (!entry.isReadable() || entry.turnCount == 0 || QFileInfo(entry.path) == QFileInfo(open))
                continue;
            dialog->addLibrarySession(ComparedSession::label(entry.title, entry.updated, entry.path),
                                      entry.path);
        }
    }
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const std::optional<ComparedTurn> left = dialog->leftTurn();
        const std::optional<ComparedTurn> right = dialog->rightTurn();
        if (left && right)
            showComparison(*left, *right);
    });
    dialog->open();
}

void TurnActions::compareReplay(ReplayWindow *window, const std::optional<ComparedTurn> &recorded)
{
    const QList<ComparedTurn> replayed
        = ComparedSession::turnsOf(*window->run()->trace(), tr("Replay: %1").arg(window->title()));
    if (replayed.isEmpty() || !recorded) {
        emit message(tr("This replay has no turn to compare yet."));
        return;
    }
    showComparison(*recorded, replayed.last());
}

void TurnActions::showComparison(const ComparedTurn &left, const ComparedTurn &right)
{
    (new ComparisonView(RunComparison(left, right), m_window))->show();
}

void TurnActions::openPlaygroundAtSelection()
{
    const int node = m_inspector->selectedNode();
    const Trace *trace = m_session->trace();
    if (!trace->isValid(node) || trace->node(node).kind != TraceKind::ModelCall) {
        emit message(tr("Select a model call in the trace to re-run it."));
        return;
    }
    auto *window
        = new PlaygroundWindow(m_session, node, m_profiles->profiles(), m_newPlaygroundRun(), m_window);
    connect(window, &PlaygroundWindow::variantAdded, m_sessionActions->document(),
            &SessionDocument::noteChange);
    connect(window, &PlaygroundWindow::forkRequested, this, &TurnActions::openFork);
    window->show();
}

} // namespace Loopscope::Ui
