// The checked reader of the session file: formats 1 to 3 from a parsed document, every field
// checked and every problem named for the user (transcript.cpp has the gates before the parse).

#include "agent/transcript/transcriptreaders.h"

#include "agent/trace/trace.h"
#include "agent/transcript/attachmentdata.h"
#include "agent/wire/secretredactor.h"

#include <QJsonArray>
#include <QJsonObject>

#include <limits>

using namespace Qt::StringLiterals;

namespace Loopscope {

using Internal::JsonFields;
using Internal::JsonProblem;
using Internal::Need;
using Internal::readFormat2Header;
using Internal::withoutSecrets;

namespace {

const QStringList &roleNames()
{
    static const QStringList names{roleName(Message::Role::System), roleName(Message::Role::User),
                                   roleName(Message::Role::Assistant), roleName(Message::Role::Tool)};
    return names;
}
// --- formats 2 and 3 (current) -----------------------------------------------
// Format 3 differs only inside the trace, which Trace reads: a model call's request may be a delta
// of the call before it ("requestDelta"), an attempt's body a reference to that request
// ("bodyFrom"), and a stream that succeeded is kept once, summarised. Format 2 traces, with whole
// requests, bodies and streams, are format 3 traces that use none of this.

void checkToolCall(const QJsonValue &value, const QString &where, JsonProblem &problem)
{
    if (!value.isObject())
        return problem.set(JsonFields::mustBe(where, JsonFields::tr("an object"), value));
    JsonFields call(value.toObject(), where, problem);
    call.string(u"id", Need::Required);
    call.string(u"name", Need::Required);
    call.string(u"arguments", Need::Required);
    call.object(u"providerData", Need::Optional);
}

std::optional<Message> readMessage(const QJsonValue &value, const QString &where, JsonProblem &problem)
{
    if (!value.isObject()) {
        problem.set(JsonFields::mustBe(where, JsonFields::tr("an object"), value));
        return std::nullopt;
    }
    JsonFields fields(value.toObject(), where, problem);
    const auto role = roleFromName(fields.name(u"role", Need::Required, roleNames()));
    fields.string(u"text", Need::Required);
    if (!role)
        return std::nullopt;
    if (*role == Message::Role::Assistant) {
        const QJsonArray calls = fields.array(u"toolCalls", Need::Optional);
        for (qsizetype i = 0; i < calls.size() && problem.ok(); ++i)
            checkToolCall(calls.at(i), JsonFields::element(fields.path(u"toolCalls"), i), problem);
    } else {
        fields.forbid(u"toolCalls", TranscriptFile::tr("assistant messages"));
    }
    if (*role == Message::Role::Tool) {
        fields.string(u"toolCallId", Need::Required);
        fields.string(u"toolName", Need::Required);
        fields.boolean(u"isError", Need::Required);
    } else {
        for (const auto key : {u"toolCallId", u"toolName", u"isError"})
            fields.forbid(key, TranscriptFile::tr("tool messages"));
    }
    if (!problem.ok())
        return std::nullopt;
    return Message::fromJson(fields.object());
}

// Checks every field AgentConfig writes, then lets AgentConfig read them:
// absent ones keep their defaults, as AgentConfig::fromJson promises.
AgentConfig readConfig(const QJsonObject &json, const QString &where, JsonProblem &problem)
{
    constexpr qint64 IntMax = std::numeric_limits<int>::max();
    JsonFields config(json, where, problem);
    for (const auto key : {u"name", u"systemPrompt", u"summaryFormat", u"wrapUpNote", u"finalIterationNote",
                           u"fallbackMessage"})
        config.string(key, Need::Optional);
    config.integer(u"maxIterations", Need::Optional, 0, 1, IntMax);
    config.integer(u"wrapUpIterations", Need::Optional, 0, 0, IntMax);
    config.boolean(u"toolLessFinalIteration", Need::Optional);
    config.integer(u"maxParallelTools", Need::Optional, 0, 1, IntMax);
    config.integer(u"maxToolCallsPerResponse", Need::Optional, 0, 1, AgentConfig::MaxToolCallsLimit);
    config.integer(u"toolTimeoutMs", Need::Optional, 0, 0, IntMax);
    config.integer(u"maxConsecutiveErrors", Need::Optional, 0, 0, IntMax);
    config.integer(u"maxRepeatedCalls", Need::Optional, 0, 0, IntMax);
    config.integer(u"tokenBudget", Need::Optional, 0, 0, std::numeric_limits<qint64>::max());
    config.integer(u"turnTimeLimitMs", Need::Optional, 0, 0, IntMax);
    config.name(u"postLoop", Need::Optional,
                {postLoopModeName(PostLoopMode::Reflect), postLoopModeName(PostLoopMode::Summary),
                 postLoopModeName(PostLoopMode::None)});
    config.integer(u"compactAtPercent", Need::Optional, 0, 1, 100);
    config.name(u"compaction", Need::Optional,
                {compactionStrategyName(CompactionStrategy::Auto),
                 compactionStrategyName(CompactionStrategy::TrimToolResults),
                 compactionStrategyName(CompactionStrategy::Summarise),
                 compactionStrategyName(CompactionStrategy::DropOldest),
                 compactionStrategyName(CompactionStrategy::Off)});
    JsonFields model(config.object(u"model", Need::Optional), config.path(u"model"), problem);
    model.string(u"model", Need::Optional);
    model.boolean(u"stream", Need::Optional);
    model.number(u"temperature", 0.0, 2.0);
    model.number(u"topP", 0.0, 1.0);
    model.integer(u"maxOutputTokens", Need::Optional, 0, 1, IntMax);
    model.integer(u"contextWindow", Need::Optional, 0, 1, std::numeric_limits<qint64>::max());
    return problem.ok() ? AgentConfig::fromJson(json) : AgentConfig();
}

QUrl readBaseUrl(JsonFields &provider)
{
    const QString text = provider.string(u"baseUrl", Need::Required);
    if (text.isEmpty())
        return {};
    const QUrl url(text, QUrl::StrictMode);
    const QString scheme = url.scheme();
    if (!url.isValid() || (scheme != u"http"_s && scheme != u"https"_s) || url.host().isEmpty()) {
        provider.fail(TranscriptFile::tr("%1 must be an http or https URL; it is %2.")
                          .arg(provider.path(u"baseUrl"), JsonFields::quoted(text)));
        return {};
    }
    // A hand-edited file may carry a key: it goes no further than this.
    return withoutSecrets(url);
}

Transcript readFormat2(const QJsonObject &root, JsonProblem &problem)
{
    JsonFields top(root, {}, problem);
    Transcript transcript = readFormat2Header(top, problem);

    const QJsonArray messages = top.array(u"messages", Need::Required);
    transcript.messages.reserve(messages.size());
    for (qsizetype i = 0; i < messages.size() && problem.ok(); ++i) {
        if (auto message
            = readMessage(messages.at(i), JsonFields::element(top.path(u"messages"), i), problem))
            transcript.messages.append(std::move(*message));
    }
    transcript.trace = top.array(u"trace", Need::Required);
    return transcript;
}

// --- format 1 ---------------------------------------------------------------
// The first layout saved the provider and model by name only, the history with
// OpenAI-style keys and one time stamp. It is read straight into a current
// Transcript; what it lacks gets the defaults a new session has.

std::optional<Message> readFormat1Message(const QJsonValue &value, const QString &where, JsonProblem &problem)
{
    if (!value.isObject()) {
        problem.set(JsonFields::mustBe(where, JsonFields::tr("an object"), value));
        return std::nullopt;
    }
    JsonFields fields(value.toObject(), where, problem);
    const auto role = roleFromName(fields.name(u"role", Need::Required, roleNames()));
    Message message;
    // Assistant messages that only call tools have no content ("content": null).
    if (!fields.value(u"content", Need::Optional).isNull())
        message.text = fields.string(u"content", Need::Required);
    if (!role)
        return std::nullopt;
    message.role = *role;
    if (*role == Message::Role::Assistant) {
        const QJsonArray calls = fields.array(u"tool_calls", Need::Optional);
        for (qsizetype i = 0; i < calls.size() && problem.ok(); ++i) {
            const QString path = JsonFields::element(fields.path(u"tool_calls"), i);
            checkToolCall(calls.at(i), path, problem);
            if (problem.ok())
                message.toolCalls.append(ToolCall::fromJson(calls.at(i).toObject()));
        }
    } else {
        fields.forbid(u"tool_calls", TranscriptFile::tr("assistant messages"));
    }
    if (*role == Message::Role::Tool) {
        message.toolCallId = fields.string(u"tool_call_id", Need::Required);
        message.toolName = fields.string(u"name", Need::Optional);
        message.isError = fields.boolean(u"is_error", Need::Optional);
    } else {
        for (const auto key : {u"tool_call_id", u"is_error"})
            fields.forbid(key, TranscriptFile::tr("tool messages"));
    }
    if (!problem.ok())
        return std::nullopt;
    return message;
}

Transcript readFormat1(const QJsonObject &root, JsonProblem &problem)
{
    Transcript transcript;
    JsonFields top(root, {}, problem);
    transcript.title = top.string(u"title", Need::Optional);
    transcript.created = top.timestamp(u"savedAt", Need::Required);
    transcript.updated = transcript.created;
    transcript.providerKind = top.string(u"provider", Need::Optional);
    transcript.config.model.model = top.string(u"model", Need::Optional);
    transcript.config.systemPrompt = top.string(u"systemPrompt", Need::Optional);

    const QJsonArray history = top.array(u"history", Need::Required);
    transcript.messages.reserve(history.size());
    for (qsizetype i = 0; i < history.size() && problem.ok(); ++i) {
        if (auto message
            = readFormat1Message(history.at(i), JsonFields::element(top.path(u"history"), i), problem))
            transcript.messages.append(std::move(*message));
    }
    // Nodes without ids: Trace numbers them in pre-order, as format 1 meant.
    transcript.trace = top.array(u"trace", Need::Required);
    return transcript;
}
} // namespace

namespace Internal {

QUrl withoutSecrets(const QUrl &url)
{
    return url.isEmpty() ? QUrl() : SecretRedactor().url(url);
}
// Everything but the messages and the trace.
Transcript readFormat2Header(JsonFields &top, JsonProblem &problem)
{
    Transcript transcript;
    transcript.title = top.string(u"title", Need::Required);
    transcript.created = top.timestamp(u"created", Need::Required);
    transcript.updated = top.timestamp(u"updated", Need::Required);

    JsonFields agent(top.object(u"agent", Need::Required), top.path(u"agent"), problem);
    JsonFields provider(agent.object(u"provider", Need::Required), agent.path(u"provider"), problem);
    transcript.providerKind = provider.string(u"kind", Need::Required);
    transcript.baseUrl = readBaseUrl(provider);
    transcript.config = readConfig(agent.object(u"config", Need::Required), agent.path(u"config"), problem);
    transcript.tools = agent.strings(u"tools", Need::Required);
    transcript.knowledge = agent.strings(u"knowledge", Need::Optional);
    transcript.agentName = agent.string(u"preset", Need::Optional);
    if (agent.has(u"sessionPrompt"))
        transcript.sessionPrompt = agent.string(u"sessionPrompt", Need::Required);
    return transcript;
}

TranscriptLoadResult readDocument(QJsonDocument document)
{
    TranscriptLoadResult result;
    if (!document.isObject()) {
        result.error = TranscriptFile::tr("The file holds JSON, but not a Loopscope session: a session is a "
                                          "JSON object, this is an array.");
        return result;
    }
    QJsonObject root = document.object();
    document = QJsonDocument();

    // Format 1 called it "version".
    const QString versionKey = root.contains(u"formatVersion"_s) || !root.contains(u"version"_s)
                                   ? u"formatVersion"_s
                                   : u"version"_s;
    if (!root.contains(versionKey)) {
        result.error = TranscriptFile::tr("The file holds JSON, but not a Loopscope session: it has no "
                                          "formatVersion.");
        return result;
    }
    JsonProblem versionProblem;
    const qint64 version = JsonFields(root, {}, versionProblem)
                               .integer(versionKey, Need::Required, 0, 1, std::numeric_limits<qint64>::max());
    if (!versionProblem.ok()) {
        result.error = versionProblem.message();
        return result;
    }
    if (version > Transcript::formatVersion) {
        result.error = TranscriptFile::tr("This session was saved by a newer Loopscope (format %1); this "
                                          "version reads up to format %2.")
                           .arg(version)
                           .arg(Transcript::formatVersion);
        return result;
    }

    // Format 4 keeps each image once, in "attachmentData": back into every attachment that names it.
    if (const QJsonValue table = root.value(u"attachmentData"_s); !table.isUndefined()) {
        if (!table.isObject()) {
            result.error = TranscriptFile::tr("The field \"attachmentData\" must be an object.");
            return result;
        }
        QString missing;
        for (const QString &key : {u"messages"_s, u"trace"_s}) {
            if (std::optional<QJsonValue> restored
                = AttachmentData::restore(root.value(key), table.toObject(), missing))
                root.insert(key, *restored);
        }
        if (!missing.isEmpty()) {
            result.error = TranscriptFile::tr("An image attachment names the data %1, which the file's "
                                              "\"attachmentData\" does not hold.")
                               .arg(missing);
            return result;
        }
        root.remove(u"attachmentData"_s);
    }

    JsonProblem problem;
    Transcript transcript = version == 1 ? readFormat1(root, problem) : readFormat2(root, problem);
    root = QJsonObject(); // the messages' JSON; the trace's stays with the transcript
    // The trace last: it is the largest part, and Trace checks it node by node.
    if (problem.ok()) {
        QString traceError;
        if (std::optional<TraceForest> forest = Trace::readJson(transcript.trace, &traceError))
            result.trace = std::make_shared<TraceForest>(std::move(*forest));
        else
            problem.set(TranscriptFile::tr("The trace is malformed. %1").arg(traceError));
    }
    if (!problem.ok()) {
        result.error = problem.message();
        return result;
    }
    result.transcript = std::move(transcript);
    result.upgradedFrom = version < Transcript::formatVersion ? int(version) : 0;
    return result;
}

} // namespace Internal

} // namespace Loopscope
