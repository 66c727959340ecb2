#pragma once

#include "agent/config/apikeyresolver.h"
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
#include "agent/session/contextgauge.h"
#include "agent/session/conversationrows.h"
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

class AppSettings;
class HttpModelClient;
class ModelLister;
struct CommandSecrets;

/*!
    One conversation as the desktop app runs it: the agent with its trace and
    workbench, the model client for the chosen provider, the step debugger
    and the tool approval policy, wired in that order. It turns the user's
    intents (send, stop, regenerate, edit the last message, retry, fork or
    replay from a trace node) into agent calls and keeps the token counts the
    status bar shows. The window and `loopscope run` both assemble their
    conversation through it. No widgets.
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
    McpHub *mcp() const { return m_mcp; }
    void setMcpServers(const QList<McpServerConfig> &servers);
    // For runs without a user to ask (`loopscope run --approve`): every MCP tool gets \a rule instead of
    // its configured one; nullopt: the configured rules.
    void setMcpApprovalOverride(std::optional<ToolApprovalPolicy::Rule> rule);
    // Answers a form an MCP server asked for (elicitationRequested); false when it no longer waits.
    bool answerElicitation(int id, const Loopscope::McpElicitationAnswer &answer);

    // The provider for the next turn; refused (false) while a turn runs.
    bool setProvider(const ProviderProfile &profile, const QString &apiKey, int readTimeoutMs = 600'000);
    // Takes the profile's key from the environment variable it names, else
    // from \a secrets (the keychain), then uses it. A profile that needs a
    // key and has none ends in providerFailed() and changes nothing.
    void useProfile(const ProviderProfile &profile, SecretStore *secrets, int readTimeoutMs = 600'000);
    std::optional<ProviderProfile> provider() const { return m_profile; }
    // Another model of the current provider for the next turn (the key and the
    // endpoint stay); refused (false) while a turn runs, or without a provider.
    bool setModel(const QString &model);
    // The provider and model a reopened session last ran on, until a turn runs
    // here; nullopt for a new session or one that did not record them.
    std::optional<RecordedProvider> recordedProvider() const;
    // Asks the current provider which models it offers, with the key it was
    // given; modelsListed() or modelsListFailed() follows. Nothing without a provider.
    void listModels();
    bool hasProvider() const { return m_profile.has_value(); }
    // A second client for the current provider, e.g. for a replay that goes
    // live; nullptr without a provider. The caller owns it.
    std::unique_ptr<ModelClient> createModelClient() const;

    // The loop options; the model and its parameters come from the provider.
    void setAgentConfig(const AgentConfig &config);
    AgentConfig agentConfig() const { return m_config; }
    // Built-in tools by name, the file tools and run_command confined to workspaceFolder.
    void setTools(const QStringList &names, const QString &workspaceFolder);
    // Whether fetch_url may reach loopback and private network addresses; takes effect at the next
    // setTools() (applySettings() calls both).
    void setFetchAllowsPrivateAddresses(bool allowed) { m_fetchAllowsPrivateAddresses = allowed; }
    // The user's preferences for the next turn: loop options, tools and their
    // workspace, approval rules (a rule with an unknown name is left out).
    void applySettings(const AppSettings &settings);

    // Also while a turn waits for MCP servers that are still starting.
    bool isBusy() const { return m_agent->isRunning() || m_queuedText.has_value(); }
    bool send(const QString &text);
    void stop();
    // Drops the last turn (its question and everything after) and asks again.
    bool regenerate();
    // Replaces the last question with \a text and asks again.
    bool editLastAndResend(const QString &text);
    // Asks the last question again after a turn that did not answer.
    bool retry();
    QString lastUserText() const;
    // A new, empty conversation (the trace too); refused while a turn runs.
    bool clear();

    // The conversation as a saved session: history, trace, configuration (never the key).
    Transcript toTranscript() const;
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

    TokenUsage turnUsage() const { return m_turnUsage; }
    TokenUsage sessionUsage() const { return m_sessionUsage; }
    // Output tokens of the answer streaming now, estimated at ~4 characters a token until the
    // provider reports the real usage; 0 when nothing streams.
    qint64 streamingTokenEstimate() const { return (m_streamedChars + 3) / 4; }
    // What the turn's and the session's model calls cost, as recorded in their trace nodes.
    CostSum turnCost() const { return m_turnCost; }
    CostSum sessionCost() const { return m_sessionCost; }
    // The current model's context window (the profile's override, else the price table's).
    std::optional<qint64> contextWindow() const { return m_contextWindow; }
    // The last request's tokens as the provider counted them, plus its answer: the history now.
    qint64 contextTokens() const { return m_contextTokens; }
    // ≈ the next request's tokens when \a text is sent now.
    qint64 nextRequestEstimate(const QString &text) const
    {
        return m_contextTokens + ContextGauge::estimateTokens(text);
    }
    int iteration() const { return m_iteration; }
    std::optional<TurnResult> lastResult() const { return m_lastResult; }

signals:
    void providerChanged();
    void providerFailed(const QString &reason);
    void modelsListed(const QStringList &models);
    void modelsListFailed(const QString &reason);
    void busyChanged(bool busy);
    void usageChanged();
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

private:
    void recountFromTrace();
    void useResolvedKey(const ProviderProfile &profile, const ApiKeyResolver::Result &key, int readTimeoutMs);
    void onEvent(const AgentEvent &event);
    void onTurnFinished(const TurnResult &result);
    void applyConfig();
    bool startTurn(const QString &text);
    // Built-in and MCP tools into the workbench, and the MCP tools' approval rules into the policy.
    void rebuildWorkbench();
    // The tools setTools() named, made anew (with the current key's secrets); their names.
    QSet<QString> createBuiltinTools();
    CommandSecrets commandSecrets() const;
    void onMcpServerStateChanged(const QString &name, McpClient::State state);
    // Trace nodes for the MCP start-ups the trace does not show yet, under the running turn.
    void recordMcpStartups();
    void onElicitation(const McpElicitation &request, McpClient::ElicitationReply reply);
    void cancelElicitations();
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

    // One start-up of an MCP server, until the trace shows it.
    struct McpStartup
    {
        qint64 startedUs = 0;
        qint64 endedUs = 0;
        McpClient::State state = McpClient::State::Starting;
        bool recorded = true;
    };

    QNetworkAccessManager *m_network;
    std::unique_ptr<Trace> m_trace;
    std::unique_ptr<Workbench> m_workbench;
    std::unique_ptr<HttpModelClient> m_client;
    std::unique_ptr<ModelClient> m_noProvider;
    std::unique_ptr<Agent> m_agent;
    StepDebugger *m_debugger;
    ToolApprovalPolicy *m_approvals;
    ConversationRows *m_rows;
    McpHub *m_mcp;
    ModelLister *m_modelLister = nullptr; // created at the first listModels()
    QList<std::shared_ptr<const Tool>> m_builtinTools;
    bool m_workbenchStale = false;
    std::optional<ToolApprovalPolicy::Rule> m_mcpApprovalOverride;
    QHash<QString, ToolApprovalPolicy::Rule> m_mcpRules; // as last applied to the policy
    std::optional<QString> m_queuedText;                 // a turn waiting for MCP servers to start
    bool m_queuedStartPosted = false;
    int m_turnNode = -1;
    QHash<QString, McpStartup> m_mcpStartups;
    QHash<int, McpClient::ElicitationReply> m_elicitations;
    int m_nextElicitation = 0;

    std::optional<ProviderProfile> m_profile;
    ProviderEndpoint m_endpoint;
    AgentConfig m_config;
    QStringList m_toolNames;
    QString m_workspaceFolder;
    bool m_fetchAllowsPrivateAddresses = false;
    TokenUsage m_turnUsage;
    TokenUsage m_sessionUsage;
    CostSum m_turnCost;
    CostSum m_sessionCost;
    qint64 m_contextTokens = 0;
    std::optional<qint64> m_contextWindow;
    qint64 m_streamedChars = 0; // of the model call streaming now
    int m_iteration = 0;
    std::optional<TurnResult> m_lastResult;
    QString m_title;
    QDateTime m_created;
    std::optional<SavedRun> m_savedRun;
};

} // namespace Loopscope
