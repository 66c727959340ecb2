#pragma once

#include "agent/conversation/message.h"
#include "agent/mcp/mcpserverconfig.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QObject>
#include <QStringList>
#include <QUrl>

#include <functional>
#include <memory>
#include <optional>

QT_BEGIN_NAMESPACE
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

class SecretStore;
class UrlOpener;

struct McpToolInfo
{
    QString name; // as the server names it
    QString title;
    QString description;
    QJsonObject inputSchema;
    QJsonObject outputSchema; // empty when the tool declares none
    QJsonObject annotations;
    // 2025-11-25's experimental tasks: execution.taskSupport ("required", "optional", "forbidden";
    // empty when the tool says nothing). A "required" tool is called as a task.
    QString taskSupport;
    bool operator==(const McpToolInfo &) const = default;
};

struct McpPromptArgument
{
    QString name;
    QString description;
    bool required = false;
    bool operator==(const McpPromptArgument &) const = default;
};

struct McpPromptInfo
{
    QString name;
    QString title;
    QString description;
    QList<McpPromptArgument> arguments;
    bool operator==(const McpPromptInfo &) const = default;
};

struct McpResourceInfo
{
    QString uri;
    QString name;
    QString title;
    QString description;
    QString mimeType;
    bool operator==(const McpResourceInfo &) const = default;
};

struct McpProgress
{
    double progress = 0;
    std::optional<double> total;
    QString message;
    bool operator==(const McpProgress &) const = default;
};

/*!
    How one tools/call ended, with everything the trace keeps of it. Either
    `failure` is set (the server could not answer: exited, timed out, a
    JSON-RPC error, cancelled) or `result` holds the server's CallToolResult.
*/
struct McpCallOutcome
{
    QString failure; // a sentence naming the server; empty when the server answered
    bool cancelled = false;
    bool isError = false; // the result's isError: a tool failure the model should see
    QString text;         // for the model: text content, else structuredContent as JSON; images and
                          // resources as short descriptions; truncation is the loop's job
    QJsonObject result;   // the CallToolResult as received
    QJsonObject request;  // the JSON-RPC request as sent
    QJsonObject response; // the JSON-RPC response as received (empty on a failure without one)
    QList<McpProgress> progress;
    QStringList stderrLines; // what the server wrote to stderr while the call ran (stdio only)
    qint64 durationMs = 0;
    TokenUsage samplingUsage; // the model calls the server asked for during the call (sampling)
};

/*!
    One log message a server sent (notifications/message, the logging utility):
    its severity, the logger that wrote it and any JSON as data, for the
    server's Output tab. The server chooses what to send at or above the level
    the client asked for (McpClient::setLogLevel()).
*/
struct McpLogMessage
{
    QString level;   // one of levels()
    QString logger;  // empty when the server names none
    QJsonValue data; // any JSON: usually a string or an object
    QDateTime received;

    // "[warning] database: Connection failed" (data that is not a string as compact JSON).
    QString text() const;
    // The RFC 5424 severities MCP uses, least severe first.
    static QStringList levels();
    bool operator==(const McpLogMessage &) const = default;
};

/*!
    A question the server asks the user (elicitation/create): a form to fill in,
    or (URL mode, 2025-11-25) a page to open outside Loopscope, which is opened
    only once the user agrees; what they do there never passes through the client.
*/
struct McpElicitation
{
    QString serverName;
    QString message;
    QJsonObject requestedSchema; // form mode: a flat object schema (string, number, integer, boolean, enum)
    QUrl url;                    // URL mode (an http or https address); empty for a form
    bool isUrl() const { return !url.isEmpty(); }
};

struct McpElicitationAnswer
{
    enum class Action { Accept, Decline, Cancel };
    Action action = Action::Decline;
    QJsonObject content; // with Accept: the field values
};

/*!
    A model call a server asks the client to make (sampling/createMessage,
    2025-11-25; an input request of a 2026-07-28 result): shown to the user,
    who may edit or refuse it, before it runs on the user's provider. The
    server never picks the model; its preferences are hints.
*/
struct McpSamplingRequest
{
    QString serverName;
    QJsonArray messages;          // SamplingMessage[]: role, content (one block or an array of blocks)
    QString systemPrompt;         // empty: none
    QJsonObject modelPreferences; // hints[].name, costPriority, speedPriority, intelligencePriority
    int maxTokens = 0;            // required by the spec; 0 when the server sent none
    QJsonArray tools;             // Tool[] the model may call; the server runs them, not Loopscope
    QJsonObject toolChoice;       // {mode: auto | required | none}; empty: auto
    QJsonObject params;           // the request's params as received

    // The first model name the server hints at; empty: none.
    QString preferredModel() const;
    static McpSamplingRequest fromParams(const QString &serverName, const QJsonObject &params);
};

struct McpSamplingAnswer
{
    bool accepted = false;
    QJsonObject result; // accepted: the CreateMessageResult (role, content, model, stopReason)
    QString reason;     // refused: why, for the server; empty: the user declined
    TokenUsage usage;   // what the model call spent, counted into the tool call's
};

/*! What start-up found, for the trace node of its own and the settings page. */
struct McpStartupInfo
{
    QString protocolVersion; // negotiated, e.g. "2025-11-25" or "2026-07-28"
    bool discovered = false; // true: server/discover answered (2026-07-28); false: initialize handshake
    QJsonObject serverInfo;  // name, version, …
    QJsonObject serverCapabilities;
    QString instructions;
    int toolCount = 0;
    qint64 durationMs = 0;
    QList<QJsonObject> exchange; // the JSON-RPC messages of the start-up, in order, as sent and received
};

/*!
    A connection to one MCP server, stdio or Streamable HTTP, on the thread
    that created it. It starts the server, probes the 2026-07-28 revision with
    server/discover and falls back to the initialize handshake, lists the
    server's tools, prompts and resources (following every nextCursor), keeps
    those lists fresh on list_changed, answers the server's requests (ping,
    roots/list, elicitation/create, sampling/createMessage; anything else
    "method not found") and the input a 2026-07-28 tool call asks for
    (input_required: the call is retried with the answers), and
    calls tools with progress and cancellation. Every callback runs on this
    object's thread; every call's callback runs exactly once, also when the
    server dies or the client is stopped or destroyed meanwhile. Destroying
    it ends the server process (close stdin, SIGTERM, SIGKILL) and the HTTP
    session (DELETE).
*/
class McpClient final : public QObject
{
    Q_OBJECT

public:
    enum class State { Stopped, Starting, Ready, Failed };
    Q_ENUM(State)

    using ElicitationReply = std::function<void(const McpElicitationAnswer &)>;
    using ElicitationHandler = std::function<void(const McpElicitation &, ElicitationReply reply)>;
    using SamplingReply = std::function<void(const McpSamplingAnswer &)>;
    using SamplingHandler = std::function<void(const McpSamplingRequest &, SamplingReply reply)>;
    using ProgressCallback = std::function<void(const McpProgress &)>;
    using CallCallback = std::function<void(const McpCallOutcome &)>;

    McpClient(McpServerConfig config, QNetworkAccessManager *network, QObject *parent = nullptr);
    ~McpClient() override;

    const McpServerConfig &config() const;
    // The single root offered to the server (roots/list); empty: none.
    void setRootFolder(const QString &folder);
    // No handler: every elicitation is declined.
    void setElicitationHandler(ElicitationHandler handler);
    // With a handler the client declares the sampling capability (set it before start()); without one
    // it declares none, and a request that comes anyway is refused as the user's decline.
    void setSamplingHandler(SamplingHandler handler);
    // Where an OAuth sign-in opens its URL (not owned; null: $BROWSER only) and keeps its tokens
    // (not owned; null: in memory for this run). Set before start().
    void setAuthorizationServices(const UrlOpener *opener, SecretStore *tokenStore);
    // OAuth: the issuer, scopes and expiry of the sign-in; nullopt when not signed in (or not HTTP).
    std::optional<McpSignIn> signIn() const;
    // Forgets the sign-in, in memory and in the keychain (\a done gets the keychain's error, if any);
    // the server's next request signs in again.
    void signOut(std::function<void(const QString &error)> done);

    // How long start-up may take before the server is given up on (default 30 s).
    void setStartupTimeoutMs(int milliseconds);

    void start();   // no-op unless Stopped or Failed; ends in Ready or Failed (stateChanged)
    void stop();    // graceful; pending calls end with a failure; state Stopped at once
    void restart(); // stop(), then start()
    // Runs \a done once the notifications sent so far (a cancellation, say) have left.
    void whenSent(std::function<void()> done);

    State state() const;
    QString failureReason() const; // for Failed: a sentence for the user, naming the server
    std::optional<McpStartupInfo> startupInfo() const; // once Ready
    QList<McpToolInfo> tools() const;
    QList<McpPromptInfo> prompts() const;
    QList<McpResourceInfo> resources() const;
    QStringList stderrTail() const;       // the last lines the server wrote to stderr (a bounded ring)
    QList<McpLogMessage> logTail() const; // the last log messages the server sent (a bounded ring)

    // Whether the server declared the logging capability (false until Ready).
    bool supportsLogging() const;
    // The least severe level the server should send; empty: whatever the server sends by default.
    QString logLevel() const;
    // Asks for log messages at \a level (one of McpLogMessage::levels()) and above: logging/setLevel
    // for a server that declared logging (2025-11-25 and before; sent again after every start), or
    // io.modelcontextprotocol/logLevel in the _meta of every request from now on (2026-07-28, where
    // log messages only come with a request's answer). \a done gets the server's refusal, if any (the
    // level is then the one before).
    void setLogLevel(const QString &level, std::function<void(const QString &error)> done = {});
    // The stdio server's process id, for diagnostics and tests; 0 for HTTP or when not running.
    qint64 processId() const;

    // Calls a tool; `progress` and `done` run on this object's thread. Returns an id for cancelCall().
    qint64 callTool(const QString &name, const QJsonObject &arguments, int timeoutMs,
                    ProgressCallback progress, CallCallback done);
    // Sends notifications/cancelled; `done` runs at once with cancelled = true, a late answer is ignored.
    void cancelCall(qint64 callId, const QString &reason);

    // prompts/get: the messages' text joined, for the composer; or an error sentence.
    void getPrompt(const QString &name, const QJsonObject &arguments,
                   std::function<void(const QString &text, const QString &error)> done);
    // resources/read: the text contents joined (blobs described); or an error sentence.
    void readResource(const QString &uri,
                      std::function<void(const QString &text, const QString &error)> done);
    // resources/read: the ReadResourceResult as the server sent it (blobs too); or an error sentence.
    void readResourceContents(const QString &uri,
                              std::function<void(const QJsonObject &result, const QString &error)> done);
    // Any request (resources/templates/list, prompts/get, …) with the client's _meta and session
    // handling, for a person exploring the server: the result as received, or an error sentence.
    void sendRequest(const QString &method, const QJsonObject &params,
                     std::function<void(const QJsonObject &result, const QString &error)> done);

    // Whether the server offers resource subscriptions (resources.subscribe; false until Ready).
    bool supportsResourceSubscriptions() const;
    // resources/subscribe: resourceUpdated(uri) whenever the server says the resource changed, until
    // unsubscribeResource(); held across restarts. \a done gets an error sentence, or empty.
    void subscribeResource(const QString &uri, std::function<void(const QString &error)> done);
    // resources/unsubscribe (sent only while Ready; the subscription is forgotten either way).
    void unsubscribeResource(const QString &uri);
    QStringList subscribedResources() const;

signals:
    void stateChanged(Loopscope::McpClient::State state);
    void toolsChanged();
    void promptsChanged();
    void resourcesChanged();
    // notifications/resources/updated for a subscribed resource: read it again to see what changed.
    void resourceUpdated(const QString &uri);
    void stderrLine(const QString &line);
    void logMessage(const Loopscope::McpLogMessage &message);
    // signIn() changed.
    void signInChanged();
    // One step of an OAuth sign-in is over (URLs and statuses, never a token).
    void authStep(const Loopscope::McpAuthStep &step);
    // Every JSON-RPC message, as sent (outgoing = true) or received, for a log view.
    void messageLogged(bool outgoing, const QJsonObject &message);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace Loopscope
