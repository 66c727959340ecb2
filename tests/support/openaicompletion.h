#pragma once

#include "agent/config/providerprofile.h"
#include "agent/conversation/message.h"

#include <QJsonObject>
#include <QString>

namespace Loopscope {

// A whole (not streamed) OpenAI chat completion that answers with text, as
// /v1/chat/completions sends it; an empty model leaves the field empty.
QJsonObject openAiCompletion(const QString &text, const QString &model, int inputTokens = 12,
                             int outputTokens = 3);

// A whole OpenAI chat completion that asks for \a calls (id, name, arguments as JSON text) and says nothing.
QJsonObject openAiToolCallCompletion(const QList<ToolCall> &calls, const QString &model, int inputTokens = 12,
                                     int outputTokens = 3);

// A profile that reaches an OpenAI-compatible server at serverBaseUrl (its /v1), with the
// model "test-model" and its key from the environment variable keyVariable.
ProviderProfile openAiTestProfile(const QUrl &serverBaseUrl, const QString &name, const QString &keyVariable);

} // namespace Loopscope
