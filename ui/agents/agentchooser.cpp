#include "ui/agents/agentchooser.h"

#include "agent/session/agentapplier.h"
#include "agent/session/agentstore.h"
#include "agent/session/chatsession.h"
#include "ui/settings/settingswidgets.h"

#include <QAction>
#include <QComboBox>
#include <QInputDialog>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolBar>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

AgentChooser::AgentChooser(ChatSession *session, const AgentStore *store, AgentApplier *applier,
                           QWidget *parent)
    : QObject(parent)
    , m_session(session)
    , m_store(store)
    , m_applier(applier)
    , m_parent(parent)
{
    m_box = named(new QComboBox(parent), u"agentBox"_s, tr("Agent"));
    m_box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_box->setToolTip(tr("The agent this session's next turn starts with"));
    m_sessionPromptAction = new QAction(tr("Session &Prompt…"), this);
    m_sessionPromptAction->setObjectName(u"sessionPromptAction"_s);
    m_sessionPromptAction->setCheckable(true);
    m_sessionPromptAction->setToolTip(tr("A system prompt for this session only; the agent stays as it is"));
    m_manageAction = new QAction(tr("A&gents…"), this);
    m_manageAction->setObjectName(u"manageAgentsAction"_s);
    connect(m_box, &QComboBox::currentIndexChanged, this, &AgentChooser::onChosen);
    connect(m_sessionPromptAction, &QAction::triggered, this, &AgentChooser::askSessionPrompt);
    connect(m_manageAction, &QAction::triggered, this, &AgentChooser::manageRequested);
    connect(store, &AgentStore::changed, this, &AgentChooser::listAgents);
    // A reopened session brings its agent and prompt: the store's agents go to it, the box follows.
    connect(session, &ChatSession::restored, this, [this] {
        m_applier->reapply();
        showSessionChoice();
    });
    connect(session, &ChatSession::cleared, this, &AgentChooser::showSessionChoice);
    connect(session, &ChatSession::busyChanged, this, [this](bool busy) { m_box->setEnabled(!busy); });
    listAgents();
}

void AgentChooser::addTo(QToolBar *bar)
{
    auto *label = new QLabel(tr("Agent:"), bar);
    label->setBuddy(m_box);
    bar->addWidget(label);
    bar->addWidget(m_box);
    bar->addAction(m_sessionPromptAction);
    bar->addAction(m_manageAction);
}

void AgentChooser::listAgents()
{
    const QSignalBlocker blocker(m_box);
    m_box->clear();
    m_box->addItem(tr("Default"), QString());
    m_box->setItemData(0, tr("Settings → Loop's system prompt and options"), Qt::ToolTipRole);
    for (const AgentPreset &agent : m_store->roster().agents) {
        m_box->addItem(agent.name, agent.name);
        m_box->setItemData(m_box->count() - 1, tr("version %1").arg(agent.version), Qt::ToolTipRole);
    }
    showSessionChoice();
}

void AgentChooser::choose(const QString &name)
{
    const int index = m_box->findData(name);
    m_box->setCurrentIndex(index < 0 ? 0 : index);
    onChosen(m_box->currentIndex());
}

void AgentChooser::onChosen(int index)
{
    if (index < 0)
        return;
    m_applier->choose(m_box->itemData(index).toString());
    showSessionChoice();
}

void AgentChooser::setSessionPrompt(const std::optional<QString> &prompt)
{
    m_applier->setSessionPrompt(prompt && !prompt->isEmpty() ? prompt : std::nullopt);
    showSessionChoice();
}

void AgentChooser::askSessionPrompt()
{
    const QString current = m_session->agentConfig().systemPrompt;
    bool ok = false;
    const QString text = QInputDialog::getMultiLineText(
        m_parent, tr("This Session's System Prompt"),
        tr("For this session only (the agent is not changed); empty: the agent's own prompt."), current, &ok);
    if (ok)
        setSessionPrompt(text == current && !m_session->setup().sessionPrompt ? std::nullopt
                                                                              : std::optional(text));
    else
        showSessionChoice();
}

void AgentChooser::showSessionChoice()
{
    const QSignalBlocker blocker(m_box);
    const QString agent = m_applier->chosen();
    const int index = m_box->findData(agent);
    m_box->setCurrentIndex(index < 0 ? 0 : index);
    m_sessionPromptAction->setChecked(m_session->setup().sessionPrompt.has_value());
}

} // namespace Loopscope::Ui
