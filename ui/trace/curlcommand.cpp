#include "ui/trace/curlcommand.h"

#include "agent/wire/secretredactor.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope::Ui {

namespace {

bool urlNeedsRedaction(const QUrl &url)
{
    if (!url.userInfo().isEmpty())
        return true;
    const auto items = QUrlQuery(url).queryItems();
    return std::any_of(items.cbegin(), items.cend(), [](const auto &item) {
        return item.first.compare(u"key"_s, Qt::CaseInsensitive) == 0
               || item.first.compare(u"api_key"_s, Qt::CaseInsensitive) == 0;
    });
}

QString redactedUrl(const QString &text)
{
    const QUrl url(text);
    // Rebuilding a URL may re-encode it: only touch one that holds something to hide.
    if (!url.isValid() || !urlNeedsRedaction(url))
        return text;
    return SecretRedactor().url(url).toString();
}

} // namespace

QString CurlCommand::shellQuoted(const QString &text)
{
    QString quoted = text;
    quoted.replace(u'\'', u"'\\''"_s);
    return u'\'' + quoted + u'\'';
}

QJsonObject CurlCommand::redactedRequest(const QJsonObject &request)
{
    QJsonObject result = request;
    if (request.contains(u"url"_s))
        result.insert(u"url"_s, redactedUrl(request.value(u"url"_s).toString()));
    const QJsonObject headers = request.value(u"headers"_s).toObject();
    QJsonObject masked;
    for (auto it = headers.constBegin(); it != headers.constEnd(); ++it) {
        const bool credential = SecretRedactor::isCredentialHeader(it.key().toLatin1());
        masked.insert(it.key(), credential ? QJsonValue(SecretRedactor::mask.toString()) : it.value());
    }
    if (request.contains(u"headers"_s))
        result.insert(u"headers"_s, masked);
    return result;
}

QString CurlCommand::fromRequest(const QJsonObject &recorded)
{
    const QJsonObject request = redactedRequest(recorded);
    const QString url = request.value(u"url"_s).toString();
    if (url.isEmpty())
        return {};

    const QJsonValue body = request.value(u"body"_s);
    QString data;
    bool hasBody = true;
    bool streams = false;
    switch (body.type()) {
    case QJsonValue::Object:
        data = QString::fromUtf8(QJsonDocument(body.toObject()).toJson(QJsonDocument::Compact));
        streams = body.toObject().value(u"stream"_s).toBool();
        break;
    case QJsonValue::Array:
        data = QString::fromUtf8(QJsonDocument(body.toArray()).toJson(QJsonDocument::Compact));
        break;
    case QJsonValue::String: data = body.toString(); break;
    default: hasBody = false; break;
    }

    QStringList lines{u"curl "_s + shellQuoted(url)};
    // curl infers POST from --data-binary and GET without it: only say what it cannot guess.
    const QString method = request.value(u"method"_s).toString().toUpper();
    const QString inferred = hasBody ? u"POST"_s : u"GET"_s;
    if (!method.isEmpty() && method != inferred)
        lines.append(u"--request "_s + shellQuoted(method));
    const QJsonObject headers = request.value(u"headers"_s).toObject();
    for (auto it = headers.constBegin(); it != headers.constEnd(); ++it)
        lines.append(u"--header "_s + shellQuoted(it.key() + u": "_s + it.value().toString()));
    // A streamed answer should print as it arrives.
    if (streams)
        lines.append(u"--no-buffer"_s);
    if (hasBody)
        lines.append(u"--data-binary "_s + shellQuoted(data));
    return lines.join(u" \\\n  "_s);
}

} // namespace Loopscope::Ui
