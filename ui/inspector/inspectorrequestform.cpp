#include "ui/inspector/inspectorrequestform.h"

#include "ui/chat/schemaform.h"
#include "ui/inspector/mcpresultview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace Loopscope::Ui {

InspectorRequestForm::InspectorRequestForm(const QString &buttonText, const QString &buttonToolTip,
                                           QWidget *parent)
    : QWidget(parent)
    , m_description(new QLabel(this))
    , m_formArea(new QScrollArea(this))
    , m_problem(new QLabel(this))
    , m_button(new QPushButton(buttonText, this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_result(new McpResultView(this))
{
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_formArea->setWidgetResizable(true);
    m_formArea->setFrameShape(QFrame::NoFrame);
    m_problem->setWordWrap(true);
    m_problem->setForegroundRole(QPalette::PlaceholderText);
    m_button->setToolTip(buttonToolTip);
    connect(m_button, &QPushButton::clicked, this, &InspectorRequestForm::sendRequested);
    m_cancel->setToolTip(tr("Stop waiting and tell the server the request is cancelled"));
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, this, &InspectorRequestForm::cancelRequested);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_button);
    buttons->addWidget(m_cancel);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_description);
    layout->addWidget(m_formArea, 1);
    layout->addWidget(m_problem);
    layout->addLayout(buttons);
    layout->addWidget(m_result, 2);
    replaceForm({});
}

InspectorRequestForm::~InspectorRequestForm() = default;

void InspectorRequestForm::replaceForm(const QJsonObject &schema)
{
    delete m_formArea->takeWidget();
    m_form = new SchemaForm(schema, m_formArea);
    m_form->setAccessibleName(tr("Arguments"));
    m_formArea->setWidget(m_form);
    connect(m_form, &SchemaForm::validated, this, &InspectorRequestForm::updateButton);
    updateButton();
}

void InspectorRequestForm::showSubject(const QString &description, const QJsonObject &schema,
                                       const QString &noArguments)
{
    m_hasSubject = true;
    m_noArguments = noArguments;
    m_description->setText(description);
    replaceForm(schema);
}

void InspectorRequestForm::clearSubject(const QString &placeholder)
{
    m_hasSubject = false;
    m_description->setText(placeholder);
    replaceForm({});
}

void InspectorRequestForm::setCanSend(bool canSend)
{
    m_canSend = canSend;
    updateButton();
}

void InspectorRequestForm::setCancellable(bool cancellable)
{
    m_cancel->setVisible(cancellable);
}

void InspectorRequestForm::updateButton()
{
    m_problem->setText(m_hasSubject && m_form->isEmpty() ? m_noArguments : m_form->problem());
    m_button->setEnabled(m_hasSubject && m_canSend && m_form->problem().isEmpty());
}

} // namespace Loopscope::Ui
