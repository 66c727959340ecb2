#pragma once

#include "agent/transcript/transcript.h"

#include <QCoreApplication>
#include <QDateTime>

namespace Loopscope {

/*!
    Brings a conversation kept elsewhere into Loopscope. The OpenAI chat
    format is what most tools can export: a JSON array of messages with a
    `role` (system, developer, user, assistant, tool), a `content` (a string,
    an array of text parts, or null beside tool calls), `tool_calls` and
    `tool_call_id`. Leading system messages become the system prompt; the
    title is the first question. Anything else (images, unanswered or
    unknown tool calls) is refused with a sentence naming what and where, so
    the imported session can be continued with any provider.
*/
class TranscriptImport final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::TranscriptImport)

public:
    static TranscriptLoadResult fromOpenAiMessages(const QByteArray &json, const QDateTime &importedAt
                                                                           = QDateTime::currentDateTimeUtc());
    static TranscriptLoadResult loadOpenAiMessages(const QString &path, const QDateTime &importedAt
                                                                        = QDateTime::currentDateTimeUtc());
};

} // namespace Loopscope
