#include "ui/session/sessionstatusbar.h"

#include "agent/debug/stepdebugger.h"
#include "agent/session/chatsession.h"
#include "agent/session/contextgauge.h"
#include "ui/trace/traceicons.h"

#include <QLabel>
#include <QLayout>
#include <QPlainTextEdit>
#include <QTextDocument>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QString stateText(Agent::State state, bool paused)
{
    if (paused)
        return SessionStatusBar::tr("Paused in the debugger");
    switch (state) {
    case Agent::State::Idle: return SessionStatusBar::tr("Idle");
    case Agent::State::AwaitingDecision: return SessionStatusBar::tr("Waiting for a decision");
    case Agent::State::WaitingForModel: return SessionStatusBar::tr("Waiting for the model");
    case Agent::State::RunningTools: return SessionStatusBar::tr("Running tools");
    }
    return {};
}

} // namespace

SessionStatusBar::SessionStatusBar(ChatSession *session, QPlainTextEdit *draft, QWidget *parent)
    : QStatusBar(parent)
    , m_session(session)
    , m_draft(draft)
    , m_provider(addField(tr("Provider and model")))
    , m_tokens(addField(tr("Tokens")))
    , m_cost(addField(tr("Cost")))
    , m_context(addField(tr("Context window")))
    , m_iteration(addField(tr("Iteration")))
    , m_state(addField(tr("Loop state")))
    , m_message(addField(tr("Message")))
{
    Q_ASSERT(session && draft);
    // It takes what the other fields leave, its words elided to fit (see fitFields()).
    m_provider->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    addWidget(m_provider, 1);
    m_message->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_message->setTextFormat(Qt::PlainText);
    m_message->hide();
    addWidget(m_message, 1);
    m_messageTimer.setSingleShot(true);
    connect(&m_messageTimer, &QTimer::timeout, this, &SessionStatusBar::clearSaid);
    addPermanentWidget(m_tokens);
    addPermanentWidget(m_cost);
    addPermanentWidget(m_context);
    addPermanentWidget(m_iteration);
    addPermanentWidget(m_state);

    connect(session, &ChatSession::busyChanged, this, [this](bool busy) {
        if (!busy)
            m_paused = false;
        else
            m_speaker.clear(); // a new turn starts with the session's agent, its events say who goes on
        refresh();
    });
    connect(session, &ChatSession::restored, this, &SessionStatusBar::findSpeakerOfRestoredSession);
    connect(session, &ChatSession::cleared, this, [this] {
        m_speaker.clear();
        refresh();
    });
    connect(session->agent(), &Agent::event, this, &SessionStatusBar::followSpeaker);
    connect(session, &ChatSession::usageChanged, this, &SessionStatusBar::refresh);
    connect(session, &ChatSession::contextWindowChanged, this, &SessionStatusBar::refresh);
    connect(session, &ChatSession::iterationChanged, this, &SessionStatusBar::refresh);
    connect(session, &ChatSession::providerChanged, this, &SessionStatusBar::refresh);
    connect(session, &ChatSession::providerFailed, this, [this](const QString &reason) {
        say(reason);
        refresh();
    });
    connect(session->agent(), &Agent::stateChanged, this, &SessionStatusBar::refresh);
    connect(session->debugger(), &StepDebugger::paused, this, [this] { setPaused(true); });
    connect(session->debugger(), &StepDebugger::resumed, this, [this] { setPaused(false); });
    connect(draft, &QPlainTextEdit::textChanged, this, &SessionStatusBar::refresh);
    refresh();
}

void SessionStatusBar::setDraftAttachments(const QList<Attachment> &attachments)
{
    m_draftAttachments = attachments;
    refresh();
}

QLabel *SessionStatusBar::addField(const QString &accessibleName)
{
    // The window's measure, so the fields keep the spacing they had beside the toolbar's.
    const int margin = window()->fontMetrics().averageCharWidth();
    auto *label = new QLabel(this);
    label->setAccessibleName(accessibleName);
    label->setContentsMargins(margin, 0, margin, 0);
    return label;
}

void SessionStatusBar::setPaused(bool paused)
{
    m_paused = paused;
    refresh();
}

QString SessionStatusBar::providerWords(const QString &agent) const
{
    const std::optional<ProviderProfile> profile = m_session->providerOfAgent(agent);
    if (!profile)
        return tr("No provider");
    // The agent is named where its own profile, not the session's, answers.
    const AgentPreset *preset = agent.isEmpty() ? nullptr : m_session->setup().agents.find(agent);
    if (preset && preset->provider)
        //: %1 provider profile, %2 model, %3 the agent that runs on them
        return tr("%1 · %2 (agent %3)").arg(profile->name, profile->model, agent);
    return tr("%1 · %2").arg(profile->name, profile->model);
}

QString SessionStatusBar::providerWords() const
{
    // What the next turn goes to: the starting agent's own profile when it has one, not the session's.
    const QString next = providerWords(m_session->setup().agent);
    if (m_speaker.isEmpty())
        return next;
    // During a turn, what the agent speaking now runs on (after a handoff, the agent handed to);
    // after it, what answered, while that is not what the next turn goes to.
    const QString speaking = providerWords(m_speaker);
    if (m_session->isBusy())
        return speaking;
    if (speaking == next)
        return next;
    //: %1 what answered the last turn, %2 what the next turn goes to
    return tr("%1 answered; next turn: %2").arg(speaking, next);
}

void SessionStatusBar::followSpeaker(const AgentEvent &event)
{
    // The session's own turn, not the sub-agents it asks (their calls roll up into it).
    if (event.depth != 0 || event.agent == m_speaker)
        return;
    m_speaker = event.agent;
    refresh();
}

void SessionStatusBar::findSpeakerOfRestoredSession()
{
    const ConversationRows *rows = m_session->rows();
    m_speaker.clear();
    for (int row = rows->size() - 1; row >= 0; --row) {
        if (rows->at(row).kind == ConversationRow::Kind::Assistant) {
            m_speaker = rows->at(row).agent;
            break;
        }
    }
    refresh();
}

void SessionStatusBar::refresh()
{
    const ChatSession *session = m_session;
    setField(m_provider, providerWords(), QString());
    // While an answer streams its tokens are an estimate, marked "≈", until the provider counts them.
    const qint64 streaming = session->usage()->streamingTokenEstimate();
    const QString approx = streaming > 0 ? u"≈"_s : QString();
    const qint64 turnTokens = session->usage()->turnUsage().total() + streaming;
    const qint64 sessionTokens = session->usage()->sessionUsage().total() + streaming;
    setField(
        m_tokens,
        tr("Tokens: %1%L2 this turn · %1%L3 this session").arg(approx).arg(turnTokens).arg(sessionTokens),
        //: The status bar's token counts in a narrow window: this turn · this session
        tr("%1%2 · %1%3 tokens").arg(approx, formatTokenCount(turnTokens), formatTokenCount(sessionTokens)));
    //: The status bar's cost in USD; "—" when no model call had a known price
    setField(m_cost,
             tr("Cost: %1 this turn · %2 this session")
                 .arg(formatCost(session->usage()->turnCost()), formatCost(session->usage()->sessionCost())),
             formatCost(session->usage()->sessionCost()));
    // The gauge: the last request against the model's window; while a question is typed, ≈ the
    // request it would make (about four characters a token).
    const std::optional<qint64> contextWindow = session->contextWindow();
    const QString typed = session->isBusy() ? QString() : m_draft->toPlainText();
    const QList<Attachment> attached = session->isBusy() ? QList<Attachment>() : m_draftAttachments;
    const bool drafting = !typed.isEmpty() || !attached.isEmpty();
    const qint64 contextTokens = session->usage()->nextRequestEstimate(typed, attached);
    const QString gauge = ContextGauge::describe(contextTokens, contextWindow, drafting);
    setField(m_context, tr("Context: %1").arg(gauge), gauge);
    m_context->setProperty(
        "helpText",
        tr("The last request's tokens, as the provider counted them, plus its answer, against the "
           "model's context window (from the provider profile, the provider itself, or the price table)."));
    QPalette contextPalette = m_context->palette();
    const ContextGauge::Level level = ContextGauge::level(contextTokens, contextWindow);
    // Near the window in the colour of a limit, over it in the colour of an error.
    const QPalette &windowPalette = window()->palette();
    QColor contextColor = windowPalette.color(QPalette::WindowText);
    if (level == ContextGauge::Level::Near)
        contextColor = TraceIcons::statusColor(TraceStatus::Limited, windowPalette);
    else if (level == ContextGauge::Level::Over)
        contextColor = TraceIcons::statusColor(TraceStatus::Error, windowPalette);
    contextPalette.setColor(QPalette::WindowText, contextColor);
    m_context->setPalette(contextPalette);
    const int maxIterations = session->agentConfig().maxIterations;
    if (session->usage()->iteration() > 0) {
        setField(m_iteration, tr("Iteration %1 of %2").arg(session->usage()->iteration()).arg(maxIterations),
                 tr("%1/%2").arg(session->usage()->iteration()).arg(maxIterations));
    } else {
        setField(m_iteration, tr("No iteration yet"), QString());
    }
    m_state->setText(stateText(session->agent()->state(), m_paused));
    fitFields();
}

void SessionStatusBar::setField(QLabel *label, const QString &full, const QString &brief)
{
    label->setProperty("fullText", full);
    label->setProperty("briefText", brief);
    label->setText(full);
}

void SessionStatusBar::fitFields()
{
    // Least telling first: the iteration is in the trace, the context and cost have a brief form
    // that still reads, the tokens last.
    const QList<QLabel *> shrinkable{m_iteration, m_context, m_cost, m_tokens};
    for (QLabel *label : shrinkable) {
        label->setText(label->property("fullText").toString());
        label->setToolTip(label->property("helpText").toString());
    }
    const int spacing = layout()->spacing();
    const auto permanentWidth = [this, spacing] {
        int width = 24; // the size grip
        for (QLabel *label : {m_tokens, m_cost, m_context, m_iteration, m_state})
            width += label->sizeHint().width() + spacing;
        return width;
    };
    // The provider and model are in the toolbar too: their words here may shrink to this much.
    const int providerRoom = m_provider->fontMetrics().averageCharWidth() * 16;
    for (QLabel *label : shrinkable) {
        if (permanentWidth() + providerRoom <= width())
            break;
        label->setText(label->property("briefText").toString());
        const QString help = label->property("helpText").toString();
        label->setToolTip(label->property("fullText").toString()
                          + (help.isEmpty() ? QString() : u"\n"_s + help));
    }
    // What is left is the provider's, its words cut with an ellipsis rather than clipped.
    const QString provider = m_provider->property("fullText").toString();
    const QMargins margins = m_provider->contentsMargins();
    const int room = width() - permanentWidth() - margins.left() - margins.right() - spacing;
    const QString elided = m_provider->fontMetrics().elidedText(provider, Qt::ElideRight, qMax(0, room));
    m_provider->setText(elided);
    m_provider->setToolTip(elided == provider ? QString() : provider);
    // A message has the same room, elided alike.
    const QString said = m_message->fontMetrics().elidedText(m_messageText, Qt::ElideRight, qMax(0, room));
    m_message->setText(said);
    m_message->setToolTip(said == m_messageText ? QString() : m_messageText);
}

void SessionStatusBar::say(const QString &message, int timeoutMs)
{
    if (message.isEmpty()) {
        clearSaid();
        return;
    }
    m_messageText = message;
    m_messageTimer.start(timeoutMs);
    m_provider->hide();
    m_message->show();
    fitFields();
}

void SessionStatusBar::clearSaid()
{
    m_messageTimer.stop();
    m_messageText.clear();
    m_message->clear();
    m_message->setToolTip(QString());
    m_message->hide();
    m_provider->show();
}

void SessionStatusBar::resizeEvent(QResizeEvent *event)
{
    QStatusBar::resizeEvent(event);
    fitFields();
}

QString SessionStatusBar::text() const
{
    // The words a user reads in a window wide enough for all of them.
    const auto full = [](const QLabel *label) {
        const QVariant text = label->property("fullText");
        return text.isValid() ? text.toString() : label->text();
    };
    return QStringList{full(m_provider), full(m_tokens),    full(m_cost),
                       full(m_context),  full(m_iteration), full(m_state)}
        .join(u" | "_s);
}

} // namespace Loopscope::Ui
