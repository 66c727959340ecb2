#pragma once

#include <QBuffer>
#include <QByteArray>
#include <QImage>
#include <QSize>

namespace Loopscope::Testing {

// A PNG of one colour, e.g. an image to attach; for tests that link Qt GUI.
inline QByteArray pngBytes(QSize size, Qt::GlobalColor colour = Qt::darkCyan)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(colour);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

} // namespace Loopscope::Testing
