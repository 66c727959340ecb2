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

QString stripIndent(const QString &line, qsizetype indent)
{
    return line.mid(std::min(indent, leadingSpaces(line)));
}

} // namespace

QList<MarkdownSegment> splitMarkdown(const QString &markdown)
{
    QList<MarkdownSegment> segments;
    QStringList prose;
    QStringList code;
    std::optional<Fence> fence;

    const auto flushProse = [&] {
        const QString text = prose.join(u'\n');
        if (!text.trimmed().isEmpty())
            segments.append({MarkdownSegment::Kind::Prose, text, {}, true});
        prose.clear();
    };

    const QStringList lines = markdown.split(u'\n');
    for (QString line : lines) {
        if (line.endsWith(u'\r'))
            line.chop(1);
        if (!fence) {
            fence = openingFence(line);
            if (fence)
                flushProse();
            else
                prose.append(line);
            continue;
        }
        if (closesFence(line, *fence)) {
            segments.append({MarkdownSegment::Kind::Code, code.join(u'\n'), fence->language, true});
            code.clear();
            fence.reset();
            continue;
        }
        code.append(stripIndent(line, fence->indent));
    }
    if (fence)
        segments.append({MarkdownSegment::Kind::Code, code.join(u'\n'), fence->language, false});
    else
        flushProse();
    return segments;
}

} // namespace Loopscope::Ui
