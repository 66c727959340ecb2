#include "agent/providers/providerprotocol.h"

#include <QCoreApplication>
#include <QJsonDocument>

#include <algorithm>

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
    m_parsed = document.object(); // parsed once: the trace records it too
    return decode(m_parsed);
}

QJsonValue JsonBodyDecoder::recordedResponse() const
{
    if (!m_parsed.isEmpty())
        return m_parsed;
    // Kept as JSON when it is, so the inspector can fold it; otherwise as the text that came.
    const QJsonDocument document = QJsonDocument::fromJson(m_body);
    return document.isObject() ? QJsonValue(document.object()) : QJsonValue(QString::fromUtf8(m_body));
}

QByteArray EncodedMessages::join(const QList<Message> &messages, const Encoder &encode)
{
    // Forget what follows the first change: the history only grows at its end, and a message
    // edited in the middle (the debugger) shifts nothing but the bytes after it.
    qsizetype same = 0;
    const qsizetype known = std::min(messages.size(), m_messages.size());
    while (same < known && messages.at(same) == m_messages.at(same))
        ++same;
    m_messages.resize(same);
    m_bytes.resize(same);
    for (qsizetype i = same; i < messages.size(); ++i) {
        m_messages.append(messages.at(i));
        m_bytes.append(QJsonDocument(encode(messages.at(i))).toJson(QJsonDocument::Compact));
    }
    qsizetype size = 0;
    for (const QByteArray &bytes : std::as_const(m_bytes))
        size += bytes.size() + 1;
    QByteArray joined;
    joined.reserve(size);
    for (qsizetype i = 0; i < m_bytes.size(); ++i) {
        if (i > 0)
            joined += ',';
        joined += m_bytes.at(i);
    }
    return joined;
}

void EncodedMessages::clear()
{
    m_messages.clear();
    m_bytes.clear();
}

HttpCall ProviderProtocol::encodeForSending(const ModelRequest &request, const ProviderEndpoint &endpoint,
                                            EncodedMessages &, QByteArray *body) const
{
    HttpCall call = encode(request, endpoint);
    *body = QJsonDocument(call.body).toJson(QJsonDocument::Compact);
    call.body = {};
    return call;
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
