#include "agent/loop/toolphase.h"

#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"

#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <exception>
#include <utility>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// When a call's own work ran: a blocking tool's worker takes the times itself, so that they show
// what really overlapped; written before its future finishes, read after.
struct RunTimes
{
    qint64 startedUs = 0;
    qint64 endedUs = 0;
};

ToolResult exceptionResult(const std::exception_ptr &exception)
{
    try {
        std::rethrow_exception(exception);
    } catch (const std::exception &e) {
        return ToolResult::failure(
            ToolPhase::tr("The tool failed with an exception: %1").arg(QString::fromUtf8(e.what())));
    } catch (...) {
        return ToolResult::failure(ToolPhase::tr("The tool failed with an unknown exception."));
    }
}

// Runs on a pool thread. Exceptions end here: they become a result the model can read.
ToolResult runTool(std::shared_ptr<const Tool> tool, QJsonObject arguments,
                   std::shared_ptr<ToolContext> context, std::shared_ptr<const Clock> clock,
                   std::shared_ptr<RunTimes> times)
{
    times->startedUs = clock->nowUs();
    ToolResult result;
    try {
        result = tool->invoke(arguments, *context);
    } catch (...) {
        result = exceptionResult(std::current_exception());
    }
    times->endedUs = clock->nowUs();
    return result;
}

// Every call is awaited the same way: a blocking tool's future is its run on the pool, a tool that
// answers later hands back its own, started here on the loop's thread, and holds no thread while it waits.
QFuture<ToolResult> startTool(std::shared_ptr<const Tool> tool, const QJsonObject &arguments,
                              std::shared_ptr<ToolContext> context, QThreadPool *pool,
                              std::shared_ptr<const Clock> clock, std::shared_ptr<RunTimes> times)
{
    const AsyncTool *async = tool->asynchronous();
    if (!async)
        return QtConcurrent::run(pool, runTool, std::move(tool), arguments, std::move(context),
                                 std::move(clock), std::move(times));
    times->startedUs = clock->nowUs();
    try {
        return async->start(arguments, std::move(context));
    } catch (...) {
        return QtFuture::makeReadyFuture(exceptionResult(std::current_exception()));
    }
}

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

} // namespace

struct ToolPhase::PendingCall
{
    int index = 0; // in the model's order; callbacks name a call by it, since ids need not be unique
    ToolCall call;
    std::shared_ptr<const Tool> tool;
    QJsonObject arguments;
    int traceNode = -1;
    ToolResult result;
    std::shared_ptr<ToolContext> context;
    QFutureWatcher<ToolResult> *watcher = nullptr; // while it runs
    QTimer *timeout = nullptr;
    int timeoutLeftMs = 0; // while timeouts are paused
    int waitNode = -1;     // the span of a hold for someone's decision, while it lasts
    qint64 decidedUs = 0;  // when the last hold ended: the call's own time starts there
};

ToolPhase::ToolPhase(Workbench *workbench, Trace *trace, TurnGate *gate,
                     const QList<Interceptor *> &interceptors, QObject *parent)
    : QObject(parent)
    , m_workbench(workbench)
    , m_trace(trace)
    , m_gate(gate)
    , m_interceptors(interceptors)
    , m_clock(std::make_shared<SystemClock>())
    , m_pool(new QThreadPool)
{
    // Enough threads that a slow tool never starves the next turn's calls;
    // the phase itself limits how many of one response's calls run at once.
    m_pool->setMaxThreadCount(std::max(8, QThread::idealThreadCount()));
}

ToolPhase::~ToolPhase()
{
    if (m_active) {
        for (const auto &pending : m_calls) {
            if (pending->context)
                pending->context->cancel();
        }
    }
    // A tool that ignores cancellation is abandoned rather than allowed to
    // hang the application's exit; its thread ends with the process.
    if (m_pool->waitForDone(5000))
        delete m_pool;
}

void ToolPhase::setClock(std::shared_ptr<const Clock> clock)
{
    if (clock)
        m_clock = std::move(clock);
}

void ToolPhase::setWorkbench(Workbench *workbench)
{
    Q_ASSERT(workbench && !isActive());
    m_workbench = workbench;
}

void ToolPhase::beginTurn()
{
    m_lastResponseCalls.clear();
    m_thisResponseCalls.clear();
    m_thisResponseChangesThings = false;
}

void ToolPhase::start(TurnToken token, const QList<ToolCall> &calls, int parentNode,
                      const AgentConfig &config)
{
    m_token = token;
    m_agentName = config.name;
    m_parentNode = parentNode;
    m_maxParallel = std::max(1, config.maxParallelTools);
    m_defaultTimeoutMs = config.toolTimeoutMs;
    m_maxRepeatedCalls = config.maxRepeatedCalls;
    m_maxCalls = std::clamp(config.maxToolCallsPerResponse, 1, AgentConfig::MaxToolCallsLimit);
    m_calls.clear();
    m_schedule.reset(int(calls.size()));
    // After calls with effects the same request may well have another answer: the count starts again.
    m_lastResponseCalls = std::exchange(m_thisResponseChangesThings, false) ? QHash<QString, int>()
                                                                            : std::move(m_thisResponseCalls);
    m_thisResponseCalls.clear();
    m_active = true;
    m_preparing = true;
    emit waitingForDecision(false);
    for (const ToolCall &call : calls) {
        PendingCall &pending = *m_calls.emplace_back(std::make_unique<PendingCall>());
        pending.index = int(m_calls.size()) - 1;
        pending.call = call;
        ToolCallData data;
        data.call = call;
        pending.traceNode = m_trace->begin(parentNode, TraceKind::ToolCall, call.name, now(), data);
        emitEvent(AgentEvent::Kind::ToolCall, pending.traceNode, {}, call);
        if (pending.index < m_maxCalls)
            prepare(pending);
        else
            refuseOverTheCap(pending, int(calls.size()));
    }
    m_preparing = false;
    startQueued();
    finishIfDone();
}

ToolPhase::PendingCall *ToolPhase::callAt(int index)
{
    return index >= 0 && std::size_t(index) < m_calls.size() ? m_calls[std::size_t(index)].get() : nullptr;
}

CallSchedule::Stage ToolPhase::stageOf(const PendingCall &pending) const
{
    return m_schedule.stage(pending.index);
}

QList<ToolPhase::FinishedCall> ToolPhase::results() const
{
    QList<FinishedCall> results;
    for (const auto &pending : m_calls) {
        const bool endsLoop
            = !pending->result.isError && pending->tool && pending->tool->behaviour().endsLoop;
        const bool denied
            = pending->traceNode >= 0 && m_trace->node(pending->traceNode).status == TraceStatus::Denied;
        results.append({pending->call, pending->result, endsLoop, denied});
    }
    return results;
}

// The checks that need no one's decision: a call that fails them never reaches
// an interceptor, and its error goes straight back to the model.
void ToolPhase::prepare(PendingCall &pending)
{
    const ToolCall &call = pending.call;
    const auto fail = [this, &pending](const QString &message) {
        complete(pending, ToolResult::failure(message), TraceStatus::Error);
    };

    pending.tool = m_workbench->find(call.name);
    if (!pending.tool) {
        fail(
            tr("Unknown tool '%1'. Available tools: %2.").arg(call.name, m_workbench->names().join(u", "_s)));
        return;
    }

    QJsonParseError parseError;
    const QString argumentsText = call.arguments.trimmed().isEmpty() ? u"{}"_s : call.arguments;
    const QJsonDocument document = QJsonDocument::fromJson(argumentsText.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        fail(tr("The arguments are not valid JSON (%1 at offset %2). Send a JSON object that matches "
                "the tool's schema.")
                 .arg(parseError.errorString())
                 .arg(parseError.offset));
        return;
    }
    if (!document.isObject()) {
        fail(tr("The arguments must be a JSON object, not %1.")
                 .arg(document.isArray() ? tr("an array") : tr("a plain value")));
        return;
    }
    pending.arguments = document.object();

    const ToolBehaviour behaviour = pending.tool->behaviour();
    m_thisResponseChangesThings |= behaviour.asksFirst;
    const int repeats
        = behaviour.repeatGivesTheSameResult() ? responsesInARow(call.name, pending.arguments) : 0;
    if (m_maxRepeatedCalls > 0 && repeats >= m_maxRepeatedCalls) {
        complete(pending,
                 ToolResult::failure(tr("Not executed: %1 was requested with these same arguments in %2 "
                                        "responses in a row and would give the same result. Use the "
                                        "earlier result or try something different.")
                                         .arg(call.name)
                                         .arg(repeats)),
                 TraceStatus::Skipped);
        return;
    }

    const QString violation = m_workbench->validateArguments(call.name, pending.arguments);
    if (!violation.isEmpty()) {
        fail(tr("The arguments do not match the schema of %1:\n%2").arg(call.name, violation));
        return;
    }
    m_schedule.setExclusiveKey(pending.index, pending.tool->exclusiveKey(pending.arguments));
    m_schedule.setStage(pending.index, CallSchedule::Stage::AwaitingDecision);
    consultInterceptors(pending.index, 0);
}

// A call past the first maxToolCallsPerResponse of its response: it is not run, and the model is
// told why, so that it can ask again for what it still needs.
void ToolPhase::refuseOverTheCap(PendingCall &pending, int callsInResponse)
{
    complete(pending,
             ToolResult::failure(tr("Not executed: this response asked for %1 tool calls, more than the "
                                    "limit of %2 per response (Settings → Loop, --max-tool-calls). Only "
                                    "the first %2 were run; ask again for what you still need.")
                                     .arg(callsInResponse)
                                     .arg(m_maxCalls)),
             TraceStatus::Skipped);
}

// How many responses in a row, this one included, asked for this call.
int ToolPhase::responsesInARow(const QString &name, const QJsonObject &arguments)
{
    // Compact JSON of an object lists its keys sorted: equal arguments give equal text however
    // they were spaced or ordered.
    const QString key = name + u'\n' + compactJson(arguments);
    if (const auto counted = m_thisResponseCalls.constFind(key); counted != m_thisResponseCalls.cend())
        return *counted;
    const int responses = m_lastResponseCalls.value(key, 0) + 1;
    m_thisResponseCalls.insert(key, responses);
    return responses;
}

void ToolPhase::consultInterceptors(int callIndex, int interceptorIndex)
{
    PendingCall &pending = *callAt(callIndex);
    if (interceptorIndex >= m_interceptors.size()) {
        queue(pending);
        return;
    }
    emit waitingForDecision(true);
    ToolCallCheckpoint checkpoint;
    checkpoint.iteration = m_token.iteration;
    checkpoint.call = pending.call;
    checkpoint.schema = pending.tool->schema();
    checkpoint.behaviour = pending.tool->behaviour();
    checkpoint.traceNode = pending.traceNode;
    checkpoint.agent = m_agentName;

    const QPointer<TurnGate> gate(m_gate);
    const QPointer<ToolPhase> self(this);
    const TurnToken token = m_token;
    ToolCallDecision decision([gate, self, token, callIndex, interceptorIndex](ToolCallVerdict verdict) {
        TurnGate::post(gate, token, [self, callIndex, interceptorIndex, verdict = std::move(verdict)] {
            if (self)
                self->applyVerdict(callIndex, interceptorIndex, verdict);
        });
    });
    Interceptor *interceptor = m_interceptors.at(interceptorIndex);
    interceptor->interceptToolCall(checkpoint, decision);
    // Undecided once the interceptor returned: it holds the call for someone (the user, a debugger).
    if (decision.isPending()) {
        if (PendingCall *held = callAt(callIndex); held && held->waitNode < 0)
            beginWait(*held, interceptor->holdKind());
    }
}

QString ToolPhase::waitLabel(const QString &waitingFor)
{
    return waitingFor == u"approval"     ? tr("Waiting for your approval")
           : waitingFor == u"breakpoint" ? tr("Paused at a breakpoint")
                                         : tr("Waiting for a decision");
}

void ToolPhase::beginWait(PendingCall &pending, const QString &waitingFor)
{
    pending.waitNode = m_trace->begin(pending.traceNode, TraceKind::Wait, waitLabel(waitingFor), now(),
                                      WaitData{waitingFor, {}});
}

void ToolPhase::endWait(PendingCall &pending, const QString &decision, TraceStatus status,
                        const ToolCallVerdict &verdict)
{
    if (pending.waitNode < 0)
        return;
    const int node = std::exchange(pending.waitNode, -1);
    const bool edited = verdict.editedArguments && *verdict.editedArguments != pending.call.arguments;
    m_trace->update(node, [&](TraceNode &n) {
        WaitData &data = n.data<WaitData>();
        data.decision = decision;
        data.scope = verdict.note.scope;
        data.preview = verdict.note.preview;
        data.argumentsEdited = edited;
    });
    pending.decidedUs = now();
    m_trace->finish(node, status, pending.decidedUs);
}

void ToolPhase::applyVerdict(int callIndex, int interceptorIndex, const ToolCallVerdict &verdict)
{
    PendingCall *found = callAt(callIndex);
    if (!found || stageOf(*found) != CallSchedule::Stage::AwaitingDecision)
        return;
    PendingCall &pending = *found;

    switch (verdict.action) {
    case ToolCallVerdict::Action::Deny: endWait(pending, u"denied"_s, TraceStatus::Denied, verdict); break;
    case ToolCallVerdict::Action::SupplyResult:
        endWait(pending, u"manual result"_s, TraceStatus::Ok, verdict);
        break;
    case ToolCallVerdict::Action::Allow: endWait(pending, u"allowed"_s, TraceStatus::Ok, verdict); break;
    }

    switch (verdict.action) {
    case ToolCallVerdict::Action::Deny: {
        const QString reason = verdict.denialReason.isEmpty()
                                   ? tr("Denied by the user.")
                                   : tr("Denied by the user: %1").arg(verdict.denialReason);
        m_trace->update(pending.traceNode,
                        [](TraceNode &node) { node.data<ToolCallData>().decision = u"denied"_s; });
        complete(pending, ToolResult::failure(reason), TraceStatus::Denied);
        break;
    }
    case ToolCallVerdict::Action::SupplyResult:
        m_trace->update(pending.traceNode,
                        [](TraceNode &node) { node.data<ToolCallData>().decision = u"manual result"_s; });
        complete(pending, verdict.suppliedResult,
                 verdict.suppliedResult.isError ? TraceStatus::Error : TraceStatus::Ok);
        break;
    case ToolCallVerdict::Action::Allow:
        if (verdict.editedArguments && !takeEditedArguments(pending, *verdict.editedArguments))
            break;
        consultInterceptors(callIndex, interceptorIndex + 1);
        break;
    }
    startQueued();
    finishIfDone();
}

// Edited arguments get the same checks the model's did. False when they fail
// them: the call is then complete with the problem as its result.
bool ToolPhase::takeEditedArguments(PendingCall &pending, const QString &edited)
{
    if (edited == pending.call.arguments)
        return true;
    const QString original = pending.call.arguments;
    pending.call.arguments = edited;
    m_trace->update(pending.traceNode, [&original, &edited](TraceNode &node) {
        ToolCallData &data = node.data<ToolCallData>();
        if (data.originalArguments.isEmpty())
            data.originalArguments = original;
        data.call.arguments = edited;
    });
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(edited.toUtf8(), &parseError);
    QString problem;
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        problem = tr("The edited arguments are not a valid JSON object.");
    else
        problem = m_workbench->validateArguments(pending.call.name, document.object());
    if (!problem.isEmpty()) {
        complete(pending, ToolResult::failure(problem), TraceStatus::Error);
        return false;
    }
    pending.arguments = document.object();
    m_schedule.setExclusiveKey(pending.index, pending.tool->exclusiveKey(pending.arguments));
    return true;
}

void ToolPhase::queue(PendingCall &pending)
{
    QString reason;
    if (m_shieldCheck
        && !m_shieldCheck(pending.call.name, compactJson(pending.arguments), pending.traceNode, &reason)) {
        complete(pending, ToolResult::failure(tr("Blocked by a safety check: %1").arg(reason)),
                 TraceStatus::Blocked);
        return;
    }
    m_trace->update(pending.traceNode, [](TraceNode &node) {
        QString &decision = node.data<ToolCallData>().decision;
        if (decision.isEmpty())
            decision = u"allowed"_s;
    });
    m_schedule.setStage(pending.index, CallSchedule::Stage::Queued);
}

void ToolPhase::startQueued()
{
    if (!m_active)
        return;
    while (m_schedule.running() < m_maxParallel) {
        const std::optional<int> next = m_schedule.nextStartable();
        if (!next)
            break;
        run(*callAt(*next));
    }
    emit waitingForDecision(m_schedule.awaitingDecision() > 0 && m_schedule.running() == 0);
}

void ToolPhase::run(PendingCall &pending)
{
    m_schedule.setStage(pending.index, CallSchedule::Stage::Running);

    const QPointer<TurnGate> gate(m_gate);
    const QPointer<ToolPhase> self(this);
    const TurnToken token = m_token;
    const int node = pending.traceNode;
    pending.context = std::make_shared<ToolContext>(
        [gate, self, token, node](const QString &message) {
            TurnGate::post(gate, token, [self, node, message] {
                if (!self)
                    return;
                self->m_trace->update(
                    node, [&message](TraceNode &n) { n.data<ToolCallData>().progress.append(message); });
                const ToolCall call = self->m_trace->node(node).data<ToolCallData>().call;
                self->emitEvent(AgentEvent::Kind::ToolProgress, node, message, call);
            });
        },
        ToolCallSite{node, m_depth});

    const int callIndex = pending.index;
    const int timeoutMs = pending.tool->behaviour().timeoutMs.value_or(m_defaultTimeoutMs);
    if (timeoutMs > 0) {
        pending.timeout = new QTimer(this);
        pending.timeout->setSingleShot(true);
        connect(pending.timeout, &QTimer::timeout, this,
                m_gate->guard(token, [this, callIndex, timeoutMs] { onTimeout(callIndex, timeoutMs); }));
        if (m_timeoutsPaused)
            pending.timeoutLeftMs = timeoutMs;
        else
            pending.timeout->start(timeoutMs);
    }

    const auto times = std::make_shared<RunTimes>();
    auto *watcher = new QFutureWatcher<ToolResult>(this);
    pending.watcher = watcher;
    const auto onFinished = m_gate->guard(token, [this, watcher, times, callIndex] {
        PendingCall *finished = callAt(callIndex);
        if (!finished || finished->watcher != watcher || stageOf(*finished) != CallSchedule::Stage::Running)
            return; // timed out or cancelled meanwhile
        finished->watcher = nullptr;
        const QFuture<ToolResult> future = watcher->future();
        const ToolResult result = future.resultCount() > 0
                                      ? future.result()
                                      : ToolResult::failure(tr("The tool ended without an answer."));
        complete(*finished, result, result.isError ? TraceStatus::Error : TraceStatus::Ok, times->startedUs,
                 times->endedUs);
        startQueued();
        finishIfDone();
    });
    connect(watcher, &QFutureWatcher<ToolResult>::finished, this, [watcher, onFinished] {
        watcher->deleteLater();
        onFinished();
    });
    watcher->setFuture(startTool(pending.tool, pending.arguments, pending.context, m_pool, m_clock, times));
}

void ToolPhase::pauseTimeouts(bool paused)
{
    if (m_timeoutsPaused == paused)
        return;
    m_timeoutsPaused = paused;
    for (const auto &pending : m_calls) {
        if (!pending->timeout || stageOf(*pending) != CallSchedule::Stage::Running)
            continue;
        if (paused) {
            pending->timeoutLeftMs = std::max(0, pending->timeout->remainingTime());
            pending->timeout->stop();
        } else {
            pending->timeout->start(pending->timeoutLeftMs);
        }
    }
}

void ToolPhase::onTimeout(int callIndex, int timeoutMs)
{
    PendingCall *timedOut = callAt(callIndex);
    if (!timedOut || stageOf(*timedOut) != CallSchedule::Stage::Running)
        return;
    timedOut->context->cancel();
    complete(*timedOut,
             ToolResult::failure(tr("The tool did not finish within its time limit of %1 s and was stopped.")
                                     .arg(timeoutMs / 1000.0)),
             TraceStatus::Error);
    startQueued();
    finishIfDone();
}

void ToolPhase::complete(PendingCall &pending, const ToolResult &result, TraceStatus status, qint64 startedUs,
                         qint64 endedUs)
{
    m_schedule.setStage(pending.index, CallSchedule::Stage::Done);
    pending.result = result;
    // Ended before its tool answered (time limit, cancellation): a late answer is nobody's.
    if (QFutureWatcher<ToolResult> *watcher = std::exchange(pending.watcher, nullptr)) {
        watcher->disconnect(this);
        watcher->deleteLater();
    }
    if (pending.timeout) {
        pending.timeout->deleteLater();
        pending.timeout = nullptr;
    }
    if (pending.context)
        pending.context->disconnectProgress();
    endWait(pending, u"cancelled"_s, TraceStatus::Cancelled); // ended while someone was still asked

    // A search of the user's documents is a Retrieval step of its own under the call; the call keeps
    // the rest of its details.
    QJsonObject details = result.details;
    const QJsonValue retrieval = details.take(RetrievalDetailsKey);
    // The images the tool returned, for the details pane; a session file keeps each image once.
    if (!result.attachments.isEmpty()) {
        QJsonArray files;
        for (const Attachment &attachment : result.attachments)
            files.append(attachment.toJson());
        details.insert(u"attachments"_s, files);
    }
    m_trace->update(pending.traceNode, [&](TraceNode &node) {
        ToolCallData &data = node.data<ToolCallData>();
        data.result = result.content;
        data.isError = result.isError;
        data.details = details;
        if (data.decision.isEmpty())
            data.decision = u"auto"_s;
        // The worker's own timestamps: they show what really overlapped. A call that never ran
        // starts when its wait for a decision ended: waiting is not the tool's time.
        if (startedUs > 0)
            node.startedUs = startedUs;
        else if (pending.decidedUs > 0)
            node.startedUs = pending.decidedUs;
    });
    const qint64 callEndedUs = endedUs > 0 ? endedUs : now();
    if (retrieval.isObject())
        addRetrieval(pending.traceNode, RetrievalData::fromJson(retrieval.toObject()), callEndedUs);
    m_trace->finish(pending.traceNode, status, callEndedUs);
    emitEvent(AgentEvent::Kind::ToolResult, pending.traceNode, result.content, pending.call, result.isError,
              ToolResultInfo{status});
}

// The search ended when the tool answered; it took what it measured, within the call's time.
void ToolPhase::addRetrieval(int callNode, RetrievalData retrieval, qint64 endedUs)
{
    const qint64 startedUs
        = std::max(m_trace->node(callNode).startedUs, endedUs - retrieval.embeddingUs - retrieval.searchUs);
    recordRetrieval(*m_trace, callNode, std::move(retrieval), startedUs, endedUs);
}

int ToolPhase::recordRetrieval(Trace &trace, int parent, RetrievalData retrieval, qint64 startedUs,
                               qint64 endedUs)
{
    const TraceStatus status
        = retrieval.hits.isEmpty() && !retrieval.error.isEmpty() ? TraceStatus::Error : TraceStatus::Ok;
    const int hits = int(retrieval.hits.size());
    //: A retrieval's name in the trace: the query, and how many passages it found
    const QString label = tr("\"%1\": %n passage(s)", nullptr, hits).arg(retrieval.query);
    const int node = trace.begin(parent, TraceKind::Retrieval, label, startedUs, std::move(retrieval));
    trace.finish(node, status, endedUs);
    return node;
}

void ToolPhase::finishIfDone()
{
    if (!m_active || m_preparing)
        return;
    if (!m_schedule.allDone())
        return;
    m_active = false;
    emit finished();
}

void ToolPhase::cancel(const QString &why)
{
    if (!m_active)
        return;
    for (const auto &pending : m_calls) {
        if (stageOf(*pending) == CallSchedule::Stage::Done)
            continue;
        if (pending->context)
            pending->context->cancel();
        complete(*pending, ToolResult::failure(why), TraceStatus::Cancelled);
    }
    m_active = false;
}

void ToolPhase::emitEvent(AgentEvent::Kind kind, int traceNode, const QString &text, const ToolCall &call,
                          bool isError, AgentEventPayload payload)
{
    emit event({.kind = kind,
                .timeUs = now(),
                .iteration = m_token.iteration,
                .traceNode = traceNode,
                .text = text,
                .toolCall = call,
                .isError = isError,
                .payload = std::move(payload)});
}

} // namespace Loopscope
