#pragma once

#include "agent/mcp/mcpserverconfig.h"

#include <QDialog>

#include <functional>

QT_BEGIN_NAMESPACE
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope::Ui {

/*!
    Asks before a loopscope://mcp/install link adds an MCP server: it shows the
    command the server would run (hidden characters escaped) or the address it
    would be reached at, its environment and headers (secret values masked),
    and the link's notes, and says that every tool will ask before it runs.
    Cancel is the default. The name can be changed, so one already taken does
    not block the link; the dialog only asks — the window adds the server.

    Controls carry object names for tests: "mcpInstallName", "mcpInstallWhat",
    "mcpInstallNameProblem".
*/
class McpInstallDialog final : public QDialog
{
    Q_OBJECT

public:
    // \a nameProblem says why a name cannot be used (taken, empty); empty when it can.
    McpInstallDialog(const McpServerConfig &server, const QStringList &notes,
                     std::function<QString(const QString &name)> nameProblem, QWidget *parent = nullptr);

    // The server to add, with the name as the user left it.
    McpServerConfig server() const;
    QPushButton *addButton() const { return m_add; }

    // What the dialog shows of \a server, secrets masked: the command line or URL, then the rest.
    static QString describe(const McpServerConfig &server);

private:
    void checkName();

    McpServerConfig m_server;
    std::function<QString(const QString &name)> m_nameProblem;
    QLineEdit *m_name;
    QLabel *m_nameProblemLabel;
    QPlainTextEdit *m_what;
    QDialogButtonBox *m_buttons;
    QPushButton *m_add;
};

} // namespace Loopscope::Ui
