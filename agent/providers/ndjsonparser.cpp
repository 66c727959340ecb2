#include "agent/providers/ndjsonparser.h"

#include <QJsonDocument>
#include <QJsonParseError>

#include <cstring>
#include <utility>

namespace Loopscope {

namespace {

// Keeps the line buffer's allocation between lines, unless one huge line blew it up.
constexpr qsizetype maxRetainedCapacity = 64 * 1024;

bool isBlank(QByteArrayView line)
{
    return line.trimmed().isEmpty();
}

} // namespace

NdjsonParser::NdjsonParser(qsizetype maxLineBytes)
    : m_maxLineBytes(maxLineBytes)
{}

void NdjsonParser::feed(QByteArrayView bytes)
{
    const char *const end = bytes.data() + bytes.size();
    const char *cursor = bytes.data();
    while (cursor != end && !hasError() && !m_finished) {
        const auto *const newline = static_cast<const char *>(std::memchr(cursor, '\n', end - cursor));
        const char *const lineEnd = newline ? newline : end;
        const qsizetype length = lineEnd - cursor;
        if (m_lineBuffer.size() + length > m_maxLineBytes) {
            m_errorString = tr("Line %1 of the JSON stream is longer than %2 bytes.")
                                .arg(QString::number(m_lineNumber), QString::number(m_maxLineBytes));
            break;
        }
        if (!newline) {
            // Only the unterminated tail is copied; complete lines are parsed in place.
            m_lineBuffer.append(cursor, length);
            break;
        }
        if (m_lineBuffer.isEmpty()) {
            processLine(QByteArrayView(cursor, length), true);
        } else {
            m_lineBuffer.append(cursor, length);
            processLine(m_lineBuffer, true);
            if (m_lineBuffer.capacity() > maxRetainedCapacity)
                m_lineBuffer = QByteArray();
            else
                m_lineBuffer.resize(0);
        }
        ++m_lineNumber;
        cursor = newline + 1;
    }
    if (hasError())
        m_lineBuffer = QByteArray();
}

void NdjsonParser::processLine(QByteArrayView line, bool terminated)
{
    if (line.endsWith('\r'))
        line.chop(1);
    if (isBlank(line))
        return;

    QJsonParseError parseError;
    // fromRawData avoids copying the line; the parser is done with it before this function returns.
    const QJsonDocument document
        = QJsonDocument::fromJson(QByteArray::fromRawData(line.data(), line.size()), &parseError);
    if (parseError.error != QJsonParseError::NoError && !terminated) {
        // The last line of a stream that broke off; the caller learns of it via hasPendingData().
        m_discardedAtFinish = true;
        return;
    }
    if (parseError.error != QJsonParseError::NoError) {
        m_errorString = tr("Line %1 of the JSON stream is not valid JSON: %2 at offset %3.")
                            .arg(QString::number(m_lineNumber), parseError.errorString(),
                                 QString::number(parseError.offset));
        return;
    }
    if (!document.isObject()) {
        m_errorString = tr("Line %1 of the JSON stream is not a JSON object.").arg(m_lineNumber);
        return;
    }
    m_objects.append(document.object());
}

QList<QJsonObject> NdjsonParser::takeObjects()
{
    return std::exchange(m_objects, {});
}

void NdjsonParser::finish()
{
    if (m_finished || hasError())
        return;
    m_finished = true;
    // A final line that is complete JSON was merely missing its newline.
    processLine(m_lineBuffer, false);
    m_lineBuffer = QByteArray();
}

bool NdjsonParser::hasPendingData() const
{
    if (m_finished)
        return m_discardedAtFinish;
    return !isBlank(m_lineBuffer);
}

} // namespace Loopscope
