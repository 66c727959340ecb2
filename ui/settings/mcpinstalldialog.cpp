#include "ui/settings/mcpinstalldialog.h"

#include "agent/mcp/mcpserverinstall.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

QString masked()
{
    return u"••••••••"_s;
}

QLabel *wrappedLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

} // namespace

McpInstallDialog::McpInstallDialog(const McpServerConfig &server, const QStringList &notes,
                                   std::function<QString(const QString &name)> nameProblem, QWidget *parent)
    : QDialog(parent)
    , m_server(server)
    , m_nameProblem(std::move(nameProblem))
{
    setWindowTitle(tr("Add an MCP Server?"));
    const bool command = server.transport == McpServerConfig::Transport::Stdio;
    auto *intro = wrappedLabel(
        command ? tr("A link asks to add an MCP server that runs this command on your computer, with your "
                     "rights, whenever Loopscope starts. Add it only if you trust where the link came from.")
                : tr("A link asks to add an MCP server reached over the network. Add it only if you trust "
                     "where the link came from."),
        this);

    m_name = new QLineEdit(server.name, this);
    m_name->setObjectName(u"mcpInstallName"_s);
    m_name->setAccessibleName(tr("Server name"));
    m_nameProblemLabel = wrappedLabel(QString(), this);
    m_nameProblemLabel->setObjectName(u"mcpInstallNameProblem"_s);
    m_nameProblemLabel->setForegroundRole(QPalette::PlaceholderText);

    m_what = new QPlainTextEdit(describe(server), this);
    m_what->setObjectName(u"mcpInstallWhat"_s);
    m_what->setAccessibleName(command ? tr("The command it would run") : tr("Where it is reached"));
    m_what->setReadOnly(true);
    m_what->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_what->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(QString(), m_nameProblemLabel);
    form->addRow(command ? tr("It would run:") : tr("Address:"), m_what);

    QStringList remarks = notes;
    remarks.append(tr("Every tool of this server asks before it runs; you can change that in Settings → MCP "
                      "Servers."));
    if (!server.secretHeaderNames().isEmpty() || !server.secretEnvironmentNames().isEmpty())
        remarks.append(tr("The link carries secrets (shown masked); they are kept in the keychain."));
    auto *remarksLabel = wrappedLabel(remarks.join(u'\n'), this);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_add = m_buttons->addButton(tr("&Add Server"), QDialogButtonBox::AcceptRole);
    m_add->setAutoDefault(false);
    m_buttons->button(QDialogButtonBox::Cancel)->setDefault(true); // adding takes a deliberate click
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_name, &QLineEdit::textChanged, this, &McpInstallDialog::checkName);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form, 1);
    layout->addWidget(remarksLabel);
    layout->addWidget(m_buttons);
    resize(560, 360);
    checkName();
}

McpServerConfig McpInstallDialog::server() const
{
    McpServerConfig server = m_server;
    server.name = m_name->text().trimmed();
    return server;
}

QString McpInstallDialog::describe(const McpServerConfig &server)
{
    QStringList lines;
    if (server.transport == McpServerConfig::Transport::Stdio) {
        lines.append(McpServerInstall::shellCommand(server));
        const QStringList secret = server.secretEnvironmentNames();
        for (auto it = server.environment.cbegin(); it != server.environment.cend(); ++it) {
            const QString value
                = secret.contains(it.key()) ? masked() : McpServerInstall::shellWord(it.value());
            lines.append(tr("Environment: %1=%2").arg(McpServerInstall::shellWord(it.key()), value));
        }
        if (!server.workingDirectory.isEmpty())
            lines.append(tr("In the folder: %1").arg(server.workingDirectory));
    } else {
        lines.append(server.url.toString());
        const QStringList secret = server.secretHeaderNames();
        for (auto it = server.headers.cbegin(); it != server.headers.cend(); ++it)
            lines.append(tr("Header: %1: %2")
                             .arg(it.key(), secret.contains(it.key())
                                                ? masked()
                                                : McpServerInstall::shellWord(it.value())));
    }
    return lines.join(u'\n');
}

void McpInstallDialog::checkName()
{
    const QString name = m_name->text().trimmed();
    QString problem = McpServerInstall::nameProblem(name);
    if (problem.isEmpty() && m_nameProblem)
        problem = m_nameProblem(name);
    m_nameProblemLabel->setText(problem);
    m_nameProblemLabel->setVisible(!problem.isEmpty());
    m_add->setEnabled(problem.isEmpty());
}

} // namespace Loopscope::Ui
