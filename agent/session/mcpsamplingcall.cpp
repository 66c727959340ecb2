#include "agent/session/mcpsamplingcall.h"

#include "agent/mcp/mcpsampling.h"
#include "agent/trace/trace.h"

#include <QDateTime>

using namespace Qt::StringLiterals;

namespace Loopscope {

McpSamplingCall::McpSamplingCall(std::unique_ptr<ModelClient> client, Trace *trace, int parentNode,
                                 PriceLookup prices, McpClient::SamplingReply reply, QObject *parent)
    : QObject(parent)
    , m_client(std::move(client))
    , m_trace(trace)
    , m_parentNode(parentNode)
    , m_prices(std::move(prices))
    , m_reply(std::move(reply))
{
    connect(m_client.get(), &ModelClient::finished, this, &McpSamplingCall::onFinished);
    connect(m_client.get(), &ModelClient::failed, this, &McpSamplingCall::onFailed);
    connect(m_client.get(), &ModelClient::attemptFinished, this, [this](const ModelAttempt &attempt) {
        if (m_trace && m_trace->isValid(m_node))
            m_trace->update(
                m_node, [&attempt](TraceNode &node) { node.data<ModelCallData>().attempts.append(attempt); });
    });
}

McpSamplingCall::~McpSamplingCall()
{
    if (m_reply) {
        m_client->cancel();
        settle({false, {}, tr("The model call was cancelled."), {}}, TraceStatus::Cancelled);
    }
}

qint64 McpSamplingCall::now() const
{
    return QDateTime::currentMSecsSinceEpoch() * 1000;
}

void McpSamplingCall::start(const McpSamplingRequest &request, const ModelOptions &options)
{
    const ModelRequest modelRequest = McpSampling::toModelRequest(request, options);
    if (m_trace && m_trace->isValid(m_parentNode)) {
        ModelCallData data;
        data.provider = m_client->providerName();
        data.model = options.model;
        data.request = modelRequest;
        //: A trace step: the model call an MCP server asked for (sampling)
        m_node = m_trace->begin(m_parentNode, TraceKind::ModelCall,
                                tr("Model call for %1").arg(request.serverName), now(), data);
    }
    m_client->send(modelRequest);
}

void McpSamplingCall::cancel()
{
    if (!m_reply)
        return;
    m_client->cancel();
    settle({false, {}, tr("The model call was cancelled."), {}}, TraceStatus::Cancelled);
}

void McpSamplingCall::onFinished(const ModelResponse &response)
{
    if (m_trace && m_trace->isValid(m_node)) {
        m_trace->update(m_node, [this, &response](TraceNode &node) {
            ModelCallData &call = node.data<ModelCallData>();
            call.response = response;
            call.cost = priceModelCall(call, m_prices);
        });
    }
    emit responded(response);
    settle({true, McpSampling::toResult(response), {}, response.usage}, TraceStatus::Ok);
}

void McpSamplingCall::onFailed(const ModelError &error)
{
    if (m_trace && m_trace->isValid(m_node))
        m_trace->update(m_node,
                        [&error](TraceNode &node) { node.data<ModelCallData>().error = error.message; });
    const bool cancelled = error.kind == ModelError::Kind::Cancelled;
    settle(
        {false,
         {},
         cancelled ? tr("The model call was cancelled.") : tr("The model call failed: %1").arg(error.message),
         {}},
        cancelled ? TraceStatus::Cancelled : TraceStatus::Error);
}

void McpSamplingCall::settle(const McpSamplingAnswer &answer, TraceStatus status)
{
    const McpClient::SamplingReply reply = std::exchange(m_reply, {});
    if (!reply)
        return;
    if (m_trace && m_trace->isValid(m_node) && m_trace->node(m_node).status == TraceStatus::Running)
        m_trace->finish(m_node, status, now());
    reply(answer);
    emit finished();
}

} // namespace Loopscope
