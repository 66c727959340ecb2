#pragma once

#include "agent/conversation/attachment.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QFuture>
#include <QString>

#include <optional>

namespace Loopscope {

// A file read for a message: the attachment, or why it cannot be sent.
struct AttachmentLoad
{
    std::optional<Attachment> attachment;
    QString error; // a sentence for the user, naming the file; empty when loaded

    bool ok() const { return attachment.has_value(); }
};

/*!
    Reads a file the user attaches and decides what it is from its bytes:
    PNG, JPEG, WebP and GIF images; UTF-8 text (Markdown, code, JSON, CSV)
    as text; a PDF as its text, page by page. Everything else, and every file
    that is missing, unreadable, too large or corrupt, is refused with a
    sentence saying why, before anything is sent. Reading a PDF or decoding a
    large image takes time: loadLater() does it on the thread pool.
*/
class AttachmentLoader final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::AttachmentLoader)

public:
    static constexpr qint64 MaxFileSize = 20 * 1024 * 1024;
    // A text (or a PDF's text) longer than this is cut here, with a note saying so at its end.
    static constexpr qsizetype MaxTextCharacters = 256 * 1024;

    static AttachmentLoad load(const QString &path);
    // Bytes that were never a file (a pasted image): \a name is what the model and the chat see.
    static AttachmentLoad fromBytes(const QString &name, const QByteArray &bytes);
    static QFuture<AttachmentLoad> loadLater(const QString &path);

    // The image type of \a bytes from their magic numbers ("image/png" ...); empty for none.
    static QString imageMimeType(const QByteArray &bytes);

private:
    static QString capped(const QString &text);
};

} // namespace Loopscope
