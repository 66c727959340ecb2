#pragma once

#include <QJsonObject>
#include <QString>

namespace Loopscope::Ui {

/*!
    Turns a recorded model request ({method, url, headers, body}, as in
    ModelAttempt::request) into a curl command line someone can paste into a
    POSIX shell to replay the call. Recorded requests are already redacted;
    this masks credential headers and URL keys once more, so a command never
    carries a secret even if a recording missed one.
*/
class CurlCommand final
{
public:
    // Empty when the request has no URL.
    static QString fromRequest(const QJsonObject &request);

    // The request with credential header values, URL user info and key parameters masked.
    static QJsonObject redactedRequest(const QJsonObject &request);

    // One word for a POSIX shell: single quotes, with embedded ones spelled '\''.
    static QString shellQuoted(const QString &text);
};

} // namespace Loopscope::Ui
