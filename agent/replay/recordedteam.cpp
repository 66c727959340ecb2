#include "agent/replay/recordedteam.h"

#include "agent/replay/replayworkbench.h"
#include "agent/tools/workbench.h"

namespace Loopscope {

RecordedTeam::RecordedTeam(const RecordedTurn &turn)
{
    for (const RecordedAgent &agent : turn.handedTo) {
        auto workbench = std::make_unique<Workbench>();
        ReplayWorkbench::fill(*workbench, agent.tools, turn.handoffTools);
        m_agents[agent.name] = Recorded{agent.config, std::move(workbench)};
    }
}

RecordedTeam::~RecordedTeam() = default;

std::optional<AgentTeam::Member> RecordedTeam::member(const QString &name)
{
    const auto found = m_agents.find(name);
    if (found == m_agents.end())
        return std::nullopt;
    return Member{found->second.config, found->second.workbench.get(), nullptr};
}

} // namespace Loopscope
