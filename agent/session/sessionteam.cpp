#include "agent/session/sessionteam.h"

#include "agent/model/modelclient.h"
#include "agent/tools/workbench.h"

namespace Loopscope {

SessionTeam::SessionTeam(const AgentRoster *roster, Configure configure, Equip equip, MakeClient makeClient)
    : m_roster(roster)
    , m_configure(std::move(configure))
    , m_equip(std::move(equip))
    , m_makeClient(std::move(makeClient))
{
    Q_ASSERT(roster && m_configure && m_equip && m_makeClient);
}

SessionTeam::~SessionTeam() = default;

std::optional<AgentTeam::Member> SessionTeam::member(const QString &name)
{
    const AgentPreset *preset = m_roster->find(name);
    if (!preset)
        return std::nullopt;
    auto workbench = std::make_unique<Workbench>();
    m_equip(*workbench, *preset);
    Member member{m_configure(*preset), workbench.get(), nullptr, {}};
    if (preset->provider) {
        if (std::unique_ptr<ModelClient> client = m_makeClient(*preset))
            member.client
                = std::shared_ptr<ModelClient>(client.release(), [](ModelClient *c) { c->deleteLater(); });
        if (m_makePrices)
            member.prices = m_makePrices(*preset);
    }
    m_workbenches.push_back({name, std::move(workbench)});
    return member;
}

// An agent runs on its own provider profile when it names one, else on the session's; its model rides
// in its requests.
std::unique_ptr<ModelClient> SessionTeam::createClient(const QString &name)
{
    const AgentPreset *preset = m_roster->find(name);
    return preset ? m_makeClient(*preset) : nullptr;
}

AgentTeam::ProfileClient SessionTeam::createClientOnProfile(const QString &profile)
{
    return m_makeProfileClient ? m_makeProfileClient(profile) : ProfileClient{};
}

void SessionTeam::release()
{
    m_workbenches.clear();
}

void SessionTeam::reequip()
{
    for (const Equipped &equipped : m_workbenches) {
        equipped.workbench->clear();
        if (const AgentPreset *preset = m_roster->find(equipped.agent))
            m_equip(*equipped.workbench, *preset);
    }
}

} // namespace Loopscope
