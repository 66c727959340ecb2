#include "agent/loop/turnresult.h"

#include "agent/conversation/enumnames.h"
using namespace Qt::StringLiterals;

namespace Loopscope {

constexpr EnumName<TurnOutcome> TurnOutcomeNames[] = {
    {TurnOutcome::Answered, u"answered"},        {TurnOutcome::Reflected, u"reflected"},
    {TurnOutcome::Summarised, u"summarised"},    {TurnOutcome::Fallback, u"fallback"},
    {TurnOutcome::HandedOff, u"handed_off"},     {TurnOutcome::Blocked, u"blocked"},
    {TurnOutcome::ErrorLimit, u"error_limit"},   {TurnOutcome::TokenBudget, u"token_budget"},
    {TurnOutcome::Cancelled, u"cancelled"},      {TurnOutcome::Failed, u"failed"},
    {TurnOutcome::ForcedFinal, u"forced_final"}, {TurnOutcome::TimeLimit, u"time_limit"},
};

QString turnOutcomeName(TurnOutcome outcome)
{
    return nameOf(TurnOutcomeNames, outcome);
}

std::optional<TurnOutcome> turnOutcomeFromName(QStringView name)
{
    return valueNamed(TurnOutcomeNames, name);
}

} // namespace Loopscope
