#pragma once

#include "agent/providers/providerprotocol.h"

#include <QJsonValue>
#include <QStringList>

#include <optional>

namespace Loopscope {

/*!
    Keeps secrets out of everything Loopscope records. It blanks the values of
    credential headers (Authorization, x-api-key, x-goog-api-key) and of
    `key=` in URLs, and replaces any known secret wherever it appears in
    text, since providers like to echo part of a rejected key back.
*/
class SecretRedactor final
{
public:
    static constexpr QStringView mask = u"[redacted]";

    void addSecret(const QString &secret);

    HttpHeaders headers(const HttpHeaders &headers) const;
    QUrl url(const QUrl &url) const;
    QString text(const QString &text) const;
    QJsonValue json(const QJsonValue &value) const;

    static bool isCredentialHeader(QByteArrayView name);

private:
    bool containsSecret(QStringView text) const;
    std::optional<QJsonValue> redactedJson(const QJsonValue &value) const;

    QStringList m_secrets;
};

} // namespace Loopscope
