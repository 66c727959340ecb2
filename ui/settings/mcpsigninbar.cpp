#include "ui/settings/mcpsigninbar.h"

#include "agent/mcp/mcpclient.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

McpSignInBar::McpSignInBar(QWidget *parent)
    : QWidget(parent)
    , m_label(new QLabel(this))
    , m_signInButton(new QPushButton(tr("Sign &in"), this))
    , m_signOutButton(new QPushButton(tr("Sign &out"), this))
{
    m_label->setObjectName(u"mcpSignInLabel"_s);
    m_label->setAccessibleName(tr("OAuth sign-in"));
    m_label->setWordWrap(true);
    m_label->setTextFormat(Qt::PlainText);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_signInButton->setObjectName(u"mcpSignInButton"_s);
    m_signInButton->setAccessibleName(tr("Sign in to the selected MCP server"));
    m_signInButton->setToolTip(
        tr("Restarts the server; when it asks for OAuth, the browser opens to sign in"));
    m_signOutButton->setObjectName(u"mcpSignOutButton"_s);
    m_signOutButton->setAccessibleName(tr("Sign out of the selected MCP server"));
    m_signOutButton->setToolTip(tr("Removes the server's tokens from the keychain"));

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_signInButton);
    layout->addWidget(m_signOutButton);

    connect(m_signInButton, &QPushButton::clicked, this, &McpSignInBar::signInRequested);
    connect(m_signOutButton, &QPushButton::clicked, this, &McpSignInBar::signOut);
    refresh();
}

QString McpSignInBar::signInText(const std::optional<McpSignIn> &signIn)
{
    if (!signIn)
        return tr("Not signed in");
    QString text = tr("Signed in at %1").arg(signIn->issuer);
    if (!signIn->scope.isEmpty())
        text += tr(" · scopes %1").arg(signIn->scope);
    if (signIn->expires.isValid())
        text += tr(" · expires %1")
                    .arg(QLocale().toString(signIn->expires.toLocalTime(), QLocale::ShortFormat));
    return text;
}

void McpSignInBar::setServer(bool http, McpClient *client)
{
    if (m_client != client) {
        if (m_client)
            disconnect(m_client, nullptr, this, nullptr);
        m_client = client;
        m_error.clear();
        if (client) {
            connect(client, &McpClient::signInChanged, this, &McpSignInBar::refresh);
            connect(client, &McpClient::stateChanged, this, &McpSignInBar::refresh);
        }
    }
    m_http = http;
    refresh();
}

void McpSignInBar::refresh()
{
    setVisible(m_http);
    const std::optional<McpSignIn> signIn = m_client ? m_client->signIn() : std::nullopt;
    QString text = signInText(signIn);
    if (!m_error.isEmpty())
        text += u'\n' + tr("Signing out did not remove the tokens from the keychain: %1").arg(m_error);
    m_label->setText(text);
    m_signOutButton->setVisible(signIn.has_value());
    m_signInButton->setVisible(!signIn.has_value());
    m_signInButton->setEnabled(m_client != nullptr);
}

void McpSignInBar::signOut()
{
    if (!m_client)
        return;
    m_error.clear();
    m_client->signOut([self = QPointer(this)](const QString &error) {
        if (!self)
            return;
        self->m_error = error;
        self->refresh();
    });
}

} // namespace Loopscope::Ui
