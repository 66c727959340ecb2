#pragma once

#include "agent/mcp/mcpclient.h"

#include <QPointer>
#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QListWidget;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class InspectorRequestForm;
class McpResultView;
class SchemaForm;

/*!
    The Inspector's Tools tab: the server's tools, a form built from the
    chosen tool's input schema, Call, and the result as the server sent it.
    The call goes through the app's own McpClient (progress, timeouts,
    cancellation, the log).
*/
class InspectorToolsPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit InspectorToolsPanel(QWidget *parent = nullptr);
    ~InspectorToolsPanel() override;

    void setClient(McpClient *client);

    QListWidget *toolList() const { return m_tools; }
    SchemaForm *form() const;
    QPushButton *callButton() const;
    QPushButton *cancelButton() const;
    McpResultView *resultView() const;

private:
    void reloadTools();
    void chooseTool();
    void updateCanCall();
    void call();
    void cancel();

    QPointer<McpClient> m_client;
    QListWidget *m_tools;
    InspectorRequestForm *m_request;
    std::optional<McpToolInfo> m_shownTool; // the tool the form is for
    qint64 m_runningCall = 0;
    int m_callGeneration = 0; // a result that arrives after the server or tool changed is dropped
};

} // namespace Loopscope::Ui
