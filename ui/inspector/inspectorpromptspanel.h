#pragma once

#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLabel;
class QListWidget;
class QPushButton;
class QScrollArea;
QT_END_NAMESPACE

namespace Loopscope {
class McpClient;
}

namespace Loopscope::Ui {

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
    SchemaForm *form() const { return m_form; }
    QPushButton *getButton() const { return m_get; }
    McpResultView *resultView() const { return m_result; }

private:
    void reload();
    void choose();
    void updateGetEnabled();
    void get();

    QPointer<McpClient> m_client;
    QListWidget *m_prompts;
    QLabel *m_description;
    QScrollArea *m_formArea;
    SchemaForm *m_form = nullptr;
    QLabel *m_problem;
    QPushButton *m_get;
    McpResultView *m_result;
    int m_generation = 0; // an answer for an earlier server or prompt is dropped
};

} // namespace Loopscope::Ui
