#include "agent/mcp/mcpclientprivate.h"

#include "agent/mcp/mcpcontent.h"
#include "agent/mcp/mcptransport.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QPointer>
#include <QUrl>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

using McpClientDetail::errorText;
using McpClientDetail::ListKind;

namespace {

constexpr int MaxStderrLines = 200;
constexpr int MaxLogMessages = 500;
// Between two tasks/get of one task: the server's pollIntervalMs, within these bounds.
constexpr int DefaultTaskPollMs = 1000;
constexpr int MinTaskPollMs = 20;
constexpr int MaxTaskPollMs = 60'000;
constexpr int MethodNotFound = -32601;
// What a client answers a sampling request the user refused with (client/sampling, "Error Handling").
constexpr int UserRejected = -1;
constexpr auto UserRejectedMessage = "User rejected sampling request"_L1;
// input_required answers to one call before it is given up on.
constexpr int MaxInputRounds = 8;

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
    tool.taskSupport = json.value(u"execution"_s).toObject().value(u"taskSupport"_s).toString();
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

} // namespace

QString McpSamplingRequest::preferredModel() const
{
    for (const QJsonValue &hint : modelPreferences.value(u"hints"_s).toArray()) {
        const QString model = hint.toObject().value(u"name"_s).toString();
        if (!model.isEmpty())
            return model;
    }
    return {};
}

McpSamplingRequest McpSamplingRequest::fromParams(const QString &serverName, const QJsonObject &params)
{
    McpSamplingRequest request;
    request.serverName = serverName;
    request.messages = params.value(u"messages"_s).toArray();
    request.systemPrompt = params.value(u"systemPrompt"_s).toString();
    request.modelPreferences = params.value(u"modelPreferences"_s).toObject();
    request.maxTokens = params.value(u"maxTokens"_s).toInt();
    request.tools = params.value(u"tools"_s).toArray();
    request.toolChoice = params.value(u"toolChoice"_s).toObject();
    request.params = params;
    return request;
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
        return;
    }
    if (method != u"roots/list"_s && method != u"elicitation/create"_s
        && method != u"sampling/createMessage"_s) {
        connection->respondError(id, MethodNotFound, u"Method not found"_s);
        return;
    }
    // The answer may come after this connection is gone (a restart meanwhile): then nobody hears it.
    QPointer<JsonRpcConnection> target = connection;
    const int generation = this->generation;
    answerInput(method, params, [this, target, id, generation](const InputAnswer &answer) {
        if (!target)
            return;
        // The tokens go to the call that made the server ask (the latest still running: 2025 requests
        // do not say which over stdio).
        if (!answer.usage.isEmpty() && generation == this->generation && !calls.isEmpty())
            calls[*std::max_element(calls.keyBegin(), calls.keyEnd())].outcome.samplingUsage += answer.usage;
        if (answer.errorCode != 0)
            target->respondError(id, answer.errorCode, answer.errorMessage);
        else
            target->respond(id, answer.result);
    });
}

QJsonObject McpClient::Private::rootsResult() const
{
    QJsonArray roots;
    if (!rootFolder.isEmpty()) {
        roots.append(QJsonObject{{u"uri"_s, QUrl::fromLocalFile(rootFolder).toString()},
                                 {u"name"_s, QFileInfo(rootFolder).fileName()}});
    }
    return {{u"roots"_s, roots}};
}

void McpClient::Private::answerInput(const QString &method, const QJsonObject &params,
                                     std::function<void(const InputAnswer &)> done)
{
    if (method == u"roots/list"_s)
        done({rootsResult(), 0, {}});
    else if (method == u"elicitation/create"_s)
        askElicitation(params, std::move(done));
    else if (method == u"sampling/createMessage"_s)
        askSampling(params, std::move(done));
    else
        done({{}, MethodNotFound, u"Method not found"_s});
}

void McpClient::Private::askElicitation(const QJsonObject &params,
                                        std::function<void(const InputAnswer &)> done)
{
    auto answered = std::make_shared<bool>(false);
    auto reply = [done, answered](const McpElicitationAnswer &answer) {
        if (std::exchange(*answered, true))
            return;
        QJsonObject result;
        switch (answer.action) {
        case McpElicitationAnswer::Action::Accept:
            result.insert(u"action"_s, u"accept"_s);
            result.insert(u"content"_s, answer.content);
            break;
        case McpElicitationAnswer::Action::Decline: result.insert(u"action"_s, u"decline"_s); break;
        case McpElicitationAnswer::Action::Cancel: result.insert(u"action"_s, u"cancel"_s); break;
        }
        done({result, 0, {}});
    };
    const QString mode = params.value(u"mode"_s).toString();
    McpElicitation elicitation;
    elicitation.serverName = name();
    elicitation.message = params.value(u"message"_s).toString();
    elicitation.requestedSchema = params.value(u"requestedSchema"_s).toObject();
    if (mode == u"url"_s) {
        // Only a web address is ever offered for opening; anything else is declined unseen.
        const QUrl url(params.value(u"url"_s).toString(), QUrl::StrictMode);
        if (url.isValid() && (url.scheme() == u"https"_s || url.scheme() == u"http"_s)
            && !url.host().isEmpty())
            elicitation.url = url;
    }
    const bool known = mode.isEmpty() || mode == u"form"_s || (mode == u"url"_s && elicitation.isUrl());
    if (!elicitationHandler || !known) {
        reply({});
        return;
    }
    elicitationHandler(elicitation, reply);
}

void McpClient::Private::askSampling(const QJsonObject &params, std::function<void(const InputAnswer &)> done)
{
    auto answered = std::make_shared<bool>(false);
    auto reply = [done, answered](const McpSamplingAnswer &answer) {
        if (std::exchange(*answered, true))
            return;
        if (answer.accepted)
            done({answer.result, 0, {}, answer.usage});
        else // the spec's answer to a refused sampling request (client/sampling, "Error Handling")
            done({{},
                  UserRejected,
                  answer.reason.isEmpty() ? QString(UserRejectedMessage) : answer.reason,
                  answer.usage});
    };
    if (!samplingHandler) {
        reply({});
        return;
    }
    samplingHandler(McpSamplingRequest::fromParams(name(), params), reply);
}

// ---------------------------------------------------------------- multi-round-trip requests

void McpClient::Private::sendCall(qint64 callId, const QJsonObject &params)
{
    const auto it = calls.find(callId);
    if (it == calls.end())
        return;
    QJsonObject sent = params;
    sent.insert(u"_meta"_s, QJsonObject{{u"progressToken"_s, it->progressToken}});
    request(
        u"tools/call"_s, sent, it->timeoutMs,
        [this, callId](const JsonRpcReply &reply) { onCallReply(callId, reply); },
        [this, callId](qint64 requestId, const QJsonObject &message) {
            const auto it = calls.find(callId);
            if (it == calls.end())
                return;
            it->requestId = requestId;
            it->outcome.request = message;
        });
}

void McpClient::Private::answerInputRequired(qint64 callId, const QJsonObject &inputRequired)
{
    const auto it = calls.find(callId);
    if (it == calls.end())
        return;
    const QString tool = it->tool;
    if (++it->inputRounds > MaxInputRounds) {
        finishCall(callId, [&](McpCallOutcome &outcome) {
            outcome.result = inputRequired;
            outcome.failure
                = McpClient::tr("The MCP server “%1” kept asking for more input during the call of "
                                "“%2”; Loopscope gave up after %3 rounds.")
                      .arg(name(), tool)
                      .arg(MaxInputRounds);
        });
        return;
    }
    const QJsonObject inputRequests = inputRequired.value(u"inputRequests"_s).toObject();
    const QJsonValue requestState = inputRequired.value(u"requestState"_s);
    if (inputRequests.isEmpty()) {
        retryCall(callId, {}, requestState);
        return;
    }
    answerInputRequests(
        callId, inputRequests,
        [this, callId, requestState, tool](const QJsonObject &responses, const QString &refusal) {
            if (refusal.isEmpty()) {
                retryCall(callId, responses, requestState);
                return;
            }
            // 2026-07-28 has no input response that says "refused" for sampling: the call
            // is not retried (a retry without it would only be asked again).
            finishCall(callId, [&](McpCallOutcome &outcome) {
                outcome.failure
                    = McpClient::tr("The call of “%1” on the MCP server “%2” was not completed: %3")
                          .arg(tool, name(), refusal);
            });
        });
}

void McpClient::Private::answerInputRequests(qint64 callId, const QJsonObject &inputRequests,
                                             InputRequestsDone done)
{
    auto responses = std::make_shared<QJsonObject>();
    auto pending = std::make_shared<int>(int(inputRequests.size()));
    auto refusal = std::make_shared<QString>();
    const int generation = this->generation;
    for (auto request = inputRequests.constBegin(); request != inputRequests.constEnd(); ++request) {
        const QString key = request.key();
        const QJsonObject asked = request.value().toObject();
        const QString method = asked.value(u"method"_s).toString();
        answerInput(method, asked.value(u"params"_s).toObject(),
                    [this, callId, key, method, responses, pending, refusal, generation,
                     done](const InputAnswer &answer) {
                        if (generation != this->generation || !calls.contains(callId))
                            return; // cancelled or torn down meanwhile
                        calls[callId].outcome.samplingUsage += answer.usage;
                        if (answer.errorCode != 0 && refusal->isEmpty())
                            *refusal = method == u"sampling/createMessage"_s
                                               && answer.errorMessage == UserRejectedMessage
                                           ? McpClient::tr("the user declined its request for a model call.")
                                           : answer.errorMessage;
                        else if (answer.errorCode == 0)
                            responses->insert(key, answer.result);
                        if (--*pending == 0)
                            done(*responses, *refusal);
                    });
    }
}

void McpClient::Private::retryCall(qint64 callId, const QJsonObject &inputResponses,
                                   const QJsonValue &requestState)
{
    const auto it = calls.find(callId);
    if (it == calls.end())
        return;
    QJsonObject params = it->params;
    if (!inputResponses.isEmpty())
        params.insert(u"inputResponses"_s, inputResponses);
    if (!requestState.isUndefined() && !requestState.isNull())
        params.insert(u"requestState"_s, requestState); // echoed exactly, never looked into
    sendCall(callId, params);
}

// ---------------------------------------------------------------- subscriptions/listen

QJsonObject McpClient::Private::listenNotifications() const
{
    const QJsonObject capabilities = pendingInfo.serverCapabilities;
    const auto declares = [&capabilities](const QString &kind, const QString &feature) {
        return capabilities.value(kind).toObject().value(feature).toBool();
    };
    // Only what the server declared: it must not send what was not asked for, and asking for
    // more than it offers is an error.
    QJsonObject notifications;
    if (declares(u"tools"_s, u"listChanged"_s))
        notifications.insert(u"toolsListChanged"_s, true);
    if (declares(u"prompts"_s, u"listChanged"_s))
        notifications.insert(u"promptsListChanged"_s, true);
    if (declares(u"resources"_s, u"listChanged"_s))
        notifications.insert(u"resourcesListChanged"_s, true);
    if (declares(u"resources"_s, u"subscribe"_s) && !subscribedResources.isEmpty())
        notifications.insert(u"resourceSubscriptions"_s, QJsonArray::fromStringList(subscribedResources));
    return notifications;
}

void McpClient::Private::openListen()
{
    const QJsonObject notifications = listenNotifications();
    if (notifications.isEmpty() || !connection)
        return;
    // The request id is the subscription's; the answer only comes when the server ends it.
    struct Listen
    {
        qint64 id = 0;
        bool ended = false;
    };
    auto listen = std::make_shared<Listen>();
    request(
        u"subscriptions/listen"_s, {{u"notifications"_s, notifications}}, 0,
        [this, listen](const JsonRpcReply &reply) {
            listen->ended = true;
            if (listen->id != 0 && listen->id != listenId)
                return; // one closed on purpose, or of an earlier run
            listenId = 0;
            const QString why = !reply.hasResponse() ? reply.transportError
                                : reply.isError()    ? McpClientDetail::errorText(reply.error())
                                                     : McpClient::tr("the server ended it");
            if (state == State::Ready)
                appendLog(
                    McpClient::tr("[Loopscope] the server's notifications stopped (subscriptions/listen): %1")
                        .arg(why));
            failSubscribeWaiters(McpClient::tr("The MCP server “%1” did not listen for the subscription: %2")
                                     .arg(name(), why));
        },
        [this, listen](qint64 id, const QJsonObject &) {
            listen->id = id;
            if (!listen->ended)
                listenId = id;
        });
}

void McpClient::Private::closeListen()
{
    const qint64 id = std::exchange(listenId, 0);
    if (id == 0 || !connection)
        return;
    connection->forget(id);
    // Over HTTP closing the response stream ends it; over stdio the server is told.
    if (config.transport == McpServerConfig::Transport::Http && transport)
        transport->abandon(id);
    else
        connection->notify(u"notifications/cancelled"_s,
                           {{u"requestId"_s, id}, {u"reason"_s, u"subscriptions changed"_s}});
}

void McpClient::Private::onListenAcknowledged(const QJsonObject &params)
{
    const QJsonValue subscription
        = params.value(u"_meta"_s).toObject().value(u"io.modelcontextprotocol/subscriptionId"_s);
    if (!subscription.isUndefined() && subscription.toInteger() != listenId)
        return; // the acknowledgement of a stream already closed
    const QJsonArray accepted
        = params.value(u"notifications"_s).toObject().value(u"resourceSubscriptions"_s).toArray();
    for (auto &[uri, done] : std::exchange(subscribeWaiters, {})) {
        if (accepted.contains(QJsonValue(uri))) {
            done({});
            continue;
        }
        subscribedResources.removeAll(uri);
        done(McpClient::tr("The MCP server “%1” did not accept the subscription to %2.").arg(name(), uri));
    }
}

void McpClient::Private::failSubscribeWaiters(const QString &error)
{
    for (auto &[uri, done] : std::exchange(subscribeWaiters, {})) {
        subscribedResources.removeAll(uri);
        done(error);
    }
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
        if (state == State::Ready && *changed == ListKind::Tools)
            refreshToolsForServer();
        else if (state == State::Ready)
            refreshList(*changed, [](const QString &) {});
        else if (state == State::Starting)
            relistAfterStartup[int(*changed)] = true;
        return;
    }
    if (method == u"notifications/message"_s) {
        onLogMessage(params);
        return;
    }
    // notifications/tasks/status in 2025-11-25, notifications/tasks in the extension.
    if (method == u"notifications/tasks/status"_s || method == u"notifications/tasks"_s) {
        onTaskStatusNotification(params);
        return;
    }
    if (method == u"notifications/subscriptions/acknowledged"_s) {
        onListenAcknowledged(params);
        return;
    }
    if (method == u"notifications/resources/updated"_s) {
        // Only what was subscribed to: another URI is a server's mistake, not news for the user.
        const QString uri = params.value(u"uri"_s).toString();
        if (subscribedResources.contains(uri))
            emit q->resourceUpdated(uri);
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

void McpClient::Private::onLogMessage(const QJsonObject &params)
{
    McpLogMessage message;
    message.level = params.value(u"level"_s).toString();
    if (!McpLogMessage::levels().contains(message.level))
        message.level = u"info"_s; // a level the spec does not name is shown, not dropped
    message.logger = params.value(u"logger"_s).toString();
    message.data = params.value(u"data"_s);
    message.received = QDateTime::currentDateTime();
    logRing.append(message);
    if (logRing.size() > MaxLogMessages)
        logRing.remove(0, logRing.size() - MaxLogMessages);
    if (!destroying)
        emit q->logMessage(message);
}

void McpClient::Private::sendLogLevel(std::function<void(const QString &error, bool refused)> done)
{
    request(u"logging/setLevel"_s, {{u"level"_s, logLevel}}, config.effectiveRequestTimeoutMs(),
            [this, done = std::move(done)](const JsonRpcReply &reply) {
                const QString error = reply.hasResponse() && !reply.isError()
                                          ? QString()
                                          : replyFailure(reply, u"logging/setLevel"_s);
                if (done)
                    done(error, reply.isError());
            });
}

void McpClient::Private::refreshToolsForServer()
{
    ++toolRefreshesInFlight;
    const int generation = this->generation;
    refreshList(ListKind::Tools, [this, generation](const QString &) {
        if (generation != this->generation)
            return; // teardown released what waited
        if (--toolRefreshesInFlight == 0)
            releaseHeldCallReplies();
    });
}

void McpClient::Private::releaseHeldCallReplies()
{
    toolRefreshesInFlight = 0;
    const auto held = std::exchange(heldCallReplies, {});
    for (const auto &release : held)
        release();
}

void McpClient::Private::onCallReply(qint64 callId, const JsonRpcReply &reply)
{
    const auto it = calls.find(callId);
    if (it == calls.end())
        return; // cancelled meanwhile
    if (toolRefreshesInFlight > 0) {
        // The server changed its tools during the call: the answer goes on once the new list is in.
        heldCallReplies.append([this, callId, reply] { onCallReply(callId, reply); });
        return;
    }
    if (reply.hasResponse() && !reply.isError() && !reply.timedOut
        && reply.result().value(u"resultType"_s).toString() == u"task"_s) {
        it->outcome.response = reply.response;
        followTask(callId, reply.result());
        return;
    }
    if (reply.hasResponse() && !reply.isError() && !reply.timedOut
        && reply.result().value(u"resultType"_s).toString() == u"input_required"_s) {
        it->outcome.response = reply.response;
        answerInputRequired(callId, reply.result());
        return;
    }
    if (reply.hasResponse() && !reply.isError() && !reply.timedOut && !discovered
        && reply.result().value(u"task"_s).isObject() && !reply.result().contains(u"content"_s)) {
        // 2025-11-25's CreateTaskResult: the task, polled the same way; its result via tasks/result.
        it->outcome.response = reply.response;
        it->experimentalTask = true;
        followTask(callId, reply.result().value(u"task"_s).toObject());
        return;
    }
    const QString tool = it->tool;
    const qint64 requestId = it->requestId;
    finishCall(callId, [&](McpCallOutcome &outcome) {
        outcome.response = reply.response;
        if (reply.timedOut) {
            outcome.failure
                = McpClient::tr("The MCP server “%1” did not answer the call of “%2” within %3 s.")
                      .arg(name(), tool)
                      .arg(outcome.durationMs / 1000.0, 0, 'f', 1);
            if (connection && !discovered)
                connection->notify(u"notifications/cancelled"_s,
                                   {{u"requestId"_s, requestId}, {u"reason"_s, u"Timed out"_s}});
        } else if (!reply.hasResponse()) {
            outcome.failure = replyFailure(reply, u"tools/call"_s);
        } else if (reply.isError()) {
            outcome.failure = McpClient::tr("The MCP server “%1” answered with an error: %2")
                                  .arg(name(), errorText(reply.error()));
        } else {
            outcome.result = reply.result();
            outcome.isError = outcome.result.value(u"isError"_s).toBool();
            outcome.text = McpContent::callResultText(outcome.result);
        }
    });
}

void McpClient::Private::finishCall(qint64 callId, const std::function<void(McpCallOutcome &outcome)> &fill)
{
    const auto it = calls.find(callId);
    if (it == calls.end())
        return;
    Call call = std::move(*it);
    calls.erase(it);
    call.outcome.durationMs = call.clock.elapsed();
    fill(call.outcome);
    if (call.done)
        call.done(call.outcome);
}

void McpClient::Private::followTask(qint64 callId, const QJsonObject &task)
{
    const auto it = calls.find(callId);
    if (it == calls.end())
        return;
    const QString taskId = task.value(u"taskId"_s).toString();
    if (taskId.isEmpty()) {
        finishCall(callId, [this](McpCallOutcome &outcome) {
            outcome.failure
                = McpClient::tr("The MCP server “%1” answered with a task without a taskId.").arg(name());
        });
        return;
    }
    it->taskId = taskId;
    JsonRpcReply created; // the first state of the task, as a tasks/get would give it
    created.response = QJsonObject{{u"result"_s, task}};
    onTaskState(callId, created);
}

void McpClient::Private::onTaskState(qint64 callId, const JsonRpcReply &reply)
{
    const auto it = calls.find(callId);
    if (it == calls.end())
        return; // cancelled (tasks/cancel was sent) or ended meanwhile
    const QString tool = it->tool;
    if (!reply.hasResponse() || reply.isError()) {
        finishCall(callId, [&](McpCallOutcome &outcome) {
            outcome.failure = reply.isError()
                                  ? McpClient::tr("The MCP server “%1” could not say how the task of "
                                                  "“%2” is going: %3")
                                        .arg(name(), tool, errorText(reply.error()))
                                  : replyFailure(reply, u"tasks/get"_s);
        });
        return;
    }
    const QJsonObject task = reply.result();
    const QString status = task.value(u"status"_s).toString();
    const QString message = task.value(u"statusMessage"_s).toString();
    if (it->experimentalTask
        && (status == u"completed"_s || status == u"failed"_s || status == u"input_required"_s)) {
        // The tool's result (a failed one's too, often with isError) is the answer of tasks/result;
        // input_required in 2025-11-25: the server sends its requests while tasks/result waits.
        fetchTaskResult(callId);
        return;
    }
    if (status == u"completed"_s) {
        finishCall(callId, [&](McpCallOutcome &outcome) {
            outcome.result = task.value(u"result"_s).toObject(); // what tools/call would have answered
            outcome.isError = outcome.result.value(u"isError"_s).toBool();
            outcome.text = McpContent::callResultText(outcome.result);
        });
        return;
    }
    if (status == u"input_required"_s) {
        answerTaskInput(callId, task);
        return;
    }
    if (status != u"working"_s) {
        finishCall(callId, [&](McpCallOutcome &outcome) {
            const QString why = message.isEmpty() ? QString() : u" "_s + message;
            if (status == u"failed"_s)
                outcome.failure = McpClient::tr("The task of “%1” on the MCP server “%2” failed: %3")
                                      .arg(tool, name(), errorText(task.value(u"error"_s).toObject()))
                                  + why;
            else if (status == u"cancelled"_s)
                outcome.failure
                    = McpClient::tr("The MCP server “%1” cancelled the task of “%2”.").arg(name(), tool)
                      + why;
            else
                outcome.failure
                    = McpClient::tr("The task of “%1” on the MCP server “%2” has an unknown status "
                                    "“%3”.")
                          .arg(tool, name(), status);
        });
        return;
    }
    // Still working: shown as running (with the server's words, when they change), polled again later.
    if (it->progress && (message != it->taskStatusMessage || it->outcome.progress.isEmpty())) {
        McpProgress progress;
        progress.message = message.isEmpty() ? McpClient::tr("running as a task on the server") : message;
        it->outcome.progress.append(progress);
        it->progress(progress);
    }
    it->taskStatusMessage = message;
    pollTaskLater(callId, task);
}

void McpClient::Private::pollTaskLater(qint64 callId, const QJsonObject &task)
{
    const auto it = calls.find(callId);
    if (it == calls.end() || it->taskPollPending)
        return; // one poll at a time (a notification or answered input may ask for another)
    it->taskPollPending = true;
    // pollIntervalMs in the extension, pollInterval in 2025-11-25.
    const int hint
        = task.value(u"pollIntervalMs"_s).toInt(task.value(u"pollInterval"_s).toInt(DefaultTaskPollMs));
    QTimer::singleShot(std::clamp(hint, MinTaskPollMs, MaxTaskPollMs), q,
                       [this, callId] { pollTask(callId); });
}

void McpClient::Private::answerTaskInput(qint64 callId, const QJsonObject &task)
{
    const auto it = calls.find(callId);
    if (it == calls.end())
        return;
    const QString tool = it->tool;
    const QString taskId = it->taskId;
    // A poll may come before the server has taken in the answers: what was answered is not asked again.
    QJsonObject unanswered;
    const QJsonObject inputRequests = task.value(u"inputRequests"_s).toObject();
    for (auto request = inputRequests.constBegin(); request != inputRequests.constEnd(); ++request) {
        if (!it->answeredTaskInputs.contains(request.key()))
            unanswered.insert(request.key(), request.value());
    }
    if (unanswered.isEmpty()) {
        pollTaskLater(callId, task);
        return;
    }
    const auto cancelTask = [this, taskId] {
        if (connection) // otherwise it would wait for an answer for ever
            request(u"tasks/cancel"_s, {{u"taskId"_s, taskId}}, config.effectiveRequestTimeoutMs(),
                    [](const JsonRpcReply &) {});
    };
    if (++it->inputRounds > MaxInputRounds) {
        cancelTask();
        finishCall(callId, [&](McpCallOutcome &outcome) {
            outcome.failure = McpClient::tr("The task of “%1” on the MCP server “%2” kept asking for more "
                                            "input; Loopscope gave up after %3 rounds and cancelled it.")
                                  .arg(tool, name())
                                  .arg(MaxInputRounds);
        });
        return;
    }
    for (auto request = unanswered.constBegin(); request != unanswered.constEnd(); ++request)
        it->answeredTaskInputs.insert(request.key());
    if (it->progress) {
        McpProgress progress;
        progress.message = McpClient::tr("waiting for input the task asked for");
        it->outcome.progress.append(progress);
        it->progress(progress);
    }
    answerInputRequests(
        callId, unanswered,
        [this, callId, task, tool, taskId, cancelTask](const QJsonObject &responses, const QString &refusal) {
            if (!refusal.isEmpty()) {
                // As for a call: no input response says "refused" (a declined form is an answer, a
                // declined model call is not), and the task would wait for one for ever.
                cancelTask();
                finishCall(callId, [&](McpCallOutcome &outcome) {
                    outcome.failure
                        = McpClient::tr("The task of “%1” on the MCP server “%2” was cancelled: %3")
                              .arg(tool, name(), refusal);
                });
                return;
            }
            request(
                u"tasks/update"_s, {{u"taskId"_s, taskId}, {u"inputResponses"_s, responses}},
                config.effectiveRequestTimeoutMs(), [this, callId, task, tool](const JsonRpcReply &reply) {
                    if (!calls.contains(callId))
                        return; // cancelled meanwhile
                    if (!reply.hasResponse() || reply.isError()) {
                        finishCall(callId, [&](McpCallOutcome &outcome) {
                            outcome.failure
                                = reply.isError()
                                      ? McpClient::tr("The MCP server “%1” did not take the answers for the "
                                                      "task of “%2”: %3")
                                            .arg(name(), tool, errorText(reply.error()))
                                      : replyFailure(reply, u"tasks/update"_s);
                        });
                        return;
                    }
                    pollTaskLater(callId, task); // the answers show in a later tasks/get
                });
        });
}

void McpClient::Private::pollTask(qint64 callId)
{
    const auto it = calls.find(callId);
    if (it == calls.end() || it->fetchingTaskResult)
        return;
    request(u"tasks/get"_s, {{u"taskId"_s, it->taskId}}, config.effectiveRequestTimeoutMs(),
            [this, callId](const JsonRpcReply &reply) {
                if (const auto it = calls.find(callId); it != calls.end())
                    it->taskPollPending = false;
                onTaskState(callId, reply);
            });
}

bool McpClient::Private::callsAsExperimentalTask(const QString &tool) const
{
    if (discovered)
        return false; // the extension: the server answers with a task when it wants to
    const QJsonObject requests
        = pendingInfo.serverCapabilities.value(u"tasks"_s).toObject().value(u"requests"_s).toObject();
    if (!requests.value(u"tools"_s).toObject().value(u"call"_s).isObject())
        return false;
    return std::any_of(tools.cbegin(), tools.cend(), [&tool](const McpToolInfo &info) {
        return info.name == tool && info.taskSupport == u"required"_s;
    });
}

void McpClient::Private::fetchTaskResult(qint64 callId)
{
    const auto it = calls.find(callId);
    if (it == calls.end() || it->fetchingTaskResult)
        return;
    it->fetchingTaskResult = true;
    request(u"tasks/result"_s, {{u"taskId"_s, it->taskId}}, config.effectiveRequestTimeoutMs(),
            [this, callId](const JsonRpcReply &reply) {
                const auto it = calls.find(callId);
                if (it == calls.end())
                    return; // cancelled meanwhile
                const QString tool = it->tool;
                finishCall(callId, [&](McpCallOutcome &outcome) {
                    if (!reply.hasResponse()) {
                        outcome.failure = replyFailure(reply, u"tasks/result"_s);
                    } else if (reply.isError()) {
                        outcome.failure = McpClient::tr("The task of “%1” on the MCP server “%2” failed: %3")
                                              .arg(tool, name(), errorText(reply.error()));
                    } else {
                        outcome.result = reply.result();
                        outcome.isError = outcome.result.value(u"isError"_s).toBool();
                        outcome.text = McpContent::callResultText(outcome.result);
                    }
                });
            });
}

void McpClient::Private::onTaskStatusNotification(const QJsonObject &task)
{
    const QString taskId = task.value(u"taskId"_s).toString();
    const auto it = std::find_if(calls.begin(), calls.end(),
                                 [&taskId](const Call &call) { return call.taskId == taskId; });
    if (taskId.isEmpty() || it == calls.end())
        return;
    if (task.value(u"status"_s).toString() != u"working"_s) {
        // It ended (or asks for input): no need to wait for the next poll.
        JsonRpcReply state;
        state.response = QJsonObject{{u"result"_s, task}};
        onTaskState(it.key(), state);
        return;
    }
    // Still working: only its words are news; the poll already waiting goes on as planned.
    const QString message = task.value(u"statusMessage"_s).toString();
    if (it->progress && !message.isEmpty() && message != it->taskStatusMessage) {
        McpProgress progress;
        progress.message = message;
        it->outcome.progress.append(progress);
        it->taskStatusMessage = message;
        it->progress(progress);
    }
}

} // namespace Loopscope
