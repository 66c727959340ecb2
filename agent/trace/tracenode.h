#pragma once

#include "agent/model/modelcost.h"
#include "agent/model/modelrequest.h"
#include "agent/model/recordedrequest.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <variant>

namespace Loopscope {

enum class TraceKind {
    Turn,
    Iteration,
    ModelCall,
    Retry,
    ToolCall,
    ShieldCheck,
    Reflection,
    Summary,
    Handoff,
    Error,
    McpServer,  // an MCP server's start-up (or its failure) during a turn
    Wait,       // a tool call held for someone's decision: the user's approval, a breakpoint
    Compaction, // what a request left out of the history to fit the model's context window
    Retrieval,  // a search of the user's documents (knowledge bases) and the passages it found
    McpAuth,    // one step of an MCP server's OAuth sign-in: a discovery, registration, the browser, a token
};
// The last kind, for loops over every kind: new kinds are appended, so saved traces keep their meaning.
constexpr TraceKind LastTraceKind = TraceKind::McpAuth;

enum class TraceStatus {
    Running,
    Ok,
    Error,
    Cancelled,
    Blocked, // a shield stopped this step
    Denied,  // an interceptor (the user) refused a tool call
    Skipped, // not run: a guard, a handoff that lost, a budget
    Limited, // ended by the iteration limit: answered, but with tools taken away
};

QString traceKindName(TraceKind kind);
std::optional<TraceKind> traceKindFromName(const QString &name);
QString traceStatusName(TraceStatus status);
std::optional<TraceStatus> traceStatusFromName(const QString &name);

struct TurnData
{
    QString agentName;
    QString input;
    QString output;
    QString outcome; // TurnOutcome name once finished
    TokenUsage usage;
    // Why the turn did not answer (TurnResult::error), and whether it ran into the iteration limit:
    // what the chat's notice at the turn's end says. Empty and false in traces recorded before them.
    QString error;
    bool limitReached = false;
    // The warning that the turn's request nearly filled the context window, as the chat said it.
    QString contextWarning;
    // How many messages of the history (less the system messages it starts with) came before the
    // question: which saved question is this turn's. Unset in traces recorded before it was kept,
    // whose turns are found by their first request, which held the whole history until compaction.
    std::optional<qint64> messagesBefore;
    // The version of the agent the turn started as, and its definition as an agents file writes it
    // (AgentPreset::toJson()): what Compare sets side by side. Unset and empty for the session's
    // own agent and in traces recorded before they were kept. Last, so that positional
    // initialisers keep their meaning.
    std::optional<qint64> agentVersion;
    QJsonObject agentDefinition;
    bool operator==(const TurnData &) const = default;
};

struct IterationData
{
    int number = 0;
    int maxIterations = 0;
    bool wrapUpNote = false;
    bool toolsOffered = true;
    bool operator==(const IterationData &) const = default;
};

/*!
    One re-run of a model call from the playground: the request as it was
    sent (possibly edited), which profile and model answered (never a key),
    and the answer or why there was none. Kept under the recorded call so a
    session remembers what was tried; the loop never reads them.
*/
struct ModelCallVariant
{
    ModelRequest request;
    QString profileName;
    QString providerKind; // providerKindName(), e.g. "openai"
    QString baseUrl;
    QString model;
    ModelResponse response; // its usage is the variant's usage
    QString error;          // empty when the provider answered
    int httpStatus = 0;     // of the failing response, 0 when none came
    qint64 startedUs = 0;
    qint64 endedUs = 0;

    bool succeeded() const { return error.isEmpty(); }
    bool operator==(const ModelCallVariant &) const = default;
    QJsonObject toJson() const;
    static ModelCallVariant fromJson(const QJsonObject &json);
};

struct ModelCallData
{
    QString provider;
    QString model;
    // The provider-neutral request the agent sent. Kept as the struct, not as
    // JSON: its messages share their data with the conversation history, and a
    // call of a tool loop records only what it added to the call before it.
    RecordedRequest request;
    // What the loop had built, when an interceptor (the debugger) changed it.
    std::optional<ModelRequest> originalRequest;
    ModelResponse response;
    QList<ModelAttempt> attempts; // what went over the wire, redacted
    QString error;
    bool editedByInterceptor = false;
    // When the first streamed text or tool-call fragment arrived (µs since the epoch): the time to
    // first token, and the generation time the token rate divides by. Unset for calls that
    // streamed nothing and in traces recorded before it was kept.
    std::optional<qint64> firstTokenUs;
    // What the call cost and the prices it was computed with, recorded when it finished so the
    // figure survives a price refresh. Unset when the model had no known price.
    std::optional<ModelCost> cost;
    // Playground re-runs of this call, oldest first; empty in traces recorded before them.
    QList<ModelCallVariant> variants;
    bool operator==(const ModelCallData &) const = default;
};

struct RetryData
{
    int attempt = 0;
    int httpStatus = 0;
    QString reason;
    qint64 delayMs = 0;
    bool operator==(const RetryData &) const = default;
};

struct ToolCallData
{
    ToolCall call;
    QString originalArguments; // set when an interceptor edited the arguments
    QString result;
    bool isError = false;
    QString decision; // "auto", "allowed", "denied", "manual result"
    QStringList progress;
    // What the tool kept for the trace beyond its text (ToolResult::details), e.g. an MCP exchange.
    QJsonObject details;
    bool operator==(const ToolCallData &) const = default;
};

struct ShieldCheckData
{
    QString shield;
    QString stage; // "input", "tool_call", "output"
    QString subject;
    bool passed = true;
    QString reason;
    bool operator==(const ShieldCheckData &) const = default;
};

struct TextData // Reflection and Summary
{
    QString text;
    bool operator==(const TextData &) const = default;
};

/*!
    A handoff. When the turn goes on as the agent handed to, this node is
    that agent's part of the turn: it stands between the parts, at the turn's
    level, and holds the iterations the agent ran (the part before the first
    handoff is the turn's own). When the handoff ends the turn it is a step of
    the iteration that asked for it, without children.
*/
struct HandoffData
{
    QString target;
    QString reason;
    QString toolCallId;
    // The agent handed to, as it ran: its version and definition (see TurnData); unset and empty
    // when the turn did not go on or the agent has none.
    std::optional<qint64> targetVersion;
    QJsonObject targetDefinition;
    bool operator==(const HandoffData &) const = default;
};

struct ErrorData
{
    QString message;
    QString code; // a stable word for programs, e.g. "unknown_tool", "provider"
    bool operator==(const ErrorData &) const = default;
};

struct McpServerData
{
    QString server;
    QJsonObject startup; // protocolVersion, discovered, serverInfo, toolCount, durationMs, exchange
    QString error;       // why start-up failed; empty when it succeeded
    QStringList stderrTail;
    bool operator==(const McpServerData &) const = default;
};

// One step of an MCP server's OAuth sign-in: what was asked where, and the HTTP status. Never a token, a
// code or a secret: the URL has no query.
struct McpAuthData
{
    QString server;
    QString step;   // "resource metadata", "authorization server metadata", "registration", "browser", …
    QString method; // GET, POST, or BROWSER for the person's sign-in
    QString url;
    int status = 0; // HTTP status; 0 for the browser or without an answer
    QString error;  // why the step failed; empty when it did not
    bool operator==(const McpAuthData &) const = default;
};

// Time spent waiting for a person is its own span, never the tool's: the tool call's own time
// starts when the decision came.
struct WaitData
{
    QString waitingFor; // "approval", "breakpoint", "decision" or "answer" (an MCP server's question)
    // "allowed", "denied", "manual result", "cancelled"; an answer's "accepted" or "declined";
    // empty while waiting
    QString decision;
    // An approval's reach when allowed: "once", or the lasting rule's ("tool", "folder /x",
    // "command git", "host example.com"); empty when the one who decided did not say (older traces).
    QString scope;
    QString preview;              // what the user was shown: the diff, the command and folder, the URL
    bool argumentsEdited = false; // the call ran with arguments the user changed
    bool operator==(const WaitData &) const = default;
};

// A request made to fit the context window: its estimated size before and after, and which
// messages it carries as a stub or left out (the history itself keeps them all).
struct CompactionData
{
    QString strategy; // "trim-tool-results", "drop-oldest" or both joined by "+"
    qint64 window = 0;
    qint64 tokensBefore = 0;
    qint64 tokensAfter = 0;
    // "replaced": one object per message (messageIndex, role, tokens, toolCallId and toolName for a
    // tool result, its "replacement" stub, or "dropped" and the start of its "text")
    QJsonObject details;
    bool operator==(const CompactionData &) const = default;
};

/*!
    One passage a retrieval found: where it is (the file's absolute path and
    its lines), the base it came from, its text, and why it ranked — the BM25
    score of the lexical search and, for a base with embeddings, the cosine
    similarity and the fused rank score. Kept whole in the trace, so a replay
    and a reopened session show the same passages without the index.
*/
struct RetrievalHit
{
    QString base;
    QString path;
    int startLine = 0;
    int endLine = 0;
    double bm25 = 0; // higher is better
    std::optional<double> cosine;
    std::optional<double> fused;
    QString text;
    std::optional<int> page; // 1-based, for a passage of a PDF

    // The score the hits are ranked by: the fused one when there is one, else BM25.
    double score() const { return fused.value_or(bm25); }
    // path, startLine, endLine, page?, score, bm25, cosine?, fused?, text, base
    QJsonObject toJson() const;
    static RetrievalHit fromJson(const QJsonObject &json);
    bool operator==(const RetrievalHit &) const = default;
};

// A search of the user's documents: what was asked of which bases, what came back best first, and
// the time spent (embedding the query, when the bases have embeddings, and searching).
struct RetrievalData
{
    QString query;
    QStringList bases;
    QString embeddingModel; // empty for a lexical search
    int topK = 0;
    QList<RetrievalHit> hits;
    qint64 embeddingUs = 0;
    qint64 searchUs = 0;
    QString error; // why a base could not be searched; the others' hits are kept

    QJsonObject toJson() const;
    static RetrievalData fromJson(const QJsonObject &json);
    bool operator==(const RetrievalData &) const = default;
};

// Where a tool's result details carry the RetrievalData of a search it made: the loop makes it the
// call's Retrieval node.
inline constexpr QLatin1StringView RetrievalDetailsKey{"retrieval"};

using TracePayload = std::variant<std::monostate, TurnData, IterationData, ModelCallData, RetryData,
                                  ToolCallData, ShieldCheckData, TextData, HandoffData, ErrorData,
                                  McpServerData, WaitData, CompactionData, RetrievalData, McpAuthData>;

/*!
    One node of the trace tree as a plain value. Timestamps are microseconds
    since the Unix epoch; endedUs is 0 while the step runs. The tree links
    (parent, row, children) are indices into the owning Trace.
*/
struct TraceNode
{
    int id = -1;
    int parent = -1;
    int row = 0;
    QList<int> children;

    TraceKind kind = TraceKind::Turn;
    TraceStatus status = TraceStatus::Running;
    QString label;
    qint64 startedUs = 0;
    qint64 endedUs = 0;
    TracePayload payload;

    qint64 durationUs() const { return endedUs > 0 ? endedUs - startedUs : 0; }
    bool operator==(const TraceNode &) const = default;

    template<typename T>
    T &data()
    {
        return std::get<T>(payload);
    }
    template<typename T>
    const T &data() const
    {
        return std::get<T>(payload);
    }
};

/*!
    How fast a model answered: the wait for its first streamed token, and the
    output tokens per second of generation after it. A trace keeps only the
    times; the tree's tooltip and the details pane derive these the same way.
*/
struct TokenTiming
{
    qint64 timeToFirstTokenUs = 0;
    double tokensPerSecond = 0; // 0 when unknown: no output count, or no time after the first token
    bool operator==(const TokenTiming &) const = default;
};

// requestStartedUs is when the answering attempt (or the call) began; endedUs is 0 while it runs.
std::optional<TokenTiming> tokenTiming(qint64 requestStartedUs, std::optional<qint64> firstTokenUs,
                                       qint64 endedUs, qint64 outputTokens);
std::optional<TokenTiming> tokenTiming(const TraceNode &modelCall);

// The payload's own fields, as a node's "data" in the trace JSON: for a details pane.
QJsonObject tracePayloadToJson(const TracePayload &payload);

} // namespace Loopscope
