#include "tests/support/floodserver.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

namespace Loopscope {

FloodServer::FloodServer(int status, QByteArray piece, qint64 capBytes)
    : m_status(status)
    , m_piece(std::move(piece))
    , m_capBytes(capBytes)
    , m_thread(QThread::create([this] { serve(); }))
{
    m_thread->start();
}

FloodServer::~FloodServer()
{
    m_stop = true;
    m_thread->wait();
}

quint16 FloodServer::port()
{
    m_listening.acquire();
    m_listening.release();
    return m_port.load();
}

void FloodServer::serve()
{
    // Blocking calls are fine here: this thread is the server's alone.
    QTcpServer server;
    const bool listening = server.listen(QHostAddress::LocalHost);
    m_port = listening ? server.serverPort() : 0;
    m_listening.release();
    if (!listening || !server.waitForNewConnection(15000))
        return;
    std::unique_ptr<QTcpSocket> socket(server.nextPendingConnection());
    QByteArray request;
    while (!request.contains("\r\n\r\n") && socket->waitForReadyRead(5000))
        request += socket->readAll();
    if (!request.contains("\r\n\r\n"))
        return;

    socket->write("HTTP/1.1 " + QByteArray::number(m_status)
                  + " Flood\r\nContent-Type: text/event-stream\r\n"
                    "Transfer-Encoding: chunked\r\n\r\n");
    const QByteArray chunk = QByteArray::number(m_piece.size(), 16) + "\r\n" + m_piece + "\r\n";
    constexpr qint64 QueuedBytes = 64 * 1024;
    qint64 written = 0;
    while (!m_stop && socket->state() == QAbstractSocket::ConnectedState && m_accepted.load() < m_capBytes) {
        if (socket->bytesToWrite() < QueuedBytes) {
            socket->write(chunk);
            written += chunk.size();
        } else {
            socket->waitForBytesWritten(100);
        }
        m_accepted = written - socket->bytesToWrite();
    }
}

} // namespace Loopscope
