#pragma once

#include <QObject>

#include <optional>

QT_BEGIN_NAMESPACE
class QAction;
class QComboBox;
class QToolBar;
class QWidget;
QT_END_NAMESPACE

namespace Loopscope {
class AgentApplier;
class AgentStore;
class ChatSession;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    The toolbar's agent chooser: Default (Settings → Loop's prompt) and the
    user's agents. Choosing one hands it to the session for its next turn; the
    box then shows what the session's setup says, also after a session is
    reopened (its agent comes back with it). "Session Prompt…" edits this
    session's own system prompt, which leaves the agent as it is; "Agents…"
    opens the Agents page.
*/
class AgentChooser final : public QObject
{
    Q_OBJECT

public:
    AgentChooser(ChatSession *session, const AgentStore *store, AgentApplier *applier, QWidget *parent);

    // The labelled box, then the Session Prompt… and Agents… actions.
    void addTo(QToolBar *bar);
    QComboBox *agentBox() const { return m_box; }
    QAction *sessionPromptAction() const { return m_sessionPromptAction; }
    QAction *manageAction() const { return m_manageAction; }

    // The choice of the box's entry named \a name (empty: Default).
    void choose(const QString &name);
    // What "Session Prompt…" sets: \a prompt for this session (nullopt or empty: the agent's again).
    void setSessionPrompt(const std::optional<QString> &prompt);

signals:
    void manageRequested();

private:
    void listAgents();
    void onChosen(int index);
    void askSessionPrompt();
    // The box and the prompt action follow the session's setup.
    void showSessionChoice();

    ChatSession *m_session;
    const AgentStore *m_store;
    AgentApplier *m_applier;
    QWidget *m_parent;
    QComboBox *m_box;
    QAction *m_sessionPromptAction;
    QAction *m_manageAction;
    bool m_listing = false;
};

} // namespace Loopscope::Ui
