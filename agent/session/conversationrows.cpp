#include "agent/session/conversationrows.h"

#include "agent/loop/agent.h"
#include "agent/loop/agentevent.h"
#include "agent/loop/turnresult.h"
#include "agent/trace/trace.h"
#include "agent/trace/turnnodefinder.h"

#include <QHash>
#include <QQueue>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

using Row = ConversationRow;

} // namespace

ConversationRows::ConversationRows(QObject *parent)
    : QAbstractListModel(parent)
{}

ConversationRows::~ConversationRows() = default;

// ---------------------------------------------------------------------------
// The model

int ConversationRows::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : size();
}

QVariant ConversationRows::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole: return row.text;
    case KindRole: return int(row.kind);
    case StreamingRole: return row.streaming;
    case ToolStateRole: return int(row.toolState);
    case TraceNodeRole: return row.traceNode;
    case TurnRole: return row.turn;
    case ReplacedRole: return row.replaced;
    case SourcesRole: return QVariant::fromValue(row.sources);
    case RowRole: return QVariant::fromValue(row);
    default: return {};
    }
}

QHash<int, QByteArray> ConversationRows::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert({{KindRole, "kind"},
                  {StreamingRole, "streaming"},
                  {ToolStateRole, "toolState"},
                  {TraceNodeRole, "traceNode"},
                  {TurnRole, "turn"},
                  {ReplacedRole, "replaced"},
                  {SourcesRole, "sources"},
                  {RowRole, "row"}});
    return names;
}

// ---------------------------------------------------------------------------
// Sources

void ConversationRows::setTrace(const Trace *trace)
{
    if (m_trace)
        disconnect(m_trace, nullptr, this, nullptr);
    m_trace = trace;
    if (trace) {
        connect(trace, &Trace::reset, this, &ConversationRows::onTraceReset);
        connect(trace, &Trace::appended, this, &ConversationRows::onTraceNodeAppended);
        connect(trace, &Trace::nodeChanged, this, &ConversationRows::onTraceNodeChanged);
    }
}

const Trace *ConversationRows::trace() const
{
    return m_trace;
}

Agent *ConversationRows::agent() const
{
    return m_agent;
}

void ConversationRows::follow(Agent *agent)
{
    if (m_agent)
        disconnect(m_agent, nullptr, this, nullptr);
    m_agent = agent;
    if (!agent)
        return;
    connect(agent, &Agent::event, this, &ConversationRows::onAgentEvent);
    connect(agent, &Agent::messageAppended, this, &ConversationRows::onMessageAppended);
    connect(agent, &Agent::turnFinished, this, &ConversationRows::onTurnFinished);
}

// ---------------------------------------------------------------------------
// The live turn

void ConversationRows::onAgentEvent(const AgentEvent &event)
{
    using Kind = AgentEvent::Kind;
    // Of a sub-agent's steps the chat shows its tool calls, where a call that asks first is approved,
    // live; the rest is in the trace, and its answer is the result of the call that asked it.
    const bool toolStep
        = event.kind == Kind::ToolCall || event.kind == Kind::ToolProgress || event.kind == Kind::ToolResult;
    if (event.depth > 0 && !toolStep)
        return;
    if (event.kind == Kind::TurnStarted) {
        beginTurn(event.traceNode);
        append(Row::message(Row::Kind::User, event.text, event.traceNode));
        return;
    }
    if (!m_live)
        return; // a turn that started before clear()

    switch (event.kind) {
    case Kind::TextDelta: addDelta(event); break;
    case Kind::ModelResponse:
        settleRetry(true);
        finishAnswer(event);
        break;
    case Kind::Retry: addRetry(event); break;
    case Kind::ToolCall: applyToolCall(event); break;
    case Kind::ToolProgress:
        if (const int index = rowOfToolCall(event.toolCall.id); index >= 0) {
            Row row = m_rows.at(index);
            row.progress.append(event.text);
            change(index, row);
        }
        break;
    case Kind::ToolResult: applyToolResult(event); break;
    case Kind::Error: m_live->errorNode = event.traceNode; break;
    case Kind::ShieldBlocked:
        m_live->blockedNode = event.traceNode;
        if (const auto *shield = event.payloadAs<ShieldInfo>();
            shield && shield->stage == ShieldStage::Output)
            withholdAnswer();
        break;
    case Kind::Summary: {
        Row summary = Row::message(Row::Kind::Assistant, event.text, event.traceNode);
        summary.agent = Row::speakerOf(event.agent);
        m_live->lastAnswerRow = append(summary);
        break;
    }
    case Kind::Handoff: m_live->handoffNode = event.traceNode; break;
    case Kind::Compaction: addCompaction(event); break;
    case Kind::TurnStarted:
    case Kind::ModelRequest:
    case Kind::IterationStarted:
    case Kind::Reflection:
    case Kind::TurnFinished: // turnFinished() carries the outcome
        break;
    }
}

void ConversationRows::beginTurn(int traceNode)
{
    const QList<Message> history = m_agent ? m_agent->history() : QList<Message>();
    const int historySize = int(history.size());
    markReplacedTurns(historySize);

    const int turn = ++m_turnSerial;
    m_turns.append({turn, historySize, historySize, TurnNodeFinder::messagesBefore(history, historySize)});
    m_live = LiveTurn{};
    m_live->turn = turn;
    m_live->traceNode = traceNode;
    emit turnStarted(turn);
}

void ConversationRows::addDelta(const AgentEvent &event)
{
    if (isStreaming() && m_rows.at(m_live->streamingRow).traceNode != event.traceNode)
        endStreaming();
    if (!isStreaming()) {
        Row row = Row::message(Row::Kind::Assistant, event.text, event.traceNode);
        row.agent = Row::speakerOf(event.agent);
        row.streaming = true;
        m_live->streamingRow = append(row);
        return;
    }
    // Appended in place: a copy of the row, compared with the one before, would copy and compare the
    // whole answer at every delta, and a long stream would cost time and memory by its square.
    const int index = m_live->streamingRow;
    m_rows[index].text += event.text;
    const QModelIndex changed = this->index(index);
    emit dataChanged(changed, changed, {Qt::DisplayRole, RowRole});
}

// The streamed row is complete: its index, -1 without one.
int ConversationRows::endStreaming()
{
    const int index = std::exchange(m_live->streamingRow, -1);
    if (index >= 0) {
        Row row = m_rows.at(index);
        row.streaming = false;
        change(index, row);
    }
    return index;
}

void ConversationRows::finishAnswer(const AgentEvent &event)
{
    const int streamed = endStreaming();
    int answer = streamed >= 0 && m_rows.at(streamed).traceNode == event.traceNode ? streamed : -1;
    // The response is what the model said; the stream only previewed it.
    if (!event.text.isEmpty()) {
        if (answer >= 0) {
            Row row = m_rows.at(answer);
            row.text = event.text;
            change(answer, row);
        } else {
            Row row = Row::message(Row::Kind::Assistant, event.text, event.traceNode);
            row.agent = Row::speakerOf(event.agent);
            answer = append(row);
        }
    }
    if (answer >= 0)
        m_live->lastAnswerRow = answer;
}

// A model call's retries share one notice (TurnNotices::retries()), which says in the end whether
// they helped.
void ConversationRows::addRetry(const AgentEvent &event)
{
    const auto *retry = event.payloadAs<RetryInfo>();
    if (!retry)
        return;
    m_live->retries.append(RetryData{retry->attempt, retry->httpStatus, event.text, retry->retryInMs});
    const TurnNotice notice
        = TurnNotices::retries(m_live->retries, TurnNotices::RetriesEnd::Pending, event.traceNode);
    if (m_live->retryRow < 0) {
        m_live->retryRow = append(Row::fromNotice(notice));
    } else {
        Row row = m_rows.at(m_live->retryRow);
        row.text = notice.text;
        change(m_live->retryRow, row);
    }
    emit attemptFailed(retry->attempt, event.text);
}

// The divider stands where the compaction happened, before what the next request answers.
void ConversationRows::addCompaction(const AgentEvent &event)
{
    if (m_trace && m_trace->isValid(event.traceNode))
        if (const auto *data = std::get_if<CompactionData>(&m_trace->node(event.traceNode).payload))
            append(Row::fromNotice(TurnNotices::compaction(*data, event.traceNode)));
}

void ConversationRows::settleRetry(bool recovered)
{
    if (!m_live || m_live->retryRow < 0)
        return;
    const int index = std::exchange(m_live->retryRow, -1);
    Row row = m_rows.at(index);
    const TurnNotice notice = TurnNotices::retries(
        std::exchange(m_live->retries, {}),
        recovered ? TurnNotices::RetriesEnd::Recovered : TurnNotices::RetriesEnd::Failed, row.traceNode);
    row.notice = notice.kind;
    row.text = notice.text;
    change(index, row);
}

void ConversationRows::applyToolCall(const AgentEvent &event)
{
    const int index = rowOfToolCall(event.toolCall.id);
    if (index < 0) {
        Row row = Row::call(event.toolCall, event.traceNode);
        if (event.depth > 0)
            row.agent = event.agent;
        append(row);
        return;
    }
    Row row = m_rows.at(index);
    row.traceNode = event.traceNode;
    row.toolCall = event.toolCall;
    change(index, row);
}

void ConversationRows::applyToolResult(const AgentEvent &event)
{
    int index = rowOfToolCall(event.toolCall.id);
    if (index < 0)
        index = append(Row::call(event.toolCall, event.traceNode));
    Row row = m_rows.at(index);
    row.traceNode = event.traceNode;
    row.toolCall = event.toolCall; // the arguments that ran, if the user edited them
    row.text = event.text;
    const auto *result = event.payloadAs<ToolResultInfo>();
    row.toolState = Row::toolStateOf(result ? std::optional(result->status) : std::nullopt, event.isError);
    change(index, row);
}

void ConversationRows::withholdAnswer()
{
    m_live->outputBlocked = true;
    if (m_live->lastAnswerRow < 0)
        return;
    Row row = m_rows.at(m_live->lastAnswerRow);
    row.text = tr("*The answer was withheld by a safety check.*");
    change(m_live->lastAnswerRow, row);
}

void ConversationRows::onMessageAppended(const Message &message)
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
            if (rowOfToolCall(call.id) < 0)
                append(Row::call(call, -1));
        }
        break;
    case Message::Role::Tool: {
        const int index = rowOfToolCall(message.toolCallId);
        if (index < 0 || m_rows.at(index).hasResult())
            break;
        Row row = m_rows.at(index);
        const int node
            = m_trace ? TurnNodeFinder::toolCallNode(*m_trace, m_live->traceNode, message.toolCallId) : -1;
        std::optional<TraceStatus> status;
        if (node >= 0) {
            row.traceNode = node;
            status = m_trace->node(node).status;
        }
        row.text = message.text;
        row.toolState = Row::toolStateOf(status, message.isError);
        change(index, row);
        break;
    }
    case Message::Role::User: {
        // The question's row came with the turn's start; its files come with the message.
        if (message.attachments.isEmpty())
            break;
        for (qsizetype index = m_rows.size() - 1; index >= 0; --index) {
            const Row &row = m_rows.at(index);
            if (row.kind == Row::Kind::User && row.traceNode == m_live->traceNode) {
                Row question = row;
                question.attachments = message.attachments;
                change(int(index), question);
                break;
            }
        }
        break;
    }
    case Message::Role::System: break;
    }
}

void ConversationRows::onTurnFinished(const TurnResult &result)
{
    if (!m_live)
        return;
    endStreaming();
    if (result.isAnswer() && m_live->lastAnswerRow < 0 && !result.text.isEmpty()) {
        Row answer = Row::message(Row::Kind::Assistant, result.text, result.traceNode);
        answer.agent = Row::speakerOf(result.agent);
        m_live->lastAnswerRow = append(answer);
    }
    if (result.outcome == TurnOutcome::Failed)
        settleRetry(false);
    addTurnEndNotice(result);
    endRunningToolCalls();
    if (TurnSpan *turn = span(m_live->turn); turn && m_agent)
        turn->historyEnd = int(m_agent->history().size());
    const int turn = m_live->turn;
    m_live.reset();
    emit turnEnded(turn);
}

void ConversationRows::addTurnEndNotice(const TurnResult &result)
{
    TurnNotices::End end;
    end.outcome = result.outcome;
    end.text = result.text;
    end.error = result.error;
    end.iterations = result.iterations;
    end.limitReached = result.limitReached;
    end.outputBlocked = m_live->outputBlocked;
    end.turnNode = result.traceNode;
    end.errorNode = m_live->errorNode;
    end.blockedNode = m_live->blockedNode;
    end.handoffNode = m_live->handoffNode;
    if (const std::optional<TurnNotice> notice = TurnNotices::end(end))
        append(Row::fromNotice(*notice));
}

void ConversationRows::endRunningToolCalls()
{
    for (int i = 0; i < size(); ++i) {
        const Row &row = m_rows.at(i);
        if (row.turn != m_live->turn || row.kind != Row::Kind::ToolCall || row.hasResult())
            continue;
        Row ended = row;
        ended.text = tr("The turn ended before the tool finished.");
        ended.toolState = Row::ToolState::Cancelled;
        change(i, ended);
    }
}

// ---------------------------------------------------------------------------
// Rows and turns

void ConversationRows::addNotice(ConversationRow::Notice kind, const QString &text, int traceNode)
{
    Row row = Row::message(Row::Kind::Notice, text, traceNode);
    row.notice = kind;
    append(row);
}

void ConversationRows::findSources(ConversationRow &row) const
{
    if (row.kind == Row::Kind::Assistant && m_trace)
        row.sources = TurnNodeFinder::sourcesOf(*m_trace, row.traceNode);
}

int ConversationRows::append(ConversationRow row)
{
    row.turn = m_live ? m_live->turn : lastTurn();
    findSources(row);
    const int index = size();
    beginInsertRows({}, index, index);
    m_rows.append(std::move(row));
    indexToolCall(index);
    endInsertRows();
    return index;
}

// One dataChanged naming the roles that changed; RowRole always does.
void ConversationRows::change(int index, ConversationRow row)
{
    findSources(row);
    const Row &before = m_rows.at(index);
    if (before == row)
        return;
    QList<int> roles;
    if (before.text != row.text)
        roles.append(Qt::DisplayRole);
    if (before.kind != row.kind)
        roles.append(KindRole);
    if (before.streaming != row.streaming)
        roles.append(StreamingRole);
    if (before.toolState != row.toolState)
        roles.append(ToolStateRole);
    if (before.traceNode != row.traceNode)
        roles.append(TraceNodeRole);
    if (before.turn != row.turn)
        roles.append(TurnRole);
    if (before.replaced != row.replaced)
        roles.append(ReplacedRole);
    if (before.sources != row.sources)
        roles.append(SourcesRole);
    roles.append(RowRole);
    m_rows[index] = row;
    indexToolCall(index);
    const QModelIndex changed = this->index(index);
    emit dataChanged(changed, changed, roles);
}

void ConversationRows::resetRows(QList<ConversationRow> rows, QList<TurnSpan> turns,
                                 QList<Message> earlierHistory)
{
    beginResetModel();
    m_live.reset();
    m_rows = std::move(rows);
    for (Row &row : m_rows)
        findSources(row);
    m_toolCallRows.clear();
    for (int i = 0; i < size(); ++i)
        indexToolCall(i);
    m_turns = std::move(turns);
    m_earlierHistory = std::move(earlierHistory);
    endResetModel();
}

// A turn that starts at or before where earlier turns started asks again:
// those turns were taken out of the history; their rows stay, marked, as the
// trace keeps the turns. A turn that added nothing to the history (a blocked
// question) stays as it was.
void ConversationRows::markReplacedTurns(int historySize)
{
    QList<int> replaced;
    for (const TurnSpan &turn : std::as_const(m_turns)) {
        if (turn.historyStart > historySize
            || (turn.historyStart == historySize && turn.historyEnd > turn.historyStart))
            replaced.append(turn.id);
    }
    for (int turn : std::as_const(replaced))
        markReplaced(turn);
}

void ConversationRows::markReplaced(int turn)
{
    if (TurnSpan *replaced = span(turn)) {
        // Out of the history: no later turn replaces it again, and it is not "the last question".
        replaced->historyStart = replaced->historyEnd = -1;
        replaced->messagesBefore = -1;
    }
    for (int i = 0; i < size(); ++i) {
        if (m_rows.at(i).turn != turn || m_rows.at(i).replaced)
            continue;
        Row row = m_rows.at(i);
        row.replaced = true;
        row.retryable = false;
        change(i, row);
    }
}

ConversationRows::TurnSpan *ConversationRows::span(int turn)
{
    for (TurnSpan &span : m_turns) {
        if (span.id == turn)
            return &span;
    }
    return nullptr;
}

bool ConversationRows::isInHistory(int turn) const
{
    return std::any_of(m_turns.cbegin(), m_turns.cend(), [turn](const TurnSpan &span) {
        return span.id == turn && span.historyEnd > span.historyStart;
    });
}

bool ConversationRows::isStreaming() const
{
    return m_live && m_live->streamingRow >= 0;
}

int ConversationRows::rowOfToolCall(const QString &callId) const
{
    if (callId.isEmpty())
        return -1;
    const int indexed = m_toolCallRows.value(callId, -1);
    if (indexed < 0)
        return -1;
    const Row &row = m_rows.at(indexed);
    if (row.kind == Row::Kind::ToolCall && row.toolCall.id == callId)
        return indexed;
    // The row was changed into another call since: look the slow way (never seen in practice).
    for (int i = size() - 1; i >= 0; --i) {
        if (m_rows.at(i).kind == Row::Kind::ToolCall && m_rows.at(i).toolCall.id == callId)
            return i;
    }
    return -1;
}

void ConversationRows::indexToolCall(int index)
{
    const Row &row = m_rows.at(index);
    if (row.kind != Row::Kind::ToolCall || row.toolCall.id.isEmpty())
        return;
    if (const auto indexed = m_toolCallRows.constFind(row.toolCall.id);
        indexed == m_toolCallRows.cend() || *indexed < index)
        m_toolCallRows.insert(row.toolCall.id, index);
}

// ---------------------------------------------------------------------------
// Breakpoints in the trace

void ConversationRows::onTraceNodeAppended(int id)
{
    setToolCallHeld(id, true);
}

void ConversationRows::onTraceNodeChanged(int id)
{
    // Let go to run, the call is Running again; denied, answered by hand or
    // cancelled, it stays held until its result or the turn's end says so.
    if (!m_trace || !m_trace->isValid(id) || m_trace->node(id).endedUs == 0)
        return;
    const auto *wait = std::get_if<WaitData>(&m_trace->node(id).payload);
    if (wait && wait->decision == u"allowed"_s)
        setToolCallHeld(id, false);
}

void ConversationRows::setToolCallHeld(int waitNode, bool held)
{
    if (!m_live || !m_trace || !m_trace->isValid(waitNode))
        return;
    const TraceNode &node = m_trace->node(waitNode);
    const auto *wait = std::get_if<WaitData>(&node.payload);
    // Approvals have their own form in the chat; only the debugger's holds are shown here.
    if (!wait || wait->waitingFor != u"breakpoint"_s || !m_trace->isValid(node.parent))
        return;
    const auto *call = std::get_if<ToolCallData>(&m_trace->node(node.parent).payload);
    const int index = call ? rowOfToolCall(call->call.id) : -1;
    if (index < 0 || m_rows.at(index).hasResult())
        return;
    Row row = m_rows.at(index);
    row.toolState = held ? Row::ToolState::Held : Row::ToolState::Running;
    change(index, row);
}

} // namespace Loopscope
