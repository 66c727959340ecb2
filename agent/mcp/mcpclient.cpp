#include "agent/mcp/mcpclient.h"

#include "agent/mcp/httptransport.h"
#include "agent/mcp/jsonrpcconnection.h"
#include "agent/mcp/mcpcontent.h"
#include "agent/mcp/stdiotransport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QPointer>
#include <QTimer>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

const QString ModernVersion = u"2026-07-28"_s;
const QString PreferredLegacyVersion = u"2025-11-25"_s;
const QStringList LegacyVersions = {u"2025-11-25"_s, u"2025-06-18"_s, u"2025-03-26"_s, u"2024-11-05"_s};
constexpr int MaxStderrLines = 200;
constexpr int ProbeTimeoutMs = 3000;
constexpr int MethodNotFound = -32601;

enum class ListKind { Tools, Prompts, Resources };

QString listMethod(ListKind kind)
{
    switch (kind) {
    case ListKind::Tools: return u"tools/list"_s;
    case ListKind::Prompts: return u"prompts/list"_s;
    case ListKind::Resources: return u"resources/list"_s;
    }
    return {};
}

QString listKey(ListKind kind)
{
    switch (kind) {
    case ListKind::Tools: return u"tools"_s;
    case ListKind::Prompts: return u"prompts"_s;
    case ListKind::Resources: return u"resources"_s;
    }
    return {};
}

McpToolInfo toolFromJson(const QJsonObject &json)
{
    McpToolInfo tool;
    tool.name = json.value(u"name"_s).toString();
    tool.title = json.value(u"title"_s).toString();
    if (tool.title.isEmpty())
        tool.title = json.value(u"annotations"_s).toObject().value(u"title"_s).toString();
    tool.description = json.value(u"description"_s).toString();
    tool.inputSchema = json.value(u"inputSchema"_s).toObject();
    tool.outputSchema = json.value(u"outputSchema"_s).toObject();
    tool.annotations = json.value(u"annotations"_s).toObject();
    return tool;
}

McpPromptInfo promptFromJson(const QJsonObject &json)
{
    McpPromptInfo prompt;
    prompt.name = json.value(u"name"_s).toString();
    prompt.title = json.value(u"title"_s).toString();
    prompt.description = json.value(u"description"_s).toString();
    for (const QJsonValue &value : json.value(u"arguments"_s).toArray()) {
        const QJsonObject argument = value.toObject();
        prompt.arguments.append({argument.value(u"name"_s).toString(),
                                 argument.value(u"description"_s).toString(),
                                 argument.value(u"required"_s).toBool()});
    }
    return prompt;
}

McpResourceInfo resourceFromJson(const QJsonObject &json)
{
    return {json.value(u"uri"_s).toString(), json.value(u"name"_s).toString(),
            json.value(u"title"_s).toString(), json.value(u"description"_s).toString(),
            json.value(u"mimeType"_s).toString()};
}

QString errorText(const QJsonObject &error)
{
    return u"%1 (%2)"_s.arg(error.value(u"message"_s).toString()).arg(error.value(u"code"_s).toInt());
}

} // namespace

class McpClient::Private
{
public:
    struct Call
    {
        qint64 requestId = 0;
        QString tool;
        QString progressToken;
        ProgressCallback progress;
        CallCallback done;
        McpCallOutcome outcome;
        QElapsedTimer clock;
    };

    enum class Phase { Idle, Probe, Initialize, Listing };

    Private(McpClient *q, McpServerConfig config, QNetworkAccessManager *network)
        : q(q)
        , config(std::move(config))
        , network(network)
    {
        startupTimer.setSingleShot(true);
    }

    // Sentences
    QString name() const { return config.name; }
    QString lastOutput() const;
    QString authSentence(int status) const;

    // State
    void setState(State newState);
    void fail(const QString &reason);
    void teardown(const QString &reason);

    // Start-up
    void openTransport();
    void probe();
    void sendInitialize();
    void onInitialized(const JsonRpcReply &reply);
    void listForStartup();
    void becomeReady();
    void onTransportClosed(int exitCode, const QString &startError);
    bool isStarting(int generation) const
    {
        return state == State::Starting && generation == this->generation;
    }

    // Messages
    QJsonObject clientCapabilities() const;
    QJsonObject clientInfo() const;
    QJsonObject initializeParams() const;
    QJsonObject withMeta(const QJsonObject &params) const;
    void request(const QString &method, const QJsonObject &params, int timeoutMs,
                 JsonRpcConnection::ReplyCallback done,
                 std::function<void(qint64 id, const QJsonObject &sent)> onSent = {}, bool retried = false);
    void reinitialize(std::function<void(const QString &error)> done);
    void refreshList(ListKind kind, std::function<void(const QString &error)> done);
    void fetchPage(ListKind kind, int listGeneration, const QString &cursor,
                   std::shared_ptr<QJsonArray> items, std::function<void(const QString &error)> done);
    void applyList(ListKind kind, const QJsonArray &items);
    QString replyFailure(const JsonRpcReply &reply, const QString &what) const;

    // From the server
    void onServerRequest(const QJsonValue &id, const QString &method, const QJsonObject &params);
    void onServerNotification(const QString &method, const QJsonObject &params);
    void answerElicitation(const QJsonValue &id, const QJsonObject &params);
    void appendLog(const QString &line);
    void onCallReply(qint64 callId, const JsonRpcReply &reply);

    McpClient *q;
    McpServerConfig config;
    QNetworkAccessManager *network = nullptr;
    QString rootFolder;
    ElicitationHandler elicitationHandler;
    int startupTimeoutMs = 30'000;

    State state = State::Stopped;
    QString failureReason;
    std::optional<McpStartupInfo> startupInfo;
    McpStartupInfo pendingInfo;
    QList<McpToolInfo> tools;
    QList<McpPromptInfo> prompts;
    QList<McpResourceInfo> resources;
    QStringList stderrRing;

    McpTransport *transport = nullptr;
    JsonRpcConnection *connection = nullptr;
    QTimer startupTimer;
    QElapsedTimer startupClock;
    int generation = 0;
    Phase phase = Phase::Idle;
    bool discovered = false;
    bool restartedAfterProbe = false;
    bool recordingExchange = false;
    bool destroying = false;
    int listGenerations[3] = {0, 0, 0};
    bool relistAfterStartup[3] = {false, false, false};

    QHash<qint64, Call> calls;
    qint64 nextCallId = 1;
    bool reinitialising = false;
    QList<std::function<void(const QString &)>> reinitWaiters;
};

// ---------------------------------------------------------------- sentences

QString McpClient::Private::lastOutput() const
{
    if (stderrRing.isEmpty())
        return {};
    const QStringList tail = stderrRing.mid(qMax(0, stderrRing.size() - 5));
    return u" "_s + McpClient::tr("Last output: %1").arg(tail.join(u" | "_s));
}

QString McpClient::Private::authSentence(int status) const
{
    return McpClient::tr("The MCP server “%1” wants authorisation (HTTP %2): add an Authorization header in "
                         "its settings.")
        .arg(name())
        .arg(status);
}

QString McpClient::Private::replyFailure(const JsonRpcReply &reply, const QString &what) const
{
    if (reply.connectionClosed)
        return reply.transportError;
    if (reply.httpStatus == 401 || reply.httpStatus == 403)
        return authSentence(reply.httpStatus);
    if (reply.timedOut)
        return McpClient::tr("The MCP server “%1” did not answer %2 in time (%3).")
            .arg(name(), what, reply.transportError);
    if (!reply.transportError.isEmpty())
        return McpClient::tr("The MCP server “%1” could not be reached for %2: %3.")
            .arg(name(), what, reply.transportError);
    if (reply.isError())
        return McpClient::tr("The MCP server “%1” answered with an error: %2")
            .arg(name(), errorText(reply.error()));
    return {};
}

// ---------------------------------------------------------------- state

void McpClient::Private::setState(State newState)
{
    if (state == newState)
        return;
    state = newState;
    if (!destroying)
        emit q->stateChanged(state);
}

void McpClient::Private::teardown(const QString &reason)
{
    ++generation;
    startupTimer.stop();
    phase = Phase::Idle;
    recordingExchange = false;
    reinitialising = false;
    const auto waiters = std::exchange(reinitWaiters, {});
    JsonRpcConnection *oldConnection = std::exchange(connection, nullptr);
    McpTransport *oldTransport = std::exchange(transport, nullptr);
    if (oldTransport)
        oldTransport->disconnect(q);
    if (oldConnection) {
        oldConnection->disconnect(q);
        // Pending requests, calls among them, end here with the reason.
        oldConnection->failAll(reason);
        oldConnection->deleteLater();
    }
    for (const auto &waiter : waiters)
        waiter(reason);
    if (oldTransport) {
        if (destroying) {
            delete oldTransport; // a stdio transport ends its process, bounded, in its destructor
        } else if (qobject_cast<StdioTransport *>(oldTransport)) {
            oldTransport->shutdown(); // ends the process in steps, then deletes itself
        } else {
            oldTransport->shutdown();
            oldTransport->deleteLater();
        }
    }
}

void McpClient::Private::fail(const QString &reason)
{
    failureReason = reason;
    setState(State::Failed);
    teardown(reason);
}

// ---------------------------------------------------------------- start-up

void McpClient::Private::openTransport()
{
    if (config.transport == McpServerConfig::Transport::Stdio) {
        transport
            = new StdioTransport(config.command, config.arguments, config.environment,
                                 config.workingDirectory.isEmpty() ? rootFolder : config.workingDirectory, q);
    } else {
        transport = new HttpTransport(network, config.url, config.headers, q);
    }
    connection = new JsonRpcConnection(transport, q);
    QObject::connect(connection, &JsonRpcConnection::messageLogged, q,
                     [this](bool outgoing, const QJsonObject &m) {
                         if (recordingExchange)
                             pendingInfo.exchange.append(m);
                         emit q->messageLogged(outgoing, m);
                     });
    QObject::connect(connection, &JsonRpcConnection::requestReceived, q,
                     [this](const QJsonValue &id, const QString &method, const QJsonObject &params) {
                         onServerRequest(id, method, params);
                     });
    QObject::connect(
        connection, &JsonRpcConnection::notificationReceived, q,
        [this](const QString &method, const QJsonObject &params) { onServerNotification(method, params); });
    QObject::connect(transport, &McpTransport::logLine, q, [this](const QString &line) { appendLog(line); });
    QObject::connect(transport, &McpTransport::closed, q, [this](int exitCode, const QString &startError) {
        onTransportClosed(exitCode, startError);
    });
    transport->open();
}

void McpClient::Private::probe()
{
    phase = Phase::Probe;
    const int generation = this->generation;
    request(u"server/discover"_s, {}, qMin(ProbeTimeoutMs, startupTimeoutMs),
            [this, generation](const JsonRpcReply &reply) {
                if (!isStarting(generation) || phase != Phase::Probe)
                    return;
                if (reply.httpStatus == 401 || reply.httpStatus == 403) {
                    fail(authSentence(reply.httpStatus));
                    return;
                }
                const QJsonObject result = reply.result();
                if (reply.hasResponse() && !reply.isError()) {
                    QJsonArray versions = result.value(u"supportedVersions"_s).toArray();
                    if (versions.isEmpty())
                        versions = result.value(u"protocolVersions"_s).toArray();
                    // A result that names no version must at least look like a discovery: some servers
                    // answer every unknown method with an empty result, and speak only the handshake.
                    const bool looksDiscovered = result.value(u"capabilities"_s).isObject()
                                                 || result.value(u"serverInfo"_s).isObject();
                    if (versions.isEmpty() ? looksDiscovered : versions.contains(ModernVersion)) {
                        discovered = true;
                        pendingInfo.protocolVersion = ModernVersion;
                        pendingInfo.discovered = true;
                        pendingInfo.serverInfo = result.value(u"serverInfo"_s).toObject();
                        pendingInfo.serverCapabilities = result.value(u"capabilities"_s).toObject();
                        pendingInfo.instructions = result.value(u"instructions"_s).toString();
                        transport->setProtocolVersion(ModernVersion);
                        listForStartup();
                        return;
                    }
                }
                // Any error, a timeout or a server that only speaks older revisions: the handshake.
                sendInitialize();
            });
}

QJsonObject McpClient::Private::clientCapabilities() const
{
    return {{u"roots"_s, QJsonObject{{u"listChanged"_s, true}}},
            {u"elicitation"_s, QJsonObject{{u"form"_s, QJsonObject{}}}}};
}

QJsonObject McpClient::Private::clientInfo() const
{
    const QString version = QCoreApplication::applicationVersion();
    return {{u"name"_s, u"Loopscope"_s}, {u"version"_s, version.isEmpty() ? u"0"_s : version}};
}

QJsonObject McpClient::Private::initializeParams() const
{
    return {{u"protocolVersion"_s, PreferredLegacyVersion},
            {u"capabilities"_s, clientCapabilities()},
            {u"clientInfo"_s, clientInfo()}};
}

QJsonObject McpClient::Private::withMeta(const QJsonObject &params) const
{
    QJsonObject result = params;
    QJsonObject meta = params.value(u"_meta"_s).toObject();
    meta.insert(u"io.modelcontextprotocol/protocolVersion"_s, ModernVersion);
    meta.insert(u"io.modelcontextprotocol/clientCapabilities"_s, clientCapabilities());
    meta.insert(u"io.modelcontextprotocol/clientInfo"_s, clientInfo());
    result.insert(u"_meta"_s, meta);
    return result;
}

void McpClient::Private::sendInitialize()
{
    phase = Phase::Initialize;
    const int generation = this->generation;
    const int remaining = int(qMax<qint64>(1, startupTimeoutMs - startupClock.elapsed()));
    request(u"initialize"_s, initializeParams(), remaining, [this, generation](const JsonRpcReply &reply) {
        if (isStarting(generation) && phase == Phase::Initialize)
            onInitialized(reply);
    });
}

void McpClient::Private::onInitialized(const JsonRpcReply &reply)
{
    if (!reply.hasResponse() || reply.isError()) {
        QString reason = replyFailure(reply, u"initialize"_s);
        if (reply.isError())
            reason = McpClient::tr("The MCP server “%1” refused to initialise: %2")
                         .arg(name(), errorText(reply.error()));
        fail(reason + (reply.connectionClosed ? QString() : lastOutput()));
        return;
    }
    const QJsonObject result = reply.result();
    const QString version = result.value(u"protocolVersion"_s).toString();
    if (!LegacyVersions.contains(version)) {
        fail(McpClient::tr("The MCP server “%1” speaks MCP version “%2”, which Loopscope does not support "
                           "(it supports %3).")
                 .arg(name(), version, (QStringList{ModernVersion} + LegacyVersions).join(u", "_s)));
        return;
    }
    pendingInfo.protocolVersion = version;
    pendingInfo.discovered = false;
    pendingInfo.serverInfo = result.value(u"serverInfo"_s).toObject();
    pendingInfo.serverCapabilities = result.value(u"capabilities"_s).toObject();
    pendingInfo.instructions = result.value(u"instructions"_s).toString();
    transport->setProtocolVersion(version);
    connection->notify(u"notifications/initialized"_s);
    listForStartup();
}

void McpClient::Private::listForStartup()
{
    phase = Phase::Listing;
    const int generation = this->generation;
    const QJsonObject capabilities = pendingInfo.serverCapabilities;
    QList<ListKind> kinds{ListKind::Tools};
    if (capabilities.contains(u"prompts"_s))
        kinds.append(ListKind::Prompts);
    if (capabilities.contains(u"resources"_s))
        kinds.append(ListKind::Resources);
    auto remaining = std::make_shared<int>(int(kinds.size()));
    for (ListKind kind : kinds) {
        refreshList(kind, [this, generation, kind, remaining](const QString &error) {
            if (!isStarting(generation))
                return;
            if (!error.isEmpty() && kind == ListKind::Tools) {
                fail(error);
                return;
            }
            if (--*remaining == 0)
                becomeReady();
        });
    }
}

void McpClient::Private::becomeReady()
{
    startupTimer.stop();
    phase = Phase::Idle;
    recordingExchange = false;
    pendingInfo.toolCount = int(tools.size());
    pendingInfo.durationMs = startupClock.elapsed();
    startupInfo = pendingInfo;
    setState(State::Ready);
    // Lists that changed while start-up was listing them are listed again.
    for (ListKind kind : {ListKind::Tools, ListKind::Prompts, ListKind::Resources}) {
        if (std::exchange(relistAfterStartup[int(kind)], false))
            refreshList(kind, [](const QString &) {});
    }
}

void McpClient::Private::onTransportClosed(int exitCode, const QString &startError)
{
    if (!startError.isEmpty()) {
        fail(McpClient::tr("The MCP server “%1” could not start: %2").arg(name(), startError));
        return;
    }
    if (state == State::Starting && phase == Phase::Probe && !restartedAfterProbe) {
        // Some servers exit on a request they do not know: start again and go straight to initialize.
        restartedAfterProbe = true;
        phase = Phase::Idle;
        appendLog(McpClient::tr("[Loopscope] the server exited on server/discover; starting it again"));
        JsonRpcConnection *oldConnection = std::exchange(connection, nullptr);
        McpTransport *oldTransport = std::exchange(transport, nullptr);
        oldTransport->disconnect(q);
        oldConnection->disconnect(q);
        oldConnection->failAll({});
        oldConnection->deleteLater();
        oldTransport->deleteLater();
        openTransport();
        sendInitialize();
        return;
    }
    const QString code = exitCode < 0 ? McpClient::tr("crashed") : McpClient::tr("code %1").arg(exitCode);
    if (state == State::Starting) {
        fail(McpClient::tr("The MCP server “%1” exited (%2) during start-up.").arg(name(), code)
             + lastOutput());
        return;
    }
    if (state == State::Ready) {
        // Calls still waiting end with this sentence; the client itself fails with a shorter one.
        const QString callReason
            = McpClient::tr("The MCP server “%1” exited (%2) during the call.").arg(name(), code)
              + lastOutput();
        failureReason = McpClient::tr("The MCP server “%1” exited (%2).").arg(name(), code) + lastOutput();
        setState(State::Failed);
        teardown(callReason);
    }
}

// ---------------------------------------------------------------- requests

void McpClient::Private::request(const QString &method, const QJsonObject &params, int timeoutMs,
                                 JsonRpcConnection::ReplyCallback done,
                                 std::function<void(qint64, const QJsonObject &)> onSent, bool retried)
{
    if (!connection) {
        JsonRpcReply reply;
        reply.connectionClosed = true;
        reply.transportError = McpClient::tr("The MCP server “%1” is not running.").arg(name());
        done(reply);
        return;
    }
    const bool modern = discovered || method == u"server/discover"_s;
    const QJsonObject sentParams = modern ? withMeta(params) : params;
    const bool canRetry = !retried && !modern && config.transport == McpServerConfig::Transport::Http
                          && method != u"initialize"_s;
    const int generation = this->generation;
    QJsonObject sent;
    const qint64 id = connection->request(
        method, sentParams, timeoutMs,
        [this, method, params, timeoutMs, done, onSent, canRetry, generation](const JsonRpcReply &reply) {
            if (canRetry && reply.sessionExpired && generation == this->generation) {
                // The HTTP session is gone: a new one, then this request once more.
                reinitialize([this, method, params, timeoutMs, done, onSent, reply](const QString &error) {
                    if (!error.isEmpty()) {
                        JsonRpcReply failed = reply;
                        failed.sessionExpired = false;
                        failed.transportError = error;
                        failed.connectionClosed = true;
                        done(failed);
                        return;
                    }
                    request(method, params, timeoutMs, done, onSent, true);
                });
                return;
            }
            done(reply);
        },
        &sent);
    if (onSent)
        onSent(id, sent);
}

void McpClient::Private::reinitialize(std::function<void(const QString &error)> done)
{
    reinitWaiters.append(std::move(done));
    if (reinitialising)
        return;
    reinitialising = true;
    appendLog(McpClient::tr("[Loopscope] the HTTP session expired; initialising a new one"));
    transport->resetSession();
    transport->setProtocolVersion({});
    const int generation = this->generation;
    connection->request(u"initialize"_s, initializeParams(), config.effectiveRequestTimeoutMs(),
                        [this, generation](const JsonRpcReply &reply) {
                            if (generation != this->generation)
                                return;
                            reinitialising = false;
                            QString error;
                            if (!reply.hasResponse() || reply.isError()) {
                                error = replyFailure(reply, u"initialize"_s);
                            } else {
                                transport->setProtocolVersion(
                                    reply.result().value(u"protocolVersion"_s).toString());
                                connection->notify(u"notifications/initialized"_s);
                            }
                            const auto waiters = std::exchange(reinitWaiters, {});
                            for (const auto &waiter : waiters)
                                waiter(error);
                        });
}

void McpClient::Private::refreshList(ListKind kind, std::function<void(const QString &error)> done)
{
    const int listGeneration = ++listGenerations[int(kind)];
    fetchPage(kind, listGeneration, {}, std::make_shared<QJsonArray>(), std::move(done));
}

void McpClient::Private::fetchPage(ListKind kind, int listGeneration, const QString &cursor,
                                   std::shared_ptr<QJsonArray> items,
                                   std::function<void(const QString &)> done)
{
    QJsonObject params;
    if (!cursor.isEmpty())
        params.insert(u"cursor"_s, cursor);
    const int generation = this->generation;
    request(listMethod(kind), params, config.effectiveRequestTimeoutMs(),
            [this, kind, listGeneration, items, done, generation](const JsonRpcReply &reply) {
                if (generation != this->generation)
                    return done(reply.transportError);
                if (!reply.hasResponse() || reply.isError())
                    return done(replyFailure(reply, listMethod(kind)));
                const QJsonObject result = reply.result();
                for (const QJsonValue &value : result.value(listKey(kind)).toArray())
                    items->append(value);
                const QString next = result.value(u"nextCursor"_s).toString();
                if (!next.isEmpty() && items->size() < 100'000) {
                    fetchPage(kind, listGeneration, next, items, done);
                    return;
                }
                // A newer listing started meanwhile: it decides.
                if (listGeneration == listGenerations[int(kind)])
                    applyList(kind, *items);
                done({});
            });
}

void McpClient::Private::applyList(ListKind kind, const QJsonArray &items)
{
    switch (kind) {
    case ListKind::Tools: {
        QList<McpToolInfo> list;
        for (const QJsonValue &value : items)
            list.append(toolFromJson(value.toObject()));
        tools = list;
        if (state == State::Ready)
            emit q->toolsChanged();
        break;
    }
    case ListKind::Prompts: {
        QList<McpPromptInfo> list;
        for (const QJsonValue &value : items)
            list.append(promptFromJson(value.toObject()));
        prompts = list;
        if (state == State::Ready)
            emit q->promptsChanged();
        break;
    }
    case ListKind::Resources: {
        QList<McpResourceInfo> list;
        for (const QJsonValue &value : items)
            list.append(resourceFromJson(value.toObject()));
        resources = list;
        if (state == State::Ready)
            emit q->resourcesChanged();
        break;
    }
    }
}

// ---------------------------------------------------------------- from the server

void McpClient::Private::onServerRequest(const QJsonValue &id, const QString &method,
                                         const QJsonObject &params)
{
    if (method == u"ping"_s) {
        connection->respond(id, {});
    } else if (method == u"roots/list"_s) {
        QJsonArray roots;
        if (!rootFolder.isEmpty()) {
            roots.append(QJsonObject{{u"uri"_s, QUrl::fromLocalFile(rootFolder).toString()},
                                     {u"name"_s, QFileInfo(rootFolder).fileName()}});
        }
        connection->respond(id, {{u"roots"_s, roots}});
    } else if (method == u"elicitation/create"_s) {
        answerElicitation(id, params);
    } else {
        connection->respondError(id, MethodNotFound, u"Method not found"_s);
    }
}

void McpClient::Private::answerElicitation(const QJsonValue &id, const QJsonObject &params)
{
    QPointer<JsonRpcConnection> target = connection;
    auto answered = std::make_shared<bool>(false);
    auto reply = [target, id, answered](const McpElicitationAnswer &answer) {
        if (*answered || !target)
            return;
        *answered = true;
        QJsonObject result;
        switch (answer.action) {
        case McpElicitationAnswer::Action::Accept:
            result.insert(u"action"_s, u"accept"_s);
            result.insert(u"content"_s, answer.content);
            break;
        case McpElicitationAnswer::Action::Decline: result.insert(u"action"_s, u"decline"_s); break;
        case McpElicitationAnswer::Action::Cancel: result.insert(u"action"_s, u"cancel"_s); break;
        }
        target->respond(id, result);
    };
    const QString mode = params.value(u"mode"_s).toString();
    if (!elicitationHandler || (!mode.isEmpty() && mode != u"form"_s)) {
        reply({});
        return;
    }
    McpElicitation elicitation;
    elicitation.serverName = name();
    elicitation.message = params.value(u"message"_s).toString();
    elicitation.requestedSchema = params.value(u"requestedSchema"_s).toObject();
    elicitationHandler(elicitation, reply);
}

void McpClient::Private::onServerNotification(const QString &method, const QJsonObject &params)
{
    std::optional<ListKind> changed;
    if (method == u"notifications/tools/list_changed"_s)
        changed = ListKind::Tools;
    else if (method == u"notifications/prompts/list_changed"_s)
        changed = ListKind::Prompts;
    else if (method == u"notifications/resources/list_changed"_s)
        changed = ListKind::Resources;
    if (changed) {
        if (state == State::Ready)
            refreshList(*changed, [](const QString &) {});
        else if (state == State::Starting)
            relistAfterStartup[int(*changed)] = true;
        return;
    }
    if (method == u"notifications/progress"_s) {
        const QJsonValue token = params.value(u"progressToken"_s);
        const QString key = token.isString() ? token.toString() : QString::number(token.toInteger());
        for (auto it = calls.begin(); it != calls.end(); ++it) {
            if (it->progressToken != key)
                continue;
            McpProgress progress;
            progress.progress = params.value(u"progress"_s).toDouble();
            if (params.contains(u"total"_s))
                progress.total = params.value(u"total"_s).toDouble();
            progress.message = params.value(u"message"_s).toString();
            it->outcome.progress.append(progress);
            const ProgressCallback callback = it->progress;
            if (callback)
                callback(progress);
            return;
        }
    }
}

void McpClient::Private::appendLog(const QString &line)
{
    stderrRing.append(line);
    if (stderrRing.size() > MaxStderrLines)
        stderrRing.remove(0, stderrRing.size() - MaxStderrLines);
    for (Call &call : calls)
        call.outcome.stderrLines.append(line);
    if (!destroying)
        emit q->stderrLine(line);
}

void McpClient::Private::onCallReply(qint64 callId, const JsonRpcReply &reply)
{
    const auto it = calls.find(callId);
    if (it == calls.end())
        return; // cancelled meanwhile
    Call call = std::move(*it);
    calls.erase(it);
    McpCallOutcome &outcome = call.outcome;
    outcome.durationMs = call.clock.elapsed();
    outcome.response = reply.response;
    if (reply.timedOut) {
        outcome.failure = McpClient::tr("The MCP server “%1” did not answer the call of “%2” within %3 s.")
                              .arg(name(), call.tool)
                              .arg(outcome.durationMs / 1000.0, 0, 'f', 1);
        if (connection && !discovered)
            connection->notify(u"notifications/cancelled"_s,
                               {{u"requestId"_s, call.requestId}, {u"reason"_s, u"Timed out"_s}});
    } else if (!reply.hasResponse()) {
        outcome.failure = replyFailure(reply, u"tools/call"_s);
    } else if (reply.isError()) {
        outcome.failure = McpClient::tr("The MCP server “%1” answered with an error: %2")
                              .arg(name(), errorText(reply.error()));
    } else {
        outcome.result = reply.result();
        if (outcome.result.value(u"resultType"_s).toString() == u"input_required"_s) {
            outcome.failure
                = McpClient::tr("The MCP server “%1” asked for more input during the call of “%2”, "
                                "which Loopscope does not support yet.")
                      .arg(name(), call.tool);
        } else {
            outcome.isError = outcome.result.value(u"isError"_s).toBool();
            outcome.text = McpContent::callResultText(outcome.result);
        }
    }
    if (call.done)
        call.done(outcome);
}

// ---------------------------------------------------------------- McpClient

McpClient::McpClient(McpServerConfig config, QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, std::move(config), network))
{
    connect(&d->startupTimer, &QTimer::timeout, this, [this] {
        if (d->state != State::Starting)
            return;
        d->fail(tr("The MCP server “%1” did not finish starting within %2 s.")
                    .arg(d->name())
                    .arg(d->startupTimeoutMs / 1000.0)
                + d->lastOutput());
    });
}

McpClient::~McpClient()
{
    d->destroying = true;
    d->teardown(tr("The MCP server “%1” was stopped during the call.").arg(d->name()));
    // Transports still shutting down are children and end their processes in their destructors.
}

const McpServerConfig &McpClient::config() const
{
    return d->config;
}

void McpClient::setRootFolder(const QString &folder)
{
    if (d->rootFolder == folder)
        return;
    d->rootFolder = folder;
    if (d->state == State::Ready && d->connection && !d->discovered)
        d->connection->notify(u"notifications/roots/list_changed"_s);
}

void McpClient::setElicitationHandler(ElicitationHandler handler)
{
    d->elicitationHandler = std::move(handler);
}

void McpClient::setStartupTimeoutMs(int milliseconds)
{
    d->startupTimeoutMs = qMax(1, milliseconds);
}

void McpClient::start()
{
    if (d->state != State::Stopped && d->state != State::Failed)
        return;
    d->failureReason.clear();
    d->startupInfo.reset();
    d->pendingInfo = {};
    d->tools.clear();
    d->prompts.clear();
    d->resources.clear();
    d->discovered = false;
    d->restartedAfterProbe = false;
    d->recordingExchange = true;
    for (bool &relist : d->relistAfterStartup)
        relist = false;
    ++d->generation;
    d->startupClock.start();
    d->setState(State::Starting);
    d->startupTimer.start(d->startupTimeoutMs);
    d->openTransport();
    // The transport may already have failed to start.
    if (d->state == State::Starting && d->connection)
        d->probe();
}

void McpClient::stop()
{
    if (d->state == State::Stopped)
        return;
    d->failureReason.clear();
    d->setState(State::Stopped);
    d->teardown(tr("The MCP server “%1” was stopped during the call.").arg(d->name()));
}

void McpClient::restart()
{
    stop();
    start();
}

McpClient::State McpClient::state() const
{
    return d->state;
}

QString McpClient::failureReason() const
{
    return d->failureReason;
}

std::optional<McpStartupInfo> McpClient::startupInfo() const
{
    return d->startupInfo;
}

QList<McpToolInfo> McpClient::tools() const
{
    return d->tools;
}

QList<McpPromptInfo> McpClient::prompts() const
{
    return d->prompts;
}

QList<McpResourceInfo> McpClient::resources() const
{
    return d->resources;
}

QStringList McpClient::stderrTail() const
{
    return d->stderrRing;
}

qint64 McpClient::processId() const
{
    if (auto *stdio = qobject_cast<StdioTransport *>(d->transport))
        return stdio->processId();
    return 0;
}

qint64 McpClient::callTool(const QString &name, const QJsonObject &arguments, int timeoutMs,
                           ProgressCallback progress, CallCallback done)
{
    const qint64 callId = d->nextCallId++;
    if (d->state != State::Ready || !d->connection) {
        McpCallOutcome outcome;
        outcome.failure = tr("The MCP server “%1” is not running.").arg(d->name());
        QTimer::singleShot(0, this, [done = std::move(done), outcome] {
            if (done)
                done(outcome);
        });
        return callId;
    }
    Private::Call call;
    call.tool = name;
    call.progressToken = u"loopscope-%1"_s.arg(callId);
    call.progress = std::move(progress);
    call.done = std::move(done);
    call.clock.start();
    d->calls.insert(callId, std::move(call));
    const QJsonObject params{{u"name"_s, name},
                             {u"arguments"_s, arguments},
                             {u"_meta"_s, QJsonObject{{u"progressToken"_s, u"loopscope-%1"_s.arg(callId)}}}};
    d->request(
        u"tools/call"_s, params, timeoutMs > 0 ? timeoutMs : d->config.effectiveRequestTimeoutMs(),
        [this, callId](const JsonRpcReply &reply) { d->onCallReply(callId, reply); },
        [this, callId](qint64 requestId, const QJsonObject &sent) {
            const auto it = d->calls.find(callId);
            if (it == d->calls.end())
                return;
            it->requestId = requestId;
            it->outcome.request = sent;
        });
    return callId;
}

void McpClient::cancelCall(qint64 callId, const QString &reason)
{
    const auto it = d->calls.find(callId);
    if (it == d->calls.end())
        return;
    Private::Call call = std::move(*it);
    d->calls.erase(it);
    if (d->connection) {
        d->connection->forget(call.requestId);
        if (d->discovered && d->transport)
            d->transport->abandon(call.requestId); // 2026-07-28 over HTTP: closing the stream cancels
        else
            d->connection->notify(u"notifications/cancelled"_s,
                                  {{u"requestId"_s, call.requestId}, {u"reason"_s, reason}});
    }
    call.outcome.cancelled = true;
    call.outcome.failure
        = tr("The call of “%1” on the MCP server “%2” was cancelled: %3").arg(call.tool, d->name(), reason);
    call.outcome.durationMs = call.clock.elapsed();
    if (call.done)
        call.done(call.outcome);
}

void McpClient::getPrompt(const QString &name, const QJsonObject &arguments,
                          std::function<void(const QString &text, const QString &error)> done)
{
    QJsonObject params{{u"name"_s, name}};
    if (!arguments.isEmpty()) {
        // Prompt arguments are strings.
        QJsonObject strings;
        for (auto it = arguments.begin(); it != arguments.end(); ++it)
            strings.insert(it.key(),
                           it.value().isString() ? it.value().toString() : it.value().toVariant().toString());
        params.insert(u"arguments"_s, strings);
    }
    d->request(u"prompts/get"_s, params, d->config.effectiveRequestTimeoutMs(),
               [this, done = std::move(done)](const JsonRpcReply &reply) {
                   if (!reply.hasResponse() || reply.isError())
                       done({}, d->replyFailure(reply, u"prompts/get"_s));
                   else
                       done(McpContent::promptResultText(reply.result()), {});
               });
}

void McpClient::readResource(const QString &uri,
                             std::function<void(const QString &text, const QString &error)> done)
{
    d->request(u"resources/read"_s, {{u"uri"_s, uri}}, d->config.effectiveRequestTimeoutMs(),
               [this, done = std::move(done)](const JsonRpcReply &reply) {
                   if (!reply.hasResponse() || reply.isError())
                       done({}, d->replyFailure(reply, u"resources/read"_s));
                   else
                       done(McpContent::resourceResultText(reply.result()), {});
               });
}

} // namespace Loopscope
