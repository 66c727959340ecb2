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
    const auto compact = [&encode](const Message &message) {
        return QJsonDocument(encode(message)).toJson(QJsonDocument::Compact);
    };
    const bool hasSystem = !messages.isEmpty() && messages.constFirst().role == Message::Role::System;
    if (!hasSystem) {
        m_system.reset();
    } else if (m_system != messages.constFirst()) {
        m_system = messages.constFirst();
        m_systemBytes = compact(*m_system);
    }
    const qsizetype first = hasSystem ? 1 : 0; // the history starts here
    const qsizetype count = messages.size() - first;

    // Forget what follows the first change: the history only grows at its end, and a message
    // edited in the middle (the debugger) shifts nothing but the bytes after it.
    qsizetype same = 0;
    const qsizetype known = std::min(count, m_messages.size());
    while (same < known && messages.at(first + same) == m_messages.at(same))
        ++same;
    m_messages.resize(same);
    m_ends.resize(same);
    m_joined.truncate(same > 0 ? m_ends.constLast() : 0);
    for (qsizetype i = same; i < count; ++i) {
        if (i > 0)
            m_joined += ',';
        m_joined += compact(messages.at(first + i));
        m_messages.append(messages.at(first + i));
        m_ends.append(m_joined.size());
    }
    if (!hasSystem)
        return m_joined; // shared, not copied: the caller only reads it
    if (m_joined.isEmpty())
        return m_systemBytes;
    QByteArray joined;
    joined.reserve(m_systemBytes.size() + 1 + m_joined.size());
    joined.append(m_systemBytes).append(',').append(m_joined);
    return joined;
}

void EncodedMessages::clear()
{
    m_messages.clear();
    m_ends.clear();
    m_joined.clear();
    m_system.reset();
    m_systemBytes.clear();
}

void prepareBodyBuffer(QByteArray *body, qsizetype size)
{
    body->truncate(0); // keeps the allocation unless the last request's reply still shares it
    if (body->capacity() < size)
        body->reserve(std::max(size, body->capacity() * 3 / 2));
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
