#include "agent/conversation/attachment.h"

#include "agent/conversation/enumnames.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

constexpr EnumName<Attachment::Kind> KindNames[] = {
    {Attachment::Kind::Image, u"image"},
    {Attachment::Kind::Text, u"text"},
};

QJsonObject Attachment::toJson() const
{
    QJsonObject json{{u"kind"_s, nameOf(KindNames, kind)},
                     {u"name"_s, name},
                     {u"mimeType"_s, mimeType},
                     {u"size"_s, fileSize},
                     {u"sha256"_s, QString::fromLatin1(sha256)}};
    if (kind == Kind::Image) {
        json.insert(u"data"_s, QString::fromLatin1(bytes.toBase64()));
        if (pixelSize.isValid()) {
            json.insert(u"width"_s, pixelSize.width());
            json.insert(u"height"_s, pixelSize.height());
        }
    } else {
        json.insert(u"text"_s, text);
    }
    return json;
}

Attachment Attachment::fromJson(const QJsonObject &json)
{
    Attachment attachment;
    attachment.kind = valueNamed(KindNames, json.value(u"kind"_s).toString()).value_or(Kind::Text);
    attachment.name = json.value(u"name"_s).toString();
    attachment.mimeType = json.value(u"mimeType"_s).toString();
    attachment.fileSize = json.value(u"size"_s).toInteger();
    attachment.sha256 = json.value(u"sha256"_s).toString().toLatin1();
    if (attachment.kind == Kind::Image) {
        attachment.bytes = QByteArray::fromBase64(json.value(u"data"_s).toString().toLatin1());
        if (json.contains(u"width"_s))
            attachment.pixelSize = QSize(json.value(u"width"_s).toInt(), json.value(u"height"_s).toInt());
    } else {
        attachment.text = json.value(u"text"_s).toString();
    }
    return attachment;
}

} // namespace Loopscope
