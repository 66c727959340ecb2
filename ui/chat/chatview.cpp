#include "ui/chat/chatview.h"

#include "ui/chat/approvalcard.h"
#include "ui/chat/chatitem.h"
#include "ui/chat/chatsurface.h"
#include "ui/chat/toolcallcard.h"

#include "agent/trace/trace.h"

#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QQueue>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

// Streamed text reaches the screen at most once per frame.
constexpr int StreamBatchMs = 16;

ToolCallCard::Status cardStatus(const QString &traceStatus, bool isError)
{
    switch (traceStatusFromName(traceStatus).value_or(isError ? TraceStatus::Error : TraceStatus::Ok)) {
    case TraceStatus::Running:
    case TraceStatus::Ok: return isError ? ToolCallCard::Status::Failed : ToolCallCard::Status::Succeeded;
    case TraceStatus::Error: return ToolCallCard::Status::Failed;
    case TraceStatus::Cancelled: return ToolCallCard::Status::Cancelled;
    case TraceStatus::Blocked: return ToolCallCard::Status::Blocked;
    case TraceStatus::Denied: return ToolCallCard::Status::Denied;
    case TraceStatus::Skipped: return ToolCallCard::Status::Skipped;
    }
    return ToolCallCard::Status::Failed;
}

// The first node of the subtree, in depth-first order, that matches.
template<typename Predicate>
int findInSubtree(const Trace &trace, int root, Predicate &&matches)
{
    if (!trace.isValid(root))
        return -1;
    if (matches(trace.node(root)))
        return root;
    for (int child : trace.node(root).children) {
        const int found = findInSubtree(trace, child, matches);
        if (found >= 0)
            return found;
    }
    return -1;
}

} // namespace

ChatView::ChatView(QWidget *parent)
    : QScrollArea(parent)
    , m_content(new QWidget)
    , m_layout(new QVBoxLayout(m_content))
    , m_earlierButton(new QPushButton(m_content))
    , m_activity(new QWidget(m_content))
    , m_activityLabel(new QLabel(m_activity))
    , m_emptyHint(new QLabel(m_content))
    , m_flushTimer(new QTimer(this))
{
    setAccessibleName(tr("Conversation"));
    setWidgetResizable(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::NoFrame);
    setBackgroundRole(QPalette::Base);
    m_content->setBackgroundRole(QPalette::Base);

    auto *busy = new QProgressBar(m_activity);
    busy->setRange(0, 0);
    busy->setTextVisible(false);
    busy->setAccessibleName(tr("Waiting"));
    busy->setMaximumWidth(fontMetrics().averageCharWidth() * 10);
    busy->setMaximumHeight(std::max(fontMetrics().height() / 2, 2));
    m_activityLabel->setForegroundRole(QPalette::PlaceholderText);
    m_activityLabel->setAccessibleName(tr("Activity"));
    auto *activityLayout = new QHBoxLayout(m_activity);
    activityLayout->setContentsMargins(chatSpacing(this, 0.6), 0, 0, 0);
    activityLayout->addWidget(busy);
    activityLayout->addWidget(m_activityLabel, 1);
    m_activity->hide();

    m_emptyHint->setText(tr("Ask the agent something.\nIts answers, tool calls and errors appear here; "
                            "select one to find it in the trace."));
    m_emptyHint->setAlignment(Qt::AlignCenter);
    m_emptyHint->setWordWrap(true);
    m_emptyHint->setForegroundRole(QPalette::PlaceholderText);
    m_emptyHint->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Expanding);

    const int margin = chatSpacing(this, 0.75);
    m_layout->setContentsMargins(margin, margin, margin, margin);
    m_layout->setSpacing(chatSpacing(this, 0.6));
    m_earlierButton->setFlat(true);
    m_earlierButton->hide();
    connect(m_earlierButton, &QPushButton::clicked, this, [this] { showEarlierTurns(); });
    // The button first, then the items (see appendItem()), then the rest.
    m_layout->addWidget(m_earlierButton, 0, Qt::AlignHCenter);
    m_layout->addWidget(m_activity);
    // Empty, the hint takes the room and sits in the middle; else the stretch
    // below the items keeps them at the top.
    m_layout->addWidget(m_emptyHint, 1);
    m_layout->addStretch(0);
    setWidget(m_content);

    m_flushTimer->setSingleShot(true);
    m_flushTimer->setInterval(StreamBatchMs);
    connect(m_flushTimer, &QTimer::timeout, this, &ChatView::flushDeltas);

    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, &ChatView::onScrollRangeChanged);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, &ChatView::onScrollValueChanged);
}

ChatView::~ChatView() = default;

// ---------------------------------------------------------------------------
// Sources

void ChatView::setTrace(const Trace *trace)
{
    if (m_trace)
        disconnect(m_trace, nullptr, this, nullptr);
    m_trace = trace;
    if (trace)
        connect(trace, &Trace::reset, this, &ChatView::onTraceReset);
}

void ChatView::follow(Agent *agent)
{
    if (m_agent)
        disconnect(m_agent, nullptr, this, nullptr);
    m_agent = agent;
    if (agent) {
        connect(agent, &Agent::event, this, &ChatView::onAgentEvent);
        connect(agent, &Agent::messageAppended, this, &ChatView::onMessageAppended);
        connect(agent, &Agent::turnFinished, this, &ChatView::onTurnFinished);
        connect(agent, &Agent::stateChanged, this, [this] {
            updateActions();
            updateActivity();
        });
    }
    updateActions();
    updateActivity();
}

void ChatView::setApprovalPolicy(ToolApprovalPolicy *policy)
{
    if (m_policy)
        disconnect(m_policy, nullptr, this, nullptr);
    m_policy = policy;
    if (!policy)
        return;
    connect(policy, &ToolApprovalPolicy::approvalRequested, this, &ChatView::onApprovalRequested);
    connect(policy, &ToolApprovalPolicy::approvalSettled, this, &ChatView::onApprovalSettled);
    const QList<ToolApprovalPolicy::Request> pending = policy->pending();
    for (const ToolApprovalPolicy::Request &request : pending)
        onApprovalRequested(request);
}

// ---------------------------------------------------------------------------
// The live turn

void ChatView::onAgentEvent(const AgentEvent &event)
{
    using Kind = AgentEvent::Kind;
    if (event.kind == Kind::TurnStarted) {
        beginTurn(event.text, event.traceNode);
        return;
    }
    if (!m_live)
        return; // a turn that started before clear()

    switch (event.kind) {
    case Kind::TextDelta:
        if (m_live->streaming && m_live->streamingNode != event.traceNode) {
            flushDeltas();
            m_live->streaming = nullptr;
        }
        m_live->pendingDelta += event.text;
        m_live->pendingNode = event.traceNode;
        if (!m_flushTimer->isActive())
            m_flushTimer->start();
        break;
    case Kind::ModelResponse: finishAnswer(event); break;
    case Kind::ModelRequest:
        m_activityLabel->setText(tr("Waiting for the model…"));
        updateActivity();
        break;
    case Kind::Retry: {
        const auto *retry = event.payloadAs<RetryInfo>();
        m_activityLabel->setText(
            tr("Attempt %1 failed (%2); trying again…").arg(retry ? retry->attempt : 0).arg(event.text));
        break;
    }
    case Kind::ToolCall: {
        ToolCallCard *card = toolCallCard(event.toolCall.id);
        if (!card)
            card = addToolCard(event.toolCall, event.traceNode);
        card->setTraceNode(event.traceNode);
        card->setCall(event.toolCall);
        break;
    }
    case Kind::ToolProgress:
        if (ToolCallCard *card = toolCallCard(event.toolCall.id))
            card->addProgress(event.text);
        break;
    case Kind::ToolResult: applyToolResult(event); break;
    case Kind::Error: m_live->errorNode = event.traceNode; break;
    case Kind::ShieldBlocked:
        m_live->blockedNode = event.traceNode;
        if (const auto *shield = event.payloadAs<ShieldInfo>();
            shield && shield->stage == ShieldStage::Output) {
            m_live->outputBlocked = true;
            if (m_live->lastAnswer)
                m_live->lastAnswer->setText(tr("*The answer was withheld by a safety check.*"));
        }
        break;
    case Kind::Summary:
        m_live->lastAnswer = addMessage(MessageWidget::Role::Assistant, event.text, event.traceNode);
        break;
    case Kind::Handoff: m_live->handoffNode = event.traceNode; break;
    case Kind::TurnStarted:
    case Kind::IterationStarted:
    case Kind::Reflection:
    case Kind::TurnFinished: // turnFinished() carries the outcome
        break;
    }
}

void ChatView::beginTurn(const QString &userText, int traceNode)
{
    if (m_live)
        flushDeltas();
    const int historySize = m_agent ? int(m_agent->history().size()) : 0;
    dropReplacedTurns(historySize);

    const int turn = ++m_turnSerial;
    m_turns.append({turn, historySize, historySize});
    m_live = LiveTurn{};
    m_live->turn = turn;
    m_live->traceNode = traceNode;
    m_activityLabel->setText(tr("Waiting for the model…"));
    addMessage(MessageWidget::Role::User, userText, traceNode);
    // Whoever sends wants to see the answer come in.
    scrollToBottom();
    updateActions();
    updateActivity();
}

void ChatView::flushDeltas()
{
    m_flushTimer->stop();
    if (!m_live || m_live->pendingDelta.isEmpty())
        return;
    if (!m_live->streaming) {
        m_live->streaming = addMessage(MessageWidget::Role::Assistant, {}, m_live->pendingNode);
        m_live->streamingNode = m_live->pendingNode;
        m_live->streamedText.clear();
    }
    m_live->streamedText += std::exchange(m_live->pendingDelta, {});
    m_live->streaming->setText(m_live->streamedText);
    ++m_streamRenderCount;
    updateActivity();
}

void ChatView::finishAnswer(const AgentEvent &event)
{
    flushDeltas();
    MessageWidget *answer
        = m_live->streaming && m_live->streamingNode == event.traceNode ? m_live->streaming.data() : nullptr;
    m_live->streaming = nullptr;
    // The response is what the model said; the stream only previewed it.
    if (!event.text.isEmpty()) {
        if (answer)
            answer->setText(event.text);
        else
            answer = addMessage(MessageWidget::Role::Assistant, event.text, event.traceNode);
    }
    if (answer)
        m_live->lastAnswer = answer;
    updateActivity();
}

void ChatView::applyToolResult(const AgentEvent &event)
{
    ToolCallCard *card = toolCallCard(event.toolCall.id);
    if (!card)
        card = addToolCard(event.toolCall, event.traceNode);
    card->setTraceNode(event.traceNode);
    card->setCall(event.toolCall); // the arguments that ran, if the user edited them
    const auto *result = event.payloadAs<ToolResultInfo>();
    card->setResult(event.text,
                    cardStatus(result ? traceStatusName(result->status) : QString(), event.isError));
}

void ChatView::onMessageAppended(const Message &message)
{
    if (!m_live)
        return;
    if (TurnSpan *turn = span(m_live->turn); turn && m_agent)
        turn->historyEnd = int(m_agent->history().size());

    switch (message.role) {
    case Message::Role::Assistant:
        // Calls the loop does not run (a handoff, a budget) have no events:
        // the history is where they show up.
        for (const ToolCall &call : message.toolCalls) {
            if (!toolCallCard(call.id))
                addToolCard(call, -1);
        }
        break;
    case Message::Role::Tool: {
        ToolCallCard *card = toolCallCard(message.toolCallId);
        if (!card || card->hasResult())
            break;
        const int node = findToolCallNode(m_live->traceNode, message.toolCallId);
        QString status;
        if (node >= 0) {
            card->setTraceNode(node);
            status = traceStatusName(m_trace->node(node).status);
        }
        card->setResult(message.text, cardStatus(status, message.isError));
        break;
    }
    case Message::Role::User:
    case Message::Role::System: break;
    }
}

void ChatView::onTurnFinished(const TurnResult &result)
{
    if (!m_live)
        return;
    flushDeltas();
    m_live->streaming = nullptr;
    if (result.isAnswer() && !m_live->lastAnswer && !result.text.isEmpty())
        m_live->lastAnswer = addMessage(MessageWidget::Role::Assistant, result.text, result.traceNode);
    addTurnEndNotice(result);

    // Whatever still waits for a decision belongs to the ended turn.
    for (ChatItem *item : std::as_const(m_items)) {
        if (item->turn() != m_live->turn || item->kind() != ChatItem::Kind::ToolCall)
            continue;
        auto *card = static_cast<ToolCallCard *>(item);
        card->closeApproval(std::nullopt);
        if (!card->hasResult())
            card->setResult(tr("The turn ended before the tool finished."), ToolCallCard::Status::Cancelled);
    }
    if (TurnSpan *turn = span(m_live->turn); turn && m_agent)
        turn->historyEnd = int(m_agent->history().size());
    m_live.reset();
    updateActions();
    updateActivity();
}

void ChatView::addTurnEndNotice(const TurnResult &result)
{
    using Severity = NoticeCard::Severity;
    const int errorNode = m_live->errorNode >= 0 ? m_live->errorNode : result.traceNode;
    switch (result.outcome) {
    case TurnOutcome::Answered:
    case TurnOutcome::Reflected:
    case TurnOutcome::Summarised: break;
    case TurnOutcome::Fallback:
        addNotice(result.limitReached ? Severity::Limit : Severity::Error,
                  result.error.isEmpty() ? result.text : result.error, errorNode, true);
        break;
    case TurnOutcome::HandedOff:
        addNotice(Severity::Info, result.text,
                  m_live->handoffNode >= 0 ? m_live->handoffNode : result.traceNode, false);
        break;
    case TurnOutcome::Blocked:
        // A blocked question would be blocked again; a blocked answer may come out differently.
        addNotice(Severity::Blocked, result.error,
                  m_live->blockedNode >= 0 ? m_live->blockedNode : result.traceNode, m_live->outputBlocked);
        break;
    case TurnOutcome::ErrorLimit:
    case TurnOutcome::TokenBudget: addNotice(Severity::Limit, result.error, errorNode, true); break;
    case TurnOutcome::Cancelled:
        addNotice(Severity::Cancelled, tr("You stopped the turn before it finished."), result.traceNode,
                  true);
        break;
    case TurnOutcome::Failed: addNotice(Severity::Error, result.error, errorNode, true); break;
    }
}

// ---------------------------------------------------------------------------
// Approvals

void ChatView::onApprovalRequested(const ToolApprovalPolicy::Request &request)
{
    ToolCallCard *card = toolCallCard(request.callId);
    if (!card)
        card = addToolCard(request.checkpoint.call, request.checkpoint.traceNode);
    ApprovalCard *form = card->showApproval(request.checkpoint.schema.parameters);
    const QString callId = request.callId;
    connect(form, &ApprovalCard::allowOnceRequested, form,
            [this, callId](const std::optional<QString> &arguments) {
                decide(callId, Decision::AllowOnce, arguments);
            });
    connect(form, &ApprovalCard::alwaysAllowRequested, form,
            [this, callId](const std::optional<QString> &arguments) {
                decide(callId, Decision::AlwaysAllow, arguments);
            });
    connect(form, &ApprovalCard::denyRequested, form, [this, callId] { decide(callId, Decision::Deny); });
}

void ChatView::decide(const QString &callId, Decision decision, const std::optional<QString> &arguments)
{
    bool waiting = false;
    if (m_policy) {
        switch (decision) {
        case Decision::AllowOnce: waiting = m_policy->allowOnce(callId, arguments); break;
        case Decision::AlwaysAllow: waiting = m_policy->alwaysAllow(callId, arguments); break;
        case Decision::Deny: waiting = m_policy->deny(callId); break;
        }
    }
    if (!waiting) { // decided elsewhere, or the turn is over
        if (ToolCallCard *card = toolCallCard(callId))
            card->closeApproval(std::nullopt);
    }
}

void ChatView::onApprovalSettled(const QString &callId, bool allowed)
{
    if (ToolCallCard *card = toolCallCard(callId))
        card->closeApproval(allowed);
}

// ---------------------------------------------------------------------------
// History

void ChatView::showHistory(const QList<Message> &history)
{
    clear();
    // The last TurnsPerPage turns: from the question that starts the first of them.
    qsizetype from = history.size();
    for (int turns = 0; from > 0 && turns < TurnsPerPage;) {
        if (history.at(--from).role == Message::Role::User)
            ++turns;
    }
    // Whatever precedes the first question belongs with it.
    if (std::none_of(history.cbegin(), history.cbegin() + from,
                     [](const Message &message) { return message.role == Message::Role::User; }))
        from = 0;
    m_earlierHistory = history.first(from);
    addHistoryItems(history, from, history.size());
    updateEarlierButton();
    mapItemsToTrace();
    updateActions();
    scrollToBottom();
}

int ChatView::earlierTurnCount() const
{
    return int(std::count_if(m_earlierHistory.cbegin(), m_earlierHistory.cend(),
                             [](const Message &message) { return message.role == Message::Role::User; }));
}

void ChatView::showEarlierTurns(int count)
{
    if (m_earlierHistory.isEmpty() || count < 1)
        return;
    qsizetype from = m_earlierHistory.size();
    for (int turns = 0; from > 0 && turns < count;) {
        if (m_earlierHistory.at(--from).role == Message::Role::User)
            ++turns;
    }
    if (std::none_of(m_earlierHistory.cbegin(), m_earlierHistory.cbegin() + from,
                     [](const Message &message) { return message.role == Message::Role::User; }))
        from = 0;

    // The new items go before the shown ones: build them on their own, then join the lists.
    ChatItem *formerFirst = m_items.value(0);
    const QList<ChatItem *> later = std::exchange(m_items, {});
    const QList<TurnSpan> laterTurns = std::exchange(m_turns, {});
    addHistoryItems(m_earlierHistory, from, m_earlierHistory.size());
    m_items += later;
    m_turns += laterTurns;
    m_earlierHistory.resize(from);
    updateEarlierButton();
    mapItemsToTrace();
    updateActions();

    // What the user was looking at stays where it was on the screen.
    if (formerFirst) {
        m_followBottom = false;
        const int offset = formerFirst->y() - verticalScrollBar()->value();
        m_content->layout()->activate();
        verticalScrollBar()->setValue(formerFirst->y() - offset);
    }
}

void ChatView::updateEarlierButton()
{
    const int turns = earlierTurnCount();
    m_earlierButton->setVisible(!m_earlierHistory.isEmpty());
    m_earlierButton->setText(turns > 0
                                 ? tr("Show %n earlier turn(s)", nullptr, std::min(turns, TurnsPerPage))
                                       + (turns > TurnsPerPage ? tr(" (%1 in all)").arg(turns) : QString())
                                 : tr("Show earlier messages"));
}

// Messages [from, to) of \a history, whose indexes the turns keep.
void ChatView::addHistoryItems(const QList<Message> &history, qsizetype from, qsizetype to)
{
    const qsizetype firstItem = m_items.size();
    TurnSpan *turn = nullptr;
    for (qsizetype i = from; i < to; ++i) {
        const Message &message = history.at(i);
        if (message.role == Message::Role::System)
            continue;
        if (message.role == Message::Role::User || !turn) {
            m_turns.append({++m_turnSerial, int(i), int(i)});
            turn = &m_turns.last();
        }
        turn->historyEnd = int(i) + 1;
        switch (message.role) {
        case Message::Role::User: addMessage(MessageWidget::Role::User, message.text, -1); break;
        case Message::Role::Assistant:
            if (!message.text.isEmpty())
                addMessage(MessageWidget::Role::Assistant, message.text, -1);
            for (const ToolCall &call : message.toolCalls)
                addToolCard(call, -1);
            break;
        case Message::Role::Tool: {
            ToolCallCard *card = toolCallCard(message.toolCallId);
            if (!card)
                card = addToolCard({message.toolCallId, message.toolName, {}, {}}, -1);
            card->setResult(message.text,
                            message.isError ? ToolCallCard::Status::Failed : ToolCallCard::Status::Succeeded);
            break;
        }
        case Message::Role::System: break;
        }
    }
    for (qsizetype i = firstItem; i < m_items.size(); ++i) {
        ChatItem *item = m_items.at(i);
        if (item->kind() == ChatItem::Kind::ToolCall && !static_cast<ToolCallCard *>(item)->hasResult())
            static_cast<ToolCallCard *>(item)->setResult(tr("No result was recorded for this call."),
                                                         ToolCallCard::Status::Skipped);
    }
}

void ChatView::clear()
{
    m_flushTimer->stop();
    m_live.reset();
    m_turns.clear();
    m_earlierHistory.clear();
    updateEarlierButton();
    selectItem(nullptr);
    const QList<ChatItem *> items = std::exchange(m_items, {});
    for (ChatItem *item : items) {
        m_layout->removeWidget(item);
        item->hide();
        item->deleteLater(); // it may be the one whose signal led here
    }
    m_followBottom = true;
    updateEmptyHint();
    updateActivity();
}

// Best effort for a reopened conversation: a turn by its question, an answer
// by its text, a tool call by its id.
void ChatView::mapItemsToTrace()
{
    if (!m_trace)
        return;
    const QList<int> &roots = m_trace->roots();
    // Each question has a turn of its own, in order; a turn may have no
    // question (blocked, replaced), so the hidden questions' count is where the
    // shown ones' turns begin at the earliest.
    int nextRoot = earlierTurnCount();
    int turnNode = -1;
    QList<int> usedCalls;
    for (ChatItem *item : std::as_const(m_items)) {
        switch (item->kind()) {
        case ChatItem::Kind::UserMessage: {
            const QString text = static_cast<MessageWidget *>(item)->text();
            turnNode = -1;
            for (int r = nextRoot; r < roots.size(); ++r) {
                const auto *data = std::get_if<TurnData>(&m_trace->node(roots.at(r)).payload);
                if (data && data->input == text) {
                    turnNode = roots.at(r);
                    nextRoot = r + 1;
                    break;
                }
            }
            item->setTraceNode(turnNode);
            break;
        }
        case ChatItem::Kind::AssistantMessage: {
            const QString text = static_cast<MessageWidget *>(item)->text();
            const int node = findInSubtree(*m_trace, turnNode, [&](const TraceNode &n) {
                if (usedCalls.contains(n.id))
                    return false;
                if (const auto *call = std::get_if<ModelCallData>(&n.payload))
                    return call->response.text == text;
                if (const auto *summary = std::get_if<TextData>(&n.payload))
                    return n.kind == TraceKind::Summary && summary->text == text;
                return false;
            });
            if (node >= 0)
                usedCalls.append(node);
            item->setTraceNode(node);
            break;
        }
        case ChatItem::Kind::ToolCall:
            item->setTraceNode(findToolCallNode(turnNode, static_cast<ToolCallCard *>(item)->callId()));
            break;
        case ChatItem::Kind::Notice: break;
        }
    }
}

void ChatView::onTraceReset()
{
    for (ChatItem *item : std::as_const(m_items))
        item->setTraceNode(-1);
    if (!m_live)
        mapItemsToTrace();
}

int ChatView::findToolCallNode(int turnNode, const QString &callId) const
{
    if (!m_trace || turnNode < 0)
        return -1;
    return findInSubtree(*m_trace, turnNode, [&callId](const TraceNode &node) {
        const auto *data = std::get_if<ToolCallData>(&node.payload);
        return data && data->call.id == callId;
    });
}

// ---------------------------------------------------------------------------
// Items

MessageWidget *ChatView::addMessage(MessageWidget::Role role, const QString &text, int traceNode)
{
    auto *message = new MessageWidget(role, m_content);
    message->setTraceNode(traceNode);
    message->setText(text);
    connect(message, &MessageWidget::editRequested, this, &ChatView::editLastRequested);
    connect(message, &MessageWidget::regenerateRequested, this, &ChatView::regenerateRequested);
    appendItem(message);
    return message;
}

ToolCallCard *ChatView::addToolCard(const ToolCall &call, int traceNode)
{
    auto *card = new ToolCallCard(call, m_content);
    card->setTraceNode(traceNode);
    appendItem(card);
    return card;
}

NoticeCard *ChatView::addNotice(NoticeCard::Severity severity, const QString &message, int traceNode,
                                bool retryable)
{
    auto *notice = new NoticeCard(severity, message, retryable, m_content);
    notice->setTraceNode(traceNode);
    connect(notice, &NoticeCard::retryRequested, this, &ChatView::retryRequested);
    appendItem(notice);
    return notice;
}

void ChatView::appendItem(ChatItem *item)
{
    item->setTurn(m_live ? m_live->turn : (m_turns.isEmpty() ? -1 : m_turns.last().id));
    connect(item, &ChatItem::activated, this, [this, item] {
        selectItem(item);
        if (item->traceNode() >= 0)
            emit traceNodeSelected(item->traceNode());
    });
    m_layout->insertWidget(int(m_items.size()) + 1, item); // after m_earlierButton
    m_items.append(item);
    updateEmptyHint();
}

void ChatView::removeTurn(int turn)
{
    for (qsizetype i = m_items.size() - 1; i >= 0; --i) {
        ChatItem *item = m_items.at(i);
        if (item->turn() != turn)
            continue;
        if (item == m_selected)
            selectItem(nullptr);
        m_items.removeAt(i);
        m_layout->removeWidget(item);
        item->hide();
        item->deleteLater(); // it may be the one whose button led here
    }
    m_turns.removeIf([turn](const TurnSpan &span) { return span.id == turn; });
}

// A turn that starts at or before where earlier turns started asks again:
// those turns were taken out of the history and leave the view too. A turn
// that added nothing to the history (a blocked question) stays where it was.
void ChatView::dropReplacedTurns(int historySize)
{
    QList<int> replaced;
    for (const TurnSpan &turn : std::as_const(m_turns)) {
        if (turn.historyStart > historySize
            || (turn.historyStart == historySize && turn.historyEnd > turn.historyStart))
            replaced.append(turn.id);
    }
    for (int turn : std::as_const(replaced))
        removeTurn(turn);
    updateEmptyHint();
}

ChatView::TurnSpan *ChatView::span(int turn)
{
    for (TurnSpan &span : m_turns) {
        if (span.id == turn)
            return &span;
    }
    return nullptr;
}

ChatItem *ChatView::item(int index) const
{
    return index >= 0 && index < m_items.size() ? m_items.at(index) : nullptr;
}

QString ChatView::itemText(int index) const
{
    const ChatItem *chatItem = item(index);
    return chatItem ? chatItem->plainText() : QString();
}

int ChatView::indexOf(const ChatItem *chatItem) const
{
    return int(m_items.indexOf(chatItem));
}

int ChatView::selectedIndex() const
{
    return m_selected ? indexOf(m_selected) : -1;
}

ToolCallCard *ChatView::toolCallCard(const QString &callId) const
{
    if (callId.isEmpty())
        return nullptr;
    for (auto it = m_items.crbegin(); it != m_items.crend(); ++it) {
        if ((*it)->kind() == ChatItem::Kind::ToolCall && static_cast<ToolCallCard *>(*it)->callId() == callId)
            return static_cast<ToolCallCard *>(*it);
    }
    return nullptr;
}

bool ChatView::isEmptyHintVisible() const
{
    return !m_emptyHint->isHidden();
}

bool ChatView::isActivityVisible() const
{
    return !m_activity->isHidden();
}

// ---------------------------------------------------------------------------
// Selection

ChatItem *ChatView::itemForTraceNode(int nodeId) const
{
    if (nodeId < 0)
        return nullptr;
    QHash<int, ChatItem *> byNode;
    for (ChatItem *chatItem : m_items) {
        if (chatItem->traceNode() >= 0 && !byNode.contains(chatItem->traceNode()))
            byNode.insert(chatItem->traceNode(), chatItem);
    }
    if (ChatItem *exact = byNode.value(nodeId))
        return exact;
    if (!m_trace || !m_trace->isValid(nodeId))
        return nullptr;

    // The closest descendant first (an iteration shows as its answer or its
    // tool calls), then the closest ancestor (a retry shows as its answer).
    QQueue<int> queue;
    queue.append(m_trace->node(nodeId).children);
    while (!queue.isEmpty()) {
        const int node = queue.dequeue();
        if (ChatItem *found = byNode.value(node))
            return found;
        queue.append(m_trace->node(node).children);
    }
    for (int node = m_trace->node(nodeId).parent; node >= 0; node = m_trace->node(node).parent) {
        if (ChatItem *found = byNode.value(node))
            return found;
    }
    return nullptr;
}

void ChatView::selectTraceNode(int nodeId)
{
    ChatItem *chatItem = itemForTraceNode(nodeId);
    selectItem(chatItem);
    if (chatItem)
        ensureWidgetVisible(chatItem, 0, chatSpacing(this));
}

void ChatView::selectItem(ChatItem *chatItem)
{
    if (m_selected == chatItem)
        return;
    if (m_selected)
        m_selected->setSelected(false);
    m_selected = chatItem;
    if (chatItem)
        chatItem->setSelected(true);
}

// ---------------------------------------------------------------------------
// State of the controls

bool ChatView::isBusy() const
{
    return m_live.has_value() || (m_agent && m_agent->isRunning());
}

// Edit, Regenerate and Retry act on the latest turn, and only between turns.
void ChatView::updateActions()
{
    const bool busy = isBusy();
    const int lastTurn = m_turns.isEmpty() ? -1 : m_turns.last().id;
    ChatItem *lastUser = nullptr;
    for (ChatItem *chatItem : std::as_const(m_items)) {
        if (chatItem->kind() == ChatItem::Kind::UserMessage)
            lastUser = chatItem;
    }
    // A question a shield blocked never entered the history: editing "the
    // last question" would replace the one before it.
    if (const TurnSpan *turn = lastUser ? span(lastUser->turn()) : nullptr;
        turn && turn->historyEnd == turn->historyStart)
        lastUser = nullptr;
    // Regenerate belongs to a turn that ended with an answer; one that ended
    // with a notice offers Retry instead.
    ChatItem *lastAnswer = m_items.isEmpty() ? nullptr : m_items.last();
    if (lastAnswer
        && (lastAnswer->kind() != ChatItem::Kind::AssistantMessage || lastAnswer->turn() != lastTurn))
        lastAnswer = nullptr;
    for (ChatItem *chatItem : std::as_const(m_items)) {
        switch (chatItem->kind()) {
        case ChatItem::Kind::UserMessage:
        case ChatItem::Kind::AssistantMessage:
            static_cast<MessageWidget *>(chatItem)->setLastActionAvailable(
                !busy && (chatItem == lastUser || chatItem == lastAnswer));
            break;
        case ChatItem::Kind::Notice:
            static_cast<NoticeCard *>(chatItem)->setRetryAvailable(!busy && chatItem->turn() == lastTurn);
            break;
        case ChatItem::Kind::ToolCall: break;
        }
    }
}

void ChatView::updateActivity()
{
    const bool waiting = m_live && !m_live->streaming && m_live->pendingDelta.isEmpty() && m_agent
                         && m_agent->state() == Agent::State::WaitingForModel;
    m_activity->setVisible(waiting);
}

void ChatView::updateEmptyHint()
{
    m_emptyHint->setVisible(m_items.isEmpty());
}

// ---------------------------------------------------------------------------
// Keeping to the bottom

void ChatView::onScrollRangeChanged(int minimum, int maximum)
{
    Q_UNUSED(minimum);
    if (m_followBottom)
        verticalScrollBar()->setValue(maximum);
}

void ChatView::onScrollValueChanged(int value)
{
    // Within a quarter line of the end counts as the end.
    m_followBottom = value >= verticalScrollBar()->maximum() - fontMetrics().height() / 4;
}

void ChatView::scrollToBottom()
{
    m_followBottom = true;
    verticalScrollBar()->setValue(verticalScrollBar()->maximum());
}

} // namespace Loopscope::Ui
