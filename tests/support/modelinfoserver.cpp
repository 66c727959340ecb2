#include "tests/support/modelinfoserver.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Loopscope {

QJsonObject ModelInfoRoutes::ollamaChat(const HttpRequestRecord &request, const QString &text,
                                        int promptTokens, int outputTokens)
{
    return {{u"model"_s, request.json().value(u"model"_s)},
            {u"message"_s, QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, text}}},
            {u"done"_s, true},
            {u"done_reason"_s, u"stop"_s},
            {u"prompt_eval_count"_s, promptTokens},
            {u"eval_count"_s, outputTokens}};
}

QJsonObject ModelInfoRoutes::ollamaShow(std::optional<qint64> contextLength, std::optional<qint64> numCtx)
{
    // As the API documents it: the length keyed by the architecture, the parameters padded.
    QJsonObject modelInfo{{u"general.architecture"_s, u"qwen2"_s},
                          {u"general.parameter_count"_s, qint64(7'615'616'512)}};
    if (contextLength)
        modelInfo.insert(u"qwen2.context_length"_s, *contextLength);
    QString parameters = u"stop                           \"<|im_end|>\""_s;
    if (numCtx)
        parameters += u"\nnum_ctx                        %1"_s.arg(*numCtx);
    return {{u"parameters"_s, parameters},
            {u"details"_s, QJsonObject{{u"family"_s, u"qwen2"_s}, {u"format"_s, u"gguf"_s}}},
            {u"model_info"_s, modelInfo}};
}

QJsonObject ModelInfoRoutes::geminiModel(const QString &name, std::optional<qint64> inputTokenLimit)
{
    QJsonObject model{{u"name"_s, QString(u"models/"_s + name)},
                      {u"outputTokenLimit"_s, 65'536},
                      {u"supportedGenerationMethods"_s, QJsonArray{u"generateContent"_s, u"countTokens"_s}}};
    if (inputTokenLimit)
        model.insert(u"inputTokenLimit"_s, *inputTokenLimit);
    return model;
}

void ModelInfoRoutes::install(FakeHttpServer &server) const
{
    const ModelInfoRoutes routes = *this;
    server.setHandler([routes](const HttpRequestRecord &request, HttpExchange &exchange) {
        const bool ollamaShow = request.path == "/api/show";
        const bool geminiModel = request.method == "GET" && request.path.startsWith("/v1beta/models/");
        if (ollamaShow || geminiModel) {
            switch (routes.answer) {
            case Answer::Stall: exchange.stall(); return;
            case Answer::Error: exchange.respondJson(404, {{u"error"_s, u"model not found"_s}}); return;
            case Answer::Window: break;
            }
            const QString model = QString::fromUtf8(request.path.sliced(request.path.lastIndexOf('/') + 1));
            exchange.respondJson(
                200, ollamaShow ? ModelInfoRoutes::ollamaShow(routes.contextLength, routes.modelfileNumCtx)
                                : ModelInfoRoutes::geminiModel(model, routes.contextLength));
            return;
        }
        if (request.path == "/api/chat") {
            exchange.respondJson(200, ModelInfoRoutes::ollamaChat(request, u"Hi"_s, 12, 1));
            return;
        }
        if (request.path.endsWith(":generateContent")) {
            exchange.respondJson(
                200, {{u"candidates"_s,
                       QJsonArray{QJsonObject{
                           {u"content"_s,
                            QJsonObject{{u"role"_s, u"model"_s},
                                        {u"parts"_s, QJsonArray{QJsonObject{{u"text"_s, u"Hi"_s}}}}}},
                           {u"finishReason"_s, u"STOP"_s}}}},
                      {u"usageMetadata"_s,
                       QJsonObject{{u"promptTokenCount"_s, 12}, {u"candidatesTokenCount"_s, 1}}}});
            return;
        }
        exchange.respond(404);
    });
}

QList<HttpRequestRecord> requestsTo(const FakeHttpServer &server, QByteArrayView path)
{
    QList<HttpRequestRecord> matching;
    const QList<HttpRequestRecord> requests = server.requests();
    for (const HttpRequestRecord &request : requests) {
        if (request.path == path)
            matching.append(request);
    }
    return matching;
}

} // namespace Loopscope
