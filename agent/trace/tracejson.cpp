// Trace <-> nested JSON. Each node is written as
//   {id, kind, status, label, startedUs, endedUs, data: {...}, children: [...]}
// where "data" holds the payload's fields (absent when the node has none) and
// "id" is the node's id in the trace it came from. Ids record the order in
// which nodes were appended, which pre-order cannot recover once children were
// appended under several parents (parallel tool calls): reading ranks them, so
// a whole trace comes back with its own ids and an exported subtree comes back
// numbered from 0.
//
// A model call resends the whole history, so its request is written as a delta
// of the model call before it in the same subtree, in its turn or the turn before,
// when that one's messages begin its own: "requestDelta": {base, keep, messages, toolChoice, options,
// tools?} instead of "request", where base is the earlier call's id, keep how
// many of its messages come first, messages the ones added after them, and
// tools absent when they are the base's. Reading rebuilds the whole request.
//
// This file writes the JSON and reads it back the checked way, naming every problem;
// tracejsondom.cpp reads the same from a simdjson DOM, the fast way of opening a session.

#include "agent/trace/tracereader.h"

#include <QSet>

#include <algorithm>
#include <limits>
#include <utility>

using namespace Qt::StringLiterals;

namespace Loopscope {

using Internal::JsonFields;
using Internal::Need;
using Internal::payloadFieldsOf;
using Internal::payloadIndexForKind;
using Internal::PayloadTypeNames;
using Internal::RequestDeltaKey;

namespace {

/*
    Trace files name a bad value by its node and field ("Trace node 0/1: the
    field \"data.input\" must be a string."): a node has no path of keys.
*/
class TraceNodeWording final : public Internal::JsonWording
{
public:
    explicit TraceNodeWording(const QString &node)
        : m_node(node)
    {}

    QString missing(const QString &path) const override
    {
        return Trace::tr("Trace node %1: the field \"%2\" is missing.").arg(m_node, path);
    }
    QString wrongType(const QString &path, const QString &expected, const QJsonValue &) const override
    {
        return Trace::tr("Trace node %1: the field \"%2\" must be %3.").arg(m_node, path, expected);
    }
    QString wholeNumber(qint64 min, qint64 max) const override
    {
        return min == std::numeric_limits<int>::min() && max == std::numeric_limits<int>::max()
                   ? Trace::tr("a 32-bit integer")
                   : Trace::tr("an integer");
    }
    QString notInRange(const QString &path, qint64 min, qint64 max, const QJsonValue &actual) const override
    {
        return wrongType(path, wholeNumber(min, max), actual);
    }
    QString wrongElement(const QString &path, qsizetype, const QString &, const QString &array,
                         const QJsonValue &actual) const override
    {
        return wrongType(path, array, actual);
    }

private:
    QString m_node;
};

// Field values to JSON and back. Plain values are read as they are; values
// with their own JSON form are read as an object, and keep their default when
// the field is absent.
template<typename Value>
void writeField(QJsonObject &json, QStringView key, const Value &value)
{
    json.insert(key, value);
}

// Objects are written only when they hold something, so older traces and readers see no new keys.
void writeField(QJsonObject &json, QStringView key, const QJsonObject &value)
{
    if (!value.isEmpty())
        json.insert(key, value);
}

void writeField(QJsonObject &json, QStringView key, const QStringList &value)
{
    json.insert(key, QJsonArray::fromStringList(value));
}

template<typename Value>
requires requires(const Value &value)
{
    value.toJson();
}
void writeField(QJsonObject &json, QStringView key, const Value &value)
{
    json.insert(key, value.toJson());
}

template<typename Value>
void writeField(QJsonObject &json, QStringView key, const std::optional<Value> &value)
{
    if (value)
        writeField(json, key, *value);
}

void writeField(QJsonObject &json, QStringView key, const QList<ModelAttempt> &attempts)
{
    QJsonArray array;
    for (const ModelAttempt &attempt : attempts)
        array.append(attempt.toJson());
    json.insert(key, array);
}

void writeField(QJsonObject &json, QStringView key, const QList<RetrievalHit> &hits)
{
    QJsonArray array;
    for (const RetrievalHit &hit : hits)
        array.append(hit.toJson());
    json.insert(key, array);
}

// Written only when there are some, so traces without re-runs stay as they were.
void writeField(QJsonObject &json, QStringView key, const QList<ModelCallVariant> &variants)
{
    if (variants.isEmpty())
        return;
    QJsonArray array;
    for (const ModelCallVariant &variant : variants)
        array.append(variant.toJson());
    json.insert(key, array);
}

QJsonObject payloadFields(std::monostate)
{
    return {};
}

template<typename Payload>
QJsonObject payloadFields(const Payload &data)
{
    QJsonObject json;
    std::apply([&](const auto &...field) { (writeField(json, field.key, data.*field.member), ...); },
               payloadFieldsOf<Payload>());
    return json;
}

// For each model call of the subtree under \a top (all roots when -1), the model call written
// just before it whose messages begin its own: its request is written as a delta of that one's.
// The base may lie in an earlier turn: a conversation resends its whole history with each turn's
// first call too, and writing that whole would make a long session's file grow with its square.
QHash<int, int> requestDeltaBases(const Trace &trace, int top)
{
    std::vector<int> calls;
    std::vector<int> pending
        = top < 0 ? std::vector<int>(trace.roots().cbegin(), trace.roots().cend()) : std::vector<int>{top};
    while (!pending.empty()) {
        const int id = pending.back();
        pending.pop_back();
        const TraceNode &node = trace.node(id);
        if (std::holds_alternative<ModelCallData>(node.payload))
            calls.push_back(id);
        pending.insert(pending.end(), node.children.cbegin(), node.children.cend());
    }
    std::sort(calls.begin(), calls.end()); // ids are the order the calls were made
    QHash<int, int> bases;
    for (size_t i = 1; i < calls.size(); ++i) {
        const RecordedRequest &before = trace.node(calls[i - 1]).data<ModelCallData>().request;
        const RecordedRequest &now = trace.node(calls[i]).data<ModelCallData>().request;
        if (before.messageCount() == 0 || before.messageCount() > now.messageCount())
            continue;
        // The agent recorded it as a delta of that call already; else compare them whole.
        if (now.isDeltaOf(before)) {
            bases.insert(calls[i], calls[i - 1]);
            continue;
        }
        const QList<Message> beforeMessages = before.whole().messages;
        const QList<Message> nowMessages = now.whole().messages;
        if (std::equal(beforeMessages.cbegin(), beforeMessages.cend(), nowMessages.cbegin()))
            bases.insert(calls[i], calls[i - 1]);
    }
    return bases;
}

QJsonObject requestDelta(const RecordedRequest &request, const TraceNode &base)
{
    const RecordedRequest &from = base.data<ModelCallData>().request;
    // What the request kept of its base, which may be less than the whole of it.
    const qsizetype keep = request.isDeltaOf(from) ? request.keptMessages() : from.messageCount();
    const QList<Message> messages
        = request.isDeltaOf(from) ? request.addedMessages() : request.whole().messages.sliced(keep);
    QJsonArray added;
    for (const Message &message : messages)
        added.append(message.toJson());
    QJsonObject json{{u"base"_s, base.id},
                     {u"keep"_s, keep},
                     {u"messages"_s, added},
                     {u"toolChoice"_s, toolChoiceName(request.toolChoice())},
                     {u"options"_s, request.options().toJson()}};
    if (request.tools() != from.tools()) {
        QJsonArray tools;
        for (const ToolSchema &tool : request.tools())
            tools.append(tool.toJson());
        json.insert(u"tools"_s, tools);
    }
    return json;
}

} // namespace

namespace Internal {

// A field's value read from the checked reader's JSON, found by TraceReader's readPayload().
void readField(JsonFields &fields, QStringView key, QString &value)
{
    value = fields.string(key, Need::Optional, value);
}

void readField(JsonFields &fields, QStringView key, bool &value)
{
    value = fields.boolean(key, Need::Optional, value);
}

void readField(JsonFields &fields, QStringView key, int &value)
{
    value = int(fields.integer(key, Need::Optional, value, std::numeric_limits<int>::min(),
                               std::numeric_limits<int>::max()));
}

void readField(JsonFields &fields, QStringView key, qint64 &value)
{
    value = fields.integer(key, Need::Optional, value, std::numeric_limits<qint64>::min(),
                           std::numeric_limits<qint64>::max());
}

// An optional time is read only when present, so older traces keep it unset.
void readField(JsonFields &fields, QStringView key, std::optional<qint64> &value)
{
    if (fields.has(key))
        value = fields.integer(key, Need::Optional, 0, std::numeric_limits<qint64>::min(),
                               std::numeric_limits<qint64>::max());
}

void readField(JsonFields &fields, QStringView key, QJsonObject &value)
{
    if (fields.has(key))
        value = fields.object(key, Need::Optional);
}

void readField(JsonFields &fields, QStringView key, QStringList &value)
{
    if (fields.has(key))
        value = fields.strings(key, Need::Optional);
}

template<typename Value>
requires requires(const QJsonObject &json)
{
    Value::fromJson(json);
}
void readField(JsonFields &fields, QStringView key, Value &value)
{
    const QJsonObject json = fields.object(key, Need::Optional);
    if (fields.has(key))
        value = Value::fromJson(json);
}

template<typename Value>
void readField(JsonFields &fields, QStringView key, std::optional<Value> &value)
{
    const QJsonObject json = fields.object(key, Need::Optional);
    if (fields.has(key))
        value = Value::fromJson(json);
}

void readField(JsonFields &fields, QStringView key, QList<ModelAttempt> &attempts)
{
    const QList<QJsonObject> objects = fields.objects(key, Need::Optional);
    for (const QJsonObject &attempt : objects)
        attempts.append(ModelAttempt::fromJson(attempt));
}

void readField(JsonFields &fields, QStringView key, QList<ModelCallVariant> &variants)
{
    const QList<QJsonObject> objects = fields.objects(key, Need::Optional);
    for (const QJsonObject &variant : objects)
        variants.append(ModelCallVariant::fromJson(variant));
}

void readField(JsonFields &fields, QStringView key, QList<RetrievalHit> &hits)
{
    const QList<QJsonObject> objects = fields.objects(key, Need::Optional);
    for (const QJsonObject &hit : objects)
        hits.append(RetrievalHit::fromJson(hit));
}

RecordedRequest expandRequestDelta(const RecordedRequest &base, RequestDelta delta)
{
    if (!delta.hasTools)
        delta.added.tools = base.tools();
    // Kept as a delta in memory too: the base's messages are not copied.
    return RecordedRequest::delta(base, delta.keep, std::move(delta.added));
}

bool TraceReader::read(const QJsonArray &json)
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

QList<int> TraceReader::newIds() const
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

bool TraceReader::fail(const QString &message)
{
    error = message;
    return false;
}

std::optional<int> TraceReader::readNode(const QJsonValue &value, const QString &where, int depth, int parent,
                                         std::optional<qint64> previousSibling)
{
    if (depth > MaxDepth) {
        fail(Trace::tr("Trace node %1: the tree is nested deeper than %2 levels.").arg(where).arg(MaxDepth));
        return std::nullopt;
    }
    if (!value.isObject()) {
        fail(Trace::tr("Trace node %1: a node must be a JSON object.").arg(where));
        return std::nullopt;
    }
    Internal::JsonProblem problem;
    const TraceNodeWording wording(where);
    JsonFields fields(value.toObject(), {}, problem, &wording);

    Parsed parsed;
    parsed.parent = parent;
    TraceNode &node = parsed.node;
    constexpr qint64 Min = std::numeric_limits<qint64>::min();
    constexpr qint64 Max = std::numeric_limits<qint64>::max();
    const QString kindName = fields.string(u"kind", Need::Required);
    const QString statusName = fields.string(u"status", Need::Required);
    node.label = fields.string(u"label", Need::Required);
    node.startedUs = fields.integer(u"startedUs", Need::Required, node.startedUs, Min, Max);
    node.endedUs = fields.integer(u"endedUs", Need::Required, node.endedUs, Min, Max);
    const QString dataTypeName = fields.string(u"dataType", Need::Optional);
    const QJsonObject data = fields.object(u"data", Need::Optional);
    const QJsonArray children = fields.array(u"children", Need::Optional);
    if (fields.has(u"id")) {
        const qint64 id = fields.integer(u"id", Need::Optional, -1, Min, Max);
        if (fields.ok() && id < 0)
            fields.fail(Trace::tr("Trace node %1: the id must not be negative.").arg(where));
        parsed.fileId = id;
    }
    if (!fields.ok()) {
        fail(problem.message());
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
            fail(Trace::tr("Trace node %1: its id must be greater than the previous sibling's.").arg(where));
            return std::nullopt;
        }
    }

    if (fields.has(u"data")) {
        size_t payloadType = payloadIndexForKind(node.kind);
        if (fields.has(u"dataType")) {
            const auto named = valueNamed(PayloadTypeNames, dataTypeName);
            if (!named) {
                fail(Trace::tr("Trace node %1: unknown data type \"%2\".").arg(where, dataTypeName));
                return std::nullopt;
            }
            payloadType = *named;
        }
        JsonFields dataFields(data, u"data"_s, problem, &wording);
        node.payload = readPayload(payloadType, dataFields);
        if (std::holds_alternative<ModelCallData>(node.payload) && dataFields.has(RequestDeltaKey)) {
            parsed.requestDelta = dataFields.object(RequestDeltaKey, Need::Optional);
            parsed.where = where;
        }
        if (!dataFields.ok()) {
            fail(problem.message());
            return std::nullopt;
        }
    }

    const int index = int(nodes.size());
    nodes.append(std::move(parsed));
    std::optional<qint64> previousChild;
    for (qsizetype row = 0; row < children.size(); ++row) {
        const auto child = readNode(children.at(row), where + u'/' + QString::number(row), depth + 1, index,
                                    previousChild);
        if (!child)
            return std::nullopt;
        nodes[index].children.append(*child);
        previousChild = nodes.at(*child).fileId;
    }
    return index;
}

bool TraceReader::resolveRequestDeltas(const QList<int> &ids, std::vector<TraceNode> &byId)
{
    QHash<qint64, int> idOfFileId;
    std::vector<Parsed *> deltas(byId.size(), nullptr);
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        if (nodes.at(i).fileId)
            idOfFileId.insert(*nodes.at(i).fileId, ids.at(i));
        if (!nodes.at(i).requestDelta.isEmpty() || nodes.at(i).readDelta)
            deltas[size_t(ids.at(i))] = &nodes[i];
    }
    // In id order, so a delta's base (an earlier call) is whole by the time it is read.
    for (size_t id = 0; id < deltas.size(); ++id) {
        if (!deltas[id])
            continue;
        if (!resolve(*deltas[id], idOfFileId, byId, int(id)))
            return false;
    }
    return true;
}

bool TraceReader::resolve(Parsed &parsed, const QHash<qint64, int> &idOfFileId, std::vector<TraceNode> &byId,
                          int id)
{
    RequestDelta delta;
    if (parsed.readDelta) {
        delta = std::move(*parsed.readDelta);
    } else {
        Internal::JsonProblem problem;
        const TraceNodeWording wording(parsed.where);
        JsonFields fields(parsed.requestDelta, u"data.requestDelta"_s, problem, &wording);
        delta.base = fields.integer(u"base", Need::Required, -1, 0, std::numeric_limits<qint64>::max());
        delta.keep = fields.integer(u"keep", Need::Required, 0, 0, std::numeric_limits<int>::max());
        fields.array(u"messages", Need::Required);
        if (!fields.ok())
            return fail(problem.message());
        delta.added = ModelRequest::fromJson(parsed.requestDelta);
        delta.hasTools = parsed.requestDelta.contains(u"tools"_s);
    }
    const qint64 baseFileId = delta.base;
    const qint64 keep = delta.keep;
    const int base = idOfFileId.value(baseFileId, -1);
    const auto *from
        = base >= 0 && base < id ? std::get_if<ModelCallData>(&byId[size_t(base)].payload) : nullptr;
    if (!from)
        return fail(Trace::tr("Trace node %1: the request's base %2 is not an earlier model call.")
                        .arg(parsed.where)
                        .arg(baseFileId));
    if (keep > from->request.messageCount())
        return fail(Trace::tr("Trace node %1: the request keeps %2 messages of a base that has %3.")
                        .arg(parsed.where)
                        .arg(keep)
                        .arg(from->request.messageCount()));
    std::get<ModelCallData>(byId[size_t(id)].payload).request
        = expandRequestDelta(from->request, std::move(delta));
    return true;
}

bool TraceReader::checkIds()
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

// The forest \a reader read, with its ids ranked and its requests whole.
std::optional<TraceForest> assembleForest(TraceReader &reader, QString *error)
{
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
    if (!reader.resolveRequestDeltas(ids, nodes)) {
        if (error)
            *error = reader.error;
        return std::nullopt;
    }
    return forest;
}

} // namespace Internal

std::optional<TokenTiming> tokenTiming(qint64 requestStartedUs, std::optional<qint64> firstTokenUs,
                                       qint64 endedUs, qint64 outputTokens)
{
    if (!firstTokenUs || *firstTokenUs < requestStartedUs)
        return std::nullopt;
    TokenTiming timing;
    timing.timeToFirstTokenUs = *firstTokenUs - requestStartedUs;
    if (endedUs > *firstTokenUs && outputTokens > 0)
        timing.tokensPerSecond = double(outputTokens) * 1e6 / double(endedUs - *firstTokenUs);
    return timing;
}

std::optional<TokenTiming> tokenTiming(const TraceNode &modelCall)
{
    const auto *call = std::get_if<ModelCallData>(&modelCall.payload);
    if (!call)
        return std::nullopt;
    // Retries are not the model's slowness: count from the attempt that streamed.
    qint64 startedUs = modelCall.startedUs;
    for (const ModelAttempt &attempt : call->attempts) {
        if (call->firstTokenUs && attempt.startedUs <= *call->firstTokenUs)
            startedUs = std::max(startedUs, attempt.startedUs);
    }
    return tokenTiming(startedUs, call->firstTokenUs, modelCall.endedUs, call->response.usage.outputTokens);
}

QJsonObject tracePayloadToJson(const TracePayload &payload)
{
    return std::visit([](const auto &data) { return payloadFields(data); }, payload);
}

QJsonObject Trace::nodeToJson(int id, const QHash<int, int> &bases) const
{
    const TraceNode &node = m_nodes[size_t(id)];
    QJsonObject json{{u"id"_s, node.id},
                     {u"kind"_s, traceKindName(node.kind)},
                     {u"status"_s, traceStatusName(node.status)},
                     {u"label"_s, node.label},
                     {u"startedUs"_s, node.startedUs},
                     {u"endedUs"_s, node.endedUs}};
    // No "data" at all for an empty payload: a default-constructed one is different.
    if (!std::holds_alternative<std::monostate>(node.payload)) {
        const int base = bases.value(id, -1);
        QJsonObject data;
        if (base >= 0) {
            // Not written whole only to be removed: that would encode the history once per call.
            ModelCallData call = node.data<ModelCallData>();
            call.request = {};
            data = tracePayloadToJson(call);
            data.remove(u"request"_s);
            data.insert(RequestDeltaKey,
                        requestDelta(node.data<ModelCallData>().request, m_nodes[size_t(base)]));
        } else {
            data = tracePayloadToJson(node.payload);
        }
        json.insert(u"data"_s, data);
        if (node.payload.index() != payloadIndexForKind(node.kind))
            json.insert(u"dataType"_s, nameOf(PayloadTypeNames, node.payload.index()));
    }
    QJsonArray children;
    for (int child : node.children)
        children.append(nodeToJson(child, bases));
    json.insert(u"children"_s, children);
    return json;
}

QJsonObject Trace::nodeToJson(int id) const
{
    return isValid(id) ? nodeToJson(id, requestDeltaBases(*this, id)) : QJsonObject();
}

QJsonArray Trace::toJson() const
{
    const QHash<int, int> bases = requestDeltaBases(*this, -1);
    QJsonArray json;
    for (int root : m_roots)
        json.append(nodeToJson(root, bases));
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
    Internal::TraceReader reader;
    const bool ok = reader.read(json);
    if (error)
        *error = ok ? QString() : reader.error;
    if (!ok)
        return std::nullopt;
    return Internal::assembleForest(reader, error);
}

void Trace::assign(TraceForest forest)
{
    emit aboutToReset();
    m_nodes = std::move(forest.nodes);
    m_roots = std::move(forest.roots);
    emit reset();
}

} // namespace Loopscope
