// The fast path of opening a session: the sessions Loopscope wrote are read in one simdjson parse,
// straight into the structs. Whatever the checked path might object to makes it give up, without a
// word: the file is then read again the checked way (transcriptreader.cpp), whose messages stay the
// only ones a user sees.

#include "agent/transcript/transcriptreaders.h"

#include "agent/trace/domfields.h"
#include "agent/trace/domvalues.h"
#include "agent/trace/tracedomreader.h"

#include <QJsonObject>

#include <algorithm>
#include <string_view>
#include <vector>

namespace Loopscope {

using Internal::JsonFields;
using Internal::JsonProblem;
using Internal::Need;
using Internal::readFormat2Header;

namespace {

/*
    What StructureScan bounds, on a parsed DOM: the nesting, the number of
    values and duplicate keys (which the DOM keeps, and the checked path
    refuses). It only says whether all is well.
*/
class DomStructureCheck final
{
public:
    bool passes(simdjson::dom::element root) { return visit(root, 0); }

private:
    bool visit(simdjson::dom::element value, int depth)
    {
        if (++m_values > TranscriptFile::maxJsonValues)
            return false;
        switch (value.type()) {
        case simdjson::dom::element_type::ARRAY:
            if (depth >= TranscriptFile::maxJsonDepth)
                return false;
            for (const simdjson::dom::element item : simdjson::dom::array(value)) {
                if (!visit(item, depth + 1))
                    return false;
            }
            return true;
        case simdjson::dom::element_type::OBJECT: {
            if (depth >= TranscriptFile::maxJsonDepth)
                return false;
            const simdjson::dom::object object(value);
            if (hasDuplicateKey(object))
                return false;
            for (const simdjson::dom::key_value_pair member : object) {
                if (!visit(member.value, depth + 1))
                    return false;
            }
            return true;
        }
        default: return true;
        }
    }

    bool hasDuplicateKey(simdjson::dom::object object)
    {
        m_keys.clear();
        for (const simdjson::dom::key_value_pair member : object)
            m_keys.push_back(member.key);
        // Most objects have a handful of keys: comparing each pair beats sorting them.
        constexpr size_t FewKeys = 16;
        if (m_keys.size() <= FewKeys) {
            for (size_t i = 1; i < m_keys.size(); ++i) {
                if (std::find(m_keys.cbegin(), m_keys.cbegin() + qsizetype(i), m_keys[i])
                    != m_keys.cbegin() + qsizetype(i))
                    return true;
            }
            return false;
        }
        std::sort(m_keys.begin(), m_keys.end());
        return std::adjacent_find(m_keys.cbegin(), m_keys.cend()) != m_keys.cend();
    }

    qint64 m_values = 0;
    std::vector<std::string_view> m_keys; // of the object being checked
};

// readMessage() on the DOM: nullopt where it would object, and where messageFrom() would be surprised.
std::optional<Message> readDomMessage(simdjson::dom::element value)
{
    simdjson::dom::object object;
    if (value.get_object().get(object) != simdjson::SUCCESS)
        return std::nullopt;
    bool surprised = false;
    Internal::DomFields fields(object, surprised);
    const auto role = roleFromName(fields.string(u"role", Need::Required));
    fields.string(u"text", Need::Required);
    if (!role)
        return std::nullopt;
    if (*role == Message::Role::Assistant) {
        if (const auto calls = fields.array(u"toolCalls", Need::Optional)) {
            for (const simdjson::dom::element item : *calls) {
                simdjson::dom::object callObject;
                if (item.get_object().get(callObject) != simdjson::SUCCESS)
                    return std::nullopt;
                Internal::DomFields call(callObject, surprised);
                for (const auto key : {u"id", u"name", u"arguments"})
                    call.string(key, Need::Required);
                call.object(u"providerData", Need::Optional);
            }
        }
    } else if (fields.has(u"toolCalls")) {
        return std::nullopt;
    }
    if (*role == Message::Role::Tool) {
        fields.string(u"toolCallId", Need::Required);
        fields.string(u"toolName", Need::Required);
        fields.boolean(u"isError", Need::Required);
    } else if (fields.has(u"toolCallId") || fields.has(u"toolName") || fields.has(u"isError")) {
        return std::nullopt;
    }
    Message message = Internal::messageFrom(object, surprised);
    if (surprised)
        return std::nullopt;
    return message;
}

} // namespace

// A session of format 2 or 3 read from \a bytes in one parse, or nullopt when the checked path
// must. The bytes are let go of once parsed (when the caller handed over the only copy).
std::optional<TranscriptLoadResult> Internal::readFast(QByteArray bytes)
{
    QByteArrayView text(bytes);
    const qsizetype roomAfterEnd = bytes.capacity() - bytes.size();
    if (text.size() > TranscriptFile::maxFileBytes)
        return std::nullopt;
    if (text.startsWith("\xEF\xBB\xBF"))
        text = text.sliced(3);
    // Zero bytes are UTF-16, UTF-32 or binary data: the checked path says which. It also names
    // an empty file (and simdjson must not be handed one: it copies from a null pointer).
    if (text.isEmpty() || text.startsWith("\xFE\xFF") || text.startsWith("\xFF\xFE") || text.contains('\0'))
        return std::nullopt;

    simdjson::dom::parser parser;
    simdjson::dom::element root;
    simdjson::dom::object top;
    // readFile() leaves the padding simdjson needs; other bytes are copied.
    const bool padded = roomAfterEnd >= qsizetype(simdjson::SIMDJSON_PADDING);
    if (parser.parse(text.data(), size_t(text.size()), !padded).get(root) != simdjson::SUCCESS
        || root.get_object().get(top) != simdjson::SUCCESS || !DomStructureCheck().passes(root))
        return std::nullopt;
    text = {};
    bytes = QByteArray(); // the DOM holds its own copy of every string

    const Internal::DomStringPool strings;
    bool surprised = false;
    Internal::DomFields fields(top, surprised);
    // Format 1 ("version") takes the checked path; so does a newer format, to be named.
    const qint64 version = fields.integer(u"formatVersion", Need::Required, 0, 2, Transcript::formatVersion);
    const auto messages = fields.array(u"messages", Need::Required);
    // Images (each once, in "attachmentData", or inline before format 4) take the checked path.
    if (fields.has(u"attachmentData"))
        return std::nullopt;
    const auto trace = fields.array(u"trace", Need::Required);
    if (surprised)
        return std::nullopt;

    // The rest is small: through the checked reader.
    QJsonObject header;
    for (const simdjson::dom::key_value_pair member : top) {
        if (member.key != "messages" && member.key != "trace")
            header.insert(Internal::toQString(member.key), Internal::toQJsonValue(member.value));
    }
    JsonProblem problem;
    JsonFields headerFields(header, {}, problem);
    Transcript transcript = readFormat2Header(headerFields, problem);
    if (!problem.ok())
        return std::nullopt;
    transcript.messages.reserve(qsizetype(messages->size()));
    for (const simdjson::dom::element value : *messages) {
        std::optional<Message> message = readDomMessage(value);
        if (!message)
            return std::nullopt;
        transcript.messages.append(std::move(*message));
    }
    std::optional<TraceForest> forest = Internal::readTraceDom(*trace);
    if (!forest)
        return std::nullopt;

    TranscriptLoadResult result;
    result.transcript = std::move(transcript);
    result.trace = std::make_shared<TraceForest>(std::move(*forest));
    result.upgradedFrom = version < Transcript::formatVersion ? int(version) : 0;
    return result;
}

} // namespace Loopscope
