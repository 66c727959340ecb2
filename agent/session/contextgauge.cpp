#include "agent/session/contextgauge.h"

#include "agent/loop/contextbudget.h"
#include "agent/model/modelcost.h"

using namespace Qt::StringLiterals;

namespace Loopscope {

qint64 ContextGauge::estimateTokens(const QString &text, const QList<Attachment> &attachments)
{
    qint64 characters = text.size();
    for (const Attachment &attachment : attachments)
        characters += TokenEstimator::characters(attachment);
    return (characters + 3) / 4;
}

ContextGauge::Level ContextGauge::level(qint64 tokens, std::optional<qint64> window)
{
    if (!window || *window <= 0)
        return Level::Unknown;
    if (tokens > *window)
        return Level::Over;
    return double(tokens) >= NearShare * double(*window) ? Level::Near : Level::Fine;
}

QString ContextGauge::describe(qint64 tokens, std::optional<qint64> window, bool estimated)
{
    const QString prefix = estimated ? u"≈"_s : QString();
    if (!window || *window <= 0)
        return tr("%1%2 tokens").arg(prefix, formatTokenCount(tokens));
    return tr("%1%2 / %3 tokens").arg(prefix, formatTokenCount(tokens), formatTokenCount(*window));
}

QString ContextGauge::warning(qint64 tokens, std::optional<qint64> window)
{
    switch (level(tokens, window)) {
    case Level::Over:
        return tr("The next request is about %1 tokens, more than the model's context window of %2: "
                  "the provider may refuse it or drop the oldest messages. Start a new session or fork "
                  "from an earlier turn.")
            .arg(formatTokenCount(tokens), formatTokenCount(*window));
    case Level::Near:
        return tr("The next request is about %1 tokens, %2% of the model's context window of %3.")
            .arg(formatTokenCount(tokens))
            .arg(qRound(100.0 * double(tokens) / double(*window)))
            .arg(formatTokenCount(*window));
    case Level::Unknown:
    case Level::Fine: break;
    }
    return {};
}

} // namespace Loopscope
