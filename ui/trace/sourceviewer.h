#pragma once

#include "agent/trace/tracenode.h"
#include "ui/trace/sourceopener.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QPointer>

#include <optional>

QT_BEGIN_NAMESPACE
class QLabel;
class QPlainTextEdit;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    A retrieved passage in its file, read-only: the file's text as indexing
    read it (an HTML file's as text, a PDF's page) scrolled to the passage's
    lines, which are highlighted. Desktop openers cannot go to a line, which is
    why it exists; "Open in default app" still hands the file to the desktop.
    The file is read off the GUI thread, and a file that is gone or changed
    since it was indexed is said so, above the text.
*/
class SourceViewer final : public QDialog
{
    Q_OBJECT

public:
    explicit SourceViewer(QWidget *parent = nullptr);

    // Reads \a hit's file and shows its lines; a newer passage wins over one still being read.
    void showPassage(const RetrievalHit &hit);
    // Shows \a hit in \a viewer, made first (a window of \a parent's, deleted on close) when there is
    // none: what a click on a passage does in the trace's details and under an answer, one viewer each.
    static void showIn(QPointer<SourceViewer> &viewer, QWidget *parent, const RetrievalHit &hit);
    // What "Open in default app" does; by default the desktop opens the file.
    void setOpener(SourceOpener opener) { m_opener = std::move(opener); }

    bool isReading() const { return m_reading; }
    QPlainTextEdit *textView() const { return m_text; }
    // What is said above the text: why it cannot be shown, or that it changed; empty when all is well.
    QString message() const;
    // The lines highlighted, as text; empty when none are.
    QString highlightedText() const;

private:
    struct Read
    {
        std::optional<QString> text;
        QString why;
    };
    void onRead();
    void highlightPassage();
    void say(const QString &message);

    RetrievalHit m_hit;
    QLabel *m_place;
    QLabel *m_message;
    QPlainTextEdit *m_text;
    SourceOpener m_opener;
    QFutureWatcher<Read> m_watcher;
    bool m_reading = false; // until the newest read is shown
};

} // namespace Loopscope::Ui
