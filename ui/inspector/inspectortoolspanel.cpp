#include "ui/inspector/inspectortoolspanel.h"

#include "agent/mcp/mcpclient.h"
#include "ui/chat/schemaform.h"
#include "ui/inspector/mcpresultview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

InspectorToolsPanel::InspectorToolsPanel(QWidget *parent)
    : QWidget(parent)
    , m_tools(new QListWidget(this))
    , m_description(new QLabel(this))
    , m_formArea(new QScrollArea(this))
    , m_problem(new QLabel(this))
    , m_call(new QPushButton(tr("&Call"), this))
    , m_result(new McpResultView(this))
{
    m_tools->setAccessibleName(tr("Tools"));
    m_description->setWordWrap(true);
    m_description->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_formArea->setWidgetResizable(true);
    m_formArea->setFrameShape(QFrame::NoFrame);
    m_problem->setWordWrap(true);
    m_problem->setForegroundRole(QPalette::PlaceholderText);
    m_call->setToolTip(tr("Call the tool with these arguments"));
    connect(m_tools, &QListWidget::currentRowChanged, this, &InspectorToolsPanel::chooseTool);
    connect(m_call, &QPushButton::clicked, this, &InspectorToolsPanel::call);

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(m_description);
    rightLayout->addWidget(m_formArea, 1);
    rightLayout->addWidget(m_problem);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_call);
    buttons->addStretch(1);
    rightLayout->addLayout(buttons);
    rightLayout->addWidget(m_result, 2);

    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_tools);
    splitter->addWidget(right);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    m_form = new SchemaForm({}, m_formArea);
    m_formArea->setWidget(m_form);
    m_description->setText(tr("Choose a tool."));
    updateCallEnabled();
}

InspectorToolsPanel::~InspectorToolsPanel() = default;

void InspectorToolsPanel::setClient(McpClient *client)
{
    if (m_client == client) {
        reloadTools();
        return;
    }
    if (m_client)
        disconnect(m_client, nullptr, this, nullptr);
    m_client = client;
    m_shownTool.reset(); // another server's tool of the same name is another tool
    ++m_callGeneration;
    m_runningCall = 0;
    m_result->clear();
    if (client)
        connect(client, &McpClient::toolsChanged, this, &InspectorToolsPanel::reloadTools);
    reloadTools();
}

void InspectorToolsPanel::reloadTools()
{
    const QString current = m_tools->currentItem() ? m_tools->currentItem()->text() : QString();
    const QSignalBlocker blocker(m_tools);
    m_tools->clear();
    if (m_client) {
        for (const McpToolInfo &tool : m_client->tools()) {
            auto *item = new QListWidgetItem(tool.name, m_tools);
            item->setToolTip(tool.title.isEmpty() ? tool.description : tool.title);
            if (tool.name == current)
                m_tools->setCurrentItem(item);
        }
    }
    if (!m_tools->currentItem() && m_tools->count() > 0)
        m_tools->setCurrentRow(0);
    chooseTool();
}

void InspectorToolsPanel::chooseTool()
{
    McpToolInfo tool;
    bool found = false;
    if (m_client && m_tools->currentItem()) {
        for (const McpToolInfo &candidate : m_client->tools()) {
            if (candidate.name == m_tools->currentItem()->text()) {
                tool = candidate;
                found = true;
                break;
            }
        }
    }
    if (found == m_shownTool.has_value() && (!found || *m_shownTool == tool))
        return; // the same tool (a list that was fetched again): keep what the user typed
    m_shownTool = found ? std::optional(tool) : std::nullopt;
    ++m_callGeneration; // the form changes: a running call's result no longer belongs here
    m_runningCall = 0;
    m_description->setText(found ? (tool.description.isEmpty() ? tool.name : tool.description)
                                 : tr("Choose a tool."));
    delete m_formArea->takeWidget();
    m_form = new SchemaForm(found ? tool.inputSchema : QJsonObject(), m_formArea);
    m_form->setAccessibleName(tr("Arguments"));
    m_formArea->setWidget(m_form);
    connect(m_form, &SchemaForm::validated, this, &InspectorToolsPanel::updateCallEnabled);
    updateCallEnabled();
}

void InspectorToolsPanel::updateCallEnabled()
{
    const bool haveTool = m_shownTool.has_value();
    m_problem->setText(haveTool && m_form->isEmpty() ? tr("This tool takes no arguments.")
                                                     : m_form->problem());
    m_call->setEnabled(haveTool && m_client && m_client->state() == McpClient::State::Ready
                       && m_form->problem().isEmpty() && m_runningCall == 0);
}

void InspectorToolsPanel::call()
{
    if (!m_client || !m_shownTool)
        return;
    const QString tool = m_shownTool->name;
    const int generation = m_callGeneration;
    m_result->showWaiting(tr("Calling %1…").arg(tool));
    QPointer<InspectorToolsPanel> self(this);
    m_runningCall = -1; // in flight; the answer may come before callTool() returns
    const qint64 id = m_client->callTool(
        tool, m_form->content(), m_client->config().effectiveRequestTimeoutMs(),
        [self, generation, tool](const McpProgress &progress) {
            if (!self || generation != self->m_callGeneration)
                return;
            const QString amount = progress.total ? tr("%1 of %2").arg(progress.progress).arg(*progress.total)
                                                  : QString::number(progress.progress);
            self->m_result->showWaiting(tr("Calling %1… %2 %3").arg(tool, amount, progress.message));
        },
        [self, generation](const McpCallOutcome &outcome) {
            if (!self || generation != self->m_callGeneration)
                return;
            self->m_runningCall = 0;
            self->m_result->showCall(outcome);
            self->updateCallEnabled();
        });
    if (m_runningCall != 0)
        m_runningCall = id;
    updateCallEnabled();
}

} // namespace Loopscope::Ui
