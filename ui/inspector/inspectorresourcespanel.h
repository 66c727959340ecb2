#pragma once

#include <QJsonArray>
#include <QPointer>
#include <QWidget>

QT_BEGIN_NAMESPACE
class QLineEdit;
class QPushButton;
class QTreeWidget;
QT_END_NAMESPACE

namespace Loopscope {
class McpClient;
}

namespace Loopscope::Ui {

class McpResultView;

/*!
    The Inspector's Resources tab: the server's resources and resource
    templates (resources/templates/list, every page), a URI to read (a
    resource's, or a template's with its {variables} to fill in) and what
    resources/read returned.
*/
class InspectorResourcesPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit InspectorResourcesPanel(QWidget *parent = nullptr);
    ~InspectorResourcesPanel() override;

    void setClient(McpClient *client);

    QTreeWidget *tree() const { return m_tree; }
    QLineEdit *uriEdit() const { return m_uri; }
    QPushButton *readButton() const { return m_read; }
    McpResultView *resultView() const { return m_result; }

private:
    void reload();
    void fetchTemplates(const QString &cursor, QJsonArray collected, int page);
    void showTemplates(const QJsonArray &templates, const QString &error);
    void choose();
    void read();

    QPointer<McpClient> m_client;
    QTreeWidget *m_tree;
    QLineEdit *m_uri;
    QPushButton *m_read;
    McpResultView *m_result;
    int m_generation = 0; // answers for an earlier server or list are dropped
};

} // namespace Loopscope::Ui
