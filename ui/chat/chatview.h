#pragma once

#include "ui/chat/messagewidget.h"
#include "ui/chat/noticecard.h"

#include "agent/debug/toolapprovalpolicy.h"
#include "agent/loop/agent.h"
#include "agent/mcp/mcpclient.h"
#include "agent/session/conversationrows.h"
#include "agent/session/mcpbridge.h"

#include <QList>
#include <QPointer>
#include <QScrollArea>

#include <optional>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QTimer;
class QVBoxLayout;
QT_END_NAMESPACE

namespace Loopscope {
class McpHub;
}

namespace Loopscope::Ui {

class ChatItem;
class ElicitationCard;
class SamplingCard;
class ToolCallCard;

/*!
    The conversation: messages, tool calls and notices in the order they
    happened, one item per row of a ConversationRows model handed to it,
    which its owner feeds live from an agent or rebuilds from a saved
    history. The view only follows the model's rowsInserted, rowsRemoved,
    dataChanged and modelReset. It shows and forwards; the loop and its
    decisions stay with the agent, the approval policy and whoever handles
    the request signals.

    Streamed text is batched (one render per 16 ms at most) and the view keeps
    to the bottom unless the user scrolled up. Each item has its row's trace
    node, so selecting in the chat and in the trace can follow each other.
    Read-only, it shows a conversation nobody can continue here (a replay):
    the edit, regenerate and retry buttons stay hidden.
*/
class ChatView final : public QScrollArea
{
    Q_OBJECT

public:
    explicit ChatView(QWidget *parent = nullptr);
    ~ChatView() override;

    // The rows to show, which their owner feeds (not owned); nullptr: none.
    void setModel(ConversationRows *model);
    ConversationRows *model() const;

    // Shows whether the agent is busy or waits for the model (nullptr: stop
    // following); its turns reach the view as the model's rows. Not owned.
    void follow(Agent *agent);
    // Held tool calls appear as approval forms in their cards; not owned.
    void setApprovalPolicy(ToolApprovalPolicy *policy);
    // Names the MCP server of a held MCP tool on its approval form; not owned.
    void setMcpHub(McpHub *hub);

    // A conversation to watch, not to continue (a replay): no Edit,
    // Regenerate or Retry on its messages and notices.
    void setReadOnly(bool readOnly);
    bool isReadOnly() const { return m_readOnly; }
    // What the view says while it has nothing to show; by default, to ask the agent something.
    void setEmptyText(const QString &text);
    QString emptyText() const;

    // A long saved conversation shows its last turns; showEarlierTurns() asks
    // the model for the rest, so opening a session of thousands of messages
    // stays quick and small. Turns not shown yet, and showing up to \a count more.
    int earlierTurnCount() const;
    void showEarlierTurns(int count = TurnsPerPage);

    // How many of a saved conversation's turns showHistory() shows at first.
    static constexpr int TurnsPerPage = ConversationRows::TurnsPerPage;

    // Highlights and scrolls to the item of the node, or of its nearest
    // descendant or ancestor that has one, first showing the earlier turns
    // the node belongs to. Emits nothing.
    void selectTraceNode(int nodeId);

    // Marks the last question as the one the composer edits (false: none is).
    void setEditingLastQuestion(bool editing);
    // The index of the item being edited; -1 without one.
    int editedIndex() const;

    int itemCount() const { return int(m_items.size()); }
    ChatItem *item(int index) const;
    QString itemText(int index) const;
    int indexOf(const ChatItem *item) const;
    int selectedIndex() const;
    ChatItem *itemForTraceNode(int nodeId) const;
    ToolCallCard *toolCallCard(const QString &callId) const;

    // An MCP server's question as a card below the conversation; its answer
    // comes back through elicitationAnswered(). Settling (answered here or
    // elsewhere, e.g. the turn was stopped) disables the card; finished cards
    // go at the next turn.
    void showElicitation(int id, const McpElicitation &request);
    void settleElicitation(int id);
    ElicitationCard *elicitationCard(int id) const;
    // An MCP server's request for a model call, the same way; the user's decision comes back through
    // samplingDecided(). \a sessionModel: what it runs on unless the user picks another.
    void showSampling(int id, const McpSamplingRequest &request, const QString &sessionModel);
    void settleSampling(int id);
    SamplingCard *samplingCard(int id) const;

    bool isFollowingBottom() const { return m_followBottom; }
    // How often streamed text was pushed into the view (batched deltas).
    int streamRenderCount() const { return m_streamRenderCount; }
    bool isEmptyHintVisible() const;
    bool isActivityVisible() const;

protected:
    // One stop in the window's Tab order: Tab leaves the view (after the controls of a question
    // waiting for an answer, an approval or an MCP server's form); the arrow keys walk its items.
    bool focusNextPrevChild(bool next) override;
    void keyPressEvent(QKeyEvent *event) override;

signals:
    void traceNodeSelected(int nodeId);
    void editLastRequested(const QString &text);
    void regenerateRequested();
    void retryRequested();
    void elicitationAnswered(int id, const Loopscope::McpElicitationAnswer &answer);
    void samplingDecided(int id, const Loopscope::McpSamplingDecision &decision);

private:
    void onRowsInserted(const QModelIndex &parent, int first, int last);
    void onRowsRemoved(const QModelIndex &parent, int first, int last);
    void onDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight);
    void onRowChanged(int index);
    void onModelReset();
    void insertItems(int first, int count);
    void onTurnStarted();
    void onTurnEnded(int turn);
    void onAttemptFailed(int attempt, const QString &reason);
    void onApprovalRequested(const ToolApprovalPolicy::Request &request);
    void onApprovalSettled(const QString &callId, bool allowed);
    // The MCP servers' questions and model-call requests (finished ones, or all).
    void removeFinishedElicitations(bool all);
    // A question's card below the conversation, above the activity line.
    void insertCard(QWidget *card);

    ChatItem *createItem(const ConversationRow &row);
    void render(ChatItem *item, const ConversationRow &row);
    void flushStream();
    void removeItems(int first, int count);
    void updateEarlierButton();

    void keepApprovalIfWaiting(const QString &callId, bool waiting);

    void selectItem(ChatItem *item);
    // Selects and shows the item, and its step in the trace, as a click on it does.
    void activateItem(ChatItem *item);
    // The controls inside the view that Tab stops at: those of the forms waiting for the user.
    QList<QWidget *> tabStopsInside() const;
    void updateActions();
    // The item of the last question that entered the history; nullptr without one.
    ChatItem *lastQuestionItem() const;
    void updateActivity();
    void updateEmptyHint();
    bool isBusy() const;

    void onScrollRangeChanged(int minimum, int maximum);
    void followToTheEnd();
    void onScrollValueChanged(int value);
    void scrollToBottom();

    // Stands in, empty, while no model is set.
    ConversationRows *m_noRows;
    ConversationRows *m_rows;
    QPointer<Agent> m_agent;
    QPointer<ToolApprovalPolicy> m_policy;
    QPointer<McpHub> m_mcpHub;

    QWidget *m_content;
    QVBoxLayout *m_layout;
    QPushButton *m_earlierButton;
    QWidget *m_activity;
    QLabel *m_activityLabel;
    QLabel *m_emptyHint;
    QTimer *m_flushTimer;
    QTimer *m_followTimer; // scrolls to the end once the grown content is painted

    // One per row, in the rows' order.
    QList<ChatItem *> m_items;
    QHash<int, QPointer<ElicitationCard>> m_elicitations;
    QHash<int, QPointer<SamplingCard>> m_samplings;
    // The item whose streamed text waits for the next render.
    QPointer<ChatItem> m_pendingStream;
    QPointer<ChatItem> m_selected;
    int m_streamRenderCount = 0;
    bool m_followBottom = true;
    bool m_readOnly = false;
};

} // namespace Loopscope::Ui
