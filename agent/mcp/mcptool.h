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
    workbench validates arguments like any other. The loop runs tools on
    worker threads while the McpClient lives on the GUI thread: invoke() posts
    the call there and waits for its outcome, passing on progress and
    cancellation, and keeps the exchange with the server in the result's
    details for the trace.
*/
class McpTool final : public Tool
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::McpTool)

public:
    // The most characters of output the model sees, like read_file's limit.
    static constexpr qsizetype MaxOutputChars = 64 * 1024;

    // \a timeoutMs is shared with the hub: the loop's tool timeout at the time of each call.
    McpTool(QPointer<McpClient> client, QString serverName, McpToolInfo info, QString modelName,
            std::shared_ptr<const std::atomic_int> timeoutMs);

    ToolSchema schema() const override { return m_schema; }
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const override;

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
