#pragma once

#include "agent/loop/agentconfig.h"
#include "agent/model/modelclient.h"
#include "agent/trace/tracecost.h"

#include <QString>

#include <memory>
#include <optional>

namespace Loopscope {

class Workbench;

/*!
    The agents a turn may be handed to. When an agent calls transfer_to_<name>
    and its handoff continues the turn, the loop asks the team for that agent
    as this session runs it, and goes on with its loop options, instructions
    and tools from the next request. The team owns the workbenches it hands
    out; they stay valid until the turn ends. A sub-agent (ask_<name>) is a
    member too, run by a loop of its own with a model client of its own.
*/
class AgentTeam
{
public:
    struct Member
    {
        AgentConfig config;
        Workbench *workbench = nullptr;
        // The agent's own model client when it runs on a provider profile of its own (its requests go
        // there after the handoff); nullptr: the session's client. Deleted later, not at once: the
        // turn may end inside one of its signals.
        std::shared_ptr<ModelClient> client;
        // With a client of its own: how its calls are priced (its profile's prices, which a local
        // server's or an override's differ from the session's); unset: like the session's.
        PriceLookup prices;
    };

    // A client on a saved provider profile of its own, and that profile's model.
    struct ProfileClient
    {
        std::unique_ptr<ModelClient> client;
        QString model;
        PriceLookup prices; // how that profile prices its calls; unset: as the agent's
    };

    virtual ~AgentTeam() = default;
    // The agent named \a name, or nullopt when the team has none by that name.
    virtual std::optional<Member> member(const QString &name) = 0;
    // A model client of its own for one call of the sub-agent \a name: calls run side by side, each
    // with its own requests. nullptr when the team makes none (then no sub-agent can be asked).
    virtual std::unique_ptr<ModelClient> createClient(const QString &name)
    {
        Q_UNUSED(name);
        return nullptr;
    }
    // A model client on the saved provider profile \a profile for one model shield check that names it
    // (a Llama Guard model usually runs elsewhere than the chat model). A profile the session does not
    // have, or cannot use, must give a client that refuses every request saying so, never one of another
    // profile. No client: the team makes none, and the agent's own client answers (a replay's, which
    // answers every call from its recording).
    virtual ProfileClient createClientOnProfile(const QString &profile)
    {
        Q_UNUSED(profile);
        return {};
    }
};

} // namespace Loopscope
