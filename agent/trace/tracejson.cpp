// Trace <-> nested JSON. Each node is written as
//   {id, kind, status, label, startedUs, endedUs, data: {...}, children: [...]}
// where "data" holds the payload's fields (absent when the node has none) and
// "id" is the node's id in the trace it came from. Ids record the order in
// which nodes were appended, which pre-order cannot recover once children were
// appended under several parents (parallel tool calls): reading ranks them, so
// a whole trace comes back with its own ids and an exported subtree comes back
// numbered from 0.

#include "agent/trace/trace.h"

#include <QSet>

#include <algorithm>
#include <limits>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// Deeper than any trace the loop records (turn > iteration > call > check);
// the limit keeps hostile input from exhausting the stack.
constexpr int MaxDepth = 64;

template<typename T, typename Variant>
struct VariantIndex;
template<typename T, typename... Ts>
struct VariantIndex<T, std::variant<Ts...>>
{
    static constexpr size_t value = [] {
        size_t index = 0;
        ((std::is_same_v<T, Ts> ? true : (++index, false)) || ...);
        return index;
    }();
};

template<typename T>
constexpr size_t payloadIndex()
{
    return VariantIndex<T, TracePayload>::value;
}

// Names for the "dataType" tag, written only when a payload is not the one its kind implies.
QString payloadTypeName(size_t index)
{
    switch (index) {
    case payloadIndex<TurnData>(): return u"turn"_s;
    case payloadIndex<IterationData>(): return u"iteration"_s;
    case payloadIndex<ModelCallData>(): return u"model_call"_s;
    case payloadIndex<RetryData>(): return u"retry"_s;
    case payloadIndex<ToolCallData>(): return u"tool_call"_s;
    case payloadIndex<ShieldCheckData>(): return u"shield_check"_s;
    case payloadIndex<TextData>(): return u"text"_s;
    case payloadIndex<HandoffData>(): return u"handoff"_s;
    case payloadIndex<ErrorData>(): return u"error"_s;
    }
    return {};
}

std::optional<size_t> payloadIndexFromName(const QString &name)
{
    for (size_t index = 1; index < std::variant_size_v<TracePayload>; ++index) {
        if (payloadTypeName(index) == name)
            return index;
    }
    return std::nullopt;
}

size_t payloadIndexForKind(TraceKind kind)
{
    switch (kind) {
    case TraceKind::Turn: return payloadIndex<TurnData>();
    case TraceKind::Iteration: return payloadIndex<IterationData>();
    case TraceKind::ModelCall: return payloadIndex<ModelCallData>();
    case TraceKind::Retry: return payloadIndex<RetryData>();
    case TraceKind::ToolCall: return payloadIndex<ToolCallData>();
    case TraceKind::ShieldCheck: return payloadIndex<ShieldCheckData>();
    case TraceKind::Reflection:
    case TraceKind::Summary: return payloadIndex<TextData>();
    case TraceKind::Handoff: return payloadIndex<HandoffData>();
    case TraceKind::Error: return payloadIndex<ErrorData>();
    }
    return 0;
}

QJsonObject payloadFields(std::monostate)
{
    return {};
}

QJsonObject payloadFields(const TurnData &data)
{
    return {{u"agentName"_s, data.agentName},
            {u"input"_s, data.input},
            {u"output"_s, data.output},
            {u"outcome"_s, data.outcome},
            {u"usage"_s, data.usage.toJson()}};
}

QJsonObject payloadFields(const IterationData &data)
{
    return {{u"number"_s, data.number},
            {u"maxIterations"_s, data.maxIterations},
            {u"wrapUpNote"_s, data.wrapUpNote},
            {u"toolsOffered"_s, data.toolsOffered}};
}

QJsonObject payloadFields(const ModelCallData &data)
{
    QJsonArray attempts;
    for (const ModelAttempt &attempt : data.attempts)
        attempts.append(attempt.toJson());
    QJsonObject fields{{u"provider"_s, data.provider},
                       {u"model"_s, data.model},
                       {u"request"_s, data.request.toJson()},
                       {u"response"_s, data.response.toJson()},
                       {u"attempts"_s, attempts},
                       {u"error"_s, data.error},
                       {u"editedByInterceptor"_s, data.editedByInterceptor}};
    if (data.originalRequest)
        fields.insert(u"originalRequest"_s, data.originalRequest->toJson());
    return fields;
}

QJsonObject payloadFields(const RetryData &data)
{
    return {{u"attempt"_s, data.attempt},
            {u"httpStatus"_s, data.httpStatus},
            {u"reason"_s, data.reason},
            {u"delayMs"_s, data.delayMs}};
}

QJsonObject payloadFields(const ToolCallData &data)
{
    return {{u"call"_s, data.call.toJson()}, {u"originalArguments"_s, data.originalArguments},
            {u"result"_s, data.result},      {u"isError"_s, data.isError},
            {u"decision"_s, data.decision},  {u"progress"_s, QJsonArray::fromStringList(data.progress)}};
}

QJsonObject payloadFields(const ShieldCheckData &data)
{
    return {{u"shield"_s, data.shield},
            {u"stage"_s, data.stage},
            {u"subject"_s, data.subject},
            {u"passed"_s, data.passed},
            {u"reason"_s, data.reason}};
}

QJsonObject payloadFields(const TextData &data)
{
    return {{u"text"_s, data.text}};
}

QJsonObject payloadFields(const HandoffData &data)
{
    return {{u"target"_s, data.target}, {u"reason"_s, data.reason}, {u"toolCallId"_s, data.toolCallId}};
}

QJsonObject payloadFields(const ErrorData &data)
{
    return {{u"message"_s, data.message}, {u"code"_s, data.code}};
}

/*
    Reads typed fields of one JSON object, remembering the first problem.
    Reads after a failure do nothing, so a parser reads every field and checks
    ok() once. A missing field keeps the caller's default unless it is required.
*/
class FieldReader
{
public:
    FieldReader(const QJsonObject &object, const QString &where, const QString &prefix = {})
        : m_object(object)
        , m_where(where)
        , m_prefix(prefix)
    {}

    bool ok() const { return m_error.isEmpty(); }
    const QString &error() const { return m_error; }
    bool contains(const QString &key) const { return m_object.contains(key); }

    void fail(const QString &message)
    {
        if (ok())
            m_error = message;
    }

    void read(const QString &key, QString &out, bool required = false)
    {
        if (const QJsonValue value = field(key, required); !value.isUndefined()) {
            if (value.isString())
                out = value.toString();
            else
                failType(key, Trace::tr("a string"));
        }
    }

    void read(const QString &key, qint64 &out, bool required = false)
    {
        if (const QJsonValue value = field(key, required); !value.isUndefined()) {
            if (const auto number = integer(value))
                out = *number;
            else
                failType(key, Trace::tr("an integer"));
        }
    }

    void read(const QString &key, int &out, bool required = false)
    {
        if (const QJsonValue value = field(key, required); !value.isUndefined()) {
            const auto number = integer(value);
            if (number && *number >= std::numeric_limits<int>::min()
                && *number <= std::numeric_limits<int>::max())
                out = int(*number);
            else
                failType(key, Trace::tr("a 32-bit integer"));
        }
    }

    void read(const QString &key, bool &out, bool required = false)
    {
        if (const QJsonValue value = field(key, required); !value.isUndefined()) {
            if (value.isBool())
                out = value.toBool();
            else
                failType(key, Trace::tr("true or false"));
        }
    }

    void read(const QString &key, QJsonObject &out, bool required = false)
    {
        if (const QJsonValue value = field(key, required); !value.isUndefined()) {
            if (value.isObject())
                out = value.toObject();
            else
                failType(key, Trace::tr("an object"));
        }
    }

    void read(const QString &key, QJsonArray &out, bool required = false)
    {
        if (const QJsonValue value = field(key, required); !value.isUndefined()) {
            if (value.isArray())
                out = value.toArray();
            else
                failType(key, Trace::tr("an array"));
        }
    }

    void read(const QString &key, QStringList &out, bool required = false)
    {
        QJsonArray array;
        read(key, array, required);
        if (!ok() || !contains(key))
            return;
        QStringList strings;
        for (const QJsonValue &value : std::as_const(array)) {
            if (!value.isString())
                return failType(key, Trace::tr("an array of strings"));
            strings.append(value.toString());
        }
        out = strings;
    }

    // An array whose elements are objects, e.g. a list of attempts.
    void read(const QString &key, QList<QJsonObject> &out, bool required = false)
    {
        QJsonArray array;
        read(key, array, required);
        if (!ok() || !contains(key))
            return;
        QList<QJsonObject> objects;
        for (const QJsonValue &value : std::as_const(array)) {
            if (!value.isObject())
                return failType(key, Trace::tr("an array of objects"));
            objects.append(value.toObject());
        }
        out = objects;
    }

    // QJsonValue::isDouble() is true for 1.5 and 1e300 too: only whole numbers
    // that fit in 64 bits survive toInteger() with two different defaults.
    static std::optional<qint64> integer(const QJsonValue &value)
    {
        if (!value.isDouble())
            return std::nullopt;
        const qint64 number = value.toInteger(0);
        if (number != value.toInteger(1))
            return std::nullopt;
        return number;
    }

private:
    QJsonValue field(const QString &key, bool required)
    {
        if (!ok())
            return QJsonValue(QJsonValue::Undefined);
        const QJsonValue value = m_object.value(key);
        if (value.isUndefined() && required)
            fail(Trace::tr("Trace node %1: the field \"%2\" is missing.").arg(m_where, m_prefix + key));
        return value;
    }

    void failType(const QString &key, const QString &expected)
    {
        fail(Trace::tr("Trace node %1: the field \"%2\" must be %3.").arg(m_where, m_prefix + key, expected));
    }

    QJsonObject m_object;
    QString m_where;
    QString m_prefix;
    QString m_error;
};

template<typename T>
T readPayload(FieldReader &fields);

template<>
TurnData readPayload<TurnData>(FieldReader &fields)
{
    TurnData data;
    QJsonObject usage;
    fields.read(u"agentName"_s, data.agentName);
    fields.read(u"input"_s, data.input);
    fields.read(u"output"_s, data.output);
    fields.read(u"outcome"_s, data.outcome);
    fields.read(u"usage"_s, usage);
    data.usage = TokenUsage::fromJson(usage);
    return data;
}

template<>
IterationData readPayload<IterationData>(FieldReader &fields)
{
    IterationData data;
    fields.read(u"number"_s, data.number);
    fields.read(u"maxIterations"_s, data.maxIterations);
    fields.read(u"wrapUpNote"_s, data.wrapUpNote);
    fields.read(u"toolsOffered"_s, data.toolsOffered);
    return data;
}

template<>
ModelCallData readPayload<ModelCallData>(FieldReader &fields)
{
    ModelCallData data;
    QJsonObject request;
    QJsonObject originalRequest;
    QJsonObject response;
    QList<QJsonObject> attempts;
    fields.read(u"provider"_s, data.provider);
    fields.read(u"model"_s, data.model);
    fields.read(u"request"_s, request);
    fields.read(u"originalRequest"_s, originalRequest);
    fields.read(u"response"_s, response);
    fields.read(u"attempts"_s, attempts);
    fields.read(u"error"_s, data.error);
    fields.read(u"editedByInterceptor"_s, data.editedByInterceptor);
    if (fields.contains(u"request"_s))
        data.request = ModelRequest::fromJson(request);
    if (fields.contains(u"originalRequest"_s))
        data.originalRequest = ModelRequest::fromJson(originalRequest);
    if (fields.contains(u"response"_s))
        data.response = ModelResponse::fromJson(response);
    for (const QJsonObject &attempt : std::as_const(attempts))
        data.attempts.append(ModelAttempt::fromJson(attempt));
    return data;
}

template<>
RetryData readPayload<RetryData>(FieldReader &fields)
{
    RetryData data;
    fields.read(u"attempt"_s, data.attempt);
    fields.read(u"httpStatus"_s, data.httpStatus);
    fields.read(u"reason"_s, data.reason);
    fields.read(u"delayMs"_s, data.delayMs);
    return data;
}

template<>
ToolCallData readPayload<ToolCallData>(FieldReader &fields)
{
    ToolCallData data;
    QJsonObject call;
    fields.read(u"call"_s, call);
    fields.read(u"originalArguments"_s, data.originalArguments);
    fields.read(u"result"_s, data.result);
    fields.read(u"isError"_s, data.isError);
    fields.read(u"decision"_s, data.decision);
    fields.read(u"progress"_s, data.progress);
    data.call = ToolCall::fromJson(call);
    return data;
}

template<>
ShieldCheckData readPayload<ShieldCheckData>(FieldReader &fields)
{
    ShieldCheckData data;
    fields.read(u"shield"_s, data.shield);
    fields.read(u"stage"_s, data.stage);
    fields.read(u"subject"_s, data.subject);
    fields.read(u"passed"_s, data.passed);
    fields.read(u"reason"_s, data.reason);
    return data;
}

template<>
TextData readPayload<TextData>(FieldReader &fields)
{
    TextData data;
    fields.read(u"text"_s, data.text);
    return data;
}

template<>
HandoffData readPayload<HandoffData>(FieldReader &fields)
{
    HandoffData data;
    fields.read(u"target"_s, data.target);
    fields.read(u"reason"_s, data.reason);
    fields.read(u"toolCallId"_s, data.toolCallId);
    return data;
}

template<>
ErrorData readPayload<ErrorData>(FieldReader &fields)
{
    ErrorData data;
    fields.read(u"message"_s, data.message);
    fields.read(u"code"_s, data.code);
    return data;
}

TracePayload readPayload(size_t index, FieldReader &fields)
{
    switch (index) {
    case payloadIndex<TurnData>(): return readPayload<TurnData>(fields);
    case payloadIndex<IterationData>(): return readPayload<IterationData>(fields);
    case payloadIndex<ModelCallData>(): return readPayload<ModelCallData>(fields);
    case payloadIndex<RetryData>(): return readPayload<RetryData>(fields);
    case payloadIndex<ToolCallData>(): return readPayload<ToolCallData>(fields);
    case payloadIndex<ShieldCheckData>(): return readPayload<ShieldCheckData>(fields);
    case payloadIndex<TextData>(): return readPayload<TextData>(fields);
    case payloadIndex<HandoffData>(): return readPayload<HandoffData>(fields);
    case payloadIndex<ErrorData>(): return readPayload<ErrorData>(fields);
    }
    return {};
}

/*
    Reads the nested JSON into a flat pre-order list. Nothing touches the Trace
    until the whole input has been read, so a malformed file cannot leave half
    a tree behind.
*/
class TraceReader
{
public:
    struct Parsed
    {
        TraceNode node; // without id/parent/row/children: those come from the ranks
        std::optional<qint64> fileId;
        int parent = -1; // pre-order index
        QList<int> children;
    };

    QList<Parsed> nodes;
    QList<int> roots;
    QString error;

    bool read(const QJsonArray &json)
    {
        std::optional<qint64> previousRoot;
        for (qsizetype row = 0; row < json.size(); ++row) {
            const auto index = readNode(json.at(row), QString::number(row), 1, -1, previousRoot);
            if (!index)
                return false;
            roots.append(*index);
            previousRoot = nodes.at(*index).fileId;
        }
        return checkIds();
    }

    // New ids: the rank of each file id, or the pre-order position when the file has none.
    QList<int> newIds() const
    {
        QList<int> ids(nodes.size());
        if (nodes.isEmpty() || !nodes.constFirst().fileId) {
            for (int i = 0; i < ids.size(); ++i)
                ids[i] = i;
            return ids;
        }
        QList<int> order(nodes.size());
        for (int i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(),
                  [this](int a, int b) { return *nodes.at(a).fileId < *nodes.at(b).fileId; });
        for (int rank = 0; rank < order.size(); ++rank)
            ids[order.at(rank)] = rank;
        return ids;
    }

private:
    bool fail(const QString &message)
    {
        error = message;
        return false;
    }

    std::optional<int> readNode(const QJsonValue &value, const QString &where, int depth, int parent,
                                std::optional<qint64> previousSibling)
    {
        if (depth > MaxDepth) {
            fail(Trace::tr("Trace node %1: the tree is nested deeper than %2 levels.")
                     .arg(where)
                     .arg(MaxDepth));
            return std::nullopt;
        }
        if (!value.isObject()) {
            fail(Trace::tr("Trace node %1: a node must be a JSON object.").arg(where));
            return std::nullopt;
        }
        const QJsonObject object = value.toObject();
        FieldReader fields(object, where);

        Parsed parsed;
        parsed.parent = parent;
        TraceNode &node = parsed.node;
        QString kindName;
        QString statusName;
        QString dataTypeName;
        QJsonObject data;
        QJsonArray children;
        fields.read(u"kind"_s, kindName, true);
        fields.read(u"status"_s, statusName, true);
        fields.read(u"label"_s, node.label, true);
        fields.read(u"startedUs"_s, node.startedUs, true);
        fields.read(u"endedUs"_s, node.endedUs, true);
        fields.read(u"dataType"_s, dataTypeName);
        fields.read(u"data"_s, data);
        fields.read(u"children"_s, children);
        if (fields.contains(u"id"_s)) {
            qint64 id = -1;
            fields.read(u"id"_s, id);
            if (fields.ok() && id < 0)
                fields.fail(Trace::tr("Trace node %1: the id must not be negative.").arg(where));
            parsed.fileId = id;
        }
        if (!fields.ok()) {
            fail(fields.error());
            return std::nullopt;
        }

        const auto kind = traceKindFromName(kindName);
        if (!kind) {
            fail(Trace::tr("Trace node %1: unknown kind \"%2\".").arg(where, kindName));
            return std::nullopt;
        }
        node.kind = *kind;
        const auto status = traceStatusFromName(statusName);
        if (!status) {
            fail(Trace::tr("Trace node %1: unknown status \"%2\".").arg(where, statusName));
            return std::nullopt;
        }
        node.status = *status;

        if (!nodes.isEmpty() && parsed.fileId.has_value() != nodes.constFirst().fileId.has_value()) {
            fail(Trace::tr("Trace node %1: either every node has an id or none does.").arg(where));
            return std::nullopt;
        }
        // Ids are the order of appends: a parent exists before its children, and
        // siblings are appended in row order.
        if (parsed.fileId) {
            if (parent >= 0 && *parsed.fileId <= *nodes.at(parent).fileId) {
                fail(Trace::tr("Trace node %1: its id must be greater than its parent's.").arg(where));
                return std::nullopt;
            }
            if (previousSibling && *parsed.fileId <= *previousSibling) {
                fail(Trace::tr("Trace node %1: its id must be greater than the previous sibling's.")
                         .arg(where));
                return std::nullopt;
            }
        }

        if (fields.contains(u"data"_s)) {
            size_t payloadType = payloadIndexForKind(node.kind);
            if (fields.contains(u"dataType"_s)) {
                const auto named = payloadIndexFromName(dataTypeName);
                if (!named) {
                    fail(Trace::tr("Trace node %1: unknown data type \"%2\".").arg(where, dataTypeName));
                    return std::nullopt;
                }
                payloadType = *named;
            }
            FieldReader dataFields(data, where, u"data."_s);
            node.payload = readPayload(payloadType, dataFields);
            if (!dataFields.ok()) {
                fail(dataFields.error());
                return std::nullopt;
            }
        }

        const int index = int(nodes.size());
        nodes.append(std::move(parsed));
        std::optional<qint64> previousChild;
        for (qsizetype row = 0; row < children.size(); ++row) {
            const auto child = readNode(children.at(row), where + u'/' + QString::number(row), depth + 1,
                                        index, previousChild);
            if (!child)
                return std::nullopt;
            nodes[index].children.append(*child);
            previousChild = nodes.at(*child).fileId;
        }
        return index;
    }

    bool checkIds()
    {
        if (nodes.isEmpty() || !nodes.constFirst().fileId)
            return true;
        QSet<qint64> seen;
        seen.reserve(nodes.size());
        for (const Parsed &parsed : std::as_const(nodes)) {
            if (seen.contains(*parsed.fileId))
                return fail(Trace::tr("The trace holds the node id %1 twice.").arg(*parsed.fileId));
            seen.insert(*parsed.fileId);
        }
        return true;
    }
};

} // namespace

QJsonObject tracePayloadToJson(const TracePayload &payload)
{
    return std::visit([](const auto &data) { return payloadFields(data); }, payload);
}

QJsonObject Trace::nodeToJson(int id) const
{
    if (!isValid(id))
        return {};
    const TraceNode &node = m_nodes[size_t(id)];
    QJsonObject json{{u"id"_s, node.id},
                     {u"kind"_s, traceKindName(node.kind)},
                     {u"status"_s, traceStatusName(node.status)},
                     {u"label"_s, node.label},
                     {u"startedUs"_s, node.startedUs},
                     {u"endedUs"_s, node.endedUs}};
    // No "data" at all for an empty payload: a default-constructed one is different.
    if (!std::holds_alternative<std::monostate>(node.payload)) {
        json.insert(u"data"_s, tracePayloadToJson(node.payload));
        if (node.payload.index() != payloadIndexForKind(node.kind))
            json.insert(u"dataType"_s, payloadTypeName(node.payload.index()));
    }
    QJsonArray children;
    for (int child : node.children)
        children.append(nodeToJson(child));
    json.insert(u"children"_s, children);
    return json;
}

QJsonArray Trace::toJson() const
{
    QJsonArray json;
    for (int root : m_roots)
        json.append(nodeToJson(root));
    return json;
}

bool Trace::fromJson(const QJsonArray &json, QString *error)
{
    std::optional<TraceForest> forest = readJson(json, error);
    assign(forest ? std::move(*forest) : TraceForest());
    return forest.has_value();
}

std::optional<TraceForest> Trace::readJson(const QJsonArray &json, QString *error)
{
    TraceReader reader;
    const bool ok = reader.read(json);
    if (error)
        *error = ok ? QString() : reader.error;
    if (!ok)
        return std::nullopt;

    TraceForest forest;
    std::vector<TraceNode> &nodes = forest.nodes;
    const QList<int> ids = reader.newIds();
    nodes.resize(size_t(reader.nodes.size()));
    for (qsizetype i = 0; i < reader.nodes.size(); ++i) {
        TraceReader::Parsed &parsed = reader.nodes[i];
        TraceNode &node = nodes[size_t(ids.at(i))];
        node = std::move(parsed.node); // the reader is done with it; its links stay
        node.id = ids.at(i);
        node.parent = parsed.parent < 0 ? -1 : ids.at(parsed.parent);
    }
    // Links in a second pass: a child's slot is only filled once its own turn comes.
    const auto link = [&](const QList<int> &preorderChildren, QList<int> &children) {
        children.reserve(preorderChildren.size());
        for (qsizetype row = 0; row < preorderChildren.size(); ++row) {
            children.append(ids.at(preorderChildren.at(row)));
            nodes[size_t(children.constLast())].row = int(row);
        }
    };
    for (qsizetype i = 0; i < reader.nodes.size(); ++i)
        link(reader.nodes.at(i).children, nodes[size_t(ids.at(i))].children);
    link(reader.roots, forest.roots);
    return forest;
}

void Trace::assign(TraceForest forest)
{
    emit aboutToReset();
    m_nodes = std::move(forest.nodes);
    m_roots = std::move(forest.roots);
    emit reset();
}

} // namespace Loopscope
