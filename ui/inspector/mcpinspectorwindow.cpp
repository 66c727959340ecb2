#include "ui/inspector/mcpinspectorwindow.h"

#include "agent/mcp/mcpclient.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcpmessagelog.h"
#include "ui/inspector/inspectorpromptspanel.h"
#include "ui/inspector/inspectorresourcespanel.h"
#include "ui/inspector/inspectortoolspanel.h"
#include "ui/inspector/mcplogpanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

McpInspectorWindow::McpInspectorWindow(McpHub *hub, McpMessageLog *log, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_hub(hub)
    , m_log(log)
    , m_servers(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_start(new QPushButton(tr("&Start"), this))
    , m_tabs(new QTabWidget(this))
    , m_tools(new InspectorToolsPanel(this))
    , m_resources(new InspectorResourcesPanel(this))
    , m_prompts(new InspectorPromptsPanel(this))
    , m_logPanel(new McpLogPanel(log, this))
{
    setWindowTitle(tr("MCP Inspector"));
    m_servers->setAccessibleName(tr("Server"));
    m_servers->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setAccessibleName(tr("Server state"));
    connect(m_servers, &QComboBox::currentIndexChanged, this, &McpInspectorWindow::onServerChosen);
    connect(m_start, &QPushButton::clicked, this, &McpInspectorWindow::start);
    if (hub) {
        connect(hub, &McpHub::serverStateChanged, this, &McpInspectorWindow::onServerStateChanged);
        // The hub replaces a server's client when its settings change: the list follows.
        connect(hub, &McpHub::toolsChanged, this, &McpInspectorWindow::refreshServers);
    }

    m_tabs->addTab(m_tools, tr("&Tools"));
    m_tabs->addTab(m_resources, tr("&Resources"));
    m_tabs->addTab(m_prompts, tr("&Prompts"));
    m_tabs->addTab(m_logPanel, tr("&Log"));

    auto *top = new QHBoxLayout;
    auto *serverLabel = new QLabel(tr("Ser&ver:"), this);
    serverLabel->setBuddy(m_servers);
    top->addWidget(serverLabel);
    top->addWidget(m_servers);
    top->addWidget(m_start);
    top->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_tabs, 1);
    resize(960, 680);
    refreshServers();
}

McpInspectorWindow::~McpInspectorWindow() = default;

QString McpInspectorWindow::serverName() const
{
    return m_servers->currentData().toString();
}

void McpInspectorWindow::refreshServers()
{
    const QString current = serverName();
    {
        const QSignalBlocker blocker(m_servers);
        m_servers->clear();
        if (m_hub) {
            for (const McpServerConfig &config : m_hub->servers()) {
                m_servers->addItem(config.enabled ? config.name : tr("%1 (disabled)").arg(config.name),
                                   config.name);
            }
        }
        m_servers->setCurrentIndex(qMax(0, m_servers->findData(current)));
    }
    watchAllClients();
    if (serverName() != current || m_client != (m_hub ? m_hub->client(current) : nullptr))
        onServerChosen();
    else
        showState();
}

bool McpInspectorWindow::chooseServer(const QString &name)
{
    const int index = m_servers->findData(name);
    if (index < 0)
        return false;
    m_servers->setCurrentIndex(index);
    return true;
}

void McpInspectorWindow::watchAllClients()
{
    if (!m_hub)
        return;
    for (const McpServerConfig &config : m_hub->servers())
        m_log->watch(m_hub->client(config.name));
}

void McpInspectorWindow::onServerChosen()
{
    McpClient *client = m_hub ? m_hub->client(serverName()) : nullptr;
    m_client = client;
    m_log->watch(client);
    // A server nobody started yet starts now; one that failed waits for Start, its reason showing.
    if (client && client->state() == McpClient::State::Stopped)
        client->start();
    m_tools->setClient(client);
    m_resources->setClient(client);
    m_prompts->setClient(client);
    showState();
}

void McpInspectorWindow::onServerStateChanged(const QString &server)
{
    watchAllClients();
    if (server != serverName())
        return;
    McpClient *client = m_hub ? m_hub->client(server) : nullptr;
    if (client != m_client) {
        onServerChosen();
        return;
    }
    if (client && client->state() == McpClient::State::Ready) {
        m_tools->setClient(client);
        m_resources->setClient(client);
        m_prompts->setClient(client);
    }
    showState();
}

void McpInspectorWindow::start()
{
    if (!m_client)
        return;
    if (m_client->state() == McpClient::State::Stopped || m_client->state() == McpClient::State::Failed)
        m_client->start();
    else
        m_hub->restart(serverName());
}

void McpInspectorWindow::showState()
{
    const QString name = serverName();
    m_start->setEnabled(m_client != nullptr);
    m_start->setText(m_client && m_client->state() == McpClient::State::Ready ? tr("Re&start")
                                                                              : tr("&Start"));
    if (name.isEmpty()) {
        m_status->setText(tr("No MCP server is configured: add one in Settings → MCP Servers."));
        return;
    }
    if (!m_client) {
        m_status->setText(tr("“%1” is disabled: enable it in Settings → MCP Servers.").arg(name));
        return;
    }
    switch (m_client->state()) {
    case McpClient::State::Stopped: m_status->setText(tr("Stopped.")); break;
    case McpClient::State::Starting: m_status->setText(tr("Starting…")); break;
    case McpClient::State::Failed: m_status->setText(m_client->failureReason()); break;
    case McpClient::State::Ready: {
        const std::optional<McpStartupInfo> info = m_client->startupInfo();
        const QString server = info ? info->serverInfo.value("name"_L1).toString() : QString();
        const QString version = info ? info->serverInfo.value("version"_L1).toString() : QString();
        m_status->setText(
            tr("Ready: %1 %2, protocol %3; %n tool(s)", nullptr, int(m_client->tools().size()))
                .arg(server.isEmpty() ? name : server, version, info ? info->protocolVersion : QString()));
        break;
    }
    }
}

} // namespace Loopscope::Ui
