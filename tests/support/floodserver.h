#pragma once

#include <QByteArray>
#include <QSemaphore>
#include <QThread>

#include <atomic>
#include <memory>

namespace Loopscope {

/*!
    An HTTP/1.1 server on 127.0.0.1 that runs on a thread of its own and answers one request with
    a chunked body of \a piece after \a piece, as fast as the client's socket takes them, until
    \a capBytes are out or the client leaves. It counts what the client's side accepted (written
    minus what still waits to be written): how far a client lets a server get ahead of it while
    it handles what came. Its own thread keeps it sending while the client's is busy.
*/
class FloodServer final
{
public:
    FloodServer(int status, QByteArray piece, qint64 capBytes);
    ~FloodServer();

    // Blocks until the thread listens; 0 if it could not.
    quint16 port();
    // Body bytes (with chunk framing) the client side accepted so far.
    qint64 accepted() const { return m_accepted.load(); }
    // Whether the server stopped: the cap was reached, the client left or nothing came.
    bool isDone() const { return m_thread->isFinished(); }

private:
    void serve();

    int m_status;
    QByteArray m_piece;
    qint64 m_capBytes;
    std::atomic<quint16> m_port{0};
    std::atomic<qint64> m_accepted{0};
    std::atomic<bool> m_stop{false};
    QSemaphore m_listening;
    std::unique_ptr<QThread> m_thread;
};

} // namespace Loopscope
