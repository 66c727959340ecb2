#include "agent/debug/toolapprovalpolicy.h"

#include "agent/conversation/enumnames.h"

#include <QStringList>

#include <algorithm>
#include <utility>

using namespace Qt::StringLiterals;

namespace Loopscope {

ToolApprovalPolicy::ToolApprovalPolicy(QObject *parent)
    : QObject(parent)
{}

void ToolApprovalPolicy::setDefaultRule(Rule rule)
{
    if (m_defaultRule && *m_defaultRule == rule)
        return;
    m_defaultRule = rule;
    emit rulesChanged();
}

void ToolApprovalPolicy::setRule(const QString &toolName, Rule rule)
{
    if (m_rules.value(toolName) == rule && m_rules.contains(toolName))
        return;
    m_rules.insert(toolName, rule);
    emit rulesChanged();
}

ToolApprovalPolicy::Rule ToolApprovalPolicy::rule(const QString &toolName) const
{
    return m_rules.value(toolName, defaultRule());
}

ToolApprovalPolicy::Rule ToolApprovalPolicy::ruleFor(const ToolCall &call,
                                                     const ToolBehaviour &behaviour) const
{
    const std::optional<Rule> own
        = m_rules.contains(call.name) ? std::optional(m_rules.value(call.name)) : m_defaultRule;
    if (own == Rule::Never || own == Rule::Always)
        return *own;
    const bool covered = std::any_of(m_scoped.cbegin(), m_scoped.cend(), [&](const ScopedApproval &approval) {
        return approvalCovers(approval, call, m_workspace);
    });
    if (covered)
        return Rule::Always;
    return own.value_or(behaviour.asksFirst ? Rule::Ask : Rule::Always);
}

void ToolApprovalPolicy::setScopedApprovals(const QList<ScopedApproval> &approvals)
{
    if (m_scoped == approvals)
        return;
    m_scoped = approvals;
    emit rulesChanged();
}

void ToolApprovalPolicy::setRules(const QHash<QString, Rule> &rules)
{
    if (m_rules == rules)
        return;
    m_rules = rules;
    emit rulesChanged();
}

QList<ToolApprovalPolicy::Request> ToolApprovalPolicy::pending() const
{
    QList<Request> result;
    result.reserve(m_waiting.size());
    for (const Waiting &waiting : m_waiting)
        result.append(waiting.request);
    return result;
}

void ToolApprovalPolicy::interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision)
{
    switch (ruleFor(checkpoint.call, checkpoint.behaviour)) {
    case Rule::Always: decision.allow(); return;
    case Rule::Never:
        // Said so the model can explain or try another way.
        decision.deny(m_neverReason.isEmpty()
                          ? tr("The user does not allow the tool \"%1\" to run.").arg(checkpoint.call.name)
                          : m_neverReason);
        return;
    case Rule::Ask: break;
    }
    Request request{checkpoint.call.id, checkpoint};
    m_waiting.append({request, decision});
    emit approvalRequested(request);
}

std::optional<ToolApprovalPolicy::Waiting> ToolApprovalPolicy::takeWaiting(const QString &callId)
{
    const auto it = std::find_if(m_waiting.begin(), m_waiting.end(),
                                 [&](const Waiting &waiting) { return waiting.request.callId == callId; });
    if (it == m_waiting.end())
        return std::nullopt;
    Waiting waiting = *it;
    m_waiting.erase(it);
    return waiting;
}

bool ToolApprovalPolicy::allow(const QString &callId, const std::optional<QString> &editedArguments,
                               const DecisionNote &note)
{
    const std::optional<Waiting> waiting = takeWaiting(callId);
    if (!waiting)
        return false;
    if (editedArguments && *editedArguments != waiting->request.checkpoint.call.arguments)
        waiting->decision.allowWithArguments(*editedArguments, note);
    else
        waiting->decision.allow(note);
    emit approvalSettled(callId, true);
    return true;
}

bool ToolApprovalPolicy::allowOnce(const QString &callId, const std::optional<QString> &editedArguments,
                                   const QString &shownPreview)
{
    return allow(callId, editedArguments, {u"once"_s, shownPreview});
}

bool ToolApprovalPolicy::alwaysAllow(const QString &callId, const std::optional<QString> &editedArguments,
                                     const QString &shownPreview)
{
    return alwaysAllow(callId, ApprovalScope::tool(), editedArguments, shownPreview);
}

bool ToolApprovalPolicy::alwaysAllow(const QString &callId, const ApprovalScope &scope,
                                     const std::optional<QString> &editedArguments,
                                     const QString &shownPreview)
{
    const auto it = std::find_if(m_waiting.cbegin(), m_waiting.cend(),
                                 [&](const Waiting &waiting) { return waiting.request.callId == callId; });
    if (it == m_waiting.cend())
        return false;
    const ScopedApproval approval{it->request.checkpoint.call.name, scope};
    if (scope.kind == ApprovalScope::Kind::Tool) {
        setRule(approval.tool, Rule::Always);
    } else if (!m_scoped.contains(approval)) {
        m_scoped.append(approval);
        emit rulesChanged();
    }
    emit alwaysAllowGranted(approval);
    allow(callId, editedArguments, {scope.describe(), shownPreview});
    // The new rule holds for the other calls that wait, too, as far as it reaches.
    QStringList others;
    for (const Waiting &waiting : std::as_const(m_waiting)) {
        const ToolCallCheckpoint &checkpoint = waiting.request.checkpoint;
        if (ruleFor(checkpoint.call, checkpoint.behaviour) == Rule::Always)
            others.append(waiting.request.callId);
    }
    for (const QString &other : std::as_const(others))
        allow(other, std::nullopt, {scope.describe(), {}});
    return true;
}

bool ToolApprovalPolicy::deny(const QString &callId, const QString &reason, const QString &shownPreview)
{
    const std::optional<Waiting> waiting = takeWaiting(callId);
    if (!waiting)
        return false;
    // Without a reason the loop says "Denied by the user." on its own; a
    // default reason here would make the result say it twice.
    waiting->decision.deny(reason, {{}, shownPreview});
    emit approvalSettled(callId, false);
    return true;
}

void ToolApprovalPolicy::forgetPending()
{
    const QList<Waiting> waiting = std::exchange(m_waiting, {});
    for (const Waiting &entry : waiting)
        emit approvalSettled(entry.request.callId, false);
}

namespace {

constexpr EnumName<ToolApprovalPolicy::Rule> RuleNames[] = {
    {ToolApprovalPolicy::Rule::Always, u"always"},
    {ToolApprovalPolicy::Rule::Ask, u"ask"},
    {ToolApprovalPolicy::Rule::Never, u"never"},
};

} // namespace

QString ToolApprovalPolicy::ruleName(Rule rule)
{
    return nameOf(RuleNames, rule);
}

std::optional<ToolApprovalPolicy::Rule> ToolApprovalPolicy::ruleFromName(const QString &name)
{
    return valueNamed(RuleNames, name);
}

} // namespace Loopscope
