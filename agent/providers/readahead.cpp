#include "agent/providers/readahead.h"

#include <QMetaObject>
#include <QNetworkReply>

namespace Loopscope {

void limitReadAhead(QNetworkReply *reply, qint64 bytes)
{
    const auto setAfterStart = [reply, bytes] {
        // A request with a body starts from an event already queued for the reply; this one runs
        // after it, and the size it sends reaches the HTTP thread after the request was handed to it.
        QMetaObject::invokeMethod(
            reply, [reply, bytes] { reply->setReadBufferSize(bytes); }, Qt::QueuedConnection);
    };
    // A request without a body (GET) has started by now and takes the size at once.
    reply->setReadBufferSize(bytes);
    setAfterStart();
    // A redirect is sent anew, from an event queued just before this signal, to a new HTTP thread side.
    QObject::connect(reply, &QNetworkReply::redirected, reply, setAfterStart);
}

} // namespace Loopscope
