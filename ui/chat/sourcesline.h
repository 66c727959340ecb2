#pragma once

#include "agent/trace/tracenode.h"
#include "ui/trace/sourceopener.h"

#include <QLabel>
#include <QList>

namespace Loopscope::Ui {

/*!
    Under an answer, the passages of the user's documents it drew on: "Sources:"
    and each passage's file and lines as a link that opens the file. Hidden
    while there are none.
*/
class SourcesLine final : public QLabel
{
    Q_OBJECT

public:
    explicit SourcesLine(QWidget *parent = nullptr);

    void setSources(const QList<RetrievalHit> &sources);
    const QList<RetrievalHit> &sources() const { return m_sources; }
    // What a click on a source does; by default the desktop opens the file.
    void setOpener(SourceOpener opener) { m_opener = std::move(opener); }
    // Opens source \a index, as a click on its link does.
    void openSource(int index);

private:
    void onLinkActivated(const QString &link);

    QList<RetrievalHit> m_sources;
    SourceOpener m_opener;
};

} // namespace Loopscope::Ui
