#pragma once

#include <QCoreApplication>
#include <QStringList>

namespace Loopscope::Cli {

/*!
    `loopscope mcp list|call`: MCP servers without a model in between, chosen
    the way `loopscope run` would choose them. list connects to each, says
    whether it is ready (its protocol version and tools) or why it failed, and
    exits 0 only when every one is ready, so a script can check a
    configuration before a run depends on it. call runs one tool with JSON
    arguments and prints its result, to try a server by hand or to let a
    conformance suite drive the client.
*/
class McpCommand final
{
    Q_DECLARE_TR_FUNCTIONS(McpCommand)

public:
    // arguments: as for QCommandLineParser, starting with the program name and "mcp".
    int exec(const QStringList &arguments);
};

} // namespace Loopscope::Cli
