// The session file (*.loopscope.json). docs/transcript-format.md describes the
// format for people; this file is its only reader and writer.
//
// Loading goes through four gates, cheapest first, so that a hostile file is
// turned away before it costs memory: the size (before reading), the encoding
// (UTF-8, no zero bytes), the structure (a linear scan that bounds nesting and
// the number of values and finds duplicate keys, which QJsonDocument would
// silently collapse) and only then the parse, the version and the fields.

#include "agent/transcript/transcript.h"

#include "agent/trace/domfields.h"
#include "agent/trace/domvalues.h"
#include "agent/trace/jsonfields.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracedomreader.h"
#include "agent/transcript/atomicfile.h"
#include "agent/wire/secretredactor.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <deque>
#include <limits>
#include <string_view>
#include <vector>

using namespace Qt::StringLiterals;

namespace Loopscope {

using Internal::JsonFields;
using Internal::JsonProblem;
using Internal::Need;

int Transcript::turnCount() const
{
    return int(std::count_if(messages.cbegin(), messages.cend(),
                             [](const Message &m) { return m.role == Message::Role::User; }));
}

namespace {

constexpr qint64 MiB = 1024 * 1024;

struct TextPosition
{
    qint64 line = 1;
    qint64 column = 1;
};

// Where a byte offset is for a person: lines from 1, columns in characters from 1.
TextPosition textPosition(QByteArrayView text, qsizetype offset)
{
    TextPosition position;
    offset = std::clamp<qsizetype>(offset, 0, text.size());
    if (offset == 0)
        return position;
    const char *p = text.data();
    const char *const stop = p + offset;
    while (const void *newline = std::memchr(p, '\n', size_t(stop - p))) {
        ++position.line;
        p = static_cast<const char *>(newline) + 1;
    }
    for (; p < stop; ++p) {
        if ((uchar(*p) & 0xC0) != 0x80) // not a UTF-8 continuation byte
            ++position.column;
    }
    return position;
}

QString atPosition(QByteArrayView text, qsizetype offset)
{
    const TextPosition position = textPosition(text, offset);
    return TranscriptFile::tr("line %1, column %2").arg(position.line).arg(position.column);
}

/*
    One linear pass over the bytes with an explicit stack: it bounds nesting
    and the number of values before QJsonDocument builds anything, and finds
    duplicate keys, which QJsonDocument would resolve silently. It trusts
    nothing, but it does not judge the syntax: on anything that is not JSON it
    stops without a verdict and the parser names the problem.
*/
class StructureScan
{
public:
    StructureScan(QByteArrayView json, const QString &rootName)
        : m_json(json)
        , m_rootName(rootName)
    {}

    // A sentence naming the problem, or empty.
    QString run()
    {
        const char *const begin = m_json.data();
        const char *const end = begin + m_json.size();
        qint64 values = 0;
        for (const char *p = begin; p < end;) {
            switch (*p) {
            case ' ':
            case '\t':
            case '\n':
            case '\r':
            case ':': ++p; continue;
            case ',':
                if (m_stack.empty())
                    return {};
                if (m_stack.back().isObject)
                    m_stack.back().expectKey = true;
                else
                    ++m_stack.back().index;
                ++p;
                continue;
            case '"': {
                const char *close = closingQuote(p + 1, end);
                if (!close)
                    return {};
                const QByteArrayView raw(p + 1, close - p - 1);
                p = close + 1;
                if (!m_stack.empty() && m_stack.back().isObject && m_stack.back().expectKey) {
                    m_stack.back().key = raw;
                    m_stack.back().expectKey = false;
                    m_keys.push_back(canonicalKey(raw));
                    continue;
                }
                break;
            }
            case '{':
            case '[':
                if (m_stack.size() >= size_t(TranscriptFile::maxJsonDepth)) {
                    return TranscriptFile::tr("The file nests objects and arrays more than %1 levels deep "
                                              "(at %2).")
                        .arg(TranscriptFile::maxJsonDepth)
                        .arg(atPosition(m_json, p - begin));
                }
                m_stack.push_back(Frame{p - begin, 0, {}, m_keys.size(), *p == '{', *p == '{'});
                ++p;
                break;
            case '}':
            case ']': {
                if (m_stack.empty() || m_stack.back().isObject != (*p == '}'))
                    return {};
                if (m_stack.back().isObject) {
                    if (QString problem = duplicateKey(); !problem.isEmpty())
                        return problem;
                    m_keys.resize(m_stack.back().keysBegin);
                }
                m_stack.pop_back();
                ++p;
                continue;
            }
            default: // a number or a literal: up to the next delimiter
                do {
                    ++p;
                } while (p < end && !isDelimiter(*p));
                break;
            }
            if (++values > TranscriptFile::maxJsonValues) {
                return TranscriptFile::tr("The file holds more than %L1 JSON values, more than any session "
                                          "needs (at %2).")
                    .arg(TranscriptFile::maxJsonValues)
                    .arg(atPosition(m_json, p - begin));
            }
        }
        return {};
    }

private:
    struct Frame
    {
        qsizetype start = 0;  // offset of the bracket
        qsizetype index = 0;  // arrays: the element being read
        QByteArrayView key;   // objects: the member being read, as written
        size_t keysBegin = 0; // objects: where their keys start in m_keys
        bool isObject = false;
        bool expectKey = false; // objects: the next string is a key
    };

    static bool isDelimiter(char c)
    {
        return c == ',' || c == ']' || c == '}' || c == ':' || c == '"' || c == '[' || c == '{' || c == ' '
               || c == '\t' || c == '\n' || c == '\r';
    }

    // The quote that ends a string starting at \a from: one not escaped by an
    // odd run of backslashes. Each run is counted once, so this stays linear.
    static const char *closingQuote(const char *from, const char *end)
    {
        for (const char *p = from; p < end;) {
            const auto *quote = static_cast<const char *>(std::memchr(p, '"', size_t(end - p)));
            if (!quote)
                return nullptr;
            const char *run = quote;
            while (run > from && run[-1] == '\\')
                --run;
            if ((quote - run) % 2 == 0)
                return quote;
            p = quote + 1;
        }
        return nullptr;
    }

    // The same key can be written with escapes ("a" and "\u0061"): compare decoded text.
    QByteArrayView canonicalKey(QByteArrayView raw)
    {
        if (!raw.contains('\\'))
            return raw;
        const QJsonDocument decoded = QJsonDocument::fromJson("[\"" + raw.toByteArray() + "\"]");
        if (!decoded.isArray() || !decoded.array().at(0).isString())
            return raw; // not JSON: the parser will say so
        const QString key = decoded.array().at(0).toString();
        QByteArray utf8 = key.toUtf8();
        // Lone surrogates do not survive UTF-8; keep such keys apart from every valid one.
        if (QString::fromUtf8(utf8) != key)
            utf8 = "\xff" + QByteArray(reinterpret_cast<const char *>(key.utf16()), key.size() * 2);
        m_decodedKeys.push_back(std::move(utf8));
        return m_decodedKeys.back();
    }

    QString duplicateKey()
    {
        const Frame &frame = m_stack.back();
        const auto first = m_keys.begin() + qsizetype(frame.keysBegin);
        if (m_keys.end() - first < 2)
            return {};
        const auto asView = [](QByteArrayView key) {
            return std::string_view(key.data(), size_t(key.size()));
        };
        std::sort(first, m_keys.end(),
                  [&](QByteArrayView a, QByteArrayView b) { return asView(a) < asView(b); });
        const auto twice = std::adjacent_find(
            first, m_keys.end(), [&](QByteArrayView a, QByteArrayView b) { return asView(a) == asView(b); });
        if (twice == m_keys.end())
            return {};
        const QString key = JsonFields::quoted(QString::fromUtf8(*twice));
        const QString where = atPosition(m_json, frame.start);
        if (m_stack.size() == 1 && m_rootName.isEmpty())
            return TranscriptFile::tr("The key %1 appears twice in the top-level object (at %2).")
                .arg(key, where);
        return TranscriptFile::tr("The key %1 appears twice in %2 (at %3).").arg(key, path(), where);
    }

    // The path of the innermost container, e.g. messages[3].toolCalls[0].
    QString path() const
    {
        QString path = m_rootName;
        for (size_t i = 0; i + 1 < m_stack.size(); ++i) {
            const Frame &frame = m_stack[i];
            if (frame.isObject)
                path = JsonFields::member(path, QString::fromUtf8(frame.key));
            else
                path = JsonFields::element(path, frame.index);
        }
        return path;
    }

    QByteArrayView m_json;
    QString m_rootName;
    std::vector<Frame> m_stack;
    std::vector<QByteArrayView> m_keys; // of every open object, innermost last
    std::deque<QByteArray> m_decodedKeys;
};

// Qt 6.4's JSON parser drops U+FEFF written as raw UTF-8 at the start of a
// string, after it has sorted the keys by it: "\uFEFFk" would come back as
// "k", out of order. Escaped as \ufeff it survives, so readers escape every
// raw one before parsing and the writer never writes one.
const QByteArrayView RawByteOrderMark("\xEF\xBB\xBF");
const QByteArrayView EscapedByteOrderMark("\\ufeff");
constexpr qsizetype EscapeGrowth = 3; // bytes

// A copy of \a text with every raw U+FEFF escaped, or nothing when there is none;
// \a positions receives where they were in \a text.
// The next raw U+FEFF at or after \a from, else -1. Its lead byte is rare in
// UTF-8 text, so memchr() for it beats a general substring search many times.
qsizetype findByteOrderMark(QByteArrayView text, qsizetype from)
{
    const char *const begin = text.data();
    const char *const end = begin + text.size();
    for (const char *p = begin + from; p < end; ++p) {
        p = static_cast<const char *>(std::memchr(p, RawByteOrderMark.at(0), size_t(end - p)));
        if (!p)
            return -1;
        if (QByteArrayView(p, end - p).startsWith(RawByteOrderMark))
            return p - begin;
    }
    return -1;
}

QByteArray escapeByteOrderMarks(QByteArrayView text, std::vector<qsizetype> *positions = nullptr)
{
    qsizetype found = findByteOrderMark(text, 0);
    if (found < 0)
        return {};
    QByteArray escaped;
    escaped.reserve(text.size() + 64);
    qsizetype from = 0;
    for (; found >= 0; found = findByteOrderMark(text, from)) {
        if (positions)
            positions->push_back(found);
        escaped.append(text.sliced(from, found - from)).append(EscapedByteOrderMark);
        from = found + RawByteOrderMark.size();
    }
    return escaped.append(text.sliced(from));
}

QString timestampText(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QUrl withoutSecrets(const QUrl &url)
{
    return url.isEmpty() ? QUrl() : SecretRedactor().url(url);
}

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
    config.integer(u"toolTimeoutMs", Need::Optional, 0, 0, IntMax);
    config.integer(u"maxConsecutiveErrors", Need::Optional, 0, 0, IntMax);
    config.integer(u"maxRepeatedCalls", Need::Optional, 0, 0, IntMax);
    config.integer(u"tokenBudget", Need::Optional, 0, 0, std::numeric_limits<qint64>::max());
    config.name(u"postLoop", Need::Optional,
                {postLoopModeName(PostLoopMode::Reflect), postLoopModeName(PostLoopMode::Summary),
                 postLoopModeName(PostLoopMode::None)});
    JsonFields model(config.object(u"model", Need::Optional), config.path(u"model"), problem);
    model.string(u"model", Need::Optional);
    model.boolean(u"stream", Need::Optional);
    model.number(u"temperature", 0.0, 2.0);
    model.integer(u"maxOutputTokens", Need::Optional, 0, 1, IntMax);
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
    return transcript;
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

// The document is taken by value and let go of part by part: a large file's
// JSON takes twice its size in memory, and the trace is checked only once
// everything else is released.
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

// --- the fast path ------------------------------------------------------------
// The sessions Loopscope wrote are read in one simdjson parse, straight into the structs.
// Whatever the checked path might object to makes it give up, without a word: the file is
// then read again the checked way, whose messages stay the only ones a user sees.

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

// A session of format 2 or 3 read from \a bytes in one parse, or nullopt when the checked path
// must. The bytes are let go of once parsed (when the caller handed over the only copy).
std::optional<TranscriptLoadResult> readFast(QByteArray bytes)
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

QString tooLarge(qint64 bytes)
{
    return TranscriptFile::tr("The file is %1 MB; Loopscope opens session files of up to %2 MB.")
        .arg((bytes + MiB - 1) / MiB)
        .arg(TranscriptFile::maxFileBytes / MiB);
}

} // namespace

QByteArray TranscriptFile::serialize(const Transcript &transcript)
{
    QJsonArray messages;
    for (const Message &message : transcript.messages)
        messages.append(message.toJson());
    const QJsonObject provider{
        {u"kind"_s, transcript.providerKind},
        {u"baseUrl"_s, withoutSecrets(transcript.baseUrl).toString(QUrl::FullyEncoded)}};
    const QJsonObject agent{{u"provider"_s, provider},
                            {u"config"_s, transcript.config.toJson()},
                            {u"tools"_s, QJsonArray::fromStringList(transcript.tools)}};
    // QJsonObject keeps its keys sorted: the output is the same for equal transcripts.
    const QJsonObject root{{u"formatVersion"_s, Transcript::formatVersion},
                           {u"title"_s, transcript.title},
                           {u"created"_s, timestampText(transcript.created)},
                           {u"updated"_s, timestampText(transcript.updated)},
                           {u"agent"_s, agent},
                           {u"messages"_s, messages},
                           {u"trace"_s, transcript.trace}};
    QByteArray json = QJsonDocument(root).toJson(QJsonDocument::Indented);
    if (QByteArray escaped = escapeByteOrderMarks(json); !escaped.isEmpty())
        return escaped;
    return json;
}

std::optional<QJsonDocument> TranscriptFile::parseJson(const QByteArray &bytes, QString *error,
                                                       const QString &rootName)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return std::optional<QJsonDocument>();
    };
    if (bytes.size() > maxFileBytes)
        return fail(tooLarge(bytes.size()));

    QByteArrayView text(bytes);
    if (text.startsWith("\xFE\xFF") || text.startsWith("\xFF\xFE")
        || text.startsWith(QByteArrayView("\0\0\xFE\xFF", 4)))
        return fail(tr("The file is UTF-16 or UTF-32 text; session files are UTF-8."));
    const qsizetype bom = text.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    text = text.sliced(bom);
    if (text.trimmed().isEmpty())
        return fail(tr("The file is empty."));
    // ASCII in UTF-16 without a byte order mark: every other byte is zero.
    const auto zeroAt = [text](qsizetype i) {
        return text.at(i) == '\0';
    };
    if (text.size() >= 4 && zeroAt(0) != zeroAt(1) && zeroAt(0) == zeroAt(2) && zeroAt(1) == zeroAt(3))
        return fail(tr("The file is UTF-16 text; session files are UTF-8."));
    // JSON text never holds a zero byte, not even inside a string.
    if (const qsizetype zero = text.indexOf('\0'); zero >= 0)
        return fail(
            tr("The file holds binary data (a zero byte at %1), not JSON text.").arg(atPosition(text, zero)));

    if (const QString problem = StructureScan(text, rootName).run(); !problem.isEmpty())
        return fail(problem);

    // Escaped copies of inner byte order marks, which Qt's parser would drop.
    std::vector<qsizetype> escapedMarks;
    const QByteArray escaped = escapeByteOrderMarks(text, &escapedMarks);
    QJsonParseError parseError;
    QJsonDocument document = QJsonDocument::fromJson(
        escapedMarks.empty() ? QByteArray::fromRawData(text.data(), text.size()) : escaped, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        qsizetype offset = parseError.offset;
        for (qsizetype k = 0; k < qsizetype(escapedMarks.size()); ++k) {
            if (escapedMarks[size_t(k)] + EscapeGrowth * k < parseError.offset)
                offset -= EscapeGrowth;
        }
        qsizetype contentEnd = text.size();
        while (contentEnd > 0 && std::isspace(uchar(text.at(contentEnd - 1))))
            --contentEnd;
        if (offset >= contentEnd)
            return fail(tr("The file ends too early (at %1): it is probably truncated.")
                            .arg(atPosition(text, offset)));
        return fail(tr("The file is not valid JSON: %1 at %2.")
                        .arg(parseError.errorString(), atPosition(text, offset)));
    }
    return document;
}

TranscriptLoadResult TranscriptFile::parse(const QByteArray &bytes, TraceForm form)
{
    if (form == TraceForm::ForestOnly) {
        if (std::optional<TranscriptLoadResult> fast = readFast(bytes))
            return std::move(*fast);
    }
    TranscriptLoadResult result;
    if (auto document = parseJson(bytes, &result.error))
        result = readDocument(std::move(*document));
    if (form == TraceForm::ForestOnly && result.transcript)
        result.transcript->trace = {};
    return result;
}

std::optional<QByteArray> TranscriptFile::readFile(const QString &path, QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return std::optional<QByteArray>();
    };
    if (path.isEmpty())
        return fail(tr("No file was named."));
    const QFileInfo info(path);
    if (!info.exists())
        return fail(tr("The file %1 does not exist.").arg(QDir::toNativeSeparators(path)));
    if (info.isDir())
        return fail(tr("%1 is a folder, not a file.").arg(QDir::toNativeSeparators(path)));
    // A device or a pipe could be endless: read regular files only.
    if (!info.isFile())
        return fail(tr("%1 is not a regular file.").arg(QDir::toNativeSeparators(path)));
    if (info.size() > maxFileBytes)
        return fail(tooLarge(info.size()));

    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(tr("%1 cannot be read: %2.").arg(QDir::toNativeSeparators(path), file.errorString()));
    const qint64 size = file.size();
    if (size > maxFileBytes)
        return fail(tooLarge(size));
    // One byte more than expected, to notice a file that grows while it is read, and room
    // after the end that simdjson reads into, so that the fast path parses the bytes in place.
    constexpr qsizetype Padding = qsizetype(simdjson::SIMDJSON_PADDING);
    QByteArray bytes(size + 1 + Padding, Qt::Uninitialized);
    std::memset(bytes.data() + size, 0, size_t(1 + Padding));
    const qint64 read = file.read(bytes.data(), size + 1);
    if (file.error() != QFileDevice::NoError || read < 0)
        return fail(tr("%1 cannot be read: %2.").arg(QDir::toNativeSeparators(path), file.errorString()));
    if (read != size)
        return fail(tr("%1 changed while it was being read.").arg(QDir::toNativeSeparators(path)));
    bytes.resize(size); // keeps the room after the end
    return bytes;
}

TranscriptLoadResult TranscriptFile::load(const QString &path, TraceForm form)
{
    TranscriptLoadResult result;
    std::optional<QJsonDocument> document;
    if (auto bytes = readFile(path, &result.error)) {
        if (form == TraceForm::ForestOnly) {
            if (std::optional<TranscriptLoadResult> fast = readFast(std::move(*bytes)))
                return std::move(*fast);
            // The checked way reads the file again: the bytes went to the fast reader.
            result = load(path, TraceForm::JsonAndForest);
            if (result.transcript)
                result.transcript->trace = {};
            return result;
        }
        document = parseJson(*bytes, &result.error);
    }
    // The bytes are gone here, before the fields are read.
    if (document)
        return readDocument(std::move(*document));
    return result;
}

bool TranscriptFile::save(const Transcript &transcript, const QString &path, QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    const QByteArray bytes = serialize(transcript);
    if (bytes.size() > maxFileBytes) {
        return fail(tr("The session is %1 MB, more than Loopscope can open again (%2 MB); it was not saved.")
                        .arg((bytes.size() + MiB - 1) / MiB)
                        .arg(maxFileBytes / MiB));
    }
    QString reason;
    if (!writeFileAtomically(path, bytes, &reason))
        return fail(tr("%1 cannot be written: %2.").arg(QDir::toNativeSeparators(path), reason));
    return true;
}

} // namespace Loopscope
