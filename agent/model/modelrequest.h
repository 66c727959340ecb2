#pragma once

#include "agent/conversation/message.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>

#include <optional>

namespace Loopscope {

/*! What the model is told it may call: the tool's public face, no behaviour. */
struct ToolSchema
{
    QString name;
    QString description;
    QJsonObject parameters; // JSON Schema of the arguments object

    bool operator==(const ToolSchema &) const = default;
    QJsonObject toJson() const;
    static ToolSchema fromJson(const QJsonObject &json);
};

enum class ToolChoice { Auto, None, Required };
QString toolChoiceName(ToolChoice choice);

/*! Sampling options that every protocol understands. Unset means "provider default". */
struct ModelOptions
{
    QString model;
    std::optional<double> temperature;
    // Nucleus sampling, 0-1. Sent as set, next to a temperature too: some models refuse the two
    // together, and their error says so rather than Loopscope quietly dropping one.
    std::optional<double> topP;
    std::optional<int> maxOutputTokens;
    // The model's context window in tokens, when known: what the loop fits each request into, and
    // what Ollama is told to hold (options.num_ctx) instead of silently keeping its default.
    std::optional<qint64> contextWindow;
    bool stream = true;

    bool operator==(const ModelOptions &) const = default;
    QJsonObject toJson() const;
    static ModelOptions fromJson(const QJsonObject &json);
};

/*!
    One provider-neutral request: the history as the model should see it
    (system instruction first), the tools it may call and how it may use them.
*/
struct ModelRequest
{
    QList<Message> messages;
    QList<ToolSchema> tools;
    ToolChoice toolChoice = ToolChoice::Auto;
    ModelOptions options;

    bool operator==(const ModelRequest &) const = default;
    QJsonObject toJson() const;
    static ModelRequest fromJson(const QJsonObject &json);
};

enum class FinishReason { Stop, ToolCalls, Length, ContentFilter, Other };
QString finishReasonName(FinishReason reason);
FinishReason finishReasonFromName(const QString &name);

/*! A complete model answer, assembled from a stream or read in one piece. */
struct ModelResponse
{
    QString text;
    QList<ToolCall> toolCalls;
    FinishReason finishReason = FinishReason::Stop;
    QString providerFinishReason; // verbatim, e.g. "end_turn", "MAX_TOKENS"
    TokenUsage usage;
    QString model;
    int streamedChunks = 0;
    QJsonValue raw; // the response body (or the last stream event), for the trace

    bool operator==(const ModelResponse &) const = default;
    QJsonObject toJson() const;
    static ModelResponse fromJson(const QJsonObject &json);
};

/*! A streamed fragment of a tool call: the first one of an index names the call. */
struct ToolCallDelta
{
    int index = 0;
    QString id;
    QString name;
    QString argumentsFragment;

    bool operator==(const ToolCallDelta &) const = default;
};

/*!
    One try at reaching the model. A model call has one or more attempts; a
    retried attempt says why and how long the client waits before the next.
    Everything here is already redacted: no key or Authorization header.
*/
struct ModelAttempt
{
    int number = 1;
    qint64 startedUs = 0;
    qint64 endedUs = 0;
    int httpStatus = 0;
    QString error;         // empty when the attempt succeeded
    qint64 retryInMs = -1; // >= 0 when another attempt follows
    QJsonObject request;   // {method, url, headers, body}
    QJsonValue response;   // body, or the list of stream events

    bool operator==(const ModelAttempt &) const = default;
    QJsonObject toJson() const;
    static ModelAttempt fromJson(const QJsonObject &json);
};

/*! Why a model call failed, in words for a person plus what a program needs. */
struct ModelError
{
    enum class Kind { Network, Timeout, Http, Protocol, Cancelled };
    Kind kind = Kind::Network;
    int httpStatus = 0;
    QString message;

    bool operator==(const ModelError &) const = default;
};

} // namespace Loopscope
