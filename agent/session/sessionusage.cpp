#include "agent/session/sessionusage.h"

#include "agent/trace/trace.h"

#include <utility>

namespace Loopscope {

SessionUsage::SessionUsage(const Trace *trace, QObject *parent)
    : QObject(parent)
    , m_trace(trace)
{}

void SessionUsage::startTurn()
{
    m_turnUsage = {};
    m_turnCost = {};
    m_iteration = 0;
    emit changed();
}

void SessionUsage::observe(const AgentEvent &event, int maxIterations)
{
    // A sub-agent's answers cost the turn their tokens; its iterations, stream and context are its own.
    if (event.depth > 0 && event.kind != AgentEvent::Kind::ModelResponse)
        return;
    switch (event.kind) {
    case AgentEvent::Kind::IterationStarted: {
        m_iteration = event.iteration;
        const auto *started = event.payloadAs<IterationStartedInfo>();
        emit iterationChanged(m_iteration, started ? started->maxIterations : maxIterations);
        break;
    }
    case AgentEvent::Kind::TextDelta: {
        const qint64 before = streamingTokenEstimate();
        m_streamedChars += event.text.size();
        if (streamingTokenEstimate() != before)
            emit changed();
        break;
    }
    case AgentEvent::Kind::ModelResponse: {
        const auto *response = event.payloadAs<ModelResponseInfo>();
        const TokenUsage usage = response ? response->usage : TokenUsage{};
        if (event.depth == 0)
            m_streamedChars = 0; // the real count replaces the estimate
        m_turnUsage += usage;
        m_sessionUsage += usage;
        if (!usage.isEmpty() && event.depth == 0)
            m_contextTokens = usage.inputTokens + usage.outputTokens;
        if (m_trace->isValid(event.traceNode)) {
            const CostSum cost = traceCost(*m_trace, event.traceNode);
            m_turnCost += cost;
            m_sessionCost += cost;
        }
        emit changed();
        break;
    }
    default: break;
    }
}

void SessionUsage::finishTurn()
{
    if (std::exchange(m_streamedChars, 0) > 0) // a failed or cancelled call never reported usage
        emit changed();
}

void SessionUsage::recount()
{
    m_turnUsage = {};
    m_turnCost = {};
    m_sessionUsage = {};
    m_sessionCost = Loopscope::sessionCost(*m_trace);
    m_contextTokens = 0;
    m_iteration = 0;
    for (int root : m_trace->roots()) {
        if (const auto *turn = std::get_if<TurnData>(&m_trace->node(root).payload))
            m_sessionUsage += turn->usage;
    }
    // The last answered request is what the next one builds on.
    for (int id = m_trace->size() - 1; id >= 0; --id) {
        const auto *call = std::get_if<ModelCallData>(&m_trace->node(id).payload);
        if (call && !call->response.usage.isEmpty()) {
            m_contextTokens = call->response.usage.inputTokens + call->response.usage.outputTokens;
            break;
        }
    }
    emit changed();
}

} // namespace Loopscope
