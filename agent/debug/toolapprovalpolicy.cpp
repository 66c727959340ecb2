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
    if (m_defaultRule == rule)
        return;
    m_defaultRule = rule;
    emit rulesChanged();
}

void ToolApprovalPolicy::setRule(const QString &toolName, Rule rule)
{
    if (m_rules.value(toolName, m_defaultRule) == rule && m_rules.contains(toolName))
        return;
    m_rules.insert(toolName, rule);
    emit rulesChanged();
}

ToolApprovalPolicy::Rule ToolApprovalPolicy::rule(const QString &toolName) const
{
    return m_rules.value(toolName, m_defaultRule);
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
    switch (rule(checkpoint.call.name)) {
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

bool ToolApprovalPolicy::allowOnce(const QString &callId, const std::optional<QString> &editedArguments)
{
    const std::optional<Waiting> waiting = takeWaiting(callId);
    if (!waiting)
        return false;
    if (editedArguments && *editedArguments != waiting->request.checkpoint.call.arguments)
        waiting->decision.allowWithArguments(*editedArguments);
    else
        waiting->decision.allow();
    emit approvalSettled(callId, true);
    return true;
}

bool ToolApprovalPolicy::alwaysAllow(const QString &callId, const std::optional<QString> &editedArguments)
{
    const auto it = std::find_if(m_waiting.cbegin(), m_waiting.cend(),
                                 [&](const Waiting &waiting) { return waiting.request.callId == callId; });
    if (it == m_waiting.cend())
        return false;
    const QString toolName = it->request.checkpoint.call.name;
    setRule(toolName, Rule::Always);
    allowOnce(callId, editedArguments);
    // The rule now says this tool runs without asking: that holds for the
    // other calls to it that wait, too.
    QStringList others;
    for (const Waiting &waiting : std::as_const(m_waiting)) {
        if (waiting.request.checkpoint.call.name == toolName)
            others.append(waiting.request.callId);
    }
    for (const QString &other : std::as_const(others))
        allowOnce(other);
    return true;
}

bool ToolApprovalPolicy::deny(const QString &callId, const QString &reason)
{
    const std::optional<Waiting> waiting = takeWaiting(callId);
    if (!waiting)
        return false;
    // Without a reason the loop says "Denied by the user." on its own; a
    // default reason here would make the result say it twice.
    waiting->decision.deny(reason);
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
