#pragma once

#include <QList>
#include <QString>

namespace Loopscope {

/*! One line of a unified diff, with its numbers in the old and the new text (0 where it has none). */
struct DiffLine
{
    enum class Kind { HunkHeader, Context, Added, Removed, Note };
    Kind kind = Kind::Context;
    QString text; // without the line break; a header's "@@ -a,b +c,d @@", a note's words
    int oldLine = 0;
    int newLine = 0;
    bool operator==(const DiffLine &) const = default;
};

/*!
    The difference between two texts, line by line, as a unified diff: hunks
    with their "@@" headers and a few lines of context around each change.
    What an approval shows before a file is written; the lines are aligned
    by alignSequences, the hunks are built here so that every line keeps its
    old and new numbers for a gutter.
*/
struct LineDiff
{
    QList<DiffLine> lines; // at most the shown-line cap, then a note
    int added = 0;         // lines added, counted over the whole texts
    int removed = 0;
    bool truncated = false;   // more lines than the cap: the rest is not in lines
    bool approximate = false; // too much changed to align: all old lines removed, all new ones added

    static constexpr int DefaultContext = 3;
    static constexpr int DefaultMaxLines = 2000;

    bool isEmpty() const { return added == 0 && removed == 0; }
    // As `diff -u` prints it, without the file header lines.
    QString unifiedText() const;

    bool operator==(const LineDiff &) const = default;
};

LineDiff diffLines(const QString &before, const QString &after, int contextLines = LineDiff::DefaultContext,
                   int maxShownLines = LineDiff::DefaultMaxLines);

} // namespace Loopscope
