#pragma once

#include "agent/model/modelrequest.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

namespace Loopscope {

/*!
    Decides whether a replayed model request is the one the recording
    answered, and if not, says where they part in words a person can act on:
    "message 5 (tool result of calculator) differs: recorded "42", now "41"".

    Everything the model sees counts: every message (role, text, tool calls
    with their ids, names, arguments and provider data, the call a result
    answers, the tool it names, the error flag), the tools offered (names,
    order, descriptions, parameter schemas), the tool choice and the model
    options (model, temperature, top p, output token limit). Only options.stream is
    ignored: it changes how the answer arrives, not what the model is asked.
    Texts and tool arguments compare exactly, whitespace too: a replay
    serves the recorded responses verbatim, so any change is real. Schemas
    and provider data compare as JSON values, so an integer read back from
    a file as 1.0 still equals 1.
*/
class RequestComparison final
{
    Q_DECLARE_TR_FUNCTIONS(RequestComparison)

public:
    // nullopt when \a now asks the model the same as \a recorded did, else the first difference.
    static std::optional<QString> difference(const ModelRequest &recorded, const ModelRequest &now);

    // Tool arguments by JSON value when both are JSON, else by text.
    static bool sameArguments(const QString &a, const QString &b);

    // "user message", "assistant message calling add, echo", "tool result of add".
    static QString describe(const Message &message);

    // Both texts, cut to the same window around their first difference, quoted.
    static QString recordedNow(const QString &recorded, const QString &now);
};

} // namespace Loopscope
