#pragma once

#include "agent/loop/agentshields.h"
#include "agent/model/modelrequest.h"

#include <QJsonObject>
#include <QString>

namespace Loopscope {

/*! What happens when the loop ends on tool results instead of an answer. */
enum class PostLoopMode {
    Reflect, // one more model call, tools disabled, to turn the results into an answer
    Summary, // no model call: a line per tool call from summaryFormat
    None,    // the fallback message
};
QString postLoopModeName(PostLoopMode mode);
std::optional<PostLoopMode> postLoopModeFromName(const QString &name);

/*! What calling transfer_to_<agent> does to the turn. */
enum class HandoffMode {
    Continue, // the same turn goes on as that agent, from its next request
    End,      // the turn ends, handed off (AutoGen's behaviour)
};
QString handoffModeName(HandoffMode mode);
std::optional<HandoffMode> handoffModeFromName(const QString &name);

/*! What the agent handed to sees of the agent that handed off. */
enum class HandoffHistory {
    All,  // the whole conversation, the tool calls and their results included
    Text, // the messages without the handing agent's tool calls and their results
};
QString handoffHistoryName(HandoffHistory history);
std::optional<HandoffHistory> handoffHistoryFromName(const QString &name);

/*! What the loop does when a request would fill too much of the model's context window. */
enum class CompactionStrategy {
    Auto,            // trim old tool results, summarise if that is not enough, drop the oldest turns last
    TrimToolResults, // old tool results become a stub naming the call and the tokens saved
    Summarise,       // turns older than the last few are summarised by a model call
    DropOldest,      // the oldest turns are left out of the request
    Off,             // nothing is left out; a request over the window is still refused before it goes
};
QString compactionStrategyName(CompactionStrategy strategy);
std::optional<CompactionStrategy> compactionStrategyFromName(const QString &name);

/*! Everything that shapes one agent's loop. The defaults are what a new user gets. */
struct AgentConfig
{
    QString name = QStringLiteral("assistant");
    // Of an agent preset (AgentPreset::configOver()): its version and its definition as an agents
    // file writes it, which each turn records. 0 and empty for the session's own agent.
    int version = 0;
    QJsonObject definition;
    QString systemPrompt;
    ModelOptions model;

    int maxIterations = 10;
    int wrapUpIterations = 2;           // the last N iterations carry the wrap-up note
    bool toolLessFinalIteration = true; // the last iteration uses tool choice "none"
    int maxParallelTools = 4;           // 1 runs a response's tool calls one after another
    // The calls one response may have run; the rest are answered with an error saying why. A
    // thousand is far more than any real task asks for in one breath (a model that needs more can
    // ask again in the next iteration), yet it stops a runaway or hostile response that asks for
    // hundreds of thousands from filling the trace and the tool pool. At most MaxToolCallsLimit.
    int maxToolCallsPerResponse = 1000;
    static constexpr int MaxToolCallsLimit = 100'000;
    int toolTimeoutMs = 60'000;   // a tool may override it
    int maxConsecutiveErrors = 3; // error-only iterations before the turn gives up
    int maxRepeatedCalls = 3;     // responses in a row with an identical call before the guard refuses
    qint64 tokenBudget = 0;       // per turn; 0 means no limit
    // The time a turn may take, not counting waits for a person; 0 means no limit. A sub-agent's
    // bounds its own run, so a caller can give an agent it asks a deadline.
    int turnTimeLimitMs = 0;
    PostLoopMode postLoop = PostLoopMode::Reflect;
    QString summaryFormat = QStringLiteral("{tool_name}({arguments}) -> {result}");
    // Read from the agent that hands off: whether the turn goes on, and what the next agent sees.
    HandoffMode handoff = HandoffMode::Continue;
    HandoffHistory handoffHistory = HandoffHistory::All;
    // The handoffs one turn may make; the one after them ends the turn as HandoffMode::End does.
    int maxHandoffs = 5;
    // Before each request its size is estimated against the model's context window
    // (model.contextWindow; no check without one): over this share a compaction runs.
    int compactAtPercent = 80;
    CompactionStrategy compaction = CompactionStrategy::Auto;
    // Summarising: the last N turns (a user message and all that follows it) stay as they are; the
    // model that writes the summary (empty: the agent's own) and what it is asked.
    int compactionKeepTurns = 2;
    QString compactionModel;
    QString compactionPrompt = QStringLiteral(
        "Summarise the conversation below for the assistant that continues it. Keep what it needs: the "
        "user's goals and constraints, decisions made, facts learned from tools (names, numbers, paths, "
        "errors), and open questions. Leave out greetings and repetition. Write at most 300 words, as "
        "notes.");

    // %1: iterations remaining including this one.
    QString wrapUpNote = QStringLiteral(
        "%1 iterations remaining: prioritise an answer. Call a tool only if you cannot answer without it.");
    QString finalIterationNote
        = QStringLiteral("This is the final iteration: tools are disabled. Answer now with what you have.");
    QString fallbackMessage = QStringLiteral("The agent stopped without a final answer after %1 iterations. "
                                             "The tool results so far are in the trace.");

    // The rule shield's rules and the model shield this agent's input, tool calls and answer pass.
    AgentShields shields;

    bool operator==(const AgentConfig &) const = default;
    QJsonObject toJson() const;
    static AgentConfig fromJson(const QJsonObject &json);

private:
    QJsonObject toJsonWithoutPreset() const;
};

} // namespace Loopscope
