#include "ui/chat/textblockview.h"

#include <QAbstractTextDocumentLayout>
#include <QDesktopServices>
#include <QScrollBar>
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
    document()->setDocumentMargin(0);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &TextBlockView::fitHeight);
    fitHeight();
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
