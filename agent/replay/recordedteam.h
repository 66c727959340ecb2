#pragma once

#include "agent/loop/agentteam.h"
#include "agent/replay/recordedturn.h"

#include <map>
#include <memory>

namespace Loopscope {

/*!
    The agents a recorded turn was handed to, as a team a replay can go on
    with: each with the configuration and the tools its part ran with, taken
    from the recording (RecordedTurn::handedTo), so that a multi-agent turn
    replays where neither the team nor its agents file is. Its tools only
    answer from the recording; it asks no sub-agent live.
*/
class RecordedTeam final : public AgentTeam
{
public:
    explicit RecordedTeam(const RecordedTurn &turn);
    ~RecordedTeam() override;

    std::optional<Member> member(const QString &name) override;

private:
    struct Recorded
    {
        AgentConfig config;
        std::unique_ptr<Workbench> workbench;
    };
    std::map<QString, Recorded> m_agents;
};

} // namespace Loopscope
