#pragma once

#include <QByteArray>

namespace Loopscope {

struct Transcript;

/*!
    A transcript as one self-contained HTML page to send to someone without
    Loopscope: inline CSS that follows the reader's light or dark preference,
    no scripts, no external resources (a Content-Security-Policy says so to
    the browser as well), tool calls folded in <details> with their results.

    The markup is written with QXmlStreamWriter and is well-formed XML
    (XHTML-compatible HTML5), so every piece of content is escaped by
    construction: a message holding "<script>" shows it as text. Messages'
    Markdown is converted minimally (headings, fenced code, lists, quotes,
    tables, code spans, bold and italics); links stay text. Returns UTF-8.
*/
QByteArray exportHtml(const Transcript &transcript);

} // namespace Loopscope
