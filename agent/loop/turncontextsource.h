#pragma once

#include "agent/trace/tracenode.h"

#include <QFuture>
#include <QString>

#include <optional>

namespace Loopscope {

// What a turn's requests carry besides the conversation, found before its first iteration.
struct TurnContext
{
    QString note;                           // added to the system message of every request of the turn
    std::optional<RetrievalData> retrieval; // the search that found it: a Retrieval node under the turn
};

/*!
    Finds context for a question before the loop asks the model, as Llama
    Stack's context-retrieval step does: the agent waits for the answer
    without blocking (the future resolves later, on any thread) and puts it
    into every request of the turn. The loop does not know that a knowledge
    base answers.
*/
class TurnContextSource
{
public:
    virtual ~TurnContextSource() = default;
    // Never fails: a source that finds nothing answers an empty context, with the reason in its retrieval.
    virtual QFuture<TurnContext> contextFor(const QString &question) const = 0;
};

} // namespace Loopscope
