#pragma once

#include "agent/conversation/message.h"

#include <QString>

#include <optional>

namespace Loopscope {

enum class TurnOutcome {
    Answered,    // the model answered with text
    Reflected,   // the loop ended on tool results; a reflection call answered
    Summarised,  // the loop ended on tool results; the summary template answered
    Fallback,    // no answer could be had: the fallback message stands in
    HandedOff,   // a handoff tool passed the conversation on
    Blocked,     // a shield blocked the input or the output
    ErrorLimit,  // too many error-only iterations in a row
    TokenBudget, // the turn used more tokens than its budget
    TimeLimit,   // the turn ran out of its time limit (AgentConfig::turnTimeLimitMs)
    Cancelled,
    Failed,      // the model could not be reached or answered with an error
    ForcedFinal, // the iteration limit was reached: the answer came with tools disabled
};
QString turnOutcomeName(TurnOutcome outcome);
std::optional<TurnOutcome> turnOutcomeFromName(QStringView name);

struct Handoff
{
    QString target;
    QString reason;
    bool operator==(const Handoff &) const = default;
};

/*! How a turn ended, and which of the loop's safety valves it went through. */
struct TurnResult
{
    TurnOutcome outcome = TurnOutcome::Answered;
    QString text;  // the answer, summary or fallback shown to the user
    QString error; // why it did not answer, for every outcome that is not an answer
    int iterations = 0;
    bool wrapUpNoteSent = false;
    bool finalIterationWithoutTools = false;
    bool limitReached = false;
    std::optional<Handoff> handoff;
    QString agent; // the agent that ended the turn: after handoffs that continued, the last one
    TokenUsage usage;
    int traceNode = -1;

    bool isAnswer() const
    {
        return outcome == TurnOutcome::Answered || outcome == TurnOutcome::Reflected
               || outcome == TurnOutcome::Summarised || outcome == TurnOutcome::ForcedFinal;
    }
    bool operator==(const TurnResult &) const = default;
};

} // namespace Loopscope
