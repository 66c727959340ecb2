#include "ui/chat/textblockview.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QWheelEvent>

#include <cmath>

namespace Loopscope::Ui {

TextBlockView::TextBlockView(QWidget *parent)
    : QTextBrowser(parent)
{
    setFrameShape(QFrame::NoFrame);
    setReadOnly(true);
    // Links open in the browser; a relative one must not replace the text.
    setOpenLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, [](const QUrl &url) {
        if (url.scheme() == u"http" || url.scheme() == u"https" || url.scheme() == u"mailto")
            QDesktopServices::openUrl(url);
    });
    setTextInteractionFlags(Qt::TextBrowserInteraction | Qt::TextSelectableByKeyboard);
    // Wrapped text needs none, but a table wider than the view keeps its last column in reach.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizeAdjustPolicy(QAbstractScrollArea::AdjustIgnored);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    // The item behind it paints the surface; the text sits on it.
    viewport()->setAutoFillBackground(false);
    // Text is laid out from the top left: a block that grows (a streaming answer)
    // repaints its new lines and what the document says changed, not all of itself.
    setAttribute(Qt::WA_StaticContents);
    viewport()->setAttribute(Qt::WA_StaticContents);
    document()->setDocumentMargin(0);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &TextBlockView::fitHeight);
    connect(document(), &QTextDocument::contentsChange, this, &TextBlockView::keepShapedGlyphs);
    fitHeight();
}

// Qt shapes a block's text (HarfBuzz) when it lays the block out and drops the
// glyphs again after the layout and after each paint, to save memory. A chat
// repaints the text around a streaming answer up to 60 times a second, and
// shaping it anew each time was most of the window's cost per token. The
// glyphs of a block cost a few bytes per character; keep them.
void TextBlockView::keepShapedGlyphs(int position, int removed, int added)
{
    Q_UNUSED(removed)
    const QTextDocument *text = document();
    for (QTextBlock block = text->findBlock(position);
         block.isValid() && block.position() <= position + added; block = block.next()) {
        block.layout()->setCacheEnabled(true);
    }
}

void TextBlockView::setWrapped(bool wrapped)
{
    setLineWrapMode(wrapped ? QTextEdit::WidgetWidth : QTextEdit::NoWrap);
    fitHeight();
}

void TextBlockView::setMaximumLines(int lines)
{
    m_maximumLines = std::max(0, lines);
    fitHeight();
}

QSize TextBlockView::sizeHint() const
{
    return {QTextBrowser::sizeHint().width(), height()};
}

QSize TextBlockView::minimumSizeHint() const
{
    return {fontMetrics().averageCharWidth() * 8, height()};
}

void TextBlockView::fitHeight()
{
    const QSizeF documentSize = document()->documentLayout()->documentSize();
    int textHeight = int(std::ceil(documentSize.height()));
    bool capped = false;
    if (m_maximumLines > 0) {
        const int cap = fontMetrics().lineSpacing() * m_maximumLines;
        capped = textHeight > cap;
        textHeight = std::min(textHeight, cap);
    }
    setVerticalScrollBarPolicy(capped ? Qt::ScrollBarAsNeeded : Qt::ScrollBarAlwaysOff);

    const QMargins margins = viewportMargins() + contentsMargins();
    int height = std::max(textHeight, fontMetrics().lineSpacing()) + 2 * frameWidth() + margins.top()
                 + margins.bottom();
    // Unwrapped lines, or a table too wide to wrap, scroll sideways.
    if (documentSize.width() > viewport()->width())
        height += horizontalScrollBar()->sizeHint().height();
    if (height != this->height())
        setFixedHeight(height);
}

void TextBlockView::wheelEvent(QWheelEvent *event)
{
    const QPoint delta = event->angleDelta();
    const bool vertical = std::abs(delta.y()) >= std::abs(delta.x());
    if (vertical && verticalScrollBar()->maximum() == 0) {
        event->ignore(); // the chat scrolls
        return;
    }
    QTextBrowser::wheelEvent(event);
}

// Without wrapping the text keeps its size, but whether it needs a scroll bar
// depends on the width.
void TextBlockView::resizeEvent(QResizeEvent *event)
{
    QTextBrowser::resizeEvent(event);
    fitHeight();
}

void TextBlockView::changeEvent(QEvent *event)
{
    QTextBrowser::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        fitHeight();
}

} // namespace Loopscope::Ui
