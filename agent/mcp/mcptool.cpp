#include "agent/mcp/mcptool.h"

#include <QJsonArray>

#include <chrono>
#include <condition_variable>
#include <mutex>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

/*
    What the worker thread and the client's thread share for one call: the
    outcome once it is there, progress not yet passed on, and the call's id
    for cancelling it. The client's callbacks may come after invoke() gave up
    waiting; they only ever touch this.
*/
struct CallState
{
    std::mutex mutex;
    std::condition_variable changed;
    bool done = false;
    McpCallOutcome outcome;
    QStringList progress;
    qint64 callId = -1;
    bool cancelRequested = false;
};

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
    } else {
        result.content = cut(outcome.text);
        result.isError = outcome.isError;
    }

    QJsonObject mcp{{u"server"_s, serverName}, {u"tool"_s, toolName}, {u"durationMs"_s, outcome.durationMs}};
    if (!outcome.request.isEmpty())
        mcp.insert(u"request"_s, outcome.request);
    if (!outcome.response.isEmpty())
        mcp.insert(u"response"_s, outcome.response);
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
            mcp.insert(key, outcome.result.value(key));
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

// Runs on a worker thread; the client lives on the application's main thread (the hub's).
ToolResult McpTool::invoke(const QJsonObject &arguments, ToolContext &context) const
{
    const auto state = std::make_shared<CallState>();
    const QPointer<McpClient> client = m_client;
    const QString serverName = m_serverName;
    const QString toolName = m_info.name;
    const int timeoutMs = m_timeoutMs ? m_timeoutMs->load() : 0;

    const auto finish = [state](const McpCallOutcome &outcome) {
        {
            std::lock_guard lock(state->mutex);
            if (state->done)
                return;
            state->done = true;
            state->outcome = outcome;
        }
        state->changed.notify_all();
    };

    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [state, client, serverName, toolName, arguments, timeoutMs, finish] {
            {
                std::lock_guard lock(state->mutex);
                if (state->cancelRequested)
                    return; // the worker stopped waiting before the call went out
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
                finish(outcome);
                return;
            }
            const qint64 id = client->callTool(
                toolName, arguments, timeoutMs,
                [state](const McpProgress &progress) {
                    std::lock_guard lock(state->mutex);
                    state->progress.append(progressText(progress));
                    state->changed.notify_all();
                },
                finish);
            std::lock_guard lock(state->mutex);
            state->callId = id;
        },
        Qt::QueuedConnection);

    std::unique_lock lock(state->mutex);
    while (!state->done) {
        state->changed.wait_for(lock, std::chrono::milliseconds(25));
        if (!state->progress.isEmpty()) {
            const QStringList progress = std::exchange(state->progress, {});
            lock.unlock();
            for (const QString &text : progress)
                context.reportProgress(text);
            lock.lock();
            continue;
        }
        if (!state->done && context.isCancelled()) {
            state->cancelRequested = true;
            lock.unlock();
            QMetaObject::invokeMethod(
                QCoreApplication::instance(),
                [state, client] {
                    qint64 id = -1;
                    {
                        std::lock_guard lock(state->mutex);
                        id = state->callId;
                    }
                    if (client && id >= 0)
                        client->cancelCall(id, tr("The user stopped the call or its time ran out."));
                },
                Qt::QueuedConnection);
            McpCallOutcome outcome;
            outcome.cancelled = true;
            return resultFor(serverName, toolName, outcome);
        }
    }
    const McpCallOutcome outcome = state->outcome;
    const QStringList progress = std::exchange(state->progress, {});
    lock.unlock();
    for (const QString &text : progress)
        context.reportProgress(text);
    return resultFor(serverName, toolName, outcome);
}

} // namespace Loopscope
