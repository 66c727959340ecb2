#pragma once

#include "agent/tools/builtin/workspace.h"

#include "ui/chat/chatitem.h"

#include "agent/conversation/message.h"

#include <QJsonObject>

QT_BEGIN_NAMESPACE
class QLabel;
class QProgressBar;
class QToolButton;
class QVBoxLayout;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class ApprovalCard;
class CodeBlockView;
class ElidedLabel;

/*!
    A tool call inline in the conversation. The header names the tool, its
    arguments in brief and its state, with a busy bar while it runs (not
    while a breakpoint holds it: nothing is happening then); the body
    (collapsed unless a decision is needed) holds the full arguments, any
    progress, the result or error, and the approval form when the call waits
    for the user.
*/
class ToolCallCard final : public ChatItem
{
    Q_OBJECT

public:
    enum class Status {
        Running,
        AwaitingApproval,
        Held, // at a breakpoint of the step debugger, not running yet
        Succeeded,
        Failed,
        Denied,
        Blocked,
        Skipped,
        Cancelled
    };
    Q_ENUM(Status)

    explicit ToolCallCard(const ToolCall &call, QWidget *parent = nullptr);

    QString callId() const { return m_call.id; }
    // A sub-agent's call: its title names the agent that made it, so its approval says who asks.
    void setAgent(const QString &agent);
    ToolCall call() const { return m_call; }
    // E.g. arguments the user edited before allowing the call.
    void setCall(const ToolCall &call);

    Status status() const { return m_status; }
    bool isBusy() const;
    bool hasResult() const { return m_hasResult; }
    QString result() const { return m_result; }

    void addProgress(const QString &message);
    QStringList progress() const { return m_progress; }
    void setResult(const QString &result, Status status);
    // The step debugger holds the call (Held, no busy bar) or let it go (Running). No effect once it has a
    // result or while it waits for approval.
    void setHeld(bool held);

    // The workspace is where a file change is previewed.
    ApprovalCard *showApproval(const QJsonObject &schema, const Workspace &workspace = {});
    ApprovalCard *approvalCard() const { return m_approval; }
    // The decision was made (or the turn ended): the form goes away.
    void closeApproval(std::optional<bool> allowed);

    bool isExpanded() const;
    void setExpanded(bool expanded);

    QString plainText() const override;

    QToolButton *toggleButton() const { return m_toggle; }
    QProgressBar *busyIndicator() const { return m_busy; }
    QLabel *statusLabel() const { return m_statusLabel; }

    static QString statusText(Status status);

private:
    void setStatus(Status status);
    void showArguments();
    void createCodeViews();
    void showResult();

    ToolCall m_call;
    Status m_status = Status::Running;
    QString m_result;
    bool m_hasResult = false;
    bool m_resultInStatus = false; // a denial that the status label says in full
    QStringList m_progress;

    QToolButton *m_toggle;
    ElidedLabel *m_preview;
    QLabel *m_statusLabel;
    QProgressBar *m_busy;
    QWidget *m_body;
    QVBoxLayout *m_bodyLayout;
    QLabel *m_argumentsTitle;
    CodeBlockView *m_arguments = nullptr; // made when the body first opens, like m_resultView
    QLabel *m_progressLabel;
    QLabel *m_resultTitle;
    CodeBlockView *m_resultView = nullptr;
    ApprovalCard *m_approval = nullptr;
};

} // namespace Loopscope::Ui
