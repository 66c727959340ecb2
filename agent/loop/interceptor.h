#pragma once

#include "agent/model/modelrequest.h"
#include "agent/tools/tool.h"

#include <functional>
#include <memory>

namespace Loopscope {

/*!
    A decision a caller owes the loop. Copyable; the first call wins and later
    ones do nothing, so a UI may keep it in several places. Deciding after the
    turn was cancelled is harmless.
*/
template<typename Verdict>
class Decision
{
public:
    using Callback = std::function<void(Verdict)>;
    explicit Decision(Callback callback)
        : m_state(std::make_shared<State>(std::move(callback)))
    {}

    bool isPending() const { return !m_state->decided; }

protected:
    void decide(Verdict verdict) const
    {
        if (m_state->decided)
            return;
        m_state->decided = true;
        auto callback = std::move(m_state->callback);
        callback(std::move(verdict));
    }

private:
    struct State
    {
        explicit State(Callback c)
            : callback(std::move(c))
        {}
        Callback callback;
        bool decided = false;
    };
    std::shared_ptr<State> m_state;
};

struct ModelCallVerdict
{
    std::optional<ModelRequest> editedRequest;
};

class ModelCallDecision final : public Decision<ModelCallVerdict>
{
public:
    using Decision::Decision;
    void proceed() const { decide({}); }
    void proceed(const ModelRequest &edited) const { decide({edited}); }
};

// What the one who decided wants the trace to keep about it: how far an
// approval reaches and what they were shown when they decided.
struct DecisionNote
{
    QString scope; // an approval's reach: "once", "tool", "folder /x", "command git", "host h"; empty: unsaid
    QString preview; // what the decision was made on: the diff, the command and its folder, the URL
};

struct ToolCallVerdict
{
    enum class Action { Allow, Deny, SupplyResult };
    Action action = Action::Allow;
    std::optional<QString> editedArguments;
    QString denialReason;
    ToolResult suppliedResult;
    DecisionNote note;
};

class ToolCallDecision final : public Decision<ToolCallVerdict>
{
public:
    using Decision::Decision;
    void allow(const DecisionNote &note = {}) const
    {
        decide({ToolCallVerdict::Action::Allow, std::nullopt, {}, {}, note});
    }
    void allowWithArguments(const QString &arguments, const DecisionNote &note = {}) const
    {
        decide({ToolCallVerdict::Action::Allow, arguments, {}, {}, note});
    }
    void deny(const QString &reason = {}, const DecisionNote &note = {}) const
    {
        decide({ToolCallVerdict::Action::Deny, std::nullopt, reason, {}, note});
    }
    void supplyResult(const ToolResult &result) const
    {
        decide({ToolCallVerdict::Action::SupplyResult, std::nullopt, {}, result});
    }
};

struct ModelCallCheckpoint
{
    int iteration = 0; // 0 for the reflection call
    bool isReflection = false;
    ModelRequest request;
    int traceNode = -1; // the iteration (or reflection) node
};

struct ToolCallCheckpoint
{
    int iteration = 0;
    ToolCall call;
    ToolSchema schema;
    ToolBehaviour behaviour; // e.g. whether the tool asks first
    int traceNode = -1;      // the tool call node
    QString agent;           // the agent that made the call: a sub-agent's approval names it
};

/*!
    Lets a caller stop the loop before each model call and each tool execution,
    look at what is about to happen, change it, and decide, now or later. The
    loop does not know whether a debugger, an approval policy or a test decides.
*/
class Interceptor
{
public:
    virtual ~Interceptor() = default;
    virtual void interceptModelCall(const ModelCallCheckpoint &checkpoint, ModelCallDecision decision)
    {
        Q_UNUSED(checkpoint);
        decision.proceed();
    }
    virtual void interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision)
    {
        Q_UNUSED(checkpoint);
        decision.allow();
    }
    // What a call this interceptor holds waits for, for its span in the trace: "approval",
    // "breakpoint", or "decision" when it is someone else.
    virtual QString holdKind() const { return QStringLiteral("decision"); }
};

} // namespace Loopscope
