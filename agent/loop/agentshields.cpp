#include "agent/loop/agentshields.h"

#include "agent/trace/jsonfields.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;
using Loopscope::Internal::JsonFields;
using Loopscope::Internal::JsonProblem;
using Loopscope::Internal::Need;

namespace Loopscope {

namespace {

const QStringList ShieldsFields{u"rules"_s, u"model"_s};
const QStringList RuleFields{u"pattern"_s, u"kind"_s, u"stages"_s, u"tools"_s, u"message"_s};
const QStringList ModelFields{u"name"_s, u"provider"_s, u"model"_s, u"stages"_s, u"template"_s, u"unclear"_s};

// The first field of \a object that is not one of \a known, as the problem.
bool onlyKnownFields(const QJsonObject &object, const QString &where, const QStringList &known,
                     JsonProblem &problem)
{
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (!known.contains(it.key())) {
            problem.set(AgentShields::tr("%1 has an unknown field \"%2\" (known: %3)")
                            .arg(where, it.key(), known.join(u", "_s)));
            return false;
        }
    }
    return true;
}

QJsonArray stageNames(const QList<ShieldStage> &stages)
{
    QJsonArray names;
    for (ShieldStage stage : stages)
        names.append(shieldStageName(stage));
    return names;
}

// The stages named at \a key, \a fallback when absent; only \a allowed ones may be named.
QList<ShieldStage> readStages(JsonFields &fields, const QList<ShieldStage> &allowed,
                              const QList<ShieldStage> &fallback)
{
    if (!fields.has(u"stages"))
        return fallback;
    QStringList allowedNames;
    for (ShieldStage stage : allowed)
        allowedNames.append(shieldStageName(stage));
    QList<ShieldStage> stages;
    for (const QString &name : fields.strings(u"stages", Need::Required)) {
        const std::optional<ShieldStage> stage = shieldStageFromName(name);
        if (!stage || !allowed.contains(*stage)) {
            fields.fail(AgentShields::tr("%1 names the stage \"%2\"; the stages are %3")
                            .arg(fields.path(u"stages"), name, allowedNames.join(u", "_s)));
            return {};
        }
        if (!stages.contains(*stage))
            stages.append(*stage);
    }
    if (fields.ok() && stages.isEmpty())
        fields.fail(AgentShields::tr("%1 is empty: name at least one stage").arg(fields.path(u"stages")));
    return stages;
}

std::optional<RuleShield::Rule> readRule(const QJsonObject &object, const QString &where,
                                         JsonProblem &problem)
{
    if (!onlyKnownFields(object, where, RuleFields, problem))
        return std::nullopt;
    JsonFields fields(object, where, problem);
    RuleShield::Rule rule;
    rule.pattern = fields.string(u"pattern", Need::Required);
    const QString kind = fields.name(u"kind", Need::Optional, {u"keyword"_s, u"regex"_s}, u"keyword"_s);
    rule.kind
        = kind == u"regex" ? RuleShield::Rule::Kind::RegularExpression : RuleShield::Rule::Kind::Keyword;
    rule.stages
        = readStages(fields, {ShieldStage::Input, ShieldStage::ToolCall, ShieldStage::Output}, rule.stages);
    rule.tools = fields.strings(u"tools", Need::Optional);
    rule.message = fields.string(u"message", Need::Optional);
    if (!problem.ok())
        return std::nullopt;
    // Compiled once here, so that a bad pattern is refused with the file, not at the first turn.
    if (const std::optional<QString> error = RuleShield().addRule(rule)) {
        problem.set(AgentShields::tr("%1: %2").arg(fields.path(u"pattern"), *error));
        return std::nullopt;
    }
    return rule;
}

std::optional<ModelShield> readModelShield(const QJsonObject &object, const QString &where,
                                           JsonProblem &problem)
{
    if (!onlyKnownFields(object, where, ModelFields, problem))
        return std::nullopt;
    JsonFields fields(object, where, problem);
    ModelShield shield;
    shield.name = fields.string(u"name", Need::Optional, shield.name);
    shield.provider = fields.string(u"provider", Need::Optional);
    shield.model = fields.string(u"model", Need::Optional);
    // A model shield judges the question or the answer: tool arguments are the rules' stage.
    shield.stages = readStages(fields, {ShieldStage::Input, ShieldStage::Output}, shield.stages);
    shield.promptTemplate = fields.string(u"template", Need::Optional, shield.promptTemplate);
    if (fields.ok() && !shield.promptTemplate.contains(u"{conversation}"_s)) {
        fields.fail(AgentShields::tr("%1 must contain {conversation}, where the message to judge goes")
                        .arg(fields.path(u"template")));
    }
    const QString unclear = fields.name(u"unclear", Need::Optional, {u"block"_s, u"allow"_s}, u"block"_s);
    shield.unclear = unclear == u"allow" ? ModelShield::Unclear::Allow : ModelShield::Unclear::Block;
    if (fields.ok() && shield.name.trimmed().isEmpty())
        fields.fail(AgentShields::tr("%1 must not be empty").arg(fields.path(u"name")));
    // Absent is the session's provider; an empty name would be a profile that cannot exist.
    if (fields.ok() && fields.has(u"provider") && shield.provider.trimmed().isEmpty())
        fields.fail(AgentShields::tr("%1 must name a saved provider profile; leave it out for the session's")
                        .arg(fields.path(u"provider")));
    if (!problem.ok())
        return std::nullopt;
    return shield;
}

} // namespace

std::shared_ptr<RuleShield> AgentShields::ruleShield() const
{
    if (rules.isEmpty())
        return nullptr;
    auto shield = std::make_shared<RuleShield>();
    for (const RuleShield::Rule &rule : rules)
        shield->addRule(rule);
    return shield;
}

QJsonObject AgentShields::toJson() const
{
    QJsonObject json;
    if (!rules.isEmpty()) {
        QJsonArray array;
        for (const RuleShield::Rule &rule : rules) {
            QJsonObject object{{u"pattern"_s, rule.pattern}};
            if (rule.kind == RuleShield::Rule::Kind::RegularExpression)
                object.insert(u"kind"_s, u"regex"_s);
            if (rule.stages != RuleShield::Rule().stages)
                object.insert(u"stages"_s, stageNames(rule.stages));
            if (!rule.tools.isEmpty())
                object.insert(u"tools"_s, QJsonArray::fromStringList(rule.tools));
            if (!rule.message.isEmpty())
                object.insert(u"message"_s, rule.message);
            array.append(object);
        }
        json.insert(u"rules"_s, array);
    }
    if (model) {
        const ModelShield defaults;
        QJsonObject object;
        if (model->name != defaults.name)
            object.insert(u"name"_s, model->name);
        if (!model->provider.isEmpty())
            object.insert(u"provider"_s, model->provider);
        if (!model->model.isEmpty())
            object.insert(u"model"_s, model->model);
        if (model->stages != defaults.stages)
            object.insert(u"stages"_s, stageNames(model->stages));
        if (model->promptTemplate != defaults.promptTemplate)
            object.insert(u"template"_s, model->promptTemplate);
        if (model->unclear == ModelShield::Unclear::Allow)
            object.insert(u"unclear"_s, u"allow"_s);
        json.insert(u"model"_s, object);
    }
    return json;
}

std::optional<AgentShields> AgentShields::fromJson(const QJsonObject &json, const QString &where,
                                                   JsonProblem &problem)
{
    if (!onlyKnownFields(json, where, ShieldsFields, problem))
        return std::nullopt;
    JsonFields fields(json, where, problem);
    AgentShields shields;
    const QList<QJsonObject> rules = fields.objects(u"rules", Need::Optional);
    for (qsizetype i = 0; i < rules.size() && problem.ok(); ++i) {
        if (std::optional<RuleShield::Rule> rule
            = readRule(rules.at(i), JsonFields::element(fields.path(u"rules"), i), problem))
            shields.rules.append(std::move(*rule));
    }
    if (problem.ok() && fields.has(u"model")) {
        const QJsonObject model = fields.object(u"model", Need::Required);
        if (problem.ok())
            shields.model = readModelShield(model, fields.path(u"model"), problem);
    }
    if (!problem.ok())
        return std::nullopt;
    return shields;
}

std::optional<AgentShields> AgentShields::fromJson(const QByteArray &bytes, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (!document.isObject()) {
        *error = tr("the shields must be a JSON object");
        return std::nullopt;
    }
    JsonProblem problem;
    std::optional<AgentShields> shields = fromJson(document.object(), u"shields"_s, problem);
    if (!shields)
        *error = problem.message();
    return shields;
}

} // namespace Loopscope
