#pragma once

#include "agent/conversation/message.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QStringList>

#include <optional>

namespace Loopscope {

class Agent;
class Trace;
struct AgentEvent;
struct TurnResult;

/*!
    One line of a conversation as a chat shows it. The trace node and the
    turn are ids, so a view can find a row from a trace node and back without
    looking at what anyone said.
*/
struct ConversationRow
{
    enum class Kind { User, Assistant, ToolCall, Notice };
    // Held: the step debugger holds the call at a breakpoint, before it runs.
    enum class ToolState { Running, Held, Succeeded, Failed, Denied, Blocked, Skipped, Cancelled };
    enum class Notice { Error, Limit, Cancelled, Blocked, Info, Retry };

    Kind kind = Kind::User;
    QString text; // the message, the tool's result or the notice
    ToolCall toolCall;
    ToolState toolState = ToolState::Running;
    QStringList progress;
    Notice notice = Notice::Error;
    bool retryable = false;
    bool streaming = false; // the answer is still arriving
    int traceNode = -1;
    int turn = -1;

    bool hasResult() const
    {
        return kind == Kind::ToolCall && toolState != ToolState::Running && toolState != ToolState::Held;
    }
    bool operator==(const ConversationRow &) const = default;
};

/*!
    The conversation as rows: what the chat view renders and what selecting in
    the chat and in the trace goes through. It is built from a saved history
    and its trace (each row finds its node from the trace's structure: the turn
    by where its question stands in the history, an answer by its order among
    the turn's model calls, a tool call by its id) or live from an agent's
    events, and from the trace's breakpoint waits: a tool call the step
    debugger holds is Held, not Running, until its wait ends. It keeps which
    rows belong to which turn, drops the rows of turns a new turn replaces
    (regenerate, edit, retry), and pages a long saved conversation: the last
    turns first, earlier ones on request.
*/
class ConversationRows final : public QObject
{
    Q_OBJECT

public:
    explicit ConversationRows(QObject *parent = nullptr);
    ~ConversationRows() override;

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
    void rowsInserted(int first, int count);
    void rowsRemoved(int first, int count);
    void rowChanged(int index);
    // All rows were replaced.
    void reset();
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
    void applyToolCall(const AgentEvent &event);
    void applyToolResult(const AgentEvent &event);
    void withholdAnswer();
    void addTurnEndNotice(const TurnResult &result);
    void endRunningToolCalls();

    int append(ConversationRow row);
    void change(int index, const ConversationRow &row);
    void dropReplacedTurns(int historySize);
    void removeTurn(int turn);
    TurnSpan *span(int turn);
    void appendHistoryRows(const QList<Message> &history, qsizetype from, QList<ConversationRow> &rows,
                           QList<TurnSpan> &turns);
    void mapToTrace(QList<ConversationRow> &rows, const QList<TurnSpan> &turns) const;

    QPointer<Agent> m_agent;
    QPointer<const Trace> m_trace;
    QList<ConversationRow> m_rows;
    QList<TurnSpan> m_turns;
    // The saved conversation's messages before the first one with a row.
    QList<Message> m_earlierHistory;
    std::optional<LiveTurn> m_live;
    int m_turnSerial = 0;
};

} // namespace Loopscope
