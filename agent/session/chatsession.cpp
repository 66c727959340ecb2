#include "agent/session/chatsession.h"

#include "agent/config/appsettings.h"
#include "agent/config/profilepricing.h"
#include "agent/providers/httpmodelclient.h"
#include "agent/providers/modellister.h"
#include "agent/providers/providerfactory.h"
#include "agent/replay/transcriptfork.h"
#include "agent/tools/builtin/builtintools.h"
#include "agent/tools/builtin/workspace.h"
#include "agent/wire/secretredactor.h"

#include <QDateTime>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QTimer>

#include <utility>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

/*!
    The model client before a provider is chosen: every request fails at once
    with a message that says what to do, so the agent never waits on nothing.
*/
class NoProviderClient final : public ModelClient
{
public:
    using ModelClient::ModelClient;

    void send(const ModelRequest &) override
    {
        // Asynchronous like every client: the agent is still inside send().
        QTimer::singleShot(0, this, [this] {
            emit failed({ModelError::Kind::Protocol, 0,
                         tr("No provider is configured: add one in Settings → Providers.")});
        });
    }
    void cancel() override {}
    QString providerName() const override { return u"none"_s; }
};

} // namespace

ChatSession::ChatSession(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_trace(std::make_unique<Trace>())
    , m_workbench(std::make_unique<Workbench>())
    , m_noProvider(std::make_unique<NoProviderClient>())
    , m_agent(std::make_unique<Agent>(m_noProvider.get(), m_workbench.get(), m_trace.get()))
    , m_debugger(new StepDebugger(this))
    , m_approvals(new ToolApprovalPolicy(this))
    , m_rows(new ConversationRows(this))
    , m_mcp(new McpHub(network, this))
{
    m_rows->setTrace(m_trace.get());
    m_rows->follow(m_agent.get());
    // The debugger first: what it edits is what the user is then asked to approve.
    m_agent->addInterceptor(m_debugger);
    m_agent->addInterceptor(m_approvals);
    connect(m_agent.get(), &Agent::event, this, &ChatSession::onEvent);
    // "Break on error" needs to see the errors.
    connect(m_agent.get(), &Agent::event, m_debugger, &StepDebugger::observe);
    connect(m_agent.get(), &Agent::turnFinished, this, &ChatSession::onTurnFinished);
    connect(m_agent.get(), &Agent::stateChanged, this,
            [this](Agent::State state) { emit busyChanged(state != Agent::State::Idle); });

    m_mcp->setToolTimeoutMs(m_config.toolTimeoutMs);
    connect(m_mcp, &McpHub::toolsChanged, this, [this] {
        // The agent reads the workbench when it builds a request: change it only between iterations.
        if (m_agent->isRunning())
            m_workbenchStale = true;
        else
            rebuildWorkbench();
    });
    connect(m_mcp, &McpHub::serverStateChanged, this, &ChatSession::onMcpServerStateChanged);
    connect(m_mcp, &McpHub::notice, this, [this](const QString &text) {
        m_rows->addNotice(ConversationRow::Notice::Error, text);
        emit notice(text);
    });
    m_mcp->setElicitationHandler([self = QPointer<ChatSession>(this)](const McpElicitation &request,
                                                                      McpClient::ElicitationReply reply) {
        if (self)
            self->onElicitation(request, std::move(reply));
        else
            reply({McpElicitationAnswer::Action::Cancel, {}});
    });
}

ChatSession::~ChatSession()
{
    cancelElicitations();
    // No server outlives the session; a tool call still waiting gets its failure.
    m_mcp->shutdown();
    // The agent goes before the clients and the interceptors it points to.
    m_agent->removeInterceptor(m_approvals);
    m_agent->removeInterceptor(m_debugger);
    m_agent.reset();
}

bool ChatSession::setProvider(const ProviderProfile &profile, const QString &apiKey, int readTimeoutMs)
{
    if (isBusy())
        return false;
    ProviderEndpoint endpoint;
    endpoint.baseUrl = profile.effectiveBaseUrl();
    endpoint.apiKey = apiKey;
    endpoint.readTimeoutMs = readTimeoutMs;
    auto client
        = std::make_unique<HttpModelClient>(m_network, createProviderProtocol(profile.kind), endpoint);
    m_agent->setModelClient(client.get());
    // A listing for another endpoint would offer models this one may not have.
    if (m_modelLister
        && (!m_profile || m_profile->kind != profile.kind || m_endpoint.baseUrl != endpoint.baseUrl))
        m_modelLister->cancel();
    m_endpoint = endpoint;
    m_client = std::move(client);
    m_profile = profile;
    // run_command hides this profile's key from its commands.
    if (!m_builtinTools.isEmpty()) {
        createBuiltinTools();
        rebuildWorkbench();
    }
    applyConfig();
    emit providerChanged();
    return true;
}

bool ChatSession::setModel(const QString &model)
{
    const QString name = model.trimmed();
    if (isBusy() || !m_profile || name.isEmpty())
        return false;
    if (m_profile->model == name)
        return true;
    m_profile->model = name;
    applyConfig();
    emit providerChanged();
    return true;
}

std::optional<RecordedProvider> ChatSession::recordedProvider() const
{
    if (!m_savedRun || m_savedRun->providerKind.isEmpty() || m_savedRun->config.model.model.isEmpty())
        return std::nullopt;
    return RecordedProvider{m_savedRun->providerKind, m_savedRun->baseUrl, m_savedRun->config.model.model};
}

void ChatSession::listModels()
{
    if (!m_profile)
        return;
    if (!m_modelLister) {
        m_modelLister = new ModelLister(m_network, this);
        connect(m_modelLister, &ModelLister::listed, this, &ChatSession::modelsListed);
        connect(m_modelLister, &ModelLister::failed, this, &ChatSession::modelsListFailed);
    }
    m_modelLister->list(m_profile->kind, m_endpoint.baseUrl, m_endpoint.apiKey);
}

void ChatSession::useProfile(const ProviderProfile &profile, SecretStore *secrets, int readTimeoutMs)
{
    ApiKeyResolver(secrets).resolve(profile, this,
                                    [this, profile, readTimeoutMs](const ApiKeyResolver::Result &key) {
                                        useResolvedKey(profile, key, readTimeoutMs);
                                    });
}

void ChatSession::useResolvedKey(const ProviderProfile &profile, const ApiKeyResolver::Result &key,
                                 int readTimeoutMs)
{
    using Status = ApiKeyResolver::Result::Status;
    switch (key.status) {
    case Status::Found:
    case Status::NotNeeded:
        if (!setProvider(profile, key.key, readTimeoutMs))
            emit providerFailed(tr("The provider cannot change while a turn runs."));
        return;
    case Status::EnvironmentUnset:
        emit providerFailed(tr("The environment variable %1 that \"%2\" takes its key from is not set.")
                                .arg(profile.apiKeyEnv, profile.name));
        return;
    case Status::NotStored:
        emit providerFailed(
            tr("No API key is stored for \"%1\": enter one in Settings → Providers.").arg(profile.name));
        return;
    case Status::KeychainUnreadable:
        emit providerFailed(
            tr("The keychain could not give the key for \"%1\": %2").arg(profile.name, key.keychainError));
        return;
    }
}

std::unique_ptr<ModelClient> ChatSession::createModelClient() const
{
    if (!m_profile)
        return nullptr;
    return std::make_unique<HttpModelClient>(m_network, createProviderProtocol(m_profile->kind), m_endpoint);
}

void ChatSession::setAgentConfig(const AgentConfig &config)
{
    m_config = config;
    applyConfig();
}

void ChatSession::applyConfig()
{
    AgentConfig config = m_config;
    if (m_profile) {
        const bool stream = config.model.stream;
        config.model = m_profile->defaults;
        config.model.model = m_profile->model;
        config.model.stream = stream;
    }
    m_agent->setConfig(config);
    // Looked up once per profile and model: the status bar asks for the window on every update.
    if (m_profile) {
        const ProfilePricing pricing(*m_profile, PriceTable::builtIn());
        m_agent->setPriceLookup(pricing.lookup());
        m_contextWindow = pricing.contextWindow(m_profile->model);
    } else {
        m_agent->setPriceLookup({});
        m_contextWindow.reset();
    }
    m_mcp->setToolTimeoutMs(config.toolTimeoutMs);
}

void ChatSession::setTools(const QStringList &names, const QString &workspaceFolder)
{
    m_toolNames = names;
    m_workspaceFolder = workspaceFolder;
    const QSet<QString> taken = createBuiltinTools();
    m_approvals->setWorkspace(Workspace(workspaceFolder));
    m_mcp->setRootFolder(workspaceFolder);
    m_mcp->setBuiltinToolNames(taken);
    if (m_agent->isRunning())
        m_workbenchStale = true;
    else
        rebuildWorkbench();
}

QSet<QString> ChatSession::createBuiltinTools()
{
    m_builtinTools.clear();
    const BuiltinToolContext context{Workspace(m_workspaceFolder), m_network, m_fetchAllowsPrivateAddresses,
                                     commandSecrets()};
    const QStringList known = builtinToolNames();
    QSet<QString> taken;
    for (const QString &name : std::as_const(m_toolNames)) {
        if (known.contains(name) && !taken.contains(name)) {
            m_builtinTools.append(createBuiltinTool(name, context));
            taken.insert(name);
        }
    }
    return taken;
}

CommandSecrets ChatSession::commandSecrets() const
{
    CommandSecrets secrets;
    secrets.hiddenVariables = ApiKeyResolver::keyVariables(m_profile.value_or(ProviderProfile()));
    // The key may have come from the keychain, or be readable some other way than the
    // environment (a file the command prints): its value is blanked wherever it shows.
    SecretRedactor redactor;
    redactor.addSecret(m_endpoint.apiKey);
    for (const QString &name : std::as_const(secrets.hiddenVariables))
        redactor.addSecret(qEnvironmentVariable(name.toLocal8Bit().constData()).trimmed());
    secrets.redact = [redactor](const QString &text) {
        return redactor.text(text);
    };
    return secrets;
}

void ChatSession::setMcpServers(const QList<McpServerConfig> &servers)
{
    m_mcp->setServers(servers);
    // A start-up of a server no longer configured is not shown.
    for (auto it = m_mcpStartups.begin(); it != m_mcpStartups.end();) {
        if (!m_mcp->client(it.key()))
            it = m_mcpStartups.erase(it);
        else
            ++it;
    }
}

void ChatSession::setMcpApprovalOverride(std::optional<ToolApprovalPolicy::Rule> rule)
{
    m_mcpApprovalOverride = rule;
    rebuildWorkbench();
}

void ChatSession::rebuildWorkbench()
{
    m_workbenchStale = false;
    m_workbench->clear();
    for (const auto &tool : std::as_const(m_builtinTools))
        m_workbench->add(tool);
    // Tools still running keep their McpTool alive: the workbench shares them.
    const QList<std::shared_ptr<const Tool>> mcpTools = m_mcp->tools();
    for (const auto &tool : mcpTools) {
        if (!m_workbench->find(tool->name()))
            m_workbench->add(tool);
    }

    // The MCP rules join the user's; a rule the user changed since (always allow) stays until the
    // configuration says otherwise.
    QHash<QString, ToolApprovalPolicy::Rule> mcpRules;
    const QHash<QString, QString> named = m_mcp->approvalRules();
    for (auto it = named.cbegin(); it != named.cend(); ++it) {
        mcpRules.insert(
            it.key(),
            m_mcpApprovalOverride.value_or(
                ToolApprovalPolicy::ruleFromName(it.value()).value_or(ToolApprovalPolicy::Rule::Ask)));
    }
    QHash<QString, ToolApprovalPolicy::Rule> rules = m_approvals->rules();
    for (auto it = m_mcpRules.cbegin(); it != m_mcpRules.cend(); ++it) {
        if (!mcpRules.contains(it.key()))
            rules.remove(it.key());
    }
    for (auto it = mcpRules.cbegin(); it != mcpRules.cend(); ++it) {
        if (!rules.contains(it.key()) || m_mcpRules.value(it.key()) != it.value()
            || !m_mcpRules.contains(it.key()))
            rules.insert(it.key(), it.value());
    }
    m_mcpRules = mcpRules;
    if (rules != m_approvals->rules())
        m_approvals->setRules(rules);
}

void ChatSession::applySettings(const AppSettings &settings)
{
    setAgentConfig(settings.agentConfig());
    setFetchAllowsPrivateAddresses(settings.fetchAllowsPrivateAddresses());
    setTools(settings.enabledTools(), settings.workspaceFolder());
    QHash<QString, ToolApprovalPolicy::Rule> rules;
    const QHash<QString, QString> names = settings.toolApprovalRules();
    for (auto it = names.cbegin(); it != names.cend(); ++it) {
        if (const auto rule = ToolApprovalPolicy::ruleFromName(it.value()))
            rules.insert(it.key(), *rule);
    }
    // The MCP tools' rules are added back.
    m_mcpRules.clear();
    m_approvals->setRules(rules);
    m_approvals->setScopedApprovals(settings.scopedApprovals());
    rebuildWorkbench();
}

bool ChatSession::send(const QString &text)
{
    if (text.trimmed().isEmpty() || isBusy())
        return false;
    if (!m_created.isValid())
        m_created = QDateTime::currentDateTimeUtc();
    // A new conversation is named after its first question.
    if (m_title.isEmpty())
        setTitle(text.simplified().left(80));
    m_turnUsage = {};
    m_turnCost = {};
    m_iteration = 0;
    emit usageChanged();
    // Servers that are down start again; the turn waits for the ones starting so the model sees their tools.
    m_mcp->prepareTurn();
    if (m_mcp->isStarting()) {
        m_queuedText = text;
        emit busyChanged(true);
        return true;
    }
    return startTurn(text);
}

bool ChatSession::startTurn(const QString &text)
{
    m_queuedText.reset();
    m_queuedStartPosted = false;
    rebuildWorkbench();
    const QString contextWarning = ContextGauge::warning(nextRequestEstimate(text), contextWindow());
    if (!m_agent->send(text)) {
        emit busyChanged(isBusy());
        return false;
    }
    // After the user's row, so the notice reads as about this question; the request still goes.
    if (!contextWarning.isEmpty()) {
        m_rows->addNotice(ConversationRow::Notice::Limit, contextWarning);
        emit notice(contextWarning);
    }
    // From now on the session holds a run with the current settings.
    m_savedRun.reset();
    return true;
}

void ChatSession::onMcpServerStateChanged(const QString &name, McpClient::State state)
{
    const qint64 nowUs = QDateTime::currentMSecsSinceEpoch() * 1000;
    if (state == McpClient::State::Starting) {
        m_mcpStartups.insert(name, {nowUs, 0, state, false});
    } else if (auto it = m_mcpStartups.find(name);
               it != m_mcpStartups.end() && it->state == McpClient::State::Starting) {
        if (state == McpClient::State::Stopped) {
            m_mcpStartups.erase(it); // stopped while starting: nothing to show
        } else {
            it->endedUs = nowUs;
            it->state = state;
            if (m_turnNode >= 0)
                recordMcpStartups();
        }
    }
    // The turn that waited goes on once every server is ready or failed; queued, so the client that
    // announced its state is not in the middle of a callback when the turn begins.
    if (m_queuedText && !m_queuedStartPosted && !m_mcp->isStarting()) {
        m_queuedStartPosted = true;
        QTimer::singleShot(0, this, [this] {
            if (m_queuedText)
                startTurn(*m_queuedText);
        });
    }
}

void ChatSession::recordMcpStartups()
{
    if (m_turnNode < 0 || !m_trace->isValid(m_turnNode))
        return;
    for (auto it = m_mcpStartups.begin(); it != m_mcpStartups.end(); ++it) {
        McpStartup &startup = it.value();
        if (startup.recorded || startup.state == McpClient::State::Starting)
            continue;
        startup.recorded = true;
        McpServerData data;
        data.server = it.key();
        McpClient *client = m_mcp->client(it.key());
        if (client && startup.state == McpClient::State::Ready) {
            if (const std::optional<McpStartupInfo> info = client->startupInfo()) {
                QJsonArray exchange;
                for (const QJsonObject &message : info->exchange)
                    exchange.append(message);
                data.startup
                    = {{u"protocolVersion"_s, info->protocolVersion}, {u"discovered"_s, info->discovered},
                       {u"serverInfo"_s, info->serverInfo},           {u"toolCount"_s, info->toolCount},
                       {u"durationMs"_s, info->durationMs},           {u"exchange"_s, exchange}};
                if (!info->instructions.isEmpty())
                    data.startup.insert(u"instructions"_s, info->instructions);
            }
        } else {
            data.error = client ? client->failureReason() : tr("The MCP server was removed.");
            if (client)
                data.stderrTail
                    = client->stderrTail().mid(std::max<qsizetype>(0, client->stderrTail().size() - 20));
        }
        const bool ok = startup.state == McpClient::State::Ready;
        const int node = m_trace->begin(m_turnNode, TraceKind::McpServer, tr("MCP server %1").arg(it.key()),
                                        startup.startedUs, data);
        m_trace->finish(node, ok ? TraceStatus::Ok : TraceStatus::Error, startup.endedUs);
    }
}

void ChatSession::onElicitation(const McpElicitation &request, McpClient::ElicitationReply reply)
{
    const int id = ++m_nextElicitation;
    m_elicitations.insert(id, std::move(reply));
    // The tool that asks waits for a person: its time limit must not run out meanwhile.
    m_agent->pauseToolTimeouts(true);
    emit elicitationRequested(id, request);
}

bool ChatSession::answerElicitation(int id, const McpElicitationAnswer &answer)
{
    const auto it = m_elicitations.find(id);
    if (it == m_elicitations.end())
        return false;
    const McpClient::ElicitationReply reply = it.value();
    m_elicitations.erase(it);
    if (m_elicitations.isEmpty())
        m_agent->pauseToolTimeouts(false);
    if (reply)
        reply(answer);
    emit elicitationSettled(id);
    return true;
}

void ChatSession::cancelElicitations()
{
    const QList<int> ids = m_elicitations.keys();
    for (int id : ids)
        answerElicitation(id, {McpElicitationAnswer::Action::Cancel, {}});
}

void ChatSession::stop()
{
    if (!isBusy())
        return;
    cancelElicitations();
    if (m_queuedText) {
        // The turn had not begun (it waited for MCP servers): it begins and ends as cancelled, so
        // everyone who waits for its end hears of it as of any other.
        const QString text = *m_queuedText;
        m_queuedText.reset();
        m_queuedStartPosted = false;
        rebuildWorkbench();
        if (m_agent->send(text))
            m_savedRun.reset();
    }
    m_agent->cancel();
    // Whatever the debugger or an approval holds belongs to the cancelled turn.
    m_debugger->forgetHeld();
    m_approvals->forgetPending();
}

std::optional<QList<Message>> ChatSession::historyBeforeLastQuestion() const
{
    const QList<Message> &history = m_agent->history();
    for (qsizetype i = history.size() - 1; i >= 0; --i) {
        if (history.at(i).role == Message::Role::User)
            return history.first(i);
    }
    return std::nullopt;
}

QString ChatSession::lastUserText() const
{
    const QList<Message> &history = m_agent->history();
    for (auto it = history.crbegin(); it != history.crend(); ++it) {
        if (it->role == Message::Role::User)
            return it->text;
    }
    return {};
}

bool ChatSession::editLastAndResend(const QString &text)
{
    if (isBusy() || text.trimmed().isEmpty())
        return false;
    const std::optional<QList<Message>> before = historyBeforeLastQuestion();
    if (!before || !m_agent->setHistory(*before))
        return false;
    return send(text);
}

bool ChatSession::regenerate()
{
    return editLastAndResend(lastUserText());
}

bool ChatSession::retry()
{
    // The failed turn left its question (and any tool results) in the history;
    // asking again from before it keeps the conversation clean.
    return regenerate();
}

Transcript ChatSession::toTranscript() const
{
    Transcript transcript;
    transcript.title = m_title;
    transcript.created = m_created.isValid() ? m_created : QDateTime::currentDateTimeUtc();
    if (m_savedRun) {
        transcript.updated = m_savedRun->updated;
        transcript.providerKind = m_savedRun->providerKind;
        transcript.baseUrl = m_savedRun->baseUrl;
        transcript.config = m_savedRun->config;
        transcript.tools = m_savedRun->tools;
    } else {
        transcript.updated = QDateTime::currentDateTimeUtc();
        if (m_profile) {
            transcript.providerKind = providerKindName(m_profile->kind);
            transcript.baseUrl = m_profile->effectiveBaseUrl();
        }
        transcript.config = m_agent->config();
        transcript.tools = m_workbench->names();
    }
    transcript.messages = m_agent->history();
    transcript.trace = m_trace->toJson();
    return transcript;
}

bool ChatSession::restore(const Transcript &transcript, QString *error)
{
    // Read before anything changes, so a bad file leaves the conversation as it was.
    QString traceError;
    std::optional<TraceForest> trace = Trace::readJson(transcript.trace, &traceError);
    if (!trace) {
        if (error)
            *error = tr("The session's trace is malformed: %1").arg(traceError);
        return false;
    }
    return restore(transcript, std::move(*trace), error);
}

bool ChatSession::restore(const Transcript &transcript, TraceForest trace, QString *error)
{
    if (isBusy()) {
        if (error)
            *error = tr("A turn is running; stop it before opening another session.");
        return false;
    }
    m_agent->setHistory(transcript.messages);
    // Sessions recorded before costs were kept are priced now, by today's table.
    fillMissingCosts(trace, recordedPriceLookup(transcript.providerKind, transcript.baseUrl));
    m_trace->assign(std::move(trace));
    m_rows->showHistory(m_agent->history());
    m_title = transcript.title;
    m_created = transcript.created;
    m_savedRun
        = SavedRun{transcript.providerKind, transcript.baseUrl, transcript.config, transcript.tools,
                   transcript.updated.isValid() ? transcript.updated : QDateTime::currentDateTimeUtc()};
    recountFromTrace();
    m_iteration = 0;
    m_lastResult.reset();
    emit usageChanged();
    emit titleChanged(m_title);
    emit restored();
    return true;
}

int ChatSession::turnIndexAt(int traceNode) const
{
    const QList<int> &roots = m_trace->roots();
    if (!m_trace->isValid(traceNode))
        return int(roots.size()) - 1;
    while (m_trace->node(traceNode).parent >= 0)
        traceNode = m_trace->node(traceNode).parent;
    return int(roots.indexOf(traceNode));
}

const IterationData *ChatSession::enclosingIteration(int traceNode) const
{
    for (int node = traceNode; m_trace->isValid(node); node = m_trace->node(node).parent) {
        if (const auto *iteration = std::get_if<IterationData>(&m_trace->node(node).payload))
            return iteration;
    }
    return nullptr;
}

std::optional<Transcript> ChatSession::forkAt(int traceNode, QString *error) const
{
    const int turn = turnIndexAt(traceNode);
    if (turn < 0) {
        *error = tr("There is nothing to fork yet.");
        return std::nullopt;
    }
    const Transcript transcript = toTranscript();
    QString reason;
    std::optional<Transcript> fork;
    // A step inside an iteration (a model or tool call, picked in the trace or
    // as its message in the chat) forks after that whole iteration.
    if (const IterationData *iteration = enclosingIteration(traceNode)) {
        fork = TranscriptFork::forkAtIteration(transcript, turn, iteration->number, &reason);
    } else {
        const QList<TurnSpan> spans = TranscriptFork::turnSpans(transcript);
        if (turn < spans.size())
            fork = TranscriptFork::fork(transcript, spans.at(turn).endMessage, &reason);
        else
            reason = tr("the turn is not in the conversation");
    }
    if (!fork)
        *error = tr("Cannot fork here: %1").arg(reason);
    return fork;
}

std::optional<RecordedTurn> ChatSession::recordedTurnAt(int traceNode, QString *error) const
{
    QString reason;
    const std::optional<QList<RecordedTurn>> turns = RecordedTurn::fromTranscript(toTranscript(), &reason);
    if (!turns) {
        *error = tr("Cannot replay: %1").arg(reason);
        return std::nullopt;
    }
    const int index = turnIndexAt(traceNode);
    if (index < 0 || index >= turns->size()) {
        *error = tr("There is no turn to replay yet.");
        return std::nullopt;
    }
    return turns->at(index);
}

ReplayWorkbench::ToolProvider ChatSession::replayTools() const
{
    return ReplayWorkbench::builtinTools(Workspace(m_workspaceFolder));
}

void ChatSession::setTitle(const QString &title)
{
    if (m_title == title)
        return;
    m_title = title;
    emit titleChanged(m_title);
}

bool ChatSession::clear()
{
    if (isBusy())
        return false;
    cancelElicitations();
    m_agent->setHistory({});
    m_trace->clear();
    m_rows->clear();
    m_title.clear();
    m_created = {};
    m_savedRun.reset();
    emit titleChanged(m_title);
    recountFromTrace();
    m_iteration = 0;
    m_lastResult.reset();
    emit usageChanged();
    emit cleared();
    return true;
}

// The status bar's figures for a trace that did not grow under our eyes (opened, cleared).
void ChatSession::recountFromTrace()
{
    m_turnUsage = {};
    m_turnCost = {};
    m_sessionUsage = {};
    m_sessionCost = Loopscope::sessionCost(*m_trace);
    m_contextTokens = 0;
    for (int root : m_trace->roots()) {
        if (const auto *turn = std::get_if<TurnData>(&m_trace->node(root).payload))
            m_sessionUsage += turn->usage;
    }
    // The last answered request is what the next one builds on.
    for (int id = m_trace->size() - 1; id >= 0; --id) {
        const auto *call = std::get_if<ModelCallData>(&m_trace->node(id).payload);
        if (call && !call->response.usage.isEmpty()) {
            m_contextTokens = call->response.usage.inputTokens + call->response.usage.outputTokens;
            break;
        }
    }
}

void ChatSession::onEvent(const AgentEvent &event)
{
    switch (event.kind) {
    case AgentEvent::Kind::TurnStarted:
        m_turnNode = event.traceNode;
        recordMcpStartups();
        break;
    case AgentEvent::Kind::IterationStarted: {
        // Between iterations: no call runs, and this iteration's request is not built yet.
        if (m_workbenchStale)
            rebuildWorkbench();
        m_iteration = event.iteration;
        const auto *started = event.payloadAs<IterationStartedInfo>();
        emit iterationChanged(m_iteration, started ? started->maxIterations : m_config.maxIterations);
        break;
    }
    case AgentEvent::Kind::TextDelta: {
        const qint64 before = streamingTokenEstimate();
        m_streamedChars += event.text.size();
        if (streamingTokenEstimate() != before)
            emit usageChanged();
        break;
    }
    case AgentEvent::Kind::ModelResponse: {
        const auto *response = event.payloadAs<ModelResponseInfo>();
        const TokenUsage usage = response ? response->usage : TokenUsage{};
        m_streamedChars = 0; // the real count replaces the estimate
        m_turnUsage += usage;
        m_sessionUsage += usage;
        if (!usage.isEmpty())
            m_contextTokens = usage.inputTokens + usage.outputTokens;
        if (m_trace->isValid(event.traceNode)) {
            const CostSum cost = traceCost(*m_trace, event.traceNode);
            m_turnCost += cost;
            m_sessionCost += cost;
        }
        emit usageChanged();
        break;
    }
    default: break;
    }
}

void ChatSession::onTurnFinished(const TurnResult &result)
{
    m_lastResult = result;
    m_turnNode = -1;
    if (std::exchange(m_streamedChars, 0) > 0) // a failed or cancelled call never reported usage
        emit usageChanged();
    cancelElicitations();
    if (m_workbenchStale)
        rebuildWorkbench();
    m_debugger->forgetHeld();
    m_approvals->forgetPending();
}

} // namespace Loopscope
