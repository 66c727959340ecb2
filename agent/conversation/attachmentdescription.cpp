#include "agent/conversation/attachmentdescription.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

class AttachmentText final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::AttachmentText)
};

} // namespace

QString describeAttachment(const Attachment &attachment)
{
    QStringList parts;
    if (attachment.isImage()) {
        parts.append(AttachmentText::tr("%1 image").arg(attachment.mimeType.section(u'/', 1).toUpper()));
        if (attachment.pixelSize.isValid()) {
            parts.append(AttachmentText::tr("%1 × %2")
                             .arg(attachment.pixelSize.width())
                             .arg(attachment.pixelSize.height()));
        }
    } else {
        parts.append(attachment.mimeType);
    }
    parts.append(QLocale().formattedDataSize(attachment.fileSize, 1));
    return parts.join(u" · "_s);
}

QString attachmentDataUrl(const Attachment &attachment)
{
    // The types the loader recognises by their magic numbers; the name never decides.
    static const QStringList shown{u"image/png"_s, u"image/jpeg"_s, u"image/gif"_s, u"image/webp"_s};
    if (!attachment.isImage() || attachment.bytes.isEmpty() || !shown.contains(attachment.mimeType))
        return {};
    return u"data:"_s + attachment.mimeType + u";base64,"_s
           + QString::fromLatin1(attachment.bytes.toBase64());
}

} // namespace Loopscope
