#include "agent/conversation/attachmentloader.h"

#include <QBuffer>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QLocale>
#include <QMimeDatabase>
#include <QStringDecoder>
#include <QtConcurrent/QtConcurrentRun>

#include <poppler-qt6.h>

#include <memory>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

struct Magic
{
    QByteArrayView prefix;
    qsizetype offset;
    QLatin1StringView mimeType;
};

// WebP is "RIFF", a little-endian size, then "WEBP"; the size is checked in isIntactWebp().
constexpr Magic ImageMagic[] = {
    {"\x89PNG\r\n\x1a\n", 0, "image/png"_L1},
    {"\xff\xd8\xff", 0, "image/jpeg"_L1},
    {"GIF87a", 0, "image/gif"_L1},
    {"GIF89a", 0, "image/gif"_L1},
    {"WEBP", 8, "image/webp"_L1},
};

bool startsWith(const QByteArray &bytes, const Magic &magic)
{
    return bytes.size() >= magic.offset + magic.prefix.size()
           && QByteArrayView(bytes).sliced(magic.offset, magic.prefix.size()) == magic.prefix;
}

bool isIntactWebp(const QByteArray &bytes)
{
    if (!bytes.startsWith("RIFF") || bytes.size() < 12)
        return false;
    const auto *size = reinterpret_cast<const uchar *>(bytes.constData() + 4);
    const qint64 declared
        = qint64(size[0]) | qint64(size[1]) << 8 | qint64(size[2]) << 16 | qint64(size[3]) << 24;
    return declared + 8 == bytes.size();
}

// The text type a text file's name suggests; the bytes already said it is text.
QString textMimeType(const QString &name)
{
    const QString suffix = QFileInfo(name).suffix().toLower();
    if (suffix == "md"_L1 || suffix == "markdown"_L1)
        return u"text/markdown"_s;
    if (suffix == "json"_L1)
        return u"application/json"_s;
    if (suffix == "csv"_L1)
        return u"text/csv"_s;
    return u"text/plain"_s;
}

std::optional<QString> decodedText(const QByteArray &bytes)
{
    if (bytes.contains('\0'))
        return std::nullopt;
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = decoder(bytes);
    if (decoder.hasError())
        return std::nullopt;
    if (text.startsWith(QChar::ByteOrderMark))
        text.remove(0, 1);
    return text;
}

} // namespace

QString AttachmentLoader::imageMimeType(const QByteArray &bytes)
{
    for (const Magic &magic : ImageMagic) {
        if (startsWith(bytes, magic) && (magic.offset == 0 || bytes.startsWith("RIFF")))
            return magic.mimeType;
    }
    return {};
}

AttachmentLoad AttachmentLoader::load(const QString &path)
{
    const QFileInfo info(path);
    const QString name = info.fileName();
    if (!info.exists())
        return {std::nullopt, tr("Cannot attach '%1': the file does not exist.").arg(path)};
    if (!info.isFile())
        return {std::nullopt, tr("Cannot attach '%1': it is not a file.").arg(path)};
    if (info.size() > MaxFileSize) {
        const QLocale locale;
        return {std::nullopt,
                tr("Cannot attach '%1': it is %2 bytes, over the limit of %3.")
                    .arg(name, locale.toString(info.size()), locale.formattedDataSize(MaxFileSize, 0))};
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {std::nullopt, tr("Cannot attach '%1': %2.").arg(path, file.errorString())};
    // Read one byte past the cap: the file may have grown since it was measured.
    const QByteArray bytes = file.read(MaxFileSize + 1);
    if (file.error() != QFileDevice::NoError)
        return {std::nullopt, tr("Cannot attach '%1': %2.").arg(path, file.errorString())};
    return fromBytes(name, bytes);
}

AttachmentLoad AttachmentLoader::fromBytes(const QString &name, const QByteArray &bytes)
{
    const QLocale locale;
    if (bytes.size() > MaxFileSize) {
        return {std::nullopt, tr("Cannot attach '%1': it is over the limit of %2.")
                                  .arg(name, locale.formattedDataSize(MaxFileSize, 0))};
    }
    Attachment attachment;
    attachment.name = name;
    attachment.fileSize = bytes.size();
    attachment.sha256 = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();

    if (const QString imageType = imageMimeType(bytes); !imageType.isEmpty()) {
        attachment.kind = Attachment::Kind::Image;
        attachment.mimeType = imageType;
        attachment.bytes = bytes;
        const QByteArray format = imageType.mid(6).toLatin1();
        if (!QImageReader::supportedImageFormats().contains(format)) {
            // Qt cannot decode it here (WebP without the image-formats plugin): check its frame.
            if (!isIntactWebp(bytes))
                return {std::nullopt,
                        tr("Cannot attach '%1': the %2 image is corrupt.").arg(name, imageType)};
            return {attachment, {}};
        }
        QBuffer buffer;
        buffer.setData(bytes);
        QImageReader reader(&buffer, format);
        const QImage image = reader.read();
        if (image.isNull()) {
            return {std::nullopt, tr("Cannot attach '%1': the %2 image is corrupt (%3).")
                                      .arg(name, imageType, reader.errorString())};
        }
        attachment.pixelSize = image.size();
        return {attachment, {}};
    }

    if (bytes.startsWith("%PDF-")) {
        attachment.mimeType = u"application/pdf"_s;
        const std::unique_ptr<Poppler::Document> document = Poppler::Document::loadFromData(bytes);
        if (!document)
            return {std::nullopt, tr("Cannot attach '%1': the PDF is corrupt.").arg(name)};
        if (document->isLocked())
            return {std::nullopt, tr("Cannot attach '%1': the PDF is password-protected.").arg(name)};
        QString text;
        bool anyText = false;
        for (int index = 0; index < document->numPages(); ++index) {
            const std::unique_ptr<Poppler::Page> page = document->page(index);
            const QString pageText = page ? page->text(QRectF()).trimmed() : QString();
            anyText = anyText || !pageText.isEmpty();
            text += u"--- Page %1 of %2 ---\n"_s.arg(index + 1).arg(document->numPages());
            text += pageText + u"\n"_s;
        }
        if (!anyText) {
            return {std::nullopt,
                    tr("Cannot attach '%1': the PDF has no text layer (a scan?). Loopscope sends a "
                       "PDF's text, and this one has none.")
                        .arg(name)};
        }
        attachment.text = capped(text);
        return {attachment, {}};
    }

    if (std::optional<QString> text = decodedText(bytes)) {
        attachment.mimeType = textMimeType(name);
        attachment.text = capped(*text);
        return {attachment, {}};
    }

    const QMimeType type = QMimeDatabase().mimeTypeForData(bytes);
    if (type.inherits(u"text/plain"_s)) {
        // Not "not a text file": it is one, in an encoding Loopscope does not guess.
        return {std::nullopt, tr("Cannot attach '%1': it is text, but not UTF-8 (Latin-1 or another "
                                 "older encoding?). Save it as UTF-8 and attach it again.")
                                  .arg(name)};
    }
    return {std::nullopt, tr("Cannot attach '%1': it is %2 (%3), not an image (PNG, JPEG, WebP, "
                             "GIF), a text file or a PDF.")
                              .arg(name, type.comment(), type.name())};
}

QString AttachmentLoader::capped(const QString &text)
{
    if (text.size() <= MaxTextCharacters)
        return text;
    const QLocale locale;
    return text.first(MaxTextCharacters)
           + tr("\n\n[Truncated by Loopscope: only the first %1 of its %2 characters are attached.]")
                 .arg(locale.toString(MaxTextCharacters), locale.toString(text.size()));
}

QFuture<AttachmentLoad> AttachmentLoader::loadLater(const QString &path)
{
    return QtConcurrent::run(&AttachmentLoader::load, path);
}

} // namespace Loopscope
