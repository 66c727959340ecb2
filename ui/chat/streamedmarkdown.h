#pragma once

#include <QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QTextDocument;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    Keeps a QTextDocument in step with a Markdown text that grows, as a
    streamed answer does. Rendering the whole text again for every batch
    costs in proportion to its length, so an answer costs the square of it;
    instead the finished top-level blocks (see lastMarkdownBlockStart()) stay
    rendered, and each batch replaces only the open last block. The document
    lays out only what changed. Text that does not extend the rendered text
    is rendered from scratch.
*/
class StreamedMarkdown final
{
public:
    // \a style is applied to each newly rendered part (e.g. table borders).
    using Styler = std::function<void(QTextDocument *)>;

    explicit StreamedMarkdown(QTextDocument *document, Styler style = {});

    void setMarkdown(const QString &markdown);
    QString markdown() const { return m_markdown; }

    // How often the whole text was rendered from scratch (for tests).
    int fullRenders() const { return m_fullRenders; }

private:
    void append(QStringView markdown);

    QTextDocument *m_document;
    Styler m_style;
    QString m_markdown;
    qsizetype m_openBlockSource = 0; // where the open block starts in m_markdown
    int m_openBlockPosition = 0;     // and in the document
    int m_fullRenders = 0;
    bool m_started = false;
};

} // namespace Loopscope::Ui
