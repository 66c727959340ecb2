#include "ui/chat/elicitationcard.h"

#include "ui/chat/chatsurface.h"
#include "ui/chat/schemaform.h"

#include <QDesktopServices>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

ElicitationCard::ElicitationCard(const McpElicitation &request, QWidget *parent)
    : QWidget(parent)
    , m_form(new SchemaForm(request.requestedSchema, this))
    , m_problemLabel(new QLabel(this))
    , m_outcome(new QLabel(this))
    , m_accept(new QPushButton(tr("Accept"), this))
    , m_decline(new QPushButton(tr("Decline"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
{
    setAccessibleName(tr("Question from the MCP server %1").arg(request.serverName));
    auto *title
        = new QLabel(tr("The MCP server <b>%1</b> asks:").arg(request.serverName.toHtmlEscaped()), this);
    title->setTextFormat(Qt::RichText);
    title->setWordWrap(true);
    auto *message = new QLabel(request.message, this);
    message->setObjectName(u"elicitationMessage"_s);
    message->setTextFormat(Qt::PlainText);
    message->setWordWrap(true);
    message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    connect(m_form, &SchemaForm::validated, this, &ElicitationCard::validate);

    QLabel *link = nullptr;
    if (request.isUrl()) {
        // URL mode: the whole address is shown before anything is opened, never a shortened one.
        m_url = request.url;
        link = new QLabel(tr("It asks you to open: %1").arg(m_url.toString()), this);
        link->setObjectName(u"elicitationUrl"_s);
        link->setTextFormat(Qt::PlainText);
        link->setWordWrap(true);
        link->setTextInteractionFlags(Qt::TextSelectableByMouse);
        m_accept->setText(tr("Open"));
    }

    m_problemLabel->setWordWrap(true);
    m_problemLabel->setForegroundRole(QPalette::PlaceholderText);
    m_problemLabel->setAccessibleName(tr("What the answer still needs"));
    m_outcome->setWordWrap(true);
    m_outcome->setForegroundRole(QPalette::PlaceholderText);
    m_outcome->hide();

    m_accept->setToolTip(m_url.isEmpty()
                             ? tr("Send these values to the server")
                             : tr("Open the address in your browser and tell the server you did"));
    m_decline->setToolTip(tr("Tell the server you do not want to answer"));
    m_cancel->setToolTip(tr("Dismiss the question without an answer"));
    connect(m_accept, &QPushButton::clicked, this, [this] { answer(McpElicitationAnswer::Action::Accept); });
    connect(m_decline, &QPushButton::clicked, this,
            [this] { answer(McpElicitationAnswer::Action::Decline); });
    connect(m_cancel, &QPushButton::clicked, this, [this] { answer(McpElicitationAnswer::Action::Cancel); });

    auto *buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_accept);
    buttons->addStretch(1);
    buttons->addWidget(m_decline);
    buttons->addWidget(m_cancel);

    const int padding = chatSpacing(this, 0.5);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(padding, padding, padding, padding);
    layout->setSpacing(chatSpacing(this, 0.4));
    layout->addWidget(title);
    layout->addWidget(message);
    if (link)
        layout->addWidget(link);
    layout->addWidget(m_form);
    layout->addWidget(m_problemLabel);
    layout->addWidget(m_outcome);
    layout->addLayout(buttons);
    validate();
}

ElicitationCard::~ElicitationCard() = default;

QJsonObject ElicitationCard::content() const
{
    return m_form->content();
}

QString ElicitationCard::problem() const
{
    return m_form->problem();
}

QWidget *ElicitationCard::field(const QString &property) const
{
    return m_form->field(property);
}

void ElicitationCard::validate()
{
    m_problemLabel->setText(m_form->problem());
    m_problemLabel->setVisible(!m_form->problem().isEmpty());
    m_accept->setEnabled(!m_closed && m_form->problem().isEmpty());
}

void ElicitationCard::answer(McpElicitationAnswer::Action action)
{
    if (m_closed)
        return;
    McpElicitationAnswer reply;
    reply.action = action;
    if (action == McpElicitationAnswer::Action::Accept && !m_url.isEmpty())
        QDesktopServices::openUrl(m_url); // the server only learns that the user agreed
    else if (action == McpElicitationAnswer::Action::Accept)
        reply.content = content();
    switch (action) {
    case McpElicitationAnswer::Action::Accept: finish(tr("You answered.")); break;
    case McpElicitationAnswer::Action::Decline: finish(tr("You declined.")); break;
    case McpElicitationAnswer::Action::Cancel: finish(tr("You dismissed the question.")); break;
    }
    emit answered(reply);
}

void ElicitationCard::finish(const QString &outcome)
{
    m_closed = true;
    m_form->setFieldsEnabled(false);
    for (QPushButton *button : {m_accept, m_decline, m_cancel})
        button->hide();
    m_problemLabel->hide();
    m_outcome->setText(outcome);
    m_outcome->show();
}

void ElicitationCard::paintEvent(QPaintEvent *event)
{
    Q_UNUSED(event);
    QPainter painter(this);
    paintSurface(painter, this, ChatSurface::Approval);
}

} // namespace Loopscope::Ui
