#include "ui/chat/streamedmarkdown.h"

#include "ui/chat/markdownblocks.h"

#include <QTextCursor>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QTextList>

namespace Loopscope::Ui {

StreamedMarkdown::StreamedMarkdown(QTextDocument *document, Styler style)
    : m_document(document)
    , m_style(std::move(style))
{}

void StreamedMarkdown::setMarkdown(const QString &markdown)
{
    // The finished blocks stay if the text still starts with them and with
    // the line after them, which decided that they were finished.
    qsizetype kept = m_openBlockSource;
    if (kept > 0) {
        const qsizetype lineEnd = m_markdown.indexOf(u'\n', kept);
        kept = lineEnd < 0 ? m_markdown.size() : lineEnd + 1;
    }
    // One edit: the document is laid out once, when the new text is in. Laid
    // out after the removal too, its view would shrink by the open block and
    // grow again, and everything around it would move twice per batch.
    QTextCursor edit(m_document);
    edit.beginEditBlock();
    if (!m_started || !markdown.startsWith(QStringView(m_markdown).left(kept))) {
        m_started = true;
        m_document->clear();
        m_openBlockSource = 0;
        m_openBlockPosition = 0;
        ++m_fullRenders;
    } else {
        QTextCursor cursor(m_document);
        cursor.setPosition(m_openBlockPosition);
        cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    }
    m_markdown = markdown;

    const qsizetype openBlock = lastMarkdownBlockStart(markdown, m_openBlockSource);
    if (openBlock > m_openBlockSource)
        append(QStringView(markdown).mid(m_openBlockSource, openBlock - m_openBlockSource));
    m_openBlockSource = openBlock;
    m_openBlockPosition = m_document->characterCount() - 1;
    append(QStringView(markdown).mid(openBlock));
    edit.endEditBlock();
}

// Renders on a scratch document and copies the result to the end, in
// paragraphs of its own. A copied fragment's first block merges into the
// block at the cursor and loses its own format (a heading's level, a list
// item's list), so the part starts with an empty paragraph that merges into
// the document's last block without changing it.
void StreamedMarkdown::append(QStringView markdown)
{
    if (m_document->isEmpty()) {
        // The importer inserts piece by piece, and a document that has a
        // layout lays out all it has after each piece: one edit block makes
        // that a single layout at the end.
        QTextCursor edit(m_document);
        edit.beginEditBlock();
        m_document->setMarkdown(markdown.toString());
        edit.endEditBlock();
        if (m_style)
            m_style(m_document);
        return;
    }
    QTextDocument part;
    part.setMarkdown(markdown.toString());
    if (part.isEmpty())
        return;
    if (m_style)
        m_style(&part);
    // A part that starts with a table or a rule has that empty paragraph already.
    const QTextBlock first = part.begin();
    const QTextBlockFormat format = first.blockFormat();
    const bool startsEmpty = first.length() == 1 && !first.textList() && format.headingLevel() == 0
                             && !format.hasProperty(QTextFormat::BlockTrailingHorizontalRulerWidth)
                             && !format.hasProperty(QTextFormat::BlockQuoteLevel);
    if (!startsEmpty) {
        QTextCursor cursor(&part);
        cursor.insertBlock(first.blockFormat(), first.charFormat());
        cursor.movePosition(QTextCursor::Start);
        if (QTextList *list = cursor.block().textList())
            list->remove(cursor.block());
        cursor.setBlockFormat(QTextBlockFormat());
        cursor.setBlockCharFormat(QTextCharFormat());
    }
    QTextCursor cursor(m_document);
    cursor.movePosition(QTextCursor::End);
    cursor.insertFragment(QTextDocumentFragment(&part));
}

} // namespace Loopscope::Ui
