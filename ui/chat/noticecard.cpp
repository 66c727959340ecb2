#include "ui/chat/noticecard.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QStyle::StandardPixmap iconFor(NoticeCard::Severity severity)
{
    switch (severity) {
    case NoticeCard::Severity::Error:
    case NoticeCard::Severity::RetriesFailed: return QStyle::SP_MessageBoxCritical;
    case NoticeCard::Severity::Limit:
    case NoticeCard::Severity::Blocked:
    case NoticeCard::Severity::Retrying:
    case NoticeCard::Severity::ContextFull: return QStyle::SP_MessageBoxWarning;
    case NoticeCard::Severity::Cancelled:
    case NoticeCard::Severity::Compacted:
    case NoticeCard::Severity::Info:
    case NoticeCard::Severity::Recovered: return QStyle::SP_MessageBoxInformation;
    }
    return QStyle::SP_MessageBoxInformation;
}

} // namespace

NoticeCard::NoticeCard(Severity severity, const QString &message, bool retryable, QWidget *parent)
    : ChatItem(Kind::Notice, parent)
    , m_severity(severity)
    , m_message(message)
    , m_retryable(retryable)
    , m_icon(new QLabel(this))
    , m_title(new QLabel(this))
    , m_text(new QLabel(this))
    , m_retry(new QPushButton(tr("Retry"), this))
{
    setSurface(ChatSurface::Notice);
    m_icon->setAlignment(Qt::AlignTop);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::PlainText);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    setNotice(severity, message);

    m_retry->setIcon(QIcon::fromTheme(u"view-refresh"_s));
    m_retry->setAccessibleName(tr("Retry the last message"));
    m_retry->setToolTip(tr("Ask the last question again"));
    m_retry->hide();
    connect(m_retry, &QPushButton::clicked, this, &NoticeCard::retryRequested);

    const int padding = chatSpacing(this, 0.5);
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(padding, padding, padding, padding);
    layout->setHorizontalSpacing(padding);
    layout->setVerticalSpacing(chatSpacing(this, 0.2));
    layout->addWidget(m_icon, 0, 0, 2, 1, Qt::AlignTop);
    layout->addWidget(m_title, 0, 1);
    layout->addWidget(m_text, 1, 1);
    layout->addWidget(m_retry, 0, 2, 2, 1, Qt::AlignVCenter);
    layout->setColumnStretch(1, 1);
}

QString NoticeCard::title() const
{
    return titleFor(m_severity);
}

QString NoticeCard::plainText() const
{
    return m_message.isEmpty() ? title() : title() + u": "_s + m_message;
}

void NoticeCard::setNotice(Severity severity, const QString &message)
{
    m_severity = severity;
    m_message = message;
    setAccessibleName(titleFor(severity));
    setAccessibleDescription(message);
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(iconFor(severity), nullptr, this).pixmap(iconSize));
    m_title->setText(titleFor(severity));
    m_text->setText(message);
    m_text->setVisible(!message.isEmpty());
}

void NoticeCard::setRetryAvailable(bool available)
{
    m_retryAvailable = available;
    m_retry->setVisible(m_retryable && available);
}

QString NoticeCard::titleFor(Severity severity)
{
    switch (severity) {
    case Severity::Error: return tr("The turn failed");
    case Severity::Limit: return tr("A limit was reached");
    case Severity::Cancelled: return tr("Cancelled");
    case Severity::Blocked: return tr("Blocked by a safety check");
    case Severity::Info: return tr("Note");
    case Severity::Retrying: return tr("Retrying");
    case Severity::Recovered: return tr("Recovered by retrying");
    case Severity::RetriesFailed: return tr("Retrying did not help");
    case Severity::ContextFull: return tr("Context nearly full");
    case Severity::Compacted: return tr("Earlier messages compacted");
    }
    return {};
}

} // namespace Loopscope::Ui
