#pragma once

#include "agent/mcp/mcpclient.h"
#include "agent/tools/tool.h"

#include <QCoreApplication>
#include <QPointer>

#include <atomic>
#include <memory>

namespace Loopscope {

/*!
    One tool of an MCP server as the loop sees it: a Tool under its
    model-facing name with the server's description and input schema, so the
    workbench validates arguments like any other. It answers later (an
    AsyncTool): started on the loop's thread, which must be the one the
    McpClient lives on (a call from any other is refused), it answers from the
    client's callback, passes on progress, turns cancellation into
    notifications/cancelled, and keeps the exchange with the server in the
    result's details for the trace.
*/
class McpTool final : public AsyncTool
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::McpTool)

public:
    // The most characters of output the model sees, like read_file's limit.
    static constexpr qsizetype MaxOutputChars = 64 * 1024;

    // \a timeoutMs is shared with the hub: the loop's tool timeout at the time of each call.
    McpTool(QPointer<McpClient> client, QString serverName, McpToolInfo info, QString modelName,
            std::shared_ptr<const std::atomic_int> timeoutMs);

    ToolSchema schema() const override { return m_schema; }
    // Another program answers: the same arguments may give another result.
    ToolBehaviour behaviour() const override
    {
        ToolBehaviour behaviour;
        behaviour.resultVaries = true;
        return behaviour;
    }
    QFuture<ToolResult> start(const QJsonObject &arguments,
                              std::shared_ptr<ToolContext> context) const override;

    const QString &serverName() const { return m_serverName; }
    const McpToolInfo &info() const { return m_info; }

    // The text of one progress notification: "3/10 Step 3".
    static QString progressText(const McpProgress &progress);
    // The result an outcome gives the model and the trace.
    static ToolResult resultFor(const QString &serverName, const QString &toolName,
                                const McpCallOutcome &outcome);

private:
    QPointer<McpClient> m_client;
    QString m_serverName;
    McpToolInfo m_info;
    ToolSchema m_schema;
    std::shared_ptr<const std::atomic_int> m_timeoutMs;
};

} // namespace Loopscope
