#pragma once

#include "agent/config/providerprofile.h"
#include "agent/config/secretstore.h"
#include "agent/debug/stepdebugger.h"
#include "agent/debug/toolapprovalpolicy.h"
#include "agent/loop/agent.h"
#include "agent/loop/turnresult.h"
#include "agent/mcp/mcphub.h"
#include "agent/model/modelclient.h"
#include "agent/providers/providerprotocol.h"
#include "agent/replay/recordedturn.h"
#include "agent/replay/replayworkbench.h"
#include "agent/session/conversationrows.h"
#include "agent/session/mcpbridge.h"
#include "agent/session/sessionsetup.h"
#include "agent/session/sessionusage.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracecost.h"
#include "agent/transcript/transcript.h"

#include <QObject>
#include <QSet>

#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

class McpBridge;
class ProviderBinding;
class SessionTeam;

/*!
    One conversation as the desktop app runs it: the agent with its trace and
    workbench, the step debugger and the tool approval policy, wired in that
    order. It turns the user's intents (send, stop, regenerate, edit the last
    message, retry, fork or replay from a trace node) into agent calls. What it
    runs with is one SessionSetup, taken in by apply(); the provider, the MCP
    servers and the status bar's counts are its parts (ProviderBinding,
    McpBridge, SessionUsage). The window, `loopscope run`, `eval` and the
    playground all drive a conversation through it. No widgets.
*/
class ChatSession final : public QObject
{
    Q_OBJECT

public:
    explicit ChatSession(QNetworkAccessManager *network, QObject *parent = nullptr);
    ~ChatSession() override;

    Agent *agent() const { return m_agent.get(); }
    Trace *trace() const { return m_trace.get(); }
    const Workbench *workbench() const { return m_workbench.get(); }
    StepDebugger *debugger() const { return m_debugger; }
    ToolApprovalPolicy *approvals() const { return m_approvals; }
    // The conversation as the chat shows it, live and after restore(): a list model the
    // session alone feeds; views only read it.
    ConversationRows *rows() const { return m_rows; }
    // The MCP servers whose tools join the built-in ones (started at each turn if down).
    McpHub *mcp() const;
    // Answers a form an MCP server asked for (elicitationRequested); false when it no longer waits.
    bool answerElicitation(int id, const Loopscope::McpElicitationAnswer &answer);
    // Answers an MCP server's request for a model call (samplingRequested); false when it no longer waits.
    bool answerSampling(int id, const Loopscope::McpSamplingDecision &decision);
    // The model a sampling request runs on unless the user picks another.
    QString samplingModel() const;
    const SessionUsage *usage() const { return m_usage; }

    // What the next turn runs with, in one place: the provider when it differs (while no turn runs;
    // otherwise providerFailed() and the rest still applies), the loop, tools, approvals, MCP servers.
    void apply(const SessionSetup &setup);
    // The setup as it stands, the provider's model as last chosen.
    const SessionSetup &setup() const { return m_setup; }
    // Takes the profile's key from the environment variable it names, else from \a secrets (the
    // keychain, or its key file), then uses the profile. Without a usable key the profile is used all
    // the same, its turns failing with the reason (also in providerFailed()): never another profile's.
    // A turn sent while the key is read waits for it; a newer call wins over an older one.
    void useProfile(const ProviderProfile &profile, SecretStore *secrets, int readTimeoutMs = 600'000);
    std::optional<ProviderProfile> provider() const;
    bool hasProvider() const { return m_setup.provider.has_value(); }
    // The agent the turns start with when it runs on a provider profile of its own: the next turn
    // goes there, not to provider(), and choosing the session's provider or model changes nothing for
    // it. Empty when the session's provider answers.
    QString providerAgent() const;
    // The profile and model the next turn starts on: the providerAgent()'s own (its model when it
    // names one), else provider(). For what the window names, not for what it lets the user change.
    std::optional<ProviderProfile> nextTurnProvider() const;
    // The profile and model the requests of \a agent (of the setup's agents) go to: its own profile
    // when it names one, else the session's, with its model when it names one. provider() for an
    // agent the setup does not have (none: the session's own turns).
    std::optional<ProviderProfile> providerOfAgent(const QString &agent) const;
    // Why the next turn's provider cannot be used (no key, a profile that does not exist); empty when it can.
    QString nextTurnProviderProblem() const;
    // A profile was chosen (useProfile()) and its key is still being read: a turn sent now waits for it.
    bool isReadingKey() const { return m_profileAwaitingKey.has_value(); }
    // Another model of the current provider for the next turn (the key and the
    // endpoint stay); refused (false) while a turn runs, or without a provider.
    bool setModel(const QString &model);
    // The provider and model a reopened session last ran on, until a turn runs
    // here; nullopt for a new session or one that did not record them.
    std::optional<RecordedProvider> recordedProvider() const;
    // Asks the current provider which models it offers; modelsListed() or modelsListFailed() follows.
    void listModels();
    // A second client for the current provider, e.g. for a replay that goes
    // live; nullptr without a provider. The caller owns it.
    std::unique_ptr<ModelClient> createModelClient() const;
    // The loop options turns start with: the session's, with its agent's (if it runs as one) over them.
    AgentConfig agentConfig() const;

    // Also while a turn waits for MCP servers that are still starting.
    bool isBusy() const { return m_agent->isRunning() || m_queuedText.has_value(); }
    // Whether a model known to take no images gets the images of a message all the same.
    enum class ImageCheck { RefuseForTextOnlyModels, SendAnyway };
    // Starts a turn with \a text and \a attachments. Refused (false, with a notice()) while busy, or
    // when an attachment is an image and the model is known to take none, unless \a check says to
    // send anyway.
    bool send(const QString &text, const QList<Attachment> &attachments = {},
              ImageCheck check = ImageCheck::RefuseForTextOnlyModels);
    // Why \a attachments cannot go to the current model (it is known to read text only); empty when
    // they can.
    QString imageRefusal(const QList<Attachment> &attachments) const;
    void stop();
    // Drops the last turn (its question and everything after) and asks again.
    bool regenerate();
    // Replaces the last question with \a text and \a attachments and asks again; refused as send() is,
    // the last question then staying in place.
    bool editLastAndResend(const QString &text, const QList<Attachment> &attachments = {},
                           ImageCheck check = ImageCheck::RefuseForTextOnlyModels);
    // Asks the last question again after a turn that did not answer.
    bool retry();
    QString lastUserText() const;
    // The files that went with the last question, e.g. to edit it and send it again.
    QList<Attachment> lastUserAttachments() const;
    // A new, empty conversation (the trace too); refused while a turn runs.
    bool clear();

    // The conversation as a saved session: history, trace, configuration (never the key).
    Transcript toTranscript() const;
    // The knowledge bases, by name, that the session restored last attached when it was saved.
    QStringList savedKnowledge() const { return m_savedKnowledge; }
    // Replaces the conversation with a saved one, to look at or continue with the
    // current provider. Refused (false, *error) while a turn runs or when its trace is malformed.
    bool restore(const Transcript &transcript, QString *error = nullptr);
    // The same with the transcript's trace already read (TranscriptLoadResult::trace).
    bool restore(const Transcript &transcript, TraceForest trace, QString *error = nullptr);
    // Title and creation time of the conversation, kept across saves.
    QString title() const { return m_title; }
    void setTitle(const QString &title);

    // The turn a trace node belongs to (its index among the turns); the last
    // turn for a node not in the trace; -1 without turns.
    int turnIndexAt(int traceNode) const;
    // A new conversation from this one up to traceNode: after the whole
    // iteration a step belongs to, else after its turn. nullopt with *error, a
    // sentence for the user.
    std::optional<Transcript> forkAt(int traceNode, QString *error) const;
    // The recording of traceNode's turn (see turnIndexAt) for a replay;
    // nullopt with *error, a sentence for the user.
    std::optional<RecordedTurn> recordedTurnAt(int traceNode, QString *error) const;
    // The built-in tools a replay may run live, confined to this session's workspace.
    ReplayWorkbench::ToolProvider replayTools() const;

    // The current model's context window: the profile's override, else what the provider said
    // (Ollama, Gemini), else the price table's (ProviderBinding::contextWindow()).
    std::optional<qint64> contextWindow() const;
    // For tests: how long the provider is given to say the window before the table's is used.
    void setContextWindowLookupTimeoutMs(int timeoutMs);
    std::optional<TurnResult> lastResult() const { return m_lastResult; }

signals:
    void providerChanged();
    void providerFailed(const QString &reason);
    void modelsListed(const QStringList &models);
    void modelsListFailed(const QString &reason);
    void busyChanged(bool busy);
    void usageChanged();
    // The provider said how much context its model holds (or could not): contextWindow() may differ.
    void contextWindowChanged();
    void iterationChanged(int iteration, int maxIterations);
    void cleared();
    // A saved conversation replaced the current one (history and trace).
    void restored();
    void titleChanged(const QString &title);
    // A sentence about something outside the turn (an MCP server that stopped); also shown in rows().
    void notice(const QString &text);
    // An MCP server asks the user to fill in a form; answer with answerElicitation(id, …).
    void elicitationRequested(int id, const Loopscope::McpElicitation &request);
    // The form no longer waits: answered, or cancelled because the turn stopped or the session was cleared.
    void elicitationSettled(int id);
    // An MCP server asks for a model call (sampling); answer with answerSampling(id, …).
    void samplingRequested(int id, const Loopscope::McpSamplingRequest &request);
    // The request no longer waits: answered, or declined because the turn stopped.
    void samplingSettled(int id);

private:
    // The provider part of apply(): \a provider's client into the agent; false while a turn runs.
    bool applyProvider(const std::optional<SessionSetup::Provider> &provider);
    // The setup's bound provider (the active agent's own, else the session's) into the agent.
    void bindProvider();
    void applyTools();
    void rebuildWorkbenchBetweenIterations();
    // The loop options with the provider's model, its prices and the MCP tools' time limit.
    void applyLoop();
    void applyApprovals();
    void onEvent(const AgentEvent &event);
    void noteContextWarning(int turnNode);
    void onTurnFinished(const TurnResult &result);
    bool startTurn(const QString &text, const QList<Attachment> &attachments);
    void startQueuedTurn();
    // A turn sent while the chosen profile's key was read, once it is known.
    void startTurnThatWaitedForTheKey();
    void addNotice(const QString &text);
    // Built-in and MCP tools into the workbench, and the MCP tools' approval rules into the policy.
    void rebuildWorkbench();
    void makeWorkspaceOnFirstUse();
    // The tools the setup names, made anew (with the current key's secrets); their names.
    QSet<QString> createBuiltinTools();
    // The built-in tools of \a names, made anew; their names into *taken.
    QList<std::shared_ptr<const Tool>> builtinTools(const QStringList &names,
                                                    const QList<AttachedKnowledgeBase> &knowledge,
                                                    QSet<QString> *taken) const;
    // \a builtins, the MCP tools \a agent is offered (all without one) and its handoffs.
    void equipWorkbench(Workbench &workbench, const AgentPreset *agent,
                        const QList<std::shared_ptr<const Tool>> &builtins) const;
    // The iteration traceNode is, or is a step of; nullptr outside one.
    const IterationData *enclosingIteration(int traceNode) const;
    // The history before the last user message; nullopt without one.
    std::optional<QList<Message>> historyBeforeLastQuestion() const;

    // What a restored session says it ran with: until a new turn runs, saves
    // and exports describe that run, not whichever provider is selected now.
    struct SavedRun
    {
        QString providerKind;
        QUrl baseUrl;
        AgentConfig config;
        QStringList tools;
        QDateTime updated;
    };

    QNetworkAccessManager *m_network;
    std::unique_ptr<Trace> m_trace;
    std::unique_ptr<Workbench> m_workbench;
    ProviderBinding *m_binding;
    std::unique_ptr<SessionTeam> m_team; // the agents a turn is handed to; outlives the agent
    std::unique_ptr<Agent> m_agent;
    StepDebugger *m_debugger;
    ToolApprovalPolicy *m_approvals;
    ConversationRows *m_rows;
    McpBridge *m_mcp;
    SessionUsage *m_usage;
    SessionSetup m_setup;
    QList<std::shared_ptr<const Tool>> m_builtinTools;
    bool m_workbenchStale = false;
    std::optional<QString> m_queuedText;   // a turn waiting for MCP servers to start or for a key
    QList<Attachment> m_queuedAttachments; // and its attachments
    std::optional<ProviderProfile> m_profileAwaitingKey; // chosen, its key still being read
    int m_profileGeneration = 0;
    bool m_queuedStartPosted = false;
    std::optional<TurnResult> m_lastResult;
    QString m_title;
    QDateTime m_created;
    std::optional<SavedRun> m_savedRun;
    QStringList m_savedKnowledge;
    QString m_pendingContextWarning; // the next turn's, said as it starts
};

} // namespace Loopscope
