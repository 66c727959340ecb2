#include "secretredactor.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace Loopscope {

void SecretRedactor::addSecret(const QString &secret)
{
    // Very short values would blank ordinary words; real keys are long.
    if (secret.size() >= 8 && !m_secrets.contains(secret))
        m_secrets.append(secret);
}

bool SecretRedactor::isCredentialHeader(QByteArrayView name)
{
    for (QByteArrayView credential : {"authorization", "proxy-authorization", "x-api-key", "x-goog-api-key",
                                      "api-key", "cookie"}) {
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
        result.append({name, isCredentialHeader(name) ? mask.toUtf8() : text(QString::fromUtf8(value)).toUtf8()});
    return result;
}

QUrl SecretRedactor::url(const QUrl &url) const
{
    QUrl result = url;
    result.setUserInfo(QString());
    QUrlQuery query(url);
    const auto items = query.queryItems(QUrl::FullyDecoded);
    for (const auto &[name, value] : items) {
        if (name.compare(u"key"_s, Qt::CaseInsensitive) == 0 || name.compare(u"api_key"_s, Qt::CaseInsensitive) == 0) {
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

QJsonValue SecretRedactor::json(const QJsonValue &value) const
{
    if (m_secrets.isEmpty())
        return value;
    switch (value.type()) {
    case QJsonValue::String:
        return text(value.toString());
    case QJsonValue::Array: {
        QJsonArray array;
        for (const QJsonValue &item : value.toArray())
            array.append(json(item));
        return array;
    }
    case QJsonValue::Object: {
        const QJsonObject object = value.toObject();
        QJsonObject result;
        for (auto it = object.begin(); it != object.end(); ++it)
            result.insert(text(it.key()), json(it.value()));
        return result;
    }
    default:
        return value;
    }
}

} // namespace Loopscope
