#pragma once

#include "agent/providers/providerprotocol.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace Loopscope {

/*!
    Anthropic's Messages API. It is stricter than OpenAI's about history
    shape, so the encoder does the work the API will not: the system prompt
    leaves the message list, user and assistant turns alternate (consecutive
    ones are merged), every tool_use gets a unique id answered by a
    tool_result placed first in the next user message, and no empty text
    block is ever sent. The decoder follows the documented event sequence
    and tolerates pings and event types it does not know.
*/
class AnthropicProtocol final : public ProviderProtocol
{
    Q_DECLARE_TR_FUNCTIONS(AnthropicProtocol)

public:
    static constexpr QByteArrayView apiVersion = "2023-06-01";

    QString name() const override { return QStringLiteral("anthropic"); }
    HttpCall encode(const ModelRequest &request, const ProviderEndpoint &endpoint) const override;
    std::unique_ptr<ResponseDecoder> createDecoder(bool streaming) const override;
    ImageLimits imageLimits() const override { return images(); }
    HttpCall encodeModelList(const ProviderEndpoint &endpoint, const QString &pageToken) const override;
    std::variant<ModelListPage, QString> decodeModelList(const QJsonObject &body) const override;
    // Anthropic words errors as {"type":"error","error":{"type","message"}}: "type: message".
    QString errorMessage(const QByteArray &body) const override;

    // The System messages joined, empty when there are none.
    static QString systemPrompt(const QList<Message> &messages);
    // User and assistant turns in strict alternation, tool results first in their user turn.
    static QJsonArray encodeMessages(const QList<Message> &messages);
    static QJsonArray encodeTools(const QList<ToolSchema> &tools);
    // Messages takes PNG, JPEG, GIF and WebP, at most 5 MB as base64 and 8000 px a side.
    static ImageLimits images();
};

} // namespace Loopscope
