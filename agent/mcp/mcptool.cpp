#include "agent/mcp/mcptool.h"

#include "agent/mcp/mcpcontent.h"

#include <QJsonArray>
#include <QPromise>
#include <QThread>
#include <QThreadPool>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

QJsonObject progressJson(const McpProgress &progress)
{
    QJsonObject json{{u"progress"_s, progress.progress}};
    if (progress.total)
        json.insert(u"total"_s, *progress.total);
    if (!progress.message.isEmpty())
        json.insert(u"message"_s, progress.message);
    return json;
}

QString cut(const QString &text)
{
    if (text.size() <= McpTool::MaxOutputChars)
        return text;
    return text.left(McpTool::MaxOutputChars)
           + McpTool::tr("\n[truncated: showed %1 of %2 characters]")
                 .arg(McpTool::MaxOutputChars)
                 .arg(text.size());
}

} // namespace

McpTool::McpTool(QPointer<McpClient> client, QString serverName, McpToolInfo info, QString modelName,
                 std::shared_ptr<const std::atomic_int> timeoutMs)
    : m_client(std::move(client))
    , m_serverName(std::move(serverName))
    , m_info(std::move(info))
    , m_timeoutMs(std::move(timeoutMs))
{
    m_schema.name = std::move(modelName);
    m_schema.description = m_info.description.isEmpty() ? m_info.title : m_info.description;
    m_schema.parameters
        = m_info.inputSchema.isEmpty() ? QJsonObject{{u"type"_s, u"object"_s}} : m_info.inputSchema;
}

QString McpTool::progressText(const McpProgress &progress)
{
    QString text = QString::number(progress.progress);
    if (progress.total)
        text += u'/' + QString::number(*progress.total);
    if (!progress.message.isEmpty())
        text += u' ' + progress.message;
    return text;
}

ToolResult McpTool::resultFor(const QString &serverName, const QString &toolName,
                              const McpCallOutcome &outcome)
{
    ToolResult result;
    if (!outcome.failure.isEmpty()) {
        result = ToolResult::failure(outcome.failure);
    } else if (outcome.cancelled) {
        result = ToolResult::failure(
            tr("The call to %1 on the MCP server “%2” was cancelled.").arg(toolName, serverName));
    } else if (McpContent::mayHoldImages(outcome.result)) {
        // Images go to the model as images (each protocol encodes them), not as a line of text.
        McpContent::CallResult call = McpContent::callResult(outcome.result, toolName);
        result.content = cut(call.text);
        result.isError = outcome.isError;
        result.attachments = std::move(call.images);
    } else {
        result.content = cut(outcome.text);
        result.isError = outcome.isError;
    }

    result.usage = outcome.samplingUsage; // the turn counts the server's model calls too
    QJsonObject mcp{{u"server"_s, serverName}, {u"tool"_s, toolName}, {u"durationMs"_s, outcome.durationMs}};
    if (!outcome.request.isEmpty())
        mcp.insert(u"request"_s, outcome.request);
    // The images' bytes are kept once, as the result's attachments.
    if (!outcome.response.isEmpty())
        mcp.insert(u"response"_s, McpContent::withoutImageData(outcome.response, result.attachments));
    if (!outcome.progress.isEmpty()) {
        QJsonArray progress;
        for (const McpProgress &step : outcome.progress)
            progress.append(progressJson(step));
        mcp.insert(u"progress"_s, progress);
    }
    if (!outcome.stderrLines.isEmpty())
        mcp.insert(u"stderr"_s, QJsonArray::fromStringList(outcome.stderrLines));
    for (const QString &key : {u"structuredContent"_s, u"content"_s}) {
        if (outcome.result.contains(key))
            mcp.insert(key, McpContent::withoutImageData(outcome.result.value(key), result.attachments));
    }
    if (outcome.isError)
        mcp.insert(u"isError"_s, true);
    if (!outcome.failure.isEmpty())
        mcp.insert(u"failure"_s, outcome.failure);
    if (outcome.cancelled)
        mcp.insert(u"cancelled"_s, true);
    result.details = QJsonObject{{u"mcp"_s, mcp}};
    return result;
}

// Runs on the loop's thread, which must be the client's: the client answers through its callbacks there.
QFuture<ToolResult> McpTool::start(const QJsonObject &arguments, std::shared_ptr<ToolContext> context) const
{
    const QString serverName = m_serverName;
    const QString toolName = m_info.name;
    const QPointer<McpClient> client = m_client;
    // The client is not thread-safe: a call from elsewhere is refused, never made behind its back.
    if (client && client->thread() != QThread::currentThread()) {
        McpCallOutcome outcome;
        outcome.failure
            = tr("The MCP server “%1” is served on another thread than the agent's loop; its tools "
                 "cannot be called from here.")
                  .arg(serverName);
        return QtFuture::makeReadyFuture(resultFor(serverName, toolName, outcome));
    }
    if (!client || client->state() != McpClient::State::Ready) {
        QString reason;
        if (!client)
            reason = tr("it was removed from the configuration");
        else if (client->state() == McpClient::State::Failed)
            reason = client->failureReason();
        else if (client->state() == McpClient::State::Starting)
            reason = tr("it is still starting");
        else
            reason = tr("it was stopped");
        McpCallOutcome outcome;
        outcome.failure = tr("The MCP server “%1” is not running: %2").arg(serverName, reason);
        return QtFuture::makeReadyFuture(resultFor(serverName, toolName, outcome));
    }

    const auto promise = std::make_shared<QPromise<ToolResult>>();
    promise->start();
    const qint64 id = client->callTool(
        toolName, arguments, m_timeoutMs ? m_timeoutMs->load() : 0,
        [context](const McpProgress &progress) { context->reportProgress(progressText(progress)); },
        [promise, serverName, toolName](const McpCallOutcome &outcome) {
            const auto answer = [promise, serverName, toolName, outcome] {
                promise->addResult(resultFor(serverName, toolName, outcome));
                promise->finish();
            };
            // Decoding and hashing images takes time the loop's thread must not stall for.
            if (McpContent::mayHoldImages(outcome.result))
                QThreadPool::globalInstance()->start(answer);
            else
                answer();
        });
    context->onCancelled([client, id] {
        if (client)
            client->cancelCall(id, tr("The user stopped the call or its time ran out."));
    });
    return promise->future();
}

} // namespace Loopscope
