#include "agent/tools/builtin/textreplacement.h"

#include <QStringList>

using namespace Qt::StringLiterals;

namespace Loopscope {

static QString lineList(const QList<int> &lines, int total)
{
    QStringList numbers;
    numbers.reserve(lines.size());
    for (const int line : lines)
        numbers.append(QString::number(line));
    QString list = numbers.join(u", "_s);
    if (total > lines.size())
        list += u" and %1 more"_s.arg(total - lines.size());
    return list;
}

TextReplacement replaceExactText(const QString &text, const QString &oldText, const QString &newText,
                                 bool replaceAll)
{
    TextReplacement result;
    if (oldText.isEmpty()) {
        result.error = u"old_text is empty; give the exact text to replace (to write a whole file, use "
                       "write_file)."_s;
        return result;
    }

    // One pass finds every occurrence and its line; the line count advances
    // incrementally so a large file with many matches stays linear.
    QList<qsizetype> positions;
    int line = 1;
    qsizetype counted = 0;
    for (qsizetype at = text.indexOf(oldText); at >= 0; at = text.indexOf(oldText, at + oldText.size())) {
        line += int(QStringView(text).mid(counted, at - counted).count(u'\n'));
        counted = at;
        positions.append(at);
        if (result.matchLines.size() < TextReplacement::MaxReportedLines)
            result.matchLines.append(line);
    }
    result.matchCount = int(positions.size());

    if (positions.isEmpty()) {
        result.error = u"old_text was not found in the file (0 matches); it must match the file exactly, "
                       "including whitespace and line breaks."_s;
        return result;
    }
    if (positions.size() > 1 && !replaceAll) {
        result.error = u"old_text occurs %1 times (lines %2); include more surrounding text so it matches "
                       "once, or set replace_all to replace every occurrence."_s.arg(positions.size())
                           .arg(lineList(result.matchLines, result.matchCount));
        return result;
    }

    QString replaced;
    replaced.reserve(text.size() + positions.size() * (newText.size() - oldText.size()));
    qsizetype copied = 0;
    for (const qsizetype at : positions) {
        replaced.append(QStringView(text).mid(copied, at - copied));
        replaced.append(newText);
        copied = at + oldText.size();
    }
    replaced.append(QStringView(text).mid(copied));
    result.text = std::move(replaced);
    result.replacements = int(positions.size());
    return result;
}

// CRLF throughout: at least one "\r\n" and no "\n" without its "\r".
static bool usesCrlf(const QString &text)
{
    const qsizetype newlines = text.count(u'\n');
    return newlines > 0 && text.count(u"\r\n"_s) == newlines;
}

static QString withCrlf(const QString &text)
{
    QString lf = text;
    lf.replace(u"\r\n"_s, u"\n"_s);
    return lf.replace(u'\n', u"\r\n"_s);
}

TextReplacement replaceInFileText(const QString &fileText, const QString &oldText, const QString &newText,
                                  bool replaceAll)
{
    if (usesCrlf(fileText))
        return replaceExactText(fileText, withCrlf(oldText), withCrlf(newText), replaceAll);
    return replaceExactText(fileText, oldText, newText, replaceAll);
}

} // namespace Loopscope
