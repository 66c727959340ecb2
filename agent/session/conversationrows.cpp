#include "agent/session/conversationrows.h"

#include "agent/loop/agent.h"
#include "agent/loop/agentevent.h"
#include "agent/loop/turnresult.h"
#include "agent/session/turnnodefinder.h"
#include "agent/trace/trace.h"

#include <QHash>
#include <QQueue>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

using Row = ConversationRow;

Row::ToolState toolState(std::optional<TraceStatus> status, bool isError)
{
    switch (status.value_or(isError ? TraceStatus::Error : TraceStatus::Ok)) {
    case TraceStatus::Running:
    case TraceStatus::Limited: // not a tool's status; read it as the result says
    case TraceStatus::Ok: return isError ? Row::ToolState::Failed : Row::ToolState::Succeeded;
    case TraceStatus::Error: return Row::ToolState::Failed;
    case TraceStatus::Cancelled: return Row::ToolState::Cancelled;
    case TraceStatus::Blocked: return Row::ToolState::Blocked;
    case TraceStatus::Denied: return Row::ToolState::Denied;
    case TraceStatus::Skipped: return Row::ToolState::Skipped;
    }
    return Row::ToolState::Failed;
}

// A state read from a message alone, which knows only whether it failed.
bool isPlainResult(Row::ToolState state)
{
    return state == Row::ToolState::Failed || state == Row::ToolState::Succeeded;
}

Row messageRow(Row::Kind kind, const QString &text, int traceNode)
{
    Row row;
    row.kind = kind;
    row.text = text;
    row.traceNode = traceNode;
    return row;
}

Row toolCallRow(const ToolCall &call, int traceNode)
{
    Row row;
    row.kind = Row::Kind::ToolCall;
    row.toolCall = call;
    row.traceNode = traceNode;
    return row;
}

bool isQuestion(const Message &message)
{
    return message.role == Message::Role::User;
}

// Where the last \a turns turns of \a messages begin: at the question that
// starts the first of them, or at 0 when only what belongs with the first
// question precedes it.
qsizetype startOfLastTurns(const QList<Message> &messages, int turns)
{
    qsizetype from = messages.size();
    for (int found = 0; from > 0 && found < turns;) {
        if (isQuestion(messages.at(--from)))
            ++found;
    }
    if (std::none_of(messages.cbegin(), messages.cbegin() + from, isQuestion))
        from = 0;
    return from;
}

} // namespace

ConversationRows::ConversationRows(QObject *parent)
    : QObject(parent)
{}

ConversationRows::~ConversationRows() = default;

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
    if (event.kind == Kind::TurnStarted) {
        beginTurn(event.traceNode);
        append(messageRow(Row::Kind::User, event.text, event.traceNode));
        return;
    }
    if (!m_live)
        return; // a turn that started before clear()

    switch (event.kind) {
    case Kind::TextDelta: addDelta(event); break;
    case Kind::ModelResponse: finishAnswer(event); break;
    case Kind::Retry:
        if (const auto *retry = event.payloadAs<RetryInfo>()) {
            // The retry stays in the chat: what the provider said is part of what happened.
            Row row = messageRow(Row::Kind::Notice,
                                 tr("Attempt %1 failed: %2").arg(retry->attempt).arg(event.text),
                                 event.traceNode);
            row.notice = Row::Notice::Retry;
            append(row);
            emit attemptFailed(retry->attempt, event.text);
        }
        break;
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
    case Kind::Summary:
        m_live->lastAnswerRow = append(messageRow(Row::Kind::Assistant, event.text, event.traceNode));
        break;
    case Kind::Handoff: m_live->handoffNode = event.traceNode; break;
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
    dropReplacedTurns(historySize);

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
        Row row = messageRow(Row::Kind::Assistant, event.text, event.traceNode);
        row.streaming = true;
        m_live->streamingRow = append(row);
        return;
    }
    Row row = m_rows.at(m_live->streamingRow);
    row.text += event.text;
    change(m_live->streamingRow, row);
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
            answer = append(messageRow(Row::Kind::Assistant, event.text, event.traceNode));
        }
    }
    if (answer >= 0)
        m_live->lastAnswerRow = answer;
}

void ConversationRows::applyToolCall(const AgentEvent &event)
{
    const int index = rowOfToolCall(event.toolCall.id);
    if (index < 0) {
        append(toolCallRow(event.toolCall, event.traceNode));
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
        index = append(toolCallRow(event.toolCall, event.traceNode));
    Row row = m_rows.at(index);
    row.traceNode = event.traceNode;
    row.toolCall = event.toolCall; // the arguments that ran, if the user edited them
    row.text = event.text;
    const auto *result = event.payloadAs<ToolResultInfo>();
    row.toolState = toolState(result ? std::optional(result->status) : std::nullopt, event.isError);
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
                append(toolCallRow(call, -1));
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
        row.toolState = toolState(status, message.isError);
        change(index, row);
        break;
    }
    case Message::Role::User:
    case Message::Role::System: break;
    }
}

void ConversationRows::onTurnFinished(const TurnResult &result)
{
    if (!m_live)
        return;
    endStreaming();
    if (result.isAnswer() && m_live->lastAnswerRow < 0 && !result.text.isEmpty())
        m_live->lastAnswerRow = append(messageRow(Row::Kind::Assistant, result.text, result.traceNode));
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
    const auto notice = [this](Row::Notice kind, const QString &text, int traceNode, bool retryable) {
        Row row = messageRow(Row::Kind::Notice, text, traceNode);
        row.notice = kind;
        row.retryable = retryable;
        append(row);
    };
    const int errorNode = m_live->errorNode >= 0 ? m_live->errorNode : result.traceNode;
    switch (result.outcome) {
    case TurnOutcome::Answered:
    case TurnOutcome::Reflected:
    case TurnOutcome::Summarised: break;
    case TurnOutcome::ForcedFinal:
        notice(Row::Notice::Limit,
               tr("Reached the limit of %1 iterations: the last answer was forced without tools.")
                   .arg(result.iterations),
               result.traceNode, false);
        break;
    case TurnOutcome::Fallback:
        notice(result.limitReached ? Row::Notice::Limit : Row::Notice::Error,
               result.error.isEmpty() ? result.text : result.error, errorNode, true);
        break;
    case TurnOutcome::HandedOff:
        notice(Row::Notice::Info, result.text,
               m_live->handoffNode >= 0 ? m_live->handoffNode : result.traceNode, false);
        break;
    case TurnOutcome::Blocked:
        // A blocked question would be blocked again; a blocked answer may come out differently.
        notice(Row::Notice::Blocked, result.error,
               m_live->blockedNode >= 0 ? m_live->blockedNode : result.traceNode, m_live->outputBlocked);
        break;
    case TurnOutcome::ErrorLimit:
    case TurnOutcome::TokenBudget: notice(Row::Notice::Limit, result.error, errorNode, true); break;
    case TurnOutcome::Cancelled:
        notice(Row::Notice::Cancelled, tr("You stopped the turn before it finished."), result.traceNode,
               true);
        break;
    case TurnOutcome::Failed: notice(Row::Notice::Error, result.error, errorNode, true); break;
    }
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
    Row row = messageRow(Row::Kind::Notice, text, traceNode);
    row.notice = kind;
    append(row);
}

int ConversationRows::append(ConversationRow row)
{
    row.turn = m_live ? m_live->turn : lastTurn();
    m_rows.append(std::move(row));
    emit rowsInserted(size() - 1, 1);
    return size() - 1;
}

void ConversationRows::change(int index, const ConversationRow &row)
{
    if (m_rows.at(index) == row)
        return;
    m_rows[index] = row;
    emit rowChanged(index);
}

// A turn that starts at or before where earlier turns started asks again:
// those turns were taken out of the history and their rows go too. A turn
// that added nothing to the history (a blocked question) stays where it was.
void ConversationRows::dropReplacedTurns(int historySize)
{
    QList<int> replaced;
    for (const TurnSpan &turn : std::as_const(m_turns)) {
        if (turn.historyStart > historySize
            || (turn.historyStart == historySize && turn.historyEnd > turn.historyStart))
            replaced.append(turn.id);
    }
    for (int turn : std::as_const(replaced))
        removeTurn(turn);
}

void ConversationRows::removeTurn(int turn)
{
    m_turns.removeIf([turn](const TurnSpan &span) { return span.id == turn; });
    const auto first
        = std::find_if(m_rows.cbegin(), m_rows.cend(), [turn](const Row &row) { return row.turn == turn; });
    const auto last = std::find_if(first, m_rows.cend(), [turn](const Row &row) { return row.turn != turn; });
    if (first == last)
        return;
    const int from = int(first - m_rows.cbegin());
    const int count = int(last - first);
    m_rows.remove(from, count);
    emit rowsRemoved(from, count);
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
    for (int i = size() - 1; i >= 0; --i) {
        const Row &row = m_rows.at(i);
        if (row.kind == Row::Kind::ToolCall && row.toolCall.id == callId)
            return i;
    }
    return -1;
}

// ---------------------------------------------------------------------------
// A saved conversation

void ConversationRows::showHistory(const QList<Message> &history)
{
    m_live.reset();
    m_rows.clear();
    m_turns.clear();
    const qsizetype from = startOfLastTurns(history, TurnsPerPage);
    m_earlierHistory = history.first(from);
    appendHistoryRows(history, from, m_rows, m_turns);
    mapToTrace(m_rows, m_turns);
    emit reset();
}

void ConversationRows::clear()
{
    m_live.reset();
    m_rows.clear();
    m_turns.clear();
    m_earlierHistory.clear();
    emit reset();
}

int ConversationRows::earlierTurnCount() const
{
    return int(std::count_if(m_earlierHistory.cbegin(), m_earlierHistory.cend(), isQuestion));
}

void ConversationRows::showEarlierTurns(int count)
{
    if (m_earlierHistory.isEmpty() || count < 1)
        return;
    const qsizetype from = startOfLastTurns(m_earlierHistory, count);
    QList<Row> rows;
    QList<TurnSpan> turns;
    appendHistoryRows(m_earlierHistory, from, rows, turns);
    mapToTrace(rows, turns);
    m_earlierHistory.resize(from);

    const int added = int(rows.size());
    m_rows = rows + m_rows;
    m_turns = turns + m_turns;
    if (m_live) {
        for (int *index : {&m_live->streamingRow, &m_live->lastAnswerRow}) {
            if (*index >= 0)
                *index += added;
        }
    }
    if (added > 0)
        emit rowsInserted(0, added);
}

// Messages [from, end) of \a history, whose indexes the turns keep.
void ConversationRows::appendHistoryRows(const QList<Message> &history, qsizetype from, QList<Row> &rows,
                                         QList<TurnSpan> &turns)
{
    const qsizetype firstRow = rows.size();
    TurnSpan *turn = nullptr;
    for (qsizetype i = from; i < history.size(); ++i) {
        const Message &message = history.at(i);
        if (message.role == Message::Role::System)
            continue;
        if (isQuestion(message) || !turn) {
            const int messagesBefore = isQuestion(message) ? TurnNodeFinder::messagesBefore(history, i) : -1;
            turns.append({++m_turnSerial, int(i), int(i), messagesBefore});
            turn = &turns.last();
        }
        turn->historyEnd = int(i) + 1;
        const auto add = [&rows, turn](Row row) {
            row.turn = turn->id;
            rows.append(std::move(row));
            return int(rows.size()) - 1;
        };
        switch (message.role) {
        case Message::Role::User: add(messageRow(Row::Kind::User, message.text, -1)); break;
        case Message::Role::Assistant:
            if (!message.text.isEmpty())
                add(messageRow(Row::Kind::Assistant, message.text, -1));
            for (const ToolCall &call : message.toolCalls)
                add(toolCallRow(call, -1));
            break;
        case Message::Role::Tool: {
            auto call = std::find_if(rows.rbegin(), rows.rend(), [&message](const Row &row) {
                return row.kind == Row::Kind::ToolCall && row.toolCall.id == message.toolCallId;
            });
            Row &row = call != rows.rend()
                           ? *call
                           : rows[add(toolCallRow({message.toolCallId, message.toolName, {}, {}}, -1))];
            row.text = message.text;
            row.toolState = message.isError ? Row::ToolState::Failed : Row::ToolState::Succeeded;
            break;
        }
        case Message::Role::System: break;
        }
    }
    for (qsizetype i = firstRow; i < rows.size(); ++i) {
        Row &row = rows[i];
        if (row.kind == Row::Kind::ToolCall && !row.hasResult()) {
            row.text = tr("No result was recorded for this call.");
            row.toolState = Row::ToolState::Skipped;
        }
    }
}

// Each turn that entered the history finds its turn node by where its
// question stood; its rows find theirs inside that turn.
void ConversationRows::mapToTrace(QList<Row> &rows, const QList<TurnSpan> &turns) const
{
    if (!m_trace)
        return;
    QHash<int, TurnSpan> spans;
    for (const TurnSpan &span : turns)
        spans.insert(span.id, span);
    TurnNodeFinder finder(*m_trace);
    int turn = -1;
    int turnNode = -1;
    QList<int> answers;
    for (Row &row : rows) {
        if (row.turn != turn || turn < 0) {
            turn = row.turn;
            const TurnSpan span = spans.value(turn);
            const bool asked = span.historyEnd > span.historyStart && span.messagesBefore >= 0;
            turnNode = asked ? finder.nextTurn(span.messagesBefore) : -1;
            answers = TurnNodeFinder::answerNodes(*m_trace, turnNode);
        }
        switch (row.kind) {
        case Row::Kind::User: row.traceNode = turnNode; break;
        case Row::Kind::Assistant: row.traceNode = answers.isEmpty() ? -1 : answers.takeFirst(); break;
        case Row::Kind::ToolCall:
            row.traceNode = TurnNodeFinder::toolCallNode(*m_trace, turnNode, row.toolCall.id);
            // The message only says whether it failed; the node says why (denied, blocked, …).
            if (row.traceNode >= 0 && isPlainResult(row.toolState)
                && m_trace->node(row.traceNode).status != TraceStatus::Running)
                row.toolState
                    = toolState(m_trace->node(row.traceNode).status, row.toolState == Row::ToolState::Failed);
            break;
        case Row::Kind::Notice: break;
        }
    }
}

void ConversationRows::onTraceReset()
{
    QList<Row> rows = m_rows;
    for (Row &row : rows)
        row.traceNode = -1;
    if (!m_live)
        mapToTrace(rows, m_turns);
    for (int i = 0; i < size(); ++i)
        change(i, rows.at(i));
}

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

// ---------------------------------------------------------------------------
// Rows and trace nodes

int ConversationRows::rowOfTraceNode(int nodeId) const
{
    if (nodeId < 0)
        return -1;
    QHash<int, int> byNode;
    for (int i = 0; i < size(); ++i) {
        const int node = m_rows.at(i).traceNode;
        if (node >= 0 && !byNode.contains(node))
            byNode.insert(node, i);
    }
    if (const auto exact = byNode.constFind(nodeId); exact != byNode.cend())
        return *exact;
    if (!m_trace || !m_trace->isValid(nodeId))
        return -1;

    // The closest descendant first (an iteration shows as its answer or its
    // tool calls), then the closest ancestor (a retry shows as its answer).
    QQueue<int> queue;
    queue.append(m_trace->node(nodeId).children);
    while (!queue.isEmpty()) {
        const int node = queue.dequeue();
        if (const auto found = byNode.constFind(node); found != byNode.cend())
            return *found;
        queue.append(m_trace->node(node).children);
    }
    for (int node = m_trace->node(nodeId).parent; node >= 0; node = m_trace->node(node).parent) {
        if (const auto found = byNode.constFind(node); found != byNode.cend())
            return *found;
    }
    return -1;
}

int ConversationRows::revealTraceNode(int nodeId)
{
    int row = rowOfTraceNode(nodeId);
    if (row >= 0 || !m_trace || !m_trace->isValid(nodeId))
        return row;
    int root = nodeId;
    while (m_trace->node(root).parent >= 0)
        root = m_trace->node(root).parent;
    const QList<int> &roots = m_trace->roots();
    const qsizetype position = roots.indexOf(root);
    while (row < 0 && hasEarlierMessages()) {
        // Earlier turns hold only nodes of turns before the first one shown.
        const auto firstShown = std::find_if(m_rows.cbegin(), m_rows.cend(), [](const Row &shown) {
            return shown.kind == Row::Kind::User && shown.traceNode >= 0;
        });
        const qsizetype firstShownPosition
            = firstShown == m_rows.cend() ? -1 : roots.indexOf(firstShown->traceNode);
        if (position >= firstShownPosition)
            break;
        // No more turns of the history lie between the two than turns of the trace.
        showEarlierTurns(int(firstShownPosition - position));
        row = rowOfTraceNode(nodeId);
    }
    return row;
}

} // namespace Loopscope
