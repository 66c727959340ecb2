#include "agent/mcp/mcpcontent.h"

#include "agent/conversation/attachmentloader.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QSet>
#include <QStringList>
#include <QUrl>

#include <algorithm>
#include <functional>

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

namespace {

// Where an item keeps an image's base64, if it may be one: an image item's data, an embedded blob.
QString imageData(const QJsonObject &item)
{
    const QString type = item.value(u"type"_s).toString();
    if (type == u"image"_s)
        return item.value(u"data"_s).toString();
    if (type == u"resource"_s)
        return item.value(u"resource"_s).toObject().value(u"blob"_s).toString();
    return {};
}

QString extension(const QString &mimeType)
{
    const QString subtype = mimeType.section(u'/', 1);
    return subtype == u"jpeg"_s ? u"jpg"_s : subtype;
}

// The words of a result; \a described gives a non-text item's words, or nothing to leave it out.
QString resultText(const QJsonObject &result, const std::function<QString(const QJsonObject &)> &described)
{
    const QJsonArray content = result.value(u"content"_s).toArray();
    QStringList texts;
    QStringList others;
    for (const QJsonValue &value : content) {
        const QJsonObject item = value.toObject();
        if (item.value(u"type"_s).toString() == u"text"_s) {
            texts.append(item.value(u"text"_s).toString());
        } else if (const QString words = described(item); !words.isEmpty()) {
            others.append(words);
        }
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

} // namespace

QString callResultText(const QJsonObject &result)
{
    return resultText(result, &itemText);
}

bool mayHoldImages(const QJsonObject &result)
{
    const QJsonArray content = result.value(u"content"_s).toArray();
    return std::any_of(content.begin(), content.end(),
                       [](const QJsonValue &item) { return !imageData(item.toObject()).isEmpty(); });
}

CallResult callResult(const QJsonObject &result, const QString &toolName)
{
    CallResult call;
    call.text = resultText(result, [&call, &toolName](const QJsonObject &item) -> QString {
        const QString data = imageData(item);
        if (data.isEmpty())
            return itemText(item);
        const QByteArray bytes = QByteArray::fromBase64(data.toLatin1());
        const QString mimeType = AttachmentLoader::imageMimeType(bytes);
        if (mimeType.isEmpty()) // audio, a PDF blob ...: described as before
            return itemText(item);
        // Named by the resource's file name, else by the tool: what the chat and the trace show.
        const QString uri = item.value(u"resource"_s).toObject().value(u"uri"_s).toString();
        QString name = QUrl(uri).fileName();
        if (name.isEmpty())
            name = u"%1-%2.%3"_s.arg(toolName).arg(call.images.size() + 1).arg(extension(mimeType));
        const AttachmentLoad load = AttachmentLoader::fromBytes(name, bytes);
        if (!load.ok())
            return itemText(item) + u" ("_s + load.error + u')';
        call.images.append(*load.attachment);
        return {};
    });
    return call;
}

QJsonValue withoutImageData(const QJsonValue &value, const QList<Attachment> &images)
{
    if (images.isEmpty())
        return value;
    QSet<QByteArray> known;
    for (const Attachment &image : images)
        known.insert(image.sha256);
    const std::function<QJsonValue(const QJsonValue &)> strip = [&](const QJsonValue &node) -> QJsonValue {
        if (node.isArray()) {
            QJsonArray array = node.toArray();
            for (qsizetype i = 0; i < array.size(); ++i)
                array.replace(i, strip(array.at(i)));
            return array;
        }
        if (!node.isObject())
            return node;
        QJsonObject object = node.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            const bool mayBeImage
                = (it.key() == u"data"_s && object.value(u"type"_s) == u"image"_s) || it.key() == u"blob"_s;
            if (mayBeImage && it.value().isString()) {
                const QByteArray sha256
                    = QCryptographicHash::hash(QByteArray::fromBase64(it.value().toString().toLatin1()),
                                               QCryptographicHash::Sha256)
                          .toHex();
                if (known.contains(sha256))
                    it.value() = u"(the image with sha256 %1: the result's attachment)"_s.arg(
                        QString::fromLatin1(sha256));
            } else if (it.value().isArray() || it.value().isObject()) {
                it.value() = strip(it.value());
            }
        }
        return object;
    };
    return strip(value);
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

QList<ResourceFile> resourceFiles(const QJsonObject &result, const QString &name)
{
    QList<ResourceFile> files;
    QStringList names;
    for (const QJsonValue &value : result.value(u"contents"_s).toArray()) {
        const QJsonObject contents = value.toObject();
        const QString uri = contents.value(u"uri"_s).toString();
        QString fileName = QUrl(uri).fileName();
        if (fileName.isEmpty())
            fileName = name.isEmpty() ? uri : name;
        // Two contents of one name are told apart, as a second file of a folder would be.
        const QString base = fileName;
        for (int copy = 2; names.contains(fileName); ++copy)
            fileName = u"%1 (%2)"_s.arg(base).arg(copy);
        names.append(fileName);
        const QByteArray bytes
            = contents.contains(u"text"_s)
                  ? contents.value(u"text"_s).toString().toUtf8()
                  : QByteArray::fromBase64(contents.value(u"blob"_s).toString().toLatin1());
        files.append({fileName, bytes});
    }
    return files;
}

} // namespace Loopscope::McpContent
