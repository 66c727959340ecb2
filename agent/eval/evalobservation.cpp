#include "agent/eval/evalobservation.h"

#include "agent/loop/turnresult.h"
#include "agent/trace/trace.h"

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
    for (const int iteration : trace.childrenOf(result.traceNode)) {
        if (trace.node(iteration).kind != TraceKind::Iteration)
            continue;
        for (const int step : trace.childrenOf(iteration)) {
            if (const auto *call = std::get_if<ToolCallData>(&trace.node(step).payload))
                observation.toolCalls.append(
                    {call->call.name, call->call.arguments, call->result, call->isError});
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
