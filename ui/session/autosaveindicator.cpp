#include "ui/session/autosaveindicator.h"

#include "agent/session/sessiondocument.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

AutosaveIndicator::AutosaveIndicator(SessionDocument *document, QAction *saveAs, QWidget *parent)
    : QWidget(parent)
    , m_icon(new QLabel(this))
    , m_label(new QLabel(this))
    , m_saveAs(new QToolButton(this))
{
    setObjectName(u"autosaveIndicator"_s);
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning, nullptr, this).pixmap(iconSize));
    m_label->setTextFormat(Qt::PlainText);
    m_saveAs->setText(tr("Save As…"));
    m_saveAs->setToolTip(tr("Save the conversation to a file elsewhere"));
    m_saveAs->setAutoRaise(true);
    connect(m_saveAs, &QToolButton::clicked, saveAs, &QAction::trigger);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_icon);
    layout->addWidget(m_label);
    layout->addWidget(m_saveAs);

    connect(document, &SessionDocument::autosaveErrorChanged, this, &AutosaveIndicator::showError);
    showError(document->autosaveError());
}

void AutosaveIndicator::showError(const QString &error)
{
    // The cause can be long (a path and the system's words): the label keeps its end, where the
    // system's words are, and the tooltip has the whole of it.
    const QString said = tr("Autosave failed: %1").arg(error);
    m_label->setText(m_label->fontMetrics().elidedText(said, Qt::ElideMiddle,
                                                       m_label->fontMetrics().averageCharWidth() * 60));
    const QString tip = tr("Autosave failed: %1\nThe turns since are not in the session library; it is "
                           "tried again on the next change and every few minutes.")
                            .arg(error);
    setToolTip(error.isEmpty() ? QString() : tip);
    setAccessibleName(error.isEmpty() ? QString() : said);
    setVisible(!error.isEmpty());
}

QString AutosaveIndicator::text() const
{
    return isHidden() ? QString() : toolTip();
}

} // namespace Loopscope::Ui
