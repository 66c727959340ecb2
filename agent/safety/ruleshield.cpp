#include "agent/safety/ruleshield.h"

#include <QCoreApplication>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// RuleShield is not a QObject; this gives its messages a translation context.
struct RuleShieldText
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::RuleShield)
};

/*
    A keyword is a whole word in any case. Lookarounds instead of \b: \b needs a
    word character on the keyword's side, so "\b\.env\b" would never match
    "cat .env" while it would match "x.env". "Not next to a word character" is
    what a person means by whole word, whatever the keyword starts or ends with.
*/
QRegularExpression keywordExpression(const QString &keyword)
{
    return QRegularExpression(u"(?<!\\w)"_s + QRegularExpression::escape(keyword) + u"(?!\\w)"_s,
                              QRegularExpression::CaseInsensitiveOption
                                  | QRegularExpression::UseUnicodePropertiesOption);
}

} // namespace

RuleShield::RuleShield(QString name)
    : m_name(std::move(name))
{}

std::optional<QString> RuleShield::addRule(const Rule &rule)
{
    // An empty pattern would match everything and silently block every step.
    if (rule.pattern.isEmpty())
        return RuleShieldText::tr("The rule has an empty pattern.");

    CompiledRule compiled{rule, {}};
    if (rule.kind == Rule::Kind::Keyword) {
        compiled.expression = keywordExpression(rule.pattern);
    } else {
        // Taken as written: the author chooses case sensitivity with (?i).
        compiled.expression = QRegularExpression(rule.pattern);
    }
    if (!compiled.expression.isValid()) {
        // One arg() call: a "%1" inside the pattern must not be substituted again.
        return RuleShieldText::tr("Invalid regular expression \"%1\": %2 (at offset %3).")
            .arg(rule.pattern, compiled.expression.errorString(),
                 QString::number(compiled.expression.patternErrorOffset()));
    }
    m_rules.append(std::move(compiled));
    return std::nullopt;
}

ShieldVerdict RuleShield::check(ShieldStage stage, const QString &subject, const QString &content) const
{
    for (const CompiledRule &compiled : m_rules) {
        const Rule &rule = compiled.rule;
        if (!rule.stages.contains(stage))
            continue;
        // The subject is a tool name only at the ToolCall stage.
        if (stage == ShieldStage::ToolCall && !rule.tools.isEmpty() && !rule.tools.contains(subject))
            continue;
        if (!compiled.expression.match(content).hasMatch())
            continue;
        if (!rule.message.isEmpty())
            return ShieldVerdict::block(rule.message);
        return ShieldVerdict::block(rule.kind == Rule::Kind::Keyword
                                        ? RuleShieldText::tr("matched keyword \"%1\"").arg(rule.pattern)
                                        : RuleShieldText::tr("matched pattern \"%1\"").arg(rule.pattern));
    }
    return ShieldVerdict::allow();
}

} // namespace Loopscope
