#include "ui/chat/chatview.h"

#include "ui/chat/approvalcard.h"
#include "ui/chat/chatitem.h"
#include "ui/chat/chatsurface.h"
#include "ui/chat/elicitationcard.h"
#include "ui/chat/samplingcard.h"
#include "ui/chat/toolcallcard.h"

#include "agent/mcp/mcphub.h"
#include "agent/session/conversationrows.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

namespace Loopscope::Ui {

namespace {

// Streamed text reaches the screen at most once per frame.
constexpr int StreamBatchMs = 16;

ToolCallCard::Status cardStatus(ConversationRow::ToolState state)
{
    using State = ConversationRow::ToolState;
    switch (state) {
    case State::Running: return ToolCallCard::Status::Running;
    case State::Held: return ToolCallCard::Status::Held;
    case State::Succeeded: return ToolCallCard::Status::Succeeded;
    case State::Failed: return ToolCallCard::Status::Failed;
    case State::Denied: return ToolCallCard::Status::Denied;
    case State::Blocked: return ToolCallCard::Status::Blocked;
    case State::Skipped: return ToolCallCard::Status::Skipped;
    case State::Cancelled: return ToolCallCard::Status::Cancelled;
    }
    return ToolCallCard::Status::Failed;
}

NoticeCard::Severity noticeSeverity(ConversationRow::Notice notice)
{
    using Notice = ConversationRow::Notice;
    switch (notice) {
    case Notice::Error: return NoticeCard::Severity::Error;
    case Notice::Limit: return NoticeCard::Severity::Limit;
    case Notice::Cancelled: return NoticeCard::Severity::Cancelled;
    case Notice::Blocked: return NoticeCard::Severity::Blocked;
    case Notice::Info: return NoticeCard::Severity::Info;
    case Notice::Retry: return NoticeCard::Severity::Retrying;
    case Notice::Recovered: return NoticeCard::Severity::Recovered;
    case Notice::RetriesFailed: return NoticeCard::Severity::RetriesFailed;
    case Notice::ContextFull: return NoticeCard::Severity::ContextFull;
    case Notice::Compacted: return NoticeCard::Severity::Compacted;
    }
    return NoticeCard::Severity::Error;
}

} // namespace

ChatView::ChatView(QWidget *parent)
    : QScrollArea(parent)
    , m_noRows(new ConversationRows(this))
    , m_rows(nullptr)
    , m_content(new QWidget)
    , m_layout(new QVBoxLayout(m_content))
    , m_earlierButton(new QPushButton(m_content))
    , m_activity(new QWidget(m_content))
    , m_activityLabel(new QLabel(m_activity))
    , m_emptyHint(new QLabel(m_content))
    , m_flushTimer(new QTimer(this))
    , m_followTimer(new QTimer(this))
{
    setAccessibleName(tr("Conversation"));
    setFocusPolicy(Qt::StrongFocus);
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
    // The button first, then the items (see insertItems()), then the rest.
    m_layout->addWidget(m_earlierButton, 0, Qt::AlignHCenter);
    m_layout->addWidget(m_activity);
    // Empty, the hint takes the room and sits in the middle; else the stretch
    // below the items keeps them at the top.
    m_layout->addWidget(m_emptyHint, 1);
    m_layout->addStretch(0);
    setWidget(m_content);
    m_content->setAttribute(Qt::WA_StaticContents);
    // On a wide window the lines stay readable: the conversation keeps a
    // column of about 110 characters in the middle.
    m_content->setMaximumWidth(fontMetrics().averageCharWidth() * 110 + 2 * margin);
    setAlignment(Qt::AlignHCenter | Qt::AlignTop);

    m_followTimer->setSingleShot(true);
    m_followTimer->setInterval(0);
    connect(m_followTimer, &QTimer::timeout, this, &ChatView::followToTheEnd);
    m_flushTimer->setSingleShot(true);
    m_flushTimer->setInterval(StreamBatchMs);
    connect(m_flushTimer, &QTimer::timeout, this, &ChatView::flushStream);

    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, &ChatView::onScrollRangeChanged);
    connect(verticalScrollBar(), &QScrollBar::valueChanged, this, &ChatView::onScrollValueChanged);
    setModel(nullptr);
}

ChatView::~ChatView() = default;

// ---------------------------------------------------------------------------
// Sources

void ChatView::setModel(ConversationRows *model)
{
    ConversationRows *rows = model ? model : m_noRows;
    if (rows == m_rows)
        return;
    if (m_rows)
        disconnect(m_rows, nullptr, this, nullptr);
    m_rows = rows;
    connect(rows, &QAbstractItemModel::rowsInserted, this, &ChatView::onRowsInserted);
    connect(rows, &QAbstractItemModel::rowsRemoved, this, &ChatView::onRowsRemoved);
    connect(rows, &QAbstractItemModel::dataChanged, this, &ChatView::onDataChanged);
    connect(rows, &QAbstractItemModel::modelReset, this, &ChatView::onModelReset);
    connect(rows, &ConversationRows::turnStarted, this, &ChatView::onTurnStarted);
    connect(rows, &ConversationRows::turnEnded, this, &ChatView::onTurnEnded);
    connect(rows, &ConversationRows::attemptFailed, this, &ChatView::onAttemptFailed);
    if (rows != m_noRows)
        connect(rows, &QObject::destroyed, this, [this] { setModel(nullptr); });
    onModelReset();
}

ConversationRows *ChatView::model() const
{
    return m_rows == m_noRows ? nullptr : m_rows;
}

void ChatView::follow(Agent *agent)
{
    if (m_agent)
        disconnect(m_agent, nullptr, this, nullptr);
    m_agent = agent;
    if (agent) {
        connect(agent, &Agent::stateChanged, this, [this](Agent::State state) {
            if (state == Agent::State::WaitingForModel)
                m_activityLabel->setText(tr("Waiting for the model…"));
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

void ChatView::setReadOnly(bool readOnly)
{
    if (m_readOnly == readOnly)
        return;
    m_readOnly = readOnly;
    updateActions();
}

void ChatView::setEmptyText(const QString &text)
{
    m_emptyHint->setText(text);
}

QString ChatView::emptyText() const
{
    return m_emptyHint->text();
}

int ChatView::earlierTurnCount() const
{
    return m_rows->earlierTurnCount();
}

void ChatView::showEarlierTurns(int count)
{
    m_rows->showEarlierTurns(count);
    updateEarlierButton();
}

// ---------------------------------------------------------------------------
// Keeping the items in step with the rows

void ChatView::onRowsInserted(const QModelIndex &parent, int first, int last)
{
    if (!parent.isValid())
        insertItems(first, last - first + 1);
}

void ChatView::insertItems(int first, int count)
{
    // Rows that come before the shown ones (earlier turns) leave what the
    // user was looking at where it was on the screen.
    ChatItem *formerFirst = first == 0 && !m_items.isEmpty() ? m_items.first() : nullptr;
    const int formerOffset = formerFirst ? formerFirst->y() - verticalScrollBar()->value() : 0;
    for (int i = first; i < first + count; ++i) {
        ChatItem *item = createItem(m_rows->at(i));
        m_layout->insertWidget(i + 1, item); // after m_earlierButton
        m_items.insert(i, item);
    }
    updateEarlierButton();
    updateEmptyHint();
    updateActions();
    updateActivity();
    if (formerFirst) {
        m_followBottom = false;
        m_content->layout()->activate();
        verticalScrollBar()->setValue(formerFirst->y() - formerOffset);
    }
}

void ChatView::onRowsRemoved(const QModelIndex &parent, int first, int last)
{
    if (parent.isValid())
        return;
    removeItems(first, last - first + 1);
    updateEmptyHint();
    updateActions();
}

// A streamed answer changes its row once per delta: that only marks the item
// for the next batched render.
void ChatView::onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight)
{
    if (topLeft.parent().isValid())
        return;
    for (int row = topLeft.row(); row <= bottomRight.row(); ++row)
        onRowChanged(row);
}

void ChatView::onRowChanged(int index)
{
    ChatItem *item = m_items.value(index);
    if (!item)
        return;
    const ConversationRow &row = m_rows->at(index);
    if (row.streaming) {
        m_pendingStream = item;
        if (!m_flushTimer->isActive())
            m_flushTimer->start();
        return;
    }
    if (m_pendingStream == item) {
        // The stream's last words and the final text count as one render.
        m_flushTimer->stop();
        m_pendingStream = nullptr;
        ++m_streamRenderCount;
    }
    render(item, row);
    updateActions();
    updateActivity();
}

void ChatView::onModelReset()
{
    m_flushTimer->stop();
    m_pendingStream = nullptr;
    selectItem(nullptr);
    removeItems(0, int(m_items.size()));
    removeFinishedElicitations(true);
    m_followBottom = true;
    insertItems(0, m_rows->size());
    scrollToBottom();
}

void ChatView::onTurnStarted()
{
    flushStream();
    removeFinishedElicitations(false);
    m_activityLabel->setText(tr("Waiting for the model…"));
    // Whoever sends wants to see the answer come in.
    scrollToBottom();
    updateActions();
    updateActivity();
}

void ChatView::onTurnEnded(int turn)
{
    flushStream();
    // Whatever still waits for a decision belongs to the ended turn.
    for (ChatItem *item : std::as_const(m_items)) {
        if (item->turn() == turn && item->kind() == ChatItem::Kind::ToolCall)
            static_cast<ToolCallCard *>(item)->closeApproval(std::nullopt);
    }
    updateActions();
    updateActivity();
}

void ChatView::onAttemptFailed(int attempt, const QString &reason)
{
    Q_UNUSED(reason) // the notice row in the chat says it in full
    m_activityLabel->setText(tr("Attempt %1 failed; trying again…").arg(attempt));
}

void ChatView::flushStream()
{
    m_flushTimer->stop();
    ChatItem *item = std::exchange(m_pendingStream, nullptr);
    const int index = item ? indexOf(item) : -1;
    if (index < 0)
        return;
    render(item, m_rows->at(index));
    ++m_streamRenderCount;
    updateActivity();
}

ChatItem *ChatView::createItem(const ConversationRow &row)
{
    ChatItem *item = nullptr;
    switch (row.kind) {
    case ConversationRow::Kind::User:
    case ConversationRow::Kind::Assistant: {
        auto *message
            = new MessageWidget(row.kind == ConversationRow::Kind::User ? MessageWidget::Role::User
                                                                        : MessageWidget::Role::Assistant,
                                m_content);
        // Streamed text shows with the next batch.
        message->setText(row.streaming ? QString() : row.text);
        connect(message, &MessageWidget::editRequested, this, &ChatView::editLastRequested);
        connect(message, &MessageWidget::regenerateRequested, this, &ChatView::regenerateRequested);
        item = message;
        break;
    }
    case ConversationRow::Kind::ToolCall: {
        auto *card = new ToolCallCard(row.toolCall, m_content);
        card->setAgent(row.agent);
        item = card;
        break;
    }
    case ConversationRow::Kind::Notice: {
        auto *notice = new NoticeCard(noticeSeverity(row.notice), row.text, row.retryable, m_content);
        connect(notice, &NoticeCard::retryRequested, this, &ChatView::retryRequested);
        item = notice;
        break;
    }
    }
    connect(item, &ChatItem::activated, this, [this, item] {
        selectItem(item);
        if (item->traceNode() >= 0)
            emit traceNodeSelected(item->traceNode());
    });
    // Tab reaching a button of an item (from where the window's Tab order keeps them) stops at the
    // view instead; an approval form's buttons stay stops of their own.
    connect(item, &ChatItem::tabbedInto, this, [this](QWidget *widget) {
        if (!tabStopsInside().contains(widget))
            setFocus(Qt::TabFocusReason);
    });
    if (row.streaming) {
        item->setTraceNode(row.traceNode);
        item->setTurn(row.turn);
        m_pendingStream = item;
        if (!m_flushTimer->isActive())
            m_flushTimer->start();
    } else {
        render(item, row);
    }
    return item;
}

void ChatView::render(ChatItem *item, const ConversationRow &row)
{
    item->setTraceNode(row.traceNode);
    item->setTurn(row.turn);
    item->setReplaced(row.replaced);
    switch (row.kind) {
    case ConversationRow::Kind::User:
    case ConversationRow::Kind::Assistant: {
        auto *message = static_cast<MessageWidget *>(item);
        if (message->text() != row.text)
            message->setText(row.text);
        message->setSources(row.sources);
        message->setAgent(row.agent);
        if (message->attachments() != row.attachments)
            message->setAttachments(row.attachments);
        break;
    }
    case ConversationRow::Kind::ToolCall: {
        auto *card = static_cast<ToolCallCard *>(item);
        if (card->call() != row.toolCall)
            card->setCall(row.toolCall);
        for (qsizetype i = card->progress().size(); i < row.progress.size(); ++i)
            card->addProgress(row.progress.at(i));
        const ToolCallCard::Status status = cardStatus(row.toolState);
        if (row.hasResult() && (!card->hasResult() || card->result() != row.text || card->status() != status))
            card->setResult(row.text, status);
        else if (!row.hasResult())
            card->setHeld(row.toolState == ConversationRow::ToolState::Held);
        break;
    }
    case ConversationRow::Kind::Notice: {
        // A retry's notice changes once the retried call answers or gives up.
        auto *notice = static_cast<NoticeCard *>(item);
        if (notice->severity() != noticeSeverity(row.notice) || notice->message() != row.text)
            notice->setNotice(noticeSeverity(row.notice), row.text);
        break;
    }
    }
}

void ChatView::removeItems(int first, int count)
{
    const QList<ChatItem *> removed = m_items.mid(first, count);
    m_items.remove(first, count);
    for (ChatItem *item : removed) {
        if (item == m_selected)
            selectItem(nullptr);
        m_layout->removeWidget(item);
        item->hide();
        item->deleteLater(); // it may be the one whose button led here
    }
}

void ChatView::updateEarlierButton()
{
    const int turns = m_rows->earlierTurnCount();
    m_earlierButton->setVisible(m_rows->hasEarlierMessages());
    m_earlierButton->setText(turns > 0
                                 ? tr("Show %n earlier turn(s)", nullptr, std::min(turns, TurnsPerPage))
                                       + (turns > TurnsPerPage ? tr(" (%1 in all)").arg(turns) : QString())
                                 : tr("Show earlier messages"));
}

// ---------------------------------------------------------------------------
// Approvals

void ChatView::setMcpHub(McpHub *hub)
{
    m_mcpHub = hub;
}

void ChatView::onApprovalRequested(const ToolApprovalPolicy::Request &request)
{
    ToolCallCard *card = toolCallCard(request.callId);
    if (!card)
        return; // a call of a turn this view does not show
    ApprovalCard *form = card->showApproval(request.checkpoint.schema.parameters,
                                            m_policy ? m_policy->workspace() : Workspace());
    if (m_mcpHub) {
        if (const std::optional<McpHub::ToolRef> ref = m_mcpHub->resolve(request.checkpoint.call.name))
            form->setServerName(ref->server);
    }
    const QString callId = request.callId;
    // The trace keeps what the user saw when deciding.
    connect(form, &ApprovalCard::allowOnceRequested, form,
            [this, callId, form](const std::optional<QString> &arguments) {
                keepApprovalIfWaiting(
                    callId, m_policy && m_policy->allowOnce(callId, arguments, form->previewText()));
            });
    connect(form, &ApprovalCard::alwaysAllowRequested, form,
            [this, callId, form](const ApprovalScope &scope, const std::optional<QString> &arguments) {
                keepApprovalIfWaiting(
                    callId, m_policy && m_policy->alwaysAllow(callId, scope, arguments, form->previewText()));
            });
    connect(form, &ApprovalCard::denyRequested, form, [this, callId, form] {
        keepApprovalIfWaiting(callId, m_policy && m_policy->deny(callId, {}, form->previewText()));
    });
}

// The policy settles a call it held (approvalSettled closes its form); a call it no longer holds
// was decided elsewhere, or its turn is over, and the form has nothing left to decide.
void ChatView::keepApprovalIfWaiting(const QString &callId, bool waiting)
{
    if (waiting)
        return;
    if (ToolCallCard *card = toolCallCard(callId))
        card->closeApproval(std::nullopt);
}

// ---------------------------------------------------------------------------
// MCP elicitations

namespace {

// Takes the finished cards (all of them with \a all) out of \a layout and \a cards.
template<typename Card>
void removeFinishedCards(QHash<int, QPointer<Card>> &cards, QBoxLayout *layout, bool all)
{
    for (auto it = cards.begin(); it != cards.end();) {
        Card *card = it.value();
        if (card && !all && !card->isFinished()) {
            ++it;
            continue;
        }
        if (card) {
            layout->removeWidget(card);
            card->deleteLater();
        }
        it = cards.erase(it);
    }
}

} // namespace

void ChatView::insertCard(QWidget *card)
{
    m_layout->insertWidget(m_layout->indexOf(m_activity), card);
    card->show();
    updateEmptyHint();
    scrollToBottom();
}

void ChatView::showElicitation(int id, const McpElicitation &request)
{
    if (m_elicitations.value(id))
        return;
    auto *card = new ElicitationCard(request, m_content);
    card->setObjectName(QStringLiteral("elicitationCard_%1").arg(id));
    m_elicitations.insert(id, card);
    connect(card, &ElicitationCard::answered, this,
            [this, id](const McpElicitationAnswer &answer) { emit elicitationAnswered(id, answer); });
    insertCard(card);
}

void ChatView::settleElicitation(int id)
{
    ElicitationCard *card = m_elicitations.value(id);
    if (card && !card->isFinished())
        card->finish(tr("The server no longer waits for an answer."));
}

ElicitationCard *ChatView::elicitationCard(int id) const
{
    return m_elicitations.value(id);
}

void ChatView::showSampling(int id, const McpSamplingRequest &request, const QString &sessionModel)
{
    if (m_samplings.value(id))
        return;
    auto *card = new SamplingCard(request, sessionModel, m_content);
    card->setObjectName(QStringLiteral("samplingCard_%1").arg(id));
    m_samplings.insert(id, card);
    connect(card, &SamplingCard::decided, this,
            [this, id](const McpSamplingDecision &decision) { emit samplingDecided(id, decision); });
    insertCard(card);
}

void ChatView::settleSampling(int id)
{
    SamplingCard *card = m_samplings.value(id);
    if (card && !card->isFinished())
        card->finish(tr("The server no longer waits for the model call."));
}

SamplingCard *ChatView::samplingCard(int id) const
{
    return m_samplings.value(id);
}

void ChatView::removeFinishedElicitations(bool all)
{
    removeFinishedCards(m_elicitations, m_layout, all);
    removeFinishedCards(m_samplings, m_layout, all);
}

void ChatView::onApprovalSettled(const QString &callId, bool allowed)
{
    if (ToolCallCard *card = toolCallCard(callId))
        card->closeApproval(allowed);
}

// ---------------------------------------------------------------------------
// Items

ChatItem *ChatView::item(int index) const
{
    return m_items.value(index);
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
    const int index = m_rows->rowOfToolCall(callId);
    return index >= 0 ? static_cast<ToolCallCard *>(m_items.value(index)) : nullptr;
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
    return m_items.value(m_rows->rowOfTraceNode(nodeId));
}

void ChatView::selectTraceNode(int nodeId)
{
    const int index = m_rows->revealTraceNode(nodeId);
    updateEarlierButton();
    ChatItem *chatItem = m_items.value(index);
    selectItem(chatItem);
    if (chatItem)
        ensureWidgetVisible(chatItem, 0, chatSpacing(this));
}

void ChatView::activateItem(ChatItem *chatItem)
{
    if (!chatItem)
        return;
    selectItem(chatItem);
    ensureWidgetVisible(chatItem, 0, chatSpacing(this));
    if (chatItem->traceNode() >= 0)
        emit traceNodeSelected(chatItem->traceNode());
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
// The keyboard

namespace {

bool isTabStop(const QWidget *widget)
{
    return (widget->focusPolicy() & Qt::TabFocus) == Qt::TabFocus && widget->isEnabled()
           && widget->isVisibleTo(widget->window()) && !widget->focusProxy();
}

} // namespace

QList<QWidget *> ChatView::tabStopsInside() const
{
    QList<QWidget *> forms;
    for (ChatItem *chatItem : std::as_const(m_items)) {
        if (auto *approval = chatItem->findChild<ApprovalCard *>(); approval && approval->isVisibleTo(this))
            forms.append(approval);
    }
    for (const QPointer<ElicitationCard> &card : std::as_const(m_elicitations)) {
        if (card && card->isEnabled())
            forms.append(card);
    }
    for (const QPointer<SamplingCard> &card : std::as_const(m_samplings)) {
        if (card && !card->isFinished())
            forms.append(card);
    }
    QList<QWidget *> stops;
    // In the order Tab walks them.
    for (QWidget *widget = nextInFocusChain(); widget != this; widget = widget->nextInFocusChain()) {
        if (isTabStop(widget) && std::any_of(forms.cbegin(), forms.cend(), [widget](const QWidget *form) {
                return form->isAncestorOf(widget);
            }))
            stops.append(widget);
    }
    return stops;
}

bool ChatView::focusNextPrevChild(bool next)
{
    QList<QWidget *> stops = tabStopsInside();
    stops.prepend(this);
    const qsizetype at = stops.indexOf(window()->focusWidget());
    const qsizetype to = at < 0 ? 0 : at + (next ? 1 : -1);
    if (at >= 0 && to >= 0 && to < stops.size()) {
        stops.at(to)->setFocus(next ? Qt::TabFocusReason : Qt::BacktabFocusReason);
        return true;
    }
    // Out of the view: to the next stop around it in the window's order, past everything inside.
    for (QWidget *widget = next ? nextInFocusChain() : previousInFocusChain(); widget != this;
         widget = next ? widget->nextInFocusChain() : widget->previousInFocusChain()) {
        if (!isAncestorOf(widget) && widget->window() == window() && isTabStop(widget)) {
            widget->setFocus(next ? Qt::TabFocusReason : Qt::BacktabFocusReason);
            return true;
        }
    }
    return false;
}

void ChatView::keyPressEvent(QKeyEvent *event)
{
    if (m_items.isEmpty() || event->modifiers() != Qt::NoModifier) {
        QScrollArea::keyPressEvent(event);
        return;
    }
    const qsizetype at = m_selected ? m_items.indexOf(m_selected.data()) : -1;
    const qsizetype last = m_items.size() - 1;
    switch (event->key()) {
    case Qt::Key_Up: activateItem(m_items.at(at < 0 ? last : std::max<qsizetype>(at - 1, 0))); break;
    case Qt::Key_Down: activateItem(m_items.at(at < 0 ? 0 : std::min(at + 1, last))); break;
    case Qt::Key_Home: activateItem(m_items.first()); break;
    case Qt::Key_End: activateItem(m_items.last()); break;
    default: QScrollArea::keyPressEvent(event); return;
    }
    event->accept();
}

// ---------------------------------------------------------------------------
// State of the controls

bool ChatView::isBusy() const
{
    return m_rows->isTurnRunning() || (m_agent && m_agent->isRunning());
}

ChatItem *ChatView::lastQuestionItem() const
{
    ChatItem *lastUser = nullptr;
    for (ChatItem *chatItem : std::as_const(m_items)) {
        if (chatItem->kind() == ChatItem::Kind::UserMessage)
            lastUser = chatItem;
    }
    // A question a shield blocked never entered the history: editing "the
    // last question" would replace the one before it.
    if (lastUser && !m_rows->isInHistory(lastUser->turn()))
        lastUser = nullptr;
    return lastUser;
}

void ChatView::setEditingLastQuestion(bool editing)
{
    ChatItem *edited = editing ? lastQuestionItem() : nullptr;
    for (ChatItem *chatItem : std::as_const(m_items))
        chatItem->setEditing(chatItem == edited);
    if (edited)
        ensureWidgetVisible(edited);
}

int ChatView::editedIndex() const
{
    for (int i = 0; i < itemCount(); ++i) {
        if (m_items.at(i)->isEditing())
            return i;
    }
    return -1;
}

// Edit, Regenerate and Retry act on the latest turn, and only between turns.
void ChatView::updateActions()
{
    // Read-only: nothing may ask again, as if a turn always ran.
    const bool busy = m_readOnly || isBusy();
    const int lastTurn = m_rows->lastTurn();
    ChatItem *lastUser = lastQuestionItem();
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
    const bool waiting = m_rows->isTurnRunning() && !m_rows->isStreaming() && m_agent
                         && m_agent->state() == Agent::State::WaitingForModel;
    m_activity->setVisible(waiting);
}

void ChatView::updateEmptyHint()
{
    m_emptyHint->setVisible(m_items.isEmpty() && m_elicitations.isEmpty() && m_samplings.isEmpty());
}

// ---------------------------------------------------------------------------
// Keeping to the bottom

void ChatView::onScrollRangeChanged(int minimum, int maximum)
{
    Q_UNUSED(minimum);
    Q_UNUSED(maximum);
    // Following the end waits until the grown content has been painted where it
    // is (its new lines below the visible part cost nothing to paint): then the
    // scroll finds nothing unpainted and moves the picture up by copying it, and
    // only the uncovered lines at the bottom are painted. Scrolled at once, Qt
    // repaints everything in view, about 60 times a second while an answer streams.
    if (!m_followBottom || m_followTimer->isActive())
        return;
    // The bar's new range and new value are painted once, together.
    verticalScrollBar()->setUpdatesEnabled(false);
    m_followTimer->start();
}

void ChatView::followToTheEnd()
{
    QScrollBar *bar = verticalScrollBar();
    if (m_followBottom)
        bar->setValue(bar->maximum());
    bar->setUpdatesEnabled(true);
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
