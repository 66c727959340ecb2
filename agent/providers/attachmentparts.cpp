#include "agent/providers/attachmentparts.h"

#include <QBuffer>
#include <QCache>
#include <QImage>
#include <QImageReader>
#include <QImageWriter>
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

} // namespace Loopscope
