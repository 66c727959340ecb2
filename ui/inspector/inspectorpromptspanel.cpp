#include "ui/inspector/inspectorpromptspanel.h"

#include "ui/chat/schemaform.h"
#include "ui/inspector/inspectorrequestform.h"
#include "ui/inspector/mcpresultview.h"

#include <QJsonArray>
#include <QListWidget>
#include <QPushButton>
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
    , m_request(new InspectorRequestForm(tr("&Get"), tr("Ask the server for this prompt's messages"), this))
{
    m_prompts->setAccessibleName(tr("Prompts"));
    connect(m_prompts, &QListWidget::currentRowChanged, this, &InspectorPromptsPanel::choose);
    connect(m_request, &InspectorRequestForm::sendRequested, this, &InspectorPromptsPanel::get);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_prompts);
    splitter->addWidget(m_request);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    m_request->clearSubject(tr("Choose a prompt."));
}

InspectorPromptsPanel::~InspectorPromptsPanel() = default;

SchemaForm *InspectorPromptsPanel::form() const
{
    return m_request->form();
}

QPushButton *InspectorPromptsPanel::getButton() const
{
    return m_request->button();
}

McpResultView *InspectorPromptsPanel::resultView() const
{
    return m_request->resultView();
}

void InspectorPromptsPanel::setClient(McpClient *client)
{
    if (m_client != client) {
        if (m_client)
            disconnect(m_client, nullptr, this, nullptr);
        m_client = client;
        m_shownPrompt.reset();
        ++m_generation;
        m_request->resultView()->clear();
        if (client)
            connect(client, &McpClient::promptsChanged, this, &InspectorPromptsPanel::reload);
    }
    reload();
}

void InspectorPromptsPanel::reload()
{
    const QString current = m_prompts->currentItem() ? m_prompts->currentItem()->text() : QString();
    {
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
    }
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
    if (prompt != m_shownPrompt) { // else the same prompt (a list fetched again): keep what the user typed
        m_shownPrompt = prompt;
        ++m_generation;
        if (prompt)
            m_request->showSubject(prompt->description.isEmpty() ? prompt->name : prompt->description,
                                   argumentSchema(*prompt), tr("This prompt takes no arguments."));
        else
            m_request->clearSubject(tr("Choose a prompt."));
    }
    m_request->setCanSend(m_client && m_client->state() == McpClient::State::Ready);
}

void InspectorPromptsPanel::get()
{
    if (!m_client || !m_shownPrompt)
        return;
    const QString name = m_shownPrompt->name;
    QJsonObject params{{u"name"_s, name}};
    if (const QJsonObject arguments = form()->content(); !arguments.isEmpty())
        params.insert(u"arguments"_s, arguments);
    const int generation = m_generation;
    McpResultView *result = m_request->resultView();
    result->showWaiting(tr("Getting %1…").arg(name));
    QPointer<InspectorPromptsPanel> self(this);
    m_client->sendRequest(u"prompts/get"_s, params,
                          [self, generation, name, result](const QJsonObject &answer, const QString &error) {
                              if (!self || generation != self->m_generation)
                                  return;
                              if (error.isEmpty())
                                  result->showPrompt(name, answer);
                              else
                                  result->showFailure(error);
                          });
}

} // namespace Loopscope::Ui
