#pragma once

#include <QList>
#include <QString>

namespace Loopscope {

/*!
    The outcome of an exact-text replacement: the new text, or why there is
    none. Shared by edit_file, which applies it, and the approval card, which
    shows its effect as a diff before anything is written: both must agree on
    what an edit does.
*/
struct TextReplacement
{
    QString text;          // the whole text after the replacement; empty when refused
    int replacements = 0;  // how many occurrences were replaced
    QList<int> matchLines; // 1-based line of each occurrence of the old text (at most MaxReportedLines)
    int matchCount = 0;    // every occurrence, even beyond the lines listed
    QString error;         // in words a model can act on; empty when it applies

    static constexpr int MaxReportedLines = 20;

    bool isValid() const { return error.isEmpty(); }
};

// Replaces oldText in text by newText. Without replaceAll, oldText must occur
// exactly once; missing, empty or (without replaceAll) ambiguous oldText is
// refused, the error saying how many matches there were and on which lines.
TextReplacement replaceExactText(const QString &text, const QString &oldText, const QString &newText,
                                 bool replaceAll);

// What edit_file applies to a file's decoded text: replaceExactText() after
// giving old and new text the file's line breaks when the file uses CRLF
// throughout (models write "\n"), so a Windows file keeps its CRLF and a
// model's "\n" still matches. Any other file is matched as is.
TextReplacement replaceInFileText(const QString &fileText, const QString &oldText, const QString &newText,
                                  bool replaceAll);

} // namespace Loopscope
