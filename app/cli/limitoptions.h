#pragma once

#include "agent/loop/agentconfig.h"
#include "agent/model/responselimits.h"

#include <QCommandLineOption>
#include <QCoreApplication>

#include <optional>

QT_BEGIN_NAMESPACE
class QCommandLineParser;
QT_END_NAMESPACE

namespace Loopscope::Cli {

/*!
    What one answer may cost, on the command line as in Settings → Loop: --max-response-mb (for
    provider and MCP answers alike) and, where a provider is called, --request-timeout-s and
    --max-tool-calls (the calls one response may have run). Without them a command runs with
    ResponseLimits' and AgentConfig's defaults.
*/
class LimitOptions final
{
    Q_DECLARE_TR_FUNCTIONS(LimitOptions)

public:
    // withRequestTimeout: also --request-timeout-s, --max-tool-calls and --time-limit-s (run and eval; mcp
    // call has no provider and no loop).
    explicit LimitOptions(bool withRequestTimeout);

    void addTo(QCommandLineParser &parser) const;
    // The limits given; nullopt with *error on a value that is not a whole number in range.
    std::optional<ResponseLimits> limits(const QCommandLineParser &parser, QString *error) const;
    // --max-tool-calls, or AgentConfig's default; nullopt with *error on a value out of range.
    std::optional<int> maxToolCalls(const QCommandLineParser &parser, QString *error) const;
    // --time-limit-s in milliseconds (0: none), or AgentConfig's default; nullopt with *error.
    std::optional<int> turnTimeLimitMs(const QCommandLineParser &parser, QString *error) const;

private:
    QCommandLineOption m_maxResponseMb;
    QCommandLineOption m_requestTimeoutS;
    QCommandLineOption m_maxToolCalls;
    QCommandLineOption m_turnTimeLimitS;
    bool m_withRequestTimeout;
};

} // namespace Loopscope::Cli
