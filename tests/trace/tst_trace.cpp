#include "agent/trace/trace.h"
#include "agent/trace/tracemodel.h"
#include "agent/trace/tracetiming.h"

#include <QAbstractItemModelTester>
#include <QHash>
#include <QJsonDocument>
#include <QLocale>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <limits>
#include <memory>

using namespace Qt::StringLiterals;

namespace Loopscope {

// Lets QCOMPARE show which part of a node differs.
char *toString(const TraceNode &node)
{
    QStringList children;
    for (int child : node.children)
        children.append(QString::number(child));
    const QString payload
        = QString::fromUtf8(QJsonDocument(tracePayloadToJson(node.payload)).toJson(QJsonDocument::Compact));
    const QString text = u'#' + QString::number(node.id) + u" parent="_s + QString::number(node.parent)
                         + u" row="_s + QString::number(node.row) + u" children=["_s + children.join(u',')
                         + u"] "_s + traceKindName(node.kind) + u'/' + traceStatusName(node.status) + u" \""_s
                         + node.label + u"\" "_s + QString::number(node.startedUs) + u".."_s
                         + QString::number(node.endedUs) + u" payload#"_s
                         + QString::number(node.payload.index()) + u' ' + payload;
    return QTest::toString(text);
}

} // namespace Loopscope

using namespace Loopscope;

namespace {

constexpr qint64 T0 = 1'712'345'678'901'234;                    // April 2024, in microseconds
constexpr qint64 BeyondDoublePrecision = 9'007'199'254'740'993; // 2^53 + 1

ModelRequest sampleRequest()
{
    ModelRequest request;
    request.messages = {
        Message::system(u"You are a careful assistant. Antworte auf Deutsch."_s),
        Message::user(u"Wie ist das Wetter in Zürich? 東京は？ 🌦"_s),
        Message::assistant(u"Ich schaue nach."_s,
                           {ToolCall{u"call_1"_s, u"weather"_s, uR"({"city":"Zürich"})"_s,
                                     QJsonObject{{u"thoughtSignature"_s, u"c2lnbmF0dXJl"_s}}}}),
        Message::toolResult(ToolCall{u"call_1"_s, u"weather"_s, {}, {}}, u"sunny, 21 °C"_s, false),
    };
    request.tools = {ToolSchema{
        u"weather"_s, u"Current weather for a city"_s,
        QJsonObject{
            {u"type"_s, u"object"_s},
            {u"properties"_s,
             QJsonObject{{u"city"_s, QJsonObject{{u"type"_s, u"string"_s}, {u"minLength"_s, 1}}},
                         {u"units"_s, QJsonObject{{u"enum"_s, QJsonArray{u"metric"_s, u"imperial"_s}}}}}},
            {u"required"_s, QJsonArray{u"city"_s}}}}};
    request.toolChoice = ToolChoice::Required;
    request.options.model = u"gpt-4o-mini"_s;
    request.options.temperature = 0.2;
    request.options.topP = 0.9;
    request.options.maxOutputTokens = 1024;
    request.options.contextWindow = 200000;
    return request;
}

// What a provider may put on the wire: odd corners of JSON that must pass through untouched.
QJsonObject oddWireBody()
{
    return {{u"stream"_s, true},
            {u"extra"_s, QJsonObject{{u"null"_s, QJsonValue::Null},
                                     {u"tiny"_s, 1e-7},
                                     {u"big"_s, BeyondDoublePrecision},
                                     {u"nested"_s, QJsonArray{QJsonArray{QJsonArray{true, false}}}}}}};
}

ModelCallData sampleModelCall()
{
    ModelCallData data;
    data.provider = u"openai"_s;
    data.model = u"gpt-4o-mini"_s;
    data.request = sampleRequest();
    data.response.text = u"Ich rufe zwei Werkzeuge auf…"_s;
    data.response.toolCalls = {
        ToolCall{u"call_2"_s, u"read_file"_s, uR"({"path":"notes/Ärger.md"})"_s, {}},
        ToolCall{u"call_3"_s, u"run_shell"_s, uR"({"command":"rm -rf /"})"_s,
                 QJsonObject{{u"thoughtSignature"_s, u"eHl6"_s}}},
    };
    data.response.finishReason = FinishReason::ToolCalls;
    data.response.providerFinishReason = u"tool_use"_s;
    data.response.usage = {1200, 34};
    data.response.model = u"gpt-4o-mini-2024-07-18"_s;
    data.response.streamedChunks = 42;
    data.response.raw = QJsonArray{QJsonObject{{u"type"_s, u"message_start"_s}},
                                   QJsonObject{{u"type"_s, u"message_stop"_s}}};

    ModelAttempt failed;
    failed.number = 1;
    failed.startedUs = T0 + 20;
    failed.endedUs = T0 + 400'000;
    failed.httpStatus = 429;
    failed.error = u"HTTP 429 Too Many Requests"_s;
    failed.retryInMs = 1500;
    failed.request = QJsonObject{{u"method"_s, u"POST"_s},
                                 {u"url"_s, u"https://api.example.com/v1/chat/completions"_s},
                                 {u"headers"_s, QJsonObject{{u"Content-Type"_s, u"application/json"_s}}},
                                 {u"body"_s, QJsonObject{{u"stream"_s, true}}}};
    failed.response = QJsonObject{{u"error"_s, QJsonObject{{u"message"_s, u"slow down"_s}}}};

    ModelAttempt succeeded = failed;
    succeeded.number = 2;
    succeeded.startedUs = T0 + 1'900'000;
    succeeded.endedUs = T0 + 2'000'000;
    succeeded.httpStatus = 200;
    succeeded.error.clear();
    succeeded.retryInMs = -1;
    succeeded.request.insert(u"body"_s, oddWireBody());
    succeeded.response = QJsonArray{u"event: message_start"_s, u"event: message_stop"_s};

    data.attempts = {failed, succeeded};
    data.editedByInterceptor = true;
    data.firstTokenUs = 1'700'000'000'250'000;
    data.originalRequest = sampleRequest();
    data.originalRequest->messages.removeLast();

    // Playground re-runs: one answered on another model, one the provider refused.
    ModelCallVariant rerun;
    rerun.request = sampleRequest();
    rerun.request.options.model = u"other-model"_s;
    rerun.request.options.temperature = 0.25;
    rerun.profileName = u"Local"_s;
    rerun.providerKind = u"openai"_s;
    rerun.baseUrl = u"http://127.0.0.1:8080/v1"_s;
    rerun.model = u"other-model"_s;
    rerun.response = data.response;
    rerun.startedUs = T0 + 5'000'000;
    rerun.endedUs = T0 + 6'000'000;
    ModelCallVariant refused = rerun;
    refused.response = {};
    refused.error = u"HTTP 500: the model is down"_s;
    refused.httpStatus = 500;
    data.variants = {rerun, refused};
    return data;
}

struct Forest
{
    int turn = -1;
    int firstIteration = -1;
    int modelCall = -1;
    int toolA = -1;
    int toolB = -1;
    int secondTurn = -1;
};

/*
    Every kind and every payload, with the awkward values a real session
    produces. Appended the way the agent appends: two parallel tool calls get
    their children after both exist, and a late node lands under the first turn
    after the second turn started, so ids are NOT in pre-order.
*/
Forest buildEveryKindForest(Trace &trace)
{
    Forest f;
    f.turn
        = trace.begin(-1, TraceKind::Turn, u"Wetter in Zürich ☀ — \"quoted\", back\\slash,\nnew line"_s, T0,
                      TurnData{u"Researcher 🔬"_s,
                               u"Wie ist das Wetter in Zürich? 東京は？"_s,
                               u"Sonnig, 21 °C."_s,
                               u"answered"_s,
                               {1300, 120}});
    f.firstIteration = trace.begin(f.turn, TraceKind::Iteration, u"Iteration 1"_s, T0 + 10,
                                   IterationData{1, 8, false, true});
    f.modelCall
        = trace.begin(f.firstIteration, TraceKind::ModelCall, u"gpt-4o-mini"_s, T0 + 20, sampleModelCall());
    const int retry = trace.begin(f.modelCall, TraceKind::Retry, u"HTTP 429"_s, T0 + 400'000,
                                  RetryData{1, 429, u"Too Many Requests — rate limited"_s, 86'400'000'000});
    trace.finish(retry, TraceStatus::Ok, T0 + 1'900'000);
    trace.finish(f.modelCall, TraceStatus::Ok, T0 + 2'000'000);

    f.toolA = trace.begin(
        f.firstIteration, TraceKind::ToolCall, u"read_file"_s, T0 + 2'000'100,
        ToolCallData{ToolCall{u"call_2"_s, u"read_file"_s, uR"({"path":"notes/Ärger.md"})"_s, {}},
                     uR"({"path":"notes/original.md"})"_s,
                     u"# Ärger\n\n…"_s,
                     false,
                     u"allowed"_s,
                     {u"opened"_s, u"read 2 KiB"_s, QString()},
                     QJsonObject{{u"mcp"_s, QJsonObject{{u"server"_s, u"files"_s},
                                                        {u"request"_s, QJsonObject{{u"id"_s, 7}}},
                                                        {u"progress"_s, QJsonArray{1, 2}}}}}});
    f.toolB = trace.begin(f.firstIteration, TraceKind::ToolCall, u"run_shell"_s, T0 + 2'000'200,
                          ToolCallData{ToolCall{u"call_3"_s, u"run_shell"_s, uR"({"command":"rm -rf /"})"_s,
                                                QJsonObject{{u"thoughtSignature"_s, u"eHl6"_s}}},
                                       {},
                                       u"The user denied this call."_s,
                                       true,
                                       u"denied"_s,
                                       {}});
    const int shieldB = trace.begin(
        f.toolB, TraceKind::ShieldCheck, u"rules"_s, T0 + 2'000'300,
        ShieldCheckData{u"rules"_s, u"tool_call"_s, u"run_shell"_s, false, u"matched keyword \"rm -rf\""_s});
    trace.finish(shieldB, TraceStatus::Blocked, T0 + 2'000'301);
    const int shieldA = trace.begin(f.toolA, TraceKind::ShieldCheck, u"rules"_s, T0 + 2'000'400,
                                    ShieldCheckData{u"rules"_s, u"tool_call"_s, u"read_file"_s, true, {}});
    trace.finish(shieldA, TraceStatus::Ok, T0 + 2'000'401);
    const int retrieval = trace.begin(
        f.toolA, TraceKind::Retrieval, u"\"Ärger notes\": 2 passages"_s, T0 + 2'000'402,
        RetrievalData{u"Ärger \"notes\" NEAR(*)"_s,
                      {u"notes"_s, u"manual 📘"_s},
                      u"nomic-embed-text"_s,
                      5,
                      {RetrievalHit{u"notes"_s, u"/home/ü/notes/Ärger.md"_s, 3, 9, 4.25, 0.8125, 0.0328,
                                    u"# Ärger\n\n\t\"quoted\", back\\slash 東京"_s},
                       RetrievalHit{u"manual 📘"_s, u"/m.txt"_s, 1, 1, 0.5, std::nullopt, std::nullopt, {}},
                       RetrievalHit{u"manual 📘"_s, u"/m/guide.pdf"_s, 1, 40, 0.25, 0.5, 0.01, u"Seite"_s, 7}},
                      41'000,
                      1'250,
                      u"the knowledge base \"old\" cannot be read"_s});
    trace.finish(retrieval, TraceStatus::Ok, T0 + 2'000'403);
    trace.finish(f.toolB, TraceStatus::Denied, T0 + 2'000'500);
    trace.finish(f.toolA, TraceStatus::Ok, T0 + 2'000'600);
    trace.finish(f.firstIteration, TraceStatus::Ok, T0 + 2'000'700);

    const int secondIteration = trace.begin(f.turn, TraceKind::Iteration, u"Iteration 2"_s, T0 + 3'000'000,
                                            IterationData{2, 8, true, false});
    const int reflection
        = trace.begin(secondIteration, TraceKind::Reflection, u"Reflection"_s, T0 + 3'000'100,
                      TextData{u"Ich hätte zuerst die Datei lesen sollen.\n\t– Notiz"_s});
    trace.finish(reflection, TraceStatus::Ok, T0 + 3'500'000);
    // The final iteration, without tools: its answer was forced by the limit.
    trace.finish(secondIteration, TraceStatus::Limited, T0 + 3'600'000);
    const int error
        = trace.begin(f.turn, TraceKind::Error, u"Unknown tool"_s, T0 + 3'700'000,
                      ErrorData{u"The model called \"fly\", which does not exist."_s, u"unknown_tool"_s});
    trace.finish(error, TraceStatus::Error, T0 + 3'700'000);
    const int mcpServer = trace.begin(
        f.turn, TraceKind::McpServer, u"MCP server files"_s, T0 + 3'750'000,
        McpServerData{u"files"_s, {}, u"The MCP server “files” could not start."_s, {u"node: not found"_s}});
    trace.finish(mcpServer, TraceStatus::Error, T0 + 3'760'000);
    // A wait for the user's approval ends before the call's own time begins.
    const int wait
        = trace.begin(f.turn, TraceKind::Wait, u"Waiting for your approval"_s, T0 + 3'770'000,
                      WaitData{u"approval"_s, u"denied"_s, {}, u"command: rm -rf build\nfolder: /w"_s});
    trace.finish(wait, TraceStatus::Denied, T0 + 3'780'000);
    const int allowed = trace.begin(
        f.turn, TraceKind::Wait, u"Waiting for your approval"_s, T0 + 3'780'000,
        WaitData{u"approval"_s, u"allowed"_s, u"folder /w/src"_s, u"@@ -0,0 +1 @@\n+x\n"_s, true});
    trace.finish(allowed, TraceStatus::Ok, T0 + 3'790'000);
    const int compaction = trace.begin(
        f.turn, TraceKind::Compaction, u"Compaction: 9,000 → 5,000 tokens"_s, T0 + 3'795'000,
        CompactionData{u"trim-tool-results"_s, 10'000, 9000, 5000,
                       QJsonObject{{u"replaced"_s, QJsonArray{QJsonObject{{u"messageIndex"_s, 3},
                                                                          {u"role"_s, u"tool"_s},
                                                                          {u"toolCallId"_s, u"call_1"_s},
                                                                          {u"tokens"_s, 4000},
                                                                          {u"replacement"_s, u"[…]"_s}}}}}});
    trace.finish(compaction, TraceStatus::Ok, T0 + 3'795'001);
    const int auth = trace.begin(f.turn, TraceKind::McpAuth, u"OAuth: token"_s, T0 + 3'796'000,
                                 McpAuthData{u"files"_s, u"token"_s, u"POST"_s,
                                             u"https://auth.example.com/token"_s, 400, u"invalid_grant"_s});
    trace.finish(auth, TraceStatus::Error, T0 + 3'796'001);
    const int summary = trace.begin(f.turn, TraceKind::Summary, u"Summary"_s, T0 + 3'800'000, TextData{});
    trace.finish(summary, TraceStatus::Skipped, T0 + 3'800'001);
    trace.finish(f.turn, TraceStatus::Ok, T0 + 4'000'000);

    // Still running: endedUs stays 0.
    f.secondTurn = trace.begin(-1, TraceKind::Turn, u"Rechnung?"_s, BeyondDoublePrecision,
                               TurnData{u"Triage"_s, u"Where is my invoice?"_s, {}, {}, {}});
    const int handoff
        = trace.begin(f.secondTurn, TraceKind::Handoff, u"→ billing"_s, BeyondDoublePrecision + 1,
                      HandoffData{u"billing"_s, u"The user asks about invoices."_s, u"call_9"_s});
    trace.finish(handoff, TraceStatus::Ok, BeyondDoublePrecision + 2);
    const int bare = trace.begin(f.secondTurn, TraceKind::Iteration, u"without a payload"_s, T0 + 5'000'000);
    trace.finish(bare, TraceStatus::Cancelled, T0 + 5'000'001);
    trace.begin(f.secondTurn, TraceKind::Iteration, u"with a default payload"_s, T0 + 5'000'002,
                IterationData{});
    trace.begin(f.secondTurn, TraceKind::Error, u"kind and payload disagree"_s, T0 + 5'000'003,
                TextData{u"an error that carries text"_s});
    trace.begin(f.secondTurn, TraceKind::Turn, QString(), 0, ModelCallData{});

    // Late: under the first turn's first iteration, long after the second turn began.
    const int late = trace.begin(f.firstIteration, TraceKind::ShieldCheck, u"late output check"_s,
                                 T0 + 6'000'000, ShieldCheckData{u"regex"_s, u"output"_s, {}, true, {}});
    trace.finish(late, TraceStatus::Ok, std::numeric_limits<qint64>::max());
    return f;
}

QList<int> preorder(const Trace &trace, int parent = -1)
{
    QList<int> ids;
    for (int child : trace.childrenOf(parent)) {
        ids.append(child);
        ids.append(preorder(trace, child));
    }
    return ids;
}

void compareTraces(const Trace &actual, const Trace &expected)
{
    QCOMPARE(actual.size(), expected.size());
    QCOMPARE(actual.roots(), expected.roots());
    for (int id = 0; id < expected.size(); ++id)
        QCOMPARE(actual.node(id), expected.node(id));
}

QByteArray bytes(const QJsonArray &json, QJsonDocument::JsonFormat format = QJsonDocument::Indented)
{
    return QJsonDocument(json).toJson(format);
}

// A small valid node to spoil one field at a time.
QJsonObject validNode(const QString &kind = u"turn"_s)
{
    return {{u"kind"_s, kind},    {u"status"_s, u"ok"_s}, {u"label"_s, u"a node"_s},
            {u"startedUs"_s, T0}, {u"endedUs"_s, T0 + 1}, {u"children"_s, QJsonArray()}};
}

QJsonObject with(QJsonObject object, const QString &key, const QJsonValue &value)
{
    object.insert(key, value);
    return object;
}

QJsonObject without(QJsonObject object, const QString &key)
{
    object.remove(key);
    return object;
}

QJsonObject withData(const QString &kind, const QJsonObject &data)
{
    return with(validNode(kind), u"data"_s, data);
}

QJsonObject withChildren(const QJsonObject &object, const QJsonArray &children)
{
    return with(object, u"children"_s, children);
}

QJsonObject withId(const QJsonObject &object, qint64 id)
{
    return with(object, u"id"_s, id);
}

// A chain of nodes `depth` levels deep, built bottom-up without recursion.
QJsonObject chain(int depth)
{
    QJsonObject node = validNode(u"iteration"_s);
    for (int level = 1; level < depth; ++level)
        node = withChildren(validNode(u"iteration"_s), {node});
    return node;
}

int depthOf(const Trace &trace, int id)
{
    int depth = 1;
    for (; trace.node(id).parent != -1; id = trace.node(id).parent)
        ++depth;
    return depth;
}

int findByLabel(const Trace &trace, const QString &label)
{
    for (int id = 0; id < trace.size(); ++id) {
        if (trace.node(id).label == label)
            return id;
    }
    return -1;
}

// A model call whose request holds \a messages and \a tools.
ModelCallData callWith(const QList<Message> &messages, const QList<ToolSchema> &tools = sampleRequest().tools)
{
    ModelCallData call;
    call.provider = u"openai"_s;
    call.model = u"gpt-4o-mini"_s;
    ModelRequest request;
    request.messages = messages;
    request.tools = tools;
    request.options.model = u"gpt-4o-mini"_s;
    call.request = request;
    return call;
}

// Two turns of a tool loop; the ids of their model calls, in the order they were made.
QList<int> buildToolLoop(Trace &trace)
{
    const QList<Message> history = sampleRequest().messages; // system, user, assistant, tool result
    QList<int> calls;
    const int turn = trace.begin(-1, TraceKind::Turn, u"turn 1"_s, T0, TurnData{});
    for (int n = 1; n <= 3; ++n) {
        const int iteration = trace.begin(turn, TraceKind::Iteration, u"Iteration %1"_s.arg(n), T0 + n,
                                          IterationData{n, 10, false, true});
        QList<Message> messages = history.first(n == 1 ? 2 : 4);
        if (n == 3) // the wrap-up note changes the system instruction: no longer a prefix
            messages[0] = Message::system(u"1 iteration remaining: answer now."_s);
        calls.append(trace.begin(iteration, TraceKind::ModelCall, u"chat"_s, T0 + n, callWith(messages)));
        trace.finish(calls.constLast(), TraceStatus::Ok, T0 + n + 1);
    }
    // Tools taken away on the last call of the turn: a delta that names them.
    const int last = trace.begin(turn, TraceKind::Iteration, u"Iteration 4"_s, T0 + 9,
                                 IterationData{4, 10, false, false});
    QList<Message> longer = trace.node(calls.constLast()).data<ModelCallData>().request.whole().messages;
    longer.append(Message::assistant(u"Sonnig."_s));
    calls.append(trace.begin(last, TraceKind::ModelCall, u"chat"_s, T0 + 9, callWith(longer, {})));
    // The next turn starts from the same history and asks one more question.
    const int next = trace.begin(-1, TraceKind::Turn, u"turn 2"_s, T0 + 20, TurnData{});
    longer.append(Message::user(u"Und morgen?"_s));
    calls.append(trace.begin(next, TraceKind::ModelCall, u"chat"_s, T0 + 21, callWith(longer)));
    return calls;
}

// Every node's data in \a json by its id.
QHash<int, QJsonObject> dataById(const QJsonArray &json)
{
    QHash<int, QJsonObject> data;
    QList<QJsonObject> pending;
    for (const QJsonValue &root : json)
        pending.append(root.toObject());
    while (!pending.isEmpty()) {
        const QJsonObject node = pending.takeLast();
        data.insert(node.value(u"id"_s).toInt(), node.value(u"data"_s).toObject());
        for (const QJsonValue &child : node.value(u"children"_s).toArray())
            pending.append(child.toObject());
    }
    return data;
}

constexpr qint64 Second = 1'000'000;

/*
    A turn of 27 s that was mostly the user's: the loop paused before its model call, then two
    parallel tool calls waited for approval at the same time.

    turn "held turn"                    0 .. 27.0 s
      iteration                         0 .. 27.0 s
        wait "paused"                 0.1 .. 10.1 s
        model call                   10.1 .. 11.1 s
        tool read_file               25.1 .. 25.5 s   (its time starts when it was approved)
          wait "approve read"        11.2 .. 25.1 s
        tool write_file              20.0 .. 20.3 s
          wait "approve write"       12.0 .. 20.0 s   (inside the other wait)
    turn "running turn"                30 s ..
    turn "cut short"                   40 .. 41 s
      wait "never ended"             40.5 s ..        (left running, as in a crashed session)
*/
void addHeldTurns(Trace &trace)
{
    const auto span = [&trace](int parent, TraceKind kind, const QString &label, double from, double to,
                               TracePayload payload = {}) {
        const int id = trace.begin(parent, kind, label, T0 + qint64(from * Second), std::move(payload));
        if (to > 0)
            trace.finish(id, TraceStatus::Ok, T0 + qint64(to * Second));
        return id;
    };
    const int turn = trace.begin(-1, TraceKind::Turn, u"held turn"_s, T0, TurnData{});
    const int iteration = trace.begin(turn, TraceKind::Iteration, u"iteration"_s, T0, IterationData{1, 10});
    span(iteration, TraceKind::Wait, u"paused"_s, 0.1, 10.1, WaitData{u"breakpoint"_s, u"allowed"_s});
    span(iteration, TraceKind::ModelCall, u"model"_s, 10.1, 11.1, ModelCallData{});
    const int read = trace.begin(iteration, TraceKind::ToolCall, u"read_file"_s, T0 + qint64(11.2 * Second),
                                 ToolCallData{ToolCall{u"c1"_s, u"read_file"_s, u"{}"_s, {}}});
    span(read, TraceKind::Wait, u"approve read"_s, 11.2, 25.1, WaitData{u"approval"_s, u"allowed"_s});
    const int write = trace.begin(iteration, TraceKind::ToolCall, u"write_file"_s, T0 + 12 * Second,
                                  ToolCallData{ToolCall{u"c2"_s, u"write_file"_s, u"{}"_s, {}}});
    span(write, TraceKind::Wait, u"approve write"_s, 12.0, 20.0, WaitData{u"approval"_s, u"allowed"_s});
    // As ToolPhase records them: a call's own time starts when the decision came.
    trace.update(write, [](TraceNode &node) { node.startedUs = T0 + 20 * Second; });
    trace.finish(write, TraceStatus::Ok, T0 + qint64(20.3 * Second));
    trace.update(read, [](TraceNode &node) { node.startedUs = T0 + qint64(25.1 * Second); });
    trace.finish(read, TraceStatus::Ok, T0 + qint64(25.5 * Second));
    trace.finish(iteration, TraceStatus::Ok, T0 + 27 * Second);
    trace.finish(turn, TraceStatus::Ok, T0 + 27 * Second);

    trace.begin(-1, TraceKind::Turn, u"running turn"_s, T0 + 30 * Second, TurnData{});
    const int cut = trace.begin(-1, TraceKind::Turn, u"cut short"_s, T0 + 40 * Second, TurnData{});
    span(cut, TraceKind::Wait, u"never ended"_s, 40.5, 0, WaitData{u"approval"_s, {}});
    trace.finish(cut, TraceStatus::Cancelled, T0 + 41 * Second);
}

} // namespace

class TestTrace final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    void kindsAndStatusesHaveStableNames_data();
    void kindsAndStatusesHaveStableNames();
    void unknownNamesAreNotGuessed();

    void roundTripKeepsEveryNodeAndPayload();
    void roundTripIsByteStable_data();
    void roundTripIsByteStable();
    void roundTripThroughTextKeepsEveryNode();
    void toolDetailsAreWrittenOnlyWhenPresent();
    void emptyTraceRoundTrips();
    void nodeJsonHasTheDocumentedShape();
    void jsonWithoutIdsIsNumberedInPreorder();
    void exportedSubtreeLoadsNumberedFromZero();
    void nodeToJsonOfAnUnknownIdIsEmpty();
    void requestsAreWrittenAsDeltasOfTheCallBeforeEvenInTheTurnBefore();
    void anExportedSubtreeWritesRequestsItCannotReferWhole();
    void requestsRecordedAsDeltasRebuildWholeAndSaveAndLoadAsDeltas();
    void malformedRequestDeltasAreRejected_data();
    void malformedRequestDeltasAreRejected();

    void malformedInputIsRejectedAndLeavesTheTraceEmpty_data();
    void malformedInputIsRejectedAndLeavesTheTraceEmpty();
    void lenientInputStillLoads_data();
    void lenientInputStillLoads();
    void sixtyFourLevelsOfNestingAreAllowed();
    void loadingReplacesTheContentBetweenResetSignals();

    void modelStaysConsistentThroughLiveAppendsChangesAndResets();
    void insertionsAreAnnouncedAtTheExactParentAndRow_data();
    void insertionsAreAnnouncedAtTheExactParentAndRow();
    void changesAreAnnouncedForTheWholeRow();
    void rolesDescribeTheNode_data();
    void rolesDescribeTheNode();
    void indexForNodeAndNodeIdAgree();
    void headerNamesEveryColumn();
    void modelEmptiesWhenTheTraceIsDestroyed();

    void aStepsWaitingIsTheTimeOfTheWaitsBelowItCountedOnce_data();
    void aStepsWaitingIsTheTimeOfTheWaitsBelowItCountedOnce();
    void theDurationColumnShowsTheMachinesTimeAndTheTooltipTheWaiting_data();
    void theDurationColumnShowsTheMachinesTimeAndTheTooltipTheWaiting();
    void aWaitThatEndsAnnouncesTheWorkingTimeOfTheStepsAboveIt();
    void waitsAndTheirTimingSurviveASaveAndLoad();
};

void TestTrace::initTestCase()
{
    // Display texts use the default locale: make them predictable.
    QLocale::setDefault(QLocale::c());
}

void TestTrace::kindsAndStatusesHaveStableNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("kind");   // -1 when the name is a status
    QTest::addColumn<int>("status"); // -1 when the name is a kind

    QTest::newRow("turn") << u"turn"_s << int(TraceKind::Turn) << -1;
    QTest::newRow("iteration") << u"iteration"_s << int(TraceKind::Iteration) << -1;
    QTest::newRow("model call") << u"model_call"_s << int(TraceKind::ModelCall) << -1;
    QTest::newRow("retry") << u"retry"_s << int(TraceKind::Retry) << -1;
    QTest::newRow("tool call") << u"tool_call"_s << int(TraceKind::ToolCall) << -1;
    QTest::newRow("shield check") << u"shield_check"_s << int(TraceKind::ShieldCheck) << -1;
    QTest::newRow("reflection") << u"reflection"_s << int(TraceKind::Reflection) << -1;
    QTest::newRow("summary") << u"summary"_s << int(TraceKind::Summary) << -1;
    QTest::newRow("handoff") << u"handoff"_s << int(TraceKind::Handoff) << -1;
    QTest::newRow("error kind") << u"error"_s << int(TraceKind::Error) << -1;
    QTest::newRow("mcp server") << u"mcp_server"_s << int(TraceKind::McpServer) << -1;
    QTest::newRow("wait") << u"wait"_s << int(TraceKind::Wait) << -1;
    QTest::newRow("retrieval") << u"retrieval"_s << int(TraceKind::Retrieval) << -1;
    QTest::newRow("running") << u"running"_s << -1 << int(TraceStatus::Running);
    QTest::newRow("ok") << u"ok"_s << -1 << int(TraceStatus::Ok);
    QTest::newRow("error status") << u"error"_s << -1 << int(TraceStatus::Error);
    QTest::newRow("cancelled") << u"cancelled"_s << -1 << int(TraceStatus::Cancelled);
    QTest::newRow("blocked") << u"blocked"_s << -1 << int(TraceStatus::Blocked);
    QTest::newRow("denied") << u"denied"_s << -1 << int(TraceStatus::Denied);
    QTest::newRow("skipped") << u"skipped"_s << -1 << int(TraceStatus::Skipped);
    QTest::newRow("limited") << u"limited"_s << -1 << int(TraceStatus::Limited);
}

void TestTrace::kindsAndStatusesHaveStableNames()
{
    QFETCH(QString, name);
    QFETCH(int, kind);
    QFETCH(int, status);

    if (kind >= 0) {
        QCOMPARE(traceKindName(TraceKind(kind)), name);
        QCOMPARE(traceKindFromName(name), std::optional(TraceKind(kind)));
    } else {
        QCOMPARE(traceStatusName(TraceStatus(status)), name);
        QCOMPARE(traceStatusFromName(name), std::optional(TraceStatus(status)));
    }
}

void TestTrace::unknownNamesAreNotGuessed()
{
    QCOMPARE(traceKindFromName(u"Turn"_s), std::nullopt);
    QCOMPARE(traceKindFromName(u"modelCall"_s), std::nullopt);
    QCOMPARE(traceKindFromName(QString()), std::nullopt);
    QCOMPARE(traceStatusFromName(u"OK"_s), std::nullopt);
    QCOMPARE(traceStatusFromName(u"failed"_s), std::nullopt);
}

void TestTrace::roundTripKeepsEveryNodeAndPayload()
{
    Trace original;
    buildEveryKindForest(original);
    // The fixture must really exercise ids that pre-order numbering would lose.
    QVERIFY(preorder(original) != [&] {
        QList<int> sorted = preorder(original);
        std::sort(sorted.begin(), sorted.end());
        return sorted;
    }());
    // ... and hold every payload type, the empty one included.
    QSet<size_t> payloadTypes;
    for (int id = 0; id < original.size(); ++id)
        payloadTypes.insert(original.node(id).payload.index());
    QCOMPARE(payloadTypes.size(), qsizetype(std::variant_size_v<TracePayload>));

    Trace loaded;
    QString error;
    QVERIFY2(loaded.fromJson(original.toJson(), &error), qPrintable(error));
    QVERIFY(error.isEmpty());
    compareTraces(loaded, original);
}

void TestTrace::roundTripIsByteStable_data()
{
    QTest::addColumn<QJsonDocument::JsonFormat>("format");
    QTest::newRow("indented") << QJsonDocument::Indented;
    QTest::newRow("compact") << QJsonDocument::Compact;
}

void TestTrace::roundTripIsByteStable()
{
    QFETCH(QJsonDocument::JsonFormat, format);

    Trace original;
    buildEveryKindForest(original);
    const QByteArray first = bytes(original.toJson(), format);

    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(first, &parseError);
    QCOMPARE(parseError.error, QJsonParseError::NoError);
    Trace loaded;
    QVERIFY(loaded.fromJson(document.array()));
    QCOMPARE(bytes(loaded.toJson(), format), first);
}

void TestTrace::roundTripThroughTextKeepsEveryNode()
{
    // Through the bytes a file holds: 64-bit timestamps beyond a double's
    // precision must come back exact.
    Trace original;
    buildEveryKindForest(original);
    const QJsonDocument document = QJsonDocument::fromJson(bytes(original.toJson()));
    Trace loaded;
    QVERIFY(loaded.fromJson(document.array()));
    compareTraces(loaded, original);
    QCOMPARE(loaded.node(loaded.roots().at(1)).startedUs, BeyondDoublePrecision);
}

void TestTrace::toolDetailsAreWrittenOnlyWhenPresent()
{
    Trace trace;
    const Forest f = buildEveryKindForest(trace);
    const QJsonObject withDetails = trace.nodeToJson(f.toolA).value(u"data"_s).toObject();
    QCOMPARE(withDetails[u"details"_s][u"mcp"_s][u"server"_s].toString(), u"files"_s);
    const QJsonObject without = trace.nodeToJson(f.toolB).value(u"data"_s).toObject();
    QVERIFY(!without.contains(u"details"_s));
}

void TestTrace::emptyTraceRoundTrips()
{
    Trace empty;
    QCOMPARE(empty.toJson(), QJsonArray());
    Trace loaded;
    QString error = u"stale"_s;
    QVERIFY(loaded.fromJson(empty.toJson(), &error));
    QCOMPARE(error, QString());
    QCOMPARE(loaded.size(), 0);
    QVERIFY(loaded.roots().isEmpty());
}

void TestTrace::nodeJsonHasTheDocumentedShape()
{
    Trace trace;
    const int turn
        = trace.begin(-1, TraceKind::Turn, u"hello"_s, T0, TurnData{u"a"_s, u"hi"_s, {}, {}, {3, 4}});
    const int retry
        = trace.begin(turn, TraceKind::Retry, u"retry"_s, T0 + 1, RetryData{2, 503, u"busy"_s, 250});
    trace.finish(retry, TraceStatus::Ok, T0 + 2);
    const int bare = trace.begin(turn, TraceKind::Reflection, u"bare"_s, T0 + 3);
    const int odd = trace.begin(turn, TraceKind::Error, u"odd"_s, T0 + 4, TextData{u"t"_s});

    const QJsonObject json = trace.nodeToJson(turn);
    const QJsonObject expectedRetry{{u"id"_s, retry},
                                    {u"kind"_s, u"retry"_s},
                                    {u"status"_s, u"ok"_s},
                                    {u"label"_s, u"retry"_s},
                                    {u"startedUs"_s, T0 + 1},
                                    {u"endedUs"_s, T0 + 2},
                                    {u"data"_s, QJsonObject{{u"attempt"_s, 2},
                                                            {u"httpStatus"_s, 503},
                                                            {u"reason"_s, u"busy"_s},
                                                            {u"delayMs"_s, 250}}},
                                    {u"children"_s, QJsonArray()}};
    const QJsonArray children = json.value(u"children"_s).toArray();
    QCOMPARE(children.size(), 3);
    QCOMPARE(children.at(0).toObject(), expectedRetry);
    QCOMPARE(json.value(u"kind"_s).toString(), u"turn"_s);
    QCOMPARE(json.value(u"status"_s).toString(), u"running"_s);
    QCOMPARE(json.value(u"endedUs"_s).toInteger(), qint64(0));
    QCOMPARE(json.value(u"data"_s).toObject().value(u"usage"_s).toObject(),
             (QJsonObject{{u"input"_s, 3}, {u"output"_s, 4}}));
    // No payload, no "data"; a payload its kind does not imply names its type.
    QVERIFY(!children.at(1).toObject().contains(u"data"_s));
    QCOMPARE(children.at(1).toObject().value(u"id"_s).toInt(), bare);
    QCOMPARE(children.at(2).toObject().value(u"dataType"_s).toString(), u"text"_s);
    QCOMPARE(children.at(2).toObject().value(u"id"_s).toInt(), odd);
    QVERIFY(!json.contains(u"dataType"_s));
}

void TestTrace::jsonWithoutIdsIsNumberedInPreorder()
{
    const QJsonObject child = validNode(u"iteration"_s);
    const QJsonArray json{withChildren(validNode(), {child, withChildren(child, {child})}), validNode()};
    Trace trace;
    QString error;
    QVERIFY2(trace.fromJson(json, &error), qPrintable(error));
    QCOMPARE(trace.size(), 5);
    QCOMPARE(trace.roots(), (QList<int>{0, 4}));
    QCOMPARE(trace.node(0).children, (QList<int>{1, 2}));
    QCOMPARE(trace.node(2).children, QList<int>{3});
    QCOMPARE(trace.node(3).parent, 2);
    QCOMPARE(trace.node(2).row, 1);
    QCOMPARE(trace.node(4).row, 1);
}

void TestTrace::exportedSubtreeLoadsNumberedFromZero()
{
    Trace original;
    const Forest forest = buildEveryKindForest(original);
    const QJsonObject exported = original.nodeToJson(forest.firstIteration);

    Trace loaded;
    QString error;
    QVERIFY2(loaded.fromJson({exported}, &error), qPrintable(error));
    const QList<int> originalIds = [&] {
        QList<int> ids = preorder(original, forest.firstIteration);
        ids.prepend(forest.firstIteration);
        std::sort(ids.begin(), ids.end());
        return ids;
    }();
    QCOMPARE(loaded.size(), originalIds.size());
    QCOMPARE(loaded.roots(), QList<int>{0});
    // Same append order, numbered from 0: node k is the k-th smallest original id.
    for (int id = 0; id < loaded.size(); ++id) {
        const TraceNode &node = loaded.node(id);
        const TraceNode &source = original.node(originalIds.at(id));
        QCOMPARE(node.id, id);
        QCOMPARE(node.label, source.label);
        QCOMPARE(node.payload, source.payload);
        QCOMPARE(node.row, id == 0 ? 0 : source.row);
        QCOMPARE(node.parent, id == 0 ? -1 : int(originalIds.indexOf(source.parent)));
    }
}

void TestTrace::nodeToJsonOfAnUnknownIdIsEmpty()
{
    Trace trace;
    trace.begin(-1, TraceKind::Turn, u"only"_s, T0);
    QCOMPARE(trace.nodeToJson(1), QJsonObject());
    QCOMPARE(trace.nodeToJson(-1), QJsonObject());
}

void TestTrace::requestsAreWrittenAsDeltasOfTheCallBeforeEvenInTheTurnBefore()
{
    Trace original;
    const QList<int> calls = buildToolLoop(original);
    const QHash<int, QJsonObject> data = dataById(original.toJson());

    // The first call of a turn is whole.
    QVERIFY(data.value(calls.at(0)).contains(u"request"_s));
    QVERIFY(!data.value(calls.at(0)).contains(u"requestDelta"_s));
    // The second adds two messages to the first's two, with the same tools.
    const QJsonObject second = data.value(calls.at(1));
    QVERIFY(!second.contains(u"request"_s));
    const QJsonObject delta = second.value(u"requestDelta"_s).toObject();
    QCOMPARE(delta.value(u"base"_s).toInt(), calls.at(0));
    QCOMPARE(delta.value(u"keep"_s).toInt(), 2);
    QCOMPARE(delta.value(u"messages"_s).toArray().size(), 2);
    QCOMPARE(delta.value(u"messages"_s).toArray().at(1).toObject().value(u"role"_s).toString(), u"tool"_s);
    QVERIFY(!delta.contains(u"tools"_s));
    QCOMPARE(delta.value(u"toolChoice"_s).toString(), u"auto"_s);
    // A changed system instruction is no prefix: whole again.
    QVERIFY(data.value(calls.at(2)).contains(u"request"_s));
    // Tools taken away: a delta that says so.
    const QJsonObject fourth = data.value(calls.at(3)).value(u"requestDelta"_s).toObject();
    QCOMPARE(fourth.value(u"base"_s).toInt(), calls.at(2));
    QCOMPARE(fourth.value(u"keep"_s).toInt(), 4);
    QCOMPARE(fourth.value(u"tools"_s).toArray(), QJsonArray());
    // The next turn's first call refers to the turn before: the history it carries is written once,
    // so a session file grows with the conversation, not with its square.
    QVERIFY(!data.value(calls.at(4)).contains(u"request"_s));
    const QJsonObject nextTurn = data.value(calls.at(4)).value(u"requestDelta"_s).toObject();
    QCOMPARE(nextTurn.value(u"base"_s).toInt(), calls.at(3));
    QCOMPARE(nextTurn.value(u"keep"_s).toInt(),
             original.node(calls.at(3)).data<ModelCallData>().request.messageCount());
    QCOMPARE(nextTurn.value(u"messages"_s).toArray().size(), 1);
    QVERIFY(nextTurn.contains(u"tools"_s)); // the turn before ended without them
    // Its turn written alone cannot refer outside: whole there.
    const QJsonObject alone = original.nodeToJson(original.roots().at(1));
    QVERIFY(alone.value(u"children"_s)
                .toArray()
                .at(0)
                .toObject()
                .value(u"data"_s)
                .toObject()
                .contains(u"request"_s));

    Trace loaded;
    QString error;
    QVERIFY2(loaded.fromJson(original.toJson(), &error), qPrintable(error));
    compareTraces(loaded, original);
    QCOMPARE(bytes(loaded.toJson()), bytes(original.toJson()));
}

void TestTrace::anExportedSubtreeWritesRequestsItCannotReferWhole()
{
    Trace original;
    const QList<int> calls = buildToolLoop(original);
    const int secondIteration = original.node(calls.at(1)).parent;
    const QJsonObject subtree = original.nodeToJson(secondIteration);
    const QJsonObject call = subtree.value(u"children"_s).toArray().at(0).toObject();
    QVERIFY(call.value(u"data"_s).toObject().contains(u"request"_s));

    Trace loaded;
    QString error;
    QVERIFY2(loaded.fromJson({subtree}, &error), qPrintable(error));
    QCOMPARE(loaded.node(1).data<ModelCallData>(), original.node(calls.at(1)).data<ModelCallData>());

    // A whole turn refers inside itself, and loads numbered from 0.
    QVERIFY2(loaded.fromJson({original.nodeToJson(original.roots().at(0))}, &error), qPrintable(error));
    QCOMPARE(loaded.node(calls.at(3)).data<ModelCallData>().request,
             original.node(calls.at(3)).data<ModelCallData>().request);
}

void TestTrace::requestsRecordedAsDeltasRebuildWholeAndSaveAndLoadAsDeltas()
{
    // Requests as a tool loop sends them: each resends the one before and adds to it, and one
    // was edited in the middle (the debugger), which keeps only the messages before the edit.
    const ModelRequest first = sampleRequest();
    ModelRequest second = first;
    second.messages += {Message::assistant(u"Und jetzt?"_s), Message::user(u"Morgen."_s)};
    ModelRequest edited = second;
    edited.messages[1].text = u"Wetter in Bern?"_s;
    edited.messages.append(Message::assistant(u"Sonnig."_s));
    QList<ModelRequest> sent{first, second, edited};

    Trace original;
    const int turn = original.begin(-1, TraceKind::Turn, u"turn"_s, T0, TurnData{});
    QList<int> calls;
    RecordedRequest previous;
    for (qsizetype i = 0; i < sent.size(); ++i) {
        ModelCallData call;
        call.request = i == 0 ? RecordedRequest(sent.at(i))
                              : RecordedRequest::after(previous, sent.at(i - 1), sent.at(i));
        previous = call.request;
        calls.append(original.begin(turn, TraceKind::ModelCall, u"chat"_s, T0 + i, call));
    }
    const auto recorded = [](const Trace &trace, int id) {
        return trace.node(id).data<ModelCallData>().request;
    };
    for (qsizetype i = 0; i < sent.size(); ++i)
        QCOMPARE(recorded(original, calls.at(i)).whole(), sent.at(i));
    QCOMPARE(recorded(original, calls.at(1)).addedMessages().size(), 2);
    QCOMPARE(recorded(original, calls.at(2)).keptMessages(), 1);

    // Written as those deltas, without comparing the requests whole.
    const QJsonArray json = original.toJson();
    const QHash<int, QJsonObject> data = dataById(json);
    const QJsonObject delta = data.value(calls.at(2)).value(u"requestDelta"_s).toObject();
    QCOMPARE(delta.value(u"base"_s).toInt(), calls.at(1));
    QCOMPARE(delta.value(u"keep"_s).toInt(), 1);
    QCOMPARE(delta.value(u"messages"_s).toArray().size(), edited.messages.size() - 1);

    // Read back as deltas too, and written again the same.
    Trace loaded;
    QString error;
    QVERIFY2(loaded.fromJson(json, &error), qPrintable(error));
    for (qsizetype i = 0; i < sent.size(); ++i)
        QCOMPARE(recorded(loaded, calls.at(i)).whole(), sent.at(i));
    QVERIFY(recorded(loaded, calls.at(1)).isDeltaOf(recorded(loaded, calls.at(0))));
    QVERIFY(recorded(loaded, calls.at(2)).isDeltaOf(recorded(loaded, calls.at(1))));
    QCOMPARE(loaded.toJson(), json);
}

void TestTrace::malformedRequestDeltasAreRejected_data()
{
    QTest::addColumn<QJsonObject>("delta");
    QTest::addColumn<QString>("errorMentions");

    const QJsonObject valid{{u"base"_s, 1}, {u"keep"_s, 1}, {u"messages"_s, QJsonArray()}};
    QTest::newRow("base missing") << without(valid, u"base"_s) << u"\"data.requestDelta.base\" is missing"_s;
    QTest::newRow("messages missing") << without(valid, u"messages"_s) << u"data.requestDelta.messages"_s;
    QTest::newRow("base unknown") << with(valid, u"base"_s, 7) << u"base 7 is not an earlier model call"_s;
    QTest::newRow("base is itself") << with(valid, u"base"_s, 2) << u"base 2 is not an earlier model call"_s;
    QTest::newRow("base is no model call")
        << with(valid, u"base"_s, 0) << u"base 0 is not an earlier model call"_s;
    QTest::newRow("keeps more than the base has")
        << with(valid, u"keep"_s, 5) << u"keeps 5 messages of a base that has 1"_s;
    QTest::newRow("negative keep") << with(valid, u"keep"_s, -1) << u"data.requestDelta.keep"_s;
}

void TestTrace::malformedRequestDeltasAreRejected()
{
    QFETCH(QJsonObject, delta);
    QFETCH(QString, errorMentions);

    const QJsonObject base
        = withId(withData(u"model_call"_s,
                          QJsonObject{{u"request"_s, callWith({Message::user(u"hi"_s)}).request.toJson()}}),
                 1);
    const QJsonObject call = withId(withData(u"model_call"_s, QJsonObject{{u"requestDelta"_s, delta}}), 2);
    const QJsonArray json{withChildren(withId(validNode(), 0), {base, call})};
    Trace trace;
    QString error;
    QVERIFY(!trace.fromJson(json, &error));
    QVERIFY2(error.contains(errorMentions), qPrintable(error));
    QVERIFY2(error.contains(u"Trace node 0/1"_s), qPrintable(error));
    QCOMPARE(trace.size(), 0);
}

void TestTrace::malformedInputIsRejectedAndLeavesTheTraceEmpty_data()
{
    QTest::addColumn<QJsonArray>("json");
    QTest::addColumn<QString>("errorMentions");

    QTest::newRow("a root that is a number") << QJsonArray{42} << u"JSON object"_s;
    QTest::newRow("a root that is a string") << QJsonArray{u"turn"_s} << u"JSON object"_s;
    QTest::newRow("a root that is null") << QJsonArray{QJsonValue::Null} << u"JSON object"_s;
    QTest::newRow("a root that is an array") << QJsonArray{QJsonArray{validNode()}} << u"JSON object"_s;
    QTest::newRow("an empty object") << QJsonArray{QJsonObject()} << u"\"kind\" is missing"_s;
    QTest::newRow("kind missing") << QJsonArray{without(validNode(), u"kind"_s)} << u"\"kind\" is missing"_s;
    QTest::newRow("status missing") << QJsonArray{without(validNode(), u"status"_s)} << u"\"status\""_s;
    QTest::newRow("label missing") << QJsonArray{without(validNode(), u"label"_s)} << u"\"label\""_s;
    QTest::newRow("startedUs missing")
        << QJsonArray{without(validNode(), u"startedUs"_s)} << u"\"startedUs\""_s;
    QTest::newRow("endedUs missing") << QJsonArray{without(validNode(), u"endedUs"_s)} << u"\"endedUs\""_s;
    QTest::newRow("kind as a number") << QJsonArray{with(validNode(), u"kind"_s, 0)} << u"must be a string"_s;
    QTest::newRow("unknown kind") << QJsonArray{validNode(u"banana"_s)} << u"unknown kind \"banana\""_s;
    QTest::newRow("kind in the wrong case") << QJsonArray{validNode(u"Turn"_s)} << u"unknown kind"_s;
    QTest::newRow("unknown status") << QJsonArray{with(validNode(), u"status"_s, u"fine"_s)}
                                    << u"unknown status \"fine\""_s;
    QTest::newRow("label as an object")
        << QJsonArray{with(validNode(), u"label"_s, QJsonObject())} << u"\"label\" must be a string"_s;
    QTest::newRow("startedUs as a string")
        << QJsonArray{with(validNode(), u"startedUs"_s, u"123"_s)} << u"\"startedUs\" must be an integer"_s;
    QTest::newRow("startedUs with a fraction")
        << QJsonArray{with(validNode(), u"startedUs"_s, 1.5)} << u"\"startedUs\" must be an integer"_s;
    QTest::newRow("endedUs beyond 64 bits")
        << QJsonArray{with(validNode(), u"endedUs"_s, 1e300)} << u"\"endedUs\" must be an integer"_s;
    QTest::newRow("endedUs as a boolean")
        << QJsonArray{with(validNode(), u"endedUs"_s, true)} << u"\"endedUs\" must be an integer"_s;
    QTest::newRow("children as an object")
        << QJsonArray{with(validNode(), u"children"_s, QJsonObject())} << u"\"children\" must be an array"_s;
    QTest::newRow("a child that is a string")
        << QJsonArray{withChildren(validNode(), {validNode(), u"child"_s})} << u"node 0/1"_s;
    QTest::newRow("a bad grandchild after good siblings")
        << QJsonArray{validNode(),
                      withChildren(validNode(),
                                   {validNode(), withChildren(validNode(), {validNode(u"x"_s)})})}
        << u"Trace node 1/1/0: unknown kind \"x\""_s;
    QTest::newRow("data as an array")
        << QJsonArray{with(validNode(), u"data"_s, QJsonArray())} << u"\"data\" must be an object"_s;
    QTest::newRow("data as null") << QJsonArray{with(validNode(), u"data"_s, QJsonValue::Null)}
                                  << u"\"data\" must be an object"_s;
    QTest::newRow("turn usage as a string")
        << QJsonArray{withData(u"turn"_s, {{u"usage"_s, u"12"_s}})} << u"\"data.usage\" must be an object"_s;
    QTest::newRow("turn input as a number")
        << QJsonArray{withData(u"turn"_s, {{u"input"_s, 7}})} << u"\"data.input\" must be a string"_s;
    QTest::newRow("iteration number as a string")
        << QJsonArray{withData(u"iteration"_s, {{u"number"_s, u"1"_s}})} << u"\"data.number\""_s;
    QTest::newRow("iteration number beyond 32 bits")
        << QJsonArray{withData(u"iteration"_s, {{u"number"_s, qint64(1) << 40}})} << u"32-bit integer"_s;
    QTest::newRow("iteration flag as a string")
        << QJsonArray{withData(u"iteration"_s, {{u"toolsOffered"_s, u"yes"_s}})} << u"true or false"_s;
    QTest::newRow("model call request as an array")
        << QJsonArray{withData(u"model_call"_s, {{u"request"_s, QJsonArray()}})} << u"\"data.request\""_s;
    QTest::newRow("model call response as a string")
        << QJsonArray{withData(u"model_call"_s, {{u"response"_s, u"ok"_s}})} << u"\"data.response\""_s;
    QTest::newRow("model call attempts as an object")
        << QJsonArray{withData(u"model_call"_s, {{u"attempts"_s, QJsonObject()}})} << u"must be an array"_s;
    QTest::newRow("model call attempt that is a number")
        << QJsonArray{withData(u"model_call"_s, {{u"attempts"_s, QJsonArray{QJsonObject(), 1}}})}
        << u"an array of objects"_s;
    QTest::newRow("retry delay with a fraction")
        << QJsonArray{withData(u"retry"_s, {{u"delayMs"_s, 0.5}})} << u"\"data.delayMs\""_s;
    QTest::newRow("tool call as a string")
        << QJsonArray{withData(u"tool_call"_s, {{u"call"_s, u"read_file"_s}})} << u"\"data.call\""_s;
    QTest::newRow("tool progress as a string")
        << QJsonArray{withData(u"tool_call"_s, {{u"progress"_s, u"50%"_s}})} << u"\"data.progress\""_s;
    QTest::newRow("tool progress holding numbers")
        << QJsonArray{withData(u"tool_call"_s, {{u"progress"_s, QJsonArray{u"a"_s, 2}}})}
        << u"an array of strings"_s;
    QTest::newRow("shield passed as a number")
        << QJsonArray{withData(u"shield_check"_s, {{u"passed"_s, 1}})} << u"\"data.passed\""_s;
    QTest::newRow("reflection text as an array")
        << QJsonArray{withData(u"reflection"_s, {{u"text"_s, QJsonArray()}})} << u"\"data.text\""_s;
    QTest::newRow("handoff target as null")
        << QJsonArray{withData(u"handoff"_s, {{u"target"_s, QJsonValue::Null}})} << u"\"data.target\""_s;
    QTest::newRow("error code as a number")
        << QJsonArray{withData(u"error"_s, {{u"code"_s, 404}})} << u"\"data.code\""_s;
    QTest::newRow("unknown data type") << QJsonArray{with(withData(u"error"_s, {}), u"dataType"_s, u"poem"_s)}
                                       << u"unknown data type \"poem\""_s;
    QTest::newRow("data type as a number")
        << QJsonArray{with(withData(u"error"_s, {}), u"dataType"_s, 3)} << u"\"dataType\""_s;
    QTest::newRow("nested one level too deep") << QJsonArray{chain(65)} << u"deeper than 64 levels"_s;
    QTest::newRow("nested a thousand levels") << QJsonArray{chain(1000)} << u"deeper than 64 levels"_s;
    QTest::newRow("a negative id") << QJsonArray{withId(validNode(), -1)} << u"must not be negative"_s;
    QTest::newRow("an id as a string") << QJsonArray{with(validNode(), u"id"_s, u"0"_s)} << u"\"id\""_s;
    QTest::newRow("the same id twice")
        << QJsonArray{withId(validNode(), 0), withChildren(withId(validNode(), 1), {withId(validNode(), 1)})}
        << u"greater than its parent"_s;
    QTest::newRow("the same id in two trees")
        << QJsonArray{withChildren(withId(validNode(), 0), {withId(validNode(), 5)}),
                      withChildren(withId(validNode(), 1), {withId(validNode(), 5)})}
        << u"node id 5 twice"_s;
    QTest::newRow("a child older than its parent")
        << QJsonArray{withChildren(withId(validNode(), 3), {withId(validNode(), 2)})}
        << u"greater than its parent"_s;
    QTest::newRow("siblings out of order")
        << QJsonArray{withChildren(withId(validNode(), 0), {withId(validNode(), 2), withId(validNode(), 1)})}
        << u"previous sibling"_s;
    QTest::newRow("roots out of order")
        << QJsonArray{withId(validNode(), 1), withId(validNode(), 0)} << u"previous sibling"_s;
    QTest::newRow("ids on some nodes only") << QJsonArray{withChildren(withId(validNode(), 0), {validNode()})}
                                            << u"every node has an id or none"_s;
}

void TestTrace::malformedInputIsRejectedAndLeavesTheTraceEmpty()
{
    QFETCH(QJsonArray, json);
    QFETCH(QString, errorMentions);

    Trace trace;
    buildEveryKindForest(trace); // whatever was there goes
    QSignalSpy aboutToReset(&trace, &Trace::aboutToReset);
    QSignalSpy reset(&trace, &Trace::reset);

    QString error;
    QVERIFY(!trace.fromJson(json, &error));
    QVERIFY2(error.contains(errorMentions), qPrintable(error));
    QCOMPARE(trace.size(), 0);
    QVERIFY(trace.roots().isEmpty());
    QCOMPARE(trace.toJson(), QJsonArray());
    QCOMPARE(aboutToReset.size(), 1);
    QCOMPARE(reset.size(), 1);

    // Without an error string it must not crash either.
    QVERIFY(!trace.fromJson(json));
}

void TestTrace::lenientInputStillLoads_data()
{
    QTest::addColumn<QJsonArray>("json");
    QTest::addColumn<TraceNode>("expectedRoot");

    TraceNode plain;
    plain.id = 0;
    plain.kind = TraceKind::Turn;
    plain.status = TraceStatus::Ok;
    plain.label = u"a node"_s;
    plain.startedUs = T0;
    plain.endedUs = T0 + 1;

    QTest::newRow("no children key") << QJsonArray{without(validNode(), u"children"_s)} << plain;
    QTest::newRow("unknown keys are ignored")
        << QJsonArray{with(validNode(), u"comment"_s, u"hand written"_s)} << plain;
    QTest::newRow("whole numbers written as doubles")
        << QJsonArray{with(validNode(), u"endedUs"_s, double(T0 + 1))} << plain;
    QTest::newRow("ids may start anywhere") << QJsonArray{withId(validNode(), 1234)} << plain;

    TraceNode iteration = plain;
    iteration.kind = TraceKind::Iteration;
    iteration.payload = IterationData{3, 0, false, true};
    QTest::newRow("missing data fields keep their defaults")
        << QJsonArray{withData(u"iteration"_s, {{u"number"_s, 3}})} << iteration;

    TraceNode text = plain;
    text.kind = TraceKind::Summary;
    text.payload = TextData{};
    QTest::newRow("an empty data object") << QJsonArray{withData(u"summary"_s, {})} << text;

    // Written before approvals kept their reach and what was shown.
    TraceNode wait = plain;
    wait.kind = TraceKind::Wait;
    wait.payload = WaitData{u"approval"_s, u"allowed"_s, {}, {}, false};
    QTest::newRow("a wait without scope or preview")
        << QJsonArray{withData(u"wait"_s, {{u"waitingFor"_s, u"approval"_s}, {u"decision"_s, u"allowed"_s}})}
        << wait;
}

void TestTrace::lenientInputStillLoads()
{
    QFETCH(QJsonArray, json);
    QFETCH(TraceNode, expectedRoot);

    Trace trace;
    QString error;
    QVERIFY2(trace.fromJson(json, &error), qPrintable(error));
    QVERIFY(error.isEmpty());
    QCOMPARE(trace.size(), 1);
    QCOMPARE(trace.node(0), expectedRoot);
}

void TestTrace::sixtyFourLevelsOfNestingAreAllowed()
{
    Trace trace;
    QString error;
    QVERIFY2(trace.fromJson({chain(64)}, &error), qPrintable(error));
    QCOMPARE(trace.size(), 64);
    QCOMPARE(depthOf(trace, trace.size() - 1), 64);
    // What is written can be read back.
    Trace copy;
    QVERIFY(copy.fromJson(trace.toJson()));
    QCOMPARE(copy.size(), 64);
}

void TestTrace::loadingReplacesTheContentBetweenResetSignals()
{
    Trace source;
    buildEveryKindForest(source);
    Trace trace;
    trace.begin(-1, TraceKind::Turn, u"old"_s, T0);

    QStringList seen;
    connect(&trace, &Trace::aboutToReset, this, [&] { seen.append(u"before: "_s + trace.node(0).label); });
    connect(&trace, &Trace::reset, this, [&] { seen.append(u"after: %1 nodes"_s.arg(trace.size())); });
    QSignalSpy appended(&trace, &Trace::appended);

    QVERIFY(trace.fromJson(source.toJson()));
    QCOMPARE(seen, (QStringList{u"before: old"_s, u"after: %1 nodes"_s.arg(source.size())}));
    // One reset, not an append per node.
    QCOMPARE(appended.size(), 0);
    // The loaded trace keeps growing like a recorded one.
    const int next = trace.begin(trace.roots().constLast(), TraceKind::Error, u"new"_s, T0);
    QCOMPARE(next, source.size());
    QCOMPARE(trace.node(next).row, int(source.node(source.roots().constLast()).children.size()));
}

void TestTrace::modelStaysConsistentThroughLiveAppendsChangesAndResets()
{
    Trace trace;
    TraceModel model(&trace);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);

    // Appends under several parents, interleaved as parallel tool calls do.
    const int turn = trace.begin(-1, TraceKind::Turn, u"turn"_s, T0, TurnData{});
    const int iteration
        = trace.begin(turn, TraceKind::Iteration, u"iteration"_s, T0 + 1, IterationData{1, 8});
    const int toolA = trace.begin(iteration, TraceKind::ToolCall, u"a"_s, T0 + 2, ToolCallData{});
    const int toolB = trace.begin(iteration, TraceKind::ToolCall, u"b"_s, T0 + 3, ToolCallData{});
    trace.begin(toolB, TraceKind::ShieldCheck, u"b check"_s, T0 + 4, ShieldCheckData{});
    trace.begin(toolA, TraceKind::ShieldCheck, u"a check"_s, T0 + 5, ShieldCheckData{});
    const int secondTurn = trace.begin(-1, TraceKind::Turn, u"second"_s, T0 + 6, TurnData{});
    trace.begin(toolA, TraceKind::Retry, u"late under a"_s, T0 + 7, RetryData{});
    trace.begin(secondTurn, TraceKind::Error, u"error"_s, T0 + 8, ErrorData{});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowCount(model.indexForNode(toolA)), 2);

    // Changes in place.
    trace.update(toolA, [](TraceNode &node) { node.data<ToolCallData>().progress.append(u"half way"_s); });
    trace.finish(toolB, TraceStatus::Denied, T0 + 9);
    trace.update(turn, [](TraceNode &node) { node.data<TurnData>().usage = {10, 5}; });
    QCOMPARE(model.data(model.indexForNode(toolB, TraceModel::StatusColumn)).toString(), u"Denied"_s);
    QCOMPARE(model.data(model.indexForNode(turn, TraceModel::TokensColumn)).toString(), u"15"_s);

    // Clear, reload, fail to load, grow again.
    const QJsonArray saved = trace.toJson();
    trace.clear();
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(trace.fromJson(saved));
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowCount(model.indexForNode(iteration)), 2);
    Trace everything;
    buildEveryKindForest(everything);
    QVERIFY(trace.fromJson(everything.toJson()));
    QCOMPARE(model.rowCount(), 2);
    QVERIFY(!trace.fromJson({42}));
    QCOMPARE(model.rowCount(), 0);
    const int fresh = trace.begin(-1, TraceKind::Turn, u"fresh"_s, T0);
    trace.begin(fresh, TraceKind::Iteration, u"fresh iteration"_s, T0);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.data(model.index(0, 0, model.index(0, 0))).toString(), u"fresh iteration"_s);
}

void TestTrace::insertionsAreAnnouncedAtTheExactParentAndRow_data()
{
    // Each entry is the parent of the next append (-1 for a root); the new node
    // gets the next id.
    QTest::addColumn<QList<int>>("parents");

    QTest::newRow("roots only") << QList<int>{-1, -1, -1};
    QTest::newRow("a chain") << QList<int>{-1, 0, 1, 2, 3};
    QTest::newRow("siblings under one parent") << QList<int>{-1, 0, 0, 0};
    QTest::newRow("interleaved under several parents") << QList<int>{-1, 0, 1, 1, 3, 2, -1, 2, 6, 0, 3};
}

void TestTrace::insertionsAreAnnouncedAtTheExactParentAndRow()
{
    QFETCH(QList<int>, parents);

    Trace trace;
    TraceModel model(&trace);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy aboutToInsert(&model, &QAbstractItemModel::rowsAboutToBeInserted);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);

    QHash<int, int> childCount;
    for (int id = 0; id < parents.size(); ++id) {
        const int parent = parents.at(id);
        const int expectedRow = childCount[parent]++;
        QCOMPARE(trace.begin(parent, TraceKind::Iteration, u"node %1"_s.arg(id), T0 + id), id);

        QCOMPARE(aboutToInsert.size(), id + 1);
        QCOMPARE(inserted.size(), id + 1);
        for (const QList<QVariant> &arguments : {aboutToInsert.at(id), inserted.at(id)}) {
            const auto parentIndex = arguments.at(0).value<QModelIndex>();
            QCOMPARE(parentIndex.isValid(), parent != -1);
            QCOMPARE(model.nodeId(parentIndex), parent);
            QCOMPARE(parentIndex.column(), parent == -1 ? -1 : 0);
            QCOMPARE(arguments.at(1).toInt(), expectedRow);
            QCOMPARE(arguments.at(2).toInt(), expectedRow);
        }
        const QModelIndex parentIndex = model.indexForNode(parent);
        QCOMPARE(model.rowCount(parentIndex), expectedRow + 1);
        QCOMPARE(model.nodeId(model.index(expectedRow, 0, parentIndex)), id);
    }
}

void TestTrace::changesAreAnnouncedForTheWholeRow()
{
    Trace trace;
    const int turn = trace.begin(-1, TraceKind::Turn, u"turn"_s, T0);
    trace.begin(turn, TraceKind::Iteration, u"first"_s, T0);
    const int second = trace.begin(turn, TraceKind::Iteration, u"second"_s, T0);
    TraceModel model(&trace);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

    trace.finish(second, TraceStatus::Error, T0 + 1500);
    QCOMPARE(changed.size(), 1);
    const auto topLeft = changed.at(0).at(0).value<QModelIndex>();
    const auto bottomRight = changed.at(0).at(1).value<QModelIndex>();
    QCOMPARE(topLeft, model.indexForNode(second, 0));
    QCOMPARE(bottomRight, model.indexForNode(second, TraceModel::ColumnCount - 1));
    QCOMPARE(topLeft.row(), 1);
    QCOMPARE(model.nodeId(topLeft.parent()), turn);
    QCOMPARE(model.data(topLeft, TraceModel::IsErrorRole).toBool(), true);
    QCOMPARE(inserted.size(), 0);
    QCOMPARE(reset.size(), 0);
}

void TestTrace::rolesDescribeTheNode_data()
{
    QTest::addColumn<QString>("label");
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("role");
    QTest::addColumn<QVariant>("expected");

    const int display = Qt::DisplayRole;
    QTest::newRow("the name column shows the label") << u"Turn ☀"_s << 0 << display << QVariant(u"Turn ☀"_s);
    QTest::newRow("the tooltip shows the whole label")
        << u"Turn ☀"_s << 0 << int(Qt::ToolTipRole) << QVariant(u"Turn ☀"_s);
    QTest::newRow("the kind in words") << u"model"_s << 1 << display << QVariant(u"Model call"_s);
    QTest::newRow("the status in words") << u"shell"_s << 2 << display << QVariant(u"Denied"_s);
    QTest::newRow("a short duration in milliseconds") << u"model"_s << 3 << display << QVariant(u"1.5 ms"_s);
    QTest::newRow("a long duration in milliseconds")
        << u"Turn ☀"_s << 3 << display << QVariant(u"2500.0 ms"_s);
    QTest::newRow("a running step has no duration") << u"iteration"_s << 3 << display << QVariant(QString());
    QTest::newRow("model call tokens are input plus output")
        << u"model"_s << 4 << display << QVariant(u"1234"_s);
    QTest::newRow("turn tokens are the turn's usage") << u"Turn ☀"_s << 4 << display << QVariant(u"120"_s);
    QTest::newRow("no tokens for a tool call") << u"shell"_s << 4 << display << QVariant(QString());
    QTest::newRow("unreported tokens are blank") << u"quiet model"_s << 4 << display << QVariant(QString());
    QTest::newRow("numbers align right")
        << u"model"_s << 4 << int(Qt::TextAlignmentRole) << QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    QTest::newRow("names align by default") << u"model"_s << 0 << int(Qt::TextAlignmentRole) << QVariant();

    QTest::newRow("node id") << u"shell"_s << 0 << int(TraceModel::NodeIdRole) << QVariant(3);
    QTest::newRow("custom roles answer in every column")
        << u"shell"_s << 2 << int(TraceModel::NodeIdRole) << QVariant(3);
    QTest::newRow("kind as a number")
        << u"model"_s << 0 << int(TraceModel::KindRole) << QVariant(int(TraceKind::ModelCall));
    QTest::newRow("status as a number")
        << u"shell"_s << 0 << int(TraceModel::StatusRole) << QVariant(int(TraceStatus::Denied));
    QTest::newRow("start in microseconds")
        << u"model"_s << 0 << int(TraceModel::StartedUsRole) << QVariant(qint64(1'100'000));
    QTest::newRow("end in microseconds")
        << u"model"_s << 0 << int(TraceModel::EndedUsRole) << QVariant(qint64(1'101'500));
    QTest::newRow("duration in microseconds")
        << u"model"_s << 0 << int(TraceModel::DurationUsRole) << QVariant(qint64(1500));
    QTest::newRow("a running step lasts 0")
        << u"iteration"_s << 0 << int(TraceModel::DurationUsRole) << QVariant(qint64(0));
    QTest::newRow("error is an error") << u"error"_s << 0 << int(TraceModel::IsErrorRole) << QVariant(true);
    QTest::newRow("blocked is an error") << u"check"_s << 0 << int(TraceModel::IsErrorRole) << QVariant(true);
    QTest::newRow("denied is an error") << u"shell"_s << 0 << int(TraceModel::IsErrorRole) << QVariant(true);
    QTest::newRow("ok is not an error") << u"model"_s << 0 << int(TraceModel::IsErrorRole) << QVariant(false);
    QTest::newRow("running is not an error")
        << u"iteration"_s << 0 << int(TraceModel::IsErrorRole) << QVariant(false);
    QTest::newRow("skipped is not an error")
        << u"quiet model"_s << 0 << int(TraceModel::IsErrorRole) << QVariant(false);
    QTest::newRow("a tool call names its tool")
        << u"shell"_s << 0 << int(TraceModel::ToolNameRole) << QVariant(u"run_shell"_s);
    QTest::newRow("other nodes name no tool")
        << u"model"_s << 0 << int(TraceModel::ToolNameRole) << QVariant();
    QTest::newRow("the payload as JSON")
        << u"check"_s << 0 << int(TraceModel::PayloadJsonRole)
        << QVariant(QJsonObject{{u"shield"_s, u"rules"_s},
                                {u"stage"_s, u"tool_call"_s},
                                {u"subject"_s, u"run_shell"_s},
                                {u"passed"_s, false},
                                {u"reason"_s, u"matched keyword \"rm -rf\""_s}});
    QTest::newRow("no payload is an empty object")
        << u"iteration"_s << 0 << int(TraceModel::PayloadJsonRole) << QVariant(QJsonObject());
    QTest::newRow("a retrieval's kind in words") << u"search"_s << 1 << display << QVariant(u"Retrieval"_s);
    QTest::newRow("a retrieval is no error")
        << u"search"_s << 0 << int(TraceModel::IsErrorRole) << QVariant(false);
    QTest::newRow("a retrieval's query, bases, hits and times as JSON")
        << u"search"_s << 0 << int(TraceModel::PayloadJsonRole)
        << QVariant(QJsonObject{{u"query"_s, u"refunds"_s},
                                {u"bases"_s, QJsonArray{u"policies"_s}},
                                {u"embeddingModel"_s, QString()},
                                {u"topK"_s, 5},
                                {u"hits"_s, QJsonArray{QJsonObject{{u"base"_s, u"policies"_s},
                                                                   {u"path"_s, u"/p/refunds.md"_s},
                                                                   {u"startLine"_s, 3},
                                                                   {u"endLine"_s, 4},
                                                                   {u"score"_s, 2.5},
                                                                   {u"bm25"_s, 2.5},
                                                                   {u"text"_s, u"Refunds are approved."_s}}}},
                                {u"embeddingUs"_s, 0},
                                {u"searchUs"_s, 900},
                                {u"error"_s, QString()}});
    QTest::newRow("an unknown role") << u"model"_s << 0 << int(Qt::UserRole + 500) << QVariant();
}

void TestTrace::rolesDescribeTheNode()
{
    QFETCH(QString, label);
    QFETCH(int, column);
    QFETCH(int, role);
    QFETCH(QVariant, expected);

    Trace trace;
    const int turn
        = trace.begin(-1, TraceKind::Turn, u"Turn ☀"_s, 1'000'000, TurnData{{}, {}, {}, {}, {100, 20}});
    const int iteration = trace.begin(turn, TraceKind::Iteration, u"iteration"_s, 1'050'000);
    ModelCallData call;
    call.response.usage = {1200, 34};
    const int modelCall = trace.begin(iteration, TraceKind::ModelCall, u"model"_s, 1'100'000, call);
    trace.finish(modelCall, TraceStatus::Ok, 1'101'500);
    const int shell = trace.begin(iteration, TraceKind::ToolCall, u"shell"_s, 1'200'000,
                                  ToolCallData{ToolCall{u"c1"_s, u"run_shell"_s, u"{}"_s, {}}});
    const int check = trace.begin(
        shell, TraceKind::ShieldCheck, u"check"_s, 1'200'001,
        ShieldCheckData{u"rules"_s, u"tool_call"_s, u"run_shell"_s, false, u"matched keyword \"rm -rf\""_s});
    trace.finish(check, TraceStatus::Blocked, 1'200'002);
    trace.finish(shell, TraceStatus::Denied, 1'200'003);
    const int error = trace.begin(iteration, TraceKind::Error, u"error"_s, 1'300'000, ErrorData{});
    trace.finish(error, TraceStatus::Error, 1'300'000);
    const int quiet
        = trace.begin(iteration, TraceKind::ModelCall, u"quiet model"_s, 1'400'000, ModelCallData{});
    trace.finish(quiet, TraceStatus::Skipped, 1'400'001);
    const int search = trace.begin(
        iteration, TraceKind::Retrieval, u"search"_s, 1'500'000,
        RetrievalData{
            u"refunds"_s,
            {u"policies"_s},
            {},
            5,
            {RetrievalHit{u"policies"_s, u"/p/refunds.md"_s, 3, 4, 2.5, {}, {}, u"Refunds are approved."_s}},
            0,
            900,
            {}});
    trace.finish(search, TraceStatus::Ok, 1'500'900);
    trace.finish(turn, TraceStatus::Ok, 3'500'000);
    QCOMPARE(shell, 3); // the "node id" rows rely on it

    TraceModel model(&trace);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const int id = findByLabel(trace, label);
    QVERIFY(id >= 0);
    const QModelIndex index = model.indexForNode(id, column);
    QVERIFY(index.isValid());
    QCOMPARE(index.column(), column);
    QCOMPARE(model.data(index, role), expected);
}

void TestTrace::indexForNodeAndNodeIdAgree()
{
    Trace trace;
    buildEveryKindForest(trace);
    TraceModel model(&trace);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);

    for (int id = 0; id < trace.size(); ++id) {
        const TraceNode &node = trace.node(id);
        for (int column = 0; column < TraceModel::ColumnCount; ++column) {
            const QModelIndex index = model.indexForNode(id, column);
            QCOMPARE(index.row(), node.row);
            QCOMPARE(index.column(), column);
            QCOMPARE(model.nodeId(index), id);
            QCOMPARE(model.nodeId(index.parent()), node.parent);
            QCOMPARE(model.index(node.row, column, model.indexForNode(node.parent)), index);
        }
        QCOMPARE(model.rowCount(model.indexForNode(id)), int(node.children.size()));
    }
    QVERIFY(!model.indexForNode(-1).isValid());
    QVERIFY(!model.indexForNode(trace.size()).isValid());
    QVERIFY(!model.indexForNode(0, TraceModel::ColumnCount).isValid());
    QCOMPARE(model.nodeId({}), -1);

    Trace otherTrace;
    buildEveryKindForest(otherTrace);
    TraceModel otherModel(&otherTrace);
    QCOMPARE(model.nodeId(otherModel.indexForNode(1)), -1);
}

void TestTrace::headerNamesEveryColumn()
{
    Trace trace;
    TraceModel model(&trace);
    QCOMPARE(model.columnCount(), 6);
    const QStringList expected{u"Name"_s, u"Kind"_s, u"Status"_s, u"Duration"_s, u"Tokens"_s, u"Cost"_s};
    for (int column = 0; column < model.columnCount(); ++column)
        QCOMPARE(model.headerData(column, Qt::Horizontal).toString(), expected.at(column));
    QCOMPARE(model.headerData(0, Qt::Vertical), QVariant());
    QCOMPARE(model.headerData(6, Qt::Horizontal), QVariant());
    QCOMPARE(model.headerData(0, Qt::Horizontal, Qt::ToolTipRole), QVariant());
    QCOMPARE(model.roleNames().value(TraceModel::PayloadJsonRole), QByteArray("payloadJson"));
}

void TestTrace::modelEmptiesWhenTheTraceIsDestroyed()
{
    auto trace = std::make_unique<Trace>();
    buildEveryKindForest(*trace);
    TraceModel model(trace.get());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QCOMPARE(model.rowCount(), 2);

    trace.reset();
    QCOMPARE(reset.size(), 1);
    QCOMPARE(model.trace(), nullptr);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.index(0, 0).isValid());
    QVERIFY(!model.indexForNode(0).isValid());
}

void TestTrace::aStepsWaitingIsTheTimeOfTheWaitsBelowItCountedOnce_data()
{
    QTest::addColumn<QString>("label");
    QTest::addColumn<qint64>("durationUs");
    QTest::addColumn<qint64>("waitingUs");

    QTest::newRow("a turn counts overlapping waits once")
        << u"held turn"_s << 27 * Second << qint64(23.9 * Second);
    QTest::newRow("an iteration counts the pause before its model call")
        << u"iteration"_s << 27 * Second << qint64(23.9 * Second);
    QTest::newRow("a model call starts when it was sent: no waiting in it")
        << u"model"_s << 1 * Second << qint64(0);
    QTest::newRow("a tool call's time starts after its approval")
        << u"read_file"_s << qint64(0.4 * Second) << qint64(0);
    QTest::newRow("a wait is all waiting")
        << u"approve read"_s << qint64(13.9 * Second) << qint64(13.9 * Second);
    QTest::newRow("a running step has no timing yet") << u"running turn"_s << qint64(0) << qint64(0);
    QTest::newRow("a wait left running lasts until the step ended")
        << u"cut short"_s << 1 * Second << qint64(0.5 * Second);
}

void TestTrace::aStepsWaitingIsTheTimeOfTheWaitsBelowItCountedOnce()
{
    QFETCH(QString, label);
    QFETCH(qint64, durationUs);
    QFETCH(qint64, waitingUs);

    Trace trace;
    addHeldTurns(trace);
    const int id = findByLabel(trace, label);
    QVERIFY(id >= 0);
    const StepTiming timing = stepTiming(trace, id);
    QCOMPARE(timing.durationUs, durationUs);
    QCOMPARE(timing.waitingUs, waitingUs);
    QCOMPARE(timing.workingUs(), durationUs - waitingUs);
}

void TestTrace::theDurationColumnShowsTheMachinesTimeAndTheTooltipTheWaiting_data()
{
    QTest::addColumn<QString>("label");
    QTest::addColumn<int>("role");
    QTest::addColumn<QVariant>("expected");

    const int display = Qt::DisplayRole;
    const int toolTip = Qt::ToolTipRole;
    QTest::newRow("a turn shows the machine's time") << u"held turn"_s << display << QVariant(u"3100.0 ms"_s);
    QTest::newRow("a turn's tooltip splits its time")
        << u"held turn"_s << toolTip << QVariant(u"27.0 s: 3.1 s working, 23.9 s waiting for you"_s);
    QTest::newRow("an iteration shows the machine's time")
        << u"iteration"_s << display << QVariant(u"3100.0 ms"_s);
    QTest::newRow("a wait shows how long it waited")
        << u"approve read"_s << display << QVariant(u"13900.0 ms"_s);
    QTest::newRow("a wait's tooltip adds nothing") << u"approve read"_s << toolTip << QVariant();
    QTest::newRow("a step that waited for no one has no tooltip")
        << u"model"_s << toolTip << QVariant(QString());
    QTest::newRow("the waiting in microseconds")
        << u"held turn"_s << int(TraceModel::WaitingUsRole) << QVariant(qint64(23.9 * Second));
    QTest::newRow("the working time in microseconds")
        << u"held turn"_s << int(TraceModel::WorkingUsRole) << QVariant(qint64(3.1 * Second));
    QTest::newRow("the duration is still the whole span")
        << u"held turn"_s << int(TraceModel::DurationUsRole) << QVariant(qint64(27 * Second));
}

void TestTrace::theDurationColumnShowsTheMachinesTimeAndTheTooltipTheWaiting()
{
    QFETCH(QString, label);
    QFETCH(int, role);
    QFETCH(QVariant, expected);

    Trace trace;
    addHeldTurns(trace);
    TraceModel model(&trace);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const QModelIndex index = model.indexForNode(findByLabel(trace, label), TraceModel::DurationColumn);
    QVERIFY(index.isValid());
    QCOMPARE(model.data(index, role), expected);
}

void TestTrace::aWaitThatEndsAnnouncesTheWorkingTimeOfTheStepsAboveIt()
{
    Trace trace;
    const int turn = trace.begin(-1, TraceKind::Turn, u"turn"_s, T0, TurnData{});
    const int iteration = trace.begin(turn, TraceKind::Iteration, u"iteration"_s, T0, IterationData{1, 10});
    const int tool = trace.begin(iteration, TraceKind::ToolCall, u"tool"_s, T0, ToolCallData{});
    const int wait = trace.begin(tool, TraceKind::Wait, u"wait"_s, T0, WaitData{u"approval"_s, {}});
    TraceModel model(&trace);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    trace.finish(wait, TraceStatus::Ok, T0 + Second);

    QSet<int> durationsAnnounced;
    for (const QList<QVariant> &args : std::as_const(changed)) {
        const auto topLeft = args.at(0).value<QModelIndex>();
        const auto bottomRight = args.at(1).value<QModelIndex>();
        if (topLeft.column() <= TraceModel::DurationColumn
            && bottomRight.column() >= TraceModel::DurationColumn)
            durationsAnnounced.insert(model.nodeId(topLeft));
    }
    QCOMPARE(durationsAnnounced, (QSet<int>{wait, tool, iteration, turn}));
}

void TestTrace::waitsAndTheirTimingSurviveASaveAndLoad()
{
    // The timing is computed from the Wait nodes, not saved beside them: a file holds one truth.
    Trace trace;
    addHeldTurns(trace);
    const QJsonDocument document = QJsonDocument::fromJson(bytes(trace.toJson()));
    Trace loaded;
    QVERIFY(loaded.fromJson(document.array()));
    compareTraces(loaded, trace);
    for (int id = 0; id < trace.size(); ++id)
        QCOMPARE(stepTiming(loaded, id), stepTiming(trace, id));
}

QTEST_GUILESS_MAIN(TestTrace)
#include "tst_trace.moc"
