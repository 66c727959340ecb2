#include "agent/mcp/loopbackreceiver.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {
constexpr auto CallbackPath = "/callback"_L1;
}

LoopbackReceiver::LoopbackReceiver(QObject *parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &LoopbackReceiver::onNewConnection);
}

LoopbackReceiver::~LoopbackReceiver() = default;

bool LoopbackReceiver::listen()
{
    if (m_server->isListening())
        return true;
    if (!m_server->listen(QHostAddress::LocalHost, 0)) {
        m_error = m_server->errorString();
        return false;
    }
    return true;
}

QUrl LoopbackReceiver::redirectUri() const
{
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(u"127.0.0.1"_s);
    url.setPort(m_server->serverPort());
    url.setPath(CallbackPath);
    return url;
}

void LoopbackReceiver::onNewConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
    }
}

void LoopbackReceiver::onReadyRead(QTcpSocket *socket)
{
    if (socket->bytesAvailable() > MaxRequestBytes) {
        socket->abort();
        return;
    }
    if (!socket->canReadLine())
        return;
    // "GET /callback?code=…&state=… HTTP/1.1": the request line is all that matters.
    const QList<QByteArray> parts = socket->readLine().trimmed().split(' ');
    const QUrl target = parts.size() == 3 ? QUrl(QString::fromLatin1(parts.at(1))) : QUrl();
    const bool isCallback = parts.value(0) == "GET" && target.path() == CallbackPath && !m_done;
    const QByteArray page = isCallback ? tr("Loopscope received the answer of the sign-in. You can close "
                                            "this page.")
                                             .toUtf8()
                                       : QByteArray("Not found");
    socket->write(
        (isCallback ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.1 404 Not Found\r\n")
        + QByteArray("Content-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: ")
        + QByteArray::number(page.size()) + "\r\n\r\n" + page);
    socket->disconnectFromHost();
    if (!isCallback)
        return;
    m_done = true;
    m_server->close();
    emit redirected(QUrlQuery(target));
}

} // namespace Loopscope
