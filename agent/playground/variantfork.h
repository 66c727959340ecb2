#pragma once

#include "agent/trace/tracenode.h"
#include "agent/transcript/transcript.h"

#include <QCoreApplication>
#include <QDateTime>

#include <optional>

namespace Loopscope {

/*!
    "Fork from here with this response": a new session whose conversation is
    the history the variant's request sent (its system instruction becomes the
    session's) followed by the variant's answer as the assistant message, on
    the variant's provider and model. The source's title, tools and
    configuration carry over, and so do the trace turns that lie wholly within
    the part of the conversation the request shares with the source.

    A variant that failed, or that answered with tool calls, is refused: its
    calls would have no results, and the loop sends no dangling calls. Pure:
    the source is not touched and nothing is written.
*/
class VariantFork final
{
    Q_DECLARE_TR_FUNCTIONS(VariantFork)

public:
    static std::optional<Transcript> fork(const Transcript &source, const ModelCallVariant &variant,
                                          QString *error, const QDateTime &now = {});
};

} // namespace Loopscope
