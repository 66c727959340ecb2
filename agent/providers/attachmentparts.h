#pragma once

#include "agent/conversation/attachment.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QSize>
#include <QString>
#include <QStringList>

#include <memory>

namespace Loopscope {

/*!
    What a provider takes of an image as it is: its documented byte and pixel limits and the
    formats it reads. An image within them is sent byte for byte; a larger one, or one in another
    format, is scaled down (aspect ratio kept) and sent in its own format when the provider reads
    it and Qt can write it, else as PNG.
*/
struct ImageLimits
{
    qint64 maxBytes = 0;   // of the file, before base64; 0 for no limit
    int maxLongEdge = 0;   // pixels; 0 for no limit
    QStringList mimeTypes; // taken as they are

    bool operator==(const ImageLimits &) const = default;
};

/*!
    An image as one provider gets it: the original when it fits, else a scaled copy; either way
    encoded as base64 once, however many requests of a turn (and of later turns) carry it. The
    attachment in the message keeps the original.
*/
struct PreparedImage
{
    QString mimeType;
    QByteArray base64; // the bytes sent
    QByteArray sha256; // hex digest of the bytes sent
    QSize pixelSize;
    qint64 byteCount = 0;
    bool scaled = false; // scaled or converted; false: the original byte for byte
    QString error;       // why it cannot be sent; the rest is empty then

    bool ok() const { return error.isEmpty(); }
    // What the trace records of a scaled image: from what to what.
    QJsonObject scaledRecord(const Attachment &original) const;
};

/*!
    How an attachment becomes a protocol's parts: an image through a shared, thread-safe cache of
    prepared images (keyed by the image's sha256 and the limits), so that the scaling and the base64
    are paid once; a text attachment as one text naming the file. HttpModelClient prepares the
    images a request needs on the thread pool before it encodes the request.
*/
class AttachmentParts final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::AttachmentParts)

public:
    // The image as \a limits take it; computed (decoded, scaled, encoded) unless cached.
    static std::shared_ptr<const PreparedImage> image(const Attachment &attachment,
                                                      const ImageLimits &limits);
    // Whether image() would answer from its cache.
    static bool isPrepared(const Attachment &attachment, const ImageLimits &limits);
    // The text a text attachment is sent as: its name, its type, then its contents.
    static QString text(const Attachment &attachment);

    // A wire body (or a recorded request) for a person to read: every image in it, as base64 or a
    // data: URL, and every text attachment's part become what they are (name, type, size, sha256,
    // scaled or not) instead of their bytes. \a callRequest, the call's recorded request, names the
    // attachments; \a scaledImages, an attempt's record of them, says which were scaled. What was
    // sent is the Raw view's and the curl command's; this is only what the Request view shows.
    static QJsonValue described(const QJsonValue &body, const QJsonObject &callRequest,
                                const QJsonArray &scaledImages);
};

} // namespace Loopscope
