#pragma once

#include "agent/model/modelrequest.h"

#include <QJsonObject>
#include <QString>

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>

namespace Loopscope {

/*!
    What a tool hands back: text for the model, whether it describes a
    failure, and what the trace should keep beyond the text (details, never
    shown to the model), e.g. the exchange with an MCP server.
*/
struct ToolResult
{
    QString content;
    bool isError = false;
    QJsonObject details;

    static ToolResult success(const QString &content) { return {content, false, {}}; }
    static ToolResult failure(const QString &content) { return {content, true, {}}; }
    bool operator==(const ToolResult &) const = default;
};

/*!
    The running tool's line back to the loop. Tools run on worker threads: they
    poll isCancelled() in long work and may report progress; both are thread-safe.
*/
class ToolContext final
{
public:
    using ProgressSink = std::function<void(const QString &)>;

    explicit ToolContext(ProgressSink progressSink = {})
        : m_progressSink(std::move(progressSink))
    {}

    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }
    void cancel() { m_cancelled.store(true, std::memory_order_relaxed); }

    void reportProgress(const QString &message) const
    {
        std::lock_guard lock(m_sinkMutex);
        if (m_progressSink)
            m_progressSink(message);
    }
    // Detaches the sink, e.g. when the loop stopped waiting for this tool.
    void disconnectProgress()
    {
        std::lock_guard lock(m_sinkMutex);
        m_progressSink = {};
    }

private:
    std::atomic_bool m_cancelled = false;
    mutable std::mutex m_sinkMutex;
    ProgressSink m_progressSink;
};

/*! How the loop treats a tool beyond calling it. */
struct ToolBehaviour
{
    std::optional<int> timeoutMs; // overrides the agent's default tool timeout
    bool endsLoop = false;        // "stop after this tool": the loop ends once it ran
    QString handoffTarget;        // non-empty: calling it hands the conversation to that agent profile
    // It changes files, runs programs or reaches the network: the approval
    // policy asks the user before each call unless a rule says otherwise.
    bool asksFirst = false;
};

/*!
    A capability the model may invoke. invoke() runs on a worker thread, may be
    slow, and must be safe to call concurrently. Throwing is allowed: the loop
    turns exceptions into an error result for the model.
*/
class Tool
{
public:
    virtual ~Tool() = default;

    virtual ToolSchema schema() const = 0;
    virtual ToolBehaviour behaviour() const { return {}; }
    // Calls of one response whose keys are equal and not empty run one after
    // another, in call order, however many may run at once: e.g. two writes
    // of the same file. Called on the loop's thread, before the call runs.
    virtual QString exclusiveKey(const QJsonObject &arguments) const
    {
        Q_UNUSED(arguments);
        return {};
    }
    virtual ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const = 0;

    QString name() const { return schema().name; }
};

} // namespace Loopscope
