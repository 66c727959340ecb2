#include "ui/trace/retrievalview.h"

#include "ui/trace/sourceviewer.h"

#include <QFileInfo>
#include <QLocale>
#include <QStringList>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

constexpr QLatin1StringView HitScheme{"hit"};

QString number(double value, int precision)
{
    return QLocale().toString(value, 'g', precision);
}

} // namespace

RetrievalView::RetrievalView(QWidget *parent)
    : QTextBrowser(parent)
    , m_opener([this](const RetrievalHit &hit) { showInViewer(hit); })
{
    setAccessibleName(tr("Passages found"));
    setOpenLinks(false);
    setOpenExternalLinks(false);
    connect(this, &QTextBrowser::anchorClicked, this, &RetrievalView::onAnchorClicked);
}

QString RetrievalView::placeText(const RetrievalHit &hit)
{
    const QString file = QFileInfo(hit.path).fileName();
    if (hit.page)
        //: Where a passage is: a PDF's name and its page
        return tr("%1, p. %2").arg(file, QLocale().toString(*hit.page));
    if (hit.startLine <= 0)
        return file;
    if (hit.endLine <= hit.startLine)
        //: Where a passage is: the file's name and its line
        return tr("%1, line %2").arg(file, QLocale().toString(hit.startLine));
    //: Where a passage is: the file's name and its first and last lines
    return tr("%1, lines %2–%3")
        .arg(file, QLocale().toString(hit.startLine), QLocale().toString(hit.endLine));
}

QString RetrievalView::scoreText(const RetrievalHit &hit)
{
    QStringList scores{tr("BM25 %1").arg(number(hit.bm25, 4))};
    if (hit.cosine)
        scores.append(tr("cosine %1").arg(number(*hit.cosine, 3)));
    if (hit.fused)
        scores.append(tr("fused %1").arg(number(*hit.fused, 3)));
    return scores.join(u" · "_s);
}

QUrl RetrievalView::hitUrl(int index)
{
    QUrl url;
    url.setScheme(HitScheme);
    url.setPath(QString::number(index));
    return url;
}

int RetrievalView::hitIndex(const QUrl &url)
{
    bool ok = false;
    const int index = url.path().toInt(&ok);
    return url.scheme() == HitScheme && ok ? index : -1;
}

void RetrievalView::setRetrieval(const RetrievalData &retrieval)
{
    if (retrieval == m_retrieval && !document()->isEmpty())
        return;
    m_retrieval = retrieval;
    QString html;
    if (!retrieval.error.isEmpty())
        html += u"<p><b>%1</b></p>"_s.arg(tr("Not searched: %1").arg(retrieval.error).toHtmlEscaped());
    if (retrieval.hits.isEmpty())
        html += u"<p>%1</p>"_s.arg(
            tr("No passage shares a word with \"%1\".").arg(retrieval.query).toHtmlEscaped());
    for (int i = 0; i < retrieval.hits.size(); ++i) {
        const RetrievalHit &hit = retrieval.hits.at(i);
        QStringList facts{scoreText(hit)};
        if (!hit.base.isEmpty())
            facts.prepend(tr("knowledge base %1").arg(hit.base));
        html += u"<p><b>%1.</b> <a href=\"%2\" title=\"%3\">%4</a><br><small>%5</small></p>"_s.arg(
            QString::number(i + 1), hitUrl(i).toString().toHtmlEscaped(), hit.path.toHtmlEscaped(),
            placeText(hit).toHtmlEscaped(), facts.join(u" · "_s).toHtmlEscaped());
        html += u"<pre style=\"white-space: pre-wrap\">%1</pre>"_s.arg(hit.text.toHtmlEscaped());
    }
    setHtml(html);
}

void RetrievalView::onAnchorClicked(const QUrl &url)
{
    const int index = hitIndex(url);
    if (index < 0 || index >= m_retrieval.hits.size() || !m_opener)
        return;
    const RetrievalHit &hit = m_retrieval.hits.at(index);
    m_opener(hit);
}

void RetrievalView::showInViewer(const RetrievalHit &hit)
{
    SourceViewer::showIn(m_viewer, window(), hit);
}

} // namespace Loopscope::Ui
