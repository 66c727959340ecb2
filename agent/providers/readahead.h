#pragma once

#include <QtGlobal>

class QNetworkReply;

namespace Loopscope {

/*!
    Bounds how far Qt's HTTP thread reads a reply's body ahead of the application: once
    \a bytes wait unread, it stops reading the socket, so a server that sends faster than the
    body is handled waits in TCP instead of growing the process.

    QNetworkReply::setReadBufferSize() alone does not do that for a request with a body in
    Qt 6.4: QNetworkReplyHttpImpl starts such a request one event later (a queued
    _q_startOperation), and only then creates the HTTP thread's delegate and connects the signal
    that carries the size to it, so a size set right after post() reaches nothing and the HTTP
    thread reads without bound. This sets it at once, again after that start, and again after each redirect
   (which starts the request anew the same way).
*/
void limitReadAhead(QNetworkReply *reply, qint64 bytes);

} // namespace Loopscope
