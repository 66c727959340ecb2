#include "agent/tools/linediff.h"

#include "agent/tools/sequencealignment.h"

#include <QCoreApplication>

#include <algorithm>
#include <vector>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

struct LineDiffText
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::LineDiff)
};

// Lines keep their line break, so that "last line without one" differs from
// the same line with one, as in diff(1).
QStringList splitKeepingBreaks(const QString &text)
{
    QStringList lines;
    qsizetype start = 0;
    while (start < text.size()) {
        const qsizetype end = text.indexOf(u'\n', start);
        if (end < 0) {
            lines.append(text.mid(start));
            break;
        }
        lines.append(text.mid(start, end - start + 1));
        start = end + 1;
    }
    return lines;
}

struct Edit
{
    enum class Type { Common, Added, Removed };
    Type type = Type::Common;
    QString line; // with its line break, if it had one
};

class HunkWriter
{
public:
    HunkWriter(LineDiff &diff, int maxLines)
        : m_diff(diff)
        , m_maxLines(maxLines)
    {}

    void header(int oldStart, int oldCount, int newStart, int newCount)
    {
        add({DiffLine::Kind::HunkHeader,
             u"@@ -%1 +%2 @@"_s.arg(range(oldStart, oldCount), range(newStart, newCount)), 0, 0});
    }

    void line(const Edit &edit, int oldLine, int newLine)
    {
        const bool hasBreak = edit.line.endsWith(u'\n');
        const QString text = hasBreak ? edit.line.chopped(1) : edit.line;
        switch (edit.type) {
        case Edit::Type::Added: add({DiffLine::Kind::Added, text, 0, newLine}); break;
        case Edit::Type::Removed: add({DiffLine::Kind::Removed, text, oldLine, 0}); break;
        case Edit::Type::Common: add({DiffLine::Kind::Context, text, oldLine, newLine}); break;
        }
        if (!hasBreak)
            add({DiffLine::Kind::Note, u"\\ No newline at end of file"_s, 0, 0});
    }

    void note(const QString &text) { add({DiffLine::Kind::Note, text, 0, 0}); }

    void finish()
    {
        if (m_hidden > 0) {
            m_diff.truncated = true;
            m_diff.lines.append(
                {DiffLine::Kind::Note,
                 LineDiffText::tr("… %n more line(s) of the diff not shown", nullptr, m_hidden), 0, 0});
        }
    }

private:
    // "-5,0" for an empty range means "after line 5", as diff -u writes it.
    static QString range(int start, int count)
    {
        return count == 1 ? QString::number(start) : u"%1,%2"_s.arg(start).arg(count);
    }

    void add(const DiffLine &line)
    {
        if (m_diff.lines.size() < m_maxLines)
            m_diff.lines.append(line);
        else
            ++m_hidden;
    }

    LineDiff &m_diff;
    int m_maxLines;
    int m_hidden = 0;
};

} // namespace

LineDiff diffLines(const QString &before, const QString &after, int contextLines, int maxShownLines)
{
    LineDiff result;
    if (before == after)
        return result;

    const QStringList oldLines = splitKeepingBreaks(before);
    const QStringList newLines = splitKeepingBreaks(after);
    const SequenceAlignment alignment = alignSequences(oldLines, newLines);
    result.approximate = alignment.approximate;
    std::vector<Edit> edits;
    edits.reserve(alignment.pairs.size());
    for (const AlignedPair &pair : alignment.pairs) {
        if (pair.left < 0) {
            edits.push_back({Edit::Type::Added, newLines.at(pair.right)});
            ++result.added;
        } else if (pair.right < 0) {
            edits.push_back({Edit::Type::Removed, oldLines.at(pair.left)});
            ++result.removed;
        } else {
            edits.push_back({Edit::Type::Common, oldLines.at(pair.left)});
        }
    }

    HunkWriter writer(result, maxShownLines);
    if (result.approximate)
        writer.note(LineDiffText::tr("Too much changed to match the lines up: the old text is shown removed "
                                     "and the new one added."));
    const int count = int(edits.size());
    int oldBefore = 0; // old lines before index `next`
    int newBefore = 0;
    int next = 0;
    auto advance = [&](int to) {
        for (; next < to; ++next) {
            if (edits[next].type != Edit::Type::Added)
                ++oldBefore;
            if (edits[next].type != Edit::Type::Removed)
                ++newBefore;
        }
    };
    for (int change = 0; change < count; ++change) {
        if (edits[change].type == Edit::Type::Common)
            continue;
        // Changes closer than twice the context share a hunk.
        int lastChange = change;
        for (int i = change + 1; i < count && i - lastChange <= 2 * contextLines + 1; ++i) {
            if (edits[i].type != Edit::Type::Common)
                lastChange = i;
        }
        const int first = std::max(next, change - contextLines);
        const int last = std::min(count - 1, lastChange + contextLines);
        advance(first);
        int oldCount = 0;
        int newCount = 0;
        for (int i = first; i <= last; ++i) {
            oldCount += edits[i].type != Edit::Type::Added;
            newCount += edits[i].type != Edit::Type::Removed;
        }
        writer.header(oldCount > 0 ? oldBefore + 1 : oldBefore, oldCount,
                      newCount > 0 ? newBefore + 1 : newBefore, newCount);
        for (int i = first; i <= last; ++i) {
            writer.line(edits[i], edits[i].type != Edit::Type::Added ? oldBefore + 1 : 0,
                        edits[i].type != Edit::Type::Removed ? newBefore + 1 : 0);
            advance(i + 1);
        }
        change = last;
    }
    writer.finish();
    return result;
}

QString LineDiff::unifiedText() const
{
    QString text;
    for (const DiffLine &line : lines) {
        switch (line.kind) {
        case DiffLine::Kind::HunkHeader:
        case DiffLine::Kind::Note: text += line.text; break;
        case DiffLine::Kind::Context: text += u' ' + line.text; break;
        case DiffLine::Kind::Added: text += u'+' + line.text; break;
        case DiffLine::Kind::Removed: text += u'-' + line.text; break;
        }
        text += u'\n';
    }
    return text;
}

} // namespace Loopscope
