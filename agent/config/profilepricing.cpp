#include "agent/config/profilepricing.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

PriceBasis freeBasis(std::optional<qint64> contextWindow)
{
    PriceBasis basis;
    basis.contextWindow = contextWindow;
    basis.source = u"local"_s;
    return basis;
}

} // namespace

ProfilePricing::ProfilePricing(const ProviderProfile &profile, const PriceTable &table)
    : m_profile(profile)
    , m_table(&table)
{}

std::optional<PriceBasis> ProfilePricing::price(const QString &model) const
{
    const std::optional<qint64> window = contextWindow(model);
    if (m_profile.inputPricePerMTok && m_profile.outputPricePerMTok) {
        PriceBasis basis;
        basis.inputPerMTok = *m_profile.inputPricePerMTok;
        basis.outputPerMTok = *m_profile.outputPricePerMTok;
        basis.contextWindow = window;
        basis.source = u"profile"_s;
        return basis;
    }
    if (m_profile.isLocal())
        return freeBasis(window);
    std::optional<PriceBasis> basis
        = m_table->find(providerKindName(m_profile.kind), model, m_profile.effectiveBaseUrl());
    if (basis)
        basis->contextWindow = window;
    return basis;
}

std::optional<qint64> ProfilePricing::contextWindow(const QString &model) const
{
    if (m_profile.contextWindow && *m_profile.contextWindow > 0)
        return m_profile.contextWindow;
    return m_table->contextWindow(providerKindName(m_profile.kind), model, m_profile.effectiveBaseUrl());
}

PriceLookup ProfilePricing::lookup() const
{
    return [pricing = *this](const QString &, const QString &model) {
        return pricing.price(model);
    };
}

PriceLookup recordedPriceLookup(const QString &providerKind, const QUrl &baseUrl, const PriceTable &table)
{
    const std::optional<ProviderKind> kind = providerKindFromName(providerKind);
    if (!kind) {
        return memoizedPriceLookup(
            [&table](const QString &provider, const QString &model) { return table.find(provider, model); });
    }
    ProviderProfile profile;
    profile.kind = *kind;
    profile.baseUrl = baseUrl;
    return memoizedPriceLookup(
        [&table, profile](const QString &provider, const QString &model) -> std::optional<PriceBasis> {
            // A call recorded under another provider than the session's is priced by its own name.
            if (!provider.isEmpty() && provider != providerKindName(profile.kind)) {
                if (provider == u"ollama")
                    return freeBasis(std::nullopt);
                return table.find(provider, model);
            }
            return ProfilePricing(profile, table).price(model);
        });
}

} // namespace Loopscope
