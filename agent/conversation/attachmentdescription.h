#pragma once

#include "agent/conversation/attachment.h"

#include <QString>

namespace Loopscope {

/*!
    An attachment in a line for a person: "PNG image · 800 × 600 · 1.2 MB",
    or "text/markdown · 2 KB". The composer's chips and the exports say it
    the same way.
*/
QString describeAttachment(const Attachment &attachment);

/*!
    The image as a data: URL a browser or a Markdown viewer shows, for the
    formats they all read (PNG, JPEG, GIF, WebP, known from the bytes); empty
    for anything else, or an image whose bytes are not at hand.
*/
QString attachmentDataUrl(const Attachment &attachment);

} // namespace Loopscope
