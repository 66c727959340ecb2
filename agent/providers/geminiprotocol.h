#pragma once

#include "agent/providers/providerprotocol.h"

#include <QJsonArray>

namespace Loopscope {

/*!
    Google's Gemini API (generateContent / streamGenerateContent?alt=sse).

    Gemini differs from the OpenAI shape in ways that break naive agent loops:
    calls often come without an id, so results are paired with calls by
    position (parallel calls of the same function are common); a thinking
    model's thoughtSignature must be echoed back beside its call or Gemini 3
    rejects the next request; there is no tool-call finish reason (calls end
    with STOP); and a stream simply ends at EOF. This adapter keeps the
    signature and an "id was made up here" mark in ToolCall::providerData so
    the history can be sent back exactly as Gemini expects it.
*/
class GeminiProtocol final : public ProviderProtocol
{
public:
    // Keys of ToolCall::providerData this adapter writes and reads back.
    static constexpr QStringView thoughtSignatureKey = u"thoughtSignature";
    static constexpr QStringView syntheticIdKey = u"syntheticId";

    QString name() const override { return QStringLiteral("gemini"); }
    HttpCall encode(const ModelRequest &request, const ProviderEndpoint &endpoint) const override;
    std::unique_ptr<ResponseDecoder> createDecoder(bool streaming) const override;
    ImageLimits imageLimits() const override { return images(); }
    HttpCall encodeModelList(const ProviderEndpoint &endpoint, const QString &pageToken) const override;
    std::variant<ModelListPage, QString> decodeModelList(const QJsonObject &body) const override;
    QString errorMessage(const QByteArray &body) const override;
    std::optional<HttpCall> encodeModelInfo(const ProviderEndpoint &endpoint,
                                            const QString &model) const override;
    ModelContextInfo decodeModelInfo(const QJsonObject &body) const override;

    static QJsonArray encodeContents(const QList<Message> &messages);
    static QJsonArray encodeTools(const QList<ToolSchema> &tools);
    // inlineData takes PNG, JPEG and WebP (no GIF), at most 7 MB a file inline.
    static ImageLimits images();
};

} // namespace Loopscope
