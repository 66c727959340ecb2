#include "ui/chat/diffview.h"

#include <QFontDatabase>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

class DiffView::Gutter final : public QWidget
{
public:
    explicit Gutter(DiffView *view)
        : QWidget(view)
        , m_view(view)
    {}
    QSize sizeHint() const override { return {m_view->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_view->paintGutter(event); }

private:
    DiffView *m_view;
};

namespace {

QChar markOf(DiffLine::Kind kind)
{
    switch (kind) {
    case DiffLine::Kind::Added: return u'+';
    case DiffLine::Kind::Removed: return u'-';
    case DiffLine::Kind::Context: return u' ';
    case DiffLine::Kind::HunkHeader:
    case DiffLine::Kind::Note: break;
    }
    return {};
}

QString number(int value, int width)
{
    return (value > 0 ? QString::number(value) : QString()).rightJustified(width, u' ');
}

} // namespace

DiffView::DiffView(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    mono.setStyleHint(QFont::Monospace);
    if (font().pointSizeF() > 0)
        mono.setPointSizeF(font().pointSizeF());
    setFont(mono);
    setAccessibleName(tr("Changes"));
    connect(this, &QPlainTextEdit::updateRequest, m_gutter, [this](const QRect &rect, int dy) {
        if (dy != 0)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    updateGutterGeometry();
    fitHeight();
}

void DiffView::setDiff(const LineDiff &diff)
{
    m_diff = diff;
    int largest = 1;
    for (const DiffLine &line : std::as_const(m_diff.lines))
        largest = std::max({largest, line.oldLine, line.newLine});
    m_digits = int(QString::number(largest).size());
    render();
}

void DiffView::render()
{
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    const QColor added = dark ? QColor(46, 160, 67, 70) : QColor(46, 160, 67, 45);
    const QColor removed = dark ? QColor(248, 81, 73, 70) : QColor(248, 81, 73, 45);
    const QColor dim = palette().color(QPalette::PlaceholderText);

    clear();
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    bool first = true;
    for (const DiffLine &line : std::as_const(m_diff.lines)) {
        QTextBlockFormat block;
        QTextCharFormat chars;
        switch (line.kind) {
        case DiffLine::Kind::Added: block.setBackground(added); break;
        case DiffLine::Kind::Removed: block.setBackground(removed); break;
        case DiffLine::Kind::HunkHeader:
        case DiffLine::Kind::Note: chars.setForeground(dim); break;
        case DiffLine::Kind::Context: break;
        }
        if (first)
            cursor.setBlockFormat(block);
        else
            cursor.insertBlock(block);
        first = false;
        const QChar mark = markOf(line.kind);
        cursor.insertText(mark.isNull() ? line.text : QString(mark) + line.text, chars);
    }
    cursor.endEditBlock();
    moveCursor(QTextCursor::Start);
    updateGutterGeometry();
    fitHeight();
}

QString DiffView::gutterText(int line) const
{
    if (line < 0 || line >= m_diff.lines.size())
        return {};
    const DiffLine &diffLine = m_diff.lines.at(line);
    if (diffLine.kind == DiffLine::Kind::HunkHeader || diffLine.kind == DiffLine::Kind::Note)
        return {};
    return number(diffLine.oldLine, m_digits) + u' ' + number(diffLine.newLine, m_digits);
}

void DiffView::setMaxVisibleLines(int lines)
{
    m_maxVisibleLines = std::max(3, lines);
    fitHeight();
}

int DiffView::gutterWidth() const
{
    return fontMetrics().horizontalAdvance(u'9') * (2 * m_digits + 2) + 6;
}

void DiffView::updateGutterGeometry()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
    const QRect contents = contentsRect();
    m_gutter->setGeometry(contents.left(), contents.top(), gutterWidth(), contents.height());
    m_gutter->update();
}

// As tall as the diff, up to the cap; then it scrolls.
void DiffView::fitHeight()
{
    const int lines = std::clamp(int(m_diff.lines.size()), 1, m_maxVisibleLines);
    const int height = lines * fontMetrics().lineSpacing() + int(2 * document()->documentMargin())
                       + 2 * frameWidth() + horizontalScrollBar()->sizeHint().height();
    setFixedHeight(height);
}

void DiffView::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    updateGutterGeometry();
}

void DiffView::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange)
        render();
}

void DiffView::paintGutter(QPaintEvent *event)
{
    QPainter painter(m_gutter);
    painter.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.setFont(font());
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int lineHeight = fontMetrics().height();
    while (block.isValid() && top <= event->rect().bottom()) {
        const int bottom = top + qRound(blockBoundingRect(block).height());
        if (block.isVisible() && bottom >= event->rect().top()) {
            painter.drawText(3, top, m_gutter->width() - 6, lineHeight, Qt::AlignRight,
                             gutterText(block.blockNumber()));
        }
        block = block.next();
        top = bottom;
    }
}

} // namespace Loopscope::Ui
