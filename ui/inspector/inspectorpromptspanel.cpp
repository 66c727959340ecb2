#include "ui/inspector/inspectorpromptspanel.h"

#include "agent/mcp/mcpclient.h"
#include "ui/chat/schemaform.h"
#include "ui/inspector/mcpresultview.h"

#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

// A prompt's arguments as the object schema SchemaForm builds its form from: each one a string.
QJsonObject argumentSchema(const McpPromptInfo &prompt)
{
    QJsonObject properties;
    QJsonArray required;
    for (const McpPromptArgument &argument : prompt.arguments) {
        properties.insert(argument.name,
                          QJsonObject{{u"type"_s, u"string"_s}, {u"description"_s, argument.description}});
        if (argument.required)
            required.append(argument.name);
    }
    return {{u"type"_s, u"object"_s}, {u"properties"_s, properties}, {u"required"_s, required}};
}

} // namespace

InspectorPromptsPanel::InspectorPromptsPanel(QWidget *parent)
    : QWidget(parent)
    , m_prompts(new QListWidget(this))
    , m_description(new QLabel(this))
    , m_formArea(new QScrollArea(this))
    , m_problem(new QLabel(this))
    , m_get(new QPushButton(tr("&Get"), this))
    , m_result(new McpResultView(this))
{
    m_prompts->setAccessibleName(tr("Prompts"));
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_formArea->setWidgetResizable(true);
    m_formArea->setFrameShape(QFrame::NoFrame);
    m_problem->setWordWrap(true);
    m_problem->setForegroundRole(QPalette::PlaceholderText);
    m_get->setToolTip(tr("Ask the server for this prompt's messages"));
    connect(m_prompts, &QListWidget::currentRowChanged, this, &InspectorPromptsPanel::choose);
    connect(m_get, &QPushButton::clicked, this, &InspectorPromptsPanel::get);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_description);
    rightLayout->addWidget(m_formArea, 1);
    rightLayout->addWidget(m_problem);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_get);
    buttons->addStretch(1);
    rightLayout->addLayout(buttons);
    rightLayout->addWidget(m_result, 2);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_prompts);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    choose();
}

InspectorPromptsPanel::~InspectorPromptsPanel() = default;

void InspectorPromptsPanel::setClient(McpClient *client)
{
    if (m_client != client) {
        if (m_client)
            disconnect(m_client, nullptr, this, nullptr);
        m_client = client;
        m_result->clear();
        if (client)
            connect(client, &McpClient::promptsChanged, this, &InspectorPromptsPanel::reload);
    }
    reload();
}

void InspectorPromptsPanel::reload()
{
    const QString current = m_prompts->currentItem() ? m_prompts->currentItem()->text() : QString();
    const QSignalBlocker blocker(m_prompts);
    m_prompts->clear();
    if (m_client) {
        for (const McpPromptInfo &prompt : m_client->prompts()) {
            auto *item = new QListWidgetItem(prompt.name, m_prompts);
            item->setToolTip(prompt.title.isEmpty() ? prompt.description : prompt.title);
            if (prompt.name == current)
                m_prompts->setCurrentItem(item);
        }
    }
    if (!m_prompts->currentItem() && m_prompts->count() > 0)
        m_prompts->setCurrentRow(0);
    choose();
}

void InspectorPromptsPanel::choose()
{
    std::optional<McpPromptInfo> prompt;
    if (m_client && m_prompts->currentItem()) {
        for (const McpPromptInfo &candidate : m_client->prompts()) {
            if (candidate.name == m_prompts->currentItem()->text())
                prompt = candidate;
        }
    }
    ++m_generation;
    m_description->setText(prompt ? (prompt->description.isEmpty() ? prompt->name : prompt->description)
                                  : tr("Choose a prompt."));
    m_form = new SchemaForm(prompt ? argumentSchema(*prompt) : QJsonObject(), m_formArea);
    m_form->setAccessibleName(tr("Arguments"));
    delete m_formArea->takeWidget();
    m_formArea->setWidget(m_form);
    connect(m_form, &SchemaForm::validated, this, &InspectorPromptsPanel::updateGetEnabled);
    m_get->setProperty("prompt", prompt ? prompt->name : QString());
    updateGetEnabled();
}

void InspectorPromptsPanel::updateGetEnabled()
{
    const bool havePrompt = !m_get->property("prompt").toString().isEmpty();
    m_problem->setText(havePrompt && m_form->isEmpty() ? tr("This prompt takes no arguments.")
                                                       : m_form->problem());
    m_get->setEnabled(havePrompt && m_client && m_client->state() == McpClient::State::Ready
                      && m_form->problem().isEmpty());
}

void InspectorPromptsPanel::get()
{
    const QString name = m_get->property("prompt").toString();
    if (!m_client || name.isEmpty())
        return;
    QJsonObject params{{u"name"_s, name}};
    if (const QJsonObject arguments = m_form->content(); !arguments.isEmpty())
        params.insert(u"arguments"_s, arguments);
    const int generation = m_generation;
    m_result->showWaiting(tr("Getting %1…").arg(name));
    QPointer<InspectorPromptsPanel> self(this);
    m_client->sendRequest(u"prompts/get"_s, params,
                          [self, generation, name](const QJsonObject &result, const QString &error) {
                              if (!self || generation != self->m_generation)
                                  return;
                              if (error.isEmpty())
                                  self->m_result->showPrompt(name, result);
                              else
                                  self->m_result->showFailure(error);
                          });
}

} // namespace Loopscope::Ui
