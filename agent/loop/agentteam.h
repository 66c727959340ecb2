#pragma once

#include "agent/loop/agentconfig.h"

#include <QString>

#include <optional>

namespace Loopscope {

class Workbench;

/*!
    The agents a turn may be handed to. When an agent calls transfer_to_<name>
    and its handoff continues the turn, the loop asks the team for that agent
    as this session runs it, and goes on with its loop options, instructions
    and tools from the next request. The team owns the workbenches it hands
    out; they stay valid until the turn ends.
*/
class AgentTeam
{
public:
    struct Member
    {
        AgentConfig config;
        Workbench *workbench = nullptr;
    };

    virtual ~AgentTeam() = default;
    // The agent named \a name, or nullopt when the team has none by that name.
    virtual std::optional<Member> member(const QString &name) = 0;
};

} // namespace Loopscope
