#pragma once

#include "tests/support/fakehttpserver.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Loopscope {

/*!
    The routes of an Ollama server (POST /api/show, POST /api/chat) and of Gemini's API
    (GET /v1beta/models/{model}, POST …:generateContent) that a turn uses, for a FakeHttpServer:
    each model-information route answers with the window it is given, or not at all (a stall, to
    test the timeout), or with an error. The chat routes answer "Hi" without streaming.
*/
struct ModelInfoRoutes
{
    enum class Answer { Window, Stall, Error };

    Answer answer = Answer::Window;
    std::optional<qint64> contextLength;   // model_info.<arch>.context_length, inputTokenLimit
    std::optional<qint64> modelfileNumCtx; // Ollama's parameters: "num_ctx N"

    // Installs the routes as \a server's handler.
    void install(FakeHttpServer &server) const;

    // Ollama's whole (not streamed) answer \a text to a /api/chat \a request, with its token counts.
    static QJsonObject ollamaChat(const HttpRequestRecord &request, const QString &text, int promptTokens,
                                  int outputTokens);
    static QJsonObject ollamaShow(std::optional<qint64> contextLength, std::optional<qint64> numCtx);
    static QJsonObject geminiModel(const QString &name, std::optional<qint64> inputTokenLimit);
};

// The requests \a server received on \a path ("/api/chat", "/api/show").
QList<HttpRequestRecord> requestsTo(const FakeHttpServer &server, QByteArrayView path);

} // namespace Loopscope
