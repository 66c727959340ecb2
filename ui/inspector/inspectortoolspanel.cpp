#include "ui/inspector/inspectortoolspanel.h"

#include "ui/chat/schemaform.h"
#include "ui/inspector/inspectorrequestform.h"
#include "ui/inspector/mcpresultview.h"

#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace Loopscope::Ui {

InspectorToolsPanel::InspectorToolsPanel(QWidget *parent)
    : QWidget(parent)
    , m_tools(new QListWidget(this))
    , m_request(new InspectorRequestForm(tr("&Call"), tr("Call the tool with these arguments"), this))
{
    m_tools->setAccessibleName(tr("Tools"));
    connect(m_tools, &QListWidget::currentRowChanged, this, &InspectorToolsPanel::chooseTool);
    connect(m_request, &InspectorRequestForm::sendRequested, this, &InspectorToolsPanel::call);
    connect(m_request, &InspectorRequestForm::cancelRequested, this, &InspectorToolsPanel::cancel);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_tools);
    splitter->addWidget(m_request);
    splitter->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);
    m_request->clearSubject(tr("Choose a tool."));
}

InspectorToolsPanel::~InspectorToolsPanel() = default;

SchemaForm *InspectorToolsPanel::form() const
{
    return m_request->form();
}

QPushButton *InspectorToolsPanel::callButton() const
{
    return m_request->button();
}

QPushButton *InspectorToolsPanel::cancelButton() const
{
    return m_request->cancelButton();
}

McpResultView *InspectorToolsPanel::resultView() const
{
    return m_request->resultView();
}

void InspectorToolsPanel::setClient(McpClient *client)
{
    if (m_client != client) {
        if (m_client)
            disconnect(m_client, nullptr, this, nullptr);
        m_client = client;
        m_shownTool.reset(); // another server's tool of the same name is another tool
        ++m_callGeneration;
        m_runningCall = 0;
        m_request->resultView()->clear();
        if (client)
            connect(client, &McpClient::toolsChanged, this, &InspectorToolsPanel::reloadTools);
    }
    reloadTools();
}

void InspectorToolsPanel::reloadTools()
{
    const QString current = m_tools->currentItem() ? m_tools->currentItem()->text() : QString();
    {
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
    }
    chooseTool();
}

void InspectorToolsPanel::chooseTool()
{
    std::optional<McpToolInfo> tool;
    if (m_client && m_tools->currentItem()) {
        for (const McpToolInfo &candidate : m_client->tools()) {
            if (candidate.name == m_tools->currentItem()->text())
                tool = candidate;
        }
    }
    if (tool != m_shownTool) { // else the same tool (a list fetched again): keep what the user typed
        m_shownTool = tool;
        ++m_callGeneration; // the form changes: a running call's result no longer belongs here
        m_runningCall = 0;
        if (tool)
            m_request->showSubject(tool->description.isEmpty() ? tool->name : tool->description,
                                   tool->inputSchema, tr("This tool takes no arguments."));
        else
            m_request->clearSubject(tr("Choose a tool."));
    }
    updateCanCall();
}

void InspectorToolsPanel::updateCanCall()
{
    m_request->setCanSend(m_client && m_client->state() == McpClient::State::Ready && m_runningCall == 0);
    m_request->setCancellable(m_client && m_runningCall > 0);
}

void InspectorToolsPanel::cancel()
{
    if (m_client && m_runningCall > 0)
        m_client->cancelCall(m_runningCall, tr("cancelled in the MCP Inspector")); // its callback says so
}

void InspectorToolsPanel::call()
{
    if (!m_client || !m_shownTool)
        return;
    const QString tool = m_shownTool->name;
    const int generation = m_callGeneration;
    McpResultView *result = m_request->resultView();
    result->showWaiting(tr("Calling %1…").arg(tool));
    QPointer<InspectorToolsPanel> self(this);
    m_runningCall = -1; // in flight; the answer may come before callTool() returns
    const qint64 id = m_client->callTool(
        tool, form()->content(), m_client->config().effectiveRequestTimeoutMs(),
        [self, generation, tool, result](const McpProgress &progress) {
            if (!self || generation != self->m_callGeneration)
                return;
            const QString amount = progress.total ? tr("%1 of %2").arg(progress.progress).arg(*progress.total)
                                                  : QString::number(progress.progress);
            result->showWaiting(tr("Calling %1… %2 %3").arg(tool, amount, progress.message));
        },
        [self, generation, result](const McpCallOutcome &outcome) {
            if (!self || generation != self->m_callGeneration)
                return;
            self->m_runningCall = 0;
            result->showCall(outcome);
            self->updateCanCall();
        });
    if (m_runningCall != 0)
        m_runningCall = id;
    updateCanCall();
}

} // namespace Loopscope::Ui
