#pragma once

#include "agent/debug/approvalscope.h"
#include "agent/loop/interceptor.h"
#include "agent/tools/builtin/workspace.h"

#include <QHash>
#include <QList>
#include <QObject>

#include <optional>

namespace Loopscope {

/*!
    Whether a tool may run without asking: Always runs it, Never denies it
    (the model is told, so it can try something else), Ask holds the call
    until the user decides. An Interceptor, so it sits in the loop's chain
    beside the debugger; the UI shows the held calls inline (never modal) and
    answers through allowOnce(), alwaysAllow() or deny().

    A tool without a rule of its own follows the default rule when one is set;
    otherwise tools that ask first (they change files, run programs, reach the
    network) ask and the others run. "Always allow" may be scoped to a folder,
    a command prefix or a host: a scoped approval lets matching calls through,
    and only a tool's Never rule overrides it.
*/
class ToolApprovalPolicy final : public QObject, public Interceptor
{
    Q_OBJECT

public:
    enum class Rule { Always, Ask, Never };
    Q_ENUM(Rule)

    struct Request
    {
        QString callId; // the tool call's id, unique within a turn
        ToolCallCheckpoint checkpoint;
    };

    explicit ToolApprovalPolicy(QObject *parent = nullptr);

    // The rule for tools without their own, whatever their behaviour. Unset:
    // Ask for tools that ask first, Always for the others.
    void setDefaultRule(Rule rule);
    Rule defaultRule() const { return m_defaultRule.value_or(Rule::Always); }
    void setRule(const QString &toolName, Rule rule);
    // The tool's own rule, or the default rule (Always when unset).
    Rule rule(const QString &toolName) const;
    // What happens to this call: Always when a scoped approval covers it.
    Rule ruleFor(const ToolCall &call, const ToolBehaviour &behaviour) const;
    QHash<QString, Rule> rules() const { return m_rules; }
    void setRules(const QHash<QString, Rule> &rules);
    // What the model is told when a Never rule denies a call, for a caller
    // that knows better than "the user" (e.g. `loopscope run --approve none`);
    // empty: a sentence naming the tool.
    void setNeverReason(const QString &reason) { m_neverReason = reason; }

    // Where folder scopes are checked: a call outside it is never covered.
    void setWorkspace(const Workspace &workspace) { m_workspace = workspace; }
    Workspace workspace() const { return m_workspace; }
    QList<ScopedApproval> scopedApprovals() const { return m_scoped; }
    void setScopedApprovals(const QList<ScopedApproval> &approvals);

    QList<Request> pending() const;

    // Each returns false when no such call is waiting (already decided or cancelled).
    // shownPreview is what the user decided on, for the trace.
    bool allowOnce(const QString &callId, const std::optional<QString> &editedArguments = std::nullopt,
                   const QString &shownPreview = {});
    // Allows this call and sets the tool's rule to Always; other calls to the
    // same tool that wait are allowed too (with their own arguments).
    bool alwaysAllow(const QString &callId, const std::optional<QString> &editedArguments = std::nullopt,
                     const QString &shownPreview = {});
    // Allows this call and, from now on, the tool's calls within the scope
    // (the whole tool for a Tool scope); waiting calls it covers go too.
    bool alwaysAllow(const QString &callId, const ApprovalScope &scope,
                     const std::optional<QString> &editedArguments = std::nullopt,
                     const QString &shownPreview = {});
    bool deny(const QString &callId, const QString &reason = {}, const QString &shownPreview = {});
    // The turn ended: whatever waits belongs to it and is dropped.
    void forgetPending();

    void interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision) override;
    QString holdKind() const override { return QStringLiteral("approval"); }

    static QString ruleName(Rule rule); // "always", "ask", "never"
    static std::optional<Rule> ruleFromName(const QString &name);

signals:
    void approvalRequested(const Loopscope::ToolApprovalPolicy::Request &request);
    void approvalSettled(const QString &callId, bool allowed);
    void rulesChanged();
    // The user chose "Always allow": for whoever keeps the user's rules.
    void alwaysAllowGranted(const Loopscope::ScopedApproval &approval);

private:
    struct Waiting
    {
        Request request;
        ToolCallDecision decision;
    };

    std::optional<Waiting> takeWaiting(const QString &callId);
    bool allow(const QString &callId, const std::optional<QString> &editedArguments,
               const DecisionNote &note);

    std::optional<Rule> m_defaultRule;
    QHash<QString, Rule> m_rules;
    QList<ScopedApproval> m_scoped;
    Workspace m_workspace;
    QString m_neverReason;
    QList<Waiting> m_waiting;
};

} // namespace Loopscope
