#include "app/cli/terminaltext.h"

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

QString visibleControls(const QString &text)
{
    const auto isControl = [](QChar c) {
        const char16_t u = c.unicode();
        return (u < 0x20 && u != u'\n' && u != u'\t') || (u >= 0x7f && u <= 0x9f);
    };
    if (std::none_of(text.cbegin(), text.cend(), isControl))
        return text;
    QString result;
    result.reserve(text.size() + 16);
    for (QChar c : text) {
        if (!isControl(c))
            result.append(c);
        else if (c == u'\r')
            result.append(u"\\r"_s);
        else if (c.unicode() < 0x80)
            result.append(u"\\x%1"_s.arg(uint(c.unicode()), 2, 16, QChar(u'0')));
        else
            result.append(u"\\u%1"_s.arg(uint(c.unicode()), 4, 16, QChar(u'0')));
    }
    return result;
}

} // namespace Loopscope::Cli
