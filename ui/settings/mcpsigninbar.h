#pragma once

#include "agent/mcp/mcpoauthsettings.h"

#include <QPointer>
#include <QWidget>

#include <optional>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
QT_END_NAMESPACE

namespace Loopscope {
class McpClient;
}

namespace Loopscope::Ui {

/*!
    The MCP Servers page's line about an HTTP server's OAuth sign-in: "Signed
    in at <issuer> · scopes · expires …" with Sign out (which removes the
    tokens from the keychain), or "Not signed in" with Sign in (which the page
    answers by restarting the server, so it signs in when the server asks).
    Hidden for servers that run as a command. It shows the issuer, scopes and
    expiry only — never a token.

    Controls carry object names for tests: "mcpSignInLabel",
    "mcpSignInButton", "mcpSignOutButton".
*/
class McpSignInBar final : public QWidget
{
    Q_OBJECT

public:
    explicit McpSignInBar(QWidget *parent = nullptr);

    // \a http: whether the server is reached over HTTP (else the bar hides); \a client may be null
    // (the server does not run yet: Sign in waits until it is saved).
    void setServer(bool http, McpClient *client);

    // "Signed in at https://as.example.com · scopes files:read · expires 14:05", or "Not signed in".
    static QString signInText(const std::optional<McpSignIn> &signIn);

signals:
    void signInRequested();

private:
    void refresh();
    void signOut();

    QPointer<McpClient> m_client;
    bool m_http = false;
    QString m_error; // of the last sign-out
    QLabel *m_label;
    QPushButton *m_signInButton;
    QPushButton *m_signOutButton;
};

} // namespace Loopscope::Ui
