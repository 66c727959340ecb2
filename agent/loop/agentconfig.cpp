#include "agent/loop/agentconfig.h"

#include "agent/loop/agentpreset.h"
#include "agent/trace/jsonfields.h"

#include "agent/conversation/enumnames.h"
using namespace Qt::StringLiterals;

namespace Loopscope {

constexpr EnumName<PostLoopMode> PostLoopModeNames[] = {
    {PostLoopMode::Reflect, u"reflect"},
    {PostLoopMode::Summary, u"summary"},
    {PostLoopMode::None, u"none"},
};

QString postLoopModeName(PostLoopMode mode)
{
    return nameOf(PostLoopModeNames, mode);
}

std::optional<PostLoopMode> postLoopModeFromName(const QString &name)
{
    return valueNamed(PostLoopModeNames, name);
}

constexpr EnumName<HandoffMode> HandoffModeNames[] = {
    {HandoffMode::Continue, u"continue"},
    {HandoffMode::End, u"end"},
};

QString handoffModeName(HandoffMode mode)
{
    return nameOf(HandoffModeNames, mode);
}

std::optional<HandoffMode> handoffModeFromName(const QString &name)
{
    return valueNamed(HandoffModeNames, name);
}

constexpr EnumName<HandoffHistory> HandoffHistoryNames[] = {
    {HandoffHistory::All, u"all"},
    {HandoffHistory::Text, u"text"},
};

QString handoffHistoryName(HandoffHistory history)
{
    return nameOf(HandoffHistoryNames, history);
}

std::optional<HandoffHistory> handoffHistoryFromName(const QString &name)
{
    return valueNamed(HandoffHistoryNames, name);
}

constexpr EnumName<CompactionStrategy> CompactionStrategyNames[] = {
    {CompactionStrategy::Auto, u"auto"},
    {CompactionStrategy::TrimToolResults, u"trim-tool-results"},
    {CompactionStrategy::Summarise, u"summarise"},
    {CompactionStrategy::DropOldest, u"drop-oldest"},
    {CompactionStrategy::Off, u"off"},
};

QString compactionStrategyName(CompactionStrategy strategy)
{
    return nameOf(CompactionStrategyNames, strategy);
}

std::optional<CompactionStrategy> compactionStrategyFromName(const QString &name)
{
    return valueNamed(CompactionStrategyNames, name);
}

QJsonObject AgentConfig::toJson() const
{
    QJsonObject json = toJsonWithoutPreset();
    // Only a preset's: the session's own agent writes what it wrote before.
    if (version != 0)
        json.insert(u"version"_s, version);
    if (!definition.isEmpty())
        json.insert(u"definition"_s, definition);
    return json;
}

QJsonObject AgentConfig::toJsonWithoutPreset() const
{
    QJsonObject json{{u"name"_s, name},
                     {u"systemPrompt"_s, systemPrompt},
                     {u"model"_s, model.toJson()},
                     {u"maxIterations"_s, maxIterations},
                     {u"wrapUpIterations"_s, wrapUpIterations},
                     {u"toolLessFinalIteration"_s, toolLessFinalIteration},
                     {u"maxParallelTools"_s, maxParallelTools},
                     {u"maxToolCallsPerResponse"_s, maxToolCallsPerResponse},
                     {u"toolTimeoutMs"_s, toolTimeoutMs},
                     {u"maxConsecutiveErrors"_s, maxConsecutiveErrors},
                     {u"maxRepeatedCalls"_s, maxRepeatedCalls},
                     {u"tokenBudget"_s, tokenBudget},
                     {u"turnTimeLimitMs"_s, turnTimeLimitMs},
                     {u"postLoop"_s, postLoopModeName(postLoop)},
                     {u"summaryFormat"_s, summaryFormat},
                     {u"handoff"_s, handoffModeName(handoff)},
                     {u"handoffHistory"_s, handoffHistoryName(handoffHistory)},
                     {u"maxHandoffs"_s, maxHandoffs},
                     {u"compactAtPercent"_s, compactAtPercent},
                     {u"compaction"_s, compactionStrategyName(compaction)},
                     {u"compactionKeepTurns"_s, compactionKeepTurns},
                     {u"compactionModel"_s, compactionModel},
                     {u"compactionPrompt"_s, compactionPrompt},
                     {u"wrapUpNote"_s, wrapUpNote},
                     {u"finalIterationNote"_s, finalIterationNote},
                     {u"fallbackMessage"_s, fallbackMessage}};
    if (!shields.isEmpty())
        json.insert(u"shields"_s, shields.toJson());
    return json;
}

// Missing keys keep their defaults, so older files and hand-written configs load.
AgentConfig AgentConfig::fromJson(const QJsonObject &json)
{
    AgentConfig c;
    const auto str = [&json](const char16_t *key, QString &field) {
        const QJsonValue v = json.value(QStringView(key));
        if (v.isString())
            field = v.toString();
    };
    const auto integer = [&json](const char16_t *key, auto &field) {
        const QJsonValue v = json.value(QStringView(key));
        if (v.isDouble())
            field = decltype(field + 0)(v.toInteger());
    };
    str(u"name", c.name);
    integer(u"version", c.version);
    // Sessions saved before it was recorded on its own also kept the version inside the definition.
    c.definition = AgentPreset::recordedDefinition(json.value(u"definition"_s).toObject());
    str(u"systemPrompt", c.systemPrompt);
    if (json.value(u"model"_s).isObject())
        c.model = ModelOptions::fromJson(json.value(u"model"_s).toObject());
    integer(u"maxIterations", c.maxIterations);
    integer(u"wrapUpIterations", c.wrapUpIterations);
    if (json.value(u"toolLessFinalIteration"_s).isBool())
        c.toolLessFinalIteration = json.value(u"toolLessFinalIteration"_s).toBool();
    integer(u"maxParallelTools", c.maxParallelTools);
    integer(u"maxToolCallsPerResponse", c.maxToolCallsPerResponse);
    integer(u"toolTimeoutMs", c.toolTimeoutMs);
    integer(u"maxConsecutiveErrors", c.maxConsecutiveErrors);
    integer(u"maxRepeatedCalls", c.maxRepeatedCalls);
    integer(u"tokenBudget", c.tokenBudget);
    integer(u"turnTimeLimitMs", c.turnTimeLimitMs);
    c.postLoop = postLoopModeFromName(json.value(u"postLoop"_s).toString()).value_or(c.postLoop);
    str(u"summaryFormat", c.summaryFormat);
    c.handoff = handoffModeFromName(json.value(u"handoff"_s).toString()).value_or(c.handoff);
    c.handoffHistory
        = handoffHistoryFromName(json.value(u"handoffHistory"_s).toString()).value_or(c.handoffHistory);
    integer(u"maxHandoffs", c.maxHandoffs);
    integer(u"compactAtPercent", c.compactAtPercent);
    c.compaction = compactionStrategyFromName(json.value(u"compaction"_s).toString()).value_or(c.compaction);
    integer(u"compactionKeepTurns", c.compactionKeepTurns);
    str(u"compactionModel", c.compactionModel);
    str(u"compactionPrompt", c.compactionPrompt);
    str(u"wrapUpNote", c.wrapUpNote);
    str(u"finalIterationNote", c.finalIterationNote);
    str(u"fallbackMessage", c.fallbackMessage);
    // Shields a file got wrong are left out rather than half read: the window says what runs.
    if (json.value(u"shields"_s).isObject()) {
        Internal::JsonProblem problem;
        if (auto shields = AgentShields::fromJson(json.value(u"shields"_s).toObject(), u"shields"_s, problem))
            c.shields = std::move(*shields);
    }
    return c;
}

} // namespace Loopscope
