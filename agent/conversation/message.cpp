#include "agent/conversation/message.h"

#include "agent/conversation/enumnames.h"

#include <QJsonArray>
#include <QSet>

using namespace Qt::StringLiterals;

namespace Loopscope {

QJsonObject ToolCall::toJson() const
{
    QJsonObject json{{u"id"_s, id}, {u"name"_s, name}, {u"arguments"_s, arguments}};
    if (!providerData.isEmpty())
        json.insert(u"providerData"_s, providerData);
    return json;
}

ToolCall ToolCall::fromJson(const QJsonObject &json)
{
    return {json.value(u"id"_s).toString(), json.value(u"name"_s).toString(),
            json.value(u"arguments"_s).toString(), json.value(u"providerData"_s).toObject()};
}

QJsonObject TokenUsage::toJson() const
{
    QJsonObject json{{u"input"_s, inputTokens}, {u"output"_s, outputTokens}};
    // Written only when reported, so traces without a prompt cache keep their shape.
    if (cacheReadTokens > 0)
        json.insert(u"cacheRead"_s, cacheReadTokens);
    if (cacheWriteTokens > 0)
        json.insert(u"cacheWrite"_s, cacheWriteTokens);
    return json;
}

TokenUsage TokenUsage::fromJson(const QJsonObject &json)
{
    return {json.value(u"input"_s).toInteger(), json.value(u"output"_s).toInteger(),
            json.value(u"cacheRead"_s).toInteger(), json.value(u"cacheWrite"_s).toInteger()};
}

Message Message::system(const QString &text)
{
    Message m;
    m.role = Role::System;
    m.text = text;
    return m;
}

Message Message::user(const QString &text, const QList<Attachment> &attachments)
{
    Message m;
    m.role = Role::User;
    m.text = text;
    m.attachments = attachments;
    return m;
}

Message Message::assistant(const QString &text, const QList<ToolCall> &calls)
{
    Message m;
    m.role = Role::Assistant;
    m.text = text;
    m.toolCalls = calls;
    return m;
}

Message Message::toolResult(const ToolCall &call, const QString &content, bool isError)
{
    Message m;
    m.role = Role::Tool;
    m.text = content;
    m.toolCallId = call.id;
    m.toolName = call.name;
    m.isError = isError;
    return m;
}

constexpr EnumName<Message::Role> RoleNames[] = {
    {Message::Role::System, u"system"},
    {Message::Role::User, u"user"},
    {Message::Role::Assistant, u"assistant"},
    {Message::Role::Tool, u"tool"},
};

QString roleName(Message::Role role)
{
    return nameOf(RoleNames, role);
}

std::optional<Message::Role> roleFromName(const QString &name)
{
    return valueNamed(RoleNames, name);
}

QJsonObject Message::toJson() const
{
    QJsonObject json{{u"role"_s, roleName(role)}, {u"text"_s, text}};
    if (!toolCalls.isEmpty()) {
        QJsonArray calls;
        for (const ToolCall &call : toolCalls)
            calls.append(call.toJson());
        json.insert(u"toolCalls"_s, calls);
    }
    // Written only when there are some, so messages without files keep their shape.
    if (!attachments.isEmpty()) {
        QJsonArray files;
        for (const Attachment &attachment : attachments)
            files.append(attachment.toJson());
        json.insert(u"attachments"_s, files);
    }
    if (role == Role::Tool) {
        json.insert(u"toolCallId"_s, toolCallId);
        json.insert(u"toolName"_s, toolName);
        json.insert(u"isError"_s, isError);
    }
    return json;
}

Message Message::fromJson(const QJsonObject &json)
{
    Message m;
    m.role = roleFromName(json.value(u"role"_s).toString()).value_or(Role::User);
    m.text = json.value(u"text"_s).toString();
    const QJsonArray calls = json.value(u"toolCalls"_s).toArray();
    for (const QJsonValue &call : calls)
        m.toolCalls.append(ToolCall::fromJson(call.toObject()));
    m.toolCallId = json.value(u"toolCallId"_s).toString();
    m.toolName = json.value(u"toolName"_s).toString();
    m.isError = json.value(u"isError"_s).toBool();
    const QJsonArray files = json.value(u"attachments"_s).toArray();
    for (const QJsonValue &file : files)
        m.attachments.append(Attachment::fromJson(file.toObject()));
    return m;
}

bool historyIsWellFormed(const QList<Message> &history, QString *problem)
{
    QSet<QString> seenIds;
    QSet<QString> open;
    const auto fail = [problem](const QString &why) {
        if (problem)
            *problem = why;
        return false;
    };
    const auto unansweredCalls = [](qsizetype count) {
        return count == 1 ? u"1 tool call left without a result"_s
                          : u"%1 tool calls left without a result"_s.arg(count);
    };
    for (const Message &m : history) {
        if (m.role == Message::Role::Tool) {
            if (!open.remove(m.toolCallId))
                return fail(u"tool result for unknown or already answered call '%1'"_s.arg(m.toolCallId));
            continue;
        }
        if (!open.isEmpty())
            return fail(unansweredCalls(open.size()));
        for (const ToolCall &call : m.toolCalls) {
            if (call.id.isEmpty() || seenIds.contains(call.id))
                return fail(u"tool call id '%1' is empty or not unique"_s.arg(call.id));
            seenIds.insert(call.id);
            open.insert(call.id);
        }
    }
    if (!open.isEmpty())
        return fail(unansweredCalls(open.size()));
    return true;
}

} // namespace Loopscope
