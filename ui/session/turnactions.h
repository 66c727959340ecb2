#pragma once

#include <QList>
#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

QT_BEGIN_NAMESPACE
class QAction;
class QWidget;
QT_END_NAMESPACE

namespace Loopscope {
class ChatSession;
class PlaygroundRun;
class ProviderProfileStore;
class SessionLibrary;
struct ComparedTurn;
struct Transcript;
} // namespace Loopscope

namespace Loopscope::Ui {

class ReplayWindow;
class SessionActions;
class TraceInspector;

/*!
    What a user does with a finished turn, picked in the trace: replay it from
    its recording, fork a new session from it, compare it with another turn,
    re-run one of its model calls in the playground. The actions are enabled
    only where they can act (a finished turn; for Fork a selected step of one;
    for the playground a finished model call) and are offered in the trace's
    context menu too; the main window puts them in its menus.
*/
class TurnActions final : public QObject
{
    Q_OBJECT

public:
    // \a newPlaygroundRun makes the run a playground window takes (the window never creates one).
    TurnActions(ChatSession *session, SessionActions *sessionActions, TraceInspector *inspector,
                ProviderProfileStore *profiles, std::function<PlaygroundRun *()> newPlaygroundRun,
                QWidget *window);

    QAction *replayAction() const { return m_replay; }
    QAction *forkAction() const { return m_fork; }
    // Tools → Compare Turns…, and "Compare With…" on a turn in the trace: both open the compare dialog.
    QAction *compareAction() const { return m_compare; }
    QAction *compareWithAction() const { return m_compareWith; }
    QAction *playgroundAction() const { return m_playground; }
    // The library whose sessions Compare offers by title and time, and where a replay is saved.
    void setLibrary(SessionLibrary *library);
    // The replay windows still open, whose runs Compare offers.
    QList<ReplayWindow *> replayWindows() const;

signals:
    void message(const QString &text);

private:
    void replaySelectedTurn();
    void forkAtSelection();
    // Picks two turns (this session's selected one first) and shows them side by side.
    void compareTurns();
    // The replay's turn beside the one it replays (Compare in a replay window).
    void compareReplay(ReplayWindow *window, const std::optional<ComparedTurn> &recorded);
    void showComparison(const ComparedTurn &left, const ComparedTurn &right);
    void openFork(const Transcript &fork);
    void openPlaygroundAtSelection();
    // Replay and Fork only when there is a finished turn (for Fork, a selected step of one).
    void updateEnabled();

    ChatSession *m_session;
    SessionActions *m_sessionActions;
    TraceInspector *m_inspector;
    ProviderProfileStore *m_profiles;
    std::function<PlaygroundRun *()> m_newPlaygroundRun;
    QWidget *m_window;
    QAction *m_replay;
    QAction *m_fork;
    QAction *m_compare;
    QAction *m_compareWith;
    QAction *m_playground;
    QPointer<SessionLibrary> m_library;
    QList<QPointer<ReplayWindow>> m_replays;
};

} // namespace Loopscope::Ui
