#pragma once

#include "agent/conversation/message.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace Loopscope {

/*!
    What a model call was priced with: USD per million tokens and where the
    prices came from. A trace keeps it beside the cost, so a reopened session
    shows the cost it had even after the price table changed. Cache prices are
    optional: a provider without them bills cached tokens as plain input.
*/
struct PriceBasis
{
    double inputPerMTok = 0;
    double outputPerMTok = 0;
    std::optional<double> cacheReadPerMTok;
    std::optional<double> cacheWritePerMTok;
    std::optional<qint64> contextWindow; // tokens; unset when unknown
    // "genai-prices 0.1.8 (2026-11-24): openai/gpt-4o", "profile", "local"
    QString source;

    bool operator==(const PriceBasis &) const = default;
    QJsonObject toJson() const;
    static PriceBasis fromJson(const QJsonObject &json);
};

/*! A model call's cost in USD and the prices it was computed from. */
struct ModelCost
{
    double usd = 0;
    PriceBasis basis;

    bool operator==(const ModelCost &) const = default;
    QJsonObject toJson() const;
    static ModelCost fromJson(const QJsonObject &json);
};

/*!
    Turns a call's token usage into USD. Cached input is part of
    usage.inputTokens, so the cached share is taken out of the plain input
    and priced at the cache prices (or the input price when there are none).
*/
class CostCalculator final
{
public:
    static double usd(const TokenUsage &usage, const PriceBasis &basis);
    static ModelCost cost(const TokenUsage &usage, const PriceBasis &basis)
    {
        return {usd(usage, basis), basis};
    }
};

/*!
    Costs summed over model calls: a total of those that had a price, and how
    many had none. A sum with no priced call is unknown ("—"), never $0.
*/
struct CostSum
{
    double usd = 0;
    int pricedCalls = 0;
    int unpricedCalls = 0;

    bool isKnown() const { return pricedCalls > 0; }
    bool isPartial() const { return pricedCalls > 0 && unpricedCalls > 0; }
    void add(const std::optional<ModelCost> &cost)
    {
        if (cost) {
            usd += cost->usd;
            ++pricedCalls;
        } else {
            ++unpricedCalls;
        }
    }
    CostSum &operator+=(const CostSum &other)
    {
        usd += other.usd;
        pricedCalls += other.pricedCalls;
        unpricedCalls += other.unpricedCalls;
        return *this;
    }
    bool operator==(const CostSum &) const = default;
};

// "$0.0123", "$1.25", "<$0.0001", "—" for an unknown sum; "≥" marks a sum that misses some calls.
QString formatCost(const CostSum &sum);
QString formatUsd(double usd);
// "12.3k", "128k", "950": token counts short enough for a status bar.
QString formatTokenCount(qint64 tokens);

} // namespace Loopscope
