#pragma once

#include "agent/mcp/urlopener.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

namespace Loopscope::McpTestServers {

/*!
    A browser without a person, for the OAuth tests: it follows the
    authorization server's redirects back to Loopscope's loopback listener.
*/
class FollowingOpener final : public UrlOpener
{
public:
    explicit FollowingOpener(QNetworkAccessManager *network)
        : m_network(network)
    {}
    QString open(const QUrl &url) const override
    {
        ++opened;
        if (delayMs > 0) {
            QTimer::singleShot(delayMs, m_network, [this, url] { follow(url); });
            return {};
        }
        follow(url);
        return {};
    }
    mutable int opened = 0;
    int delayMs = 0; // how long the person takes to sign in

private:
    void follow(const QUrl &url) const
    {
        QNetworkRequest request(url);
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                             QNetworkRequest::NoLessSafeRedirectPolicy);
        QNetworkReply *reply = m_network->get(request);
        QObject::connect(reply, &QNetworkReply::finished, reply, &QObject::deleteLater);
    }

    QNetworkAccessManager *m_network;
};

} // namespace Loopscope::McpTestServers
