#pragma once

#include "agent/mcp/mcpclient.h"
#include "agent/model/modelclient.h"
#include "agent/trace/tracecost.h"

#include <QObject>

#include <functional>
#include <memory>

namespace Loopscope {

class Trace;

/*!
    One model call an MCP server asked for and the user accepted: it runs on a
    model client of its own (the session's agent waits on the tool call meanwhile
    and keeps its client) and is recorded as a ModelCall node under the tool
    call that made the server ask, the way a sub-agent's steps nest under its
    call, priced like the loop's own calls. It answers the server exactly once:
    the CreateMessageResult, or a refusal saying why (the provider failed, it
    was cancelled).
*/
class McpSamplingCall final : public QObject
{
    Q_OBJECT

public:
    // \a parentNode: the trace node the call goes under (-1: not recorded).
    McpSamplingCall(std::unique_ptr<ModelClient> client, Trace *trace, int parentNode, PriceLookup prices,
                    McpClient::SamplingReply reply, QObject *parent = nullptr);
    ~McpSamplingCall() override;

    // \a options: the session's model options, with the model to run on.
    void start(const McpSamplingRequest &request, const ModelOptions &options);
    // Ends the call as cancelled (the server hears a refusal); the object then deletes itself.
    void cancel();
    int traceNode() const { return m_node; }

signals:
    // The provider answered (before finished()): what the session counts of it.
    void responded(const Loopscope::ModelResponse &response);
    void finished();

private:
    void onFinished(const ModelResponse &response);
    void onFailed(const ModelError &error);
    void settle(const McpSamplingAnswer &answer, TraceStatus status);
    qint64 now() const;

    std::unique_ptr<ModelClient> m_client;
    Trace *m_trace;
    int m_parentNode;
    int m_node = -1;
    PriceLookup m_prices;
    McpClient::SamplingReply m_reply;
};

} // namespace Loopscope
