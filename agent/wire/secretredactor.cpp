#include "agent/wire/secretredactor.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QUrlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

void SecretRedactor::addSecret(const QString &secret)
{
    // Very short values would blank ordinary words; real keys are long.
    if (secret.size() >= 8 && !m_secrets.contains(secret))
        m_secrets.append(secret);
}

SecretScan SecretRedactor::scan() const
{
    return SecretScan(m_secrets);
}

bool SecretRedactor::isCredentialHeader(QByteArrayView name)
{
    for (QByteArrayView credential :
         {"authorization", "proxy-authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie"}) {
        if (name.compare(credential, Qt::CaseInsensitive) == 0)
            return true;
    }
    return false;
}

HttpHeaders SecretRedactor::headers(const HttpHeaders &headers) const
{
    HttpHeaders result;
    result.reserve(headers.size());
    for (const auto &[name, value] : headers)
        result.append(
            {name, isCredentialHeader(name) ? mask.toUtf8() : text(QString::fromUtf8(value)).toUtf8()});
    return result;
}

QUrl SecretRedactor::url(const QUrl &url) const
{
    QUrl result = url;
    result.setUserInfo(QString());
    QUrlQuery query(url);
    const auto items = query.queryItems(QUrl::FullyDecoded);
    for (const auto &[name, value] : items) {
        if (name.compare(u"key"_s, Qt::CaseInsensitive) == 0
            || name.compare(u"api_key"_s, Qt::CaseInsensitive) == 0) {
            query.removeAllQueryItems(name);
            query.addQueryItem(name, mask.toString());
        }
    }
    result.setQuery(query);
    return result;
}

QString SecretRedactor::text(const QString &text) const
{
    QString result = text;
    for (const QString &secret : m_secrets)
        result.replace(secret, mask.toString());
    return result;
}

QString SecretRedactor::passOn(QString &held, QStringView piece, bool last) const
{
    QString redacted = text(held + piece);
    held.clear();
    if (last)
        return redacted;
    // The longest end of the text that a secret begins with waits for the next piece.
    qsizetype keep = 0;
    for (const QString &secret : m_secrets) {
        for (qsizetype length = std::min(secret.size() - 1, redacted.size()); length > keep; --length) {
            if (QStringView(redacted).last(length) == QStringView(secret).first(length)) {
                keep = length;
                break;
            }
        }
    }
    held = redacted.last(keep);
    redacted.chop(keep);
    return redacted;
}

bool SecretRedactor::containsSecret(QStringView text) const
{
    return std::any_of(m_secrets.cbegin(), m_secrets.cend(),
                       [text](const QString &secret) { return text.contains(secret); });
}

QJsonValue SecretRedactor::json(const QJsonValue &value) const
{
    if (m_secrets.isEmpty())
        return value;
    std::optional<QJsonValue> redacted = redactedJson(value);
    return redacted ? *std::move(redacted) : value;
}

// Nothing when no secret occurs inside: the caller keeps its (shared) value, so
// recording a long conversation's request body costs a scan, not a deep copy.
std::optional<QJsonValue> SecretRedactor::redactedJson(const QJsonValue &value) const
{
    switch (value.type()) {
    case QJsonValue::String: {
        const QString string = value.toString();
        if (!containsSecret(string))
            return std::nullopt;
        return text(string);
    }
    case QJsonValue::Array: {
        const QJsonArray array = value.toArray();
        std::optional<QJsonArray> copy;
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (std::optional<QJsonValue> item = redactedJson(array.at(i))) {
                if (!copy)
                    copy = array;
                copy->replace(i, *item);
            }
        }
        return copy ? std::optional<QJsonValue>(*copy) : std::nullopt;
    }
    case QJsonValue::Object: {
        const QJsonObject object = value.toObject();
        std::optional<QJsonObject> copy;
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            const bool keyHasSecret = containsSecret(it.key());
            std::optional<QJsonValue> item = redactedJson(it.value());
            if (!keyHasSecret && !item)
                continue;
            if (!copy)
                copy = object;
            if (keyHasSecret)
                copy->remove(it.key());
            copy->insert(text(it.key()), item ? *item : it.value());
        }
        return copy ? std::optional<QJsonValue>(*copy) : std::nullopt;
    }
    default: return std::nullopt;
    }
}

SecretScan::SecretScan(const QStringList &secrets)
{
    if (secrets.isEmpty())
        return;
    m_needles.append("\\u"_ba);
    for (const QString &secret : secrets) {
        const QByteArray bytes = secret.toUtf8();
        m_alwaysSuspect |= std::any_of(bytes.cbegin(), bytes.cend(), [](char c) {
            return c == '"' || c == '\\' || c == '/' || uchar(c) < 0x20;
        });
        m_needles.append(bytes);
        m_overlap = std::max(m_overlap, bytes.size() - 1);
    }
}

void SecretScan::reset()
{
    m_tail.clear();
    m_suspect = false;
}

void SecretScan::feed(QByteArrayView bytes)
{
    if (m_suspect || m_alwaysSuspect || m_needles.isEmpty())
        return;
    // A needle may straddle two reads: look across the seam as well.
    QByteArray seam = m_tail;
    seam.append(bytes.first(std::min(bytes.size(), m_overlap)));
    m_suspect = std::any_of(m_needles.cbegin(), m_needles.cend(), [&](const QByteArray &needle) {
        return bytes.contains(needle) || seam.contains(needle);
    });
    if (bytes.size() >= m_overlap) {
        m_tail = bytes.last(m_overlap).toByteArray();
    } else {
        m_tail.append(bytes);
        m_tail = m_tail.last(std::min(m_tail.size(), m_overlap));
    }
}

} // namespace Loopscope
