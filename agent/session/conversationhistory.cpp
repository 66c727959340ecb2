// The saved conversation's side of ConversationRows: rows rebuilt from a
// history and found in its trace, paged backwards, and rows and trace nodes
// found from each other.

#include "agent/session/conversationrows.h"

#include "agent/trace/trace.h"
#include "agent/trace/turnnodefinder.h"

#include <QHash>
#include <QQueue>
#include <QSet>

namespace Loopscope {

namespace {

using Row = ConversationRow;

// A state read from a message alone, which knows only whether it failed.
bool isPlainResult(Row::ToolState state)
{
    return state == Row::ToolState::Failed || state == Row::ToolState::Succeeded;
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

// The first of the tool calls a model call asked for that has a row: they are nodes of its
// iteration, beside the model call and not below it. -1 for any other node.
int rowOfRequestedToolCall(const Trace &trace, int nodeId, const QHash<int, int> &byNode)
{
    const TraceNode &node = trace.node(nodeId);
    const auto *call = std::get_if<ModelCallData>(&node.payload);
    if (!call || call->response.toolCalls.isEmpty() || !trace.isValid(node.parent))
        return -1;
    QHash<QString, int> rowOfCall;
    QQueue<int> queue;
    queue.append(trace.node(node.parent).children);
    while (!queue.isEmpty()) {
        const TraceNode &inside = trace.node(queue.dequeue());
        const auto *tool = std::get_if<ToolCallData>(&inside.payload);
        if (const auto row = byNode.constFind(inside.id);
            tool && row != byNode.cend() && !rowOfCall.contains(tool->call.id))
            rowOfCall.insert(tool->call.id, *row);
        queue.append(inside.children);
    }
    for (const ToolCall &requested : call->response.toolCalls) {
        if (const auto row = rowOfCall.constFind(requested.id); row != rowOfCall.cend())
            return *row;
    }
    return -1;
}

} // namespace

// ---------------------------------------------------------------------------
// A saved conversation

void ConversationRows::showHistory(const QList<Message> &history)
{
    const qsizetype from = startOfLastTurns(history, TurnsPerPage);
    QList<Row> rows;
    QList<TurnSpan> turns;
    appendHistoryRows(history, from, rows, turns);
    mapToTrace(rows, turns);
    addSubAgentCalls(rows);
    addUnheldTurns(rows, turns, from == 0, -1);
    addRecordedNotices(rows);
    resetRows(std::move(rows), std::move(turns), history.first(from));
}

void ConversationRows::clear()
{
    resetRows({}, {}, {});
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
    addSubAgentCalls(rows);
    const auto shownQuestion = std::find_if(m_rows.cbegin(), m_rows.cend(), [](const Row &shown) {
        return shown.kind == Row::Kind::User && shown.traceNode >= 0;
    });
    addUnheldTurns(rows, turns, from == 0, shownQuestion == m_rows.cend() ? -1 : shownQuestion->traceNode);
    addRecordedNotices(rows);
    m_earlierHistory.resize(from);

    const int added = int(rows.size());
    m_turns = turns + m_turns;
    if (added == 0)
        return;
    beginInsertRows({}, 0, added - 1);
    m_rows = rows + m_rows;
    if (m_live) {
        for (int *index : {&m_live->streamingRow, &m_live->lastAnswerRow, &m_live->retryRow}) {
            if (*index >= 0)
                *index += added;
        }
    }
    endInsertRows();
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
        case Message::Role::User: {
            Row question = Row::message(Row::Kind::User, message.text, -1);
            question.attachments = message.attachments;
            add(std::move(question));
            break;
        }
        case Message::Role::Assistant:
            if (!message.text.isEmpty())
                add(Row::message(Row::Kind::Assistant, message.text, -1));
            for (const ToolCall &call : message.toolCalls)
                add(Row::call(call, -1));
            break;
        case Message::Role::Tool: {
            auto call = std::find_if(rows.rbegin(), rows.rend(), [&message](const Row &row) {
                return row.kind == Row::Kind::ToolCall && row.toolCall.id == message.toolCallId;
            });
            Row &row = call != rows.rend()
                           ? *call
                           : rows[add(Row::call({message.toolCallId, message.toolName, {}, {}}, -1))];
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
    QHash<QString, int> toolCallNodes;
    for (Row &row : rows) {
        if (row.turn != turn || turn < 0) {
            turn = row.turn;
            const TurnSpan span = spans.value(turn);
            const bool asked = span.historyEnd > span.historyStart && span.messagesBefore >= 0;
            turnNode = asked ? finder.nextTurn(span.messagesBefore) : -1;
            answers = TurnNodeFinder::answerNodes(*m_trace, turnNode);
            toolCallNodes = TurnNodeFinder::toolCallNodes(*m_trace, turnNode);
        }
        switch (row.kind) {
        case Row::Kind::User: row.traceNode = turnNode; break;
        case Row::Kind::Assistant:
            row.traceNode = answers.isEmpty() ? -1 : answers.takeFirst();
            row.agent = Row::speakerOf(TurnNodeFinder::agentOf(*m_trace, row.traceNode));
            break;
        case Row::Kind::ToolCall:
            row.traceNode = toolCallNodes.value(row.toolCall.id, -1);
            // The message only says whether it failed; the node says why (denied, blocked, …).
            if (row.traceNode >= 0 && isPlainResult(row.toolState)
                && m_trace->node(row.traceNode).status != TraceStatus::Running)
                row.toolState = Row::toolStateOf(m_trace->node(row.traceNode).status,
                                                 row.toolState == Row::ToolState::Failed);
            break;
        case Row::Kind::Notice: break;
        }
    }
}

// The history holds a sub-agent's answer as its call's result, not its steps: its tool calls, which
// the chat showed live after the call that asked it, come back from the trace.
void ConversationRows::addSubAgentCalls(QList<Row> &rows) const
{
    if (!m_trace)
        return;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const Row asking = rows.at(i);
        if (asking.kind != Row::Kind::ToolCall || asking.traceNode < 0 || !asking.agent.isEmpty())
            continue;
        qsizetype at = i + 1;
        for (int node : TurnNodeFinder::subAgentToolCalls(*m_trace, asking.traceNode)) {
            const TraceNode &callNode = m_trace->node(node);
            const auto *data = std::get_if<ToolCallData>(&callNode.payload);
            if (!data)
                continue;
            Row row = Row::call(data->call, node);
            row.agent = TurnNodeFinder::agentOf(*m_trace, node);
            row.turn = asking.turn;
            row.replaced = asking.replaced;
            row.progress = data->progress;
            if (callNode.status == TraceStatus::Running) {
                row.text = tr("No result was recorded for this call.");
                row.toolState = Row::ToolState::Skipped;
            } else {
                row.text = data->result;
                row.toolState = Row::toolStateOf(callNode.status, data->isError);
            }
            rows.insert(at++, row);
        }
        i = at - 1;
    }
}

// A context warning follows the question, a retry notice precedes what its model call answered (the
// answer, its tool calls); the turn's end notice ends it. Trace nodes are numbered as they begin, so "what
// came later" is a higher id.
void ConversationRows::addRecordedNotices(QList<Row> &rows) const
{
    if (!m_trace)
        return;
    QList<Row> withNotices;
    withNotices.reserve(rows.size());
    for (qsizetype first = 0; first < rows.size();) {
        const int turn = rows.at(first).turn;
        qsizetype last = first;
        while (last < rows.size() && rows.at(last).turn == turn)
            ++last;
        const Row &question = rows.at(first);
        QList<TurnNotice> notices = question.kind == Row::Kind::User
                                        ? TurnNotices::ofTurn(*m_trace, question.traceNode)
                                        : QList<TurnNotice>();
        const auto addNotice = [&withNotices, &question](const TurnNotice &notice) {
            Row row = Row::fromNotice(notice);
            row.turn = question.turn;
            row.replaced = question.replaced;
            row.retryable = notice.retryable && !question.replaced;
            withNotices.append(row);
        };
        for (qsizetype i = first; i < last; ++i) {
            const Row &row = rows.at(i);
            while (i > first && row.traceNode >= 0 && !notices.isEmpty() && notices.first().modelCall >= 0
                   && notices.first().modelCall <= row.traceNode)
                addNotice(notices.takeFirst());
            withNotices.append(row);
            // The context warning follows the question, as the session added it live.
            while (i == first && !notices.isEmpty() && notices.first().kind == TurnNotice::Kind::ContextFull)
                addNotice(notices.takeFirst());
        }
        for (const TurnNotice &notice : std::as_const(notices))
            addNotice(notice);
        first = last;
    }
    rows = std::move(withNotices);
}

void ConversationRows::addUnheldTurns(QList<Row> &rows, QList<TurnSpan> &turns, bool fromStart,
                                      int beforeRoot)
{
    if (!m_trace)
        return;
    const QList<int> &roots = m_trace->roots();
    QSet<int> held;
    qsizetype firstHeld = roots.size();
    for (const Row &row : std::as_const(rows)) {
        if (row.kind == Row::Kind::User && row.traceNode >= 0) {
            held.insert(row.traceNode);
            firstHeld = std::min(firstHeld, roots.indexOf(row.traceNode));
        }
    }
    const qsizetype start = fromStart ? 0 : firstHeld + 1;
    const qsizetype beforePosition = beforeRoot >= 0 ? roots.indexOf(beforeRoot) : -1;
    const qsizetype end = beforePosition >= 0 ? beforePosition : roots.size();
    for (qsizetype position = start; position < end; ++position) {
        const int root = roots.at(position);
        const auto *data = std::get_if<TurnData>(&m_trace->node(root).payload);
        if (held.contains(root) || !data)
            continue;
        // A question a shield blocked never entered the history; any other turn was asked again.
        bool blockedQuestion = false;
        for (int child : m_trace->node(root).children) {
            const auto *check = std::get_if<ShieldCheckData>(&m_trace->node(child).payload);
            blockedQuestion |= check && check->stage == u"input" && !check->passed;
        }
        const TurnSpan span{++m_turnSerial, -1, -1, -1};
        QList<Row> added;
        added.append(Row::message(Row::Kind::User, data->input, root));
        const std::optional<TurnOutcome> outcome = turnOutcomeFromName(data->outcome);
        const bool answered
            = outcome
              && (*outcome == TurnOutcome::Answered || *outcome == TurnOutcome::Reflected
                  || *outcome == TurnOutcome::Summarised || *outcome == TurnOutcome::ForcedFinal);
        if (answered && !data->output.isEmpty()) {
            const QList<int> answers = TurnNodeFinder::answerNodes(*m_trace, root);
            Row answer
                = Row::message(Row::Kind::Assistant, data->output, answers.isEmpty() ? root : answers.last());
            answer.agent = Row::speakerOf(
                answers.isEmpty() ? data->agentName : TurnNodeFinder::agentOf(*m_trace, answer.traceNode));
            added.append(answer);
        }
        for (Row &row : added) {
            row.turn = span.id;
            row.replaced = !blockedQuestion;
        }
        // Before the first question asked after it.
        qsizetype at = rows.size();
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const Row &row = rows.at(i);
            if (row.kind == Row::Kind::User && row.traceNode >= 0
                && roots.indexOf(row.traceNode) > position) {
                at = i;
                break;
            }
        }
        const int nextTurn = at < rows.size() ? rows.at(at).turn : -1;
        const auto spanAt = std::find_if(turns.begin(), turns.end(),
                                         [nextTurn](const TurnSpan &turn) { return turn.id == nextTurn; });
        turns.insert(spanAt, span);
        for (qsizetype i = 0; i < added.size(); ++i)
            rows.insert(at + i, added.at(i));
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
    // A model call that only asked for tools shows as what it produced: their cards.
    if (const int row = rowOfRequestedToolCall(*m_trace, nodeId, byNode); row >= 0)
        return row;

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
