#pragma once

#include "agent/trace/tracenode.h"
#include "ui/trace/sourceopener.h"

#include <QLabel>
#include <QList>
#include <QPointer>

namespace Loopscope::Ui {

class SourceViewer;

/*!
    Under an answer, the passages of the user's documents it drew on: "Sources:"
    and each passage's file and lines as a link that shows the passage in its
    file (SourceViewer, at its lines, as the trace's Retrieval details do; its
    "Open in Default App" hands the file to the desktop). Hidden while there
    are none.
*/
class SourcesLine final : public QLabel
{
    Q_OBJECT

public:
    explicit SourcesLine(QWidget *parent = nullptr);

    void setSources(const QList<RetrievalHit> &sources);
    const QList<RetrievalHit> &sources() const { return m_sources; }
    // What a click on a source does; by default a SourceViewer shows it at its lines.
    void setOpener(PassageOpener opener) { m_opener = std::move(opener); }
    // Opens source \a index, as a click on its link does.
    void openSource(int index);
    // The viewer the last click opened (one for the line, reused); nullptr before one or once closed.
    SourceViewer *viewer() const;

private:
    void onLinkActivated(const QString &link);

    QList<RetrievalHit> m_sources;
    PassageOpener m_opener;
    QPointer<SourceViewer> m_viewer;
};

} // namespace Loopscope::Ui
