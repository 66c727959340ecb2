#include "app/cli/limitoptions.h"

#include <QCommandLineParser>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

namespace {
constexpr int MaxResponseMbLimit = 65'536;
constexpr int MaxRequestTimeoutS = 604'800; // a week
constexpr int MaxTurnTimeLimitS = 86'400;   // a day, as an agent's time_limit_seconds
} // namespace

LimitOptions::LimitOptions(bool withRequestTimeout)
    : m_maxResponseMb(u"max-response-mb"_s,
                      tr("The most one answer from the provider or an MCP server may hold, in MB; a larger "
                         "one fails the call (default %1).")
                          .arg(ResponseLimits::DefaultMaxResponseBytes / ResponseLimits::MegaByte),
                      u"n"_s)
    , m_requestTimeoutS(u"request-timeout-s"_s,
                        tr("The longest one provider request may take in all, in seconds, however steadily "
                           "it streams (default %1).")
                            .arg(ResponseLimits::DefaultRequestTimeoutMs / 1000),
                        u"n"_s)
    , m_maxToolCalls(u"max-tool-calls"_s,
                     tr("The most tool calls one response may have run, from 1 to %1; the model is told "
                        "that the calls after them were not run (default %2).")
                         .arg(AgentConfig::MaxToolCallsLimit)
                         .arg(AgentConfig().maxToolCallsPerResponse),
                     u"n"_s)
    , m_turnTimeLimitS(u"time-limit-s"_s,
                       tr("The longest one turn may take, in seconds, waits for a person not counted; then "
                          "it stops with the outcome time_limit (exit 3). 0: none (default). An agent's "
                          "time_limit_seconds is its own."),
                       u"n"_s)
    , m_withRequestTimeout(withRequestTimeout)
{}

void LimitOptions::addTo(QCommandLineParser &parser) const
{
    parser.addOption(m_maxResponseMb);
    if (m_withRequestTimeout) {
        parser.addOption(m_requestTimeoutS);
        parser.addOption(m_maxToolCalls);
        parser.addOption(m_turnTimeLimitS);
    }
}

std::optional<ResponseLimits> LimitOptions::limits(const QCommandLineParser &parser, QString *error) const
{
    ResponseLimits limits;
    if (parser.isSet(m_maxResponseMb)) {
        bool ok = false;
        const int megabytes = parser.value(m_maxResponseMb).toInt(&ok);
        if (!ok || megabytes < 1 || megabytes > MaxResponseMbLimit) {
            *error = tr("--max-response-mb takes a number from 1 to %1").arg(MaxResponseMbLimit);
            return std::nullopt;
        }
        limits.maxResponseBytes = megabytes * ResponseLimits::MegaByte;
    }
    if (m_withRequestTimeout && parser.isSet(m_requestTimeoutS)) {
        bool ok = false;
        const int seconds = parser.value(m_requestTimeoutS).toInt(&ok);
        if (!ok || seconds < 1 || seconds > MaxRequestTimeoutS) {
            *error = tr("--request-timeout-s takes a number from 1 to %1").arg(MaxRequestTimeoutS);
            return std::nullopt;
        }
        limits.requestTimeoutMs = seconds * 1000;
    }
    return limits;
}

std::optional<int> LimitOptions::maxToolCalls(const QCommandLineParser &parser, QString *error) const
{
    if (!m_withRequestTimeout || !parser.isSet(m_maxToolCalls))
        return AgentConfig().maxToolCallsPerResponse;
    bool ok = false;
    const int calls = parser.value(m_maxToolCalls).toInt(&ok);
    if (!ok || calls < 1 || calls > AgentConfig::MaxToolCallsLimit) {
        *error = tr("--max-tool-calls takes a number from 1 to %1").arg(AgentConfig::MaxToolCallsLimit);
        return std::nullopt;
    }
    return calls;
}

std::optional<int> LimitOptions::turnTimeLimitMs(const QCommandLineParser &parser, QString *error) const
{
    if (!m_withRequestTimeout || !parser.isSet(m_turnTimeLimitS))
        return AgentConfig().turnTimeLimitMs;
    bool ok = false;
    const int seconds = parser.value(m_turnTimeLimitS).toInt(&ok);
    if (!ok || seconds < 0 || seconds > MaxTurnTimeLimitS) {
        *error = tr("--time-limit-s takes a number from 0 to %1").arg(MaxTurnTimeLimitS);
        return std::nullopt;
    }
    return seconds * 1000;
}

} // namespace Loopscope::Cli
