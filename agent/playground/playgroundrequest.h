#pragma once

#include "agent/model/modelrequest.h"

#include <QCoreApplication>
#include <QString>

#include <optional>

namespace Loopscope {

/*!
    The request a playground edits, as text: the provider-neutral
    ModelRequest JSON, indented for a person. Reading it back checks what
    ModelRequest::fromJson() would quietly default (a missing message list, an
    unknown role, a tool call without a name), so an edit that would send
    something other than what the user wrote is refused with a sentence.
*/
class PlaygroundRequest final
{
    Q_DECLARE_TR_FUNCTIONS(PlaygroundRequest)

public:
    static QString toText(const ModelRequest &request);
    // nullopt (*error says where) when text is not a request that can be sent.
    static std::optional<ModelRequest> fromText(const QString &text, QString *error);
};

} // namespace Loopscope
