#include "agent/knowledge/knowledgechunker.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// Where a line stands in the document's structure: may a passage begin before it?
enum class Break {
    Inside,    // only if the window forces it
    Paragraph, // a good place: the line starts a paragraph or a code block
    Heading,   // always: a heading starts a new passage
};

struct Line
{
    QStringView text;
    int tokens = 0;
    Break before = Break::Inside;
    bool blank = false;
};

bool isFence(QStringView line)
{
    const QStringView trimmed = line.trimmed();
    return trimmed.startsWith(u"```") || trimmed.startsWith(u"~~~");
}

// An ATX heading: up to three spaces, one to six '#', then a space or the end of the line.
bool isHeading(QStringView line)
{
    qsizetype at = 0;
    while (at < line.size() && at < 3 && line[at] == u' ')
        ++at;
    const qsizetype hashes = at;
    while (at < line.size() && line[at] == u'#')
        ++at;
    const qsizetype count = at - hashes;
    return count >= 1 && count <= 6 && (at == line.size() || line[at].isSpace());
}

QList<Line> classify(const QString &text, KnowledgeChunker::Kind kind)
{
    QList<Line> lines;
    bool inFence = false;
    bool previousBlank = true;
    for (QStringView line : QStringView(text).split(u'\n')) {
        if (line.endsWith(u'\r'))
            line.chop(1);
        Line entry{line, KnowledgeChunker::estimateTokens(line) + 1};
        entry.blank = line.trimmed().isEmpty();
        const bool markdown = kind == KnowledgeChunker::Kind::Markdown;
        if (markdown && isFence(line)) {
            entry.before = inFence ? Break::Inside : Break::Paragraph;
            inFence = !inFence;
        } else if (inFence) {
            entry.before = Break::Inside;
        } else if (markdown && isHeading(line)) {
            entry.before = Break::Heading;
        } else if (previousBlank && !entry.blank) {
            entry.before = Break::Paragraph;
        }
        // A line after a closing fence starts a new block too.
        if (!inFence && !lines.isEmpty() && markdown && isFence(lines.last().text)
            && entry.before == Break::Inside && !entry.blank)
            entry.before = Break::Paragraph;
        previousBlank = entry.blank && !inFence;
        lines.append(entry);
    }
    // The split of a text ending in a newline gives one empty line too many.
    if (!lines.isEmpty() && lines.last().text.isEmpty())
        lines.removeLast();
    return lines;
}

} // namespace

KnowledgeChunker::KnowledgeChunker(Options options)
    : m_options{qMax(8, options.windowTokens),
                qBound(0, options.overlapTokens, qMax(8, options.windowTokens) / 2)}
{}

KnowledgeChunker::KnowledgeChunker()
    : KnowledgeChunker(Options{})
{}

int KnowledgeChunker::estimateTokens(QStringView text)
{
    return int((text.size() + 3) / 4);
}

QList<KnowledgeChunk> KnowledgeChunker::chunk(const QString &text, Kind kind) const
{
    const QList<Line> lines = classify(text, kind);
    const int window = m_options.windowTokens;
    QList<KnowledgeChunk> chunks;

    // Emits lines [first, last) without their blank edges; a line longer than
    // the window is emitted alone, in window-sized pieces.
    auto emitRange = [&](qsizetype first, qsizetype last) {
        while (first < last && lines[first].blank)
            ++first;
        while (last > first && lines[last - 1].blank)
            --last;
        if (first >= last)
            return;
        if (last - first == 1 && lines[first].tokens > window) {
            const qsizetype pieceChars = qsizetype(window) * 4;
            const QStringView line = lines[first].text;
            for (qsizetype at = 0; at < line.size(); at += pieceChars)
                chunks.append({int(first) + 1, int(first) + 1, line.mid(at, pieceChars).toString()});
            return;
        }
        QString joined;
        for (qsizetype i = first; i < last; ++i) {
            if (i > first)
                joined += u'\n';
            joined += lines[i].text;
        }
        chunks.append({int(first) + 1, int(last), joined});
    };

    qsizetype start = 0;
    while (start < lines.size()) {
        int tokens = 0;
        qsizetype end = start;
        qsizetype lastParagraph = -1; // the latest good break after start
        bool hardBreak = false;
        while (end < lines.size()) {
            const Line &line = lines[end];
            if (end > start && line.before == Break::Heading) {
                hardBreak = true;
                break;
            }
            if (end > start && tokens + line.tokens > window)
                break;
            if (end > start && line.before == Break::Paragraph)
                lastParagraph = end;
            tokens += line.tokens;
            ++end;
        }
        if (hardBreak || end == lines.size()) {
            emitRange(start, end);
            start = end;
            continue;
        }
        // The window is full: end at the last paragraph if that keeps at least half of it.
        qsizetype cut = end;
        if (lastParagraph > start) {
            int kept = 0;
            for (qsizetype i = start; i < lastParagraph; ++i)
                kept += lines[i].tokens;
            if (kept * 2 >= window)
                cut = lastParagraph;
        }
        emitRange(start, cut);
        // The next passage repeats the tail of this one, up to the overlap, and always moves on.
        qsizetype next = cut;
        int overlap = 0;
        while (next - 1 > start && overlap + lines[next - 1].tokens <= m_options.overlapTokens) {
            overlap += lines[next - 1].tokens;
            --next;
        }
        start = next;
    }
    return chunks;
}

} // namespace Loopscope
