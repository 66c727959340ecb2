#include "ui/chat/markdownblocks.h"

namespace Loopscope::Ui {

namespace {

bool isBlank(QStringView line)
{
    for (QChar c : line) {
        if (c != u' ' && c != u'\t' && c != u'\r')
            return false;
    }
    return true;
}

// The marker of a list item at the margin ('-', '*', '+', or '.' and ')' for
// ordered items), or a null QChar. Items with another marker start another list.
QChar listMarker(QStringView line)
{
    // An item may be empty: "-" alone on its line.
    const auto endsMarker = [line](qsizetype at) {
        return at == line.size() || line[at] == u' ' || line[at] == u'\t' || line[at] == u'\r';
    };
    if (!line.isEmpty() && (line[0] == u'-' || line[0] == u'*' || line[0] == u'+') && endsMarker(1))
        return line[0];
    qsizetype digits = 0;
    while (digits < line.size() && digits < 10 && line[digits].isDigit())
        ++digits;
    if (digits > 0 && digits < line.size() && (line[digits] == u'.' || line[digits] == u')')
        && endsMarker(digits + 1))
        return line[digits];
    return {};
}

// "---", "* * *", "___": Qt renders a rule with an empty paragraph after it,
// which the next block must fill, so a rule never ends a block.
bool isThematicBreak(QStringView line)
{
    QChar mark;
    int count = 0;
    for (QChar c : line) {
        if (c == u' ' || c == u'\t' || c == u'\r')
            continue;
        if ((c != u'-' && c != u'*' && c != u'_') || (!mark.isNull() && c != mark))
            return false;
        mark = c;
        ++count;
    }
    return count >= 3;
}

} // namespace

qsizetype lastMarkdownBlockStart(QStringView markdown, qsizetype from)
{
    qsizetype blockStart = from;
    QChar blockList; // the marker of the list the current block ends in, if any
    bool afterBlank = false;
    bool afterRule = false;
    bool blockHasText = false; // a block of blank lines alone would render as nothing
    qsizetype lineStart = from;
    while (lineStart < markdown.size()) {
        qsizetype lineEnd = markdown.indexOf(u'\n', lineStart);
        if (lineEnd < 0)
            lineEnd = markdown.size();
        const QStringView line = markdown.mid(lineStart, lineEnd - lineStart);
        if (isBlank(line)) {
            afterBlank = true;
        } else {
            const QChar marker = listMarker(line);
            const bool atMargin = line[0] != u' ' && line[0] != u'\t';
            // A line still being written may yet become an item of the list
            // before it ("-" becoming "- more"): only whole lines start blocks.
            const bool whole = lineEnd < markdown.size();
            if (whole && afterBlank && atMargin && blockHasText && !afterRule
                && (marker.isNull() || marker != blockList)) {
                blockStart = lineStart;
                blockList = QChar();
            }
            if (!marker.isNull())
                blockList = marker;
            afterBlank = false;
            blockHasText = true;
            afterRule = isThematicBreak(line);
        }
        lineStart = lineEnd + 1;
    }
    return blockStart;
}

} // namespace Loopscope::Ui
