#pragma once

#include "agent/config/providerprofile.h"
#include "agent/model/pricetable.h"
#include "agent/trace/tracecost.h"

#include <optional>

namespace Loopscope {

/*!
    What a provider profile's calls cost and how much context its model has:
    the profile's own prices when it sets both, 0 for a local server, else
    the price table's entry for the provider (by its base URL) and model. The
    profile's context window wins over the table's.
*/
class ProfilePricing final
{
public:
    ProfilePricing(const ProviderProfile &profile, const PriceTable &table);

    std::optional<PriceBasis> price(const QString &model) const;
    std::optional<qint64> contextWindow(const QString &model) const;
    // For Agent::setPriceLookup: the call's provider is the profile's protocol.
    PriceLookup lookup() const;

private:
    ProviderProfile m_profile;
    const PriceTable *m_table;
};

// Prices for a recorded session's calls when no profile applies: the table, and 0 on local servers.
PriceLookup recordedPriceLookup(const QString &providerKind, const QUrl &baseUrl,
                                const PriceTable &table = PriceTable::builtIn());

} // namespace Loopscope
