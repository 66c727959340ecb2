#include "app/cli/contextoptions.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

namespace {
constexpr qint64 MaxContextWindow = 100'000'000;

QStringList strategyNames()
{
    return {compactionStrategyName(CompactionStrategy::Auto),
            compactionStrategyName(CompactionStrategy::TrimToolResults),
            compactionStrategyName(CompactionStrategy::Summarise),
            compactionStrategyName(CompactionStrategy::DropOldest),
            compactionStrategyName(CompactionStrategy::Off)};
}
} // namespace

ContextOptions::ContextOptions()
    : m_contextWindow(u"context-window"_s,
                      tr("The model's context window in tokens; wins over the provider profile's, the "
                         "provider's own (Ollama's /api/show, Gemini's model information) and the price "
                         "table's. Ollama is sent it as num_ctx, uncapped."),
                      u"n"_s)
    , m_compact(u"compact"_s,
                tr("When a request would fill the context window: auto (trim old tool results, summarise "
                   "older turns if that is not enough, drop the oldest turns last), trim-tool-results, "
                   "summarise (turns before the last two, by a model call), drop-oldest or off. A request "
                   "that still does not fit is refused before it is sent. Default: auto."),
                u"strategy"_s)
    , m_compactAt(u"compact-at"_s,
                  tr("The share of the context window, in percent, over which a request is compacted "
                     "(default %1).")
                      .arg(AgentConfig().compactAtPercent),
                  u"percent"_s)
    , m_compactModel(u"compact-model"_s,
                     tr("The model that writes a compaction's summary (default: the turn's own model)."),
                     u"model"_s)
{}

void ContextOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOptions({m_contextWindow, m_compact, m_compactAt, m_compactModel});
}

bool ContextOptions::applyTo(const QCommandLineParser &parser, AgentConfig &config, QString *error) const
{
    if (parser.isSet(m_contextWindow)) {
        bool ok = false;
        const qint64 window = parser.value(m_contextWindow).toLongLong(&ok);
        if (!ok || window < 1 || window > MaxContextWindow) {
            *error = tr("--context-window takes a number of tokens from 1 to %1").arg(MaxContextWindow);
            return false;
        }
        config.model.contextWindow = window;
    }
    if (parser.isSet(m_compact)) {
        const std::optional<CompactionStrategy> strategy
            = compactionStrategyFromName(parser.value(m_compact));
        if (!strategy) {
            *error = tr("--compact takes %1").arg(strategyNames().join(u", "_s));
            return false;
        }
        config.compaction = *strategy;
    }
    if (parser.isSet(m_compactAt)) {
        bool ok = false;
        const int percent = parser.value(m_compactAt).toInt(&ok);
        if (!ok || percent < 1 || percent > 100) {
            *error = tr("--compact-at takes a percentage from 1 to 100");
            return false;
        }
        config.compactAtPercent = percent;
    }
    if (parser.isSet(m_compactModel)) {
        if (parser.value(m_compactModel).trimmed().isEmpty()) {
            *error = tr("--compact-model takes a model name");
            return false;
        }
        config.compactionModel = parser.value(m_compactModel).trimmed();
    }
    return true;
}

} // namespace Loopscope::Cli
