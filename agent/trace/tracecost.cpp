#include "agent/trace/tracecost.h"

#include <QHash>

#include <memory>

namespace Loopscope {

namespace {

template<typename NodeAt>
CostSum sumCosts(const NodeAt &nodeAt, int id)
{
    const TraceNode &node = nodeAt(id);
    CostSum sum;
    if (const auto *call = std::get_if<ModelCallData>(&node.payload)) {
        if (call->cost || !call->response.usage.isEmpty())
            sum.add(call->cost);
    }
    for (int child : node.children)
        sum += sumCosts(nodeAt, child);
    return sum;
}

} // namespace

PriceLookup memoizedPriceLookup(PriceLookup lookup)
{
    auto cache = std::make_shared<QHash<QString, std::optional<PriceBasis>>>();
    return [lookup = std::move(lookup), cache](const QString &provider, const QString &model) {
        const QString key = provider + u'\n' + model;
        if (const auto known = cache->constFind(key); known != cache->cend())
            return *known;
        return *cache->insert(key, lookup(provider, model));
    };
}

QString billedModel(const ModelCallData &call)
{
    if (!call.response.model.isEmpty())
        return call.response.model;
    return call.model.isEmpty() ? call.request.options().model : call.model;
}

std::optional<ModelCost> priceModelCall(const ModelCallData &call, const PriceLookup &lookup)
{
    if (!lookup || call.response.usage.isEmpty())
        return std::nullopt;
    std::optional<PriceBasis> basis = lookup(call.provider, billedModel(call));
    // A dated name the table does not know may still be known by the name that was asked for.
    if (!basis && billedModel(call) != call.model && !call.model.isEmpty())
        basis = lookup(call.provider, call.model);
    if (!basis)
        return std::nullopt;
    return CostCalculator::cost(call.response.usage, *basis);
}

CostSum traceCost(const Trace &trace, int id)
{
    if (!trace.isValid(id))
        return {};
    return sumCosts([&trace](int node) -> const TraceNode & { return trace.node(node); }, id);
}

CostSum traceCost(const TraceForest &forest, int id)
{
    if (id < 0 || size_t(id) >= forest.nodes.size())
        return {};
    return sumCosts([&forest](int node) -> const TraceNode & { return forest.nodes[size_t(node)]; }, id);
}

CostSum sessionCost(const Trace &trace)
{
    CostSum sum;
    for (int root : trace.roots())
        sum += traceCost(trace, root);
    return sum;
}

int fillMissingCosts(TraceForest &forest, const PriceLookup &lookup)
{
    int filled = 0;
    for (TraceNode &node : forest.nodes) {
        auto *call = std::get_if<ModelCallData>(&node.payload);
        if (!call || call->cost || node.status != TraceStatus::Ok)
            continue;
        call->cost = priceModelCall(*call, lookup);
        if (call->cost)
            ++filled;
    }
    return filled;
}

} // namespace Loopscope
