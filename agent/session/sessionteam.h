#pragma once

#include "agent/loop/agentpreset.h"
#include "agent/loop/agentteam.h"

#include <functional>
#include <memory>
#include <vector>

namespace Loopscope {

class Workbench;

/*!
    The agents of a session's agents file as a turn may be handed to them: each
    made when the turn reaches it, with its options laid over the session's and
    its own tools (and handoffs, and sub-agents). The session says how they are
    made, and how a sub-agent's call gets a model client of its own (on the
    agent's own provider profile when it names one); the team
    keeps the workbenches it hands out until release(), once the turn has ended.
*/
class SessionTeam final : public AgentTeam
{
public:
    using Configure = std::function<AgentConfig(const AgentPreset &)>;
    using Equip = std::function<void(Workbench &, const AgentPreset &)>;
    using MakeClient = std::function<std::unique_ptr<ModelClient>(const AgentPreset &)>;
    using MakeProfileClient = std::function<ProfileClient(const QString &profile)>;
    using MakePrices = std::function<PriceLookup(const AgentPreset &)>;

    // \a roster must outlive the team.
    SessionTeam(const AgentRoster *roster, Configure configure, Equip equip, MakeClient makeClient);
    ~SessionTeam() override;

    std::optional<Member> member(const QString &name) override;
    std::unique_ptr<ModelClient> createClient(const QString &name) override;
    // How a model shield's client on a profile of its own is made; unset: the agent's own client answers.
    void setProfileClients(MakeProfileClient makeProfileClient)
    {
        m_makeProfileClient = std::move(makeProfileClient);
    }
    ProfileClient createClientOnProfile(const QString &profile) override;
    // How the calls of an agent on a profile of its own are priced; unset: as the session's.
    void setPrices(MakePrices makePrices) { m_makePrices = std::move(makePrices); }
    // Lets go of the workbenches handed out; only while no turn runs.
    void release();
    // Equips the workbenches handed out again (an MCP server's tools changed); only between
    // iterations, when none of their tools runs.
    void reequip();

private:
    const AgentRoster *m_roster;
    Configure m_configure;
    Equip m_equip;
    MakeClient m_makeClient;
    MakeProfileClient m_makeProfileClient;
    MakePrices m_makePrices;
    struct Equipped
    {
        QString agent;
        std::unique_ptr<Workbench> workbench;
    };
    std::vector<Equipped> m_workbenches;
};

} // namespace Loopscope
