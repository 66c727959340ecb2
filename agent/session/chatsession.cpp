#include "agent/session/chatsession.h"

#include "agent/config/apikeyresolver.h"
#include "agent/config/profilepricing.h"
#include "agent/knowledge/knowledgesearchtool.h"
#include "agent/loop/subagenttool.h"
#include "agent/loop/turnnotices.h"
#include "agent/model/modelimages.h"
#include "agent/providers/providerkind.h"
#include "agent/replay/transcriptfork.h"
#include "agent/session/contextgauge.h"
#include "agent/session/knowledgecontextsource.h"
#include "agent/session/mcpbridge.h"
#include "agent/session/providerbinding.h"
#include "agent/session/sessionteam.h"
#include "agent/tools/builtin/builtintools.h"
#include "agent/tools/builtin/workspace.h"
#include "agent/tools/functiontool.h"
#include "agent/trace/trace.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QTimer>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

using namespace Qt::StringLiterals;

namespace Loopscope {

ChatSession::ChatSession(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , m_network(network)
    , m_trace(std::make_unique<Trace>())
    , m_workbench(std::make_unique<Workbench>())
    , m_binding(new ProviderBinding(network, this))
    , m_agent(std::make_unique<Agent>(m_binding->client(), m_workbench.get(), m_trace.get()))
    , m_debugger(new StepDebugger(this))
    , m_approvals(new ToolApprovalPolicy(this))
    , m_rows(new ConversationRows(this))
    , m_mcp(new McpBridge(network, m_agent.get(), m_trace.get(), m_approvals, this))
    , m_usage(new SessionUsage(m_trace.get(), this))
{
    m_team = std::make_unique<SessionTeam>(
        &m_setup.agents,
        [this](const AgentPreset &agent) {
            // An agent on a profile of its own runs with that profile's model (unless it names one),
            // sampling defaults and context window, not the session's.
            if (const auto own = m_setup.providerOf(agent); own && own->isUsable()) {
                ProviderProfile profile = own->profile;
                profile.model = agent.model.value_or(profile.model);
                return agent.configOver(m_binding->configOn(profile, m_setup.loop));
            }
            return agent.configOver(m_binding->configFor(m_setup.loop));
        },
        [this](Workbench &workbench, const AgentPreset &agent) {
            equipWorkbench(workbench, &agent,
                           builtinTools(agent.tools.value_or(m_setup.tools.names),
                                        m_setup.knowledgeOf(&agent), nullptr));
        },
        [this](const AgentPreset &agent) {
            if (const auto own = m_setup.providerOf(agent))
                return m_binding->createClientFor(*own);
            return m_binding->createModelClient();
        });
    // A model shield on a profile of its own asks that profile, with its key, as an agent on it does.
    m_team->setProfileClients([this](const QString &profile) -> AgentTeam::ProfileClient {
        const auto own = m_setup.agentProviders.constFind(profile);
        if (own == m_setup.agentProviders.cend()) {
            return {
                ProviderBinding::refusingClient(
                    profile, tr("The provider profile \"%1\" does not exist: add it in Settings → Providers, "
                                "or choose another for the model shield.")
                                 .arg(profile)),
                {}};
        }
        return {m_binding->createClientFor(*own), own->profile.model,
                ProfilePricing(own->profile, PriceTable::builtIn()).lookup()};
    });
    // An agent on a profile of its own: its calls cost what that profile's cost (0 on a local server).
    m_team->setPrices([this](const AgentPreset &agent) -> PriceLookup {
        const auto own = m_setup.providerOf(agent);
        return own ? ProfilePricing(own->profile, PriceTable::builtIn()).lookup() : PriceLookup{};
    });
    m_agent->setTeam(m_team.get());
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

    connect(m_binding, &ProviderBinding::modelsListed, this, &ChatSession::modelsListed);
    connect(m_binding, &ProviderBinding::modelsListFailed, this, &ChatSession::modelsListFailed);
    connect(m_binding, &ProviderBinding::contextWindowSettled, this, [this] {
        applyLoop();
        emit contextWindowChanged();
        // A turn that waited for the window goes on, unless MCP servers still start (they say when).
        if (!m_mcp->isStarting())
            startQueuedTurn();
    });
    connect(m_usage, &SessionUsage::changed, this, &ChatSession::usageChanged);
    connect(m_usage, &SessionUsage::iterationChanged, this, &ChatSession::iterationChanged);

    m_mcp->hub()->setToolTimeoutMs(m_setup.loop.toolTimeoutMs);
    connect(m_mcp, &McpBridge::toolsChanged, this, &ChatSession::rebuildWorkbenchBetweenIterations);
    connect(m_mcp, &McpBridge::notice, this, &ChatSession::addNotice);
    connect(m_mcp, &McpBridge::elicitationRequested, this, &ChatSession::elicitationRequested);
    connect(m_mcp, &McpBridge::elicitationSettled, this, &ChatSession::elicitationSettled);
    connect(m_mcp, &McpBridge::samplingRequested, this, &ChatSession::samplingRequested);
    connect(m_mcp, &McpBridge::samplingSettled, this, &ChatSession::samplingSettled);
    // A server's model call runs on the session's provider, on a client of its own.
    m_mcp->setSamplingClients([this] { return m_binding->createModelClient(); });
    connect(m_mcp, &McpBridge::startupsSettled, this, &ChatSession::startQueuedTurn);
}

ChatSession::~ChatSession()
{
    m_mcp->cancelElicitations();
    m_mcp->cancelSamplings(); // while the agent whose tool timeouts they paused is still there
    // No server outlives the session; a tool call still waiting gets its failure.
    m_mcp->hub()->shutdown();
    // The agent goes before the clients and the interceptors it points to.
    m_agent->removeInterceptor(m_approvals);
    m_agent->removeInterceptor(m_debugger);
    m_agent.reset();
}

McpHub *ChatSession::mcp() const
{
    return m_mcp->hub();
}

bool ChatSession::answerElicitation(int id, const McpElicitationAnswer &answer)
{
    return m_mcp->answerElicitation(id, answer);
}

bool ChatSession::answerSampling(int id, const McpSamplingDecision &decision)
{
    return m_mcp->answerSampling(id, decision);
}

QString ChatSession::samplingModel() const
{
    return m_mcp->samplingModel();
}

void ChatSession::apply(const SessionSetup &setup)
{
    // What the window names as the next turn's provider and model, to say when another agent changes it.
    const auto namedBefore = std::pair(nextTurnProvider(), providerAgent());
    bool providerAnnounced = false;
    // Before the provider: its loop options say whether the provider is asked for the model's
    // window (not when --context-window gives one).
    m_setup.loop = setup.loop;
    m_setup.agents = setup.agents;
    m_setup.agent = setup.agent;
    m_setup.agentProviders = setup.agentProviders;
    m_setup.sessionPrompt = setup.sessionPrompt;
    if (setup.provider != m_setup.provider) {
        providerAnnounced = true;
        if (!applyProvider(setup.provider)) {
            emit providerFailed(tr("The provider cannot change while a turn runs."));
        } else if (m_profileAwaitingKey) {
            // This provider is newer than the profile whose key is still being read.
            ++m_profileGeneration;
            m_profileAwaitingKey.reset();
            QTimer::singleShot(0, this, &ChatSession::startTurnThatWaitedForTheKey);
        }
    } else if (!m_agent->isRunning() && m_setup.boundProvider() != m_binding->provider()) {
        // Another agent, or its profile, for the next turn: its own provider or the session's again.
        bindProvider();
        emit providerChanged();
        providerAnnounced = true;
    }
    // Another agent on the same client may still name another model or agent (an agent's own model).
    if (!providerAnnounced && std::pair(nextTurnProvider(), providerAgent()) != namedBefore)
        emit providerChanged();
    const bool serversChanged = setup.mcpServers != m_setup.mcpServers
                                || setup.limits.maxResponseBytes != m_setup.limits.maxResponseBytes;
    m_setup.tools = setup.tools;
    m_setup.mcpServers = setup.mcpServers;
    m_setup.knowledge = setup.knowledge;
    m_setup.agentKnowledge = setup.agentKnowledge;
    m_setup.retrieveBeforeTurn = setup.retrieveBeforeTurn;
    // Retrieval runs once, before the first inference, so the agent the turn starts as decides which
    // bases are searched (its own, the session's, or none); a handoff later in the turn changes only
    // what knowledge_search offers.
    const QList<AttachedKnowledgeBase> retrieved = m_setup.knowledgeOf(m_setup.activeAgent());
    m_agent->setContextSource(m_setup.retrieveBeforeTurn && !retrieved.isEmpty()
                                  ? std::make_shared<KnowledgeContextSource>(retrieved)
                                  : nullptr);
    m_setup.approvals = setup.approvals;
    m_setup.limits = setup.limits;
    m_binding->setLimits(m_setup.limits);
    applyTools();
    applyLoop();
    applyApprovals();
    if (serversChanged)
        m_mcp->setServers(m_setup.mcpServers, m_setup.limits.maxResponseBytes);
    rebuildWorkbenchBetweenIterations();
}

bool ChatSession::applyProvider(const std::optional<SessionSetup::Provider> &provider)
{
    // A turn that has not begun (waiting for a key or MCP servers) goes to the provider applied now.
    if (m_agent->isRunning())
        return false;
    m_setup.provider = provider;
    bindProvider();
    emit providerChanged();
    return true;
}

void ChatSession::bindProvider()
{
    const std::unique_ptr<ModelClient> previous = m_binding->bind(m_setup.boundProvider());
    m_agent->setModelClient(m_binding->client());
    // run_command hides every key of the session from its commands, this provider's among them.
    if (!m_builtinTools.isEmpty()) {
        createBuiltinTools();
        rebuildWorkbench();
    }
    applyLoop();
}

void ChatSession::applyTools()
{
    const QSet<QString> taken = createBuiltinTools();
    m_approvals->setWorkspace(Workspace(m_setup.tools.workspace));
    m_mcp->hub()->setRootFolder(m_setup.tools.workspace);
    m_mcp->hub()->setBuiltinToolNames(taken);
}

void ChatSession::rebuildWorkbenchBetweenIterations()
{
    // The agent reads the workbench when it builds a request: change it only between iterations.
    if (m_agent->isRunning())
        m_workbenchStale = true;
    else
        rebuildWorkbench();
}

AgentConfig ChatSession::agentConfig() const
{
    const AgentPreset *agent = m_setup.activeAgent();
    AgentConfig config = agent ? agent->configOver(m_setup.loop) : m_setup.loop;
    if (m_setup.sessionPrompt)
        config.systemPrompt = *m_setup.sessionPrompt;
    return config;
}

void ChatSession::applyLoop()
{
    AgentConfig config = m_binding->configFor(m_setup.loop);
    if (const AgentPreset *agent = m_setup.activeAgent())
        config = agent->configOver(config);
    // This session's own prompt is for the agent the turns start with, not for those it hands over to.
    if (m_setup.sessionPrompt)
        config.systemPrompt = *m_setup.sessionPrompt;
    m_agent->setConfig(config);
    m_agent->setPriceLookup(m_binding->priceLookup());
    // A window the loop was given wins: the provider need not be asked.
    if (!m_setup.loop.model.contextWindow)
        m_binding->lookUpContextWindow();
    m_mcp->hub()->setToolTimeoutMs(config.toolTimeoutMs);
}

void ChatSession::applyApprovals()
{
    const SessionSetup::Approvals &approvals = m_setup.approvals;
    if (approvals.defaultRule)
        m_approvals->setDefaultRule(*approvals.defaultRule);
    m_approvals->setNeverReason(approvals.neverReason);
    // The MCP tools' rules are added back.
    m_mcp->forgetMergedRules();
    m_mcp->setApprovalOverride(approvals.mcpOverride);
    m_approvals->setRules(approvals.rules);
    m_approvals->setScopedApprovals(approvals.scoped);
}

void ChatSession::useProfile(const ProviderProfile &profile, SecretStore *secrets, int readTimeoutMs)
{
    // Until the key is known, a turn waits for it (send()): it never goes out over the profile used
    // before. A newer choice wins over an older one whose key is still being read.
    const int generation = ++m_profileGeneration;
    m_profileAwaitingKey = profile;
    ApiKeyResolver(secrets).resolve(
        profile, this, [this, generation, profile, readTimeoutMs](const ApiKeyResolver::Result &key) {
            if (generation != m_profileGeneration)
                return;
            m_profileAwaitingKey.reset();
            const SessionSetup::Provider provider = SessionSetup::providerFor(profile, key, readTimeoutMs);
            if (!applyProvider(provider))
                emit providerFailed(tr("The provider cannot change while a turn runs."));
            else if (!provider.isUsable())
                emit providerFailed(provider.keyProblem);
            startTurnThatWaitedForTheKey();
        });
}

void ChatSession::startTurnThatWaitedForTheKey()
{
    if (!m_queuedText || m_queuedStartPosted)
        return;
    // It may still wait for MCP servers: startupsSettled() then starts it.
    if (!m_mcp->prepareTurn())
        startQueuedTurn();
}

std::optional<ProviderProfile> ChatSession::provider() const
{
    if (!m_setup.provider)
        return std::nullopt;
    return m_setup.provider->profile;
}

QString ChatSession::providerAgent() const
{
    const AgentPreset *agent = m_setup.activeAgent();
    return agent && agent->provider ? agent->name : QString();
}

std::optional<ProviderProfile> ChatSession::nextTurnProvider() const
{
    return providerOfAgent(m_setup.agent);
}

std::optional<ProviderProfile> ChatSession::providerOfAgent(const QString &name) const
{
    const AgentPreset *agent = name.isEmpty() ? nullptr : m_setup.agents.find(name);
    if (!agent)
        return provider();
    const std::optional<SessionSetup::Provider> own = m_setup.providerOf(*agent);
    std::optional<ProviderProfile> profile = own ? std::optional(own->profile) : provider();
    // As the team and applyLoop() configure it: the agent's model, else its profile's.
    if (profile && agent->model)
        profile->model = *agent->model;
    return profile;
}

QString ChatSession::nextTurnProviderProblem() const
{
    const std::optional<SessionSetup::Provider> bound = m_setup.boundProvider();
    return bound ? bound->keyProblem : QString();
}

bool ChatSession::setModel(const QString &model)
{
    const QString name = model.trimmed();
    if (isBusy() || !m_setup.provider || name.isEmpty())
        return false;
    if (m_setup.provider->profile.model == name)
        return true;
    m_binding->setModel(name);
    m_setup.provider->profile.model = name;
    applyLoop();
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
    m_binding->listModels();
}

std::unique_ptr<ModelClient> ChatSession::createModelClient() const
{
    return m_binding->createModelClient();
}

std::optional<qint64> ChatSession::contextWindow() const
{
    // During a turn, the window of the agent answering: after a handoff to an agent on a profile of
    // its own, its model's.
    if (m_agent->isRunning())
        return m_agent->config().model.contextWindow;
    return m_binding->contextWindow();
}

void ChatSession::setContextWindowLookupTimeoutMs(int timeoutMs)
{
    m_binding->setContextWindowTimeoutMs(timeoutMs);
}

QSet<QString> ChatSession::createBuiltinTools()
{
    // An agent that names its tools runs with those instead of the session's.
    const AgentPreset *agent = m_setup.activeAgent();
    QSet<QString> taken;
    m_builtinTools = builtinTools(agent && agent->tools ? *agent->tools : m_setup.tools.names,
                                  m_setup.knowledgeOf(agent), &taken);
    return taken;
}

QList<std::shared_ptr<const Tool>> ChatSession::builtinTools(const QStringList &names,
                                                             const QList<AttachedKnowledgeBase> &knowledge,
                                                             QSet<QString> *taken) const
{
    const BuiltinToolContext context{Workspace(m_setup.tools.workspace), m_network,
                                     m_setup.tools.fetchPrivate, m_setup.commandSecrets()};
    const QStringList known = builtinToolNames();
    QSet<QString> made;
    QList<std::shared_ptr<const Tool>> tools;
    for (const QString &name : names) {
        if (known.contains(name) && !made.contains(name)) {
            tools.append(createBuiltinTool(name, context));
            made.insert(name);
        }
    }
    // The agent's knowledge bases (the session's unless it names its own).
    if (!knowledge.isEmpty()) {
        tools.append(std::make_shared<KnowledgeSearchTool>(knowledge));
        made.insert(QString(KnowledgeSearchTool::Name));
    }
    if (taken)
        *taken = made;
    return tools;
}

void ChatSession::rebuildWorkbench()
{
    m_workbenchStale = false;
    m_workbench->clear();
    equipWorkbench(*m_workbench, m_setup.activeAgent(), m_builtinTools);
    // An agent the turn was handed to (or a sub-agent) sees a changed tool list from its next iteration too.
    m_team->reequip();
    m_mcp->mergeApprovalRules();
}

void ChatSession::equipWorkbench(Workbench &workbench, const AgentPreset *agent,
                                 const QList<std::shared_ptr<const Tool>> &builtins) const
{
    for (const auto &tool : builtins)
        workbench.add(tool);
    // Tools still running keep their McpTool alive: the workbench shares them. An agent that names a
    // server ("mcp:files") gets whatever that server offers now, so also tools added by list_changed.
    const McpHub *hub = m_mcp->hub();
    const QList<std::shared_ptr<const Tool>> mcpTools = hub->tools();
    for (const auto &tool : mcpTools) {
        const std::optional<McpHub::ToolRef> source = hub->resolve(tool->name());
        const bool offered
            = !agent || agent->offersMcpTool(source ? source->server : QString(), tool->name());
        if (offered && !workbench.find(tool->name()))
            workbench.add(tool);
    }
    if (agent) {
        for (const QString &target : agent->handoffs)
            workbench.add(std::make_shared<HandoffTool>(target));
        // A sub-agent's calls belong to the session's turn: its agent runs them and says what they do.
        for (const QString &subagent : agent->subagents)
            workbench.add(std::make_shared<SubAgentTool>(subagent, m_agent.get()));
    }
}

void ChatSession::makeWorkspaceOnFirstUse()
{
    const SessionSetup::Tools &tools = m_setup.tools;
    if (!tools.makeWorkspace || tools.workspace.isEmpty() || QFileInfo(tools.workspace).isDir()
        || std::none_of(tools.names.cbegin(), tools.names.cend(), builtinToolUsesWorkspace)) {
        return;
    }
    errno = 0;
    if (QDir().mkpath(tools.workspace))
        return;
    const int cause = errno;
    addNotice(tr("Could not make the workspace folder \"%1\"%2. The file tools cannot work until it exists "
                 "or another folder is chosen in Settings → Tools.")
                  .arg(QDir::toNativeSeparators(tools.workspace),
                       cause != 0 ? u": "_s + QString::fromLocal8Bit(std::strerror(cause)) : QString()));
}

void ChatSession::addNotice(const QString &text)
{
    m_rows->addNotice(ConversationRow::Notice::Error, text);
    emit notice(text);
}

QString ChatSession::imageRefusal(const QList<Attachment> &attachments) const
{
    const bool anyImage = std::any_of(attachments.cbegin(), attachments.cend(),
                                      [](const Attachment &attachment) { return attachment.isImage(); });
    if (!anyImage || !m_setup.provider)
        return {};
    const QString provider = providerKindName(m_setup.provider->profile.kind);
    const QString model = m_agent->config().model.model;
    if (!ModelImages::knownTextOnly(provider, model))
        return {};
    return tr("The model %1 is known to read text only, and the message has an image: choose a model "
              "that reads images, leave the image out, or send it anyway.")
        .arg(model);
}

bool ChatSession::send(const QString &text, const QList<Attachment> &attachments, ImageCheck check)
{
    if (text.trimmed().isEmpty() || isBusy())
        return false;
    if (check == ImageCheck::RefuseForTextOnlyModels) {
        if (const QString refusal = imageRefusal(attachments); !refusal.isEmpty()) {
            emit notice(refusal);
            return false;
        }
    }
    if (!m_created.isValid())
        m_created = QDateTime::currentDateTimeUtc();
    // A new conversation is named after its first question.
    if (m_title.isEmpty())
        setTitle(text.simplified().left(80));
    m_usage->startTurn();
    // The chosen profile's key is still being read: the turn is for that profile, so it waits.
    if (m_profileAwaitingKey) {
        m_queuedText = text;
        m_queuedAttachments = attachments;
        emit busyChanged(true);
        return true;
    }
    // Servers that are down start again; the turn waits for the ones starting so the model sees their
    // tools. It also waits for the provider to say the model's window (bounded by the lookup's short
    // timeout): the first request is fitted to it, and Ollama is sent it as num_ctx.
    const bool serversStarting = m_mcp->prepareTurn();
    if (serversStarting || m_binding->isLookingUpContextWindow()) {
        m_queuedText = text;
        m_queuedAttachments = attachments;
        emit busyChanged(true);
        return true;
    }
    return startTurn(text, attachments);
}

void ChatSession::startQueuedTurn()
{
    // The turn that waited goes on once every server is ready or failed; queued, so the client that
    // announced its state is not in the middle of a callback when the turn begins.
    if (!m_queuedText || m_queuedStartPosted || m_profileAwaitingKey || m_binding->isLookingUpContextWindow())
        return;
    m_queuedStartPosted = true;
    QTimer::singleShot(0, this, [this] {
        if (m_queuedText) {
            // A copy: startTurn() forgets the queued text before the agent reads it.
            const QString text = *m_queuedText;
            startTurn(text, std::exchange(m_queuedAttachments, {}));
        }
    });
}

bool ChatSession::startTurn(const QString &text, const QList<Attachment> &attachments)
{
    m_queuedText.reset();
    m_queuedStartPosted = false;
    makeWorkspaceOnFirstUse();
    rebuildWorkbench();
    // Said when the turn starts (noteContextWarning()), before anything the turn does.
    m_pendingContextWarning
        = ContextGauge::warning(m_usage->nextRequestEstimate(text, attachments), contextWindow());
    const bool started = m_agent->send(text, attachments);
    m_pendingContextWarning.clear();
    if (!started) {
        emit busyChanged(isBusy());
        return false;
    }
    // From now on the session holds a run with the current settings.
    m_savedRun.reset();
    return true;
}

void ChatSession::stop()
{
    if (!isBusy())
        return;
    m_mcp->cancelElicitations();
    // While the chosen profile's key is read, the cancelled turn reaches no provider at all.
    std::unique_ptr<ModelClient> standIn;
    if (m_queuedText) {
        // The turn had not begun (it waited for MCP servers or a key): it begins and ends as
        // cancelled, so everyone who waits for its end hears of it as of any other.
        const QString text = *m_queuedText;
        const QList<Attachment> attachments = std::exchange(m_queuedAttachments, {});
        m_queuedText.reset();
        m_queuedStartPosted = false;
        rebuildWorkbench();
        if (m_profileAwaitingKey) {
            standIn = ProviderBinding::refusingClient(providerKindName(m_profileAwaitingKey->kind),
                                                      tr("Stopped before the key was read."));
            m_agent->setModelClient(standIn.get());
        }
        if (m_agent->send(text, attachments))
            m_savedRun.reset();
    }
    m_agent->cancel();
    if (standIn)
        m_agent->setModelClient(m_binding->client());
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

QList<Attachment> ChatSession::lastUserAttachments() const
{
    const QList<Message> &history = m_agent->history();
    for (auto it = history.crbegin(); it != history.crend(); ++it) {
        if (it->role == Message::Role::User)
            return it->attachments;
    }
    return {};
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

bool ChatSession::editLastAndResend(const QString &text, const QList<Attachment> &attachments,
                                    ImageCheck check)
{
    if (isBusy() || text.trimmed().isEmpty())
        return false;
    // Refused before the history changes: the question it would replace stays.
    if (check == ImageCheck::RefuseForTextOnlyModels) {
        if (const QString refusal = imageRefusal(attachments); !refusal.isEmpty()) {
            emit notice(refusal);
            return false;
        }
    }
    const std::optional<QList<Message>> before = historyBeforeLastQuestion();
    if (!before || !m_agent->setHistory(*before))
        return false;
    return send(text, attachments, ImageCheck::SendAnyway);
}

bool ChatSession::regenerate()
{
    // The question goes again as it went, with its files: the user chose to send them once already.
    return editLastAndResend(lastUserText(), lastUserAttachments(), ImageCheck::SendAnyway);
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
        if (m_setup.provider) {
            transcript.providerKind = providerKindName(m_setup.provider->profile.kind);
            transcript.baseUrl = m_setup.provider->profile.effectiveBaseUrl();
        }
        transcript.config = m_agent->config();
        transcript.tools = m_workbench->names();
    }
    for (const AttachedKnowledgeBase &base : m_setup.knowledge)
        transcript.knowledge.append(base.name);
    // The agent and prompt chosen for the session, whichever run the saved config describes.
    transcript.agentName = m_setup.agent;
    transcript.sessionPrompt = m_setup.sessionPrompt;
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
    m_savedKnowledge = transcript.knowledge;
    m_lastResult.reset();
    // The session goes on as the agent it was saved with (once the window's roster has it) and with
    // its own prompt.
    m_setup.agent = transcript.agentName;
    m_setup.sessionPrompt = transcript.sessionPrompt;
    if (m_setup.boundProvider() != m_binding->provider())
        bindProvider();
    else
        applyLoop();
    rebuildWorkbench();
    m_usage->recount();
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
    return ReplayWorkbench::builtinTools(Workspace(m_setup.tools.workspace));
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
    m_mcp->cancelElicitations();
    m_agent->setHistory({});
    m_trace->clear();
    m_rows->clear();
    m_title.clear();
    m_created = {};
    m_savedRun.reset();
    // A session's own prompt is of that session; the chosen agent stays for the next one.
    if (m_setup.sessionPrompt) {
        m_setup.sessionPrompt.reset();
        applyLoop();
    }
    emit titleChanged(m_title);
    m_lastResult.reset();
    m_usage->recount();
    emit cleared();
    return true;
}

void ChatSession::onEvent(const AgentEvent &event)
{
    // A sub-agent's steps count toward the turn's tokens and cost, and are nothing else of the session's.
    if (event.depth > 0) {
        m_usage->observe(event, m_agent->config().maxIterations);
        return;
    }
    if (event.kind == AgentEvent::Kind::TurnStarted) {
        m_mcp->turnStarted(event.traceNode);
        noteContextWarning(event.traceNode);
    }
    // Between iterations: no call runs, and this iteration's request is not built yet.
    if (event.kind == AgentEvent::Kind::IterationStarted && m_workbenchStale)
        rebuildWorkbench();
    m_usage->observe(event, m_agent->config().maxIterations);
}

// Right after the user's row, so the notice reads as about this question, and before whatever the
// turn does next (the loop may refuse a request that cannot fit at once). The turn's node keeps it,
// so the reopened session says it again (TurnNotices::ofTurn()).
void ChatSession::noteContextWarning(int turnNode)
{
    const QString contextWarning = std::exchange(m_pendingContextWarning, {});
    if (contextWarning.isEmpty())
        return;
    m_trace->update(turnNode, [&contextWarning](TraceNode &node) {
        node.data<TurnData>().contextWarning = contextWarning;
    });
    const TurnNotice warning = TurnNotices::contextFull(contextWarning, turnNode);
    m_rows->addNotice(warning.kind, warning.text, warning.traceNode);
    emit notice(contextWarning);
}

void ChatSession::onTurnFinished(const TurnResult &result)
{
    m_lastResult = result;
    m_team->release();
    m_usage->finishTurn();
    m_mcp->turnFinished();
    if (m_workbenchStale)
        rebuildWorkbench();
    m_debugger->forgetHeld();
    m_approvals->forgetPending();
}

} // namespace Loopscope
