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
