#pragma once

#include "ui/chat/messagewidget.h"
#include "ui/chat/noticecard.h"

#include "agent/debug/toolapprovalpolicy.h"
#include "agent/loop/agent.h"

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
class Trace;
}

namespace Loopscope::Ui {

class ChatItem;
class ToolCallCard;

/*!
    The conversation: messages, tool calls and notices in the order they
    happened, streamed live from an agent it follows or rebuilt from a saved
    history. It shows and forwards; the loop and its decisions stay with the
    agent, the approval policy and whoever handles the request signals.

    Streamed text is batched (one render per 16 ms at most) and the view keeps
    to the bottom unless the user scrolled up. Each item remembers its trace
    node, so selecting in the chat and in the trace can follow each other.
    When a turn starts from an earlier point of the history (regenerate, edit,
    retry), the turns it replaces leave the view.
*/
class ChatView final : public QScrollArea
{
    Q_OBJECT

public:
    explicit ChatView(QWidget *parent = nullptr);
    ~ChatView() override;

    // For mapping trace nodes to items and back; not owned.
    void setTrace(const Trace *trace);
    // Shows the agent's turns as they happen (nullptr: stop following); not owned.
    void follow(Agent *agent);
    // Held tool calls appear as approval forms in their cards; not owned.
    void setApprovalPolicy(ToolApprovalPolicy *policy);

    // Replaces the view with a saved conversation; tool results join their calls.
    // A long one shows its last turns; showEarlierTurns() brings back the rest,
    // so opening a session of thousands of messages stays quick and small.
    void showHistory(const QList<Message> &history);
    void clear();
    // Turns of the saved conversation not shown yet, and showing up to \a count more of them.
    int earlierTurnCount() const;
    void showEarlierTurns(int count = TurnsPerPage);

    // How many of a saved conversation's turns showHistory() shows at first.
    static constexpr int TurnsPerPage = 25;

    // Highlights and scrolls to the item of the node, or of its nearest
    // descendant or ancestor that has one (none for a turn not shown yet). Emits nothing.
    void selectTraceNode(int nodeId);

    int itemCount() const { return int(m_items.size()); }
    ChatItem *item(int index) const;
    QString itemText(int index) const;
    int indexOf(const ChatItem *item) const;
    int selectedIndex() const;
    ChatItem *itemForTraceNode(int nodeId) const;
    ToolCallCard *toolCallCard(const QString &callId) const;

    bool isFollowingBottom() const { return m_followBottom; }
    // How often streamed text was pushed into the view (batched deltas).
    int streamRenderCount() const { return m_streamRenderCount; }
    bool isEmptyHintVisible() const;
    bool isActivityVisible() const;

signals:
    void traceNodeSelected(int nodeId);
    void editLastRequested(const QString &text);
    void regenerateRequested();
    void retryRequested();

private:
    struct TurnSpan
    {
        int id = -1;
        int historyStart = 0; // index of the turn's user message in the history
        int historyEnd = 0;   // one past the last message the turn added
    };
    struct LiveTurn
    {
        int turn = -1;
        int traceNode = -1;
        QPointer<MessageWidget> streaming;
        int streamingNode = -1;
        QString streamedText;
        QString pendingDelta;
        int pendingNode = -1;
        QPointer<MessageWidget> lastAnswer;
        int errorNode = -1;
        int blockedNode = -1;
        bool outputBlocked = false;
        int handoffNode = -1;
    };

    void onAgentEvent(const AgentEvent &event);
    void onMessageAppended(const Message &message);
    void onTurnFinished(const TurnResult &result);
    void onApprovalRequested(const ToolApprovalPolicy::Request &request);
    void onApprovalSettled(const QString &callId, bool allowed);
    void onTraceReset();

    void beginTurn(const QString &userText, int traceNode);
    void flushDeltas();
    void finishAnswer(const AgentEvent &event);
    void applyToolResult(const AgentEvent &event);
    void addTurnEndNotice(const TurnResult &result);

    void addHistoryItems(const QList<Message> &history, qsizetype from, qsizetype to);
    void updateEarlierButton();
    MessageWidget *addMessage(MessageWidget::Role role, const QString &text, int traceNode);
    ToolCallCard *addToolCard(const ToolCall &call, int traceNode);
    NoticeCard *addNotice(NoticeCard::Severity severity, const QString &message, int traceNode,
                          bool retryable);
    void appendItem(ChatItem *item);
    void removeTurn(int turn);
    void dropReplacedTurns(int historySize);
    TurnSpan *span(int turn);

    enum class Decision { AllowOnce, AlwaysAllow, Deny };
    void decide(const QString &callId, Decision decision, const std::optional<QString> &arguments = {});

    void selectItem(ChatItem *item);
    void updateActions();
    void updateActivity();
    void updateEmptyHint();
    bool isBusy() const;
    void mapItemsToTrace();
    int findToolCallNode(int turnNode, const QString &callId) const;

    void onScrollRangeChanged(int minimum, int maximum);
    void onScrollValueChanged(int value);
    void scrollToBottom();

    QPointer<Agent> m_agent;
    QPointer<ToolApprovalPolicy> m_policy;
    QPointer<const Trace> m_trace;

    QWidget *m_content;
    QVBoxLayout *m_layout;
    QPushButton *m_earlierButton;
    QWidget *m_activity;
    QLabel *m_activityLabel;
    QLabel *m_emptyHint;
    QTimer *m_flushTimer;

    QList<ChatItem *> m_items;
    QList<TurnSpan> m_turns;
    // The saved conversation's messages before the first one shown.
    QList<Message> m_earlierHistory;
    std::optional<LiveTurn> m_live;
    QPointer<ChatItem> m_selected;
    int m_turnSerial = 0;
    int m_streamRenderCount = 0;
    bool m_followBottom = true;
};

} // namespace Loopscope::Ui
