#pragma once

#include "agent/wire/httpheaders.h"

#include <QJsonValue>
#include <QStringList>
#include <QUrl>

#include <optional>

namespace Loopscope {

class SecretScan;

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
    // For text that arrives in pieces: the redacted part of held + piece that is safe to pass on.
    // What could be the start of a secret is kept in held for the next piece (pass an empty
    // piece at the end to take the rest).
    QString passOn(QString &held, QStringView piece, bool last = false) const;

    static bool isCredentialHeader(QByteArrayView name);
    // A scan for this redactor's secrets in JSON text as it arrives.
    SecretScan scan() const;

private:
    bool containsSecret(QStringView text) const;
    std::optional<QJsonValue> redactedJson(const QJsonValue &value) const;

    QStringList m_secrets;
};

/*!
    Watches a JSON response's bytes as they arrive for anything that could spell a secret, so that
    recording a response that holds none skips redaction's walk through every value of it, which
    costs more than the rest of reading it. A secret shows in JSON text verbatim or through \u
    escapes; one with a character JSON may escape otherwise (a quote, a backslash, a slash, a
    control character) is always suspected.
*/
class SecretScan final
{
public:
    SecretScan() = default;
    explicit SecretScan(const QStringList &secrets);

    void reset();
    void feed(QByteArrayView bytes);
    // False only when no string in the text fed since reset() can hold a secret.
    bool mayHoldSecret() const { return m_suspect || m_alwaysSuspect; }

private:
    QList<QByteArray> m_needles; // each secret, and the escape that could spell one
    qsizetype m_overlap = 0;     // how much of the last read a needle may continue from
    QByteArray m_tail;
    bool m_alwaysSuspect = false;
    bool m_suspect = false;
};

} // namespace Loopscope
