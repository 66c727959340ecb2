#pragma once

#include "agent/conversation/attachment.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace Loopscope {

/*!
    A tool call as the model asked for it. The arguments stay the raw text the
    model produced: it is "not always valid JSON", and the loop must be able to
    tell the model exactly what was wrong with it.
*/
struct ToolCall
{
    QString id;
    QString name;
    QString arguments;
    // Provider-specific data that must be echoed back verbatim (e.g. Gemini's thoughtSignature).
    QJsonObject providerData;

    bool operator==(const ToolCall &) const = default;

    QJsonObject toJson() const;
    static ToolCall fromJson(const QJsonObject &json);
};

/*!
    Tokens as the provider counted them. Zero means "not reported". The cache
    counts are the part of the input the provider read from or wrote to its
    prompt cache: they are priced differently, and counted in inputTokens too.
*/
struct TokenUsage
{
    qint64 inputTokens = 0;
    qint64 outputTokens = 0;
    qint64 cacheReadTokens = 0;
    qint64 cacheWriteTokens = 0;

    qint64 total() const { return inputTokens + outputTokens; }
    bool isEmpty() const { return inputTokens == 0 && outputTokens == 0; }
    TokenUsage &operator+=(const TokenUsage &other)
    {
        inputTokens += other.inputTokens;
        outputTokens += other.outputTokens;
        cacheReadTokens += other.cacheReadTokens;
        cacheWriteTokens += other.cacheWriteTokens;
        return *this;
    }
    bool operator==(const TokenUsage &) const = default;

    QJsonObject toJson() const;
    static TokenUsage fromJson(const QJsonObject &json);
};

/*!
    One entry of the provider-neutral history. The history is the agent's whole
    state: adapters translate it to each wire protocol, transcripts save it.
*/
struct Message
{
    enum class Role { System, User, Assistant, Tool };

    Role role = Role::User;
    QString text;
    QList<ToolCall> toolCalls;     // Assistant only
    QString toolCallId;            // Tool only: the call this result answers
    QString toolName;              // Tool only: some protocols pair results by name
    bool isError = false;          // Tool only
    QList<Attachment> attachments; // User only: files sent with the text

    static Message system(const QString &text);
    static Message user(const QString &text, const QList<Attachment> &attachments = {});
    static Message assistant(const QString &text, const QList<ToolCall> &calls = {});
    static Message toolResult(const ToolCall &call, const QString &content, bool isError);

    bool operator==(const Message &) const = default;

    QJsonObject toJson() const;
    static Message fromJson(const QJsonObject &json);
};

QString roleName(Message::Role role);
std::optional<Message::Role> roleFromName(const QString &name);

/*!
    True when every assistant tool call is answered by a tool result before the
    next user or assistant message: the invariant strict providers enforce.
*/
bool historyIsWellFormed(const QList<Message> &history, QString *problem = nullptr);

} // namespace Loopscope
