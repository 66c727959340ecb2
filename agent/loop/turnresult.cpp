#include "agent/loop/turnresult.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

QString turnOutcomeName(TurnOutcome outcome)
{
    switch (outcome) {
    case TurnOutcome::Answered: return u"answered"_s;
    case TurnOutcome::Reflected: return u"reflected"_s;
    case TurnOutcome::Summarised: return u"summarised"_s;
    case TurnOutcome::Fallback: return u"fallback"_s;
    case TurnOutcome::HandedOff: return u"handed_off"_s;
    case TurnOutcome::Blocked: return u"blocked"_s;
    case TurnOutcome::ErrorLimit: return u"error_limit"_s;
    case TurnOutcome::TokenBudget: return u"token_budget"_s;
    case TurnOutcome::Cancelled: return u"cancelled"_s;
    case TurnOutcome::Failed: return u"failed"_s;
    }
    return {};
}

} // namespace Loopscope
