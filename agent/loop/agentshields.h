#pragma once

#include "agent/safety/modelshield.h"
#include "agent/safety/ruleshield.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>

#include <memory>
#include <optional>

namespace Loopscope {

namespace Internal {
class JsonProblem;
}

/*!
    The shields one agent runs with, as its agents file (or the settings) say:
    a rule shield's rules and a model shield. Empty means no shield. Read
    strictly, like the rest of an agents file: an unknown field, stage or kind,
    or a pattern that does not compile is refused with its path.
*/
struct AgentShields
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::AgentShields)

public:
    QList<RuleShield::Rule> rules;
    std::optional<ModelShield> model;

    bool isEmpty() const { return rules.isEmpty() && !model; }
    bool operator==(const AgentShields &) const = default;

    // The rule shield of the rules, nullptr when there are none (the rules were checked when read).
    std::shared_ptr<RuleShield> ruleShield() const;

    // {"rules": [{"pattern", "kind"?, "stages"?, "tools"?, "message"?}], "model": {...}}
    QJsonObject toJson() const;
    // nullopt with the problem set, naming \a where (e.g. agents[0].shields), on the first problem.
    static std::optional<AgentShields> fromJson(const QJsonObject &json, const QString &where,
                                                Internal::JsonProblem &problem);
    // fromJson() of a whole document (the settings keep one); nullopt with *error on a problem.
    static std::optional<AgentShields> fromJson(const QByteArray &bytes, QString *error);
};

} // namespace Loopscope
