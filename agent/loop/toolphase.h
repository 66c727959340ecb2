#pragma once

#include "agent/loop/agentconfig.h"
#include "agent/loop/agentevent.h"
#include "agent/loop/callschedule.h"
#include "agent/loop/interceptor.h"
#include "agent/loop/turngate.h"
#include "agent/trace/clock.h"
#include "agent/trace/tracenode.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>

#include <functional>
#include <memory>
#include <vector>

QT_BEGIN_NAMESPACE
class QThreadPool;
QT_END_NAMESPACE

namespace Loopscope {

class Trace;
class Workbench;

/*!
    The tool half of an iteration, on its own so it can be tested on its own:
    the calls of one model response go through the checks that need no one
    (past the cap on calls per response, unknown tool, invalid arguments,
    runaway repeats), the interceptors'
    decisions and the shields, then run on a thread pool, a limited number at
    once, each within its time limit; calls whose tool gives them the same
    exclusive key (two writes of one file) run one after another, in call
    order. Results are reported as they come and
    kept in the model's order; `finished` says every call has one. A blocking
    tool runs on the pool; a tool that answers later (AsyncTool) is started on
    this thread and awaited the same way, with a QFutureWatcher, under the
    same time limit and cancellation.

    Calls are told apart by their id, which must be unique within a phase (the
    Agent makes them unique across the conversation).
*/
class ToolPhase final : public QObject
{
    Q_OBJECT

public:
    // Asks the shields about a call about to run; on false, reason says why. Records its own trace nodes.
    using ShieldCheck = std::function<bool(const QString &toolName, const QString &arguments, int traceNode,
                                           QString *reason)>;

    struct FinishedCall
    {
        ToolCall call; // as it ran, with the arguments an interceptor may have edited
        ToolResult result;
        bool endsLoop = false; // the tool succeeded and asks the loop to stop
        bool denied = false;   // an interceptor (the user) refused it: not the model's error
    };

    // The interceptors are consulted in the list's order at the time of each decision.
    ToolPhase(Workbench *workbench, Trace *trace, TurnGate *gate, const QList<Interceptor *> &interceptors,
              QObject *parent = nullptr);
    // Cancels tools still running and waits a while for them.
    ~ToolPhase() override;

    void setClock(std::shared_ptr<const Clock> clock);
    // The tools of the agent that runs the next phase (a turn handed off); not while one runs.
    void setWorkbench(Workbench *workbench);
    // How deeply the agent that runs the phase is nested (0: the session's own; 1: a sub-agent it
    // asked): its tools are told, so a sub-agent call knows how deep it would go.
    void setDepth(int depth) { m_depth = depth; }
    // None (the default, or a null one) skips the check and the arguments' serialisation for it.
    void setShieldCheck(ShieldCheck check) { m_shieldCheck = std::move(check); }

    // A new turn: the runaway guard forgets the calls of the last one.
    void beginTurn();
    // Takes over one response's calls; their trace nodes go under parentNode. The gate decides
    // whether late decisions, progress, timeouts and results still count.
    void start(TurnToken token, const QList<ToolCall> &calls, int parentNode, const AgentConfig &config);
    // Ends every unfinished call as cancelled, \a why its result; `finished` is not emitted.
    void cancel(const QString &why);
    // Stops the time limits of running calls while a person answers a tool's question (an MCP
    // server's form); they go on with the time they had left.
    void pauseTimeouts(bool paused);

    bool isActive() const { return m_active; }
    // The trace's label of a span held for someone: "Waiting for your approval", "Paused at a breakpoint".
    static QString waitLabel(const QString &waitingFor);
    // A search of the user's documents as a Retrieval node under \a parent, from startedUs to endedUs.
    static int recordRetrieval(Trace &trace, int parent, RetrievalData retrieval, qint64 startedUs,
                               qint64 endedUs);
    // The last started phase's calls in the model's order, each with its result once it has one.
    QList<FinishedCall> results() const;

signals:
    void event(const Loopscope::AgentEvent &event);
    // True while calls wait for a decision and none runs.
    void waitingForDecision(bool waiting);
    void finished();

private:
    struct PendingCall;

    PendingCall *callAt(int index);
    CallSchedule::Stage stageOf(const PendingCall &pending) const;
    void prepare(PendingCall &pending);
    void refuseOverTheCap(PendingCall &pending, int callsInResponse);
    void consultInterceptors(int callIndex, int interceptorIndex);
    void beginWait(PendingCall &pending, const QString &waitingFor);
    void endWait(PendingCall &pending, const QString &decision, TraceStatus status,
                 const ToolCallVerdict &verdict = {});
    void applyVerdict(int callIndex, int interceptorIndex, const ToolCallVerdict &verdict);
    bool takeEditedArguments(PendingCall &pending, const QString &edited);
    void queue(PendingCall &pending);
    void startQueued();
    void run(PendingCall &pending);
    void onTimeout(int callIndex, int timeoutMs);
    void complete(PendingCall &pending, const ToolResult &result, TraceStatus status, qint64 startedUs = 0,
                  qint64 endedUs = 0);
    void addRetrieval(int callNode, RetrievalData retrieval, qint64 endedUs);
    void finishIfDone();
    void emitEvent(AgentEvent::Kind kind, int traceNode, const QString &text, const ToolCall &call,
                   bool isError = false, AgentEventPayload payload = {});
    qint64 now() const { return m_clock->nowUs(); }

    Workbench *m_workbench;
    Trace *m_trace;
    TurnGate *m_gate;
    const QList<Interceptor *> &m_interceptors;
    ShieldCheck m_shieldCheck;
    std::shared_ptr<const Clock> m_clock;
    QThreadPool *m_pool;

    TurnToken m_token;
    int m_depth = 0;
    QString m_agentName; // the agent whose calls these are, for the interceptors (an approval names it)
    int m_parentNode = -1;
    int m_maxParallel = 1;
    int m_defaultTimeoutMs = 0;
    int m_maxRepeatedCalls = 0;
    int m_maxCalls = AgentConfig::MaxToolCallsLimit; // per response
    std::vector<std::unique_ptr<PendingCall>> m_calls;
    CallSchedule m_schedule;
    bool m_active = false;
    bool m_timeoutsPaused = false;
    bool m_preparing = false;
    // The runaway guard: how many responses in a row asked for each call, compared as parsed so that
    // spacing does not tell them apart. A call counts once per response however often that response
    // asks for it, and only for a tool whose repeat gives the same result.
    int responsesInARow(const QString &name, const QJsonObject &arguments);
    // Name and compact arguments → how many responses in a row asked for that call.
    QHash<QString, int> m_lastResponseCalls;
    QHash<QString, int> m_thisResponseCalls;
    bool m_thisResponseChangesThings = false; // it called a tool with effects: earlier results may be stale
};

} // namespace Loopscope
