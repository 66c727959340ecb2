#pragma once

#include <QString>
#include <QUrl>

namespace Loopscope {

/*!
    Turns an HTML page into text a model can read without the markup:
    headings as "#" lines, paragraphs separated by blank lines, list items as
    "- " lines, links as "text (url)" with the url made absolute against the
    page's, preformatted text kept as it is; scripts, styles, templates and the
    like dropped, entities decoded, other whitespace collapsed. A forgiving
    scanner, not a parser: broken markup gives imperfect text, never a failure.
*/
class HtmlText final
{
public:
    static QString toText(const QString &html, const QUrl &baseUrl = {});
    // "&amp;" → "&", "&#x41;" → "A"; unknown entities are left as they are.
    static QString decodeEntities(QStringView text);
    // The <title>, decoded and simplified; empty without one.
    static QString title(const QString &html);
};

} // namespace Loopscope
