#include "agent/session/chatsession.h"

#include "agent/config/appsettings.h"
#include "agent/providers/httpmodelclient.h"
#include "agent/providers/providerfactory.h"
#include "agent/replay/transcriptfork.h"
#include "agent/tools/builtin/builtintools.h"
#include "agent/tools/builtin/workspace.h"

#include <QTimer>

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
}

ChatSession::~ChatSession()
{
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
    m_endpoint = endpoint;
    m_client = std::move(client);
    m_profile = profile;
    applyConfig();
    emit providerChanged();
    return true;
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
}

void ChatSession::setTools(const QStringList &names, const QString &workspaceFolder)
{
    m_workbench->clear();
    m_workspaceFolder = workspaceFolder;
    const Workspace workspace(workspaceFolder);
    const QStringList known = builtinToolNames();
    for (const QString &name : names) {
        if (known.contains(name))
            m_workbench->add(createBuiltinTool(name, workspace));
    }
}

void ChatSession::applySettings(const AppSettings &settings)
{
    setAgentConfig(settings.agentConfig());
    setTools(settings.enabledTools(), settings.workspaceFolder());
    QHash<QString, ToolApprovalPolicy::Rule> rules;
    const QHash<QString, QString> names = settings.toolApprovalRules();
    for (auto it = names.cbegin(); it != names.cend(); ++it) {
        if (const auto rule = ToolApprovalPolicy::ruleFromName(it.value()))
            rules.insert(it.key(), *rule);
    }
    m_approvals->setRules(rules);
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
    m_iteration = 0;
    emit usageChanged();
    if (!m_agent->send(text))
        return false;
    // From now on the session holds a run with the current settings.
    m_savedRun.reset();
    return true;
}

void ChatSession::stop()
{
    if (!isBusy())
        return;
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
    m_trace->assign(std::move(trace));
    m_rows->showHistory(m_agent->history());
    m_title = transcript.title;
    m_created = transcript.created;
    m_savedRun
        = SavedRun{transcript.providerKind, transcript.baseUrl, transcript.config, transcript.tools,
                   transcript.updated.isValid() ? transcript.updated : QDateTime::currentDateTimeUtc()};
    m_turnUsage = {};
    m_sessionUsage = {};
    for (int root : m_trace->roots()) {
        if (const auto *turn = std::get_if<TurnData>(&m_trace->node(root).payload))
            m_sessionUsage += turn->usage;
    }
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
    m_agent->setHistory({});
    m_trace->clear();
    m_rows->clear();
    m_title.clear();
    m_created = {};
    m_savedRun.reset();
    emit titleChanged(m_title);
    m_turnUsage = {};
    m_sessionUsage = {};
    m_iteration = 0;
    m_lastResult.reset();
    emit usageChanged();
    emit cleared();
    return true;
}

void ChatSession::onEvent(const AgentEvent &event)
{
    switch (event.kind) {
    case AgentEvent::Kind::IterationStarted: {
        m_iteration = event.iteration;
        const auto *started = event.payloadAs<IterationStartedInfo>();
        emit iterationChanged(m_iteration, started ? started->maxIterations : m_config.maxIterations);
        break;
    }
    case AgentEvent::Kind::ModelResponse: {
        const auto *response = event.payloadAs<ModelResponseInfo>();
        const TokenUsage usage = response ? response->usage : TokenUsage{};
        m_turnUsage += usage;
        m_sessionUsage += usage;
        emit usageChanged();
        break;
    }
    default: break;
    }
}

void ChatSession::onTurnFinished(const TurnResult &result)
{
    m_lastResult = result;
    m_debugger->forgetHeld();
    m_approvals->forgetPending();
}

} // namespace Loopscope
