#include "agent/export/otlpexport.h"

#include "agent/config/profilepricing.h"
#include "agent/providers/attachmentparts.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracecost.h"
#include "agent/trace/tracetiming.h"
#include "agent/transcript/transcript.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// OTLP's SpanKind and StatusCode, written as numbers as OTLP/JSON wants.
constexpr int SpanKindInternal = 1;
constexpr int SpanKindClient = 3;
constexpr int StatusOk = 1;
constexpr int StatusError = 2;

const QString ScopeName = u"loopscope"_s;

// OTLP AnyValue. 64-bit integers are strings in OTLP/JSON.
QJsonObject stringValue(const QString &value)
{
    return {{u"stringValue"_s, value}};
}
QJsonObject intValue(qint64 value)
{
    return {{u"intValue"_s, QString::number(value)}};
}
QJsonObject doubleValue(double value)
{
    return {{u"doubleValue"_s, value}};
}
QJsonObject boolValue(bool value)
{
    return {{u"boolValue"_s, value}};
}
QJsonObject stringArrayValue(const QStringList &values)
{
    QJsonArray array;
    for (const QString &value : values)
        array.append(stringValue(value));
    return {{u"arrayValue"_s, QJsonObject{{u"values"_s, array}}}};
}

// A list of OTLP KeyValues, in the order they were added.
class Attributes
{
public:
    Attributes &add(const QString &key, const QJsonObject &value)
    {
        m_list.append(QJsonObject{{u"key"_s, key}, {u"value"_s, value}});
        return *this;
    }
    Attributes &string(const QString &key, const QString &value)
    {
        return value.isEmpty() ? *this : add(key, stringValue(value));
    }
    Attributes &integer(const QString &key, qint64 value) { return add(key, intValue(value)); }
    Attributes &boolean(const QString &key, bool value) { return add(key, boolValue(value)); }
    Attributes &usage(const TokenUsage &usage)
    {
        if (usage.isEmpty())
            return *this; // zero means "not reported"
        integer(u"gen_ai.usage.input_tokens"_s, usage.inputTokens)
            .integer(u"gen_ai.usage.output_tokens"_s, usage.outputTokens);
        // Part of the input tokens, as the conventions count them.
        if (usage.cacheReadTokens > 0)
            integer(u"gen_ai.usage.cache_read.input_tokens"_s, usage.cacheReadTokens);
        if (usage.cacheWriteTokens > 0)
            integer(u"gen_ai.usage.cache_creation.input_tokens"_s, usage.cacheWriteTokens);
        return *this;
    }
    // The GenAI conventions have no cost attribute yet: ours, namespaced, in USD. Unknown costs
    // are left out rather than written as 0.
    Attributes &cost(const CostSum &sum)
    {
        if (!sum.isKnown())
            return *this;
        add(u"loopscope.cost.usd"_s, doubleValue(sum.usd));
        if (sum.isPartial())
            integer(u"loopscope.cost.unpriced_calls"_s, sum.unpricedCalls);
        return *this;
    }

    const QJsonArray &json() const { return m_list; }

private:
    QJsonArray m_list;
};

// gen_ai.provider.name: the well-known value where there is one.
QString providerName(const QString &provider)
{
    if (provider == u"gemini")
        return u"gcp.gemini"_s;
    return provider;
}

QString nanos(qint64 micros)
{
    return QString::number(micros * 1000);
}

QByteArray sha256(const QByteArray &data)
{
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256);
}

// An id of the given size from a digest; all zeros is invalid in OTLP.
QString hexId(const QByteArray &digest, qsizetype bytes)
{
    QByteArray id = digest.left(bytes);
    if (std::all_of(id.cbegin(), id.cend(), [](char c) { return c == 0; }))
        id[bytes - 1] = 1;
    return QString::fromLatin1(id.toHex());
}

bool isSpanKind(TraceKind kind)
{
    switch (kind) {
    case TraceKind::Turn:
    case TraceKind::Iteration:
    case TraceKind::ModelCall:
    case TraceKind::ToolCall:
    case TraceKind::Reflection: return true;
    case TraceKind::Retry:
    case TraceKind::ShieldCheck:
    case TraceKind::Summary:
    case TraceKind::Handoff:
    case TraceKind::Error:
    case TraceKind::McpServer:
    case TraceKind::Wait:
    case TraceKind::Compaction:
    case TraceKind::Retrieval:
    case TraceKind::McpAuth: return false;
    }
    return false;
}

// A handoff that continued the turn holds the part of the agent handed to: an invoke_agent span of its
// own under the turn's (the conventions' internal agent span), beside the handoff event.
bool isAgentPart(const Trace &trace, const TraceNode &node)
{
    return node.kind == TraceKind::Handoff && trace.isValid(node.parent)
           && trace.node(node.parent).kind == TraceKind::Turn;
}

bool isSpan(const Trace &trace, const TraceNode &node)
{
    return isSpanKind(node.kind) || isAgentPart(trace, node);
}

// An attachment as a part of the conventions' messages: an image as a blob (base64), a file as its text.
QJsonObject attachmentPart(const Attachment &attachment)
{
    if (attachment.isImage()) {
        return {{u"type"_s, u"blob"_s},
                {u"modality"_s, u"image"_s},
                {u"mime_type"_s, attachment.mimeType},
                {u"content"_s, QString::fromLatin1(attachment.bytes.toBase64())}};
    }
    return {{u"type"_s, u"text"_s}, {u"content"_s, AttachmentParts::text(attachment)}};
}

// The messages attribute format of the conventions, as a JSON string.
QString messagesJson(const QString &role, const QString &text, const QString &finishReason = {},
                     const QList<Attachment> &attachments = {})
{
    QJsonArray parts;
    for (const Attachment &attachment : attachments)
        parts.append(attachmentPart(attachment));
    parts.append(QJsonObject{{u"type"_s, u"text"_s}, {u"content"_s, text}});
    QJsonObject message{{u"role"_s, role}, {u"parts"_s, parts}};
    if (!finishReason.isEmpty())
        message.insert(u"finish_reason"_s, finishReason);
    return QString::fromUtf8(QJsonDocument(QJsonArray{message}).toJson(QJsonDocument::Compact));
}

/*
    Walks one trace and writes its spans. Spans come out in pre-order, each
    turn's first; a node's events are the children that are not spans.
*/
class SpanWriter
{
public:
    SpanWriter(const Transcript &transcript, const Trace &trace, const OtlpExportOptions &options)
        : m_transcript(transcript)
        , m_trace(trace)
        , m_options(options)
    {
        m_sessionSeed
            = "loopscope-session\n"_ba
              + (transcript.created.isValid() ? QByteArray::number(transcript.created.toMSecsSinceEpoch())
                                              : "undated"_ba);
        m_conversationId = hexId(sha256(m_sessionSeed + "\nconversation"_ba), 16);
    }

    QJsonArray write()
    {
        const QList<int> &roots = m_trace.roots();
        for (qsizetype index = 0; index < roots.size(); ++index) {
            const TraceNode &turn = m_trace.node(roots.at(index));
            const auto *data = std::get_if<TurnData>(&turn.payload);
            m_traceDigest = sha256(m_sessionSeed + "\nturn\n"_ba + QByteArray::number(index) + '\n'
                                   + QByteArray::number(turn.startedUs) + '\n'
                                   + (data ? data->input.toUtf8() : QByteArray()));
            m_traceId = hexId(m_traceDigest, 16);
            writeSpan(turn.id, {}, u"turn"_s);
        }
        return m_spans;
    }

private:
    QString spanId(const QString &path) const
    {
        return hexId(sha256(m_traceDigest + '\n' + path.toUtf8()), 8);
    }

    // A step still running has no end: it lasts as long as what it started.
    qint64 endOf(int id) const
    {
        const TraceNode &node = m_trace.node(id);
        if (node.endedUs > 0)
            return std::max(node.endedUs, node.startedUs);
        qint64 end = node.startedUs;
        for (int child : node.children)
            end = std::max(end, endOf(child));
        return end;
    }

    // The first recorded error below a node: why a turn failed.
    QString firstErrorMessage(int id) const
    {
        for (int child : m_trace.node(id).children) {
            const TraceNode &node = m_trace.node(child);
            if (const auto *error = std::get_if<ErrorData>(&node.payload))
                return error->message;
            if (const QString message = firstErrorMessage(child); !message.isEmpty())
                return message;
        }
        return {};
    }

    // The files that went with the turn's question, as its first model call sent them.
    static QList<Attachment> questionAttachments(const ModelCallData *call)
    {
        if (!call)
            return {};
        const QList<Message> messages = call->request.whole().messages;
        for (auto it = messages.crbegin(); it != messages.crend(); ++it) {
            if (it->role == Message::Role::User)
                return it->attachments;
        }
        return {};
    }

    // The first call the agent itself made below a node: not a model shield's (whose request holds
    // its prompt, not the question) nor a summary's, which may come first.
    const ModelCallData *firstModelCall(int id) const
    {
        for (int child : m_trace.node(id).children) {
            const TraceKind kind = m_trace.node(child).kind;
            if (kind == TraceKind::ShieldCheck || kind == TraceKind::Compaction)
                continue;
            if (const auto *call = std::get_if<ModelCallData>(&m_trace.node(child).payload))
                return call;
            if (const ModelCallData *call = firstModelCall(child))
                return call;
        }
        return nullptr;
    }

    struct Event
    {
        qint64 timeUs = 0;
        QJsonObject json;
    };

    /*
        Writes a node's span, then its child spans. An event belongs to the
        innermost span whose time covers it: a tool call's span is its
        execution, so the shield check made before it ran moves up to the
        iteration. Returns the events that fit neither, for the parent.
    */
    QList<Event> writeSpan(int id, const QString &parentSpanId, const QString &path)
    {
        const TraceNode &node = m_trace.node(id);
        const QString ownId = spanId(path);
        const qint64 endUs = endOf(id);

        Span span;
        switch (node.kind) {
        case TraceKind::Turn: describeTurn(node, span); break;
        case TraceKind::Handoff: describeAgentPart(node, span); break;
        case TraceKind::Iteration: describeIteration(node, span); break;
        case TraceKind::ModelCall: describeModelCall(node, span); break;
        case TraceKind::ToolCall: describeToolCall(node, span); break;
        default:
            span.name = traceKindName(node.kind); // "reflection"
            if (node.status != TraceStatus::Ok)
                fail(node, span, traceStatusName(node.status), {});
            break;
        }
        // A span is the whole step; the time someone was waited for (an approval, a question) is
        // said apart, so that a reader sees the machine's time as the debugger shows it.
        if (const StepTiming timing = stepTiming(m_trace, id); timing.waitingUs > 0) {
            span.attributes.integer(u"loopscope.working_ms"_s, timing.workingUs() / 1000)
                .integer(u"loopscope.waiting_ms"_s, timing.waitingUs / 1000);
        }

        QList<Event> candidates;
        for (int child : node.children) {
            const TraceNode &childNode = m_trace.node(child);
            if (!isSpan(m_trace, childNode) || isAgentPart(m_trace, childNode))
                candidates.append(event(childNode, node));
        }
        const qsizetype index = m_spans.size();
        m_spans.append(QJsonObject()); // pre-order: the span goes before its children
        QList<std::pair<int, QString>> childSpans;
        collectChildSpans(id, path, childSpans);
        for (const auto &[child, childPath] : std::as_const(childSpans))
            candidates += writeSpan(child, ownId, childPath);

        QList<Event> own;
        QList<Event> escaped;
        for (const Event &candidate : std::as_const(candidates)) {
            const bool fits = candidate.timeUs >= node.startedUs && candidate.timeUs <= endUs;
            (fits || parentSpanId.isEmpty() ? own : escaped).append(candidate);
        }
        std::stable_sort(own.begin(), own.end(),
                         [](const Event &a, const Event &b) { return a.timeUs < b.timeUs; });
        QJsonArray events;
        for (const Event &event : std::as_const(own))
            events.append(event.json);

        QJsonObject json{{u"traceId"_s, m_traceId},
                         {u"spanId"_s, ownId},
                         {u"name"_s, span.name},
                         {u"kind"_s, span.kind},
                         {u"startTimeUnixNano"_s, nanos(node.startedUs)},
                         {u"endTimeUnixNano"_s, nanos(endUs)},
                         {u"attributes"_s, span.attributes.json()}};
        if (!parentSpanId.isEmpty())
            json.insert(u"parentSpanId"_s, parentSpanId);
        if (!events.isEmpty())
            json.insert(u"events"_s, events);
        if (node.status != TraceStatus::Running) {
            QJsonObject status{{u"code"_s, span.failed ? StatusError : StatusOk}};
            if (span.failed && !span.statusMessage.isEmpty())
                status.insert(u"message"_s, span.statusMessage);
            json.insert(u"status"_s, status);
        }
        m_spans.replace(index, json);
        return escaped;
    }

    /*
        The spans below a node: its children that are spans, and those nested
        under its children that are events (a model shield's call under its
        check, a summary's under its compaction), each with its path. Every
        model call is a chat span, under the innermost span above it.
    */
    void collectChildSpans(int id, const QString &path, QList<std::pair<int, QString>> &spans) const
    {
        for (int child : m_trace.node(id).children) {
            const TraceNode &childNode = m_trace.node(child);
            const QString childPath = path + u'/' + QString::number(childNode.row);
            if (isSpan(m_trace, childNode))
                spans.append({child, childPath});
            else
                collectChildSpans(child, childPath, spans);
        }
    }

    struct Span
    {
        QString name;
        int kind = SpanKindInternal;
        Attributes attributes;
        bool failed = false;
        QString statusMessage;
    };

    // Marks a finished span failed, with the error.type the conventions ask for.
    static void fail(const TraceNode &node, Span &span, const QString &errorType, const QString &message)
    {
        if (node.status == TraceStatus::Running)
            return;
        span.failed = true;
        span.statusMessage = message;
        span.attributes.string(u"error.type"_s, errorType.isEmpty() ? u"_OTHER"_s : errorType);
    }

    // The part of the agent a turn was handed to: the agent's own invocation, as a turn's span is.
    void describeAgentPart(const TraceNode &node, Span &span) const
    {
        const HandoffData handoff
            = std::holds_alternative<HandoffData>(node.payload) ? node.data<HandoffData>() : HandoffData{};
        span.name = u"invoke_agent "_s + handoff.target;
        const ModelCallData *call = firstModelCall(node.id);
        span.attributes.string(u"gen_ai.operation.name"_s, u"invoke_agent"_s)
            .string(u"gen_ai.agent.name"_s, handoff.target);
        if (handoff.targetVersion)
            span.attributes.string(u"gen_ai.agent.version"_s, QString::number(*handoff.targetVersion));
        span.attributes.string(u"gen_ai.provider.name"_s, providerName(call ? call->provider : QString()))
            .string(u"gen_ai.request.model"_s, call ? call->model : QString())
            .string(u"gen_ai.conversation.id"_s, m_conversationId)
            .string(u"gen_ai.tool.call.id"_s, handoff.toolCallId)
            .cost(traceCost(m_trace, node.id));
        if (m_options.includeContent)
            span.attributes.string(u"loopscope.handoff.reason"_s, handoff.reason);
        if (node.status != TraceStatus::Ok && node.status != TraceStatus::Limited)
            fail(node, span, traceStatusName(node.status), firstErrorMessage(node.id));
    }

    void describeTurn(const TraceNode &node, Span &span) const
    {
        const TurnData turn
            = std::holds_alternative<TurnData>(node.payload) ? node.data<TurnData>() : TurnData{};
        const QString agent = turn.agentName.isEmpty() ? m_transcript.config.name : turn.agentName;
        span.name = agent.isEmpty() ? u"invoke_agent"_s : u"invoke_agent "_s + agent;

        const ModelCallData *call = firstModelCall(node.id);
        const QString provider
            = call && !call->provider.isEmpty() ? call->provider : m_transcript.providerKind;
        const QString model = call && !call->model.isEmpty() ? call->model : m_transcript.config.model.model;
        span.attributes.string(u"gen_ai.operation.name"_s, u"invoke_agent"_s)
            .string(u"gen_ai.agent.name"_s, agent);
        if (turn.agentVersion)
            span.attributes.string(u"gen_ai.agent.version"_s, QString::number(*turn.agentVersion));
        span.attributes.string(u"gen_ai.provider.name"_s, providerName(provider))
            .string(u"gen_ai.request.model"_s, model)
            .string(u"gen_ai.conversation.id"_s, m_conversationId)
            .usage(turn.usage)
            .cost(traceCost(m_trace, node.id))
            .string(u"loopscope.turn.outcome"_s, turn.outcome);
        if (m_options.includeContent) {
            span.attributes.string(u"gen_ai.input.messages"_s,
                                   messagesJson(u"user"_s, turn.input, {}, questionAttachments(call)));
            if (!turn.output.isEmpty())
                span.attributes.string(u"gen_ai.output.messages"_s,
                                       messagesJson(u"assistant"_s, turn.output, u"stop"_s));
        }
        // A forced final answer is still an answer: the outcome attribute says how it came.
        if (node.status != TraceStatus::Ok && node.status != TraceStatus::Limited) {
            const QString why = firstErrorMessage(node.id);
            fail(node, span, turn.outcome.isEmpty() ? traceStatusName(node.status) : turn.outcome,
                 why.isEmpty() ? turn.outcome : why);
        }
    }

    void describeIteration(const TraceNode &node, Span &span) const
    {
        const IterationData iteration = std::holds_alternative<IterationData>(node.payload)
                                            ? node.data<IterationData>()
                                            : IterationData{};
        span.name = u"iteration "_s + QString::number(iteration.number);
        span.attributes.integer(u"loopscope.iteration.number"_s, iteration.number)
            .integer(u"loopscope.iteration.max"_s, iteration.maxIterations)
            .boolean(u"loopscope.iteration.tools_offered"_s, iteration.toolsOffered)
            .boolean(u"loopscope.iteration.wrap_up_note"_s, iteration.wrapUpNote)
            .cost(traceCost(m_trace, node.id));
        if (node.status != TraceStatus::Ok && node.status != TraceStatus::Limited)
            fail(node, span, traceStatusName(node.status), {});
    }

    void describeModelCall(const TraceNode &node, Span &span) const
    {
        const ModelCallData call = std::holds_alternative<ModelCallData>(node.payload)
                                       ? node.data<ModelCallData>()
                                       : ModelCallData{};
        const QString model = call.model.isEmpty() ? call.request.options().model : call.model;
        const QString provider = call.provider.isEmpty() ? m_transcript.providerKind : call.provider;
        span.name = model.isEmpty() ? u"chat"_s : u"chat "_s + model;
        span.kind = SpanKindClient;

        Attributes &attributes = span.attributes;
        attributes.string(u"gen_ai.operation.name"_s, u"chat"_s)
            .string(u"gen_ai.provider.name"_s, providerName(provider))
            .string(u"gen_ai.request.model"_s, model);
        const ModelOptions &options = call.request.options();
        if (options.temperature)
            attributes.add(u"gen_ai.request.temperature"_s, doubleValue(*options.temperature));
        if (options.topP)
            attributes.add(u"gen_ai.request.top_p"_s, doubleValue(*options.topP));
        if (options.maxOutputTokens)
            attributes.integer(u"gen_ai.request.max_tokens"_s, *options.maxOutputTokens);
        attributes.boolean(u"gen_ai.request.stream"_s, options.stream);
        // The transcript's base URL is only known to be this call's server when the provider matches.
        if (provider == m_transcript.providerKind && !m_transcript.baseUrl.host().isEmpty()) {
            const QUrl &url = m_transcript.baseUrl;
            attributes.string(u"server.address"_s, url.host())
                .integer(u"server.port"_s, url.port(url.scheme() == u"http" ? 80 : 443));
        }
        if (call.attempts.size() > 1)
            attributes.integer(u"loopscope.model_call.attempts"_s, call.attempts.size());
        if (call.editedByInterceptor)
            attributes.boolean(u"loopscope.model_call.edited"_s, true);

        if (node.status == TraceStatus::Ok) {
            attributes.string(u"gen_ai.response.model"_s, call.response.model)
                .usage(call.response.usage)
                .cost(traceCost(m_trace, node.id))
                .add(u"gen_ai.response.finish_reasons"_s,
                     stringArrayValue({finishReasonName(call.response.finishReason)}));
            return;
        }
        QString errorType = traceStatusName(node.status);
        if (node.status == TraceStatus::Error) {
            const int httpStatus = call.attempts.isEmpty() ? 0 : call.attempts.constLast().httpStatus;
            errorType = httpStatus > 0 ? QString::number(httpStatus) : u"_OTHER"_s;
        }
        fail(node, span, errorType, call.error);
    }

    void describeToolCall(const TraceNode &node, Span &span) const
    {
        const ToolCallData tool
            = std::holds_alternative<ToolCallData>(node.payload) ? node.data<ToolCallData>() : ToolCallData{};
        span.name = tool.call.name.isEmpty() ? u"execute_tool"_s : u"execute_tool "_s + tool.call.name;
        span.attributes.string(u"gen_ai.operation.name"_s, u"execute_tool"_s)
            .string(u"gen_ai.tool.name"_s, tool.call.name)
            .string(u"gen_ai.tool.call.id"_s, tool.call.id)
            .string(u"gen_ai.tool.type"_s, u"function"_s)
            .string(u"loopscope.tool.decision"_s, tool.decision);
        if (!tool.originalArguments.isEmpty())
            span.attributes.boolean(u"loopscope.tool.arguments_edited"_s, true);
        const bool failed = node.status != TraceStatus::Ok || tool.isError;
        if (m_options.includeContent) {
            span.attributes.string(u"gen_ai.tool.call.arguments"_s, tool.call.arguments);
            if (!failed && node.status != TraceStatus::Running)
                span.attributes.string(u"gen_ai.tool.call.result"_s, tool.result);
        }
        if (failed) {
            const QString errorType = node.status == TraceStatus::Error || node.status == TraceStatus::Ok
                                          ? u"tool_error"_s
                                          : traceStatusName(node.status);
            fail(node, span, errorType, m_options.includeContent ? tool.result : QString());
        }
    }

    Event event(const TraceNode &node, const TraceNode &parent) const
    {
        QString name;
        qint64 timeUs = node.startedUs;
        Attributes attributes;
        if (const auto *retry = std::get_if<RetryData>(&node.payload)) {
            name = u"loopscope.retry"_s;
            timeUs = node.endedUs > 0 ? node.endedUs : node.startedUs; // the failed attempt's end
            attributes.integer(u"loopscope.retry.attempt"_s, retry->attempt);
            if (retry->httpStatus > 0)
                attributes.integer(u"http.response.status_code"_s, retry->httpStatus);
            attributes
                .string(u"error.type"_s,
                        retry->httpStatus > 0 ? QString::number(retry->httpStatus) : u"_OTHER"_s)
                .integer(u"loopscope.retry.delay_ms"_s, retry->delayMs)
                .string(u"loopscope.retry.reason"_s, retry->reason);
        } else if (const auto *check = std::get_if<ShieldCheckData>(&node.payload)) {
            name = u"loopscope.shield_check"_s;
            attributes.string(u"loopscope.shield.name"_s, check->shield)
                .string(u"loopscope.shield.stage"_s, check->stage)
                .string(u"loopscope.shield.subject"_s, check->subject)
                .boolean(u"loopscope.shield.passed"_s, check->passed);
            // The check may move up to the iteration: it still names its call.
            if (const auto *tool = std::get_if<ToolCallData>(&parent.payload))
                attributes.string(u"gen_ai.tool.call.id"_s, tool->call.id);
            if (!check->passed)
                attributes.string(u"loopscope.shield.reason"_s, check->reason);
        } else if (const auto *handoff = std::get_if<HandoffData>(&node.payload)) {
            name = u"loopscope.handoff"_s;
            attributes.string(u"loopscope.handoff.target"_s, handoff->target)
                .string(u"gen_ai.tool.call.id"_s, handoff->toolCallId);
            if (m_options.includeContent)
                attributes.string(u"loopscope.handoff.reason"_s, handoff->reason);
        } else if (const auto *error = std::get_if<ErrorData>(&node.payload)) {
            name = u"exception"_s;
            attributes.string(u"exception.type"_s, error->code.isEmpty() ? u"_OTHER"_s : error->code)
                .string(u"exception.message"_s, error->message);
        } else if (const auto *wait = std::get_if<WaitData>(&node.payload)) {
            name = u"loopscope.wait"_s;
            attributes.string(u"loopscope.wait.for"_s, wait->waitingFor)
                .string(u"loopscope.wait.decision"_s, wait->decision)
                .integer(u"loopscope.wait.duration_ms"_s, node.durationUs() / 1000);
        } else if (const auto *text = std::get_if<TextData>(&node.payload)) {
            name = u"loopscope."_s + traceKindName(node.kind);
            if (m_options.includeContent)
                attributes.string(u"loopscope.summary.text"_s, text->text);
        } else {
            name = u"loopscope."_s + traceKindName(node.kind);
        }
        return {
            timeUs,
            {{u"timeUnixNano"_s, nanos(timeUs)}, {u"name"_s, name}, {u"attributes"_s, attributes.json()}}};
    }

    const Transcript &m_transcript;
    const Trace &m_trace;
    const OtlpExportOptions &m_options;
    QByteArray m_sessionSeed;
    QString m_conversationId;
    QByteArray m_traceDigest;
    QString m_traceId;
    QJsonArray m_spans;
};

} // namespace

QByteArray exportOtlpJson(const Transcript &transcript, const OtlpExportOptions &options, QString *error)
{
    QString problem;
    std::optional<TraceForest> forest = Trace::readJson(transcript.trace, &problem);
    if (!forest) {
        if (error)
            *error = problem;
        return {};
    }
    // Calls recorded before costs were kept get today's prices.
    fillMissingCosts(*forest, recordedPriceLookup(transcript.providerKind, transcript.baseUrl));
    Trace trace;
    trace.assign(*std::move(forest));

    const QString version
        = options.version.isEmpty() ? QCoreApplication::applicationVersion() : options.version;
    Attributes resource;
    resource.string(u"service.name"_s, ScopeName).string(u"service.version"_s, version);
    QJsonObject scope{{u"name"_s, ScopeName}};
    if (!version.isEmpty())
        scope.insert(u"version"_s, version);

    const QJsonObject scopeSpans{{u"scope"_s, scope},
                                 {u"spans"_s, SpanWriter(transcript, trace, options).write()}};
    const QJsonObject resourceSpans{{u"resource"_s, QJsonObject{{u"attributes"_s, resource.json()}}},
                                    {u"scopeSpans"_s, QJsonArray{scopeSpans}}};
    const QJsonObject root{{u"resourceSpans"_s, QJsonArray{resourceSpans}}};
    if (error)
        error->clear();
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

} // namespace Loopscope
