#include "agent/providers/jsontextwriter.h"

namespace Loopscope {

// Before a value: the comma after the one before it, and the key inside an object.
void JsonTextWriter::separate(QStringView key)
{
    if (!m_emptyScopes.isEmpty()) {
        if (!m_emptyScopes.constLast())
            m_text += ',';
        m_emptyScopes.last() = false;
    }
    if (!key.isNull()) {
        writeString(key);
        m_text += ':';
    }
}

JsonTextWriter &JsonTextWriter::beginObject(QStringView key)
{
    separate(key);
    m_text += '{';
    m_emptyScopes.append(true);
    return *this;
}

JsonTextWriter &JsonTextWriter::endObject()
{
    m_emptyScopes.removeLast();
    m_text += '}';
    return *this;
}

JsonTextWriter &JsonTextWriter::beginArray(QStringView key)
{
    separate(key);
    m_text += '[';
    m_emptyScopes.append(true);
    return *this;
}

JsonTextWriter &JsonTextWriter::endArray()
{
    m_emptyScopes.removeLast();
    m_text += ']';
    return *this;
}

JsonTextWriter &JsonTextWriter::string(QStringView key, QStringView value)
{
    separate(key);
    writeString(value);
    return *this;
}

JsonTextWriter &JsonTextWriter::null(QStringView key)
{
    separate(key);
    m_text += "null";
    return *this;
}

JsonTextWriter &JsonTextWriter::asciiString(QStringView key, std::initializer_list<QByteArrayView> pieces)
{
    separate(key);
    qsizetype size = 2;
    for (const QByteArrayView piece : pieces)
        size += piece.size();
    m_text.reserve(m_text.size() + size);
    m_text += '"';
    for (const QByteArrayView piece : pieces)
        m_text += piece;
    m_text += '"';
    return *this;
}

// RFC 8259: the quote, the backslash and control characters are escaped; the rest is UTF-8.
void JsonTextWriter::writeString(QStringView text)
{
    const QByteArray utf8 = text.toUtf8();
    m_text.reserve(m_text.size() + utf8.size() + 2);
    m_text += '"';
    qsizetype plainFrom = 0;
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        const uchar c = uchar(utf8.at(i));
        if (c >= 0x20 && c != '"' && c != '\\')
            continue;
        m_text.append(utf8.constData() + plainFrom, i - plainFrom);
        plainFrom = i + 1;
        switch (c) {
        case '"': m_text += "\\\""; break;
        case '\\': m_text += "\\\\"; break;
        case '\b': m_text += "\\b"; break;
        case '\f': m_text += "\\f"; break;
        case '\n': m_text += "\\n"; break;
        case '\r': m_text += "\\r"; break;
        case '\t': m_text += "\\t"; break;
        default: {
            static constexpr char hex[] = "0123456789abcdef";
            const char escape[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
            m_text.append(escape, sizeof escape);
        }
        }
    }
    m_text.append(utf8.constData() + plainFrom, utf8.size() - plainFrom);
    m_text += '"';
}

} // namespace Loopscope
