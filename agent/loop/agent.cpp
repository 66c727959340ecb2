#include "agent/loop/agent.h"

#include "agent/model/modelclient.h"
#include "agent/safety/shield.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "agent/trace/turnnodefinder.h"

#include <QJsonDocument>
#include <QLocale>
#include <QPointer>
#include <QSet>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// The history's answer to a call: its text, and the images the tool returned (an MCP server's).
Message toolResultMessage(const ToolPhase::FinishedCall &finished)
{
    Message message = Message::toolResult(finished.call, finished.result.content, finished.result.isError);
    message.attachments = finished.result.attachments;
    return message;
}

} // namespace

struct Agent::Turn
{
    int traceNode = -1;
    int iteration = 0;
    int iterationNode = -1;
    int modelCallNode = -1;
    int retryNode = -1; // the failed attempt and the wait before the next one, while it waits
    int reflectionNode = -1;
    int waitNode = -1; // the model call held for someone (a breakpoint), while it is held
    bool toolsOffered = true;
    bool reflecting = false;
    int consecutiveErrorIterations = 0;
    QSet<QString> usedCallIds;
    ModelRequest
        requestBeforeInterceptors; // what the next model call was built as, when interceptors may edit it
    // The history with a system message first, kept in step with it by appendMessage(), so that a
    // request shares it instead of copying the history (empty without a system message: a
    // request then shares the history itself).
    QList<Message> messagesWithSystem;
    // How the trace recorded the last model call's request, and what it began with: the next one
    // is recorded as what it adds to it.
    RecordedRequest lastRecorded;
    QString lastSystem;
    bool lastEdited = false;
    TurnResult result;
    // After a handoff: the session's agent, put back when the turn ends.
    std::optional<AgentTeam::Member> sessionAgent;
    ModelClient *sessionClient = nullptr; // the session's client, put back with its agent
    PriceLookup sessionPrices;            // and how the session's calls are priced
    // The clients of agents handed to on providers of their own: kept until the turn is over.
    QList<std::shared_ptr<ModelClient>> handedToClients;
    int handoffs = 0;
    int timeLimitMs = 0; // of the agent the turn started as
    // The node of the running agent's part: the turn's, and after a handoff that continues it, the
    // Handoff node, which holds the iterations of the agent handed to.
    int partNode = -1;
    qsizetype partStart = 0; // where the running agent's part of the history begins
    QString contextNote;     // what the context source found for the question, in every request's system
    // The parts of the history whose tool calls the agents after them do not see (HandoffHistory::Text).
    QList<std::pair<qsizetype, qsizetype>> textOnlyParts;
    // messagesWithSystem is the requests' own view of the history (without hidden tool calls), and
    // whether it begins with the system message.
    bool ownView = false;
    bool systemInView = false;
    // A compaction changed what the next request carries: it cannot be recorded as an extension.
    bool compactedSinceRecorded = false;
    // The characters of the last request sent, when its window is known: the provider's count of
    // its tokens calibrates the estimates.
    qint64 sentCharacters = 0;
    // While a summary is written to fit the context: its Compaction node, the request that waits
    // for it, and what is summarised.
    int compactionNode = -1;
    bool summarising = false;
    ModelRequest heldRequest;
    bool heldForReflection = false;
    std::optional<ContextFitter::SummaryPlan> summaryPlan;
    QString summaryModel;
    qint64 tokensBeforeSummary = 0;
    QString input; // the question, which a model shield sees with the answer it judges
    // While the model shield judges the question or the answer: its ShieldCheck node, the stage,
    // what it judges, and what the turn does next.
    bool shielding = false;
    int shieldNode = -1;
    ShieldStage shieldStage = ShieldStage::Input;
    QString shieldContent;
    std::function<void(const QString &)> afterShields;
    // While a model shield on a provider profile of its own is asked: the client the turn goes on
    // with afterwards. The shield's client is let go later, with the turn: its signal may be running.
    ModelClient *clientBeforeShield = nullptr;
    std::shared_ptr<ModelClient> shieldClient;
    std::optional<PriceLookup>
        pricesBeforeShield; // and its calls' prices, the shield's priced as its profile's
};

Agent::Agent(ModelClient *client, Workbench *workbench, Trace *trace, QObject *parent)
    : QObject(parent)
    , m_client(client)
    , m_workbench(workbench)
    , m_trace(trace)
    , m_clock(std::make_shared<SystemClock>())
    , m_gate(new TurnGate(this))
    , m_tools(std::make_unique<ToolPhase>(workbench, trace, m_gate, m_interceptors))
    , m_timeLimit(new TurnTimeLimit(this))
{
    Q_ASSERT(client && workbench && trace);
    m_tools->setClock(m_clock);
    connect(m_tools.get(), &ToolPhase::event, this, &Agent::forwardEvent);
    connect(m_tools.get(), &ToolPhase::waitingForDecision, this,
            [this](bool waiting) { setState(waiting ? State::AwaitingDecision : State::RunningTools); });
    connect(m_tools.get(), &ToolPhase::finished, this, &Agent::onToolPhaseFinished);
    connect(m_timeLimit, &TurnTimeLimit::expired, this, &Agent::onTimeLimit);
    sharePersonWaits(std::make_shared<PersonWaits>());
    connectClient();
}

void Agent::connectClient()
{
    connect(m_client, &ModelClient::textDelta, this, &Agent::onTextDelta);
    connect(m_client, &ModelClient::toolCallDelta, this, &Agent::onToolCallDelta);
    connect(m_client, &ModelClient::attemptFinished, this, &Agent::onModelAttempt);
    connect(m_client, &ModelClient::finished, this, &Agent::onModelResponse);
    connect(m_client, &ModelClient::failed, this, &Agent::onModelFailure);
}

bool Agent::setModelClient(ModelClient *client)
{
    Q_ASSERT(client);
    if (isRunning())
        return false;
    switchClient(client);
    return true;
}

// The tool phase, destroyed after this, cancels its running tools and waits for them.
void Agent::sharePersonWaits(std::shared_ptr<PersonWaits> waits)
{
    if (m_personWaits) {
        if (m_countedAsWaiting)
            m_personWaits->add(-1);
        disconnect(m_personWaits.get(), nullptr, m_timeLimit, nullptr);
    }
    m_countedAsWaiting = false;
    m_personWaits = std::move(waits);
    connect(m_personWaits.get(), &PersonWaits::anyoneWaitingChanged, m_timeLimit, &TurnTimeLimit::setHeld);
    m_timeLimit->setHeld(m_personWaits->anyoneWaiting());
    updatePersonWait();
}

void Agent::updatePersonWait()
{
    const bool waiting = m_state == State::AwaitingDecision || m_toolAsksPerson;
    if (waiting == m_countedAsWaiting)
        return;
    m_countedAsWaiting = waiting;
    m_personWaits->add(waiting ? 1 : -1);
}

Agent::~Agent()
{
    if (m_turn)
        m_client->cancel();
    // A sub-agent let go while its card was shown no longer holds its caller's clock.
    if (m_countedAsWaiting)
        m_personWaits->add(-1);
}

void Agent::setConfig(const AgentConfig &config)
{
    if (m_turn && m_turn->sessionAgent) {
        m_turn->sessionAgent->config = config;
    } else {
        m_config = config;
        onShieldsChanged();
    }
}

void Agent::onShieldsChanged()
{
    m_configRules = m_config.shields.ruleShield();
    // Only with a shield: without one, the tool phase need not serialise every call's arguments.
    if (m_shields.isEmpty() && !m_configRules) {
        m_tools->setShieldCheck({});
        return;
    }
    m_tools->setShieldCheck(
        [this](const QString &toolName, const QString &arguments, int traceNode, QString *reason) {
            return passesShields(ShieldStage::ToolCall, toolName, arguments, traceNode, reason);
        });
}

void Agent::setClock(std::shared_ptr<const Clock> clock)
{
    if (!clock)
        return;
    m_clock = clock;
    m_tools->setClock(std::move(clock));
}

void Agent::addShield(std::shared_ptr<const Shield> shield)
{
    if (!shield)
        return;
    m_shields.append(std::move(shield));
    onShieldsChanged();
}

void Agent::nestUnder(int callNode, int depth, const QString &callIdPrefix)
{
    m_traceParent = callNode;
    m_depth = depth;
    m_callIdPrefix = callIdPrefix;
    m_tools->setDepth(depth);
}

void Agent::clearShields()
{
    m_shields.clear();
    onShieldsChanged();
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
    m_compaction = {};
    return true;
}

// ---------------------------------------------------------------------------
// Turn and iteration

bool Agent::send(const QString &userText, const QList<Attachment> &attachments)
{
    if (isRunning())
        return false;

    m_turn = std::make_unique<Turn>();
    ++m_turnSerial;
    m_gate->open(currentToken());
    m_tools->beginTurn();
    for (const Message &m : std::as_const(m_history)) {
        for (const ToolCall &call : m.toolCalls)
            m_turn->usedCallIds.insert(call.id);
    }
    TurnData data;
    data.agentName = m_config.name;
    if (!m_config.definition.isEmpty()) {
        data.agentVersion = m_config.version;
        data.agentDefinition = m_config.definition;
    }
    data.input = userText;
    data.messagesBefore = TurnNodeFinder::messagesBefore(m_history, m_history.size());
    m_turn->partStart = m_history.size();
    //: A sub-agent's part in the trace, under the tool call that asked it: its name and its task
    const QString label = m_depth > 0 ? tr("Agent %1: %2").arg(m_config.name, userText.simplified().left(60))
                                      : userText.simplified().left(80);
    m_turn->traceNode = m_trace->begin(m_traceParent, TraceKind::Turn, label, now(), data);
    m_turn->result.traceNode = m_turn->traceNode;
    m_turn->partNode = m_turn->traceNode;
    setState(State::WaitingForModel);
    // The limit of the agent the turn starts as bounds the whole turn, its handoffs included.
    m_turn->timeLimitMs = m_config.turnTimeLimitMs;
    m_timeLimit->start(m_config.turnTimeLimitMs, m_personWaits.get());
    emitEvent(AgentEvent::Kind::TurnStarted, m_turn->traceNode, userText);

    m_turn->input = userText;
    QString reason;
    if (!passesShields(ShieldStage::Input, {}, userText, m_turn->traceNode, &reason)) {
        finishTurn(TurnOutcome::Blocked, {}, tr("The message was blocked: %1").arg(reason));
        return true;
    }
    if (hasModelShield(ShieldStage::Input)) {
        askModelShield(ShieldStage::Input, userText, [this, userText, attachments](const QString &blocked) {
            if (blocked.isEmpty())
                acceptInput(userText, attachments);
            else
                finishTurn(TurnOutcome::Blocked, {}, tr("The message was blocked: %1").arg(blocked));
        });
        return true;
    }
    acceptInput(userText, attachments);
    return true;
}

void Agent::acceptInput(const QString &userText, const QList<Attachment> &attachments)
{
    appendMessage(Message::user(userText, attachments));
    if (m_contextSource)
        findTurnContext(userText);
    else
        startIteration();
}

void Agent::findTurnContext(const QString &question)
{
    const qint64 startedUs = now();
    const QPointer<TurnGate> gate(m_gate);
    const QPointer<Agent> self(this);
    const TurnToken token = currentToken();
    // Answered later, on this thread; a cancelled turn's gate drops it. A source that gave up (its
    // future cancelled) does not hold the turn: it starts without context.
    m_contextSource->contextFor(question)
        .then(this,
              [gate, self, token, startedUs](const TurnContext &context) {
                  TurnGate::post(gate, token, [self, context, startedUs] {
                      if (self)
                          self->startWithContext(context, startedUs);
                  });
              })
        .onCanceled(this, [gate, self, token, startedUs] {
            TurnGate::post(gate, token, [self, startedUs] {
                if (self)
                    self->startWithContext({}, startedUs);
            });
        });
}

void Agent::startWithContext(const TurnContext &context, qint64 startedUs)
{
    m_turn->contextNote = context.note;
    if (context.retrieval)
        ToolPhase::recordRetrieval(*m_trace, m_turn->traceNode, *context.retrieval, startedUs, now());
    startIteration();
}

int Agent::iterationsRemaining() const
{
    return m_config.maxIterations - m_turn->iteration + 1;
}

TurnToken Agent::currentToken() const
{
    return {m_turnSerial, m_turn ? m_turn->iteration : 0};
}

void Agent::startIteration()
{
    Turn &turn = *m_turn;
    if (turn.iterationNode >= 0 && m_trace->node(turn.iterationNode).status == TraceStatus::Running)
        m_trace->finish(turn.iterationNode, TraceStatus::Ok, now());

    ++turn.iteration;
    m_gate->open(currentToken());
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
        turn.partNode, TraceKind::Iteration,
        tr("Iteration %1 of %2").arg(turn.iteration).arg(m_config.maxIterations), now(), data);
    turn.result.iterations = turn.iteration;
    turn.result.wrapUpNoteSent |= wrapUp;
    turn.result.finalIterationWithoutTools |= finalIteration && !turn.toolsOffered && !m_workbench->isEmpty();
    emitEvent(AgentEvent::Kind::IterationStarted, turn.iterationNode, {}, {}, false,
              IterationStartedInfo{m_config.maxIterations, wrapUp, turn.toolsOffered});

    prepareModelCall(buildRequest(false), false);
}

ModelRequest Agent::buildRequest(bool reflection)
{
    ModelRequest request;
    request.options = m_config.model;

    QString system = m_config.systemPrompt;
    const auto addNote = [&system](const QString &note) {
        system += (system.isEmpty() ? QString() : u"\n\n"_s) + note;
    };
    if (!m_turn->contextNote.isEmpty())
        addNote(m_turn->contextNote);
    if (reflection) {
        addNote(tr("Tools are disabled now. Answer the user from the tool results above."));
    } else {
        const int remaining = iterationsRemaining();
        if (remaining <= 1 && !m_turn->toolsOffered && !m_workbench->isEmpty())
            addNote(m_config.finalIterationNote);
        else if (remaining <= m_config.wrapUpIterations)
            addNote(m_config.wrapUpNote.arg(remaining));
    }
    // Shared, not copied: nothing else holds these lists when the history grows, so that stays cheap too.
    Turn &turn = *m_turn;
    if (system.isEmpty() && !turn.ownView) {
        request.messages = m_history;
    } else {
        QList<Message> &messages = turn.messagesWithSystem;
        if (!turn.ownView && messages.isEmpty()) {
            messages.reserve(m_history.size() + 1);
            messages += m_history;
        }
        // An agent's instructions are the system message of its own requests only.
        if (system.isEmpty() && turn.systemInView)
            messages.removeFirst();
        else if (!system.isEmpty() && !turn.systemInView)
            messages.prepend(Message::system(system));
        else if (!system.isEmpty() && messages.constFirst().text != system)
            messages.first() = Message::system(system);
        turn.systemInView = !system.isEmpty();
        request.messages = messages;
    }

    // Tools stay declared even when they may not be used: some providers refuse
    // a history with tool calls in it unless the tools are defined.
    request.tools = m_workbench->schemas();
    request.toolChoice = (reflection || !m_turn->toolsOffered) && !request.tools.isEmpty() ? ToolChoice::None
                                                                                           : ToolChoice::Auto;
    return request;
}

void Agent::prepareModelCall(ModelRequest request, bool reflection)
{
    Turn &turn = *m_turn;
    const int parent = reflection ? turn.reflectionNode : turn.iterationNode;
    const ModelRequest built = request;
    const ContextFitter::Result fitted = ContextFitter(m_estimator, m_config).fit(request, m_compaction);
    if (fitted.summaryPlan) {
        turn.heldRequest = built;
        turn.heldForReflection = reflection;
        summariseForContext(*fitted.summaryPlan, fitted.tokensBefore);
        return;
    }
    if (fitted.compacted)
        recordCompaction(fitted, parent);
    if (!fitted.fits) {
        const QString reason = ContextFitter::refusal(fitted, m_config.compaction);
        recordError(parent, u"context_window"_s, reason);
        finishTurn(TurnOutcome::Failed, {}, reason);
        return;
    }
    consultModelInterceptors(0, std::move(request), false, reflection);
}

void Agent::recordCompaction(const ContextFitter::Result &fitted, int parent, QJsonObject details,
                             TraceStatus status)
{
    Turn &turn = *m_turn;
    details.insert(u"replaced"_s, fitted.replacedJson());
    CompactionData data{fitted.strategy, fitted.window, fitted.tokensBefore, fitted.tokensAfter, details};
    const QLocale locale;
    //: A trace node: the request's estimated tokens before and after a compaction
    const QString label = tr("Compaction: %1 → %2 tokens")
                              .arg(locale.toString(fitted.tokensBefore), locale.toString(fitted.tokensAfter));
    int node = std::exchange(turn.compactionNode, -1);
    if (node < 0) {
        node = m_trace->begin(parent, TraceKind::Compaction, label, now(), std::move(data));
    } else {
        m_trace->update(node, [&label, &data](TraceNode &compaction) {
            compaction.label = label;
            compaction.payload = std::move(data);
        });
    }
    m_trace->finish(node, status, now());
    turn.compactedSinceRecorded = true;
    emitEvent(AgentEvent::Kind::Compaction, node, {}, {}, false,
              CompactionInfo{fitted.strategy, fitted.window, fitted.tokensBefore, fitted.tokensAfter});
}

// The summary is a model call of its own, under the Compaction node: not a step of the loop, so
// neither its text nor its request reaches the chat.
void Agent::summariseForContext(const ContextFitter::SummaryPlan &plan, qint64 tokensBefore)
{
    Turn &turn = *m_turn;
    const ModelRequest request
        = ContextFitter(m_estimator, m_config).summaryRequest(plan, turn.heldRequest.options);
    turn.summaryPlan = plan;
    turn.tokensBeforeSummary = tokensBefore;
    turn.summaryModel = request.options.model;
    turn.summarising = true;
    const int parent = turn.heldForReflection ? turn.reflectionNode : turn.iterationNode;
    //: A trace node while a compaction's summary is written; %n: the turns it summarises
    const QString label
        = tr("Compaction: summarising %n turn(s)", nullptr, plan.turns - m_compaction.droppedTurns);
    CompactionData compaction{compactionStrategyName(CompactionStrategy::Summarise),
                              turn.heldRequest.options.contextWindow.value_or(0),
                              tokensBefore,
                              tokensBefore,
                              {}};
    turn.compactionNode = m_trace->begin(parent, TraceKind::Compaction, label, now(), std::move(compaction));
    sendAsideCall(turn.compactionNode, request,
                  request.options.model.isEmpty() ? tr("summary")
                                                  : tr("summary %1").arg(request.options.model));
}

// A model call that is no step of the loop (a summary, a shield's): under \a parent, and neither its
// request nor its text reaches the chat.
void Agent::sendAsideCall(int parent, const ModelRequest &request, const QString &label)
{
    ModelCallData data;
    data.provider = m_client->providerName();
    data.model = request.options.model;
    data.request = RecordedRequest(request);
    m_turn->modelCallNode = m_trace->begin(parent, TraceKind::ModelCall, label, now(), data);
    setState(State::WaitingForModel);
    m_client->send(request);
}

void Agent::onSummaryResponse(const ModelResponse &response)
{
    Turn &turn = *m_turn;
    finishModelCallNode(response);
    const QString summary = response.text.trimmed();
    if (summary.isEmpty()) {
        onSummaryFailure(tr("The model wrote an empty summary."));
        return;
    }
    turn.summarising = false;
    m_compaction.summary = summary;
    m_compaction.droppedTurns = turn.summaryPlan->turns;
    m_compaction.summarisedTurns = turn.summaryPlan->turns;
    resumeAfterSummary({});
}

void Agent::onSummaryFailure(const QString &error)
{
    m_turn->summarising = false;
    resumeAfterSummary(error);
}

void Agent::resumeAfterSummary(const QString &summaryError)
{
    Turn &turn = *m_turn;
    const ContextFitter::SummaryPlan plan = *std::exchange(turn.summaryPlan, std::nullopt);
    ModelRequest request = std::move(turn.heldRequest);
    const bool reflection = turn.heldForReflection;
    const int parent = reflection ? turn.reflectionNode : turn.iterationNode;
    ContextFitter::Result fitted
        = ContextFitter(m_estimator, m_config).fit(request, m_compaction, ContextFitter::Summaries::DoNotAsk);
    fitted.tokensBefore = turn.tokensBeforeSummary;
    fitted.window = request.options.contextWindow.value_or(fitted.window);
    QJsonObject details;
    if (summaryError.isEmpty()) {
        QStringList strategies{compactionStrategyName(CompactionStrategy::Summarise)};
        if (!fitted.strategy.isEmpty())
            strategies.append(fitted.strategy);
        fitted.strategy = strategies.join(u'+');
        fitted.replaced = plan.replaced + fitted.replaced;
        details.insert(u"summary"_s, m_compaction.summary);
        details.insert(u"summarisedTurns"_s, m_compaction.summarisedTurns);
        details.insert(u"summaryModel"_s, turn.summaryModel);
    } else {
        details.insert(u"summaryError"_s, summaryError);
        if (fitted.strategy.isEmpty())
            fitted.strategy = compactionStrategyName(CompactionStrategy::Summarise);
    }
    // A summary that failed and left nothing else to do is the node's error, not the turn's.
    const bool failed = !summaryError.isEmpty() && !fitted.compacted;
    recordCompaction(fitted, parent, details, failed ? TraceStatus::Error : TraceStatus::Ok);
    if (!fitted.fits) {
        QString reason = ContextFitter::refusal(fitted, m_config.compaction);
        if (!summaryError.isEmpty())
            reason += u' ' + tr("The summary could not be written: %1").arg(summaryError);
        recordError(parent, u"context_window"_s, reason);
        finishTurn(TurnOutcome::Failed, {}, reason);
        return;
    }
    consultModelInterceptors(0, std::move(request), false, reflection);
}

// ---------------------------------------------------------------------------
// Model calls

void Agent::consultModelInterceptors(int interceptorIndex, ModelRequest request, bool edited, bool reflection)
{
    if (interceptorIndex == 0 && !m_interceptors.isEmpty())
        m_turn->requestBeforeInterceptors = request;
    endModelCallWait(u"allowed"_s, TraceStatus::Ok, edited);
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
    // only count while the same iteration is still waiting for them.
    const QPointer<TurnGate> gate(m_gate);
    const QPointer<Agent> self(this);
    ModelCallDecision decision([gate, self, token = currentToken(), interceptorIndex, request, edited,
                                reflection](ModelCallVerdict verdict) {
        TurnGate::post(gate, token,
                       [self, interceptorIndex, request, edited, reflection, verdict = std::move(verdict)] {
                           if (!self)
                               return;
                           const bool changed = verdict.editedRequest && *verdict.editedRequest != request;
                           self->consultModelInterceptors(interceptorIndex + 1,
                                                          changed ? *verdict.editedRequest : request,
                                                          edited || changed, reflection);
                       });
    });
    Interceptor *interceptor = m_interceptors.at(interceptorIndex);
    interceptor->interceptModelCall(checkpoint, decision);
    // Undecided once the interceptor returned: it holds the call for someone, and that time is theirs,
    // not the machine's. The model call itself begins when the request is sent.
    if (decision.isPending() && m_turn && m_turn->waitNode < 0) {
        const QString waitingFor = interceptor->holdKind();
        m_turn->waitNode = m_trace->begin(checkpoint.traceNode, TraceKind::Wait,
                                          ToolPhase::waitLabel(waitingFor), now(), WaitData{waitingFor, {}});
    }
}

void Agent::endModelCallWait(const QString &decision, TraceStatus status, bool edited)
{
    if (!m_turn || m_turn->waitNode < 0)
        return;
    const int node = std::exchange(m_turn->waitNode, -1);
    m_trace->update(node, [&decision, edited](TraceNode &wait) {
        WaitData &data = wait.data<WaitData>();
        data.decision = decision;
        data.argumentsEdited = edited;
    });
    m_trace->finish(node, status, now());
}

void Agent::dispatchModelCall(ModelRequest request, bool edited, bool reflection)
{
    Turn &turn = *m_turn;
    ModelCallData data;
    data.provider = m_client->providerName();
    data.model = request.options.model;
    data.request = recordRequest(request, edited);
    turn.sentCharacters = request.options.contextWindow ? TokenEstimator::characters(request) : 0;
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

// How the trace keeps \a request: as what it adds to the last call's request, which it resends.
RecordedRequest Agent::recordRequest(const ModelRequest &request, bool edited)
{
    Turn &turn = *m_turn;
    const bool hasSystem
        = !request.messages.isEmpty() && request.messages.constFirst().role == Message::Role::System;
    const QString system = hasSystem ? request.messages.constFirst().text : QString();
    RecordedRequest recorded;
    if (turn.lastRecorded.messageCount() == 0)
        recorded = RecordedRequest(request);
    else if (!edited && !turn.lastEdited && system == turn.lastSystem && !turn.compactedSinceRecorded)
        // During a turn the history only grows: a call as built resends the last one and adds to it.
        recorded = RecordedRequest::extending(turn.lastRecorded, request);
    else
        recorded = RecordedRequest::after(turn.lastRecorded, turn.lastRecorded.whole(), request);
    turn.lastRecorded = recorded;
    turn.lastSystem = system;
    turn.lastEdited = edited;
    turn.compactedSinceRecorded = false;
    return recorded;
}

void Agent::onTextDelta(const QString &text)
{
    if (!m_turn || m_turn->modelCallNode < 0)
        return;
    noteFirstToken();
    if (!m_turn->summarising && !m_turn->shielding)
        emitEvent(AgentEvent::Kind::TextDelta, m_turn->modelCallNode, text);
}

void Agent::onToolCallDelta(const ToolCallDelta &delta)
{
    Q_UNUSED(delta)
    if (m_turn && m_turn->modelCallNode >= 0)
        noteFirstToken();
}

// The first fragment of the call's answer, text or tool call, marks the time to first token.
void Agent::noteFirstToken()
{
    if (m_trace->node(m_turn->modelCallNode).data<ModelCallData>().firstTokenUs)
        return;
    const qint64 nowUs = now();
    m_trace->update(m_turn->modelCallNode,
                    [nowUs](TraceNode &call) { call.data<ModelCallData>().firstTokenUs = nowUs; });
}

void Agent::onModelAttempt(const ModelAttempt &attempt)
{
    if (!m_turn || m_turn->modelCallNode < 0)
        return;
    const int callNode = m_turn->modelCallNode;
    m_trace->update(callNode,
                    [&attempt](TraceNode &node) { node.data<ModelCallData>().attempts.append(attempt); });
    // The wait ended when this attempt began. The retry counts as failed until an answer shows it
    // recovered (onModelResponse()).
    endRetryWait(TraceStatus::Error, attempt.startedUs);
    if (attempt.retryInMs < 0)
        return;
    RetryData retry;
    retry.attempt = attempt.number;
    retry.httpStatus = attempt.httpStatus;
    retry.reason = attempt.error;
    retry.delayMs = attempt.retryInMs;
    // The node spans the failed attempt and the wait after it, so its duration is what the retry
    // cost; it runs until the next attempt starts.
    m_turn->retryNode
        = m_trace->begin(callNode, TraceKind::Retry, tr("Retry after attempt %1").arg(attempt.number),
                         attempt.startedUs, retry);
    emitEvent(AgentEvent::Kind::Retry, m_turn->retryNode, attempt.error, {}, true,
              RetryInfo{attempt.number, attempt.httpStatus, attempt.retryInMs});
}

void Agent::endRetryWait(TraceStatus status, qint64 endedUs)
{
    if (!m_turn || m_turn->retryNode < 0)
        return;
    m_trace->finish(std::exchange(m_turn->retryNode, -1), status, endedUs);
}

void Agent::onModelFailure(const ModelError &error)
{
    if (!m_turn || m_turn->modelCallNode < 0)
        return;
    Turn &turn = *m_turn;
    endRetryWait(TraceStatus::Error, now());
    const int callNode = std::exchange(turn.modelCallNode, -1);
    m_trace->update(callNode,
                    [&error](TraceNode &node) { node.data<ModelCallData>().error = error.message; });
    m_trace->finish(callNode, TraceStatus::Error, now());
    if (turn.summarising) {
        onSummaryFailure(error.message);
        return;
    }
    if (turn.shielding) {
        // No verdict: unclear, allowed or blocked as the shield says.
        const ModelShield &shield = *m_config.shields.model;
        ShieldVerdict verdict = shield.verdictFor({});
        verdict.reason = tr("%1 could not be asked: %2").arg(shield.name, error.message);
        settleModelShield(verdict);
        return;
    }
    recordError(turn.reflecting ? turn.reflectionNode : turn.iterationNode, u"provider"_s, error.message);
    finishTurn(TurnOutcome::Failed, {}, error.message);
}

void Agent::onModelResponse(const ModelResponse &received)
{
    if (!m_turn || m_turn->modelCallNode < 0)
        return;
    Turn &turn = *m_turn;
    if (turn.summarising) {
        onSummaryResponse(received);
        return;
    }
    if (turn.shielding) {
        onModelShieldResponse(received);
        return;
    }
    const ModelResponse response = withUniqueCallIds(received);
    const int callNode = finishModelCallNode(response);
    m_estimator.calibrate(std::exchange(turn.sentCharacters, 0), response.usage.inputTokens);
    emitEvent(AgentEvent::Kind::ModelResponse, callNode, response.text, {}, false,
              ModelResponseInfo{response.finishReason, int(response.toolCalls.size()), response.usage});

    switch (classify(response)) {
    case ResponseOutcome::Reflection: onReflection(response); return;
    case ResponseOutcome::Answer: onAnswer(response); return;
    case ResponseOutcome::Empty: onEmptyResponse(); return;
    case ResponseOutcome::ToolsRefused: onToolsRefused(response); return;
    case ResponseOutcome::Handoff: onHandoff(response); return;
    case ResponseOutcome::ToolCalls: onToolCalls(response); return;
    }
}

// Ends the model call's node with \a response, priced; its tokens count for the turn.
int Agent::finishModelCallNode(const ModelResponse &response)
{
    Turn &turn = *m_turn;
    endRetryWait(TraceStatus::Ok, now());
    const int callNode = std::exchange(turn.modelCallNode, -1);
    // The call recovered: the retries before this answer did their job and are not failures.
    for (const int child : m_trace->childrenOf(callNode)) {
        const TraceNode &node = m_trace->node(child);
        if (node.kind == TraceKind::Retry && node.status == TraceStatus::Error)
            m_trace->update(child, [](TraceNode &retry) { retry.status = TraceStatus::Ok; });
    }
    m_trace->update(callNode, [this, &response](TraceNode &node) {
        ModelCallData &call = node.data<ModelCallData>();
        call.response = response;
        call.cost = priceModelCall(call, m_priceLookup);
    });
    m_trace->finish(callNode, TraceStatus::Ok, now());
    turn.result.usage += response.usage;
    return callNode;
}

// Strict providers need every call id unique across the conversation, and
// some servers send none or repeat them: give those a stable one of ours.
ModelResponse Agent::withUniqueCallIds(ModelResponse response)
{
    Turn &turn = *m_turn;
    for (int i = 0; i < response.toolCalls.size(); ++i) {
        ToolCall &call = response.toolCalls[i];
        if (call.id.isEmpty() || turn.usedCallIds.contains(m_callIdPrefix + call.id))
            call.id = u"call_%1_%2_%3"_s.arg(m_turnSerial).arg(turn.iteration).arg(i);
        call.id.prepend(m_callIdPrefix);
        turn.usedCallIds.insert(call.id);
    }
    return response;
}

Agent::ResponseOutcome Agent::classify(const ModelResponse &response) const
{
    if (m_turn->reflecting)
        return ResponseOutcome::Reflection;
    if (response.toolCalls.isEmpty())
        return response.text.trimmed().isEmpty() ? ResponseOutcome::Empty : ResponseOutcome::Answer;
    if (!m_turn->toolsOffered || overBudget())
        return ResponseOutcome::ToolsRefused;
    return handoffIndex(response.toolCalls) >= 0 ? ResponseOutcome::Handoff : ResponseOutcome::ToolCalls;
}

// The first call of a handoff tool, or -1.
int Agent::handoffIndex(const QList<ToolCall> &calls) const
{
    for (int i = 0; i < calls.size(); ++i) {
        const auto tool = m_workbench->find(calls.at(i).name);
        if (tool && !tool->behaviour().handoffTarget.isEmpty())
            return i;
    }
    return -1;
}

bool Agent::overBudget() const
{
    return m_config.tokenBudget > 0 && m_turn->result.usage.total() > m_config.tokenBudget;
}

void Agent::onReflection(const ModelResponse &response)
{
    Turn &turn = *m_turn;
    m_trace->update(turn.reflectionNode,
                    [&response](TraceNode &node) { node.data<TextData>().text = response.text; });
    m_trace->finish(turn.reflectionNode, response.text.isEmpty() ? TraceStatus::Error : TraceStatus::Ok,
                    now());
    emitEvent(AgentEvent::Kind::Reflection, turn.reflectionNode, response.text);
    if (response.text.trimmed().isEmpty())
        finishTurn(TurnOutcome::Fallback, m_config.fallbackMessage.arg(turn.iteration),
                   tr("The reflection call gave no answer."));
    else
        finishWithAnswer(response.text,
                         turn.result.limitReached ? TurnOutcome::ForcedFinal : TurnOutcome::Reflected);
}

void Agent::onAnswer(const ModelResponse &response)
{
    finishWithAnswer(response.text, answeredOutcome());
}

// An answer on the final iteration, sent without tools, was forced by the
// limit: the model might have gone on, and the user should know it.
TurnOutcome Agent::answeredOutcome()
{
    if (!m_turn->result.finalIterationWithoutTools)
        return TurnOutcome::Answered;
    m_turn->result.limitReached = true;
    return TurnOutcome::ForcedFinal;
}

void Agent::onEmptyResponse()
{
    // Silence on the final, tool-less iteration ends the turn at its limit.
    m_turn->result.limitReached |= m_turn->result.finalIterationWithoutTools;
    finishTurn(TurnOutcome::Fallback, m_config.fallbackMessage.arg(m_turn->iteration),
               tr("The model gave no answer."));
}

// The model asked for tools it may not use now. Answer each call so the
// history stays valid, and end the turn with whatever text came along.
void Agent::onToolsRefused(const ModelResponse &response)
{
    Turn &turn = *m_turn;
    const bool refusedForBudget = overBudget();
    appendMessage(Message::assistant(response.text, response.toolCalls));
    const QString why
        = refusedForBudget
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
    if (refusedForBudget) {
        const QString message = tr("The turn stopped: it used %1 tokens, over its budget of %2.")
                                    .arg(turn.result.usage.total())
                                    .arg(m_config.tokenBudget);
        recordError(turn.iterationNode, u"token_budget"_s, message);
        finishTurn(TurnOutcome::TokenBudget, response.text, message);
    } else if (!response.text.trimmed().isEmpty()) {
        finishWithAnswer(response.text, answeredOutcome(), /*alreadyInHistory=*/true);
    } else {
        turn.result.limitReached = true;
        finishTurn(TurnOutcome::Fallback, m_config.fallbackMessage.arg(turn.iteration),
                   tr("The model asked for tools on the final iteration instead of answering."));
    }
}

void Agent::onHandoff(const ModelResponse &response)
{
    Turn &turn = *m_turn;
    appendMessage(Message::assistant(response.text, response.toolCalls));
    const QList<ToolCall> &calls = response.toolCalls;
    const int winner = handoffIndex(calls);
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

    // Going on as the agent handed to, the Handoff node is its part of the turn: beside the parts
    // before it, holding the iterations to come. Ending the turn, it is a step of this iteration.
    std::optional<AgentTeam::Member> next;
    const bool mayContinue = m_config.handoff == HandoffMode::Continue && m_team;
    const bool withinLimit = turn.handoffs < m_config.maxHandoffs;
    if (mayContinue && withinLimit)
        next = m_team->member(target);
    HandoffData handoff{target, reason, winning.id};
    if (next && !next->config.definition.isEmpty()) {
        handoff.targetVersion = next->config.version;
        handoff.targetDefinition = next->config.definition;
    }
    if (next && turn.partNode != turn.traceNode)
        m_trace->finish(turn.partNode, TraceStatus::Ok, now());
    const int node = m_trace->begin(next ? turn.traceNode : turn.iterationNode, TraceKind::Handoff,
                                    tr("Handoff to %1").arg(target), now(), handoff);
    if (!next)
        m_trace->finish(node, TraceStatus::Ok, now());
    emitEvent(AgentEvent::Kind::Handoff, node, reason, winning, false, HandoffInfo{target});

    if (next) {
        turn.partNode = node;
        continueAs(target, *next);
        return;
    }
    if (mayContinue && !withinLimit)
        recordError(
            turn.iterationNode, u"handoff_limit"_s,
            tr("The turn ends here: it reached its limit of %n handoff(s).", nullptr, m_config.maxHandoffs));
    turn.result.handoff = Handoff{target, reason};
    const QString text = reason.isEmpty() ? tr("Handed off to %1.").arg(target)
                                          : tr("Handed off to %1: %2").arg(target, reason);
    finishTurn(TurnOutcome::HandedOff, text);
}

// The same turn goes on as \a name from its next request: its instructions, tools and options.
void Agent::continueAs(const QString &name, const AgentTeam::Member &member)
{
    Q_ASSERT(member.workbench);
    Turn &turn = *m_turn;
    ++turn.handoffs;
    if (!turn.sessionAgent) {
        turn.sessionAgent = AgentTeam::Member{m_config, m_workbench, nullptr, {}};
        turn.sessionClient = m_client;
        turn.sessionPrices = m_priceLookup;
    }
    if (m_config.handoffHistory == HandoffHistory::Text) {
        turn.textOnlyParts.append({turn.partStart, m_history.size()});
        showHandedOffHistory();
    }
    turn.partStart = m_history.size();
    m_config = member.config;
    m_config.name = name;
    onShieldsChanged();
    m_workbench = member.workbench;
    m_tools->setWorkbench(m_workbench);
    // An agent on a provider profile of its own is asked there; else on the session's provider.
    // Its calls are priced as its profile prices them.
    if (member.client) {
        turn.handedToClients.append(member.client);
        switchClient(member.client.get());
        m_priceLookup = member.prices ? member.prices : turn.sessionPrices;
    } else {
        switchClient(turn.sessionClient);
        m_priceLookup = turn.sessionPrices;
    }
    m_trace->finish(turn.iterationNode, TraceStatus::Ok, now());
    startIteration();
}

// The requests' view of the history without the tool calls, and their results, of the parts
// handed off with HandoffHistory::Text; the text that came with those calls stays.
void Agent::showHandedOffHistory()
{
    Turn &turn = *m_turn;
    const auto hidden = [&turn](qsizetype index) {
        return std::any_of(turn.textOnlyParts.cbegin(), turn.textOnlyParts.cend(),
                           [index](const auto &part) { return index >= part.first && index < part.second; });
    };
    QList<Message> view;
    view.reserve(m_history.size() + 1);
    for (qsizetype i = 0; i < m_history.size(); ++i) {
        const Message &message = m_history.at(i);
        const bool toolTraffic = message.role == Message::Role::Tool || !message.toolCalls.isEmpty();
        if (!toolTraffic || !hidden(i))
            view.append(message);
        else if (message.role == Message::Role::Assistant && !message.text.trimmed().isEmpty())
            view.append(Message::assistant(message.text));
    }
    turn.messagesWithSystem = std::move(view);
    turn.ownView = true;
    turn.systemInView = false;
}

// The next turn starts as the session's agent again.
void Agent::restoreSessionAgent()
{
    if (!m_turn || !m_turn->sessionAgent)
        return;
    m_config = m_turn->sessionAgent->config;
    onShieldsChanged();
    m_workbench = m_turn->sessionAgent->workbench;
    m_tools->setWorkbench(m_workbench);
    switchClient(m_turn->sessionClient);
    m_priceLookup = m_turn->sessionPrices;
}

// Between two requests of a turn: the next goes to \a client.
void Agent::switchClient(ModelClient *client)
{
    if (!client || client == m_client)
        return;
    disconnect(m_client, nullptr, this, nullptr);
    m_client = client;
    connectClient();
}

void Agent::onToolCalls(const ModelResponse &response)
{
    appendMessage(Message::assistant(response.text, response.toolCalls));
    m_tools->start(currentToken(), response.toolCalls, m_turn->iterationNode, m_config);
}

void Agent::onToolPhaseFinished()
{
    Turn &turn = *m_turn;
    const QList<ToolPhase::FinishedCall> results = m_tools->results();
    // A denial is the user's decision, not the model's mistake: an iteration
    // of denials only neither fails nor counts toward the error limit.
    bool errorOnly = true;
    bool deniedOnly = true;
    bool stopRequested = false;
    for (const ToolPhase::FinishedCall &finished : results) {
        appendMessage(toolResultMessage(finished));
        turn.result.usage += finished.result.usage; // a sub-agent's tokens are the turn's too
        if (!finished.denied)
            errorOnly &= finished.result.isError;
        deniedOnly &= finished.denied;
        stopRequested |= finished.endsLoop;
    }
    errorOnly &= !deniedOnly;
    m_trace->finish(turn.iterationNode, errorOnly ? TraceStatus::Error : TraceStatus::Ok, now());

    if (!deniedOnly)
        turn.consecutiveErrorIterations = errorOnly ? turn.consecutiveErrorIterations + 1 : 0;
    if (m_config.maxConsecutiveErrors > 0
        && turn.consecutiveErrorIterations >= m_config.maxConsecutiveErrors) {
        const auto isError = [](const ToolPhase::FinishedCall &call) {
            return call.result.isError && !call.denied;
        };
        const ToolPhase::FinishedCall &lastError = *std::find_if(results.crbegin(), results.crend(), isError);
        const QString message = tr("The turn stopped after %1 iterations in a row in which every tool call "
                                   "failed. The last error: %2")
                                    .arg(turn.consecutiveErrorIterations)
                                    .arg(lastError.result.content);
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
        prepareModelCall(buildRequest(true), true);
        return;
    case PostLoopMode::Summary: {
        QStringList lines;
        for (const ToolPhase::FinishedCall &finished : m_tools->results()) {
            QString line = m_config.summaryFormat;
            line.replace(u"{tool_name}"_s, finished.call.name)
                .replace(u"{arguments}"_s, finished.call.arguments)
                .replace(u"{result}"_s, finished.result.content);
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
        withholdAnswer(reason, alreadyInHistory);
        return;
    }
    const auto accept = [this, text, outcome, alreadyInHistory] {
        if (!alreadyInHistory)
            appendMessage(Message::assistant(text));
        finishTurn(outcome, text);
    };
    if (hasModelShield(ShieldStage::Output)) {
        askModelShield(ShieldStage::Output, text, [this, accept, alreadyInHistory](const QString &blocked) {
            if (blocked.isEmpty())
                accept();
            else
                withholdAnswer(blocked, alreadyInHistory);
        });
        return;
    }
    accept();
}

void Agent::withholdAnswer(const QString &reason, bool alreadyInHistory)
{
    // Keep the history alternating without keeping the withheld text.
    if (!alreadyInHistory)
        appendMessage(Message::assistant(tr("[The answer was withheld by a safety check.]")));
    finishTurn(TurnOutcome::Blocked, {}, tr("The answer was blocked: %1").arg(reason));
}

void Agent::finishTurn(TurnOutcome outcome, const QString &text, const QString &error)
{
    Turn &turn = *m_turn;
    TurnResult result = turn.result;
    result.outcome = outcome;
    result.text = text;
    result.error = error;

    TraceStatus status = TraceStatus::Error;
    if (outcome == TurnOutcome::ForcedFinal)
        status = TraceStatus::Limited;
    else if (result.isAnswer() || outcome == TurnOutcome::HandedOff)
        status = TraceStatus::Ok;
    else if (outcome == TurnOutcome::Cancelled)
        status = TraceStatus::Cancelled;
    else if (outcome == TurnOutcome::Blocked)
        status = TraceStatus::Blocked;

    endModelCallWait(u"cancelled"_s, TraceStatus::Cancelled);
    const qint64 end = now();
    for (int node : {turn.retryNode, turn.modelCallNode, turn.compactionNode, turn.shieldNode,
                     turn.reflectionNode, turn.iterationNode}) {
        if (node >= 0 && m_trace->node(node).status == TraceStatus::Running)
            m_trace->finish(node, status, end);
    }
    m_trace->update(turn.traceNode, [&result](TraceNode &node) {
        TurnData &data = node.data<TurnData>();
        data.output = result.text;
        data.outcome = turnOutcomeName(result.outcome);
        data.error = result.error;
        data.limitReached = result.limitReached;
        data.usage = result.usage;
    });
    if (turn.partNode != turn.traceNode && m_trace->node(turn.partNode).status == TraceStatus::Running)
        m_trace->finish(turn.partNode, status, end);
    m_trace->finish(turn.traceNode, status, end);

    const int traceNode = turn.traceNode;
    result.agent = m_config.name;
    m_timeLimit->stop();
    m_toolAsksPerson = false;   // a form still open is the turn's no more
    restoreClientAfterShield(); // a turn stopped while a shield on a profile of its own judged
    restoreSessionAgent();
    m_turn.reset();
    m_gate->close();
    setState(State::Idle);
    AgentEvent finished{.kind = AgentEvent::Kind::TurnFinished,
                        .timeUs = now(),
                        .traceNode = traceNode,
                        .text = text.isEmpty() ? error : text,
                        .isError = !error.isEmpty(),
                        .payload = TurnFinishedInfo{outcome, result.iterations, result.usage},
                        .agent = result.agent,
                        .depth = m_depth};
    emit event(finished);
    emit turnFinished(result);
}

void Agent::pauseToolTimeouts(bool paused)
{
    m_tools->pauseTimeouts(paused);
    m_toolAsksPerson = paused;
    updatePersonWait();
}

void Agent::cancel()
{
    if (m_turn)
        stopTurn(TurnOutcome::Cancelled, tr("Cancelled by the user."),
                 tr("Cancelled by the user before the tool finished."));
}

void Agent::onTimeLimit()
{
    if (!m_turn)
        return;
    const QString why = tr("The turn stopped: it ran out of its time limit of %1 s.")
                            .arg(QLocale::c().toString(m_turn->timeLimitMs / 1000.0, 'g', 6));
    recordError(m_turn->partNode, u"time_limit"_s, why);
    stopTurn(TurnOutcome::TimeLimit, why, tr("Stopped before the tool finished: %1").arg(why));
}

void Agent::stopTurn(TurnOutcome outcome, const QString &why, const QString &toolWhy)
{
    Turn &turn = *m_turn;
    if (turn.modelCallNode >= 0) {
        m_client->cancel();
        endRetryWait(TraceStatus::Cancelled, now());
        m_trace->update(turn.modelCallNode,
                        [&why](TraceNode &node) { node.data<ModelCallData>().error = why; });
        m_trace->finish(std::exchange(turn.modelCallNode, -1), TraceStatus::Cancelled, now());
    }
    // Not passed: a question stopped during its check never entered the history, nor did such an answer.
    if (turn.shieldNode >= 0) {
        m_trace->update(turn.shieldNode, [this](TraceNode &node) {
            ShieldCheckData &check = node.data<ShieldCheckData>();
            check.passed = false;
            check.reason = tr("Stopped before the verdict.");
        });
    }
    // During the tool phase no result is in the history yet. Every call the
    // model made gets one, so a strict provider accepts the next turn.
    if (m_tools->isActive()) {
        m_tools->cancel(toolWhy);
        for (const ToolPhase::FinishedCall &finished : m_tools->results())
            appendMessage(toolResultMessage(finished));
    }
    finishTurn(outcome, {}, why);
}

// ---------------------------------------------------------------------------
// Helpers

bool Agent::passesShields(ShieldStage stage, const QString &subject, const QString &content, int parent,
                          QString *reason)
{
    QList<std::shared_ptr<const Shield>> shields = m_shields;
    if (m_configRules)
        shields.append(m_configRules);
    for (const auto &shield : std::as_const(shields)) {
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

bool Agent::hasModelShield(ShieldStage stage) const
{
    return m_config.shields.model && m_config.shields.model->stages.contains(stage);
}

void Agent::askModelShield(ShieldStage stage, const QString &content,
                           std::function<void(const QString &)> done)
{
    Turn &turn = *m_turn;
    turn.shieldStage = stage;
    turn.shieldContent = content;
    turn.afterShields = std::move(done);
    const ModelShield &shield = *m_config.shields.model;
    ShieldCheckData check;
    check.shield = shield.name;
    check.stage = shieldStageName(turn.shieldStage);
    turn.shieldNode = m_trace->begin(turn.traceNode, TraceKind::ShieldCheck,
                                     tr("%1 check: %2").arg(shield.name, check.stage), now(), check);

    ModelRequest request;
    request.options = m_config.model;
    turn.shielding = true;
    // Without a client of the team's (a replay's recorded team, or none) the agent's own client
    // answers: a replay's, from the recording. A session's team always makes one.
    AgentTeam::ProfileClient own;
    if (!shield.provider.isEmpty() && m_team)
        own = m_team->createClientOnProfile(shield.provider);
    if (own.client) {
        request.options.model = own.model;
        turn.shieldClient = std::shared_ptr<ModelClient>(own.client.release(),
                                                         [](ModelClient *client) { client->deleteLater(); });
        turn.clientBeforeShield = m_client;
        switchClient(turn.shieldClient.get());
        if (own.prices) {
            turn.pricesBeforeShield = m_priceLookup;
            m_priceLookup = own.prices;
        }
    }
    if (!shield.model.isEmpty())
        request.options.model = shield.model;
    request.messages = {Message::user(shield.prompt(turn.shieldStage, turn.input, turn.shieldContent))};
    //: A trace node: the model call a model shield made to judge a message
    sendAsideCall(turn.shieldNode, request,
                  request.options.model.isEmpty() ? tr("shield")
                                                  : tr("shield %1").arg(request.options.model));
}

void Agent::onModelShieldResponse(const ModelResponse &response)
{
    finishModelCallNode(response);
    settleModelShield(m_config.shields.model->verdictFor(ModelShield::read(response.text)));
}

void Agent::settleModelShield(const ShieldVerdict &verdict)
{
    Turn &turn = *m_turn;
    turn.shielding = false;
    restoreClientAfterShield();
    const int node = std::exchange(turn.shieldNode, -1);
    m_trace->update(node, [&verdict](TraceNode &check) {
        ShieldCheckData &data = check.data<ShieldCheckData>();
        data.passed = verdict.allowed;
        data.reason = verdict.reason;
    });
    m_trace->finish(node, verdict.allowed ? TraceStatus::Ok : TraceStatus::Blocked, now());
    if (verdict.allowed) {
        std::exchange(turn.afterShields, {})(QString());
        return;
    }
    emitEvent(AgentEvent::Kind::ShieldBlocked, node, verdict.reason, {}, true,
              ShieldInfo{turn.shieldStage, m_config.shields.model->name});
    std::exchange(turn.afterShields, {})(verdict.reason);
}

void Agent::restoreClientAfterShield()
{
    if (m_turn && m_turn->clientBeforeShield)
        switchClient(std::exchange(m_turn->clientBeforeShield, nullptr));
    if (m_turn && m_turn->pricesBeforeShield)
        m_priceLookup = *std::exchange(m_turn->pricesBeforeShield, std::nullopt);
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
    if (m_turn && (m_turn->ownView || !m_turn->messagesWithSystem.isEmpty()))
        m_turn->messagesWithSystem.append(message);
    emit messageAppended(message);
}

void Agent::emitEvent(AgentEvent::Kind kind, int traceNode, const QString &text, const ToolCall &call,
                      bool isError, AgentEventPayload payload)
{
    emit event({.kind = kind,
                .timeUs = now(),
                .iteration = m_turn ? m_turn->iteration : 0,
                .traceNode = traceNode,
                .text = text,
                .toolCall = call,
                .isError = isError,
                .payload = std::move(payload),
                .agent = m_config.name,
                .depth = m_depth});
}

// The tool phase's events, said by the agent that runs it.
void Agent::forwardEvent(AgentEvent event)
{
    event.agent = m_config.name;
    event.depth = m_depth;
    emit this->event(event);
}

void Agent::announceNested(const AgentEvent &nested)
{
    emit event(nested);
}

void Agent::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    // An approval or a held call waits for a person: the turn's time does not run meanwhile.
    updatePersonWait();
    emit stateChanged(state);
}

} // namespace Loopscope
