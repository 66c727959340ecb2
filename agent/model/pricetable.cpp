#include "agent/model/pricetable.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLoggingCategory>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace Loopscope {

Q_LOGGING_CATEGORY(lcPrices, "loopscope.prices")

namespace {

constexpr auto BuiltInPath = ":/loopscope/prices/genai-prices.json";

std::optional<double> optionalNumber(const QJsonObject &json, QStringView key)
{
    const QJsonValue value = json.value(key);
    return value.isDouble() ? std::optional<double>(value.toDouble()) : std::nullopt;
}

// Dates inside ids: "-20240806" is also tried as "-2024-08-06", as the table writes most of them.
QString withDashedDates(const QString &model)
{
    static const QRegularExpression compact(u"-(20\\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])(?=-|:|$)"_s);
    QString dashed = model;
    dashed.replace(compact, u"-\\1-\\2-\\3"_s);
    return dashed;
}

// "gpt-4o-2024-08-06" → "gpt-4o", "claude-3-opus-20240229" → "claude-3-opus".
QString withoutDateSuffix(const QString &model)
{
    static const QRegularExpression dated(u"-(?:\\d{4}-\\d{2}-\\d{2}|\\d{8})$"_s);
    QString bare = model;
    bare.remove(dated);
    return bare;
}

} // namespace

bool priceRuleMatches(const QJsonObject &rule, const QString &model)
{
    if (rule.contains(u"or")) {
        for (const QJsonValue &part : rule.value(u"or").toArray()) {
            if (priceRuleMatches(part.toObject(), model))
                return true;
        }
        return false;
    }
    if (rule.contains(u"and")) {
        const QJsonArray parts = rule.value(u"and").toArray();
        for (const QJsonValue &part : parts) {
            if (!priceRuleMatches(part.toObject(), model))
                return false;
        }
        return !parts.isEmpty();
    }
    if (rule.contains(u"equals"))
        return model.compare(rule.value(u"equals").toString(), Qt::CaseInsensitive) == 0;
    if (rule.contains(u"starts_with"))
        return model.startsWith(rule.value(u"starts_with").toString(), Qt::CaseInsensitive);
    if (rule.contains(u"ends_with"))
        return model.endsWith(rule.value(u"ends_with").toString(), Qt::CaseInsensitive);
    if (rule.contains(u"contains"))
        return model.contains(rule.value(u"contains").toString(), Qt::CaseInsensitive);
    if (rule.contains(u"regex")) {
        const QRegularExpression pattern(rule.value(u"regex").toString());
        return pattern.isValid() && pattern.match(model).hasMatch();
    }
    return false;
}

const PriceTable &PriceTable::builtIn()
{
    static const PriceTable table = [] {
        QFile file(QString::fromLatin1(BuiltInPath));
        if (!file.open(QIODevice::ReadOnly)) {
            qCWarning(lcPrices, "The price snapshot %s is missing: no costs are shown.", BuiltInPath);
            return PriceTable();
        }
        QString error;
        std::optional<PriceTable> loaded = fromJson(file.readAll(), &error);
        if (!loaded) {
            qCWarning(lcPrices, "The price snapshot %s is unreadable (%s): no costs are shown.", BuiltInPath,
                      qPrintable(error));
            return PriceTable();
        }
        return *std::move(loaded);
    }();
    return table;
}

std::optional<PriceTable> PriceTable::fromJson(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    const QJsonArray providers = document.object().value(u"providers").toArray();
    if (!document.isObject() || providers.isEmpty()) {
        if (error)
            *error = parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                  : u"no \"providers\" array"_s;
        return std::nullopt;
    }
    PriceTable table;
    table.m_version = document.object().value(u"version").toString();
    table.m_snapshotDate = document.object().value(u"snapshotDate").toString();
    for (const QJsonValue &providerValue : providers) {
        const QJsonObject providerJson = providerValue.toObject();
        Provider provider;
        provider.id = providerJson.value(u"id").toString();
        // Compiled once: every lookup with a base URL tries each provider's.
        if (const QString pattern = providerJson.value(u"apiPattern").toString(); !pattern.isEmpty())
            provider.apiPattern.setPattern(u"^(?:"_s + pattern + u')');
        provider.providerMatch = providerJson.value(u"providerMatch").toObject();
        provider.modelMatch = providerJson.value(u"modelMatch").toObject();
        for (const QJsonValue &fallback : providerJson.value(u"fallbacks").toArray())
            provider.fallbacks.append(fallback.toString());
        for (const QJsonValue &modelValue : providerJson.value(u"models").toArray()) {
            const QJsonObject modelJson = modelValue.toObject();
            Model model;
            model.id = modelJson.value(u"id").toString();
            model.match = modelJson.value(u"match").toObject();
            model.input = optionalNumber(modelJson, u"input");
            model.output = optionalNumber(modelJson, u"output");
            model.cacheRead = optionalNumber(modelJson, u"cacheRead");
            model.cacheWrite = optionalNumber(modelJson, u"cacheWrite");
            if (const auto window = optionalNumber(modelJson, u"contextWindow"))
                model.contextWindow = qint64(*window);
            if (!model.id.isEmpty() && !model.match.isEmpty())
                provider.models.append(model);
        }
        if (!provider.id.isEmpty())
            table.m_providers.append(provider);
    }
    return table;
}

std::optional<PriceBasis> PriceTable::find(const QString &provider, const QString &model,
                                           const QUrl &baseUrl) const
{
    const auto [found, entry] = lookup(provider, model, baseUrl);
    // A model the table knows only by its context window has no price: unknown, not free.
    if (!entry || (!entry->input && !entry->output))
        return std::nullopt;
    return basisOf(*found, *entry);
}

std::optional<qint64> PriceTable::contextWindow(const QString &provider, const QString &model,
                                                const QUrl &baseUrl) const
{
    const auto [found, entry] = lookup(provider, model, baseUrl);
    return entry ? entry->contextWindow : std::nullopt;
}

std::pair<const PriceTable::Provider *, const PriceTable::Model *>
PriceTable::lookup(const QString &provider, const QString &model, const QUrl &baseUrl) const
{
    const QString name = model.trimmed();
    if (name.isEmpty())
        return {};
    const Provider *found = findProvider(provider, name, baseUrl);
    if (!found)
        return {};
    const Model *entry = findModel(*found, name);
    if (!entry)
        entry = findModel(*found, withDashedDates(name));
    if (!entry)
        entry = findModel(*found, withoutDateSuffix(withDashedDates(name)));
    return {found, entry};
}

const PriceTable::Provider *PriceTable::providerById(const QString &id) const
{
    for (const Provider &provider : m_providers) {
        if (provider.id.compare(id, Qt::CaseInsensitive) == 0)
            return &provider;
    }
    return nullptr;
}

const PriceTable::Provider *PriceTable::findProvider(const QString &provider, const QString &model,
                                                     const QUrl &baseUrl) const
{
    // The URL says who serves the model; the protocol's name alone does not (OpenAI-compatible).
    if (baseUrl.isValid() && !baseUrl.isEmpty()) {
        const QString url = baseUrl.toString();
        for (const Provider &candidate : m_providers) {
            if (!candidate.apiPattern.pattern().isEmpty() && candidate.apiPattern.isValid()
                && candidate.apiPattern.match(url).hasMatch())
                return &candidate;
        }
    }
    const QString id = provider == u"gemini" ? u"google"_s : provider;
    if (const Provider *byId = providerById(id))
        return byId;
    for (const Provider &candidate : m_providers) {
        if (!candidate.providerMatch.isEmpty() && priceRuleMatches(candidate.providerMatch, id))
            return &candidate;
    }
    for (const Provider &candidate : m_providers) {
        if (!candidate.modelMatch.isEmpty() && priceRuleMatches(candidate.modelMatch, model))
            return &candidate;
    }
    return nullptr;
}

const PriceTable::Model *PriceTable::findModel(const Provider &provider, const QString &model,
                                               int depth) const
{
    for (const Model &candidate : provider.models) {
        if (priceRuleMatches(candidate.match, model))
            return &candidate;
    }
    // A provider that also serves other vendors' models (Azure, Vertex) names where to look.
    if (depth > 2)
        return nullptr;
    for (const QString &fallback : provider.fallbacks) {
        if (const Provider *other = providerById(fallback)) {
            if (const Model *found = findModel(*other, model, depth + 1))
                return found;
        }
    }
    return nullptr;
}

PriceBasis PriceTable::basisOf(const Provider &provider, const Model &model) const
{
    PriceBasis basis;
    basis.inputPerMTok = model.input.value_or(0);
    basis.outputPerMTok = model.output.value_or(0);
    basis.cacheReadPerMTok = model.cacheRead;
    basis.cacheWritePerMTok = model.cacheWrite;
    basis.contextWindow = model.contextWindow;
    basis.source = u"genai-prices %1 (%2): %3/%4"_s.arg(m_version, m_snapshotDate, provider.id, model.id);
    return basis;
}

} // namespace Loopscope
