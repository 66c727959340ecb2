#pragma once

#include "agent/session/conversationrow.h"

#include <QAbstractListModel>
#include <QList>
#include <QPointer>

#include <optional>

namespace Loopscope {

class Agent;
class Trace;
struct AgentEvent;
struct TurnResult;

/*!
    The conversation as rows: what the chat view renders and what selecting in
    the chat and in the trace goes through. It is built from a saved history
    and its trace (each row finds its node from the trace's structure: the turn
    by where its question stands in the history, an answer by its order among
    the turn's model calls, a tool call by its id) or live from an agent's
    events, and from the trace's breakpoint waits: a tool call the step
    debugger holds is Held, not Running, until its wait ends. It keeps which
    rows belong to which turn, marks the rows of turns a new turn replaces
    (regenerate, edit, retry) as replaced but keeps them, as the trace keeps
    their turns (reopened, a replaced turn shows its question, its answer and
    its notices from its trace node), and pages a long saved conversation: the
    last turns first, earlier ones on request.

    It is a list model whose owner feeds it (follow(), setTrace(),
    showHistory()) and whose views only read it: each new row is one
    rowsInserted, each change of a row one dataChanged naming the roles that
    changed (a streamed answer: one row inserted, then changed per delta), a
    replaced turn one dataChanged per row, and a new conversation a modelReset.
*/
class ConversationRows final : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Role {
        // Qt::DisplayRole is the row's text.
        KindRole = Qt::UserRole + 1, // int(ConversationRow::Kind)
        StreamingRole,               // bool
        ToolStateRole,               // int(ConversationRow::ToolState)
        TraceNodeRole,               // int, -1 without one
        TurnRole,                    // int
        ReplacedRole,                // bool: ConversationRow::replaced
        SourcesRole,                 // QList<RetrievalHit>: ConversationRow::sources
        RowRole,                     // the whole ConversationRow, as a QVariant of it
    };
    Q_ENUM(Role)

    explicit ConversationRows(QObject *parent = nullptr);
    ~ConversationRows() override;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Where the rows find their trace nodes; not owned.
    void setTrace(const Trace *trace);
    const Trace *trace() const;
    // Rows follow the agent's turns as they happen (nullptr: stop following); not owned.
    void follow(Agent *agent);
    Agent *agent() const;

    // Replaces the rows with a saved conversation's last TurnsPerPage turns.
    void showHistory(const QList<Message> &history);
    void clear();
    // Turns of the saved conversation without rows yet, and adding up to \a count more of them.
    int earlierTurnCount() const;
    bool hasEarlierMessages() const { return !m_earlierHistory.isEmpty(); }
    void showEarlierTurns(int count = TurnsPerPage);
    // A notice that comes from outside the agent's turn (e.g. an MCP server that stopped), in the running
    // turn if there is one, else after the last.
    void addNotice(ConversationRow::Notice kind, const QString &text, int traceNode = -1);

    // How many of a saved conversation's turns showHistory() shows at first.
    static constexpr int TurnsPerPage = 25;

    const QList<ConversationRow> &rows() const { return m_rows; }
    int size() const { return int(m_rows.size()); }
    const ConversationRow &at(int index) const { return m_rows.at(index); }
    // The latest row of the tool call; -1 without one.
    int rowOfToolCall(const QString &callId) const;
    // The row of the node, else of its nearest descendant, else of its nearest ancestor; -1 without one.
    int rowOfTraceNode(int nodeId) const;
    // The same, first adding the earlier turns the node belongs to.
    int revealTraceNode(int nodeId);

    bool isTurnRunning() const { return m_live.has_value(); }
    bool isStreaming() const;
    // The latest turn's id; -1 without rows.
    int lastTurn() const { return m_turns.isEmpty() ? -1 : m_turns.last().id; }
    // False for a turn whose question never entered the history (a shield blocked it).
    bool isInHistory(int turn) const;

signals:
    // The agent's turn, beyond its rows: views show that it runs and ends.
    void turnStarted(int turn);
    void turnEnded(int turn);
    void attemptFailed(int attempt, const QString &reason);

private:
    struct TurnSpan
    {
        int id = -1;
        int historyStart = 0;    // index of the turn's user message in the history
        int historyEnd = 0;      // one past the last message the turn added
        int messagesBefore = -1; // how the trace finds its turn (TurnNodeFinder)
    };
    struct LiveTurn
    {
        int turn = -1;
        int traceNode = -1;
        int streamingRow = -1;
        int lastAnswerRow = -1;
        int errorNode = -1;
        int blockedNode = -1;
        bool outputBlocked = false;
        int handoffNode = -1;
        // The model call being retried: its notice, and its failed attempts.
        int retryRow = -1;
        QList<RetryData> retries;
    };

    void onAgentEvent(const AgentEvent &event);
    void onMessageAppended(const Message &message);
    void onTurnFinished(const TurnResult &result);
    void onTraceReset();
    // A breakpoint's Wait node under a tool call holds the call's row until the wait ends.
    void onTraceNodeAppended(int id);
    void onTraceNodeChanged(int id);
    void setToolCallHeld(int waitNode, bool held);

    void beginTurn(int traceNode);
    void addDelta(const AgentEvent &event);
    int endStreaming();
    void finishAnswer(const AgentEvent &event);
    void addRetry(const AgentEvent &event);
    void addCompaction(const AgentEvent &event);
    // The retried call ended: the notice says whether the retries helped.
    void settleRetry(bool recovered);
    void applyToolCall(const AgentEvent &event);
    void applyToolResult(const AgentEvent &event);
    void withholdAnswer();
    void addTurnEndNotice(const TurnResult &result);
    void endRunningToolCalls();

    // An answer's sources, from the trace.
    void findSources(ConversationRow &row) const;
    int append(ConversationRow row);
    void change(int index, ConversationRow row);
    // Replaces every row and turn, as one reset.
    void resetRows(QList<ConversationRow> rows, QList<TurnSpan> turns, QList<Message> earlierHistory);
    void markReplacedTurns(int historySize);
    void markReplaced(int turn);
    TurnSpan *span(int turn);
    void appendHistoryRows(const QList<Message> &history, qsizetype from, QList<ConversationRow> &rows,
                           QList<TurnSpan> &turns);
    void mapToTrace(QList<ConversationRow> &rows, const QList<TurnSpan> &turns) const;
    void addSubAgentCalls(QList<ConversationRow> &rows) const;
    // The notices each turn's trace node records (TurnNotices::ofTurn), where the live chat showed them.
    void addRecordedNotices(QList<ConversationRow> &rows) const;
    // The trace's turns the history no longer holds (replaced, or a question a shield blocked) among
    // \a rows: those after the first root of \a rows (from the start when \a fromStart) and before
    // \a beforeRoot (-1: to the end).
    void addUnheldTurns(QList<ConversationRow> &rows, QList<TurnSpan> &turns, bool fromStart, int beforeRoot);

    QPointer<Agent> m_agent;
    QPointer<const Trace> m_trace;
    QList<ConversationRow> m_rows;
    // The last row of each tool call id: rowOfToolCall() in constant time, so a response with
    // thousands of calls costs time in proportion to them, not to their square.
    QHash<QString, int> m_toolCallRows;
    void indexToolCall(int index);
    QList<TurnSpan> m_turns;
    // The saved conversation's messages before the first one with a row.
    QList<Message> m_earlierHistory;
    std::optional<LiveTurn> m_live;
    int m_turnSerial = 0;
};

} // namespace Loopscope
