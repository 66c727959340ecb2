#include "agent/mcp/mcphub.h"

#include "agent/mcp/mcptool.h"
#include "agent/mcp/mcptoolnames.h"

#include <QDeadlineTimer>
#include <QPointer>
#include <QThread>
#include <QTimer>

#include <map>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// The fields that decide how a server is reached: a change to any of them needs a new client.
bool sameConnection(const McpServerConfig &a, const McpServerConfig &b)
{
    return a.name == b.name && a.transport == b.transport && a.command == b.command
           && a.arguments == b.arguments && a.environment == b.environment
           && a.workingDirectory == b.workingDirectory && a.url == b.url && a.headers == b.headers
           && a.oauth == b.oauth && a.requestTimeoutMs == b.requestTimeoutMs
           && a.maxResponseBytes == b.maxResponseBytes;
}

QString normalisedRule(const QString &rule)
{
    const QString lower = rule.trimmed().toLower();
    if (lower == u"always" || lower == u"ask" || lower == u"never")
        return lower;
    return u"ask"_s;
}

} // namespace

class McpHub::Private
{
public:
    struct Server
    {
        McpServerConfig config;
        McpClient *client = nullptr; // owned by the hub (QObject child); nullptr when disabled
        McpClient::State lastState = McpClient::State::Stopped;
        QList<McpToolInfo> knownTools; // from the last time it was ready: kept while it is down
    };
    struct Entry
    {
        ToolRef ref;
        std::shared_ptr<const Tool> tool;
        QString rule;
    };

    McpHub *q;
    QNetworkAccessManager *network;
    QList<Server> servers; // in configuration order
    QString rootFolder;
    const UrlOpener *urlOpener = nullptr;
    SecretStore *tokenStore = nullptr;
    McpClient::ElicitationHandler elicitationHandler;
    McpClient::SamplingHandler samplingHandler;
    std::shared_ptr<std::atomic_int> toolTimeoutMs = std::make_shared<std::atomic_int>(0);
    QList<Entry> entries;
    QHash<QString, int> entryByName;

    Server *find(const QString &name)
    {
        for (Server &server : servers) {
            if (server.config.name == name)
                return &server;
        }
        return nullptr;
    }

    void createClient(Server &server)
    {
        auto *client = new McpClient(server.config, network, q);
        server.client = client;
        server.lastState = McpClient::State::Stopped;
        client->setRootFolder(rootFolder);
        client->setAuthorizationServices(urlOpener, tokenStore);
        if (elicitationHandler)
            client->setElicitationHandler(elicitationHandler);
        if (samplingHandler)
            client->setSamplingHandler(samplingHandler);
        const QString name = server.config.name;
        QObject::connect(client, &McpClient::stateChanged, q,
                         [this, name](McpClient::State state) { onStateChanged(name, state); });
        QObject::connect(client, &McpClient::authStep, q,
                         [this, name](const McpAuthStep &step) { emit q->authStep(name, step); });
        QObject::connect(client, &McpClient::toolsChanged, q, [this, name] {
            Server *server = find(name);
            if (server && server->client && server->client->state() == McpClient::State::Ready) {
                server->knownTools = server->client->tools();
                rebuild();
            }
        });
    }

    void destroyClient(Server &server)
    {
        if (!server.client)
            return;
        McpClient *client = server.client;
        server.client = nullptr;
        QObject::disconnect(client, nullptr, q, nullptr);
        // Destroying the client ends its process; running calls end with a failure.
        delete client;
    }

    void onStateChanged(const QString &name, McpClient::State state)
    {
        Server *server = find(name);
        if (!server || !server->client)
            return;
        const McpClient::State previous = server->lastState;
        server->lastState = state;
        if (state == McpClient::State::Ready)
            server->knownTools = server->client->tools();
        // A server that dies keeps its tools for the running turn (a call says it is not running);
        // one that cannot start again has none to offer.
        if (state == McpClient::State::Failed && previous == McpClient::State::Starting)
            server->knownTools.clear();
        if (state == McpClient::State::Failed && previous != McpClient::State::Failed) {
            const QString reason = server->client->failureReason();
            emit q->notice(previous == McpClient::State::Ready
                               ? tr("The MCP server “%1” stopped: %2").arg(name, reason)
                               : tr("The MCP server “%1” could not start: %2").arg(name, reason));
        }
        // The tools first: whoever hears of the state finds them in place.
        rebuild();
        emit q->serverStateChanged(name, state);
    }

    static QString tr(const char *text) { return McpHub::tr(text); }

    void rebuild()
    {
        QList<McpToolNames::Source> sources;
        QList<std::pair<const Server *, McpToolInfo>> infos;
        for (const Server &server : std::as_const(servers)) {
            if (!server.client)
                continue;
            for (const McpToolInfo &info : server.knownTools) {
                if (server.config.disabledTools.contains(info.name))
                    continue;
                sources.append({server.config.name, info.name});
                infos.append({&server, info});
            }
        }
        const QStringList names = McpToolNames::assign(sources, m_builtinNames);
        QList<Entry> rebuilt;
        QHash<QString, int> byName;
        for (qsizetype i = 0; i < names.size(); ++i) {
            const Server &server = *infos.at(i).first;
            const McpToolInfo &info = infos.at(i).second;
            Entry entry;
            entry.ref = {server.config.name, info.name};
            entry.tool = std::make_shared<McpTool>(QPointer<McpClient>(server.client), server.config.name,
                                                   info, names.at(i), toolTimeoutMs);
            entry.rule
                = normalisedRule(server.config.toolApproval.value(info.name, server.config.defaultApproval));
            byName.insert(names.at(i), int(rebuilt.size()));
            rebuilt.append(entry);
        }
        if (sameTools(rebuilt))
            return;
        entries = rebuilt;
        entryByName = byName;
        emit q->toolsChanged();
    }

    bool sameTools(const QList<Entry> &other) const
    {
        if (other.size() != entries.size())
            return false;
        for (qsizetype i = 0; i < other.size(); ++i) {
            const auto *a = static_cast<const McpTool *>(other.at(i).tool.get());
            const auto *b = static_cast<const McpTool *>(entries.at(i).tool.get());
            if (other.at(i).ref != entries.at(i).ref || other.at(i).rule != entries.at(i).rule
                || a->schema() != b->schema() || a->info() != b->info())
                return false;
        }
        return true;
    }

    QSet<QString> m_builtinNames;
};

McpHub::McpHub(QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>())
{
    d->q = this;
    d->network = network;
}

McpHub::~McpHub()
{
    shutdown();
}

void McpHub::setServers(const QList<McpServerConfig> &servers)
{
    QList<Private::Server> next;
    for (const McpServerConfig &config : servers) {
        Private::Server server;
        server.config = config;
        if (Private::Server *existing = d->find(config.name)) {
            if (existing->client && config.enabled && sameConnection(existing->config, config)) {
                // Only what the model sees changed (tools hidden, approvals): keep the connection.
                server.client = std::exchange(existing->client, nullptr);
                server.lastState = existing->lastState;
                server.knownTools = existing->knownTools;
            }
        }
        next.append(server);
    }
    for (Private::Server &old : d->servers)
        d->destroyClient(old);
    d->servers = next;
    for (Private::Server &server : d->servers) {
        if (server.config.enabled && !server.client) {
            d->createClient(server);
            server.client->start();
        }
    }
    d->rebuild();
}

QList<McpServerConfig> McpHub::servers() const
{
    QList<McpServerConfig> configs;
    for (const Private::Server &server : d->servers)
        configs.append(server.config);
    return configs;
}

McpClient *McpHub::client(const QString &serverName) const
{
    const Private::Server *server = d->find(serverName);
    return server ? server->client : nullptr;
}

void McpHub::setAuthorizationServices(const UrlOpener *opener, SecretStore *tokenStore)
{
    d->urlOpener = opener;
    d->tokenStore = tokenStore;
    for (Private::Server &server : d->servers) {
        if (server.client)
            server.client->setAuthorizationServices(opener, tokenStore);
    }
}

void McpHub::setRootFolder(const QString &folder)
{
    d->rootFolder = folder;
    for (Private::Server &server : d->servers) {
        if (server.client)
            server.client->setRootFolder(folder);
    }
}

void McpHub::setElicitationHandler(McpClient::ElicitationHandler handler)
{
    d->elicitationHandler = std::move(handler);
    for (Private::Server &server : d->servers) {
        if (server.client)
            server.client->setElicitationHandler(d->elicitationHandler);
    }
}

void McpHub::setSamplingHandler(McpClient::SamplingHandler handler)
{
    d->samplingHandler = std::move(handler);
    for (Private::Server &server : d->servers) {
        if (server.client)
            server.client->setSamplingHandler(d->samplingHandler);
    }
}

void McpHub::setToolTimeoutMs(int milliseconds)
{
    d->toolTimeoutMs->store(std::max(0, milliseconds));
}

void McpHub::setBuiltinToolNames(const QSet<QString> &names)
{
    if (d->m_builtinNames == names)
        return;
    d->m_builtinNames = names;
    d->rebuild();
}

void McpHub::prepareTurn()
{
    for (Private::Server &server : d->servers) {
        if (!server.client)
            continue;
        const McpClient::State state = server.client->state();
        if (state == McpClient::State::Stopped || state == McpClient::State::Failed)
            server.client->start();
    }
}

bool McpHub::isStarting() const
{
    for (const Private::Server &server : d->servers) {
        if (server.client && server.client->state() == McpClient::State::Starting)
            return true;
    }
    return false;
}

void McpHub::restart(const QString &serverName)
{
    if (Private::Server *server = d->find(serverName); server && server->client)
        server->client->restart();
}

void McpHub::shutdown()
{
    // Destroying a client ends its process (stdin closed, then SIGTERM, then SIGKILL) and waits for it.
    for (Private::Server &server : d->servers) {
        if (server.client)
            server.client->stop();
    }
    for (Private::Server &server : d->servers)
        d->destroyClient(server);
    if (!d->entries.isEmpty()) {
        d->entries.clear();
        d->entryByName.clear();
        emit toolsChanged();
    }
}

void McpHub::whenSent(QObject *context, std::function<void()> done, int timeoutMs)
{
    struct Waiter
    {
        QPointer<QObject> context;
        std::function<void()> done;
        int remaining = 1; // released once every client and this call itself have counted down
        void countDown()
        {
            if (--remaining != 0 || !done)
                return;
            const auto call = std::exchange(done, {});
            if (context)
                call();
        }
    };
    auto waiter = std::make_shared<Waiter>();
    waiter->context = context;
    waiter->done = std::move(done);
    for (const Private::Server &server : std::as_const(d->servers)) {
        if (!server.client)
            continue;
        ++waiter->remaining;
        server.client->whenSent([waiter] { waiter->countDown(); });
    }
    QTimer::singleShot(timeoutMs, context, [waiter] {
        waiter->remaining = 1;
        waiter->countDown();
    });
    waiter->countDown();
}

QList<std::shared_ptr<const Tool>> McpHub::tools() const
{
    QList<std::shared_ptr<const Tool>> tools;
    for (const Private::Entry &entry : d->entries)
        tools.append(entry.tool);
    return tools;
}

std::optional<McpHub::ToolRef> McpHub::resolve(const QString &modelToolName) const
{
    const auto it = d->entryByName.constFind(modelToolName);
    if (it == d->entryByName.cend())
        return std::nullopt;
    return d->entries.at(*it).ref;
}

QHash<QString, QString> McpHub::approvalRules() const
{
    QHash<QString, QString> rules;
    for (const Private::Entry &entry : d->entries)
        rules.insert(entry.tool->name(), entry.rule);
    return rules;
}

} // namespace Loopscope
