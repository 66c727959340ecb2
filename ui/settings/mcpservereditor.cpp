#include "ui/settings/mcpservereditor.h"

#include "ui/settings/keyfilecheckbox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalBlocker>
#include <QSpinBox>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

template<typename Widget>
Widget *named(Widget *widget, const QString &objectName, const QString &accessibleName)
{
    widget->setObjectName(objectName);
    widget->setAccessibleName(accessibleName);
    return widget;
}

QPlainTextEdit *linesEdit(QWidget *parent, const QString &placeholder)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setTabChangesFocus(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setPlaceholderText(placeholder);
    const int frame = 2 * edit->frameWidth() + 2 * int(edit->document()->documentMargin());
    edit->setMinimumHeight(edit->fontMetrics().lineSpacing() * 3 + frame);
    edit->setMaximumHeight(edit->fontMetrics().lineSpacing() * 6 + frame);
    return edit;
}

QStringList nonEmptyLines(const QString &text)
{
    QStringList lines;
    for (const QString &line : text.split(u'\n')) {
        if (!line.trimmed().isEmpty())
            lines.append(line.trimmed());
    }
    return lines;
}

// "KEY=VALUE" or "Name: value" lines; secret values as the mask. An unknown
// value (not loaded from the keychain yet) shows as the mask too.
QString pairsText(const QMap<QString, QString> &pairs, const QStringList &secret, const QString &separator)
{
    QStringList lines;
    for (auto it = pairs.cbegin(); it != pairs.cend(); ++it)
        lines.append(it.key() + separator
                     + (secret.contains(it.key()) ? McpServerEditor::mask() : it.value()));
    return lines.join(u'\n');
}

// Parses pairs; nullopt with *badLine set (1-based) when a line has no separator or name.
std::optional<QMap<QString, QString>> parsePairs(const QString &text, QChar separator,
                                                 const QMap<QString, QString> &previous, int *badLine)
{
    QMap<QString, QString> pairs;
    const QStringList lines = text.split(u'\n');
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype at = line.indexOf(separator);
        const QString name = at > 0 ? line.left(at).trimmed() : QString();
        if (name.isEmpty()) {
            *badLine = i + 1;
            return std::nullopt;
        }
        QString value = line.mid(at + 1).trimmed();
        if (value == McpServerEditor::mask())
            value = previous.value(name); // unchanged: the stored secret (or blank until it is loaded)
        pairs.insert(name, value);
    }
    return pairs;
}

} // namespace

McpServerEditor::McpServerEditor(QWidget *parent)
    : QWidget(parent)
    , m_name(named(new QLineEdit(this), u"mcpNameEdit"_s, tr("Server name")))
    , m_enabled(named(new QCheckBox(tr("&Enabled"), this), u"mcpEnabledCheck"_s, tr("Server enabled")))
    , m_transport(named(new QComboBox(this), u"mcpTransportCombo"_s, tr("Transport")))
    , m_command(named(new QLineEdit(this), u"mcpCommandEdit"_s, tr("Command")))
    , m_arguments(named(linesEdit(this, tr("One argument per line")), u"mcpArgumentsEdit"_s, tr("Arguments")))
    , m_environment(
          named(linesEdit(this, tr("KEY=VALUE, one per line")), u"mcpEnvironmentEdit"_s, tr("Environment")))
    , m_workingDirectory(named(new QLineEdit(this), u"mcpWorkingDirectoryEdit"_s, tr("Working folder")))
    , m_url(named(new QLineEdit(this), u"mcpUrlEdit"_s, tr("URL")))
    , m_headers(named(linesEdit(this, tr("Name: value, one per line")), u"mcpHeadersEdit"_s, tr("Headers")))
    , m_timeout(named(new QSpinBox(this), u"mcpTimeoutSpin"_s, tr("Request timeout in seconds")))
{
    m_name->setPlaceholderText(tr("e.g. files"));
    m_transport->addItem(tr("Command (stdio)"), u"stdio"_s);
    m_transport->addItem(tr("Streamable HTTP"), u"http"_s);
    m_command->setPlaceholderText(tr("e.g. npx"));
    m_workingDirectory->setPlaceholderText(tr("The workspace folder"));
    m_url->setPlaceholderText(tr("https://example.com/mcp"));
    m_timeout->setRange(0, 3600);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setSpecialValueText(tr("Default (%1 s)").arg(McpServerConfig::DefaultRequestTimeoutMs / 1000));

    m_secretHint = new QLabel(this);
    m_secretHint->setObjectName(u"mcpSecretHint"_s);
    m_secretHint->setWordWrap(true);
    m_keyFile = new KeyFileCheckBox(
        tr("Keep secrets in a fi&le only you can read"),
        tr("This server’s secrets (Authorization, API keys, tokens) will be kept unencrypted in a file that "
           "only your user account can read. Anyone who can use your account, and your backups, can read "
           "them too. A keychain would keep them encrypted."),
        this);
    m_keyFile->setObjectName(u"mcpKeyFileCheck"_s);
    m_keyFile->setAccessibleName(tr("Keep this server’s secrets in a file only you can read"));
    connect(m_keyFile, &KeyFileCheckBox::chosen, this, [this] {
        updateSecretHint();
        emit edited();
    });

    // One form, so every label lines up; the rows of the other transport are hidden.
    m_form = new QFormLayout(this);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->addRow(tr("&Name:"), m_name);
    m_form->addRow(QString(), m_enabled);
    m_form->addRow(tr("&Transport:"), m_transport);
    m_form->addRow(tr("&Command:"), m_command);
    m_form->addRow(tr("&Arguments:"), m_arguments);
    m_form->addRow(tr("En&vironment:"), m_environment);
    m_form->addRow(tr("&Working folder:"), m_workingDirectory);
    m_form->addRow(tr("&URL:"), m_url);
    m_form->addRow(tr("&Headers:"), m_headers);
    m_form->addRow(QString(), m_secretHint);
    m_form->addRow(QString(), m_keyFile);
    m_form->addRow(tr("Request &timeout:"), m_timeout);

    connect(m_transport, &QComboBox::currentIndexChanged, this, &McpServerEditor::updateTransport);
    for (QLineEdit *edit : {m_name, m_command, m_workingDirectory, m_url})
        connect(edit, &QLineEdit::textEdited, this, &McpServerEditor::edited);
    for (QPlainTextEdit *edit : {m_arguments, m_environment, m_headers})
        connect(edit, &QPlainTextEdit::textChanged, this, &McpServerEditor::edited);
    connect(m_enabled, &QCheckBox::toggled, this, &McpServerEditor::edited);
    connect(m_transport, &QComboBox::activated, this, &McpServerEditor::edited);
    connect(m_timeout, &QSpinBox::valueChanged, this, &McpServerEditor::edited);
    updateTransport();
    updateSecretHint();
}

QString McpServerEditor::mask()
{
    return u"••••••••"_s;
}

void McpServerEditor::setServer(const McpServerConfig &server)
{
    const QSignalBlocker blocker(this);
    m_server = server;
    m_name->setText(server.name);
    m_enabled->setChecked(server.enabled);
    m_transport->setCurrentIndex(server.transport == McpServerConfig::Transport::Http ? 1 : 0);
    m_command->setText(server.command);
    m_arguments->setPlainText(server.arguments.join(u'\n'));
    m_environment->setPlainText(pairsText(server.environment, server.secretEnvironmentNames(), u"="_s));
    m_workingDirectory->setText(server.workingDirectory);
    m_url->setText(server.url.toString());
    m_headers->setPlainText(pairsText(server.headers, server.secretHeaderNames(), u": "_s));
    m_timeout->setValue(server.requestTimeoutMs ? std::max(1, *server.requestTimeoutMs / 1000) : 0);
    m_keyFile->showChoice(server.secretStorage == McpServerConfig::SecretStorage::File);
    updateTransport();
    updateSecretHint();
}

void McpServerEditor::setKeyFileOffered(bool offered)
{
    m_keyFileOffered = offered;
    updateSecretHint();
}

void McpServerEditor::setNoKeychain(bool noKeychain)
{
    m_noKeychain = noKeychain;
    updateSecretHint();
}

void McpServerEditor::updateSecretHint()
{
    const bool inFile = m_keyFile->isChecked();
    const bool warn = m_noKeychain && !inFile;
    QString hint;
    if (warn) {
        hint = tr("No keychain is available on this desktop, so secrets cannot be kept encrypted. Keep them "
                  "in a file only you can read, or leave token variables out here and set them in the "
                  "environment Loopscope starts in.");
    } else if (inFile) {
        hint = tr("Authorization, API keys and tokens are kept in a file only you can read and shown as %1.")
                   .arg(mask());
    } else {
        hint = tr("Authorization, API keys and tokens are kept in the keychain and shown as %1.").arg(mask());
    }
    m_secretHint->setText(hint);
    m_secretHint->setForegroundRole(warn ? QPalette::WindowText : QPalette::PlaceholderText);
    m_form->setRowVisible(m_keyFile, m_keyFileOffered && (m_noKeychain || inFile));
}

void McpServerEditor::focusName()
{
    m_name->setFocus();
    m_name->selectAll();
}

McpServerConfig McpServerEditor::server() const
{
    McpServerConfig server = m_server;
    server.name = m_name->text().trimmed();
    server.enabled = m_enabled->isChecked();
    server.transport = m_transport->currentIndex() == 1 ? McpServerConfig::Transport::Http
                                                        : McpServerConfig::Transport::Stdio;
    server.command = m_command->text().trimmed();
    server.arguments = nonEmptyLines(m_arguments->toPlainText());
    int badLine = 0;
    server.environment = parsePairs(m_environment->toPlainText(), u'=', m_server.environment, &badLine)
                             .value_or(m_server.environment);
    server.workingDirectory = m_workingDirectory->text().trimmed();
    server.url = QUrl(m_url->text().trimmed());
    server.headers
        = parsePairs(m_headers->toPlainText(), u':', m_server.headers, &badLine).value_or(m_server.headers);
    server.secretStorage = m_keyFile->isChecked() ? McpServerConfig::SecretStorage::File
                                                  : McpServerConfig::SecretStorage::Keychain;
    // The timeout field is in seconds: an untouched one keeps an exact stored value.
    const int seconds = m_timeout->value();
    if (seconds == 0)
        server.requestTimeoutMs.reset();
    else if (!m_server.requestTimeoutMs || std::max(1, *m_server.requestTimeoutMs / 1000) != seconds)
        server.requestTimeoutMs = seconds * 1000;
    return server;
}

QString McpServerEditor::validationError() const
{
    if (m_name->text().trimmed().isEmpty())
        return tr("The server needs a name.");
    const QString name = m_name->text().trimmed();
    int badLine = 0;
    if (m_transport->currentIndex() == 0) {
        if (m_command->text().trimmed().isEmpty())
            return tr("“%1” needs a command to start.").arg(name);
        if (!parsePairs(m_environment->toPlainText(), u'=', {}, &badLine))
            return tr("“%1”: line %2 of the environment is not KEY=VALUE.").arg(name).arg(badLine);
    } else {
        const QUrl url(m_url->text().trimmed(), QUrl::StrictMode);
        if (!url.isValid() || url.host().isEmpty()
            || (url.scheme() != "http"_L1 && url.scheme() != "https"_L1))
            return tr("“%1” needs an http:// or https:// URL.").arg(name);
        if (!parsePairs(m_headers->toPlainText(), u':', {}, &badLine))
            return tr("“%1”: line %2 of the headers is not “Name: value”.").arg(name).arg(badLine);
    }
    return {};
}

void McpServerEditor::updateTransport()
{
    const bool http = m_transport->currentIndex() == 1;
    for (QWidget *field : {static_cast<QWidget *>(m_command), static_cast<QWidget *>(m_arguments),
                           static_cast<QWidget *>(m_environment), static_cast<QWidget *>(m_workingDirectory)})
        m_form->setRowVisible(field, !http);
    for (QWidget *field : {static_cast<QWidget *>(m_url), static_cast<QWidget *>(m_headers)})
        m_form->setRowVisible(field, http);
}

} // namespace Loopscope::Ui
