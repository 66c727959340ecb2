#pragma once

#include "agent/model/modelcost.h"

#include <QJsonObject>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QUrl>

#include <optional>
#include <utility>

namespace Loopscope {

/*!
    Token prices and context windows of known models, read from the snapshot
    of @pydantic/genai-prices that ships in resources/prices (never fetched at
    run time). A model is found the way that package finds it: the provider by
    its API URL, its id or the model's name; then the first model whose rules
    (exact ids, aliases, prefixes, patterns) match, with a date suffix written
    as YYYYMMDD also tried as YYYY-MM-DD, and finally without the date. An
    unknown model has no price: callers show "—", never $0.
*/
class PriceTable final
{
public:
    PriceTable() = default;

    // The snapshot built into the program; empty (with a log line) when it is missing or corrupt.
    static const PriceTable &builtIn();
    // Reads a snapshot; std::nullopt (and *error) when the JSON is not one.
    static std::optional<PriceTable> fromJson(const QByteArray &json, QString *error = nullptr);

    bool isEmpty() const { return m_providers.isEmpty(); }
    QString version() const { return m_version; }
    QString snapshotDate() const { return m_snapshotDate; }

    /*!
        The price of \a model as \a provider serves it. \a provider is a
        Loopscope provider kind ("openai", "anthropic", "gemini", "ollama") or
        a price-table provider id ("groq"); \a baseUrl, when set, picks the
        provider first (an OpenAI-compatible profile pointing at Groq).
    */
    std::optional<PriceBasis> find(const QString &provider, const QString &model,
                                   const QUrl &baseUrl = {}) const;
    // The model's context window in tokens, when the table has one (some models have no price).
    std::optional<qint64> contextWindow(const QString &provider, const QString &model,
                                        const QUrl &baseUrl = {}) const;

private:
    struct Model
    {
        QString id;
        QJsonObject match;
        std::optional<double> input;
        std::optional<double> output;
        std::optional<double> cacheRead;
        std::optional<double> cacheWrite;
        std::optional<qint64> contextWindow;
    };
    struct Provider
    {
        QString id;
        QRegularExpression apiPattern; // anchored at the start of the base URL
        QJsonObject providerMatch;
        QJsonObject modelMatch;
        QStringList fallbacks;
        QList<Model> models;
    };

    std::pair<const Provider *, const Model *> lookup(const QString &provider, const QString &model,
                                                      const QUrl &baseUrl) const;
    const Provider *findProvider(const QString &provider, const QString &model, const QUrl &baseUrl) const;
    const Provider *providerById(const QString &id) const;
    const Model *findModel(const Provider &provider, const QString &model, int depth = 0) const;
    PriceBasis basisOf(const Provider &provider, const Model &model) const;

    QString m_version;
    QString m_snapshotDate;
    QList<Provider> m_providers;
};

// Whether \a model matches one of the table's rules: {equals|starts_with|ends_with|contains|regex}
// (case-insensitive but for regex) combined with {or: [...]} and {and: [...]}.
bool priceRuleMatches(const QJsonObject &rule, const QString &model);

} // namespace Loopscope
