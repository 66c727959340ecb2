#include "agent/tools/linediff.h"

#include <QCoreApplication>

#include <dtl/dtl.hpp>

#include <vector>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// Changed lines (old and new) beyond which no alignment is searched for: an O(ND) search over
// tens of thousands of wholly different lines would keep the approval waiting.
constexpr int MaxAlignedLines = 20'000;

struct LineDiffText
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::LineDiff)
};

// Lines keep their line break, so that "last line without one" differs from
// the same line with one, as in diff(1).
std::vector<QString> splitKeepingBreaks(const QString &text)
{
    std::vector<QString> lines;
    qsizetype start = 0;
    while (start < text.size()) {
        const qsizetype end = text.indexOf(u'\n', start);
        if (end < 0) {
            lines.push_back(text.mid(start));
            break;
        }
        lines.push_back(text.mid(start, end - start + 1));
        start = end + 1;
    }
    return lines;
}

struct Edit
{
    dtl::edit_t type = dtl::SES_COMMON;
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
        case dtl::SES_ADD: add({DiffLine::Kind::Added, text, 0, newLine}); break;
        case dtl::SES_DELETE: add({DiffLine::Kind::Removed, text, oldLine, 0}); break;
        default: add({DiffLine::Kind::Context, text, oldLine, newLine}); break;
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

    const std::vector<QString> oldLines = splitKeepingBreaks(before);
    const std::vector<QString> newLines = splitKeepingBreaks(after);
    // The lines both texts start and end with are common without a search; only the middle is
    // aligned, which keeps a small edit of a large file fast.
    const size_t limit = std::min(oldLines.size(), newLines.size());
    size_t prefix = 0;
    while (prefix < limit && oldLines[prefix] == newLines[prefix])
        ++prefix;
    size_t suffix = 0;
    while (suffix < limit - prefix
           && oldLines[oldLines.size() - 1 - suffix] == newLines[newLines.size() - 1 - suffix])
        ++suffix;
    const std::vector<QString> oldMiddle(oldLines.begin() + qsizetype(prefix),
                                         oldLines.end() - qsizetype(suffix));
    const std::vector<QString> newMiddle(newLines.begin() + qsizetype(prefix),
                                         newLines.end() - qsizetype(suffix));

    std::vector<Edit> edits;
    edits.reserve(oldLines.size() + newLines.size());
    for (size_t i = 0; i < prefix; ++i)
        edits.push_back({dtl::SES_COMMON, oldLines[i]});
    if (oldMiddle.size() + newMiddle.size() <= size_t(MaxAlignedLines)) {
        dtl::Diff<QString, std::vector<QString>> diff(oldMiddle, newMiddle, /*deletesFirst=*/true);
        // Beyond a few thousand edit coordinates dtl trades a minimal script for bounded memory.
        diff.enableHuge();
        diff.compose();
        for (const auto &[line, info] : diff.getSes().getSequence())
            edits.push_back({info.type, line});
    } else {
        // Too much changed to align in reasonable time: every old line out, every new line in.
        result.approximate = true;
        for (const QString &line : oldMiddle)
            edits.push_back({dtl::SES_DELETE, line});
        for (const QString &line : newMiddle)
            edits.push_back({dtl::SES_ADD, line});
    }
    for (size_t i = oldLines.size() - suffix; i < oldLines.size(); ++i)
        edits.push_back({dtl::SES_COMMON, oldLines[i]});
    for (const Edit &edit : edits) {
        if (edit.type == dtl::SES_ADD)
            ++result.added;
        else if (edit.type == dtl::SES_DELETE)
            ++result.removed;
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
            if (edits[next].type != dtl::SES_ADD)
                ++oldBefore;
            if (edits[next].type != dtl::SES_DELETE)
                ++newBefore;
        }
    };
    for (int change = 0; change < count; ++change) {
        if (edits[change].type == dtl::SES_COMMON)
            continue;
        // Changes closer than twice the context share a hunk.
        int lastChange = change;
        for (int i = change + 1; i < count && i - lastChange <= 2 * contextLines + 1; ++i) {
            if (edits[i].type != dtl::SES_COMMON)
                lastChange = i;
        }
        const int first = std::max(next, change - contextLines);
        const int last = std::min(count - 1, lastChange + contextLines);
        advance(first);
        int oldCount = 0;
        int newCount = 0;
        for (int i = first; i <= last; ++i) {
            oldCount += edits[i].type != dtl::SES_ADD;
            newCount += edits[i].type != dtl::SES_DELETE;
        }
        writer.header(oldCount > 0 ? oldBefore + 1 : oldBefore, oldCount,
                      newCount > 0 ? newBefore + 1 : newBefore, newCount);
        for (int i = first; i <= last; ++i) {
            writer.line(edits[i], edits[i].type != dtl::SES_ADD ? oldBefore + 1 : 0,
                        edits[i].type != dtl::SES_DELETE ? newBefore + 1 : 0);
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
