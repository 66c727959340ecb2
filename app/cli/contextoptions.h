#pragma once

#include "agent/loop/agentconfig.h"

#include <QCommandLineOption>
#include <QCoreApplication>

QT_BEGIN_NAMESPACE
class QCommandLineParser;
QT_END_NAMESPACE

namespace Loopscope::Cli {

/*!
    How a turn keeps within the model's context window, on the command line:
    --context-window N (wins over the profile's, the provider's own and the price table's),
    --compact STRATEGY and --compact-at PERCENT. Shared by run and eval.
*/
class ContextOptions final
{
    Q_DECLARE_TR_FUNCTIONS(ContextOptions)

public:
    ContextOptions();

    void addTo(QCommandLineParser &parser) const;
    // Puts the options given into \a config; false with *error on a value that is not allowed.
    bool applyTo(const QCommandLineParser &parser, AgentConfig &config, QString *error) const;

private:
    QCommandLineOption m_contextWindow;
    QCommandLineOption m_compact;
    QCommandLineOption m_compactAt;
    QCommandLineOption m_compactModel;
};

} // namespace Loopscope::Cli
