#pragma once

#include <QJsonObject>
#include <QString>

namespace Loopscope {

// A whole (not streamed) OpenAI chat completion that answers with text, as
// /v1/chat/completions sends it; an empty model leaves the field empty.
QJsonObject openAiCompletion(const QString &text, const QString &model, int inputTokens = 12,
                             int outputTokens = 3);

} // namespace Loopscope
