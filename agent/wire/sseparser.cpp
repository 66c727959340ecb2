#include "agent/wire/sseparser.h"

#include <QStringDecoder>

#include <algorithm>
#include <limits>
#include <utility>

namespace Loopscope {

namespace {

constexpr QByteArrayView utf8Bom("\xEF\xBB\xBF");

// Keeps the line buffer's allocation between lines, unless one huge line blew it up.
constexpr qsizetype maxRetainedCapacity = 64 * 1024;

// QString::fromUtf8() silently drops a leading U+FEFF. Only the stream's first BOM may go (feed()
// handles that); one at the start of a value is data and must survive.
QString decodeUtf8(QByteArrayView bytes)
{
    QStringDecoder decoder(QStringDecoder::Utf8,
                           QStringDecoder::Flag::Stateless | QStringDecoder::Flag::ConvertInitialBom);
    return decoder.decode(bytes);
}

bool isLineEnd(char c)
{
    return c == '\r' || c == '\n';
}

// The spec accepts "only ASCII digits"; an empty value is no number at all, so it is ignored too.
std::optional<int> parseRetry(QByteArrayView value)
{
    if (value.isEmpty())
        return std::nullopt;
    qint64 result = 0;
    for (const char c : value) {
        if (c < '0' || c > '9')
            return std::nullopt;
        // The value is valid however long it is; a delay beyond int range means "wait very long".
        result = std::min<qint64>(result * 10 + (c - '0'), std::numeric_limits<int>::max());
    }
    return int(result);
}

} // namespace

SseParser::SseParser(qsizetype maxEventBytes)
    : m_maxEventBytes(maxEventBytes)
{}

void SseParser::feed(QByteArrayView bytes)
{
    if (hasError() || m_finished || bytes.isEmpty())
        return;

    if (!m_bomChecked) {
        // Only the very first bytes of the stream can be a BOM, and they may arrive one at a time:
        // hold them back in the line buffer until they either complete the BOM or rule it out.
        const qsizetype wanted = std::min(utf8Bom.size() - m_lineBuffer.size(), bytes.size());
        m_lineBuffer.append(bytes.first(wanted));
        bytes = bytes.sliced(wanted);
        if (QByteArrayView(m_lineBuffer) == utf8Bom) {
            m_bomChecked = true;
            resetLineBuffer();
        } else if (utf8Bom.startsWith(m_lineBuffer)) {
            return; // Still undecided; bytes is empty here.
        } else {
            // Not a BOM: the held-back bytes are ordinary stream bytes and may even hold line ends.
            m_bomChecked = true;
            const QByteArray head = std::exchange(m_lineBuffer, {});
            feedLines(head);
        }
    }
    feedLines(bytes);
    if (hasError()) {
        m_lineBuffer = QByteArray();
        m_dataBuffer = QByteArray();
    }
}

void SseParser::feedLines(QByteArrayView bytes)
{
    const char *const begin = bytes.data();
    const char *const end = begin + bytes.size();
    const char *cursor = begin;

    if (m_skipLeadingLf && cursor != end) {
        if (*cursor == '\n')
            ++cursor;
        m_skipLeadingLf = false;
    }

    while (cursor != end && !hasError()) {
        const char *const lineEnd = std::find_if(cursor, end, isLineEnd);
        const qsizetype length = lineEnd - cursor;
        if (m_lineBuffer.size() + length > m_maxEventBytes) {
            failTooLarge();
            return;
        }
        if (lineEnd == end) {
            // Only the unterminated tail is copied; complete lines are parsed in place.
            m_lineBuffer.append(cursor, length);
            return;
        }
        if (m_lineBuffer.isEmpty()) {
            processLine(QByteArrayView(cursor, length));
        } else {
            m_lineBuffer.append(cursor, length);
            processLine(m_lineBuffer);
            resetLineBuffer();
        }
        cursor = lineEnd + 1;
        if (*lineEnd == '\r') {
            if (cursor == end)
                m_skipLeadingLf = true;
            else if (*cursor == '\n')
                ++cursor;
        }
    }
}

void SseParser::processLine(QByteArrayView line)
{
    if (line.isEmpty()) {
        dispatchEvent();
        return;
    }
    if (line.front() == ':')
        return; // A comment, typically a keep-alive.

    m_eventInProgress = true;
    // ':' and ' ' are ASCII and can never occur inside a multi-byte UTF-8 sequence, so splitting the
    // raw bytes gives the same field and value as splitting the decoded line would.
    const qsizetype colon = line.indexOf(':');
    if (colon < 0) {
        processField(line, {});
        return;
    }
    QByteArrayView value = line.sliced(colon + 1);
    if (value.startsWith(' '))
        value = value.sliced(1);
    processField(line.first(colon), value);
}

void SseParser::processField(QByteArrayView name, QByteArrayView value)
{
    if (name == QByteArrayView("data")) {
        if (m_dataBuffer.size() + value.size() + 1 > m_maxEventBytes) {
            failTooLarge();
            return;
        }
        m_dataBuffer.append(value);
        m_dataBuffer.append('\n');
    } else if (name == QByteArrayView("event")) {
        m_eventType = decodeUtf8(value);
    } else if (name == QByteArrayView("id")) {
        // A NUL byte in UTF-8 only ever encodes U+0000, so checking the bytes is enough.
        if (!value.contains('\0'))
            m_lastEventId = decodeUtf8(value);
    } else if (name == QByteArrayView("retry")) {
        if (const std::optional<int> retry = parseRetry(value)) {
            m_eventRetryMs = retry;
            m_lastRetryMs = retry;
        }
    }
    // Any other field is ignored, as the spec requires.
}

void SseParser::dispatchEvent()
{
    m_eventInProgress = false;
    if (!m_dataBuffer.isEmpty()) {
        SseEvent event;
        if (!m_eventType.isEmpty())
            event.type = m_eventType;
        // Decoding the joined lines at once equals decoding each line: the LF separators end any
        // truncated UTF-8 sequence exactly where the line end did.
        event.data = decodeUtf8(QByteArrayView(m_dataBuffer).chopped(1));
        event.id = m_lastEventId;
        event.retryMs = m_eventRetryMs;
        m_events.append(std::move(event));
    }
    // An event without data is dropped, but its type and retry must not leak into the next one.
    m_dataBuffer.resize(0);
    m_eventType.clear();
    m_eventRetryMs.reset();
}

void SseParser::resetLineBuffer()
{
    if (m_lineBuffer.capacity() > maxRetainedCapacity)
        m_lineBuffer = QByteArray();
    else
        m_lineBuffer.resize(0);
}

void SseParser::failTooLarge()
{
    // Buffers are released by feed(): a view into them may still be on the stack here.
    m_errorString = tr("The event stream sent a line or event larger than %1 bytes.").arg(m_maxEventBytes);
}

QList<SseEvent> SseParser::takeEvents()
{
    return std::exchange(m_events, {});
}

void SseParser::finish()
{
    if (m_finished)
        return;
    m_discardedAtFinish = hasPendingData();
    m_finished = true;
    m_lineBuffer = QByteArray();
    m_dataBuffer = QByteArray();
    m_eventType.clear();
    m_eventRetryMs.reset();
}

bool SseParser::hasPendingData() const
{
    if (m_finished)
        return m_discardedAtFinish;
    return !m_lineBuffer.isEmpty() || m_eventInProgress;
}

} // namespace Loopscope
