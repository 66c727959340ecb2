#include "ui/chat/messagewidget.h"

#include "ui/chat/attachmentchip.h"
#include "ui/chat/markdownview.h"
#include "ui/chat/sourcesline.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QToolButton *actionButton(const QString &text, const QString &icon, const QString &toolTip, QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setText(text);
    button->setToolTip(toolTip);
    button->setAccessibleName(toolTip);
    button->setIcon(QIcon::fromTheme(icon));
    button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    button->setAutoRaise(true);
    return button;
}

} // namespace

MessageWidget::MessageWidget(Role role, QWidget *parent)
    : ChatItem(role == Role::User ? Kind::UserMessage : Kind::AssistantMessage, parent)
    , m_role(role)
    , m_author(new QLabel(role == Role::User ? tr("You") : tr("Assistant"), this))
    , m_markdown(new MarkdownView(
          role == Role::User ? MarkdownView::Format::PlainText : MarkdownView::Format::Markdown, this))
    , m_sources(new SourcesLine(this))
    , m_chipRow(new QWidget(this))
    , m_chipLayout(new QHBoxLayout(m_chipRow))
    , m_copy(actionButton(tr("Copy"), u"edit-copy"_s, tr("Copy the message"), this))
    , m_lastAction(role == Role::User
                       ? actionButton(tr("Edit"), u"document-edit"_s, tr("Edit and resend the message"), this)
                       : actionButton(tr("Regenerate"), u"view-refresh"_s, tr("Ask for a new answer"), this))
{
    setSurface(role == Role::User ? ChatSurface::UserMessage : ChatSurface::None);
    setAccessibleName(role == Role::User ? tr("Your message") : tr("Assistant message"));

    QFont authorFont = m_author->font();
    authorFont.setBold(true);
    m_author->setFont(authorFont);
    m_author->setForegroundRole(QPalette::PlaceholderText);

    m_lastAction->hide();
    connect(m_copy, &QToolButton::clicked, this, &MessageWidget::copyToClipboard);
    connect(m_lastAction, &QToolButton::clicked, this, [this] {
        if (m_role == Role::User)
            emit editRequested(text());
        else
            emit regenerateRequested();
    });

    // Who speaks on the left, what can be done with it on the right.
    auto *header = new QHBoxLayout;
    header->setContentsMargins(0, 0, 0, 0);
    header->setSpacing(chatSpacing(this, 0.25));
    header->addWidget(m_author);
    header->addStretch(1);
    header->addWidget(m_lastAction);
    header->addWidget(m_copy);

    const int padding = chatSpacing(this, 0.6);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(padding, padding / 3, padding, padding);
    layout->setSpacing(chatSpacing(this, 0.2));
    layout->addLayout(header);
    layout->addWidget(m_markdown);
    layout->addWidget(m_sources);
    layout->addWidget(m_chipRow);

    m_chipLayout->setContentsMargins(0, 0, 0, 0);
    m_chipLayout->setSpacing(chatSpacing(this, 0.25));
    m_chipLayout->addStretch(1);
    m_chipRow->hide();
}

void MessageWidget::setAgent(const QString &agent)
{
    if (m_role != Role::Assistant || agent == m_agent)
        return;
    m_agent = agent;
    m_author->setText(agent.isEmpty() ? tr("Assistant") : agent);
    setAccessibleName(agent.isEmpty() ? tr("Assistant message") : tr("Message of the agent %1").arg(agent));
}

void MessageWidget::setSources(const QList<RetrievalHit> &sources)
{
    m_sources->setSources(sources);
}

void MessageWidget::setAttachments(const QList<Attachment> &attachments)
{
    qDeleteAll(std::exchange(m_chips, {}));
    m_attachments = attachments;
    for (const Attachment &attachment : attachments) {
        auto *chip = new AttachmentChip(attachment, QString(), false, m_chipRow);
        m_chipLayout->insertWidget(m_chipLayout->count() - 1, chip); // before the stretch
        m_chips.append(chip);
    }
    m_chipRow->setVisible(!attachments.isEmpty());
}

void MessageWidget::setText(const QString &text)
{
    m_markdown->setText(text);
}

QString MessageWidget::text() const
{
    return m_markdown->text();
}

void MessageWidget::setLastActionAvailable(bool available)
{
    m_lastActionAvailable = available;
    m_lastAction->setVisible(available);
}

void MessageWidget::copyToClipboard()
{
    QGuiApplication::clipboard()->setText(text());
}

} // namespace Loopscope::Ui
