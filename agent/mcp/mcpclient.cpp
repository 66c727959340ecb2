#include "agent/mcp/mcpclient.h"

#include "agent/mcp/mcpclientprivate.h"

#include "agent/mcp/mcpauthorizer.h"
#include "agent/mcp/mcpcontent.h"
#include "agent/mcp/stdiotransport.h"

#include <QJsonDocument>
#include <QPointer>

using namespace Qt::StringLiterals;

namespace Loopscope {

using McpClientDetail::errorText;

// ---------------------------------------------------------------- sentences

QString McpClient::Private::lastOutput() const
{
    if (stderrRing.isEmpty())
        return {};
    const QStringList tail = stderrRing.mid(qMax(0, stderrRing.size() - 5));
    return u" "_s + McpClient::tr("Last output: %1").arg(tail.join(u" | "_s));
}

QString McpClient::Private::authSentence(const JsonRpcReply &reply) const
{
    const int status = reply.httpStatus;
    // With OAuth the transport signed in (or tried to): its words say what went wrong.
    if (authorizer && !config.headers.contains(u"Authorization"_s))
        return McpClient::tr("The MCP server “%1” wants authorisation (HTTP %2), and signing in did not "
                             "succeed: %3. If it takes a token instead, add an Authorization header in its "
                             "settings.")
            .arg(name())
            .arg(status)
            .arg(reply.transportError);
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
        return authSentence(reply);
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
    listenId = 0;
    failSubscribeWaiters(reason);
    for (const auto &waiter : waiters)
        waiter(reason);
    // Answers that waited for a tool list go on with what they got.
    releaseHeldCallReplies();
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

// ---------------------------------------------------------------- McpClient

McpClient::McpClient(McpServerConfig config, QNetworkAccessManager *network, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Private>(this, std::move(config), network))
{
    d->logLevel = d->config.logLevel; // the level the user chose, asked for once the server is ready
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

void McpClient::setAuthorizationServices(const UrlOpener *opener, SecretStore *tokenStore)
{
    d->urlOpener = opener;
    d->tokenStore = tokenStore;
}

std::optional<McpSignIn> McpClient::signIn() const
{
    return d->authorizer ? d->authorizer->signIn() : std::nullopt;
}

void McpClient::signOut(std::function<void(const QString &error)> done)
{
    if (!d->authorizer) {
        done({});
        return;
    }
    d->authorizer->signOut(std::move(done));
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

void McpClient::setSamplingHandler(SamplingHandler handler)
{
    d->samplingHandler = std::move(handler);
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

void McpClient::whenSent(std::function<void()> done)
{
    if (d->transport)
        d->transport->whenSent(std::move(done));
    else
        done();
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

QList<McpLogMessage> McpClient::logTail() const
{
    return d->logRing;
}

bool McpClient::supportsLogging() const
{
    return d->startupInfo && d->startupInfo->serverCapabilities.contains(u"logging"_s);
}

QString McpClient::logLevel() const
{
    return d->logLevel;
}

void McpClient::setLogLevel(const QString &level, std::function<void(const QString &error)> done)
{
    if (!McpLogMessage::levels().contains(level)) {
        if (done)
            done(tr("“%1” is not a log level (%2).").arg(level, McpLogMessage::levels().join(u", "_s)));
        return;
    }
    const QString previous = std::exchange(d->logLevel, level);
    if (d->state != State::Ready || d->discovered || !supportsLogging()) {
        // Sent once the server is ready, or with each request (2026-07-28); a server without the
        // logging capability sends no log messages to filter.
        if (done)
            done({});
        return;
    }
    // A refused level is not kept: the server goes on with the one it had.
    d->sendLogLevel([this, previous, level, done = std::move(done)](const QString &error, bool refused) {
        if (refused && d->logLevel == level)
            d->logLevel = previous;
        if (done)
            done(error);
    });
}

QString McpLogMessage::text() const
{
    QString shown = data.toString();
    if (!data.isString()) {
        // Any JSON value, compact: wrapped in an array, which QJsonDocument can write, then unwrapped.
        const QByteArray wrapped = QJsonDocument(QJsonArray{data}).toJson(QJsonDocument::Compact);
        shown = QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
    }
    return logger.isEmpty() ? u"[%1] %2"_s.arg(level, shown) : u"[%1] %2: %3"_s.arg(level, logger, shown);
}

QStringList McpLogMessage::levels()
{
    return {u"debug"_s, u"info"_s,     u"notice"_s, u"warning"_s,
            u"error"_s, u"critical"_s, u"alert"_s,  u"emergency"_s};
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
    call.params = {{u"name"_s, name}, {u"arguments"_s, arguments}};
    if (d->callsAsExperimentalTask(name))
        call.params.insert(u"task"_s, QJsonObject()); // the server's own time to live
    call.timeoutMs = timeoutMs > 0 ? timeoutMs : d->config.effectiveRequestTimeoutMs();
    const QJsonObject params = call.params;
    d->calls.insert(callId, std::move(call));
    d->sendCall(callId, params);
    return callId;
}

void McpClient::cancelCall(qint64 callId, const QString &reason)
{
    const auto it = d->calls.find(callId);
    if (it == d->calls.end())
        return;
    Private::Call call = std::move(*it);
    d->calls.erase(it);
    if (d->connection && !call.taskId.isEmpty()) {
        // A task is cancelled with tasks/cancel, never notifications/cancelled; its answer is not awaited.
        d->request(u"tasks/cancel"_s, {{u"taskId"_s, call.taskId}}, d->config.effectiveRequestTimeoutMs(),
                   [](const JsonRpcReply &) {});
    } else if (d->connection) {
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
    readResourceContents(uri, [done = std::move(done)](const QJsonObject &result, const QString &error) {
        done(error.isEmpty() ? McpContent::resourceResultText(result) : QString(), error);
    });
}

void McpClient::readResourceContents(
    const QString &uri, std::function<void(const QJsonObject &result, const QString &error)> done)
{
    sendRequest(u"resources/read"_s, {{u"uri"_s, uri}}, std::move(done));
}

void McpClient::sendRequest(const QString &method, const QJsonObject &params,
                            std::function<void(const QJsonObject &result, const QString &error)> done)
{
    d->request(method, params, d->config.effectiveRequestTimeoutMs(),
               [this, method, done = std::move(done)](const JsonRpcReply &reply) {
                   if (!reply.hasResponse() || reply.isError())
                       done({}, d->replyFailure(reply, method));
                   else
                       done(reply.result(), {});
               });
}

bool McpClient::supportsResourceSubscriptions() const
{
    return d->startupInfo
           && d->startupInfo->serverCapabilities.value(u"resources"_s)
                  .toObject()
                  .value(u"subscribe"_s)
                  .toBool();
}

void McpClient::subscribeResource(const QString &uri, std::function<void(const QString &error)> done)
{
    if (d->state != State::Ready || !supportsResourceSubscriptions()) {
        done(tr("The MCP server “%1” offers no resource subscriptions.").arg(d->name()));
        return;
    }
    if (d->subscribedResources.contains(uri)) {
        done({});
        return;
    }
    d->subscribedResources.append(uri);
    if (d->discovered) {
        // 2026-07-28 has no resources/subscribe: the listen stream is opened again with the resource.
        d->subscribeWaiters.append({uri, std::move(done)});
        d->closeListen();
        d->openListen();
        return;
    }
    d->request(u"resources/subscribe"_s, {{u"uri"_s, uri}}, d->config.effectiveRequestTimeoutMs(),
               [this, uri, done = std::move(done)](const JsonRpcReply &reply) {
                   if (!reply.hasResponse() || reply.isError()) {
                       d->subscribedResources.removeAll(uri);
                       done(d->replyFailure(reply, u"resources/subscribe"_s));
                   } else {
                       done({});
                   }
               });
}

void McpClient::unsubscribeResource(const QString &uri)
{
    if (d->subscribedResources.removeAll(uri) == 0 || d->state != State::Ready)
        return;
    if (d->discovered) {
        d->closeListen();
        d->openListen();
        return;
    }
    d->request(u"resources/unsubscribe"_s, {{u"uri"_s, uri}}, d->config.effectiveRequestTimeoutMs(),
               [](const JsonRpcReply &) {});
}

QStringList McpClient::subscribedResources() const
{
    return d->subscribedResources;
}

} // namespace Loopscope
