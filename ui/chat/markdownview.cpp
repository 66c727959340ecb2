#include "ui/chat/markdownview.h"

#include "ui/chat/chatsurface.h"
#include "ui/chat/codeblockview.h"
#include "ui/chat/streamedmarkdown.h"
#include "ui/chat/textblockview.h"

#include <QEvent>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QVBoxLayout>

namespace Loopscope::Ui {

MarkdownView::MarkdownView(Format format, QWidget *parent)
    : QWidget(parent)
    , m_format(format)
    , m_layout(new QVBoxLayout(this))
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    // It paints nothing itself; as a stream makes it taller, only its new area needs painting.
    setAttribute(Qt::WA_StaticContents);
    m_layout->setContentsMargins(0, 0, 0, 0);
    // A streaming block grows first and this view after it: laid out in its old
    // height, the blocks above it would be squeezed up and moved back on every
    // batch, each move a repaint. Growing to fit at once keeps them where they are.
    m_layout->setSizeConstraint(QLayout::SetMinimumSize);
    m_layout->setSpacing(chatSpacing(this, 0.5));
}

void MarkdownView::setText(const QString &text)
{
    if (text == m_text && !m_parts.isEmpty())
        return;
    // A stream: the segments before the last one stay as they are.
    const bool extends = m_format == Format::Markdown && !m_parts.isEmpty() && text.startsWith(m_text);
    const qsizetype first = extends ? m_parts.size() - 1 : 0;
    const qsizetype from = extends ? m_parts.constLast().start : 0;
    m_text = text;

    QList<MarkdownSegment> segments;
    QList<qsizetype> starts;
    if (m_format == Format::PlainText) {
        segments.append({MarkdownSegment::Kind::Prose, text, {}, true});
        starts.append(0);
    } else {
        segments = splitMarkdown(QStringView(text).mid(from), &starts);
    }

    for (qsizetype s = 0; s < segments.size(); ++s) {
        const qsizetype i = first + s;
        const MarkdownSegment &segment = segments.at(s);
        const qsizetype start = from + starts.at(s);
        if (i < m_parts.size() && m_parts.at(i).segment.kind == segment.kind) {
            m_parts[i].start = start;
            if (m_parts.at(i).segment != segment) {
                m_parts[i].segment = segment;
                render(m_parts.at(i));
            }
            continue;
        }
        if (i < m_parts.size()) { // the kind changed, e.g. a fence just opened
            delete m_parts.at(i).widget;
            m_parts.removeAt(i);
        }
        Part part{segment, start, nullptr, {}};
        part.widget = createWidget(part);
        m_layout->insertWidget(int(i), part.widget);
        render(part);
        m_parts.insert(i, part);
    }
    while (m_parts.size() > first + segments.size())
        delete m_parts.takeLast().widget;
}

QWidget *MarkdownView::createWidget(Part &part)
{
    if (part.segment.kind == MarkdownSegment::Kind::Code)
        return new CodeBlockView(this);
    auto *prose = new TextBlockView(this);
    prose->setAccessibleName(tr("Message text"));
    // Lines break between words only: a URL stays whole rather than split mid-address.
    prose->setWordWrapMode(QTextOption::WordWrap);
    if (m_format == Format::Markdown) {
        part.prose = std::make_shared<StreamedMarkdown>(
            prose->document(), [this](QTextDocument *document) { styleTables(document); });
    }
    return prose;
}

void MarkdownView::render(const Part &part)
{
    ++m_renderCount;
    if (auto *code = qobject_cast<CodeBlockView *>(part.widget)) {
        code->setCode(part.segment.text, part.segment.language);
        return;
    }
    if (part.prose)
        part.prose->setMarkdown(part.segment.text);
    else
        static_cast<TextBlockView *>(part.widget)->setPlainText(part.segment.text);
}

// Qt's Markdown tables come with spaced double borders; a single line in the
// palette's own colour reads better.
void MarkdownView::styleTables(QTextDocument *document) const
{
    QList<QTextFrame *> frames = document->rootFrame()->childFrames();
    while (!frames.isEmpty()) {
        QTextFrame *frame = frames.takeFirst();
        frames += frame->childFrames();
        auto *table = qobject_cast<QTextTable *>(frame);
        if (!table)
            continue;
        QTextTableFormat format = table->format();
        format.setBorderCollapse(true);
        format.setBorder(1);
        format.setBorderStyle(QTextFrameFormat::BorderStyle_Solid);
        format.setBorderBrush(surfaceBorder(ChatSurface::Card, palette()));
        format.setCellSpacing(0);
        format.setCellPadding(std::max(2, fontMetrics().height() / 5));
        table->setFormat(format);
    }
}

void MarkdownView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) {
        for (TextBlockView *prose : proseBlocks())
            styleTables(prose->document());
    }
}

QList<CodeBlockView *> MarkdownView::codeBlocks() const
{
    QList<CodeBlockView *> blocks;
    for (const Part &part : m_parts) {
        if (auto *code = qobject_cast<CodeBlockView *>(part.widget))
            blocks.append(code);
    }
    return blocks;
}

QList<TextBlockView *> MarkdownView::proseBlocks() const
{
    QList<TextBlockView *> blocks;
    for (const Part &part : m_parts) {
        if (auto *prose = qobject_cast<TextBlockView *>(part.widget))
            blocks.append(prose);
    }
    return blocks;
}

} // namespace Loopscope::Ui
