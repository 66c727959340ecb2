// The fast half of reading a trace: the same nested JSON as tracejson.cpp reads, from a simdjson
// DOM, as strict but without a message: any surprise returns nullopt and the session loader reads
// the file again with the checked reader, which names the problem.

#include "agent/trace/domvalues.h"
#include "agent/trace/tracedomreader.h"
#include "agent/trace/tracereader.h"

#include <limits>

namespace Loopscope::Internal {

// The same fields read from a simdjson DOM, for the fast path of loading a session: as strict as
// the overloads above, and a surprise (DomFields::ok() false) sends the loader down the checked path.
void readField(DomFields &fields, QStringView key, QString &value)
{
    value = fields.string(key, Need::Optional, value);
}

void readField(DomFields &fields, QStringView key, bool &value)
{
    value = fields.boolean(key, Need::Optional, value);
}

void readField(DomFields &fields, QStringView key, int &value)
{
    value = int(fields.integer(key, Need::Optional, value, std::numeric_limits<int>::min(),
                               std::numeric_limits<int>::max()));
}

void readField(DomFields &fields, QStringView key, qint64 &value)
{
    value = fields.integer(key, Need::Optional, value, std::numeric_limits<qint64>::min(),
                           std::numeric_limits<qint64>::max());
}

void readField(DomFields &fields, QStringView key, std::optional<qint64> &value)
{
    if (fields.has(key))
        value = fields.integer(key, Need::Required, 0, std::numeric_limits<qint64>::min(),
                               std::numeric_limits<qint64>::max());
}

void readField(DomFields &fields, QStringView key, QJsonObject &value)
{
    if (fields.has(key))
        value = fields.jsonObject(key);
}

void readField(DomFields &fields, QStringView key, QStringList &value)
{
    if (fields.has(key))
        value = fields.strings(key);
}

// The values many nodes hold are read straight from the DOM; the rare ones through their fromJson().
template<typename Value>
Value valueFrom(simdjson::dom::object json, bool &surprised)
{
    if constexpr (std::is_same_v<Value, ToolCall>)
        return toolCallFrom(json, surprised);
    else if constexpr (std::is_same_v<Value, TokenUsage>)
        return tokenUsageFrom(json, surprised);
    else if constexpr (std::is_same_v<Value, ModelRequest>)
        return modelRequestFrom(json, surprised);
    else if constexpr (std::is_same_v<Value, ModelResponse>)
        return modelResponseFrom(json, surprised);
    else if constexpr (std::is_same_v<Value, ModelAttempt>)
        return modelAttemptFrom(json, surprised);
    else
        return Value::fromJson(toQJsonObject(json));
}

template<typename Value>
requires requires(const QJsonObject &json)
{
    Value::fromJson(json);
}
void readField(DomFields &fields, QStringView key, Value &value)
{
    if (const auto json = fields.object(key, Need::Optional))
        value = valueFrom<Value>(*json, fields.surprised());
}

template<typename Value>
void readField(DomFields &fields, QStringView key, std::optional<Value> &value)
{
    if (const auto json = fields.object(key, Need::Optional))
        value = valueFrom<Value>(*json, fields.surprised());
}

template<typename Value>
void readField(DomFields &fields, QStringView key, QList<Value> &values)
{
    const auto array = fields.array(key, Need::Optional);
    if (!array)
        return;
    for (const simdjson::dom::element item : *array) {
        simdjson::dom::object json;
        if (item.get_object().get(json) != simdjson::SUCCESS)
            return fields.fail();
        values.append(valueFrom<Value>(json, fields.surprised()));
    }
}

bool TraceReader::read(simdjson::dom::array json)
{
    // Growing the list would copy every node read so far, payload and all.
    nodes.reserve(domNodeCount(json));
    std::optional<qint64> previousRoot;
    for (const simdjson::dom::element root : json) {
        const auto index = readDomNode(root, 1, -1, previousRoot);
        if (!index)
            return false;
        roots.append(*index);
        previousRoot = nodes.at(*index).fileId;
    }
    return checkIds();
}

qsizetype TraceReader::domNodeCount(simdjson::dom::array json)
{
    qsizetype count = 0;
    for (const simdjson::dom::element node : json) {
        ++count;
        simdjson::dom::array children;
        if (node["children"].get(children) == simdjson::SUCCESS)
            count += domNodeCount(children);
    }
    return count;
}

std::optional<int> TraceReader::readDomNode(simdjson::dom::element value, int depth, int parent,
                                            std::optional<qint64> previousSibling)
{
    simdjson::dom::object object;
    if (depth > MaxDepth || value.get_object().get(object) != simdjson::SUCCESS)
        return std::nullopt;
    bool surprised = false;
    DomFields fields(object, surprised);
    Parsed parsed;
    parsed.parent = parent;
    TraceNode &node = parsed.node;
    constexpr qint64 Min = std::numeric_limits<qint64>::min();
    constexpr qint64 Max = std::numeric_limits<qint64>::max();
    const auto kind = traceKindFromName(fields.string(u"kind", Need::Required));
    const auto status = traceStatusFromName(fields.string(u"status", Need::Required));
    node.label = fields.string(u"label", Need::Required);
    node.startedUs = fields.integer(u"startedUs", Need::Required, node.startedUs, Min, Max);
    node.endedUs = fields.integer(u"endedUs", Need::Required, node.endedUs, Min, Max);
    const auto data = fields.object(u"data", Need::Optional);
    const auto children = fields.array(u"children", Need::Optional);
    if (fields.has(u"id"))
        parsed.fileId = fields.integer(u"id", Need::Required, -1, 0, Max);
    if (!fields.ok() || !kind || !status)
        return std::nullopt;
    node.kind = *kind;
    node.status = *status;
    if (!nodes.isEmpty() && parsed.fileId.has_value() != nodes.constFirst().fileId.has_value())
        return std::nullopt;
    if (parsed.fileId
        && ((parent >= 0 && *parsed.fileId <= *nodes.at(parent).fileId)
            || (previousSibling && *parsed.fileId <= *previousSibling)))
        return std::nullopt;

    if (data) {
        size_t payloadType = payloadIndexForKind(node.kind);
        if (fields.has(u"dataType")) {
            const auto named = valueNamed(PayloadTypeNames, fields.string(u"dataType", Need::Required));
            if (!named)
                return std::nullopt;
            payloadType = *named;
        }
        DomFields dataFields(*data, surprised);
        node.payload = readPayload(payloadType, dataFields);
        if (std::holds_alternative<ModelCallData>(node.payload) && dataFields.has(RequestDeltaKey))
            parsed.readDelta = readDomRequestDelta(dataFields);
        if (!dataFields.ok())
            return std::nullopt;
    } else if (fields.has(u"dataType")) {
        fields.string(u"dataType", Need::Required); // read() checks its type even without data
    }

    const int index = int(nodes.size());
    nodes.append(std::move(parsed));
    if (!fields.ok())
        return std::nullopt;
    std::optional<qint64> previousChild;
    if (children) {
        for (const simdjson::dom::element childValue : *children) {
            const auto child = readDomNode(childValue, depth + 1, index, previousChild);
            if (!child)
                return std::nullopt;
            nodes[index].children.append(*child);
            previousChild = nodes.at(*child).fileId;
        }
    }
    return index;
}

std::optional<RequestDelta> TraceReader::readDomRequestDelta(DomFields &data)
{
    const auto json = data.object(RequestDeltaKey, Need::Required);
    if (!json || json->size() == 0) { // the checked path ignores an empty delta: let it decide
        data.fail();
        return std::nullopt;
    }
    DomFields fields(*json, data.surprised());
    RequestDelta delta;
    delta.base = fields.integer(u"base", Need::Required, -1, 0, std::numeric_limits<qint64>::max());
    delta.keep = fields.integer(u"keep", Need::Required, 0, 0, std::numeric_limits<int>::max());
    fields.array(u"messages", Need::Required);
    delta.added = modelRequestFrom(*json, data.surprised());
    delta.hasTools = fields.has(u"tools");
    return delta;
}

std::optional<TraceForest> readTraceDom(simdjson::dom::array json)
{
    TraceReader reader;
    if (!reader.read(json))
        return std::nullopt;
    return assembleForest(reader, nullptr);
}

} // namespace Loopscope::Internal
