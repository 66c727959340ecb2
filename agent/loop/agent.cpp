#include "agent/loop/agent.h"

#include "agent/model/modelclient.h"
#include "agent/safety/shield.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"

#include <QFutureWatcher>
#include <QJsonDocument>
#include <QPointer>
#include <QSet>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

struct ToolRun
{
    ToolResult result;
    qint64 startedUs = 0;
    qint64 endedUs = 0;
};

// Runs on a pool thread. Exceptions end here: they become a result the model can read.
ToolRun runTool(std::shared_ptr<const Tool> tool, QJsonObject arguments, std::shared_ptr<ToolContext> context,
                std::shared_ptr<const Clock> clock)
{
    ToolRun run;
    run.startedUs = clock->nowUs();
    try {
        run.result = tool->invoke(arguments, *context);
    } catch (const std::exception &e) {
        run.result = ToolResult::failure(
            Agent::tr("The tool failed with an exception: %1").arg(QString::fromUtf8(e.what())));
    } catch (...) {
        run.result = ToolResult::failure(Agent::tr("The tool failed with an unknown exception."));
    }
    run.endedUs = clock->nowUs();
    return run;
}

QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

} // namespace

struct Agent::PendingToolCall
{
    enum class Stage { Checking, AwaitingDecision, Queued, Running, Done };

    ToolCall call;
    std::shared_ptr<const Tool> tool;
    QJsonObject arguments;
    int traceNode = -1;
    Stage stage = Stage::Checking;
    ToolResult result;
    std::shared_ptr<ToolContext> context;
    QTimer *timeout = nullptr;
};

struct Agent::Turn
{
    int traceNode = -1;
    int iteration = 0;
    int iterationNode = -1;
    int modelCallNode = -1;
    int reflectionNode = -1;
    bool toolsOffered = true;
    bool reflecting = false;
    bool preparingTools = false;
    int consecutiveErrorIterations = 0;
    QString lastCallKey;
    int repeatCount = 0;
    QSet<QString> usedCallIds;
    ModelRequest requestBeforeInterceptors; // what the next model call was built as
    std::vector<PendingToolCall> calls;     // the current (or last) iteration's
    TurnResult result;
};

Agent::Agent(ModelClient *client, Workbench *workbench, Trace *trace, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_workbench(workbench)
    , m_trace(trace)
    , m_clock(std::make_shared<SystemClock>())
    , m_toolPool(new QThreadPool)
{
    Q_ASSERT(client && workbench && trace);
    // Enough threads that a slow tool never starves the next turn's calls;
    // the loop itself limits how many of one response's calls run at once.
    m_toolPool->setMaxThreadCount(std::max(8, QThread::idealThreadCount()));
    connectClient();
}

void Agent::connectClient()
{
    connect(m_client, &ModelClient::textDelta, this, &Agent::onTextDelta);
    connect(m_client, &ModelClient::attemptFinished, this, &Agent::onModelAttempt);
    connect(m_client, &ModelClient::finished, this, &Agent::onModelResponse);
    connect(m_client, &ModelClient::failed, this, &Agent::onModelFailure);
}

bool Agent::setModelClient(ModelClient *client)
{
    Q_ASSERT(client);
    if (isRunning())
        return false;
    if (client == m_client)
        return true;
    disconnect(m_client, nullptr, this, nullptr);
    m_client = client;
    connectClient();
    return true;
}

Agent::~Agent()
{
    if (m_turn) {
        m_client->cancel();
        for (PendingToolCall &pending : m_turn->calls) {
            if (pending.context)
                pending.context->cancel();
        }
    }
    // A tool that ignores cancellation is abandoned rather than allowed to
    // hang the application's exit; its thread ends with the process.
    if (m_toolPool->waitForDone(5000))
        delete m_toolPool;
}

void Agent::setConfig(const AgentConfig &config)
{
    m_config = config;
}

void Agent::setClock(std::shared_ptr<const Clock> clock)
{
    if (clock)
        m_clock = std::move(clock);
}

void Agent::addShield(std::shared_ptr<const Shield> shield)
{
    if (shield)
        m_shields.append(std::move(shield));
}

void Agent::clearShields()
{
    m_shields.clear();
}

void Agent::addInterceptor(Interceptor *interceptor)
{
    if (interceptor && !m_interceptors.contains(interceptor))
        m_interceptors.append(interceptor);
}

void Agent::removeInterceptor(Interceptor *interceptor)
{
    m_interceptors.removeAll(interceptor);
}

bool Agent::setHistory(const QList<Message> &history)
{
    if (isRunning())
        return false;
    m_history = history;
    return true;
}

// ---------------------------------------------------------------------------
// Turn and iteration

bool Agent::send(const QString &userText)
{
    if (isRunning())
        return false;

    m_turn = std::make_unique<Turn>();
    ++m_turnSerial;
    for (const Message &m : std::as_const(m_history)) {
        for (const ToolCall &call : m.toolCalls)
            m_turn->usedCallIds.insert(call.id);
    }
    TurnData data;
    data.agentName = m_config.name;
    data.input = userText;
    m_turn->traceNode = m_trace->begin(-1, TraceKind::Turn, userText.simplified().left(80), now(), data);
    m_turn->result.traceNode = m_turn->traceNode;
    setState(State::WaitingForModel);
    emitEvent(AgentEvent::Kind::TurnStarted, m_turn->traceNode, userText);

    QString reason;
    if (!passesShields(ShieldStage::Input, {}, userText, m_turn->traceNode, &reason)) {
        finishTurn(TurnOutcome::Blocked, {}, tr("The message was blocked: %1").arg(reason));
        return true;
    }
    appendMessage(Message::user(userText));
    startIteration();
    return true;
}

int Agent::iterationsRemaining() const
{
    return m_config.maxIterations - m_turn->iteration + 1;
}

void Agent::startIteration()
{
    Turn &turn = *m_turn;
    if (turn.iterationNode >= 0 && m_trace->node(turn.iterationNode).status == TraceStatus::Running)
        m_trace->finish(turn.iterationNode, TraceStatus::Ok, now());

    ++turn.iteration;
    turn.calls.clear();
    const int remaining = iterationsRemaining();
    const bool finalIteration = remaining <= 1;
    const bool wrapUp = remaining <= m_config.wrapUpIterations;
    turn.toolsOffered = !m_workbench->isEmpty() && !(finalIteration && m_config.toolLessFinalIteration);

    IterationData data;
    data.number = turn.iteration;
    data.maxIterations = m_config.maxIterations;
    data.wrapUpNote = wrapUp;
    data.toolsOffered = turn.toolsOffered;
    turn.iterationNode = m_trace->begin(
        turn.traceNode, TraceKind::Iteration,
        tr("Iteration %1 of %2").arg(turn.iteration).arg(m_config.maxIterations), now(), data);
    turn.result.iterations = turn.iteration;
    turn.result.wrapUpNoteSent |= wrapUp;
    turn.result.finalIterationWithoutTools |= finalIteration && !turn.toolsOffered && !m_workbench->isEmpty();
    emitEvent(AgentEvent::Kind::IterationStarted, turn.iterationNode, {}, {}, false,
              IterationStartedInfo{m_config.maxIterations, wrapUp, turn.toolsOffered});

    consultModelInterceptors(0, buildRequest(false), false, false);
}

ModelRequest Agent::buildRequest(bool reflection) const
{
    ModelRequest request;
    request.options = m_config.model;

    QString system = m_config.systemPrompt;
    const auto addNote = [&system](const QString &note) {
        system += (system.isEmpty() ? QString() : u"\n\n"_s) + note;
    };
    if (reflection) {
        addNote(tr("Tools are disabled now. Answer the user from the tool results above."));
    } else {
        const int remaining = iterationsRemaining();
        if (remaining <= 1 && !m_turn->toolsOffered && !m_workbench->isEmpty())
            addNote(m_config.finalIterationNote);
        else if (remaining <= m_config.wrapUpIterations)
            addNote(m_config.wrapUpNote.arg(remaining));
    }
    if (!system.isEmpty())
        request.messages.append(Message::system(system));
    request.messages += m_history;

    // Tools stay declared even when they may not be used: some providers refuse
    // a history with tool calls in it unless the tools are defined.
    request.tools = m_workbench->schemas();
    request.toolChoice = (reflection || !m_turn->toolsOffered) && !request.tools.isEmpty() ? ToolChoice::None
                                                                                           : ToolChoice::Auto;
    return request;
}

// ---------------------------------------------------------------------------
// Model calls

void Agent::consultModelInterceptors(int interceptorIndex, ModelRequest request, bool edited, bool reflection)
{
    if (interceptorIndex == 0)
        m_turn->requestBeforeInterceptors = request;
    if (interceptorIndex >= m_interceptors.size()) {
        dispatchModelCall(std::move(request), edited, reflection);
        return;
    }
    setState(State::AwaitingDecision);
    ModelCallCheckpoint checkpoint;
    checkpoint.iteration = reflection ? 0 : m_turn->iteration;
    checkpoint.isReflection = reflection;
    checkpoint.request = request;
    checkpoint.traceNode = reflection ? m_turn->reflectionNode : m_turn->iterationNode;

    // Decisions may come at once or much later; they land on this thread and
    // only count while the same turn is still waiting for them.
    const QPointer<Agent> self(this);
    const quint64 serial = m_turnSerial;
    ModelCallDecision decision(
        [self, serial, interceptorIndex, request, edited, reflection](ModelCallVerdict verdict) {
            if (!self)
                return;
            QMetaObject::invokeMethod(
                self,
                [self, serial, interceptorIndex, request, edited, reflection, verdict = std::move(verdict)] {
                    if (!self->m_turn || self->m_turnSerial != serial)
                        return;
                    const bool changed = verdict.editedRequest && *verdict.editedRequest != request;
                    self->consultModelInterceptors(interceptorIndex + 1,
                                                   changed ? *verdict.editedRequest : request,
                                                   edited || changed, reflection);
                },
                Qt::QueuedConnection);
        });
    m_interceptors.at(interceptorIndex)->interceptModelCall(checkpoint, decision);
}

void Agent::dispatchModelCall(ModelRequest request, bool edited, bool reflection)
{
    Turn &turn = *m_turn;
    ModelCallData data;
    data.provider = m_client->providerName();
    data.model = request.options.model;
    data.request = request;
    if (edited && turn.requestBeforeInterceptors != request)
        data.originalRequest = turn.requestBeforeInterceptors;
    data.editedByInterceptor = edited;
    const int parent = reflection ? turn.reflectionNode : turn.iterationNode;
    const QString label
        = request.options.model.isEmpty() ? tr("chat") : tr("chat %1").arg(request.options.model);
    turn.modelCallNode = m_trace->begin(parent, TraceKind::ModelCall, label, now(), data);
    setState(State::WaitingForModel);
    emitEvent(AgentEvent::Kind::ModelRequest, turn.modelCallNode, {}, {}, false,
              ModelRequestInfo{int(request.messages.size()), int(request.tools.size()), request.toolChoice,
                               edited});
    m_client->send(request);
}

void Agent::onTextDelta(const QString &text)
{
    if (!m_turn || m_turn->modelCallNode < 0)
        return;
    emitEvent(AgentEvent::Kind::TextDelta, m_turn->modelCallNode, text);
}

void Agent::onModelAttempt(const ModelAttempt &attempt)
{
    if (!m_turn || m_turn->modelCallNode < 0)
        return;
    const int callNode = m_turn->modelCallNode;
    m_trace->update(callNode,
                    [&attempt](TraceNode &node) { node.data<ModelCallData>().attempts.append(attempt); });
    if (attempt.retryInMs < 0)
        return;
    RetryData retry;
    retry.attempt = attempt.number;
    retry.httpStatus = attempt.httpStatus;
    retry.reason = attempt.error;
    retry.delayMs = attempt.retryInMs;
    const int node
        = m_trace->begin(callNode, TraceKind::Retry, tr("Retry after attempt %1").arg(attempt.number),
                         attempt.startedUs, retry);
    m_trace->finish(node, TraceStatus::Error, attempt.endedUs);
    emitEvent(AgentEvent::Kind::Retry, node, attempt.error, {}, true,
              RetryInfo{attempt.number, attempt.httpStatus, attempt.retryInMs});
}

void Agent::onModelFailure(const ModelError &error)
{
    if (!m_turn || m_turn->modelCallNode < 0)
        return;
    Turn &turn = *m_turn;
    const int callNode = std::exchange(turn.modelCallNode, -1);
    m_trace->update(callNode,
                    [&error](TraceNode &node) { node.data<ModelCallData>().error = error.message; });
    m_trace->finish(callNode, TraceStatus::Error, now());
    recordError(turn.reflecting ? turn.reflectionNode : turn.iterationNode, u"provider"_s, error.message);
    finishTurn(TurnOutcome::Failed, {}, error.message);
}

void Agent::onModelResponse(const ModelResponse &received)
{
    if (!m_turn || m_turn->modelCallNode < 0)
        return;
    Turn &turn = *m_turn;
    ModelResponse response = received;

    // Strict providers need every call id unique across the conversation, and
    // some servers send none or repeat them: give those a stable one of ours.
    for (int i = 0; i < response.toolCalls.size(); ++i) {
        ToolCall &call = response.toolCalls[i];
        if (call.id.isEmpty() || turn.usedCallIds.contains(call.id))
            call.id = u"call_%1_%2_%3"_s.arg(m_turnSerial).arg(turn.iteration).arg(i);
        turn.usedCallIds.insert(call.id);
    }

    const int callNode = std::exchange(turn.modelCallNode, -1);
    m_trace->update(callNode,
                    [&response](TraceNode &node) { node.data<ModelCallData>().response = response; });
    m_trace->finish(callNode, TraceStatus::Ok, now());
    turn.result.usage += response.usage;
    emitEvent(AgentEvent::Kind::ModelResponse, callNode, response.text, {}, false,
              ModelResponseInfo{response.finishReason, int(response.toolCalls.size()), response.usage});

    if (turn.reflecting) {
        m_trace->update(turn.reflectionNode,
                        [&response](TraceNode &node) { node.data<TextData>().text = response.text; });
        m_trace->finish(turn.reflectionNode, response.text.isEmpty() ? TraceStatus::Error : TraceStatus::Ok,
                        now());
        emitEvent(AgentEvent::Kind::Reflection, turn.reflectionNode, response.text);
        if (response.text.trimmed().isEmpty())
            finishTurn(TurnOutcome::Fallback, m_config.fallbackMessage.arg(turn.iteration),
                       tr("The reflection call gave no answer."));
        else
            finishWithAnswer(response.text, TurnOutcome::Reflected);
        return;
    }

    if (response.toolCalls.isEmpty()) {
        if (response.text.trimmed().isEmpty()) {
            finishTurn(TurnOutcome::Fallback, m_config.fallbackMessage.arg(turn.iteration),
                       tr("The model gave no answer."));
            return;
        }
        finishWithAnswer(response.text, TurnOutcome::Answered);
        return;
    }

    const bool overBudget = m_config.tokenBudget > 0 && turn.result.usage.total() > m_config.tokenBudget;
    if (!turn.toolsOffered || overBudget) {
        // The model asked for tools it may not use now. Answer each call so the
        // history stays valid, and end the turn with whatever text came along.
        appendMessage(Message::assistant(response.text, response.toolCalls));
        const QString why
            = overBudget
                  ? tr("Not executed: the turn's token budget of %1 is used up.").arg(m_config.tokenBudget)
                  : tr("Not executed: the iteration limit was reached and tools are disabled.");
        for (const ToolCall &call : std::as_const(response.toolCalls)) {
            ToolCallData data;
            data.call = call;
            data.result = why;
            data.isError = true;
            data.decision = u"skipped"_s;
            const int node = m_trace->begin(turn.iterationNode, TraceKind::ToolCall, call.name, now(), data);
            m_trace->finish(node, TraceStatus::Skipped, now());
            appendMessage(Message::toolResult(call, why, true));
        }
        if (overBudget) {
            const QString message = tr("The turn stopped: it used %1 tokens, over its budget of %2.")
                                        .arg(turn.result.usage.total())
                                        .arg(m_config.tokenBudget);
            recordError(turn.iterationNode, u"token_budget"_s, message);
            finishTurn(TurnOutcome::TokenBudget, response.text, message);
        } else if (!response.text.trimmed().isEmpty()) {
            finishWithAnswer(response.text, TurnOutcome::Answered, /*alreadyInHistory=*/true);
        } else {
            turn.result.limitReached = true;
            finishTurn(TurnOutcome::Fallback, m_config.fallbackMessage.arg(turn.iteration),
                       tr("The model asked for tools on the final iteration instead of answering."));
        }
        return;
    }

    appendMessage(Message::assistant(response.text, response.toolCalls));
    for (int i = 0; i < response.toolCalls.size(); ++i) {
        const auto tool = m_workbench->find(response.toolCalls.at(i).name);
        if (tool && !tool->behaviour().handoffTarget.isEmpty()) {
            handleHandoff(response.toolCalls, i);
            return;
        }
    }
    handleToolCalls(response);
}

// ---------------------------------------------------------------------------
// Tool calls

void Agent::handleHandoff(const QList<ToolCall> &calls, int winner)
{
    Turn &turn = *m_turn;
    const ToolCall &winning = calls.at(winner);
    const QString target = m_workbench->find(winning.name)->behaviour().handoffTarget;
    const QString reason
        = QJsonDocument::fromJson(winning.arguments.toUtf8()).object().value(u"reason"_s).toString();

    for (int i = 0; i < calls.size(); ++i) {
        const ToolCall &call = calls.at(i);
        const auto tool = m_workbench->find(call.name);
        const bool isHandoff = tool && !tool->behaviour().handoffTarget.isEmpty();
        ToolCallData data;
        data.call = call;
        data.decision = u"auto"_s;
        TraceStatus status = TraceStatus::Skipped;
        if (i == winner) {
            data.result = tr("Handed off to %1.").arg(target);
            status = TraceStatus::Ok;
        } else if (isHandoff) {
            data.result = tr("Ignored: only the first handoff (%1) is followed.").arg(winning.name);
            data.isError = true;
        } else {
            data.result = tr("Not executed: the conversation was handed off to %1.").arg(target);
            data.isError = true;
        }
        const int node = m_trace->begin(turn.iterationNode, TraceKind::ToolCall, call.name, now(), data);
        m_trace->finish(node, status, now());
        appendMessage(Message::toolResult(call, data.result, data.isError));
    }

    HandoffData handoff{target, reason, winning.id};
    const int node = m_trace->begin(turn.iterationNode, TraceKind::Handoff, tr("Handoff to %1").arg(target),
                                    now(), handoff);
    m_trace->finish(node, TraceStatus::Ok, now());
    emitEvent(AgentEvent::Kind::Handoff, node, reason, winning, false, HandoffInfo{target});
    turn.result.handoff = Handoff{target, reason};
    const QString text = reason.isEmpty() ? tr("Handed off to %1.").arg(target)
                                          : tr("Handed off to %1: %2").arg(target, reason);
    finishTurn(TurnOutcome::HandedOff, text);
}

void Agent::handleToolCalls(const ModelResponse &response)
{
    Turn &turn = *m_turn;
    turn.calls.resize(size_t(response.toolCalls.size()));
    turn.preparingTools = true;
    setState(State::RunningTools);
    for (int i = 0; i < response.toolCalls.size(); ++i) {
        PendingToolCall &pending = turn.calls[size_t(i)];
        pending.call = response.toolCalls.at(i);
        ToolCallData data;
        data.call = pending.call;
        pending.traceNode
            = m_trace->begin(turn.iterationNode, TraceKind::ToolCall, pending.call.name, now(), data);
        emitEvent(AgentEvent::Kind::ToolCall, pending.traceNode, {}, pending.call);
        prepareToolCall(i);
    }
    turn.preparingTools = false;
    startQueuedTools();
    maybeFinishToolPhase();
}

// The checks that need no one's decision: a call that fails them never reaches
// an interceptor, and its error goes straight back to the model.
void Agent::prepareToolCall(int index)
{
    Turn &turn = *m_turn;
    PendingToolCall &pending = turn.calls[size_t(index)];
    const ToolCall &call = pending.call;
    const auto fail = [this, index](const QString &message) {
        completeToolCall(index, ToolResult::failure(message), TraceStatus::Error);
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

    // The runaway guard counts identical requests in a row across the turn.
    const QString key = call.name + u'\n' + compactJson(pending.arguments);
    turn.repeatCount = key == turn.lastCallKey ? turn.repeatCount + 1 : 1;
    turn.lastCallKey = key;
    if (m_config.maxRepeatedCalls > 0 && turn.repeatCount >= m_config.maxRepeatedCalls) {
        completeToolCall(index,
                         ToolResult::failure(tr("Not executed: %1 was requested with these same arguments %2 "
                                                "times in a row and would give the same result. Use the "
                                                "earlier result or try something different.")
                                                 .arg(call.name)
                                                 .arg(turn.repeatCount)),
                         TraceStatus::Skipped);
        return;
    }

    const QString violation = m_workbench->validateArguments(call.name, pending.arguments);
    if (!violation.isEmpty()) {
        fail(tr("The arguments do not match the schema of %1:\n%2").arg(call.name, violation));
        return;
    }
    pending.stage = PendingToolCall::Stage::AwaitingDecision;
    consultToolInterceptors(index, 0);
}

void Agent::consultToolInterceptors(int index, int interceptorIndex)
{
    PendingToolCall &pending = m_turn->calls[size_t(index)];
    if (interceptorIndex >= m_interceptors.size()) {
        queueToolCall(index);
        return;
    }
    setState(State::AwaitingDecision);
    ToolCallCheckpoint checkpoint;
    checkpoint.iteration = m_turn->iteration;
    checkpoint.call = pending.call;
    checkpoint.schema = pending.tool->schema();
    checkpoint.traceNode = pending.traceNode;

    const QPointer<Agent> self(this);
    const quint64 serial = m_turnSerial;
    const int iteration = m_turn->iteration;
    ToolCallDecision decision([self, serial, iteration, index, interceptorIndex](ToolCallVerdict verdict) {
        if (!self)
            return;
        QMetaObject::invokeMethod(
            self,
            [self, serial, iteration, index, interceptorIndex, verdict = std::move(verdict)] {
                if (!self->m_turn || self->m_turnSerial != serial || self->m_turn->iteration != iteration)
                    return;
                self->applyToolVerdict(index, interceptorIndex, verdict);
            },
            Qt::QueuedConnection);
    });
    m_interceptors.at(interceptorIndex)->interceptToolCall(checkpoint, decision);
}

void Agent::applyToolVerdict(int index, int interceptorIndex, const ToolCallVerdict &verdict)
{
    PendingToolCall &pending = m_turn->calls[size_t(index)];
    if (pending.stage != PendingToolCall::Stage::AwaitingDecision)
        return;

    switch (verdict.action) {
    case ToolCallVerdict::Action::Deny: {
        const QString reason = verdict.denialReason.isEmpty()
                                   ? tr("Denied by the user.")
                                   : tr("Denied by the user: %1").arg(verdict.denialReason);
        m_trace->update(pending.traceNode,
                        [](TraceNode &node) { node.data<ToolCallData>().decision = u"denied"_s; });
        completeToolCall(index, ToolResult::failure(reason), TraceStatus::Denied);
        break;
    }
    case ToolCallVerdict::Action::SupplyResult:
        m_trace->update(pending.traceNode,
                        [](TraceNode &node) { node.data<ToolCallData>().decision = u"manual result"_s; });
        completeToolCall(index, verdict.suppliedResult,
                         verdict.suppliedResult.isError ? TraceStatus::Error : TraceStatus::Ok);
        break;
    case ToolCallVerdict::Action::Allow:
        if (verdict.editedArguments && *verdict.editedArguments != pending.call.arguments) {
            const QString original = pending.call.arguments;
            const QString edited = *verdict.editedArguments;
            pending.call.arguments = edited;
            m_trace->update(pending.traceNode, [&original, &edited](TraceNode &node) {
                ToolCallData &data = node.data<ToolCallData>();
                if (data.originalArguments.isEmpty())
                    data.originalArguments = original;
                data.call.arguments = edited;
            });
            // Edited arguments get the same checks the model's did.
            QJsonParseError parseError;
            const QJsonDocument document = QJsonDocument::fromJson(edited.toUtf8(), &parseError);
            QString problem;
            if (parseError.error != QJsonParseError::NoError || !document.isObject())
                problem = tr("The edited arguments are not a valid JSON object.");
            else
                problem = m_workbench->validateArguments(pending.call.name, document.object());
            if (!problem.isEmpty()) {
                completeToolCall(index, ToolResult::failure(problem), TraceStatus::Error);
                break;
            }
            pending.arguments = document.object();
        }
        consultToolInterceptors(index, interceptorIndex + 1);
        break;
    }
    startQueuedTools();
    maybeFinishToolPhase();
}

void Agent::queueToolCall(int index)
{
    PendingToolCall &pending = m_turn->calls[size_t(index)];
    QString reason;
    if (!passesShields(ShieldStage::ToolCall, pending.call.name, compactJson(pending.arguments),
                       pending.traceNode, &reason)) {
        completeToolCall(index, ToolResult::failure(tr("Blocked by a safety check: %1").arg(reason)),
                         TraceStatus::Blocked);
        return;
    }
    m_trace->update(pending.traceNode, [](TraceNode &node) {
        QString &decision = node.data<ToolCallData>().decision;
        if (decision.isEmpty())
            decision = u"allowed"_s;
    });
    pending.stage = PendingToolCall::Stage::Queued;
}

void Agent::startQueuedTools()
{
    if (!m_turn)
        return;
    const int limit = std::max(1, m_config.maxParallelTools);
    int running = 0;
    for (const PendingToolCall &pending : m_turn->calls)
        running += pending.stage == PendingToolCall::Stage::Running;
    for (int i = 0; i < int(m_turn->calls.size()) && running < limit; ++i) {
        if (m_turn->calls[size_t(i)].stage == PendingToolCall::Stage::Queued) {
            startTool(i);
            ++running;
        }
    }
    bool anyAwaiting = false;
    for (const PendingToolCall &pending : m_turn->calls)
        anyAwaiting |= pending.stage == PendingToolCall::Stage::AwaitingDecision;
    setState(anyAwaiting && running == 0 ? State::AwaitingDecision : State::RunningTools);
}

void Agent::startTool(int index)
{
    PendingToolCall &pending = m_turn->calls[size_t(index)];
    pending.stage = PendingToolCall::Stage::Running;

    const QPointer<Agent> self(this);
    const quint64 serial = m_turnSerial;
    const int iteration = m_turn->iteration;
    const int node = pending.traceNode;
    pending.context = std::make_shared<ToolContext>([self, serial, node](const QString &message) {
        QMetaObject::invokeMethod(
            self,
            [self, serial, node, message] {
                if (!self || !self->m_turn || self->m_turnSerial != serial)
                    return;
                self->m_trace->update(
                    node, [&message](TraceNode &n) { n.data<ToolCallData>().progress.append(message); });
                const ToolCall call = self->m_trace->node(node).data<ToolCallData>().call;
                self->emitEvent(AgentEvent::Kind::ToolProgress, node, message, call);
            },
            Qt::QueuedConnection);
    });

    const int timeoutMs = pending.tool->behaviour().timeoutMs.value_or(m_config.toolTimeoutMs);
    if (timeoutMs > 0) {
        pending.timeout = new QTimer(this);
        pending.timeout->setSingleShot(true);
        connect(pending.timeout, &QTimer::timeout, this, [this, serial, iteration, index, timeoutMs] {
            if (!m_turn || m_turnSerial != serial || m_turn->iteration != iteration)
                return;
            PendingToolCall &timedOut = m_turn->calls[size_t(index)];
            if (timedOut.stage != PendingToolCall::Stage::Running)
                return;
            timedOut.context->cancel();
            completeToolCall(index,
                             ToolResult::failure(tr("The tool did not finish within its time limit of %1 s "
                                                    "and was stopped.")
                                                     .arg(timeoutMs / 1000.0)),
                             TraceStatus::Error);
            startQueuedTools();
            maybeFinishToolPhase();
        });
        pending.timeout->start(timeoutMs);
    }

    auto *watcher = new QFutureWatcher<ToolRun>(this);
    connect(watcher, &QFutureWatcher<ToolRun>::finished, this, [this, watcher, serial, iteration, index] {
        watcher->deleteLater();
        if (!m_turn || m_turnSerial != serial || m_turn->iteration != iteration)
            return;
        if (m_turn->calls[size_t(index)].stage != PendingToolCall::Stage::Running)
            return; // timed out or cancelled meanwhile
        const ToolRun run = watcher->result();
        completeToolCall(index, run.result, run.result.isError ? TraceStatus::Error : TraceStatus::Ok,
                         run.startedUs, run.endedUs);
        startQueuedTools();
        maybeFinishToolPhase();
    });
    watcher->setFuture(
        QtConcurrent::run(m_toolPool, runTool, pending.tool, pending.arguments, pending.context, m_clock));
}

void Agent::completeToolCall(int index, const ToolResult &result, TraceStatus status, qint64 startedUs,
                             qint64 endedUs)
{
    PendingToolCall &pending = m_turn->calls[size_t(index)];
    pending.stage = PendingToolCall::Stage::Done;
    pending.result = result;
    if (pending.timeout) {
        pending.timeout->deleteLater();
        pending.timeout = nullptr;
    }
    if (pending.context)
        pending.context->disconnectProgress();

    m_trace->update(pending.traceNode, [&](TraceNode &node) {
        ToolCallData &data = node.data<ToolCallData>();
        data.result = result.content;
        data.isError = result.isError;
        if (data.decision.isEmpty())
            data.decision = u"auto"_s;
        // The worker's own timestamps: they show what really overlapped.
        if (startedUs > 0)
            node.startedUs = startedUs;
    });
    m_trace->finish(pending.traceNode, status, endedUs > 0 ? endedUs : now());
    emitEvent(AgentEvent::Kind::ToolResult, pending.traceNode, result.content, pending.call, result.isError,
              ToolResultInfo{status});
}

void Agent::maybeFinishToolPhase()
{
    if (!m_turn || m_turn->preparingTools || m_turn->reflecting)
        return;
    for (const PendingToolCall &pending : m_turn->calls) {
        if (pending.stage != PendingToolCall::Stage::Done)
            return;
    }
    finishToolPhase();
}

void Agent::finishToolPhase()
{
    Turn &turn = *m_turn;
    bool errorOnly = true;
    bool stopRequested = false;
    for (const PendingToolCall &pending : turn.calls) {
        appendMessage(Message::toolResult(pending.call, pending.result.content, pending.result.isError));
        errorOnly &= pending.result.isError;
        stopRequested |= !pending.result.isError && pending.tool && pending.tool->behaviour().endsLoop;
    }
    m_trace->finish(turn.iterationNode, errorOnly ? TraceStatus::Error : TraceStatus::Ok, now());

    turn.consecutiveErrorIterations = errorOnly ? turn.consecutiveErrorIterations + 1 : 0;
    if (m_config.maxConsecutiveErrors > 0
        && turn.consecutiveErrorIterations >= m_config.maxConsecutiveErrors) {
        const QString message = tr("The turn stopped after %1 iterations in a row in which every tool call "
                                   "failed. The last error: %2")
                                    .arg(turn.consecutiveErrorIterations)
                                    .arg(turn.calls.back().result.content);
        recordError(turn.traceNode, u"error_limit"_s, message);
        finishTurn(TurnOutcome::ErrorLimit, {}, message);
        return;
    }
    if (stopRequested) {
        runPostLoop();
        return;
    }
    if (turn.iteration >= m_config.maxIterations) {
        turn.result.limitReached = true;
        runPostLoop();
        return;
    }
    startIteration();
}

// ---------------------------------------------------------------------------
// After the loop

void Agent::runPostLoop()
{
    Turn &turn = *m_turn;
    switch (m_config.postLoop) {
    case PostLoopMode::Reflect:
        turn.reflecting = true;
        turn.reflectionNode
            = m_trace->begin(turn.traceNode, TraceKind::Reflection, tr("Reflection"), now(), TextData{});
        consultModelInterceptors(0, buildRequest(true), false, true);
        return;
    case PostLoopMode::Summary: {
        QStringList lines;
        for (const PendingToolCall &pending : turn.calls) {
            QString line = m_config.summaryFormat;
            line.replace(u"{tool_name}"_s, pending.call.name)
                .replace(u"{arguments}"_s, pending.call.arguments)
                .replace(u"{result}"_s, pending.result.content);
            lines.append(line);
        }
        const QString text = lines.join(u'\n');
        const int node
            = m_trace->begin(turn.traceNode, TraceKind::Summary, tr("Summary"), now(), TextData{text});
        m_trace->finish(node, TraceStatus::Ok, now());
        emitEvent(AgentEvent::Kind::Summary, node, text);
        finishWithAnswer(text, TurnOutcome::Summarised);
        return;
    }
    case PostLoopMode::None:
        finishTurn(TurnOutcome::Fallback, m_config.fallbackMessage.arg(turn.iteration),
                   tr("The loop ended on tool results and no reflection or summary is configured."));
        return;
    }
}

void Agent::finishWithAnswer(const QString &text, TurnOutcome outcome, bool alreadyInHistory)
{
    QString reason;
    if (!passesShields(ShieldStage::Output, {}, text, m_turn->traceNode, &reason)) {
        // Keep the history alternating without keeping the withheld text.
        if (!alreadyInHistory)
            appendMessage(Message::assistant(tr("[The answer was withheld by a safety check.]")));
        finishTurn(TurnOutcome::Blocked, {}, tr("The answer was blocked: %1").arg(reason));
        return;
    }
    if (!alreadyInHistory)
        appendMessage(Message::assistant(text));
    finishTurn(outcome, text);
}

void Agent::finishTurn(TurnOutcome outcome, const QString &text, const QString &error)
{
    Turn &turn = *m_turn;
    TurnResult result = turn.result;
    result.outcome = outcome;
    result.text = text;
    result.error = error;

    TraceStatus status = TraceStatus::Error;
    if (result.isAnswer() || outcome == TurnOutcome::HandedOff)
        status = TraceStatus::Ok;
    else if (outcome == TurnOutcome::Cancelled)
        status = TraceStatus::Cancelled;
    else if (outcome == TurnOutcome::Blocked)
        status = TraceStatus::Blocked;

    const qint64 end = now();
    for (int node : {turn.modelCallNode, turn.reflectionNode, turn.iterationNode}) {
        if (node >= 0 && m_trace->node(node).status == TraceStatus::Running)
            m_trace->finish(node, status, end);
    }
    m_trace->update(turn.traceNode, [&result](TraceNode &node) {
        TurnData &data = node.data<TurnData>();
        data.output = result.text;
        data.outcome = turnOutcomeName(result.outcome);
        data.usage = result.usage;
    });
    m_trace->finish(turn.traceNode, status, end);

    const int traceNode = turn.traceNode;
    m_turn.reset();
    setState(State::Idle);
    emitEvent(AgentEvent::Kind::TurnFinished, traceNode, text.isEmpty() ? error : text, {}, !error.isEmpty(),
              TurnFinishedInfo{outcome, result.iterations, result.usage});
    emit turnFinished(result);
}

void Agent::cancel()
{
    if (!m_turn)
        return;
    Turn &turn = *m_turn;
    if (turn.modelCallNode >= 0) {
        m_client->cancel();
        m_trace->update(turn.modelCallNode, [this](TraceNode &node) {
            node.data<ModelCallData>().error = tr("Cancelled by the user.");
        });
        m_trace->finish(std::exchange(turn.modelCallNode, -1), TraceStatus::Cancelled, now());
    }
    // During the tool phase no result is in the history yet. Every call the
    // model made gets one, so a strict provider accepts the next turn.
    if (!turn.calls.empty() && !turn.reflecting) {
        for (int i = 0; i < int(turn.calls.size()); ++i) {
            PendingToolCall &pending = turn.calls[size_t(i)];
            if (pending.stage == PendingToolCall::Stage::Done)
                continue;
            if (pending.context)
                pending.context->cancel();
            completeToolCall(i, ToolResult::failure(tr("Cancelled by the user before the tool finished.")),
                             TraceStatus::Cancelled);
        }
        for (const PendingToolCall &pending : turn.calls)
            appendMessage(Message::toolResult(pending.call, pending.result.content, pending.result.isError));
    }
    finishTurn(TurnOutcome::Cancelled, {}, tr("Cancelled by the user."));
}

// ---------------------------------------------------------------------------
// Helpers

bool Agent::passesShields(ShieldStage stage, const QString &subject, const QString &content, int parent,
                          QString *reason)
{
    for (const auto &shield : std::as_const(m_shields)) {
        const ShieldVerdict verdict = shield->check(stage, subject, content);
        ShieldCheckData data;
        data.shield = shield->name();
        data.stage = shieldStageName(stage);
        data.subject = subject;
        data.passed = verdict.allowed;
        data.reason = verdict.reason;
        const qint64 at = now();
        const int node
            = m_trace->begin(parent, TraceKind::ShieldCheck,
                             tr("%1 check: %2").arg(shield->name(), shieldStageName(stage)), at, data);
        m_trace->finish(node, verdict.allowed ? TraceStatus::Ok : TraceStatus::Blocked, now());
        if (!verdict.allowed) {
            *reason = verdict.reason;
            emitEvent(AgentEvent::Kind::ShieldBlocked, node, verdict.reason, {}, true,
                      ShieldInfo{stage, shield->name()});
            return false;
        }
    }
    return true;
}

void Agent::recordError(int parent, const QString &code, const QString &message)
{
    const int node = m_trace->begin(parent, TraceKind::Error, message.section(u'\n', 0, 0).left(80), now(),
                                    ErrorData{message, code});
    m_trace->finish(node, TraceStatus::Error, now());
    emitEvent(AgentEvent::Kind::Error, node, message, {}, true, ErrorInfo{code});
}

void Agent::appendMessage(const Message &message)
{
    m_history.append(message);
    emit messageAppended(message);
}

void Agent::emitEvent(AgentEvent::Kind kind, int traceNode, const QString &text, const ToolCall &call,
                      bool isError, AgentEventPayload payload)
{
    AgentEvent e;
    e.kind = kind;
    e.timeUs = now();
    e.iteration = m_turn ? m_turn->iteration : 0;
    e.traceNode = traceNode;
    e.text = text;
    e.toolCall = call;
    e.isError = isError;
    e.payload = std::move(payload);
    emit event(e);
}

void Agent::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
}

} // namespace Loopscope
