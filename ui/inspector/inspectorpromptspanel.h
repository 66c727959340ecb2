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
    The Inspector's Prompts tab: the server's prompts, a form for the chosen
    prompt's arguments (strings, required ones marked), Get, and the
    messages prompts/get returned.
*/
class InspectorPromptsPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit InspectorPromptsPanel(QWidget *parent = nullptr);
    ~InspectorPromptsPanel() override;

    void setClient(McpClient *client);

    QListWidget *promptList() const { return m_prompts; }
    SchemaForm *form() const;
    QPushButton *getButton() const;
    McpResultView *resultView() const;

private:
    void reload();
    void choose();
    void get();

    QPointer<McpClient> m_client;
    QListWidget *m_prompts;
    InspectorRequestForm *m_request;
    std::optional<McpPromptInfo> m_shownPrompt; // the prompt the form is for
    int m_generation = 0;                       // an answer for an earlier server or prompt is dropped
};

} // namespace Loopscope::Ui
