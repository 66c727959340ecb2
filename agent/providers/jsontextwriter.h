#pragma once

#include <QByteArray>
#include <QList>
#include <QStringView>

#include <initializer_list>

namespace Loopscope {

/*!
    Writes compact JSON text directly. Building a QJsonObject and serialising it costs many times
    more than the text itself: a protocol writes with this what it sends call after call (each
    history message, once), and parses the text where it wants the object. Keys and values are
    written in the order given; commas come by themselves.
*/
class JsonTextWriter final
{
public:
    JsonTextWriter &beginObject(QStringView key = {});
    JsonTextWriter &endObject();
    JsonTextWriter &beginArray(QStringView key = {});
    JsonTextWriter &endArray();
    JsonTextWriter &string(QStringView key, QStringView value);
    JsonTextWriter &null(QStringView key);
    // A string of \a pieces written as they are: for ASCII that needs no escaping (base64, a data
    // URL), which is then copied once rather than checked byte by byte.
    JsonTextWriter &asciiString(QStringView key, std::initializer_list<QByteArrayView> pieces);

    QByteArray take() { return std::move(m_text); }

private:
    void separate(QStringView key);
    void writeString(QStringView text);

    QByteArray m_text;
    QList<bool> m_emptyScopes; // per open object or array: nothing written in it yet
};

} // namespace Loopscope
