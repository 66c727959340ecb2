#include "agent/replay/recordedturn.h"

#include "agent/loop/agentpreset.h"
#include "agent/loop/turnresult.h"
#include "agent/trace/trace.h"
#include "agent/trace/turnnodefinder.h"
#include "agent/transcript/transcript.h"

#include <QJsonArray>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

void appendModelCall(RecordedTurn &turn, const TraceNode &node, int iteration)
{
    const auto *data = std::get_if<ModelCallData>(&node.payload);
    if (!data)
        return;
    RecordedModelCall call;
    call.iteration = iteration;
    call.traceNode = node.id;
    call.request = data->request.whole();
    call.originalRequest = data->originalRequest;
    if (node.status == TraceStatus::Ok)
        call.response = data->response;
    call.error = data->error;
    call.cancelled = node.status == TraceStatus::Cancelled;
    if (!data->attempts.isEmpty())
        call.httpStatus = data->attempts.constLast().httpStatus;
    turn.modelCalls.append(call);
}

// A compaction's summary is a model call the loop makes before the iteration's own, in that order.
// One written before the turn's first request is already in it (the summary in the system message,
// the turns it replaced gone), which is where a replay starts: the replay does not write it again.
void appendSummaryCalls(RecordedTurn &turn, const Trace &trace, const TraceNode &compaction, int iteration)
{
    for (int child : compaction.children) {
        const TraceNode &call = trace.node(child);
        const auto *data = std::get_if<ModelCallData>(&call.payload);
        if (call.kind != TraceKind::ModelCall || !data || turn.modelCalls.isEmpty())
            continue;
        // The replayed loop must ask for it in the same words, of the same model.
        const ModelRequest request = data->request.whole();
        if (!request.messages.isEmpty() && request.messages.constFirst().role == Message::Role::System)
            turn.config.compactionPrompt = request.messages.constFirst().text;
        const QString loopModel = turn.modelCalls.constFirst().request.options.model;
        turn.config.compactionModel = request.options.model == loopModel ? QString() : request.options.model;
        appendModelCall(turn, call, iteration);
    }
}

void appendToolCall(RecordedTurn &turn, const Trace &trace, const TraceNode &node, int iteration)
{
    const auto *data = std::get_if<ToolCallData>(&node.payload);
    if (!data)
        return;
    RecordedToolCall call;
    call.iteration = iteration;
    call.call = data->call;
    call.originalArguments = data->originalArguments;
    call.result = {data->result, data->isError, data->details, {}};
    // The images the tool returned go to the model again as images (the loop records them again).
    for (const QJsonValue &file : call.result.details.take(u"attachments"_s).toArray())
        call.result.attachments.append(Attachment::fromJson(file.toObject()));
    // The search the call made, as the tool reported it: a replay shows the recorded passages again.
    for (int child : node.children) {
        if (const auto *retrieval = std::get_if<RetrievalData>(&trace.node(child).payload))
            call.result.details.insert(RetrievalDetailsKey, retrieval->toJson());
    }
    call.decision = data->decision;
    turn.toolCalls.append(call);
}

// The system prompt the loop had when it built the first request: the
// request's system message without the note the first iteration may add.
std::optional<QString> systemPromptOf(const ModelRequest &firstRequest, const IterationData &firstIteration,
                                      const AgentConfig &config)
{
    const bool hasSystem = !firstRequest.messages.isEmpty()
                           && firstRequest.messages.constFirst().role == Message::Role::System;
    const QString system = hasSystem ? firstRequest.messages.constFirst().text : QString();
    const int remaining = config.maxIterations; // on the first iteration
    QString note;
    if (remaining <= 1 && !firstIteration.toolsOffered && !firstRequest.tools.isEmpty())
        note = config.finalIterationNote;
    else if (firstIteration.wrapUpNote)
        note = config.wrapUpNote.arg(remaining);
    if (note.isEmpty())
        return system;
    if (system == note)
        return QString();
    const QString suffix = u"\n\n"_s + note;
    if (system.endsWith(suffix))
        return system.chopped(suffix.size());
    return std::nullopt; // the note's wording changed since: keep the saved prompt
}

// The configuration the agent handed to ran with, as the team made it (AgentPreset::configOver()): its
// recorded definition over the session's loop options, so that its instructions, model and loop
// options are its own, whatever the session's are. nullopt without a definition this version can read
// (the session's own agent, traces recorded before definitions were kept, a newer file's fields).
std::optional<AgentConfig> definedConfig(const AgentConfig &session, const QJsonObject &definition)
{
    QString unreadable;
    const std::optional<AgentPreset> preset
        = definition.isEmpty() ? std::nullopt : AgentPreset::fromJson(definition, &unreadable);
    if (!preset)
        return std::nullopt;
    return preset->configOver(session);
}

// The handoff tools called in the turn, and the agents it went on as, each from its part.
void recoverHandoffs(RecordedTurn &turn, const Trace &trace, int turnNode)
{
    QHash<QString, QString> callNames; // by call id
    for (int step : TurnNodeFinder::turnSteps(trace, turnNode)) {
        for (int child : trace.node(step).children) {
            if (const auto *call = std::get_if<ToolCallData>(&trace.node(child).payload))
                callNames.insert(call->call.id, call->call.name);
        }
    }
    for (int step : TurnNodeFinder::turnSteps(trace, turnNode)) {
        const TraceNode &node = trace.node(step);
        // A handoff that ended the turn is a step of its iteration; one that went on is a part.
        QList<const TraceNode *> handoffs;
        if (node.kind == TraceKind::Handoff)
            handoffs.append(&node);
        for (int child : node.children) {
            if (node.kind == TraceKind::Iteration && trace.node(child).kind == TraceKind::Handoff)
                handoffs.append(&trace.node(child));
        }
        for (const TraceNode *handoff : std::as_const(handoffs)) {
            const auto *data = std::get_if<HandoffData>(&handoff->payload);
            if (data && callNames.contains(data->toolCallId))
                turn.handoffTools.insert(callNames.value(data->toolCallId), data->target);
        }
        if (node.kind != TraceKind::Handoff || node.children.isEmpty())
            continue;
        const HandoffData &handoff = node.data<HandoffData>();
        if (std::any_of(turn.handedTo.cbegin(), turn.handedTo.cend(),
                        [&handoff](const RecordedAgent &agent) { return agent.name == handoff.target; }))
            continue;
        RecordedAgent agent;
        agent.name = handoff.target;
        const QJsonObject definition = AgentPreset::recordedDefinition(handoff.targetDefinition);
        const std::optional<AgentConfig> defined = definedConfig(turn.config, definition);
        agent.config = defined.value_or(turn.config);
        agent.config.name = handoff.target;
        agent.config.version = int(handoff.targetVersion.value_or(0));
        agent.config.definition = definition;
        const TraceNode &firstIteration = trace.node(node.children.constFirst());
        const auto *iteration = std::get_if<IterationData>(&firstIteration.payload);
        if (iteration && iteration->maxIterations > 0)
            agent.config.maxIterations = iteration->maxIterations;
        for (int child : firstIteration.children) {
            const auto *call = std::get_if<ModelCallData>(&trace.node(child).payload);
            if (!call)
                continue;
            const ModelRequest built = call->originalRequest ? *call->originalRequest : call->request.whole();
            agent.config.model = built.options;
            agent.tools = built.tools;
            if (!defined && iteration)
                agent.config.systemPrompt
                    = systemPromptOf(built, *iteration, agent.config).value_or(agent.config.systemPrompt);
            break;
        }
        turn.handedTo.append(agent);
    }
}

// What the turn shows of the configuration it ran with.
void recoverConfig(RecordedTurn &turn, const ModelRequest &firstRequest,
                   const QList<IterationData> &iterations, bool reflected, bool summarised)
{
    AgentConfig &config = turn.config;
    config.model = firstRequest.options;
    if (reflected)
        config.postLoop = PostLoopMode::Reflect;
    else if (summarised)
        config.postLoop = PostLoopMode::Summary;
    if (iterations.isEmpty())
        return;

    const IterationData &first = iterations.constFirst();
    const IterationData &last = iterations.constLast();
    if (first.maxIterations > 0)
        config.maxIterations = first.maxIterations;
    const auto firstWrapUp = std::find_if(iterations.cbegin(), iterations.cend(),
                                          [](const IterationData &data) { return data.wrapUpNote; });
    if (firstWrapUp != iterations.cend())
        config.wrapUpIterations = config.maxIterations - firstWrapUp->number + 1;
    else if (config.wrapUpIterations >= config.maxIterations - last.number + 1)
        config.wrapUpIterations = std::max(0, config.maxIterations - last.number);
    if (last.number >= config.maxIterations && !firstRequest.tools.isEmpty())
        config.toolLessFinalIteration = !last.toolsOffered;
    if (first.number == 1) {
        if (const auto prompt = systemPromptOf(firstRequest, first, config))
            config.systemPrompt = *prompt;
    }
}

} // namespace

bool RecordedTurn::wasStopped() const
{
    return outcome == turnOutcomeName(TurnOutcome::Cancelled)
           || outcome == turnOutcomeName(TurnOutcome::TimeLimit);
}

QList<ToolSchema> RecordedTurn::tools() const
{
    if (modelCalls.isEmpty())
        return {};
    const RecordedModelCall &first = modelCalls.constFirst();
    return first.originalRequest.value_or(first.request).tools;
}

RecordedTurn RecordedTurn::fromTrace(const Trace &trace, int turnNode, const AgentConfig &config)
{
    RecordedTurn turn;
    turn.config = config;
    for (int row = 0; row < trace.roots().size(); ++row) {
        if (trace.roots().at(row) == turnNode)
            turn.turnIndex = row;
    }
    if (!trace.isValid(turnNode) || !std::holds_alternative<TurnData>(trace.node(turnNode).payload)) {
        turn.notReplayable = tr("The trace node is not a turn.");
        return turn;
    }
    const TraceNode &root = trace.node(turnNode);
    const TurnData &data = root.data<TurnData>();
    turn.userText = data.input;
    turn.answer = data.output;
    turn.outcome = data.outcome;
    if (!data.agentName.isEmpty())
        turn.config.name = data.agentName;

    QList<IterationData> iterations;
    bool reflected = false;
    bool summarised = false;
    for (int child : TurnNodeFinder::turnSteps(trace, turnNode)) {
        const TraceNode &node = trace.node(child);
        if (node.kind == TraceKind::Iteration) {
            const auto *iteration = std::get_if<IterationData>(&node.payload);
            const int number = iteration ? iteration->number : int(iterations.size()) + 1;
            if (iteration)
                iterations.append(*iteration);
            for (int step : node.children) {
                if (trace.node(step).kind == TraceKind::ModelCall)
                    appendModelCall(turn, trace.node(step), number);
                else if (trace.node(step).kind == TraceKind::ToolCall)
                    appendToolCall(turn, trace, trace.node(step), number);
                else if (trace.node(step).kind == TraceKind::Compaction)
                    appendSummaryCalls(turn, trace, trace.node(step), number);
            }
        } else if (node.kind == TraceKind::Reflection) {
            reflected = true;
            for (int step : node.children) {
                if (trace.node(step).kind == TraceKind::ModelCall)
                    appendModelCall(turn, trace.node(step), 0);
                else if (trace.node(step).kind == TraceKind::Compaction)
                    appendSummaryCalls(turn, trace, trace.node(step), 0);
            }
        } else if (node.kind == TraceKind::Summary) {
            summarised = true;
        } else if (const auto *retrieval = std::get_if<RetrievalData>(&node.payload)) {
            turn.retrieval = *retrieval;
        }
    }

    if (root.status == TraceStatus::Running) {
        turn.notReplayable = tr("The turn was still running when the session was saved.");
        return turn;
    }
    if (turn.modelCalls.isEmpty()) {
        turn.notReplayable = tr("No model call was recorded: the turn ended (%1) before it asked the model.")
                                 .arg(turn.outcome.isEmpty() ? tr("unknown") : turn.outcome);
        return turn;
    }
    const RecordedModelCall &first = turn.modelCalls.constFirst();
    const ModelRequest &built = first.originalRequest.value_or(first.request);
    QList<Message> history = built.messages;
    if (!history.isEmpty() && history.constFirst().role == Message::Role::System)
        history.removeFirst();
    if (history.isEmpty() || history.constLast().role != Message::Role::User
        || history.constLast().text != turn.userText) {
        turn.notReplayable = tr("The first recorded request does not end with the turn's question.");
        return turn;
    }
    turn.attachments = history.constLast().attachments;
    history.removeLast();
    turn.history = history;
    recoverConfig(turn, built, iterations, reflected, summarised);
    recoverHandoffs(turn, trace, turnNode);
    return turn;
}

std::optional<QList<RecordedTurn>> RecordedTurn::fromTranscript(const Transcript &transcript, QString *error)
{
    Trace trace;
    QString traceError;
    if (!trace.fromJson(transcript.trace, &traceError)) {
        if (error)
            *error = tr("The session's trace is malformed: %1").arg(traceError);
        return std::nullopt;
    }
    QList<RecordedTurn> turns;
    for (int root : trace.roots())
        turns.append(fromTrace(trace, root, transcript.config));
    return turns;
}

QList<ToolCall> executedToolCalls(const Trace &trace, int turnNode)
{
    QList<ToolCall> calls;
    if (!trace.isValid(turnNode))
        return calls;
    for (int child : TurnNodeFinder::turnSteps(trace, turnNode)) {
        if (trace.node(child).kind != TraceKind::Iteration)
            continue;
        for (int step : trace.node(child).children) {
            if (const auto *data = std::get_if<ToolCallData>(&trace.node(step).payload))
                calls.append(data->call);
        }
    }
    return calls;
}

} // namespace Loopscope
