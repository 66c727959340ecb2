#pragma once

#include "agent/mcp/mcpcontent.h"

#include <QDialog>
#include <QHash>
#include <QPointer>

QT_BEGIN_NAMESPACE
class QFormLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTreeWidget;
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace Loopscope {
class McpClient;
class McpHub;
} // namespace Loopscope

namespace Loopscope::Ui {

/*!
    The prompts and resources of the ready MCP servers, for the user to put
    into a message (they are not offered to the model as tools). A prompt
    asks for its arguments, then its text goes into the composer; a resource
    is read and shown, and goes with the message as an attachment (its text,
    or its blob: an image goes as an image). It only asks the session's hub
    (given, not created) and reports through insertRequested() and
    attachRequested().
*/
class McpResourcesDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit McpResourcesDialog(McpHub *hub, QWidget *parent = nullptr);
    ~McpResourcesDialog() override;

    QTreeWidget *tree() const { return m_tree; }
    // The argument field of the chosen prompt.
    QLineEdit *argumentEdit(const QString &name) const { return m_arguments.value(name); }
    QPlainTextEdit *resourceView() const { return m_resourceText; }
    QPushButton *insertButton() const { return m_insert; }
    QLabel *statusLabel() const { return m_status; }

    // Rebuilds the list from the hub.
    void refresh();

signals:
    void insertRequested(const QString &text);
    // A resource's content, to attach under \a name (its URI's file name, else the resource's name).
    void attachRequested(const QString &name, const QByteArray &bytes);

private:
    enum Kind { ServerItem, PromptItem, ResourceItem };

    // The resource shown is subscribed to while it is shown (when its server offers that), so a
    // change on the server is read again and said; a status line says so.
    void follow(McpClient *client);
    void unfollow();
    void onResourceUpdated(const QString &server, const QString &uri);
    void read(McpClient *client, bool again);

    void choose(QTreeWidgetItem *item);
    void showPrompt(const QString &server, const QString &prompt);
    void showResource(const QString &server, const QString &uri, const QString &label);
    void insert();
    void updateInsertEnabled();
    void setStatus(const QString &text);

    QPointer<McpHub> m_hub;
    QTreeWidget *m_tree;
    QStackedWidget *m_pages;
    QLabel *m_promptTitle;
    QLabel *m_promptDescription;
    QFormLayout *m_promptForm;
    QWidget *m_promptFields;
    QLabel *m_resourceTitle;
    QPlainTextEdit *m_resourceText;
    QLabel *m_status;
    QPushButton *m_insert;

    QHash<QString, QLineEdit *> m_arguments;
    QList<McpContent::ResourceFile> m_resourceFiles; // of the resource shown
    QStringList m_requiredArguments;
    QString m_server;
    QString m_name;          // the prompt's name or the resource's URI
    QString m_resourceLabel; // the resource's title, else its name: an attachment's name
    Kind m_kind = ServerItem;
    int m_generation = 0; // answers for an earlier choice are dropped
    // The subscription of the resource shown (server and URI); empty when none.
    QString m_followedServer;
    QString m_followedUri;
    QMetaObject::Connection m_updates;
};

} // namespace Loopscope::Ui
