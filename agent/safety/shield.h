#pragma once

#include <QString>

#include <optional>

namespace Loopscope {

/*! Where in the loop a shield looks. */
enum class ShieldStage { Input, ToolCall, Output };
QString shieldStageName(ShieldStage stage);
// The stage called \a name (input, tool_call, output); nullopt for any other text.
std::optional<ShieldStage> shieldStageFromName(QStringView name);

struct ShieldVerdict
{
    bool allowed = true;
    QString reason; // why it was blocked, in words for the user and the model

    static ShieldVerdict allow() { return {}; }
    static ShieldVerdict block(const QString &reason) { return {false, reason}; }
    bool operator==(const ShieldVerdict &) const = default;
};

/*!
    A safety check on what flows through the loop: the user's input, each tool
    call's arguments before it runs, and the final answer. Checks run on the
    agent's thread and must be quick; a blocked step is recorded and explained.
*/
class Shield
{
public:
    virtual ~Shield() = default;
    virtual QString name() const = 0;
    // subject: the tool name at ShieldStage::ToolCall, empty otherwise.
    virtual ShieldVerdict check(ShieldStage stage, const QString &subject, const QString &content) const = 0;
};

} // namespace Loopscope
