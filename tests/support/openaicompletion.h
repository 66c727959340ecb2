#pragma once

#include "agent/config/providerprofile.h"

#include <QJsonObject>
#include <QString>

namespace Loopscope {

// A whole (not streamed) OpenAI chat completion that answers with text, as
// /v1/chat/completions sends it; an empty model leaves the field empty.
QJsonObject openAiCompletion(const QString &text, const QString &model, int inputTokens = 12,
                             int outputTokens = 3);

// A profile that reaches an OpenAI-compatible server at serverBaseUrl (its /v1), with the
// model "test-model" and its key from the environment variable keyVariable.
ProviderProfile openAiTestProfile(const QUrl &serverBaseUrl, const QString &name, const QString &keyVariable);

} // namespace Loopscope
