#pragma once

#include "agent/conversation/enumnames.h"
#include "agent/trace/domfields.h"
#include "agent/trace/jsonfields.h"
#include "agent/trace/trace.h"

#include <QHash>

#include <array>
#include <limits>
#include <tuple>
#include <utility>

// What the trace's two readers share (agent/trace/tracejson.cpp reads QJson with a message for
// every problem, tracejsondom.cpp a simdjson DOM, fast and silent): the payload fields by name,
// the request deltas, and TraceReader, which both fill.

namespace Loopscope::Internal {

// Deeper than any trace the loop records (turn > iteration > call > check);
// the limit keeps hostile input from exhausting the stack.
inline constexpr int MaxDepth = 64;

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
inline constexpr EnumName<size_t> PayloadTypeNames[] = {
    {payloadIndex<TurnData>(), u"turn"},
    {payloadIndex<IterationData>(), u"iteration"},
    {payloadIndex<ModelCallData>(), u"model_call"},
    {payloadIndex<RetryData>(), u"retry"},
    {payloadIndex<ToolCallData>(), u"tool_call"},
    {payloadIndex<ShieldCheckData>(), u"shield_check"},
    {payloadIndex<TextData>(), u"text"},
    {payloadIndex<HandoffData>(), u"handoff"},
    {payloadIndex<ErrorData>(), u"error"},
    {payloadIndex<McpServerData>(), u"mcp_server"},
    {payloadIndex<WaitData>(), u"wait"},
    {payloadIndex<CompactionData>(), u"compaction"},
    {payloadIndex<RetrievalData>(), u"retrieval"},
    {payloadIndex<McpAuthData>(), u"mcp_auth"},
};

inline size_t payloadIndexForKind(TraceKind kind)
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
    case TraceKind::McpServer: return payloadIndex<McpServerData>();
    case TraceKind::Wait: return payloadIndex<WaitData>();
    case TraceKind::Compaction: return payloadIndex<CompactionData>();
    case TraceKind::Retrieval: return payloadIndex<RetrievalData>();
    case TraceKind::McpAuth: return payloadIndex<McpAuthData>();
    }
    return 0;
}

inline constexpr QStringView RequestDeltaKey = u"requestDelta";

// Each payload's fields, named once for both directions: the JSON key and the member it holds.
template<typename Payload, typename Value>
struct PayloadField
{
    QStringView key;
    Value Payload::*member;
};

template<typename Payload, typename Value>
constexpr PayloadField<Payload, Value> field(QStringView key, Value Payload::*member)
{
    return {key, member};
}

template<typename Payload>
constexpr auto payloadFieldsOf();

template<>
constexpr auto payloadFieldsOf<TurnData>()
{
    return std::tuple{field(u"agentName", &TurnData::agentName),
                      field(u"agentVersion", &TurnData::agentVersion),
                      field(u"agentDefinition", &TurnData::agentDefinition),
                      field(u"input", &TurnData::input),
                      field(u"output", &TurnData::output),
                      field(u"outcome", &TurnData::outcome),
                      field(u"error", &TurnData::error),
                      field(u"limitReached", &TurnData::limitReached),
                      field(u"contextWarning", &TurnData::contextWarning),
                      field(u"messagesBefore", &TurnData::messagesBefore),
                      field(u"usage", &TurnData::usage)};
}

template<>
constexpr auto payloadFieldsOf<IterationData>()
{
    return std::tuple{field(u"number", &IterationData::number),
                      field(u"maxIterations", &IterationData::maxIterations),
                      field(u"wrapUpNote", &IterationData::wrapUpNote),
                      field(u"toolsOffered", &IterationData::toolsOffered)};
}

template<>
constexpr auto payloadFieldsOf<ModelCallData>()
{
    return std::tuple{field(u"provider", &ModelCallData::provider),
                      field(u"model", &ModelCallData::model),
                      field(u"request", &ModelCallData::request),
                      field(u"originalRequest", &ModelCallData::originalRequest),
                      field(u"response", &ModelCallData::response),
                      field(u"attempts", &ModelCallData::attempts),
                      field(u"error", &ModelCallData::error),
                      field(u"editedByInterceptor", &ModelCallData::editedByInterceptor),
                      field(u"firstTokenUs", &ModelCallData::firstTokenUs),
                      field(u"cost", &ModelCallData::cost),
                      field(u"variants", &ModelCallData::variants)};
}

template<>
constexpr auto payloadFieldsOf<RetryData>()
{
    return std::tuple{field(u"attempt", &RetryData::attempt), field(u"httpStatus", &RetryData::httpStatus),
                      field(u"reason", &RetryData::reason), field(u"delayMs", &RetryData::delayMs)};
}

template<>
constexpr auto payloadFieldsOf<ToolCallData>()
{
    return std::tuple{field(u"call", &ToolCallData::call),
                      field(u"originalArguments", &ToolCallData::originalArguments),
                      field(u"result", &ToolCallData::result),
                      field(u"isError", &ToolCallData::isError),
                      field(u"decision", &ToolCallData::decision),
                      field(u"progress", &ToolCallData::progress),
                      field(u"details", &ToolCallData::details)};
}

template<>
constexpr auto payloadFieldsOf<ShieldCheckData>()
{
    return std::tuple{field(u"shield", &ShieldCheckData::shield), field(u"stage", &ShieldCheckData::stage),
                      field(u"subject", &ShieldCheckData::subject),
                      field(u"passed", &ShieldCheckData::passed), field(u"reason", &ShieldCheckData::reason)};
}

template<>
constexpr auto payloadFieldsOf<TextData>()
{
    return std::tuple{field(u"text", &TextData::text)};
}

template<>
constexpr auto payloadFieldsOf<HandoffData>()
{
    return std::tuple{field(u"target", &HandoffData::target), field(u"reason", &HandoffData::reason),
                      field(u"toolCallId", &HandoffData::toolCallId),
                      field(u"targetVersion", &HandoffData::targetVersion),
                      field(u"targetDefinition", &HandoffData::targetDefinition)};
}

template<>
constexpr auto payloadFieldsOf<ErrorData>()
{
    return std::tuple{field(u"message", &ErrorData::message), field(u"code", &ErrorData::code)};
}

template<>
constexpr auto payloadFieldsOf<McpServerData>()
{
    return std::tuple{field(u"server", &McpServerData::server), field(u"startup", &McpServerData::startup),
                      field(u"error", &McpServerData::error),
                      field(u"stderrTail", &McpServerData::stderrTail)};
}

template<>
constexpr auto payloadFieldsOf<McpAuthData>()
{
    return std::tuple{field(u"server", &McpAuthData::server), field(u"step", &McpAuthData::step),
                      field(u"method", &McpAuthData::method), field(u"url", &McpAuthData::url),
                      field(u"status", &McpAuthData::status), field(u"error", &McpAuthData::error)};
}

template<>
constexpr auto payloadFieldsOf<WaitData>()
{
    return std::tuple{field(u"waitingFor", &WaitData::waitingFor), field(u"decision", &WaitData::decision),
                      field(u"scope", &WaitData::scope), field(u"preview", &WaitData::preview),
                      field(u"argumentsEdited", &WaitData::argumentsEdited)};
}

template<>
constexpr auto payloadFieldsOf<CompactionData>()
{
    return std::tuple{
        field(u"strategy", &CompactionData::strategy), field(u"window", &CompactionData::window),
        field(u"tokensBefore", &CompactionData::tokensBefore),
        field(u"tokensAfter", &CompactionData::tokensAfter), field(u"details", &CompactionData::details)};
}

template<>
constexpr auto payloadFieldsOf<RetrievalData>()
{
    return std::tuple{field(u"query", &RetrievalData::query),
                      field(u"bases", &RetrievalData::bases),
                      field(u"embeddingModel", &RetrievalData::embeddingModel),
                      field(u"topK", &RetrievalData::topK),
                      field(u"hits", &RetrievalData::hits),
                      field(u"embeddingUs", &RetrievalData::embeddingUs),
                      field(u"searchUs", &RetrievalData::searchUs),
                      field(u"error", &RetrievalData::error)};
}

// Reads a payload's fields through the readField() overloads for \a Fields (JsonFields in
// tracejson.cpp, DomFields in tracejsondom.cpp), found where the reader is instantiated.
template<typename Payload, typename Fields>
TracePayload readPayload(Fields &fields)
{
    Payload data;
    std::apply([&](const auto &...field) { (readField(fields, field.key, data.*field.member), ...); },
               payloadFieldsOf<Payload>());
    return data;
}

template<size_t Index, typename Fields>
TracePayload readAlternative(Fields &fields)
{
    using Payload = std::variant_alternative_t<Index, TracePayload>;
    if constexpr (std::is_same_v<Payload, std::monostate>)
        return {};
    else
        return readPayload<Payload>(fields);
}

// The payload at \a index of TracePayload, read from \a fields.
template<typename Fields>
TracePayload readPayload(size_t index, Fields &fields)
{
    static constexpr auto readers = []<size_t... Index>(std::index_sequence<Index...>)
    {
        return std::array{&readAlternative<Index, Fields>...};
    }
    (std::make_index_sequence<std::variant_size_v<TracePayload>>());
    return index < readers.size() ? readers[index](fields) : TracePayload();
}

// A model call's request as written: what it adds to the request of the call before it.
struct RequestDelta
{
    qint64 base = -1; // the earlier call's id in the file
    qint64 keep = 0;  // how many of its messages come first
    ModelRequest added;
    bool hasTools = false; // else the base's tools
};

// The request \a delta stands for, on top of the earlier call's \a base, kept as that delta.
RecordedRequest expandRequestDelta(const RecordedRequest &base, RequestDelta delta);

/*
    Reads the nested JSON into a flat pre-order list. Nothing touches the Trace
    until the whole input has been read, so a malformed file cannot leave half
    a tree behind.
*/
class TraceReader final
{
public:
    struct Parsed
    {
        TraceNode node; // without id/parent/row/children: those come from the ranks
        std::optional<qint64> fileId;
        QJsonObject requestDelta; // a model call's request as a delta, resolved once ids are known
        std::optional<RequestDelta> readDelta; // the same, already read from a simdjson DOM
        QString where;                         // for the delta's errors
        int parent = -1;                       // pre-order index
        QList<int> children;
    };

    QList<Parsed> nodes;
    QList<int> roots;
    QString error;

    bool read(const QJsonArray &json);
    // The same from a simdjson DOM; false, without a message, on anything read() might object to.
    bool read(simdjson::dom::array json);
    // New ids: the rank of each file id, or the pre-order position when the file has none.
    QList<int> newIds() const;
    // Whole requests for the model calls written as deltas, in \a nodes (by new id) once ranked.
    bool resolveRequestDeltas(const QList<int> &ids, std::vector<TraceNode> &byId);

private:
    bool fail(const QString &message);
    std::optional<int> readNode(const QJsonValue &value, const QString &where, int depth, int parent,
                                std::optional<qint64> previousSibling);
    // The nodes in \a json, counted cheaply; wrong on a malformed tree, which is not read to the end.
    static qsizetype domNodeCount(simdjson::dom::array json);
    // readNode() for a node in a simdjson DOM, as strict: any surprise returns nullopt.
    std::optional<int> readDomNode(simdjson::dom::element value, int depth, int parent,
                                   std::optional<qint64> previousSibling);
    static std::optional<RequestDelta> readDomRequestDelta(DomFields &data);
    bool resolve(Parsed &parsed, const QHash<qint64, int> &idOfFileId, std::vector<TraceNode> &byId, int id);
    bool checkIds();
};

// The forest \a reader read, with its ids ranked and its requests whole.
std::optional<TraceForest> assembleForest(TraceReader &reader, QString *error);

} // namespace Loopscope::Internal
