#include "agent/mcp/mcpclientprivate.h"

#include "agent/mcp/httptransport.h"
#include "agent/mcp/mcpauthorizer.h"
#include "agent/mcp/stdiotransport.h"

#include <QCoreApplication>
#include <QPointer>

using namespace Qt::StringLiterals;

namespace Loopscope {

using McpClientDetail::errorText;
using McpClientDetail::ListKind;

namespace {

const QString ModernVersion = u"2026-07-28"_s;
const QString PreferredLegacyVersion = u"2025-11-25"_s;
const QStringList LegacyVersions = {u"2025-11-25"_s, u"2025-06-18"_s, u"2025-03-26"_s, u"2024-11-05"_s};
constexpr int ProbeTimeoutMs = 3000;
// The errors of 2026-07-28 that a probe must not answer with the handshake.
constexpr int HeaderMismatchCode = -32020;
constexpr int MissingCapabilityCode = -32021;
constexpr int UnsupportedVersionCode = -32022;

} // namespace

// ---------------------------------------------------------------- start-up

void McpClient::Private::openTransport()
{
    if (config.transport == McpServerConfig::Transport::Stdio) {
        transport
            = new StdioTransport(config.command, config.arguments, config.environment,
                                 config.workingDirectory.isEmpty() ? rootFolder : config.workingDirectory, q);
    } else {
        auto *http = new HttpTransport(network, config.url, config.headers, q);
        if (!authorizer) {
            authorizer = new McpAuthorizer(network, config.name, config.url, config.oauth, q);
            QObject::connect(authorizer, &McpAuthorizer::logLine, q,
                             [this](const QString &line) { appendLog(line); });
            QObject::connect(authorizer, &McpAuthorizer::signInChanged, q, &McpClient::signInChanged);
            QObject::connect(authorizer, &McpAuthorizer::stepDone, q, &McpClient::authStep);
            QObject::connect(authorizer, &McpAuthorizer::waitingForUser, q, [this](bool waiting) {
                // A person signing in is not a server that hangs: start-up and requests wait for them.
                if (connection)
                    connection->holdTimeouts(waiting);
                if (waiting) {
                    startupTimer.stop();
                } else if (state == State::Starting) {
                    startupClock.start(); // after the sign-in, start-up has its full time again
                    startupTimer.start(startupTimeoutMs);
                }
            });
        }
        authorizer->setUrlOpener(urlOpener);
        authorizer->setTokenStore(tokenStore);
        http->setAuthorizer(authorizer);
        transport = http;
    }
    transport->setMaxResponseBytes(config.maxResponseBytes);
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
    // 2026-07-28 wants the header on every POST, the probe included; a server of that revision
    // refuses a probe without it.
    transport->setProtocolVersion(ModernVersion);
    request(u"server/discover"_s, {}, qMin(ProbeTimeoutMs, startupTimeoutMs),
            [this, generation](const JsonRpcReply &reply) {
                if (!isStarting(generation) || phase != Phase::Probe)
                    return;
                if (reply.httpStatus == 401 || reply.httpStatus == 403) {
                    fail(authSentence(reply));
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
                // A modern refusal says what is wrong; falling back would only be refused as well.
                if (onModernRefusal(reply.isError() ? reply.error() : reply.bodyError))
                    return;
                // Any other error, a timeout or a server that only speaks older revisions: the
                // handshake, which negotiates its own version.
                transport->setProtocolVersion({});
                sendInitialize();
            });
}

bool McpClient::Private::onModernRefusal(const QJsonObject &error)
{
    const int code = error.value(u"code"_s).toInt();
    if (code == HeaderMismatchCode) {
        fail(McpClient::tr("The MCP server “%1” refused the request's protocol headers: %2")
                 .arg(name(), errorText(error)));
        return true;
    }
    if (code == MissingCapabilityCode) {
        fail(McpClient::tr("The MCP server “%1” needs a client capability Loopscope does not offer: %2")
                 .arg(name(), errorText(error)));
        return true;
    }
    if (code != UnsupportedVersionCode)
        return false;
    QStringList supported;
    for (const QJsonValue &version : error.value(u"data"_s).toObject().value(u"supported"_s).toArray())
        supported.append(version.toString());
    for (const QString &version : LegacyVersions) {
        if (supported.contains(version)) {
            // The server named a revision of the handshake it speaks.
            transport->setProtocolVersion({});
            sendInitialize();
            return true;
        }
    }
    const QString loopscopeVersions = (QStringList{ModernVersion} + LegacyVersions).join(u", "_s);
    if (supported.isEmpty()) {
        fail(
            McpClient::tr("The MCP server “%1” does not support MCP version %2 and names no other (Loopscope "
                          "supports %3).")
                .arg(name(), ModernVersion, loopscopeVersions));
    } else {
        fail(McpClient::tr("The MCP server “%1” supports MCP versions %2, none of which Loopscope supports "
                           "(it supports %3).")
                 .arg(name(), supported.join(u", "_s), loopscopeVersions));
    }
    return true;
}

QJsonObject McpClient::Private::clientCapabilities() const
{
    QJsonObject capabilities{
        {u"roots"_s, QJsonObject{{u"listChanged"_s, true}}},
        {u"elicitation"_s, QJsonObject{{u"form"_s, QJsonObject{}}, {u"url"_s, QJsonObject{}}}}};
    // Sampling only when someone can say yes to it; the model may get the server's tools (2025-11-25).
    if (samplingHandler)
        capabilities.insert(u"sampling"_s, QJsonObject{{u"tools"_s, QJsonObject{}}});
    return capabilities;
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
    QJsonObject capabilities = clientCapabilities();
    // A tool call may be answered with a task, which is polled (the tasks extension).
    capabilities.insert(u"extensions"_s, QJsonObject{{u"io.modelcontextprotocol/tasks"_s, QJsonObject()}});
    meta.insert(u"io.modelcontextprotocol/clientCapabilities"_s, capabilities);
    meta.insert(u"io.modelcontextprotocol/clientInfo"_s, clientInfo());
    if (!logLevel.isEmpty() && !meta.contains(u"io.modelcontextprotocol/logLevel"_s))
        meta.insert(u"io.modelcontextprotocol/logLevel"_s, logLevel);
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
    // A level the user chose holds across restarts; a 2026-07-28 server gets it with each request.
    if (!logLevel.isEmpty() && !discovered && pendingInfo.serverCapabilities.contains(u"logging"_s))
        sendLogLevel({});
    // Subscriptions hold across restarts, like the log level; a 2026-07-28 server sends its
    // notifications on the stream of subscriptions/listen.
    if (discovered) {
        openListen();
    } else if (q->supportsResourceSubscriptions()) {
        for (const QString &uri : std::as_const(subscribedResources))
            request(u"resources/subscribe"_s, {{u"uri"_s, uri}}, config.effectiveRequestTimeoutMs(),
                    [](const JsonRpcReply &) {});
    }
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

} // namespace Loopscope
