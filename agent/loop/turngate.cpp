#include "agent/loop/turngate.h"

namespace Loopscope {

void TurnGate::post(const QPointer<TurnGate> &gate, TurnToken token, std::function<void()> step)
{
    if (gate)
        QMetaObject::invokeMethod(gate, gate->guard(token, std::move(step)), Qt::QueuedConnection);
}

std::function<void()> TurnGate::guard(TurnToken token, std::function<void()> step) const
{
    const QPointer<const TurnGate> self(this);
    return [self, token, step = std::move(step)] {
        if (self && self->isCurrent(token))
            step();
    };
}

} // namespace Loopscope
