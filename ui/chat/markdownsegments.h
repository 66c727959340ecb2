#pragma once

#include <QList>
#include <QString>

namespace Loopscope::Ui {

/*!
    A stretch of a Markdown message that is shown by one widget: prose, which
    QTextDocument renders, or a fenced code block, which gets a monospace view
    with a Copy button. While an answer streams its last fence may be open.
*/
struct MarkdownSegment
{
    enum class Kind { Prose, Code };

    Kind kind = Kind::Prose;
    QString text;     // the prose, or the code without its fences
    QString language; // the first word of a fence's info string
    bool closed = true;

    bool operator==(const MarkdownSegment &) const = default;
};

// Splits at ``` and ~~~ fences (CommonMark rules for the fence itself).
// Prose that is only blank lines is dropped. With \a starts, also where each
// segment begins in \a markdown: splitting again from there gives the same
// segments, so a growing text need only be split from its last segment on.
QList<MarkdownSegment> splitMarkdown(QStringView markdown, QList<qsizetype> *starts = nullptr);

} // namespace Loopscope::Ui
