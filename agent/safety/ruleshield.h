#pragma once

#include "agent/safety/shield.h"

#include <QList>
#include <QRegularExpression>
#include <QStringList>

#include <optional>

namespace Loopscope {

/*!
    A shield made of rules: each rule matches a keyword (whole word, any case)
    or a regular expression, on the stages it names, optionally only for some
    tools. The first rule that matches blocks the step with its message.
*/
class RuleShield final : public Shield
{
public:
    struct Rule
    {
        enum class Kind { Keyword, RegularExpression };
        Kind kind = Kind::Keyword;
        QString pattern;
        QList<ShieldStage> stages{ShieldStage::Input, ShieldStage::ToolCall, ShieldStage::Output};
        QStringList tools; // ToolCall stage only; empty means every tool
        QString message;   // shown when it blocks; a default names the rule
        bool operator==(const Rule &) const = default;
    };

    explicit RuleShield(QString name = QStringLiteral("rules"));

    // Returns an error (and keeps the rule out) when the pattern does not compile.
    std::optional<QString> addRule(const Rule &rule);
    int ruleCount() const { return int(m_rules.size()); }

    QString name() const override { return m_name; }
    ShieldVerdict check(ShieldStage stage, const QString &subject, const QString &content) const override;

private:
    struct CompiledRule
    {
        Rule rule;
        QRegularExpression expression;
    };
    QString m_name;
    QList<CompiledRule> m_rules;
};

} // namespace Loopscope
