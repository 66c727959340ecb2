#pragma once

#include <QString>

namespace Loopscope {

struct Transcript;

/*!
    A transcript as a Markdown document to paste into an issue or a wiki: the
    title, a line of metadata, then each message under its role. Messages
    keep their Markdown; each tool call shows its arguments as a fenced JSON
    block next to its result. Fences are always longer than any run of
    backticks inside them, and a fence a message leaves open is closed, so
    content can never spill into the structure around it. Never holds a
    secret: the transcript holds none, and the base URL loses any user info
    or key.
*/
QString exportMarkdown(const Transcript &transcript);

} // namespace Loopscope
