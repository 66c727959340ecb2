#include "ui/chat/markdownsegments.h"

#include <QStringList>

#include <algorithm>
#include <optional>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

struct Fence
{
    QChar character;
    qsizetype length = 0;
    qsizetype indent = 0;
    QString language;
};

qsizetype leadingSpaces(QStringView line)
{
    qsizetype n = 0;
    while (n < line.size() && line.at(n) == u' ')
        ++n;
    return n;
}

// A fence opens with three or more backticks or tildes. Fences inside list
// items are indented, so any indentation is accepted.
std::optional<Fence> openingFence(QStringView line)
{
    const qsizetype indent = leadingSpaces(line);
    const QStringView rest = line.mid(indent);
    if (rest.isEmpty() || (rest.front() != u'`' && rest.front() != u'~'))
        return std::nullopt;
    const QChar character = rest.front();
    qsizetype length = 0;
    while (length < rest.size() && rest.at(length) == character)
        ++length;
    if (length < 3)
        return std::nullopt;
    const QStringView info = rest.mid(length).trimmed();
    if (character == u'`' && info.contains(u'`'))
        return std::nullopt; // an inline code span such as ```x```, not a fence
    Fence fence{character, length, indent, {}};
    fence.language = info.toString().section(u' ', 0, 0);
    return fence;
}

bool closesFence(QStringView line, const Fence &fence)
{
    const QStringView trimmed = line.trimmed();
    if (trimmed.size() < fence.length)
        return false;
    for (QChar c : trimmed) {
        if (c != fence.character)
            return false;
    }
    return true;
}

QString stripIndent(QStringView line, qsizetype indent)
{
    return line.mid(std::min(indent, leadingSpaces(line))).toString();
}

} // namespace

QList<MarkdownSegment> splitMarkdown(QStringView markdown, QList<qsizetype> *starts)
{
    QList<MarkdownSegment> segments;
    QStringList prose;
    QStringList code;
    std::optional<Fence> fence;
    qsizetype segmentStart = 0;

    const auto append = [&](MarkdownSegment segment) {
        segments.append(std::move(segment));
        if (starts)
            starts->append(segmentStart);
    };
    const auto flushProse = [&] {
        const QString text = prose.join(u'\n');
        if (!text.trimmed().isEmpty())
            append({MarkdownSegment::Kind::Prose, text, {}, true});
        prose.clear();
    };

    qsizetype lineStart = 0;
    for (QStringView line : markdown.split(u'\n')) {
        const qsizetype thisLine = std::exchange(lineStart, lineStart + line.size() + 1);
        if (line.endsWith(u'\r'))
            line.chop(1);
        if (!fence) {
            fence = openingFence(line);
            if (fence) {
                flushProse();
                segmentStart = thisLine;
            } else {
                prose.append(line.toString());
            }
            continue;
        }
        if (closesFence(line, *fence)) {
            append({MarkdownSegment::Kind::Code, code.join(u'\n'), fence->language, true});
            code.clear();
            fence.reset();
            segmentStart = lineStart;
            continue;
        }
        code.append(stripIndent(line, fence->indent));
    }
    if (fence)
        append({MarkdownSegment::Kind::Code, code.join(u'\n'), fence->language, false});
    else
        flushProse();
    return segments;
}

} // namespace Loopscope::Ui
