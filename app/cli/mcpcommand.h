#pragma once

#include <QCoreApplication>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QCommandLineParser;
QT_END_NAMESPACE

namespace Loopscope::Cli {

/*!
    `loopscope mcp add|remove|list|call`. add and remove change the saved
    servers exactly as Settings → MCP Servers does (McpSettings, secrets in the
    keychain), so a server set up in a terminal appears in the window.
    list and call: MCP servers without a model in between, chosen
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

private:
    int add(const QCommandLineParser &parser, const QStringList &arguments);
    int remove(const QCommandLineParser &parser);
};

} // namespace Loopscope::Cli
