#pragma once

#include "agent/loop/agentconfig.h"
#include "agent/loop/agentevent.h"
#include "agent/loop/agentteam.h"
#include "agent/loop/contextbudget.h"
#include "agent/loop/interceptor.h"
#include "agent/loop/toolphase.h"
#include "agent/loop/turncontextsource.h"
#include "agent/loop/turngate.h"
#include "agent/loop/turnresult.h"
#include "agent/loop/turntimelimit.h"
#include "agent/safety/shield.h"
#include "agent/trace/clock.h"
#include "agent/trace/tracecost.h"
#include "agent/trace/tracenode.h"

#include <QList>
#include <QObject>

#include <functional>

#include <memory>

namespace Loopscope {

class ModelClient;
class Shield;
class Trace;
class Workbench;

/*!
    The tool loop. One user message starts a turn: the agent asks the model,
    runs the tool calls it answers with (concurrently, off this thread), feeds
    the results and every error back, and asks again until the model answers,
    a limit is reached, a handoff or shield ends it, or the caller cancels.
    Everything it does is recorded in the Trace and announced as AgentEvents.

    The agent owns none of its collaborators; they must outlive it.
*/
class Agent final : public QObject
{
    Q_OBJECT

public:
    enum class State { Idle, AwaitingDecision, WaitingForModel, RunningTools };
    Q_ENUM(State)

    Agent(ModelClient *client, Workbench *workbench, Trace *trace, QObject *parent = nullptr);
    ~Agent() override;

    // Switches provider between turns (not owned). Refused while a turn runs.
    bool setModelClient(ModelClient *client);
    ModelClient *modelClient() const { return m_client; }
    Trace *trace() const { return m_trace; }

    // The session's agent: what every turn starts as. Set during a turn that was handed off, it is
    // what the next turn starts as.
    void setConfig(const AgentConfig &config);
    // The running agent's options: during a turn that was handed off, those of the agent handed to.
    const AgentConfig &config() const { return m_config; }
    // The agents a handoff may continue the turn as (not owned). Without one, a handoff ends the turn.
    void setTeam(AgentTeam *team) { m_team = team; }
    AgentTeam *team() const { return m_team; }
    // Runs as a sub-agent another agent asked through a tool call: each turn goes under that call's
    // trace node \a callNode instead of at the trace's root, its events carry \a depth, and the ids
    // of its tool calls begin with \a callIdPrefix so that they stay unique beside its caller's.
    void nestUnder(int callNode, int depth, const QString &callIdPrefix);
    int depth() const { return m_depth; }

    void setClock(std::shared_ptr<const Clock> clock);
    // Prices each model call when it finishes; the cost goes into its trace node. Without one
    // (or for an unknown model) calls carry no cost.
    void setPriceLookup(PriceLookup lookup) { m_priceLookup = std::move(lookup); }
    void addShield(std::shared_ptr<const Shield> shield);
    void clearShields();
    // Consulted in the order added; not owned. Remove before destroying it.
    void addInterceptor(Interceptor *interceptor);
    void removeInterceptor(Interceptor *interceptor);
    // What a sub-agent this agent asks runs with too: the same clock, prices, shields and interceptors.
    std::shared_ptr<const Clock> clock() const { return m_clock; }
    const PriceLookup &priceLookup() const { return m_priceLookup; }
    const QList<std::shared_ptr<const Shield>> &shields() const { return m_shields; }
    const QList<Interceptor *> &interceptors() const { return m_interceptors; }
    // Who of the turn waits for a person; a sub-agent shares its caller's, so that its approval card
    // stops its caller's time limit too.
    const std::shared_ptr<PersonWaits> &personWaits() const { return m_personWaits; }
    void sharePersonWaits(std::shared_ptr<PersonWaits> waits);
    // Asked for context before each turn's first iteration (--retrieve auto); nullptr: none.
    void setContextSource(std::shared_ptr<const TurnContextSource> source)
    {
        m_contextSource = std::move(source);
    }

    const QList<Message> &history() const { return m_history; }
    // Replaces the conversation, e.g. a reopened transcript. Ignored while a turn runs.
    bool setHistory(const QList<Message> &history);

    State state() const { return m_state; }
    bool isRunning() const { return m_state != State::Idle; }

    // Starts a turn; \a attachments go with the question. Returns false (and does nothing) while
    // another turn runs.
    bool send(const QString &userText, const QList<Attachment> &attachments = {});
    // Ends the running turn as cancelled; the history stays valid for the next one.
    void cancel();
    // Ends the running turn as its time limit does when it runs out: a replay of a turn that ran
    // out of time stops where the recording stopped.
    void expireTimeLimit() { onTimeLimit(); }
    // While a person answers a running tool's question, its time limit stands still.
    void pauseToolTimeouts(bool paused);
    // Says what a sub-agent asked during this agent's turn did, as it happens: whoever follows this
    // agent's events follows its sub-agents' too (they tell themselves apart by their depth).
    void announceNested(const Loopscope::AgentEvent &nested);

signals:
    void event(const Loopscope::AgentEvent &event);
    void messageAppended(const Loopscope::Message &message);
    void stateChanged(Loopscope::Agent::State state);
    void turnFinished(const Loopscope::TurnResult &result);

private:
    struct Turn;
    // What a model response asks of the loop; decided once, in classify().
    enum class ResponseOutcome { Reflection, Answer, Empty, ToolsRefused, Handoff, ToolCalls };

    void connectClient();
    void switchClient(ModelClient *client);
    // Asks the context source about the question, then starts the first iteration with its answer.
    void findTurnContext(const QString &question);
    void startWithContext(const TurnContext &context, qint64 startedUs);
    void startIteration();
    ModelRequest buildRequest(bool reflection);
    // Makes \a request fit the context window (a Compaction node when it left something out, with
    // the summary's model call under it when one was written) and sends it, or ends the turn with
    // the reason it cannot fit.
    void prepareModelCall(ModelRequest request, bool reflection);
    void summariseForContext(const ContextFitter::SummaryPlan &plan, qint64 tokensBefore);
    void sendAsideCall(int parent, const ModelRequest &request, const QString &label);
    void onSummaryResponse(const ModelResponse &response);
    void onSummaryFailure(const QString &error);
    // Fits the held request again, with the summary in the compaction (or without one), and sends it.
    void resumeAfterSummary(const QString &summaryError);
    void recordCompaction(const ContextFitter::Result &fitted, int parent, QJsonObject details = {},
                          TraceStatus status = TraceStatus::Ok);
    int finishModelCallNode(const ModelResponse &response);
    RecordedRequest recordRequest(const ModelRequest &request, bool edited);
    void consultModelInterceptors(int interceptorIndex, ModelRequest request, bool edited, bool reflection);
    void dispatchModelCall(ModelRequest request, bool edited, bool reflection);
    void endModelCallWait(const QString &decision, TraceStatus status, bool edited = false);
    void onModelResponse(const ModelResponse &response);
    void onModelFailure(const ModelError &error);
    void onModelAttempt(const ModelAttempt &attempt);
    // Ends the running retry node, if any, at endedUs.
    void endRetryWait(TraceStatus status, qint64 endedUs);
    void onTextDelta(const QString &text);
    void onToolCallDelta(const Loopscope::ToolCallDelta &delta);
    void noteFirstToken();

    ModelResponse withUniqueCallIds(ModelResponse response);
    ResponseOutcome classify(const ModelResponse &response) const;
    int handoffIndex(const QList<ToolCall> &calls) const;
    bool overBudget() const;
    void onReflection(const ModelResponse &response);
    void onAnswer(const ModelResponse &response);
    TurnOutcome answeredOutcome();
    void onEmptyResponse();
    void onToolsRefused(const ModelResponse &response);
    void onHandoff(const ModelResponse &response);
    void continueAs(const QString &name, const AgentTeam::Member &member);
    void showHandedOffHistory();
    void restoreSessionAgent();
    void onToolCalls(const ModelResponse &response);
    void onToolPhaseFinished();

    void runPostLoop();
    // Ends the running turn as \a outcome before it could finish (the user stopped it, its time
    // ran out): the request in flight is aborted and every open tool call answered with \a why.
    void stopTurn(TurnOutcome outcome, const QString &why, const QString &toolWhy);
    void onTimeLimit();
    // Whether this agent itself waits for a person (a decision, or an answer to a tool's question).
    void updatePersonWait();
    void finishWithAnswer(const QString &text, TurnOutcome outcome, bool alreadyInHistory = false);
    void finishTurn(TurnOutcome outcome, const QString &text, const QString &error = {});
    void recordError(int parent, const QString &code, const QString &message);
    bool passesShields(ShieldStage stage, const QString &subject, const QString &content, int parent,
                       QString *reason);
    // The shields of the running agent's config took effect: its rules join the tool phase's check.
    void onShieldsChanged();
    // Asks the model shield about \a content at \a stage on the agent's own client (idle before the
    // first request and after the answer), then \a done with why it blocked, empty when it did not.
    bool hasModelShield(ShieldStage stage) const;
    void askModelShield(ShieldStage stage, const QString &content, std::function<void(const QString &)> done);
    void onModelShieldResponse(const ModelResponse &response);
    void settleModelShield(const ShieldVerdict &verdict);
    // After a model shield asked on a provider profile of its own: the turn's client again.
    void restoreClientAfterShield();
    void acceptInput(const QString &userText, const QList<Attachment> &attachments);
    void withholdAnswer(const QString &reason, bool alreadyInHistory);

    void appendMessage(const Message &message);
    void forwardEvent(AgentEvent event);
    void emitEvent(AgentEvent::Kind kind, int traceNode, const QString &text = {}, const ToolCall &call = {},
                   bool isError = false, AgentEventPayload payload = {});
    void setState(State state);
    qint64 now() const { return m_clock->nowUs(); }
    int iterationsRemaining() const;
    TurnToken currentToken() const;

    ModelClient *m_client;
    PriceLookup m_priceLookup;
    Workbench *m_workbench;
    AgentTeam *m_team = nullptr;
    Trace *m_trace;
    int m_traceParent = -1; // a sub-agent's turns go under the tool call that asked it
    int m_depth = 0;
    QString m_callIdPrefix;
    AgentConfig m_config;
    std::shared_ptr<const Clock> m_clock;
    QList<std::shared_ptr<const Shield>> m_shields;
    std::shared_ptr<const Shield> m_configRules; // m_config.shields.rules, compiled
    QList<Interceptor *> m_interceptors;
    std::shared_ptr<const TurnContextSource> m_contextSource;
    QList<Message> m_history;
    // What the requests leave out of m_history to fit the window, for the rest of the conversation.
    Compaction m_compaction;
    TokenEstimator m_estimator;
    std::unique_ptr<Turn> m_turn;
    quint64 m_turnSerial = 0;
    State m_state = State::Idle;
    TurnGate *m_gate;
    std::unique_ptr<ToolPhase> m_tools;
    TurnTimeLimit *m_timeLimit;
    std::shared_ptr<PersonWaits> m_personWaits;
    bool m_toolAsksPerson = false;
    bool m_countedAsWaiting = false; // what this agent added to m_personWaits
};

} // namespace Loopscope
