#pragma once

#include "agent/tools/tool.h"

#include <QCoreApplication>
#include <QPointer>

#include <functional>

QT_BEGIN_NAMESPACE
class QHostAddress;
class QNetworkAccessManager;
QT_END_NAMESPACE

namespace Loopscope {

/*!
    Lets the model read a web page or an API's answer: an HTTP(S) GET through
    the application's QNetworkAccessManager. Text and JSON come back as text,
    HTML reduced to readable text (HtmlText), anything else described by type
    and size, not dumped. Size, redirects and time are capped; the final URL
    and the status are in the result.

    A tool the model controls must not become a way into the user's network:
    every host is resolved and refused when any of its addresses is loopback,
    private, link-local, CGNAT or otherwise not public, on the first request
    and on every redirect, unless the user allowed private addresses.

    It answers later (an AsyncTool): started on the loop's thread, which must
    be the manager's, it answers from the reply's signals, and cancellation
    aborts the request. It asks the user first.
*/
class FetchUrlTool final : public AsyncTool
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::FetchUrlTool)

public:
    static constexpr QLatin1StringView Name{"fetch_url"};
    static constexpr int DefaultMaxKb = 256;
    static constexpr int MaxMaxKb = 4096;
    static constexpr int MaxRedirects = 5;

    struct Options
    {
        bool allowPrivateAddresses = false;
        int timeoutMs = 30'000; // per request, with no data flowing
        // Which resolved addresses are refused when private ones are not allowed; isPrivateAddress()
        // unless set (tests trust one loopback address to check the others are refused).
        std::function<bool(const QHostAddress &)> refusesAddress;
    };

    FetchUrlTool(QPointer<QNetworkAccessManager> network, Options options);

    ToolSchema schema() const override;
    ToolBehaviour behaviour() const override;
    QFuture<ToolResult> start(const QJsonObject &arguments,
                              std::shared_ptr<ToolContext> context) const override;

    // Loopback, private (RFC 1918), link-local, CGNAT (100.64/10), unspecified,
    // multicast, reserved, IPv6 unique-local and link-local, and IPv4 mapped into IPv6 alike.
    static bool isPrivateAddress(const QHostAddress &address);

private:
    QPointer<QNetworkAccessManager> m_network;
    Options m_options;
};

} // namespace Loopscope
