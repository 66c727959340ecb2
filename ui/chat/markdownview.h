#pragma once

#include "ui/chat/markdownsegments.h"

#include <QList>
#include <QWidget>

#include <memory>

QT_BEGIN_NAMESPACE
class QTextDocument;
class QVBoxLayout;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class CodeBlockView;
class StreamedMarkdown;
class TextBlockView;

/*!
    A message's text as a column of widgets: prose rendered by QTextDocument's
    Markdown reader, fenced code as CodeBlockViews. Setting new text renders
    only the segments that changed, so a streaming answer updates its last
    paragraph instead of the whole message: no flicker, no jump. Text that
    extends the previous text (a stream) is split from the last segment on,
    and its prose rendered from the last open block on (StreamedMarkdown), so
    each batch costs about the same however long the answer grew.
*/
class MarkdownView final : public QWidget
{
    Q_OBJECT

public:
    enum class Format { Markdown, PlainText };

    explicit MarkdownView(Format format = Format::Markdown, QWidget *parent = nullptr);

    void setText(const QString &text);
    QString text() const { return m_text; }

    QList<CodeBlockView *> codeBlocks() const;
    QList<TextBlockView *> proseBlocks() const;
    // How often a segment's widget was (re)rendered: streaming should keep this low.
    int renderCount() const { return m_renderCount; }

protected:
    void changeEvent(QEvent *event) override;

private:
    struct Part
    {
        MarkdownSegment segment;
        qsizetype start = 0; // in m_text
        QWidget *widget = nullptr;
        std::shared_ptr<StreamedMarkdown> prose; // Markdown prose only
    };

    QWidget *createWidget(Part &part);
    void render(const Part &part);
    void styleTables(QTextDocument *document) const;

    Format m_format;
    QString m_text;
    QList<Part> m_parts;
    QVBoxLayout *m_layout;
    int m_renderCount = 0;
};

} // namespace Loopscope::Ui
