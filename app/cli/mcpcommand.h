#pragma once

#include <QCoreApplication>
#include <QStringList>

namespace Loopscope::Cli {

/*!
    `loopscope mcp list`: connects to each MCP server the way `loopscope run`
    would choose them, says whether it is ready (its protocol version and
    tools) or why it failed, and exits 0 only when every one is ready, so a
    script can check a configuration before a run depends on it.
*/
class McpCommand final
{
    Q_DECLARE_TR_FUNCTIONS(McpCommand)

public:
    // arguments: as for QCommandLineParser, starting with the program name and "mcp".
    int exec(const QStringList &arguments);
};

} // namespace Loopscope::Cli
