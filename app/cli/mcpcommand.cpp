#include "app/cli/mcpcommand.h"

#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcptool.h"
#include "app/cli/commandlinesyntax.h"
#include "app/cli/interruptwatcher.h"
#include "app/cli/mcpserveroptions.h"
#include "app/cli/runcommand.h"

#include <QCommandLineParser>
#include <QNetworkAccessManager>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

namespace {

void printError(const QString &message)
{
    QTextStream(stderr) << "loopscope mcp: " << message << Qt::endl;
}

bool settled(McpClient::State state)
{
    return state == McpClient::State::Ready || state == McpClient::State::Failed;
}

// Each server's state and tools, in the configuration's order; true when every one is ready.
bool report(const McpHub &hub, QTextStream &out)
{
    bool allReady = true;
    const QList<std::shared_ptr<const Tool>> tools = hub.tools();
    for (const McpServerConfig &config : hub.servers()) {
        const McpClient *client = hub.client(config.name);
        if (!client || client->state() != McpClient::State::Ready) {
            allReady = false;
            out << config.name << ": "
                << McpCommand::tr("failed: %1")
                       .arg(client ? client->failureReason() : McpCommand::tr("not started"))
                << Qt::endl;
            continue;
        }
        const std::optional<McpStartupInfo> info = client->startupInfo();
        QStringList lines;
        for (const auto &tool : tools) {
            const auto *mcpTool = dynamic_cast<const McpTool *>(tool.get());
            if (!mcpTool || mcpTool->serverName() != config.name)
                continue;
            const QString description = mcpTool->schema().description.section(u'\n', 0, 0).trimmed();
            lines.append(u"  "_s + tool->name()
                         + (description.isEmpty() ? QString() : u"  "_s + description));
        }
        out << config.name << ": "
            << McpCommand::tr("ready (protocol %1, %n tool(s))", nullptr, int(lines.size()))
                   .arg(info ? info->protocolVersion : McpCommand::tr("unknown"))
            << Qt::endl;
        for (const QString &line : std::as_const(lines))
            out << line << Qt::endl;
    }
    return allReady;
}

} // namespace

int McpCommand::exec(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("list: connect to each MCP server, print its state and tools, and end it again.\n"
           "Exit codes: 0 every server is ready, 1 one or more failed, 2 bad usage."));
    CommandLineSyntax syntax(parser, u"mcp"_s);
    const McpServerOptions mcpOptions(false);
    mcpOptions.addTo(parser);
    parser.addPositionalArgument(u"list"_s, tr("What to do: list."), u"list"_s);

    QTextStream out(stdout);
    QString error;
    switch (syntax.parse(arguments, out, &error)) {
    case CommandLineSyntax::Outcome::Failed: printError(error); return BadUsage;
    case CommandLineSyntax::Outcome::HelpShown: return Success;
    case CommandLineSyntax::Outcome::Parsed: break;
    }
    if (parser.positionalArguments() != QStringList{u"list"_s}) {
        printError(tr("the only command is list (see --help)"));
        return BadUsage;
    }
    QStringList notes;
    const std::optional<QList<McpServerConfig>> servers = mcpOptions.servers(parser, &notes, &error);
    for (const QString &note : std::as_const(notes))
        printError(tr("note: %1").arg(note));
    if (!servers) {
        printError(error);
        return BadUsage;
    }
    if (servers->isEmpty()) {
        out << tr("No MCP server is configured.") << Qt::endl;
        return Success;
    }

    QNetworkAccessManager network;
    McpHub hub(&network);
    const auto finishIfSettled = [&hub] {
        for (const McpServerConfig &config : hub.servers()) {
            const McpClient *client = hub.client(config.name);
            if (client && !settled(client->state()))
                return;
        }
        QCoreApplication::exit(0);
    };
    QObject::connect(&hub, &McpHub::serverStateChanged, &hub, finishIfSettled);
    InterruptWatcher interrupts;
    QObject::connect(&interrupts, &InterruptWatcher::interrupted, &hub,
                     [] { QCoreApplication::exit(Cancelled); });
    hub.setServers(*servers);
    QMetaObject::invokeMethod(&hub, finishIfSettled, Qt::QueuedConnection);
    if (QCoreApplication::exec() == Cancelled) {
        hub.shutdown();
        return Cancelled;
    }
    const bool allReady = report(hub, out);
    hub.shutdown();
    return allReady ? Success : ModelFailed;
}

} // namespace Loopscope::Cli
