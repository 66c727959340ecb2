#pragma once

#include "agent/providers/providerprotocol.h"

namespace Loopscope {

/*!
    OpenAI Chat Completions, which Ollama's /v1, llama.cpp's server, vLLM, LM
    Studio and OpenRouter speak too. The decoder tolerates their quirks: ids
    missing, empty or sent only on the first chunk, arguments sent as an
    object, content null beside tool calls, finish reason "stop" after calls.
*/
class OpenAiProtocol final : public ProviderProtocol
{
public:
    QString name() const override { return QStringLiteral("openai"); }
    HttpCall encode(const ModelRequest &request, const ProviderEndpoint &endpoint) const override;
    HttpCall encodeForSending(const ModelRequest &request, const ProviderEndpoint &endpoint,
                              EncodedMessages &cache, QByteArray *body) const override;
    std::unique_ptr<ResponseDecoder> createDecoder(bool streaming) const override;
    ImageLimits imageLimits() const override { return images(); }
    HttpCall encodeModelList(const ProviderEndpoint &endpoint, const QString &pageToken) const override;
    std::variant<ModelListPage, QString> decodeModelList(const QJsonObject &body) const override;

    static QJsonArray encodeMessages(const QList<Message> &messages);
    static QJsonObject encodeMessage(const Message &message);
    // The same as compact JSON text, written directly: what a request sends.
    static QByteArray encodeMessageText(const Message &message);
    static QJsonArray encodeTools(const QList<ToolSchema> &tools);
    // Chat Completions takes PNG, JPEG, WebP and GIF up to 20 MB; larger sides it scales itself.
    static ImageLimits images();
};

} // namespace Loopscope
