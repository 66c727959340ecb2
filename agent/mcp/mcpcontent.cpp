#include "agent/mcp/mcpcontent.h"

#include <QJsonDocument>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace Loopscope::McpContent {

namespace {

// The decoded size of base64 data without decoding it.
qsizetype base64DecodedSize(const QString &data)
{
    const QString trimmed = data.trimmed();
    qsizetype padding = 0;
    if (trimmed.endsWith(u"=="_s))
        padding = 2;
    else if (trimmed.endsWith(u'='))
        padding = 1;
    return qMax<qsizetype>(0, trimmed.size() / 4 * 3 - padding);
}

QString embeddedResourceText(const QJsonObject &resource)
{
    if (resource.contains(u"text"_s))
        return resource.value(u"text"_s).toString();
    const QString mimeType = resource.value(u"mimeType"_s).toString();
    const QString uri = resource.value(u"uri"_s).toString();
    if (mimeType.isEmpty())
        return u"[resource: %1]"_s.arg(uri);
    return u"[resource: %1, %2]"_s.arg(uri, mimeType);
}

QString joined(const QStringList &parts)
{
    return parts.join(u"\n\n"_s);
}

} // namespace

QString itemText(const QJsonObject &item)
{
    const QString type = item.value(u"type"_s).toString();
    if (type == u"text"_s)
        return item.value(u"text"_s).toString();
    if (type == u"image"_s || type == u"audio"_s) {
        return u"[%1: %2, %3 bytes]"_s.arg(type, item.value(u"mimeType"_s).toString())
            .arg(base64DecodedSize(item.value(u"data"_s).toString()));
    }
    if (type == u"resource_link"_s) {
        const QString name = item.value(u"name"_s).toString();
        const QString uri = item.value(u"uri"_s).toString();
        return u"[resource link: %1 <%2>]"_s.arg(name.isEmpty() ? uri : name, uri);
    }
    if (type == u"resource"_s)
        return embeddedResourceText(item.value(u"resource"_s).toObject());
    return u"[%1 content]"_s.arg(type.isEmpty() ? u"unknown"_s : type);
}

QString callResultText(const QJsonObject &result)
{
    const QJsonArray content = result.value(u"content"_s).toArray();
    QStringList texts;
    QStringList others;
    for (const QJsonValue &value : content) {
        const QJsonObject item = value.toObject();
        if (item.value(u"type"_s).toString() == u"text"_s)
            texts.append(item.value(u"text"_s).toString());
        else
            others.append(itemText(item));
    }
    QStringList parts = texts;
    if (texts.isEmpty() && result.contains(u"structuredContent"_s)) {
        const QJsonValue structured = result.value(u"structuredContent"_s);
        if (structured.isObject())
            parts.append(
                QString::fromUtf8(QJsonDocument(structured.toObject()).toJson(QJsonDocument::Compact)));
        else if (structured.isArray())
            parts.append(
                QString::fromUtf8(QJsonDocument(structured.toArray()).toJson(QJsonDocument::Compact)));
        else
            parts.append(structured.toVariant().toString());
    }
    // Described non-text items keep their place after the text.
    parts.append(others);
    return joined(parts);
}

QString promptResultText(const QJsonObject &result)
{
    QStringList parts;
    for (const QJsonValue &value : result.value(u"messages"_s).toArray()) {
        const QJsonValue content = value.toObject().value(u"content"_s);
        if (content.isArray()) {
            for (const QJsonValue &item : content.toArray())
                parts.append(itemText(item.toObject()));
        } else {
            parts.append(itemText(content.toObject()));
        }
    }
    return joined(parts);
}

QString resourceResultText(const QJsonObject &result)
{
    QStringList parts;
    for (const QJsonValue &value : result.value(u"contents"_s).toArray()) {
        const QJsonObject contents = value.toObject();
        if (contents.contains(u"text"_s)) {
            parts.append(contents.value(u"text"_s).toString());
        } else {
            const QString mimeType = contents.value(u"mimeType"_s).toString();
            parts.append(u"[blob: %1, %2, %3 bytes]"_s
                             .arg(contents.value(u"uri"_s).toString(),
                                  mimeType.isEmpty() ? u"unknown type"_s : mimeType)
                             .arg(base64DecodedSize(contents.value(u"blob"_s).toString())));
        }
    }
    return joined(parts);
}

} // namespace Loopscope::McpContent
