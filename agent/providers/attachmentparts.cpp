#include "agent/providers/attachmentparts.h"

#include "agent/conversation/attachmentloader.h"

#include <QBuffer>
#include <QCache>
#include <QCryptographicHash>
#include <QImage>
#include <QImageReader>
#include <QImageWriter>
#include <QJsonArray>
#include <QLocale>
#include <QMutex>
#include <QMutexLocker>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

QString cacheKey(const Attachment &attachment, const ImageLimits &limits)
{
    return QString::fromLatin1(attachment.sha256) + u'/' + QString::number(limits.maxBytes) + u'/'
           + QString::number(limits.maxLongEdge) + u'/' + limits.mimeTypes.join(u',');
}

// Prepared images by cacheKey(), their cost in KiB of base64: a few large images of a session stay,
// without the cache growing with every image ever sent.
class PreparedImageCache final
{
public:
    std::shared_ptr<const PreparedImage> find(const QString &key)
    {
        const QMutexLocker lock(&m_mutex);
        const auto *entry = m_cache.object(key);
        return entry ? *entry : nullptr;
    }

    void insert(const QString &key, const std::shared_ptr<const PreparedImage> &image)
    {
        const QMutexLocker lock(&m_mutex);
        m_cache.insert(key, new std::shared_ptr<const PreparedImage>(image),
                       std::max<qsizetype>(1, image->base64.size() / 1024));
    }

private:
    QMutex m_mutex;
    QCache<QString, std::shared_ptr<const PreparedImage>> m_cache{256 * 1024}; // 256 MiB of base64
};

PreparedImageCache &cache()
{
    static PreparedImageCache instance;
    return instance;
}

bool fits(const Attachment &attachment, const ImageLimits &limits)
{
    if (!limits.mimeTypes.contains(attachment.mimeType))
        return false;
    if (limits.maxBytes > 0 && attachment.bytes.size() > limits.maxBytes)
        return false;
    // Qt could not measure it (WebP without the plug-in): its pixels are the provider's to judge.
    const QSize size = attachment.pixelSize;
    return limits.maxLongEdge <= 0 || !size.isValid()
           || std::max(size.width(), size.height()) <= limits.maxLongEdge;
}

QByteArray written(const QImage &image, const QByteArray &format)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, format);
    if (format == "jpeg")
        writer.setQuality(85);
    return writer.write(image) ? bytes : QByteArray();
}

PreparedImage scaledImage(const Attachment &attachment, const ImageLimits &limits)
{
    PreparedImage prepared;
    const QString sizeText = QLocale().formattedDataSize(attachment.bytes.size());
    const QByteArray sourceFormat = attachment.mimeType.mid(6).toLatin1();
    QBuffer source;
    source.setData(attachment.bytes);
    QImageReader reader(&source, sourceFormat);
    const QImage original = reader.read();
    if (original.isNull()) {
        prepared.error = AttachmentParts::tr("The image '%1' (%2, %3) is over what the provider takes, and "
                                             "Loopscope cannot scale it here: %4.")
                             .arg(attachment.name, attachment.mimeType, sizeText, reader.errorString());
        return prepared;
    }
    // Its own format when the provider reads it and Qt writes it (Qt writes no GIF or WebP here).
    const bool keepFormat = limits.mimeTypes.contains(attachment.mimeType)
                            && QImageWriter::supportedImageFormats().contains(sourceFormat);
    const QByteArray format = keepFormat ? sourceFormat : "png"_ba;
    prepared.mimeType = u"image/"_s + QString::fromLatin1(format);

    const int longEdge = std::max(original.width(), original.height());
    double factor = limits.maxLongEdge > 0 && longEdge > limits.maxLongEdge
                        ? double(limits.maxLongEdge) / longEdge
                        : 1.0;
    for (int round = 0; round < 8; ++round) {
        const QImage image = factor < 1.0 ? original.scaled(std::max(1, int(original.width() * factor)),
                                                            std::max(1, int(original.height() * factor)),
                                                            Qt::KeepAspectRatio, Qt::SmoothTransformation)
                                          : original;
        const QByteArray bytes = written(image, format);
        if (bytes.isEmpty())
            break;
        if (limits.maxBytes <= 0 || bytes.size() <= limits.maxBytes) {
            prepared.base64 = bytes.toBase64();
            prepared.sha256 = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();
            prepared.byteCount = bytes.size();
            prepared.pixelSize = image.size();
            prepared.scaled = true;
            return prepared;
        }
        // Bytes grow about with the area: shrink the sides by the root of the excess, and a little more.
        factor *= std::sqrt(double(limits.maxBytes) / double(bytes.size())) * 0.9;
    }
    prepared.mimeType.clear();
    prepared.error = AttachmentParts::tr("The image '%1' (%2, %3) is over what the provider takes, and "
                                         "scaling it down did not bring it within %4.")
                         .arg(attachment.name, attachment.mimeType, sizeText,
                              QLocale().formattedDataSize(limits.maxBytes));
    return prepared;
}

} // namespace

QJsonObject PreparedImage::scaledRecord(const Attachment &original) const
{
    return {{u"name"_s, original.name},
            {u"sha256"_s, QString::fromLatin1(original.sha256)},
            {u"from"_s, QJsonObject{{u"mimeType"_s, original.mimeType},
                                    {u"width"_s, original.pixelSize.width()},
                                    {u"height"_s, original.pixelSize.height()},
                                    {u"bytes"_s, original.bytes.size()}}},
            {u"to"_s, QJsonObject{{u"mimeType"_s, mimeType},
                                  {u"sha256"_s, QString::fromLatin1(sha256)},
                                  {u"width"_s, pixelSize.width()},
                                  {u"height"_s, pixelSize.height()},
                                  {u"bytes"_s, byteCount}}}};
}

std::shared_ptr<const PreparedImage> AttachmentParts::image(const Attachment &attachment,
                                                            const ImageLimits &limits)
{
    const QString key = cacheKey(attachment, limits);
    if (auto cached = cache().find(key))
        return cached;
    PreparedImage prepared;
    if (fits(attachment, limits)) {
        prepared.mimeType = attachment.mimeType;
        prepared.base64 = attachment.bytes.toBase64();
        prepared.sha256 = attachment.sha256;
        prepared.byteCount = attachment.bytes.size();
        prepared.pixelSize = attachment.pixelSize;
    } else {
        prepared = scaledImage(attachment, limits);
    }
    auto shared = std::make_shared<const PreparedImage>(std::move(prepared));
    cache().insert(key, shared);
    return shared;
}

bool AttachmentParts::isPrepared(const Attachment &attachment, const ImageLimits &limits)
{
    return cache().find(cacheKey(attachment, limits)) != nullptr;
}

QString AttachmentParts::text(const Attachment &attachment)
{
    return u"Attached file \"%1\" (%2):\n\n%3"_s.arg(attachment.name, attachment.mimeType, attachment.text);
}

namespace {

// What the Request view shows of the attachments: found by their sha256 (an image) or name (a text).
class AttachmentDescriber final
{
public:
    AttachmentDescriber(const QJsonObject &callRequest, const QJsonArray &scaledImages)
    {
        for (const QJsonValue &message : callRequest.value(u"messages"_s).toArray()) {
            for (const QJsonValue &value : message.toObject().value(u"attachments"_s).toArray()) {
                m_any = true;
                const QJsonObject attachment = value.toObject();
                m_bySha256.insert(attachment.value(u"sha256"_s).toString(), attachment);
                if (attachment.value(u"kind"_s).toString() == u"text")
                    m_textByName.insert(attachment.value(u"name"_s).toString(), attachment);
            }
        }
        for (const QJsonValue &value : scaledImages) {
            const QJsonObject record = value.toObject();
            m_scaledBySha256.insert(record.value(u"to"_s).toObject().value(u"sha256"_s).toString(), record);
        }
    }

    // Whether the request has attachments at all: without any, a body is shown as it is.
    bool any() const { return m_any; }

    QJsonValue described(const QJsonValue &value) const
    {
        if (value.isArray()) {
            QJsonArray array = value.toArray();
            for (qsizetype i = 0; i < array.size(); ++i)
                array.replace(i, described(array.at(i)));
            return array;
        }
        if (value.isObject()) {
            QJsonObject object = value.toObject();
            for (auto it = object.begin(); it != object.end(); ++it)
                it.value() = described(it.value());
            return object;
        }
        if (value.isString())
            return describedString(value.toString());
        return value;
    }

private:
    QJsonValue describedString(const QString &text) const
    {
        if (text.startsWith(u"Attached file \""_s))
            return describedText(text);
        // An image is a data: URL or plain base64 of many bytes; checking the start is enough to
        // leave every other string alone before anything is decoded.
        QStringView base64 = text;
        if (text.startsWith(u"data:image/"_s)) {
            const qsizetype comma = text.indexOf(u";base64,"_s);
            if (comma < 0)
                return text;
            base64 = QStringView(text).sliced(comma + 8);
        } else if (text.size() < 64 || text.size() % 4 != 0 || !looksBase64(text.first(64))) {
            return text;
        }
        const QByteArray bytes = QByteArray::fromBase64(base64.toLatin1());
        const QString mimeType = AttachmentLoader::imageMimeType(bytes);
        if (mimeType.isEmpty())
            return text;
        return describedImage(bytes, mimeType);
    }

    static bool looksBase64(QStringView text)
    {
        return std::all_of(text.begin(), text.end(), [](QChar c) {
            return (c >= u'A' && c <= u'Z') || (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9')
                   || c == u'+' || c == u'/' || c == u'=';
        });
    }

    QJsonObject describedImage(const QByteArray &bytes, const QString &mimeType) const
    {
        const QString sha256
            = QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
        QBuffer buffer;
        buffer.setData(bytes);
        const QSize size = QImageReader(&buffer).size();
        QJsonObject description{{u"attachment"_s, AttachmentParts::tr("an image")},
                                {u"type"_s, mimeType},
                                {u"size"_s, QLocale().formattedDataSize(bytes.size())},
                                {u"sha256"_s, sha256}};
        if (size.isValid())
            description.insert(u"pixels"_s, u"%1×%2"_s.arg(size.width()).arg(size.height()));
        if (const auto scaled = m_scaledBySha256.constFind(sha256); scaled != m_scaledBySha256.cend()) {
            const QJsonObject from = scaled->value(u"from"_s).toObject();
            description.insert(u"attachment"_s, scaled->value(u"name"_s).toString());
            description.insert(u"scaled"_s,
                               AttachmentParts::tr("from %1×%2 %3, %4 (sha256 %5)")
                                   .arg(from.value(u"width"_s).toInt())
                                   .arg(from.value(u"height"_s).toInt())
                                   .arg(from.value(u"mimeType"_s).toString(),
                                        QLocale().formattedDataSize(from.value(u"bytes"_s).toInteger()),
                                        scaled->value(u"sha256"_s).toString()));
        } else {
            if (const auto original = m_bySha256.constFind(sha256); original != m_bySha256.cend())
                description.insert(u"attachment"_s, original->value(u"name"_s).toString());
            description.insert(u"scaled"_s, false);
        }
        return description;
    }

    QJsonObject describedText(const QString &text) const
    {
        const qsizetype nameEnd = text.indexOf(u'"', 15);
        const QString name = nameEnd > 15 ? text.sliced(15, nameEnd - 15) : QString();
        const QJsonObject attachment = m_textByName.value(name);
        QJsonObject description{
            {u"attachment"_s, name}, {u"characters"_s, text.size()}, {u"start"_s, text.left(200)}};
        if (!attachment.isEmpty()) {
            description.insert(u"type"_s, attachment.value(u"mimeType"_s).toString());
            description.insert(u"size"_s,
                               QLocale().formattedDataSize(attachment.value(u"size"_s).toInteger()));
            description.insert(u"sha256"_s, attachment.value(u"sha256"_s).toString());
        }
        return description;
    }

    QHash<QString, QJsonObject> m_bySha256;
    QHash<QString, QJsonObject> m_textByName;
    QHash<QString, QJsonObject> m_scaledBySha256; // by the sha256 of the bytes sent
    bool m_any = false;
};

} // namespace

QJsonValue AttachmentParts::described(const QJsonValue &body, const QJsonObject &callRequest,
                                      const QJsonArray &scaledImages)
{
    const AttachmentDescriber describer(callRequest, scaledImages);
    return describer.any() ? describer.described(body) : body;
}

} // namespace Loopscope
