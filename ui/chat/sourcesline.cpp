#include "ui/chat/sourcesline.h"

#include "ui/trace/retrievalview.h"
#include "ui/trace/sourceviewer.h"

#include <QStringList>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

SourcesLine::SourcesLine(QWidget *parent)
    : QLabel(parent)
    , m_opener([this](const RetrievalHit &hit) { SourceViewer::showIn(m_viewer, window(), hit); })
{
    setAccessibleName(tr("Sources"));
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    setForegroundRole(QPalette::PlaceholderText);
    setVisible(false);
    connect(this, &QLabel::linkActivated, this, &SourcesLine::onLinkActivated);
}

void SourcesLine::setSources(const QList<RetrievalHit> &sources)
{
    if (sources == m_sources)
        return;
    m_sources = sources;
    QStringList links;
    QStringList paths;
    for (int i = 0; i < sources.size(); ++i) {
        const RetrievalHit &hit = sources.at(i);
        links.append(u"<a href=\"%1\">%2</a>"_s.arg(RetrievalView::hitUrl(i).toString().toHtmlEscaped(),
                                                    RetrievalView::placeText(hit).toHtmlEscaped()));
        paths.append(hit.path);
    }
    //: Under an answer: the passages of the user's documents it drew on, each a link
    setText(tr("Sources: %1").arg(links.join(u" · "_s)));
    setToolTip(paths.join(u'\n'));
    setVisible(!sources.isEmpty());
}

void SourcesLine::openSource(int index)
{
    if (index < 0 || index >= m_sources.size() || !m_opener)
        return;
    m_opener(m_sources.at(index));
}

SourceViewer *SourcesLine::viewer() const
{
    return m_viewer;
}

void SourcesLine::onLinkActivated(const QString &link)
{
    openSource(RetrievalView::hitIndex(QUrl(link)));
}

} // namespace Loopscope::Ui
