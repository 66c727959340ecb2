#include "agent/compare/comparedturn.h"

#include "agent/loop/agentconfig.h"
#include "agent/loop/agentpreset.h"
#include "agent/replay/recordedturn.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracetiming.h"
#include "agent/trace/turnnodefinder.h"
#include "agent/transcript/transcript.h"

#include <QFileInfo>
#include <QHash>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// A model call's recorded cost, read through the payload's JSON ("cost": {"usd": …}): a trace
// that records costs has it there, and one that does not simply has none.
std::optional<double> recordedCost(const ModelCallData &data)
{
    ModelCallData slim = data;
    // Only the cost is wanted: leave the large parts out of the JSON.
    slim.request = {};
    slim.originalRequest.reset();
    slim.response = {};
    slim.attempts.clear();
    const QJsonValue usd = tracePayloadToJson(slim).value(u"cost"_s).toObject().value(u"usd"_s);
    return usd.isDouble() ? std::optional<double>(usd.toDouble()) : std::nullopt;
}

ComparedModelCall modelCallOf(const Trace &trace, const TraceNode &node,
                              const QHash<int, ModelRequest> &requests)
{
    const auto &data = node.data<ModelCallData>();
    ComparedModelCall call;
    call.node = node.id;
    call.request = requests.value(node.id);
    call.responseText = data.response.text;
    call.responseToolCalls = int(data.response.toolCalls.size());
    call.error = data.error;
    call.usage = data.response.usage;
    call.durationUs = node.durationUs();
    call.waitingUs = stepTiming(trace, node.id).waitingUs;
    call.costUsd = recordedCost(data);
    return call;
}

ComparedToolCall toolCallOf(const Trace &trace, const TraceNode &node)
{
    const auto &data = node.data<ToolCallData>();
    return {node.id,      data.call,         data.result,
            data.isError, node.durationUs(), stepTiming(trace, node.id).waitingUs};
}

ComparedIteration iterationOf(const Trace &trace, const TraceNode &node, int number,
                              const QHash<int, ModelRequest> &requests)
{
    ComparedIteration iteration;
    iteration.node = node.id;
    iteration.number = number;
    iteration.durationUs = node.durationUs();
    iteration.waitingUs = stepTiming(trace, node.id).waitingUs;
    for (int child : node.children) {
        const TraceNode &step = trace.node(child);
        if (std::holds_alternative<ModelCallData>(step.payload))
            iteration.modelCalls.append(modelCallOf(trace, step, requests));
        else if (std::holds_alternative<ToolCallData>(step.payload))
            iteration.toolCalls.append(toolCallOf(trace, step));
        else if (const auto *error = std::get_if<ErrorData>(&step.payload))
            iteration.errors.append(error->code.isEmpty() ? error->message
                                                          : error->code + u": "_s + error->message);
    }
    return iteration;
}

} // namespace

std::optional<double> ComparedTurn::costUsd() const
{
    std::optional<double> sum;
    for (const ComparedIteration &iteration : iterations) {
        for (const ComparedModelCall &call : iteration.modelCalls) {
            if (call.costUsd)
                sum = sum.value_or(0) + *call.costUsd;
        }
    }
    return sum;
}

std::optional<ComparedTurn> ComparedTurn::fromTrace(const Trace &trace, int turnNode, const QString &source)
{
    if (!trace.isValid(turnNode) || !std::holds_alternative<TurnData>(trace.node(turnNode).payload))
        return std::nullopt;
    const TraceNode &root = trace.node(turnNode);
    const auto &data = root.data<TurnData>();
    ComparedTurn turn;
    turn.source = source;
    turn.node = turnNode;
    turn.number = int(trace.roots().indexOf(turnNode)) + 1;
    turn.question = data.input;
    turn.answer = data.output;
    turn.outcome = data.outcome;
    turn.agents.append(
        {data.agentName, data.agentVersion, AgentPreset::recordedDefinition(data.agentDefinition), turnNode});
    turn.usage = data.usage;
    turn.durationUs = root.durationUs();
    turn.waitingUs = stepTiming(trace, turnNode).waitingUs;

    // The replays' reader of the trace gives each model call's request as it was sent.
    QHash<int, ModelRequest> requests;
    for (const RecordedModelCall &call : RecordedTurn::fromTrace(trace, turnNode, AgentConfig()).modelCalls)
        requests.insert(call.traceNode, call.request);

    int iterations = 0;
    for (int child : TurnNodeFinder::turnSteps(trace, turnNode)) {
        const TraceNode &node = trace.node(child);
        if (node.kind == TraceKind::Iteration) {
            const auto *iteration = std::get_if<IterationData>(&node.payload);
            ++iterations;
            turn.iterations.append(
                iterationOf(trace, node, iteration ? iteration->number : iterations, requests));
        } else if (node.kind == TraceKind::Reflection) {
            turn.iterations.append(iterationOf(trace, node, 0, requests));
        } else if (const auto *handoff = std::get_if<HandoffData>(&node.payload)) {
            // A handoff among the turn's steps is the part of the agent it went on as.
            turn.agents.append({handoff->target, handoff->targetVersion,
                                AgentPreset::recordedDefinition(handoff->targetDefinition), node.id});
        }
    }
    return turn;
}

QList<ComparedTurn> ComparedSession::turnsOf(const Trace &trace, const QString &name)
{
    QList<ComparedTurn> turns;
    for (int row = 0; row < trace.roots().size(); ++row) {
        //: Where a compared turn is from: a session's name and the turn's number
        const QString source = tr("%1, turn %2").arg(name).arg(row + 1);
        if (std::optional<ComparedTurn> turn = ComparedTurn::fromTrace(trace, trace.roots().at(row), source))
            turns.append(std::move(*turn));
    }
    return turns;
}

QString ComparedSession::label(const QString &title, const QDateTime &updated, const QString &path)
{
    if (title.isEmpty())
        return QFileInfo(path).fileName();
    if (!updated.isValid())
        return title;
    //: A session in a comparison: its title and when it was last updated
    return tr("%1 · %2").arg(title, QLocale().toString(updated.toLocalTime(), QLocale::ShortFormat));
}

void ComparedSession::renameTurns(const QString &name)
{
    for (ComparedTurn &turn : turns)
        turn.source = tr("%1, turn %2").arg(name).arg(turn.number);
}

ComparedSession ComparedSession::load(const QString &path)
{
    ComparedSession session;
    session.path = path;
    TranscriptLoadResult loaded = TranscriptFile::load(path);
    if (!loaded.transcript || !loaded.trace) {
        session.error = loaded.error.isEmpty() ? tr("The session's trace is malformed.") : loaded.error;
        return session;
    }
    session.title = loaded.transcript->title;
    session.updated = loaded.transcript->updated;
    Trace trace;
    trace.assign(std::move(*loaded.trace));
    session.turns = turnsOf(trace, QFileInfo(path).fileName());
    return session;
}

} // namespace Loopscope
