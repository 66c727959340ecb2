#pragma once

#include "agent/mcp/mcpserverconfig.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QComboBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;
class QFormLayout;
class QLabel;
QT_END_NAMESPACE

namespace Loopscope::Ui {

class KeyFileCheckBox;

/*!
    The fields of one MCP server: its name, how it is reached (a command over
    stdio, or a Streamable HTTP URL), whether it is on, and its request
    timeout. Arguments are one per line, the environment KEY=VALUE and headers
    "Name: value" per line. Secret values (credential headers, token-like
    variables) are shown masked; a masked value left as it is keeps the value
    the server had. Everything else of the server (tool rules) passes through.
    Secrets go to the keychain; on a desktop without one the editor says so and
    offers, warned, a file only the user can read (the providers' choice too).
*/
class McpServerEditor final : public QWidget
{
    Q_OBJECT

public:
    explicit McpServerEditor(QWidget *parent = nullptr);

    void setServer(const McpServerConfig &server);
    McpServerConfig server() const;
    // Empty when the fields make a server; else a sentence saying what to fix.
    QString validationError() const;
    // Puts the cursor in the name, selected, ready to be typed over (a new server).
    void focusName();

    // What a secret value is shown as.
    static QString mask();

    // Whether a key file can be chosen at all (the store offers one).
    void setKeyFileOffered(bool offered);
    // Whether this desktop has no keychain: then the editor says so and offers the file.
    void setNoKeychain(bool noKeychain);
    bool saysNoKeychain() const { return m_noKeychain; }

signals:
    void edited();

private:
    void updateTransport();
    void updateSecretHint();

    McpServerConfig m_server; // the server as set; secret values and tool rules come from it
    QLineEdit *m_name;
    QCheckBox *m_enabled;
    QComboBox *m_transport;
    QLineEdit *m_command;
    QPlainTextEdit *m_arguments;
    QPlainTextEdit *m_environment;
    QLineEdit *m_workingDirectory;
    QLineEdit *m_url;
    QPlainTextEdit *m_headers;
    QSpinBox *m_timeout;
    QLabel *m_secretHint;
    KeyFileCheckBox *m_keyFile;
    bool m_keyFileOffered = false;
    bool m_noKeychain = false;
    QFormLayout *m_form;
};

} // namespace Loopscope::Ui
