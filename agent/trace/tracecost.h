#pragma once

#include "agent/model/modelcost.h"
#include "agent/trace/trace.h"

#include <functional>
#include <optional>

namespace Loopscope {

/*!
    Where a model call's price comes from: the provider it went to and the
    model it was billed as give the prices, or nothing when they are unknown.
    The session builds one from its profile and the price table.
*/
using PriceLookup = std::function<std::optional<PriceBasis>(const QString &provider, const QString &model)>;

// The same lookup, remembering each answer: a long session asks for the same model many times.
PriceLookup memoizedPriceLookup(PriceLookup lookup);

// The model a call is billed as: the one the response named (often dated), else the one asked for.
QString billedModel(const ModelCallData &call);

// The call's cost from its usage; std::nullopt when the lookup knows no price or there is no usage.
std::optional<ModelCost> priceModelCall(const ModelCallData &call, const PriceLookup &lookup);

// The recorded costs of the model calls in the subtree of \a id (the node itself included).
// Calls without usage (failed before answering) count as neither priced nor unpriced.
CostSum traceCost(const Trace &trace, int id);
CostSum traceCost(const TraceForest &forest, int id);
// Every turn of the trace.
CostSum sessionCost(const Trace &trace);

/*!
    Prices the finished model calls of traces recorded before costs were kept,
    so an old session shows what it cost at today's prices; calls that have a
    cost keep it. Returns how many calls got one.
*/
int fillMissingCosts(TraceForest &forest, const PriceLookup &lookup);

} // namespace Loopscope
