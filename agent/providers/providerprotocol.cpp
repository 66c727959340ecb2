#include "agent/providers/providerprotocol.h"

#include <QCoreApplication>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Loopscope {

QString JsonBodyDecoder::feed(QByteArrayView bytes, StreamSink &)
{
    m_body.append(bytes);
    return {};
}

std::variant<ModelResponse, QString> JsonBodyDecoder::finish()
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(m_body, &parseError);
    if (!document.isObject()) {
        const QString why
            = parseError.error == QJsonParseError::NoError
                  ? QCoreApplication::translate("Loopscope::JsonBodyDecoder", "it is an array or a value")
                  : parseError.errorString();
        return QCoreApplication::translate("Loopscope::JsonBodyDecoder",
                                           "%1's response is not a JSON object (%2).")
            .arg(m_provider, why);
    }
    return decode(document.object());
}

QJsonValue JsonBodyDecoder::recordedResponse() const
{
    // Kept as JSON when it is, so the inspector can fold it; otherwise as the text that came.
    const QJsonDocument document = QJsonDocument::fromJson(m_body);
    return document.isObject() ? QJsonValue(document.object()) : QJsonValue(QString::fromUtf8(m_body));
}

// Most providers wrap errors as {"error": {"message": ...}} or {"error": "..."}.
QString ProviderProtocol::errorMessage(const QByteArray &body) const
{
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    const QJsonValue error = object.value(u"error"_s);
    if (error.isString())
        return error.toString();
    const QString message = error.toObject().value(u"message"_s).toString();
    if (!message.isEmpty())
        return message;
    return object.value(u"message"_s).toString();
}

QString describeHttpStatus(const ProviderProtocol &protocol, int status, const QByteArray &body)
{
    QString detail = protocol.errorMessage(body);
    if (detail.isEmpty())
        detail = QString::fromUtf8(body.left(300)).simplified();
    QString summary;
    if (status == 401 || status == 403)
        summary = QCoreApplication::translate("Loopscope::HttpModelClient", "the API key was rejected (%1)")
                      .arg(status);
    else if (status == 429)
        summary = QCoreApplication::translate("Loopscope::HttpModelClient", "rate limited (429)");
    else if (status == 404)
        summary = QCoreApplication::translate("Loopscope::HttpModelClient",
                                              "not found (404): check the base URL and the model name");
    else if (status == 400 || status == 422)
        summary = QCoreApplication::translate("Loopscope::HttpModelClient",
                                              "the provider refused the request (%1)")
                      .arg(status);
    else if (status == 529 || status == 503)
        summary = QCoreApplication::translate("Loopscope::HttpModelClient", "the provider is overloaded (%1)")
                      .arg(status);
    else if (status >= 500)
        summary = QCoreApplication::translate("Loopscope::HttpModelClient", "the provider failed (%1)")
                      .arg(status);
    else
        summary = QCoreApplication::translate("Loopscope::HttpModelClient", "unexpected HTTP status %1")
                      .arg(status);
    return detail.isEmpty() ? summary : summary + u": "_s + detail;
}

} // namespace Loopscope
