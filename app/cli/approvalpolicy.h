#pragma once

#include "agent/loop/interceptor.h"

namespace Loopscope::Cli {

/*!
    `--approve all|none` as an interceptor: every tool call runs, or every
    one is denied and the model is told so. Model calls always proceed.
*/
class ApprovalPolicy final : public Interceptor
{
public:
    explicit ApprovalPolicy(bool approveAll)
        : m_approveAll(approveAll)
    {}

    void interceptToolCall(const ToolCallCheckpoint &, ToolCallDecision decision) override
    {
        if (m_approveAll)
            decision.allow();
        else
            decision.deny(QStringLiteral("tool calls are not approved in this run (--approve none)"));
    }

private:
    bool m_approveAll;
};

} // namespace Loopscope::Cli
