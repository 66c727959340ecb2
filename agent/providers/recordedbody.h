#pragma once

#include "agent/model/modelrequest.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace Loopscope {

/*!
    What a model call's attempts record of the body they sent. A tool loop resends its whole
    history with every call, so a body recorded whole makes a turn's trace grow with the square of
    its length. An attempt records instead {"bodyFrom": "request"}: its body was the provider's
    encoding of the call's request, which the trace keeps (as a delta of the call before it). Who
    wants to show or resend the body (the details pane, "copy as curl") rebuilds it here.
*/
namespace RecordedBody {

// The marker an attempt's request holds instead of "body".
inline constexpr QStringView key = u"bodyFrom";
inline constexpr QStringView fromRequest = u"request";

// The attempt's request {method, url, headers, body} with its body: as recorded when it has one,
// else rebuilt from \a callRequest (the call's "request" JSON) by \a provider's protocol, the
// marker kept beside it to say so. Returns \a attemptRequest unchanged when it can be neither.
QJsonObject withBody(const QJsonObject &attemptRequest, const QString &provider,
                     const QJsonObject &callRequest);

// The body \a provider's protocol sends for \a request, as JSON; undefined for an unknown provider.
QJsonValue rebuild(const QString &provider, const ModelRequest &request);

} // namespace RecordedBody

} // namespace Loopscope
