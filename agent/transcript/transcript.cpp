// The session file (*.loopscope.json). docs/transcript-format.md describes the
// format for people; this file is its only reader and writer.
//
// Loading goes through four gates, cheapest first, so that a hostile file is
// turned away before it costs memory: the size (before reading), the encoding
// (UTF-8, no zero bytes), the structure (a linear scan that bounds nesting and
// the number of values and finds duplicate keys, which QJsonDocument would
// silently collapse) and only then the parse, the version and the fields.

#include "agent/transcript/transcript.h"

#include "agent/transcript/atomicfile.h"
#include "agent/transcript/attachmentdata.h"
#include "agent/transcript/transcriptreaders.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>

#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <deque>
#include <vector>

using namespace Qt::StringLiterals;

namespace Loopscope {

using Internal::JsonFields;
using Internal::readDocument;
using Internal::readFast;
using Internal::withoutSecrets;

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

// Qt indents by four spaces a level; a trace nests deep (turn, iteration, model call, its
// response's events), so that was most of a session's bytes: 9.8 KB per iteration of a long tool
// loop where two spaces, as jq writes, make it 6.4 KB. The lines stay the same, for diffs.
QByteArray withTwoSpaceIndent(QByteArray json)
{
    qsizetype write = 0;
    qsizetype read = 0;
    const qsizetype size = json.size();
    char *data = json.data();
    while (read < size) {
        qsizetype spaces = 0;
        while (read + spaces < size && data[read + spaces] == ' ')
            ++spaces;
        read += spaces;
        for (qsizetype i = 0; i < spaces / 2; ++i)
            data[write++] = ' ';
        // The rest of the line as it is (string values hold no raw line break: JSON escapes it).
        while (read < size && data[read] != '\n')
            data[write++] = data[read++];
        if (read < size)
            data[write++] = data[read++];
    }
    json.truncate(write);
    return json;
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
    // Each image once, in "attachmentData"; the history and the recorded requests name it.
    QJsonObject attachmentData;
    QJsonArray trace = transcript.trace;
    if (std::optional<QJsonValue> taken = Internal::AttachmentData::take(messages, attachmentData))
        messages = taken->toArray();
    if (std::optional<QJsonValue> taken = Internal::AttachmentData::take(trace, attachmentData))
        trace = taken->toArray();
    const QJsonObject provider{
        {u"kind"_s, transcript.providerKind},
        {u"baseUrl"_s, withoutSecrets(transcript.baseUrl).toString(QUrl::FullyEncoded)}};
    QJsonObject agent{{u"provider"_s, provider},
                      {u"config"_s, transcript.config.toJson()},
                      {u"tools"_s, QJsonArray::fromStringList(transcript.tools)}};
    // Only when there are some: a session without knowledge bases is written as before.
    if (!transcript.knowledge.isEmpty())
        agent.insert(u"knowledge"_s, QJsonArray::fromStringList(transcript.knowledge));
    if (!transcript.agentName.isEmpty())
        agent.insert(u"preset"_s, transcript.agentName);
    if (transcript.sessionPrompt)
        agent.insert(u"sessionPrompt"_s, *transcript.sessionPrompt);
    // QJsonObject keeps its keys sorted: the output is the same for equal transcripts.
    QJsonObject root{{u"formatVersion"_s, Transcript::formatVersion},
                     {u"title"_s, transcript.title},
                     {u"created"_s, timestampText(transcript.created)},
                     {u"updated"_s, timestampText(transcript.updated)},
                     {u"agent"_s, agent},
                     {u"messages"_s, messages},
                     {u"trace"_s, trace}};
    if (!attachmentData.isEmpty())
        root.insert(u"attachmentData"_s, attachmentData);
    QByteArray json = withTwoSpaceIndent(QJsonDocument(root).toJson(QJsonDocument::Indented));
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
