#pragma once

// Not part of the interface: McpClient's insides, shared by the files that implement it by job
// (mcpclient.cpp: state and the public calls; mcpclientstartup.cpp: the handshake;
// mcpclientexchange.cpp: requests, lists and what the server sends).

#include "agent/mcp/jsonrpcconnection.h"
#include "agent/mcp/mcpclient.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSet>
#include <QTimer>

namespace Loopscope {

class McpAuthorizer;
class McpTransport;
class SecretStore;
class UrlOpener;

namespace McpClientDetail {

enum class ListKind { Tools, Prompts, Resources };

inline QString errorText(const QJsonObject &error)
{
    using namespace Qt::StringLiterals;
    return u"%1 (%2)"_s.arg(error.value(u"message"_s).toString()).arg(error.value(u"code"_s).toInt());
}

} // namespace McpClientDetail

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
        QString taskId; // the server answered with a task (tasks extension): polled until it ends
        QString taskStatusMessage;
        bool experimentalTask = false; // 2025-11-25's shape: the result comes from tasks/result
        bool fetchingTaskResult = false;
        QJsonObject params; // tools/call as first sent (without _meta): retried with the input it asks for
        int timeoutMs = 0;
        int inputRounds = 0;              // input_required answers so far: bounded, a server may ask for ever
        bool taskPollPending = false;     // a tasks/get waits (its timer or its answer): one at a time
        QSet<QString> answeredTaskInputs; // a task's inputRequests keys answered: never asked twice
    };

    // What one request of the server (or one input request of a 2026-07-28 result) is answered with:
    // a result, or a JSON-RPC error (code and message).
    struct InputAnswer
    {
        QJsonObject result;
        int errorCode = 0; // non-zero: refused
        QString errorMessage;
        TokenUsage usage; // a sampling request's model call
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
    QString authSentence(const JsonRpcReply &reply) const;

    // State
    void setState(State newState);
    void fail(const QString &reason);
    void teardown(const QString &reason);

    // Start-up
    void openTransport();
    void probe();
    bool onModernRefusal(const QJsonObject &error);
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
    void refreshList(McpClientDetail::ListKind kind, std::function<void(const QString &error)> done);
    void fetchPage(McpClientDetail::ListKind kind, int listGeneration, const QString &cursor,
                   std::shared_ptr<QJsonArray> items, std::function<void(const QString &error)> done);
    void applyList(McpClientDetail::ListKind kind, const QJsonArray &items);
    QString replyFailure(const JsonRpcReply &reply, const QString &what) const;

    // From the server
    void onServerRequest(const QJsonValue &id, const QString &method, const QJsonObject &params);
    void onServerNotification(const QString &method, const QJsonObject &params);
    // Asks the handlers what \a method (elicitation/create, sampling/createMessage, roots/list) with
    // \a params should be answered with; \a done runs once, maybe later.
    void answerInput(const QString &method, const QJsonObject &params,
                     std::function<void(const InputAnswer &)> done);
    void askElicitation(const QJsonObject &params, std::function<void(const InputAnswer &)> done);
    void askSampling(const QJsonObject &params, std::function<void(const InputAnswer &)> done);
    QJsonObject rootsResult() const;
    // Every one of \a inputRequests (key → {method, params}) asked at once, each maybe waiting for
    // the user; \a done once all are answered, with the answers by key and why one was refused
    // (empty when none was). Not called when the call ends meanwhile.
    using InputRequestsDone = std::function<void(const QJsonObject &responses, const QString &refusal)>;
    void answerInputRequests(qint64 callId, const QJsonObject &inputRequests, InputRequestsDone done);
    // 2026-07-28: a call answered with input_required is retried with what it asked for.
    void answerInputRequired(qint64 callId, const QJsonObject &inputRequired);
    void retryCall(qint64 callId, const QJsonObject &inputResponses, const QJsonValue &requestState);
    void sendCall(qint64 callId, const QJsonObject &params);
    void appendLog(const QString &line);
    // subscriptions/listen (2026-07-28): what to listen for, (re)opening and closing the stream.
    QJsonObject listenNotifications() const;
    void openListen();
    void closeListen();
    void onListenAcknowledged(const QJsonObject &params);
    void failSubscribeWaiters(const QString &error);
    void onLogMessage(const QJsonObject &params);
    // \a refused: the server answered with an error (not a connection that went away meanwhile).
    void sendLogLevel(std::function<void(const QString &error, bool refused)> done);
    void onCallReply(qint64 callId, const JsonRpcReply &reply);
    // Tasks extension: a call answered with a task is polled (tasks/get) at the server's interval.
    void followTask(qint64 callId, const QJsonObject &task);
    void pollTask(qint64 callId);
    void pollTaskLater(qint64 callId, const QJsonObject &task); // at the task's pollIntervalMs
    // A task in input_required: its new inputRequests answered with tasks/update, then polled on.
    void answerTaskInput(qint64 callId, const QJsonObject &task);
    void onTaskState(qint64 callId, const JsonRpcReply &reply);
    // 2025-11-25's experimental tasks: whether \a tool is called as a task (the server declared
    // tasks.requests.tools.call and the tool requires it); the result of one that ended; a status
    // the server sent on its own (notifications/tasks/status, or notifications/tasks of the extension).
    bool callsAsExperimentalTask(const QString &tool) const;
    void fetchTaskResult(qint64 callId);
    void onTaskStatusNotification(const QJsonObject &task);
    void finishCall(qint64 callId, const std::function<void(McpCallOutcome &outcome)> &fill);
    void refreshToolsForServer();
    void releaseHeldCallReplies();

    McpClient *q;
    McpServerConfig config;
    QNetworkAccessManager *network = nullptr;
    QString rootFolder;
    ElicitationHandler elicitationHandler;
    SamplingHandler samplingHandler;
    int startupTimeoutMs = 30'000;
    const UrlOpener *urlOpener = nullptr;
    SecretStore *tokenStore = nullptr;
    McpAuthorizer *authorizer = nullptr; // HTTP only; outlives transports, so a sign-in survives a restart

    State state = State::Stopped;
    QString failureReason;
    std::optional<McpStartupInfo> startupInfo;
    McpStartupInfo pendingInfo;
    QList<McpToolInfo> tools;
    QList<McpPromptInfo> prompts;
    QList<McpResourceInfo> resources;
    QStringList stderrRing;
    QList<McpLogMessage> logRing;
    QString logLevel;
    // Resources the user subscribed to, subscribed again after a restart: resources/subscribe
    // (2025-11-25 and before), or the resourceSubscriptions of subscriptions/listen (2026-07-28).
    QStringList subscribedResources;
    // 2026-07-28: the open subscriptions/listen request (0: none), which carries list changes and
    // resource updates; subscriptions wait for the server's acknowledgement of the one that has them.
    qint64 listenId = 0;
    QList<std::pair<QString, std::function<void(const QString &error)>>> subscribeWaiters;

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
    // Tool lists the server announced (list_changed) and that are still being fetched: a call's
    // answer waits for them, so the turn's next model request already offers the new tools.
    int toolRefreshesInFlight = 0;
    QList<std::function<void()>> heldCallReplies;

    QHash<qint64, Call> calls;
    qint64 nextCallId = 1;
    bool reinitialising = false;
    QList<std::function<void(const QString &)>> reinitWaiters;
};

} // namespace Loopscope
