#include "agent/eval/evalobservation.h"

#include "agent/loop/turnresult.h"
#include "agent/trace/trace.h"
#include "agent/trace/turnnodefinder.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

EvalObservation EvalObservation::fromTurn(const Trace &trace, const TurnResult &result)
{
    EvalObservation observation;
    observation.outcome = turnOutcomeName(result.outcome);
    observation.answer = result.text;
    observation.error = result.error;
    observation.iterations = result.iterations;
    if (!trace.isValid(result.traceNode))
        return observation;
    // A retrieval is under the turn (before the first iteration) or under the tool call that searched.
    const auto noteRetrieval = [&trace, &observation](int node) {
        if (const auto *retrieval = std::get_if<RetrievalData>(&trace.node(node).payload)) {
            for (const RetrievalHit &hit : retrieval->hits)
                observation.retrievedPaths.append(hit.path);
        }
    };
    for (const int child : TurnNodeFinder::turnSteps(trace, result.traceNode)) {
        noteRetrieval(child);
        if (trace.node(child).kind != TraceKind::Iteration)
            continue;
        for (const int step : trace.childrenOf(child)) {
            if (const auto *call = std::get_if<ToolCallData>(&trace.node(step).payload)) {
                observation.toolCalls.append(
                    {call->call.name, call->call.arguments, call->result, call->isError});
                for (const int detail : trace.childrenOf(step))
                    noteRetrieval(detail);
            }
        }
    }
    return observation;
}

QString EvalObservation::toolCallsText() const
{
    QStringList lines;
    for (const ObservedToolCall &call : toolCalls)
        lines.append(
            tr("%1 %2 -> %3%4")
                .arg(call.name, call.arguments, call.result, call.isError ? tr(" (error)") : QString()));
    return lines.join(u'\n');
}

} // namespace Loopscope
