#include "agent/trace/domvalues.h"

#include "agent/trace/domfields.h"

#include <limits>

using namespace Qt::StringLiterals;

namespace Loopscope::Internal {

namespace {

constexpr qint64 IntMin = std::numeric_limits<int>::min();
constexpr qint64 IntMax = std::numeric_limits<int>::max();
constexpr qint64 Int64Min = std::numeric_limits<qint64>::min();
constexpr qint64 Int64Max = std::numeric_limits<qint64>::max();

// Each element of \a items, an object, read by \a read.
template<typename Value, typename Read>
QList<Value> listFrom(simdjson::dom::array items, Read read, bool &surprised)
{
    QList<Value> values;
    values.reserve(qsizetype(items.size()));
    for (const simdjson::dom::element item : items) {
        simdjson::dom::object object;
        if (item.get_object().get(object) != simdjson::SUCCESS) {
            surprised = true;
            return {};
        }
        values.append(read(object, surprised));
    }
    return values;
}

template<typename Value, typename Read>
QList<Value> listFrom(DomFields &fields, QStringView key, Read read, bool &surprised)
{
    const auto items = fields.array(key, Need::Optional);
    return items ? listFrom<Value>(*items, read, surprised) : QList<Value>();
}

ToolSchema toolSchemaFrom(simdjson::dom::object json, bool &surprised)
{
    DomFields fields(json, surprised);
    ToolSchema tool;
    tool.name = fields.string(u"name", Need::Optional);
    tool.description = fields.string(u"description", Need::Optional);
    tool.parameters = fields.jsonObject(u"parameters");
    return tool;
}

ModelOptions modelOptionsFrom(simdjson::dom::object json, bool &surprised)
{
    DomFields fields(json, surprised);
    ModelOptions options;
    options.model = fields.string(u"model", Need::Optional);
    options.stream = fields.boolean(u"stream", Need::Optional, true);
    if (fields.has(u"temperature"))
        options.temperature = fields.number(u"temperature");
    if (fields.has(u"topP"))
        options.topP = fields.number(u"topP");
    if (fields.has(u"maxOutputTokens"))
        options.maxOutputTokens = int(fields.integer(u"maxOutputTokens", Need::Required, 0, IntMin, IntMax));
    if (fields.has(u"contextWindow"))
        options.contextWindow = fields.integer(u"contextWindow", Need::Required, 0, 1, Int64Max);
    return options;
}

} // namespace

ToolCall toolCallFrom(simdjson::dom::object json, bool &surprised)
{
    DomFields fields(json, surprised);
    ToolCall call;
    call.id = fields.string(u"id", Need::Optional);
    call.name = fields.string(u"name", Need::Optional);
    call.arguments = fields.string(u"arguments", Need::Optional);
    call.providerData = fields.jsonObject(u"providerData");
    return call;
}

TokenUsage tokenUsageFrom(simdjson::dom::object json, bool &surprised)
{
    DomFields fields(json, surprised);
    TokenUsage usage;
    usage.inputTokens = fields.integer(u"input", Need::Optional, 0, Int64Min, Int64Max);
    usage.outputTokens = fields.integer(u"output", Need::Optional, 0, Int64Min, Int64Max);
    usage.cacheReadTokens = fields.integer(u"cacheRead", Need::Optional, 0, Int64Min, Int64Max);
    usage.cacheWriteTokens = fields.integer(u"cacheWrite", Need::Optional, 0, Int64Min, Int64Max);
    return usage;
}

Message messageFrom(simdjson::dom::object json, bool &surprised)
{
    DomFields fields(json, surprised);
    Message message;
    // Message::fromJson() takes an unknown role for a user's: the checked path decides.
    const auto role = roleFromName(fields.string(u"role", Need::Required));
    if (!role)
        fields.fail();
    message.role = role.value_or(Message::Role::User);
    message.text = fields.string(u"text", Need::Optional);
    message.toolCalls = listFrom<ToolCall>(fields, u"toolCalls", toolCallFrom, surprised);
    message.toolCallId = fields.string(u"toolCallId", Need::Optional);
    message.toolName = fields.string(u"toolName", Need::Optional);
    message.isError = fields.boolean(u"isError", Need::Optional);
    // Attachments are read the checked way (Message::fromJson), not here.
    if (fields.has(u"attachments"))
        fields.fail();
    return message;
}

QList<Message> messagesFrom(simdjson::dom::array json, bool &surprised)
{
    return listFrom<Message>(json, messageFrom, surprised);
}

ModelRequest modelRequestFrom(simdjson::dom::object json, bool &surprised)
{
    DomFields fields(json, surprised);
    ModelRequest request;
    if (const auto messages = fields.array(u"messages", Need::Optional))
        request.messages = messagesFrom(*messages, surprised);
    request.tools = listFrom<ToolSchema>(fields, u"tools", toolSchemaFrom, surprised);
    const QString choice = fields.string(u"toolChoice", Need::Optional);
    if (choice == u"none"_s)
        request.toolChoice = ToolChoice::None;
    else if (choice == u"required"_s)
        request.toolChoice = ToolChoice::Required;
    else
        request.toolChoice = ToolChoice::Auto; // as ModelRequest::fromJson() takes any other name
    if (const auto options = fields.object(u"options", Need::Optional))
        request.options = modelOptionsFrom(*options, surprised);
    return request;
}

ModelResponse modelResponseFrom(simdjson::dom::object json, bool &surprised)
{
    DomFields fields(json, surprised);
    ModelResponse response;
    response.text = fields.string(u"text", Need::Optional);
    response.toolCalls = listFrom<ToolCall>(fields, u"toolCalls", toolCallFrom, surprised);
    response.finishReason = finishReasonFromName(fields.string(u"finishReason", Need::Optional));
    response.providerFinishReason = fields.string(u"providerFinishReason", Need::Optional);
    if (const auto usage = fields.object(u"usage", Need::Optional))
        response.usage = tokenUsageFrom(*usage, surprised);
    response.model = fields.string(u"model", Need::Optional);
    response.streamedChunks = int(fields.integer(u"streamedChunks", Need::Optional, 0, IntMin, IntMax));
    response.raw = fields.jsonValue(u"raw");
    return response;
}

ModelAttempt modelAttemptFrom(simdjson::dom::object json, bool &surprised)
{
    DomFields fields(json, surprised);
    ModelAttempt attempt;
    attempt.number = int(fields.integer(u"number", Need::Optional, 1, IntMin, IntMax));
    attempt.startedUs = fields.integer(u"startedUs", Need::Optional, 0, Int64Min, Int64Max);
    attempt.endedUs = fields.integer(u"endedUs", Need::Optional, 0, Int64Min, Int64Max);
    attempt.httpStatus = int(fields.integer(u"httpStatus", Need::Optional, 0, IntMin, IntMax));
    attempt.error = fields.string(u"error", Need::Optional);
    attempt.retryInMs = fields.integer(u"retryInMs", Need::Optional, -1, Int64Min, Int64Max);
    attempt.request = fields.jsonObject(u"request");
    attempt.response = fields.jsonValue(u"response");
    return attempt;
}

} // namespace Loopscope::Internal
