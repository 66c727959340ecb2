#include "tests/support/openaicompletion.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace Loopscope {

QJsonObject openAiCompletion(const QString &text, const QString &model, int inputTokens, int outputTokens)
{
    return {
        {u"id"_s, u"chatcmpl-1"_s},
        {u"model"_s, model},
        {u"choices"_s, QJsonArray{QJsonObject{
                           {u"index"_s, 0},
                           {u"message"_s, QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, text}}},
                           {u"finish_reason"_s, u"stop"_s}}}},
        {u"usage"_s, QJsonObject{{u"prompt_tokens"_s, inputTokens}, {u"completion_tokens"_s, outputTokens}}}};
}

QJsonObject openAiToolCallCompletion(const QList<ToolCall> &calls, const QString &model, int inputTokens,
                                     int outputTokens)
{
    QJsonArray toolCalls;
    for (const ToolCall &call : calls) {
        toolCalls.append(QJsonObject{
            {u"id"_s, call.id},
            {u"type"_s, u"function"_s},
            {u"function"_s, QJsonObject{{u"name"_s, call.name}, {u"arguments"_s, call.arguments}}}});
    }
    QJsonObject completion = openAiCompletion({}, model, inputTokens, outputTokens);
    QJsonArray choices = completion.value(u"choices"_s).toArray();
    QJsonObject choice = choices.at(0).toObject();
    QJsonObject message = choice.value(u"message"_s).toObject();
    message.insert(u"tool_calls"_s, toolCalls);
    choice.insert(u"message"_s, message);
    choice.insert(u"finish_reason"_s, u"tool_calls"_s);
    choices[0] = choice;
    completion.insert(u"choices"_s, choices);
    return completion;
}

ProviderProfile openAiTestProfile(const QUrl &serverBaseUrl, const QString &name, const QString &keyVariable)
{
    ProviderProfile profile;
    profile.id = name.toLower().replace(u' ', u'-');
    profile.name = name;
    profile.kind = ProviderKind::OpenAi;
    profile.baseUrl = serverBaseUrl.resolved(QUrl(u"/v1"_s));
    profile.model = u"test-model"_s;
    profile.apiKeyEnv = keyVariable;
    return profile;
}

} // namespace Loopscope
