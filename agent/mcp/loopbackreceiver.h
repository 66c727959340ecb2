#pragma once

#include <QObject>
#include <QPointer>
#include <QUrl>
#include <QUrlQuery>

QT_BEGIN_NAMESPACE
class QTcpServer;
class QTcpSocket;
QT_END_NAMESPACE

namespace Loopscope {

/*!
    Where the browser comes back after the user signed in: a listener on
    127.0.0.1 with a port the system picks, for the one redirect request of
    an OAuth authorization. It answers that request with a short page and
    reports its query; it is no HTTP client and serves nothing else.
*/
class LoopbackReceiver final : public QObject
{
    Q_OBJECT

public:
    explicit LoopbackReceiver(QObject *parent = nullptr);
    ~LoopbackReceiver() override;

    // Starts listening; false (with errorString()) when no port could be had.
    bool listen();
    QString errorString() const { return m_error; }
    // http://127.0.0.1:PORT/callback once listening.
    QUrl redirectUri() const;

signals:
    // The query of the redirect (code and state, or error); sent once.
    void redirected(const QUrlQuery &query);

private:
    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);

    static constexpr qsizetype MaxRequestBytes = 16 * 1024;

    QTcpServer *m_server = nullptr;
    QString m_error;
    bool m_done = false;
};

} // namespace Loopscope
