#include "agent/session/filenamestem.h"

#include <QRegularExpression>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace Loopscope {

QString fileNameStem(const QString &title, int maxLength)
{
    QString stem;
    stem.reserve(title.size());
    for (const QChar c : title) {
        if (c.isSpace())
            stem.append(u' ');
        else if (c.category() == QChar::Other_Control || u"/\\:*?\"<>|"_s.contains(c))
            stem.append(u'-');
        else
            stem.append(c);
    }
    static const QRegularExpression runsOfDots(u"\\.{2,}"_s);
    static const QRegularExpression runsOfDashes(u"-{2,}"_s);
    stem.replace(runsOfDots, u"."_s);
    stem = stem.simplified();
    stem.replace(runsOfDashes, u"-"_s);

    if (stem.size() > maxLength) {
        int cut = maxLength;
        // Never split a surrogate pair; prefer the last space in the second half.
        if (stem.at(cut - 1).isHighSurrogate())
            --cut;
        const int space = stem.lastIndexOf(u' ', cut);
        if (space > maxLength / 2)
            cut = space;
        stem.truncate(cut);
    }

    static const QRegularExpression edges(u"^[ .\\-]+|[ .\\-]+$"_s);
    stem.remove(edges);
    if (stem.isEmpty())
        return u"session"_s;

    // Windows refuses these as names whatever the extension.
    static const QStringList reserved{u"CON"_s, u"PRN"_s, u"AUX"_s, u"NUL"_s};
    static const QRegularExpression device(u"^(COM|LPT)[1-9]$"_s, QRegularExpression::CaseInsensitiveOption);
    if (reserved.contains(stem.toUpper()) || device.match(stem).hasMatch())
        stem.prepend(u'_');
    return stem;
}

} // namespace Loopscope
