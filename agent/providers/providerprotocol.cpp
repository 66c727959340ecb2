#include "agent/providers/providerprotocol.h"

#include "agent/conversation/samemessage.h"

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

QByteArray EncodedMessages::body(QByteArrayView head, const QList<Message> &messages, const Encoder &encode,
                                 QByteArrayView tail)
{
    m_lastCost = {};
    const bool hasSystem = !messages.isEmpty() && messages.constFirst().role == Message::Role::System;
    if (!hasSystem) {
        m_system.reset();
    } else if (m_system != messages.constFirst()) {
        m_system = messages.constFirst();
        m_systemBytes = encode(*m_system);
        m_lastCost.encodedBytes += m_systemBytes.size();
    }
    const qsizetype first = hasSystem ? 1 : 0; // the history starts here
    const qsizetype count = messages.size() - first;
    if (count == 0) { // nothing to join the system message to, and no history to keep
        m_body.clear();
        m_prefixSize = 0;
        m_messages.clear();
        m_ends.clear();
        return head.toByteArray() + (hasSystem ? m_systemBytes : QByteArray()) + tail.toByteArray();
    }

    // Changing a body the caller still holds copies it first: a call would cost its whole history.
    if (!m_body.isEmpty() && !m_body.isDetached())
        m_lastCost.copiedBytes = m_body.size();
    QByteArray prefix = head.toByteArray();
    if (hasSystem)
        prefix.append(m_systemBytes).append(',');
    if (QByteArrayView(m_body).first(m_prefixSize) != prefix) {
        m_body.replace(0, m_prefixSize, prefix); // the history's bytes move, and stay
        m_prefixSize = prefix.size();
    }

    // Forget what follows the first change: the history only grows at its end, and a message
    // edited in the middle (the debugger) shifts nothing but the bytes after it.
    qsizetype same = 0;
    const qsizetype known = std::min(count, m_messages.size());
    while (same < known && isSameMessage(messages.at(first + same), m_messages.at(same)))
        ++same;
    m_messages.resize(same);
    m_ends.resize(same);
    m_body.truncate(m_prefixSize + (same > 0 ? m_ends.constLast() : 0));
    for (qsizetype i = same; i < count; ++i) {
        if (i > 0)
            m_body += ',';
        const QByteArray text = encode(messages.at(first + i));
        m_lastCost.encodedBytes += text.size();
        m_body += text;
        m_messages.append(messages.at(first + i));
        m_ends.append(m_body.size() - m_prefixSize);
    }
    m_body += tail;
    return m_body;
}

QByteArray EncodedMessages::rest(const ModelRequest &request, const std::function<QByteArray()> &encode)
{
    const bool same = m_restOf && m_restOf->tools == request.tools
                      && m_restOf->toolChoice == request.toolChoice && m_restOf->options == request.options;
    if (!same) {
        m_restOf = ModelRequest{{}, request.tools, request.toolChoice, request.options};
        m_restBytes = encode();
    }
    return m_restBytes;
}

void EncodedMessages::clear()
{
    m_restOf.reset();
    m_restBytes.clear();
    m_body.clear();
    m_prefixSize = 0;
    m_messages.clear();
    m_ends.clear();
    m_system.reset();
    m_systemBytes.clear();
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

std::optional<HttpCall> ProviderProtocol::encodeModelInfo(const ProviderEndpoint &, const QString &) const
{
    return std::nullopt;
}

ModelContextInfo ProviderProtocol::decodeModelInfo(const QJsonObject &) const
{
    return {};
}

} // namespace Loopscope
