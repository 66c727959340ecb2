#pragma once

#include "agent/loop/interceptor.h"

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

    // The rule for tools without their own; Always unless set.
    void setDefaultRule(Rule rule);
    Rule defaultRule() const { return m_defaultRule; }
    void setRule(const QString &toolName, Rule rule);
    Rule rule(const QString &toolName) const;
    QHash<QString, Rule> rules() const { return m_rules; }
    void setRules(const QHash<QString, Rule> &rules);
    // What the model is told when a Never rule denies a call, for a caller
    // that knows better than "the user" (e.g. `loopscope run --approve none`);
    // empty: a sentence naming the tool.
    void setNeverReason(const QString &reason) { m_neverReason = reason; }

    QList<Request> pending() const;

    // Each returns false when no such call is waiting (already decided or cancelled).
    bool allowOnce(const QString &callId, const std::optional<QString> &editedArguments = std::nullopt);
    // Allows this call and sets the tool's rule to Always; other calls to the
    // same tool that wait are allowed too (with their own arguments).
    bool alwaysAllow(const QString &callId, const std::optional<QString> &editedArguments = std::nullopt);
    bool deny(const QString &callId, const QString &reason = {});
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

private:
    struct Waiting
    {
        Request request;
        ToolCallDecision decision;
    };

    std::optional<Waiting> takeWaiting(const QString &callId);

    Rule m_defaultRule = Rule::Always;
    QHash<QString, Rule> m_rules;
    QString m_neverReason;
    QList<Waiting> m_waiting;
};

} // namespace Loopscope
