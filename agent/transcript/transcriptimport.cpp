#include "agent/transcript/transcriptimport.h"

#include "agent/trace/jsonfields.h"

#include <QHash>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Loopscope {

using Internal::JsonFields;
using Internal::JsonProblem;
using Internal::Need;

namespace {

// Messages are named as in a request body, whose "messages" this array is.
const QString Root = u"messages"_s;

// A string, or an array of {"type": "text", "text": ...} parts, joined by line breaks.
// Null or absent only where \a optional (an assistant message that calls tools).
QString readContent(JsonFields &message, bool optional, JsonProblem &problem)
{
    const QJsonValue content = message.value(u"content", optional ? Need::Optional : Need::Required);
    if (content.isString())
        return content.toString();
    if (content.isUndefined() || (content.isNull() && optional))
        return {};
    const QString path = message.path(u"content");
    if (!content.isArray()) {
        problem.set(
            JsonFields::mustBe(path, TranscriptImport::tr("a string or an array of text parts"), content));
        return {};
    }
    const QJsonArray parts = content.toArray();
    QStringList texts;
    for (qsizetype i = 0; i < parts.size() && problem.ok(); ++i) {
        const QString partPath = JsonFields::element(path, i);
        if (!parts.at(i).isObject()) {
            problem.set(JsonFields::mustBe(partPath, TranscriptImport::tr("an object"), parts.at(i)));
            break;
        }
        JsonFields part(parts.at(i).toObject(), partPath, problem);
        const QString type = part.string(u"type", Need::Required);
        if (problem.ok() && type != u"text"_s) {
            problem.set(TranscriptImport::tr("%1 is of type %2; only text parts can be imported.")
                            .arg(partPath, JsonFields::quoted(type)));
            break;
        }
        texts.append(part.string(u"text", Need::Required));
    }
    return texts.join(u'\n');
}

ToolCall readToolCall(const QJsonValue &value, const QString &path, JsonProblem &problem)
{
    ToolCall call;
    if (!value.isObject()) {
        problem.set(JsonFields::mustBe(path, TranscriptImport::tr("an object"), value));
        return call;
    }
    JsonFields fields(value.toObject(), path, problem);
    call.id = fields.string(u"id", Need::Required);
    if (problem.ok() && call.id.isEmpty())
        problem.set(TranscriptImport::tr("%1 must not be empty.").arg(fields.path(u"id")));
    fields.name(u"type", Need::Optional, {u"function"_s});
    JsonFields function(fields.object(u"function", Need::Required), fields.path(u"function"), problem);
    call.name = function.string(u"name", Need::Required);
    if (problem.ok() && call.name.isEmpty())
        problem.set(TranscriptImport::tr("%1 must not be empty.").arg(function.path(u"name")));
    // The arguments are JSON text; some exporters write the object itself.
    const QJsonValue arguments = function.value(u"arguments", Need::Required);
    if (arguments.isString())
        call.arguments = arguments.toString();
    else if (arguments.isObject())
        call.arguments
            = QString::fromUtf8(QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact));
    else if (problem.ok())
        problem.set(JsonFields::mustBe(function.path(u"arguments"),
                                       TranscriptImport::tr("a string of JSON or an object"), arguments));
    return call;
}

std::optional<Message> readMessage(const QJsonValue &value, const QString &path,
                                   const QHash<QString, QString> &toolNames, JsonProblem &problem)
{
    if (!value.isObject()) {
        problem.set(JsonFields::mustBe(path, TranscriptImport::tr("an object"), value));
        return std::nullopt;
    }
    JsonFields fields(value.toObject(), path, problem);
    const QString role = fields.name(u"role", Need::Required,
                                     {u"system"_s, u"developer"_s, u"user"_s, u"assistant"_s, u"tool"_s});
    if (!problem.ok())
        return std::nullopt;

    Message message;
    if (role == u"assistant"_s) {
        message.role = Message::Role::Assistant;
        const QJsonArray calls = fields.array(u"tool_calls", Need::Optional);
        for (qsizetype i = 0; i < calls.size() && problem.ok(); ++i)
            message.toolCalls.append(
                readToolCall(calls.at(i), JsonFields::element(fields.path(u"tool_calls"), i), problem));
        message.text = readContent(fields, !message.toolCalls.isEmpty(), problem);
    } else {
        fields.forbid(u"tool_calls", TranscriptImport::tr("assistant messages"));
        message.text = readContent(fields, false, problem);
    }
    if (role == u"tool"_s) {
        message.role = Message::Role::Tool;
        message.toolCallId = fields.string(u"tool_call_id", Need::Required);
        // OpenAI pairs results by id only; a "name" is an older habit.
        message.toolName = fields.string(u"name", Need::Optional, toolNames.value(message.toolCallId));
        if (problem.ok() && !toolNames.contains(message.toolCallId)) {
            problem.set(TranscriptImport::tr("%1 %2 answers no earlier tool call.")
                            .arg(fields.path(u"tool_call_id"), JsonFields::quoted(message.toolCallId)));
        }
    } else {
        fields.forbid(u"tool_call_id", TranscriptImport::tr("tool messages"));
        if (role == u"user"_s)
            message.role = Message::Role::User;
        else if (role != u"assistant"_s)
            message.role = Message::Role::System;
    }
    if (!problem.ok())
        return std::nullopt;
    return message;
}

} // namespace

TranscriptLoadResult TranscriptImport::fromOpenAiMessages(const QByteArray &json, const QDateTime &importedAt)
{
    TranscriptLoadResult result;
    const auto document = TranscriptFile::parseJson(json, &result.error, Root);
    if (!document)
        return result;
    if (!document->isArray()) {
        result.error = tr("An OpenAI conversation is a JSON array of messages; this is an object.");
        return result;
    }
    const QJsonArray array = document->array();

    Transcript transcript;
    QStringList systemPrompt;
    QHash<QString, QString> toolNames; // call id -> tool name, of the calls so far
    JsonProblem problem;
    for (qsizetype i = 0; i < array.size() && problem.ok(); ++i) {
        auto message = readMessage(array.at(i), JsonFields::element(Root, i), toolNames, problem);
        if (!message)
            break;
        for (const ToolCall &call : std::as_const(message->toolCalls))
            toolNames.insert(call.id, call.name);
        // The system prompt lives in the configuration; later system messages stay where they are.
        if (message->role == Message::Role::System && transcript.messages.isEmpty())
            systemPrompt.append(message->text);
        else
            transcript.messages.append(std::move(*message));
    }
    if (!problem.ok()) {
        result.error = problem.message();
        return result;
    }
    if (transcript.messages.isEmpty()) {
        result.error = tr("The conversation has no user or assistant messages to import.");
        return result;
    }
    if (QString why; !historyIsWellFormed(transcript.messages, &why)) {
        result.error = tr("The conversation cannot be continued as it is: %1.").arg(why);
        return result;
    }

    transcript.config.systemPrompt = systemPrompt.join(u"\n\n"_s);
    for (const Message &message : std::as_const(transcript.messages)) {
        if (message.role == Message::Role::User) {
            transcript.title = message.text.simplified().left(80);
            break;
        }
    }
    if (transcript.title.isEmpty())
        transcript.title = tr("Imported conversation");
    transcript.created = importedAt.toUTC();
    transcript.updated = transcript.created;
    result.transcript = std::move(transcript);
    return result;
}

TranscriptLoadResult TranscriptImport::loadOpenAiMessages(const QString &path, const QDateTime &importedAt)
{
    TranscriptLoadResult result;
    if (const auto bytes = TranscriptFile::readFile(path, &result.error))
        return fromOpenAiMessages(*bytes, importedAt);
    return result;
}

} // namespace Loopscope
