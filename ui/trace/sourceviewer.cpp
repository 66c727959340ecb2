#include "ui/trace/sourceviewer.h"

#include "agent/knowledge/knowledgeindexer.h"
#include "ui/trace/retrievalview.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextBlock>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

// The first line of a passage that says something, its spaces as the chunker may have left them.
QString firstLineOf(const QString &text)
{
    for (const QString &line : text.split(u'\n')) {
        if (const QString simple = line.simplified(); !simple.isEmpty())
            return simple;
    }
    return {};
}

} // namespace

SourceViewer::SourceViewer(QWidget *parent)
    : QDialog(parent)
    , m_place(new QLabel(this))
    , m_message(new QLabel(this))
    , m_text(new QPlainTextEdit(this))
    , m_opener(desktopSourceOpener())
{
    resize(760, 560);
    m_place->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_place->setWordWrap(true);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setAccessibleName(tr("Problem"));
    m_message->hide();
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setAccessibleName(tr("File"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    QPushButton *openElsewhere = buttons->addButton(tr("Open in Default App"), QDialogButtonBox::ActionRole);
    connect(openElsewhere, &QPushButton::clicked, this, [this] {
        if (m_opener)
            m_opener(m_hit.path, m_hit.startLine);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_place);
    layout->addWidget(m_message);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    connect(&m_watcher, &QFutureWatcher<Read>::finished, this, &SourceViewer::onRead);
}

void SourceViewer::showPassage(const RetrievalHit &hit)
{
    m_hit = hit;
    setWindowTitle(RetrievalView::placeText(hit));
    m_place->setText(QDir::toNativeSeparators(hit.path));
    m_text->clear();
    say(tr("Reading the file…"));
    m_reading = true;
    const QString path = hit.path;
    const int page = hit.page.value_or(0);
    // A newer future replaces the watched one: only its finished() arrives.
    m_watcher.setFuture(QtConcurrent::run([path, page] {
        Read read;
        read.text = KnowledgeIndexer::documentText(path, page, &read.why);
        return read;
    }));
}

void SourceViewer::onRead()
{
    const Read read = m_watcher.result();
    m_reading = false;
    if (!read.text) {
        say(tr("The passage cannot be shown in its file: %1. Its text as it was found is in the details "
               "pane.")
                .arg(read.why));
        return;
    }
    say({});
    m_text->setPlainText(*read.text);
    highlightPassage();
}

void SourceViewer::showIn(QPointer<SourceViewer> &viewer, QWidget *parent, const RetrievalHit &hit)
{
    if (!viewer) {
        viewer = new SourceViewer(parent);
        viewer->setAttribute(Qt::WA_DeleteOnClose);
    }
    viewer->showPassage(hit);
    viewer->show();
    viewer->raise();
    viewer->activateWindow();
}

void SourceViewer::highlightPassage()
{
    const int start = m_hit.startLine;
    if (start <= 0)
        return;
    const QTextDocument *document = m_text->document();
    const QTextBlock first = document->findBlockByNumber(start - 1);
    if (!first.isValid()) {
        say(tr("The file changed since it was indexed: it has %1 lines now, and the passage began at line "
               "%2. Re-index the knowledge base to search it as it is.")
                .arg(document->blockCount())
                .arg(start));
        return;
    }
    QTextBlock last = document->findBlockByNumber(std::max(start, m_hit.endLine) - 1);
    if (!last.isValid())
        last = document->lastBlock();
    QTextCursor range(first);
    range.setPosition(last.position() + last.length() - 1, QTextCursor::KeepAnchor);
    QTextEdit::ExtraSelection highlight;
    highlight.cursor = range;
    highlight.format.setBackground(palette().color(QPalette::Highlight));
    highlight.format.setForeground(palette().color(QPalette::HighlightedText));
    m_text->setExtraSelections({highlight});
    // The passage's first line in the middle of the view, the caret on it for keyboard users.
    m_text->setTextCursor(QTextCursor(first));
    m_text->centerCursor();

    const QString expected = firstLineOf(m_hit.text);
    if (!expected.isEmpty()
        && !range.selectedText().replace(QChar::ParagraphSeparator, u'\n').simplified().contains(expected))
        say(tr("The file changed since it was indexed: lines %1–%2 no longer hold the passage found. "
               "Re-index the knowledge base to search it as it is.")
                .arg(start)
                .arg(std::max(start, m_hit.endLine)));
}

QString SourceViewer::message() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

QString SourceViewer::highlightedText() const
{
    const QList<QTextEdit::ExtraSelection> selections = m_text->extraSelections();
    if (selections.isEmpty())
        return {};
    return selections.first().cursor.selectedText().replace(QChar::ParagraphSeparator, u'\n');
}

void SourceViewer::say(const QString &message)
{
    m_message->setText(message);
    m_message->setVisible(!message.isEmpty());
}

} // namespace Loopscope::Ui
