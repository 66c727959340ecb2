#pragma once

#include "agent/providers/providerprotocol.h"

#include <QJsonArray>

namespace Loopscope {

/*!
    Ollama's native /api/chat, for local models without the OpenAI-compatible
    layer in between. It is its own protocol because the native API differs
    where an agent loop notices: arguments travel as JSON objects, tool results
    are paired by tool_name, the stream is NDJSON whose tool calls arrive
    whole in one line, and the last line says done_reason "stop" even after
    tool calls, so calls are recognised by their presence. There is no
    tool_choice: the only way to keep the model from calling tools is not to
    offer them; the earlier calls and results still travel as what they were.
*/
class OllamaProtocol final : public ProviderProtocol
{
public:
    // Where `ollama serve` listens unless told otherwise.
    static constexpr QStringView defaultBaseUrl = u"http://localhost:11434";

    QString name() const override { return QStringLiteral("ollama"); }
    HttpCall encode(const ModelRequest &request, const ProviderEndpoint &endpoint) const override;
    std::unique_ptr<ResponseDecoder> createDecoder(bool streaming) const override;
    ImageLimits imageLimits() const override { return images(); }
    HttpCall encodeModelList(const ProviderEndpoint &endpoint, const QString &pageToken) const override;
    std::variant<ModelListPage, QString> decodeModelList(const QJsonObject &body) const override;
    QString errorMessage(const QByteArray &body) const override;
    std::optional<HttpCall> encodeModelInfo(const ProviderEndpoint &endpoint,
                                            const QString &model) const override;
    ModelContextInfo decodeModelInfo(const QJsonObject &body) const override;

    static QJsonArray encodeMessages(const QList<Message> &messages);
    static QJsonArray encodeTools(const QList<ToolSchema> &tools);
    // Ollama documents no limit; PNG and JPEG are the formats its vision models are known to read.
    static ImageLimits images();
};

} // namespace Loopscope
