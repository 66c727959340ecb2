#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QSize>
#include <QString>

namespace Loopscope {

/*!
    A file the user put in a message. An image travels as its bytes (each
    protocol has its own image part); a text file, code, JSON, CSV or a PDF
    travels as text, named, because every protocol takes text. The type comes
    from the bytes, never the file name, so a PNG called notes.txt is an image.
    Copies share their bytes: a history resent twenty times holds one image.
*/
struct Attachment
{
    enum class Kind { Image, Text };

    Kind kind = Kind::Text;
    QString name;        // the file's name, without its folder
    QString mimeType;    // "image/png", "text/markdown", "application/pdf" (read as text) ...
    QByteArray bytes;    // Image only: the file as it was read
    QString text;        // Text only: the contents (a PDF's text with page markers)
    QSize pixelSize;     // Image only, when Qt can decode the format
    qint64 fileSize = 0; // bytes on disk
    QByteArray sha256;   // hex digest of the file's bytes: the attachment's identity

    bool isImage() const { return kind == Kind::Image; }

    bool operator==(const Attachment &) const = default;

    QJsonObject toJson() const;
    static Attachment fromJson(const QJsonObject &json);
};

} // namespace Loopscope
