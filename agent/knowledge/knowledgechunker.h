#pragma once

#include <QList>
#include <QString>

namespace Loopscope {

// One passage of a document as the index keeps it: its text and where it came from.
struct KnowledgeChunk
{
    int startLine = 0; // 1-based, inclusive; of the converted text for HTML
    int endLine = 0;
    QString text;
    int page = 0; // 1-based page of a PDF (the lines are the page's); 0 for a document without pages

    bool operator==(const KnowledgeChunk &) const = default;
};

/*!
    Cuts a document into passages a search can return and a model can read:
    breaks go where the document's structure allows them (before a heading,
    between paragraphs, around a fenced code block) and a passage never grows
    past a window of about windowTokens tokens; a passage cut by the window
    repeats the last overlapTokens of the one before it, so that a sentence on
    the cut is whole in one of them. Each passage keeps its line range.
*/
class KnowledgeChunker final
{
public:
    enum class Kind {
        Markdown,  // "#" headings and ``` / ~~~ fences; HTML arrives here as converted text
        PlainText, // paragraphs; also source code, whose blank lines part its functions
    };

    struct Options
    {
        int windowTokens = 256; // about 1,000 characters
        int overlapTokens = 32;
    };

    explicit KnowledgeChunker(Options options);
    KnowledgeChunker();

    QList<KnowledgeChunk> chunk(const QString &text, Kind kind) const;

    // A token is about four characters of English or code; this estimate is what the window counts.
    static int estimateTokens(QStringView text);

private:
    Options m_options;
};

} // namespace Loopscope
