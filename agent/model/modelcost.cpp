#include "agent/model/modelcost.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

void insertOptional(QJsonObject &json, const QString &key, const std::optional<double> &value)
{
    if (value)
        json.insert(key, *value);
}

std::optional<double> optionalDouble(const QJsonObject &json, const QString &key)
{
    const QJsonValue value = json.value(key);
    return value.isDouble() ? std::optional<double>(value.toDouble()) : std::nullopt;
}

} // namespace

QJsonObject PriceBasis::toJson() const
{
    QJsonObject json{{u"inputPerMTok"_s, inputPerMTok}, {u"outputPerMTok"_s, outputPerMTok}};
    insertOptional(json, u"cacheReadPerMTok"_s, cacheReadPerMTok);
    insertOptional(json, u"cacheWritePerMTok"_s, cacheWritePerMTok);
    if (contextWindow)
        json.insert(u"contextWindow"_s, *contextWindow);
    if (!source.isEmpty())
        json.insert(u"source"_s, source);
    return json;
}

PriceBasis PriceBasis::fromJson(const QJsonObject &json)
{
    PriceBasis basis;
    basis.inputPerMTok = json.value(u"inputPerMTok"_s).toDouble();
    basis.outputPerMTok = json.value(u"outputPerMTok"_s).toDouble();
    basis.cacheReadPerMTok = optionalDouble(json, u"cacheReadPerMTok"_s);
    basis.cacheWritePerMTok = optionalDouble(json, u"cacheWritePerMTok"_s);
    if (json.value(u"contextWindow"_s).isDouble())
        basis.contextWindow = json.value(u"contextWindow"_s).toInteger();
    basis.source = json.value(u"source"_s).toString();
    return basis;
}

QJsonObject ModelCost::toJson() const
{
    return {{u"usd"_s, usd}, {u"basis"_s, basis.toJson()}};
}

ModelCost ModelCost::fromJson(const QJsonObject &json)
{
    return {json.value(u"usd"_s).toDouble(), PriceBasis::fromJson(json.value(u"basis"_s).toObject())};
}

double CostCalculator::usd(const TokenUsage &usage, const PriceBasis &basis)
{
    const qint64 cacheRead = std::max<qint64>(0, usage.cacheReadTokens);
    const qint64 cacheWrite = std::max<qint64>(0, usage.cacheWriteTokens);
    const qint64 plainInput = std::max<qint64>(0, usage.inputTokens - cacheRead - cacheWrite);
    const double perToken = 1e-6;
    return perToken
           * (double(plainInput) * basis.inputPerMTok + double(usage.outputTokens) * basis.outputPerMTok
              + double(cacheRead) * basis.cacheReadPerMTok.value_or(basis.inputPerMTok)
              + double(cacheWrite) * basis.cacheWritePerMTok.value_or(basis.inputPerMTok));
}

QString formatUsd(double usd)
{
    if (usd == 0)
        return u"$0"_s;
    if (usd < 0.0001)
        return u"<$0.0001"_s;
    // Four decimals below a dollar: single calls cost fractions of a cent.
    return u"$"_s + QString::number(usd, 'f', usd < 1 ? 4 : 2);
}

QString formatCost(const CostSum &sum)
{
    if (!sum.isKnown())
        return u"—"_s;
    return (sum.isPartial() ? u"≥"_s : QString()) + formatUsd(sum.usd);
}

QString formatTokenCount(qint64 tokens)
{
    if (tokens < 1000)
        return QString::number(tokens);
    if (tokens < 100'000)
        return QString::number(double(tokens) / 1000, 'f', 1) + u"k"_s;
    if (tokens < 1'000'000)
        return QString::number((tokens + 500) / 1000) + u"k"_s;
    return QString::number(double(tokens) / 1e6, 'g', 3) + u"M"_s;
}

} // namespace Loopscope
