#pragma once

#include "agent/trace/tracenode.h"
#include "ui/trace/sourceopener.h"

#include <QPointer>

#include <QTextBrowser>

QT_BEGIN_NAMESPACE
class QUrl;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class SourceViewer;

/*!
    A retrieval's passages as a list people read, best first: each with its
    rank, its file and lines (a link: a click shows the passage in its file,
    SourceViewer), its base and
    why it ranked (BM25, and cosine and fused scores when the base has
    embeddings), then its text. The details pane shows it for a Retrieval step.
*/
class RetrievalView final : public QTextBrowser
{
    Q_OBJECT

public:
    explicit RetrievalView(QWidget *parent = nullptr);

    void setRetrieval(const RetrievalData &retrieval);
    const RetrievalData &retrieval() const { return m_retrieval; }
    // What a click on a passage's file does; by default a SourceViewer shows it at its lines.
    void setOpener(PassageOpener opener) { m_opener = std::move(opener); }

    // "notes/setup.md, lines 3–9" ("report.pdf, p. 4" for a PDF): a hit's link text, here and under an
    // answer in the chat.
    static QString placeText(const RetrievalHit &hit);
    // "BM25 4.21 · cosine 0.83 · fused 0.032": why a hit ranked.
    static QString scoreText(const RetrievalHit &hit);
    // The address of hit \a index, for the links of this view and of the chat's sources.
    static QUrl hitUrl(int index);
    // The hit a link points at; -1 for another address.
    static int hitIndex(const QUrl &url);

private:
    void onAnchorClicked(const QUrl &url);

    RetrievalData m_retrieval;
    void showInViewer(const RetrievalHit &hit);

    PassageOpener m_opener;
    QPointer<SourceViewer> m_viewer; // one for the view, reused
};

} // namespace Loopscope::Ui
