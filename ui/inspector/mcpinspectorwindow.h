#pragma once

#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;
QT_END_NAMESPACE

namespace Loopscope {
class McpClient;
class McpHub;
class McpMessageLog;
} // namespace Loopscope

namespace Loopscope::Ui {

class InspectorPromptsPanel;
class InspectorResourcesPanel;
class InspectorToolsPanel;
class McpLogPanel;

/*!
    Tools → MCP Inspector: one configured server at a time, through the
    app's own McpHub and McpClient (no second client): its state, starting
    it when needed, and tabs for its tools, resources, prompts and the
    JSON-RPC log of every server. A server that fails says why here and the
    window stays; Start tries again.
*/
class McpInspectorWindow final : public QWidget
{
    Q_OBJECT

public:
    McpInspectorWindow(McpHub *hub, McpMessageLog *log, QWidget *parent = nullptr);
    ~McpInspectorWindow() override;

    // Reads the configured servers again (keeps the chosen one when it is still there).
    void refreshServers();
    // Chooses a server by name; false when it is not configured.
    bool chooseServer(const QString &name);

    QComboBox *serverChooser() const { return m_servers; }
    QLabel *statusLabel() const { return m_status; }
    QPushButton *startButton() const { return m_start; }
    QTabWidget *tabs() const { return m_tabs; }
    InspectorToolsPanel *toolsPanel() const { return m_tools; }
    InspectorResourcesPanel *resourcesPanel() const { return m_resources; }
    InspectorPromptsPanel *promptsPanel() const { return m_prompts; }
    McpLogPanel *logPanel() const { return m_logPanel; }

private:
    void onServerChosen();
    void onServerStateChanged(const QString &server);
    void watchAllClients();
    void start();
    void showState();
    QString serverName() const;

    QPointer<McpHub> m_hub;
    McpMessageLog *m_log;
    QPointer<McpClient> m_client;
    QComboBox *m_servers;
    QLabel *m_status;
    QPushButton *m_start;
    QTabWidget *m_tabs;
    InspectorToolsPanel *m_tools;
    InspectorResourcesPanel *m_resources;
    InspectorPromptsPanel *m_prompts;
    McpLogPanel *m_logPanel;
};

} // namespace Loopscope::Ui
