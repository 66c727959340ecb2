#pragma once

#include "agent/model/modelrequest.h"

#include <QCoreApplication>
#include <QFuture>
#include <QJsonObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

namespace Loopscope {

/*!
    What a tool hands back: text for the model, whether it describes a
    failure, images that go to the model beside the text (an MCP server's
    image content: each protocol encodes them, the session keeps them once),
    and what the trace should keep beyond the text (details, never shown to
    the model), e.g. the exchange with an MCP server.
*/
struct ToolResult
{
    QString content;
    bool isError = false;
    QJsonObject details;
    QList<Attachment> attachments;
    // The tokens the tool spent on model calls of its own (a sub-agent's): counted into the turn's.
    TokenUsage usage;

    static ToolResult success(const QString &content) { return {content, false, {}, {}, {}}; }
    static ToolResult failure(const QString &content) { return {content, true, {}, {}, {}}; }
    bool operator==(const ToolResult &) const = default;
};

/*!
    Where a tool call sits: its node in the trace, and how deeply the agent
    that made it is nested (0: the session's agent; 1: a sub-agent it asked,
    ...). A tool that runs steps of its own (a sub-agent) puts them under that node.
*/
struct ToolCallSite
{
    int traceNode = -1;
    int depth = 0;
};

/*!
    The running tool's line back to the loop. A blocking tool runs on a worker
    thread and polls isCancelled() in long work; a tool that answers later
    registers onCancelled() instead, which runs on the thread that cancels (the
    loop's). Either may report progress. All of it is thread-safe.
*/
class ToolContext final
{
public:
    using ProgressSink = std::function<void(const QString &)>;

    explicit ToolContext(ProgressSink progressSink = {}, ToolCallSite site = {})
        : m_site(site)
        , m_progressSink(std::move(progressSink))
    {}

    const ToolCallSite &callSite() const { return m_site; }

    bool isCancelled() const { return m_cancelled.load(std::memory_order_relaxed); }
    // Marks the call cancelled and runs the cancel hook once, on this thread.
    void cancel()
    {
        std::function<void()> hook;
        {
            std::lock_guard lock(m_cancelMutex);
            m_cancelled.store(true, std::memory_order_relaxed);
            hook = std::exchange(m_cancelHook, {});
        }
        if (hook)
            hook();
    }
    // What cancel() should do for a call that answers later, e.g. abort its request. Runs at once when
    // the call is already cancelled; a later registration replaces an earlier one that has not run.
    void onCancelled(std::function<void()> hook)
    {
        {
            std::lock_guard lock(m_cancelMutex);
            if (!m_cancelled.load(std::memory_order_relaxed)) {
                m_cancelHook = std::move(hook);
                return;
            }
        }
        if (hook)
            hook();
    }

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
    const ToolCallSite m_site;
    mutable std::mutex m_sinkMutex;
    ProgressSink m_progressSink;
    // Its own lock: a progress sink may cancel the call it reports on.
    std::mutex m_cancelMutex;
    std::function<void()> m_cancelHook;
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
    // The same arguments may give a different answer (the time, a server's
    // reply) though nothing else changed.
    bool resultVaries = false;

    // Whether a call asked for again with the same arguments would only give
    // the earlier result: what lets the runaway guard refuse a repeat.
    bool repeatGivesTheSameResult() const { return !asksFirst && !resultVaries; }
};

class AsyncTool;

/*!
    A capability the model may invoke. invoke() runs on a worker thread, may be
    slow, and must be safe to call concurrently. Throwing is allowed: the loop
    turns exceptions into an error result for the model. A tool that waits on
    the network or on another loop is an AsyncTool instead.
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
    // Not null for a tool that answers later: the loop starts it instead of running invoke().
    virtual const AsyncTool *asynchronous() const { return nullptr; }

    QString name() const { return schema().name; }
};

/*!
    A tool that answers later: it waits on the network or on another loop (an
    MCP server, a fetch, a knowledge search, a sub-agent) and would only hold a
    pool thread hostage while it waits. The loop calls start() on its own
    thread and awaits the future with a QFutureWatcher; the tool completes a
    QPromise from signals on that thread. Cancellation reaches it through
    ToolContext::onCancelled(), progress through ToolContext::reportProgress(),
    and everything decided before a call runs (approvals, interceptors, the
    step debugger, the time limit's start) is the same as for a blocking tool.

    Not finishing the future (a promise dropped unfinished) counts as a
    failure; an answer after the loop stopped waiting is ignored.
*/
class AsyncTool : public Tool
{
public:
    // Called on the loop's thread; must not block. May throw: the loop turns it into an error result.
    virtual QFuture<ToolResult> start(const QJsonObject &arguments,
                                      std::shared_ptr<ToolContext> context) const = 0;

    const AsyncTool *asynchronous() const final { return this; }
    // There is no blocking form: a failure saying so, never a wait.
    ToolResult invoke(const QJsonObject &arguments, ToolContext &context) const final
    {
        Q_UNUSED(arguments);
        Q_UNUSED(context);
        return ToolResult::failure(
            QCoreApplication::translate("Loopscope::AsyncTool",
                                        "%1 answers only asynchronously: start it instead of invoking it.")
                .arg(name()));
    }
};

} // namespace Loopscope
