#include "app/cli/mcpcommand.h"

#include "agent/config/apikeyresolver.h"
#include "agent/config/filesecretstore.h"
#include "agent/config/secretstore.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcpserverinstall.h"
#include "agent/mcp/mcpsettings.h"
#include "agent/mcp/mcptool.h"
#include "agent/mcp/urlopener.h"
#include "agent/session/mcpsamplingcall.h"
#include "agent/session/providerbinding.h"
#include "app/cli/commandlinesyntax.h"
#include "app/cli/interruptwatcher.h"
#include "app/cli/limitoptions.h"
#include "app/cli/mcpserveroptions.h"
#include "app/cli/runcommand.h"
#include "app/cli/terminaltext.h"
#include "app/launch/provideroptions.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QNetworkAccessManager>
#include <QSettings>
#include <QTextStream>

#include <cstdlib>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

namespace {

void printError(const QString &message)
{
    QTextStream(stderr) << "loopscope mcp: " << visibleControls(message) << Qt::endl;
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

// Starts the servers and runs the event loop until each is ready or failed; false on Ctrl+C.
bool startServers(McpHub &hub, const QList<McpServerConfig> &servers)
{
    const auto finishIfSettled = [&hub] {
        for (const McpServerConfig &config : hub.servers()) {
            const McpClient *client = hub.client(config.name);
            if (client && !settled(client->state()))
                return;
        }
        QCoreApplication::exit(0);
    };
    const QMetaObject::Connection stateChanged
        = QObject::connect(&hub, &McpHub::serverStateChanged, &hub, finishIfSettled);
    InterruptWatcher interrupts;
    QObject::connect(&interrupts, &InterruptWatcher::interrupted, &hub,
                     [] { QCoreApplication::exit(Cancelled); });
    hub.setServers(servers);
    QMetaObject::invokeMethod(&hub, finishIfSettled, Qt::QueuedConnection);
    const bool started = QCoreApplication::exec() != Cancelled;
    QObject::disconnect(stateChanged);
    return started;
}

// The tools \a name may mean, among the ready servers: an MCP name, a model-facing name, or server/tool.
QList<McpHub::ToolRef> candidates(const McpHub &hub, const QString &name, QStringList *available)
{
    QList<McpHub::ToolRef> found;
    if (const std::optional<McpHub::ToolRef> ref = hub.resolve(name))
        found.append(*ref);
    for (const McpServerConfig &config : hub.servers()) {
        const McpClient *client = hub.client(config.name);
        if (!client || client->state() != McpClient::State::Ready)
            continue;
        for (const McpToolInfo &tool : client->tools()) {
            if (config.disabledTools.contains(tool.name))
                continue;
            available->append(config.name + u'/' + tool.name);
            const McpHub::ToolRef ref{config.name, tool.name};
            if ((tool.name == name || config.name + u'/' + tool.name == name) && !found.contains(ref))
                found.append(ref);
        }
    }
    return found;
}

// The failures of the servers that did not start, one sentence each.
QStringList failures(const McpHub &hub)
{
    QStringList reasons;
    for (const McpServerConfig &config : hub.servers()) {
        const McpClient *client = hub.client(config.name);
        if (!client || client->state() != McpClient::State::Ready)
            reasons.append(client ? client->failureReason()
                                  : McpCommand::tr("The MCP server “%1” did not start.").arg(config.name));
    }
    return reasons;
}

// Calls the tool and runs the event loop until it answers; the exit code of `mcp call`.
int callTool(McpHub &hub, const McpHub::ToolRef &ref, const QJsonObject &arguments)
{
    McpClient *client = hub.client(ref.server);
    std::optional<int> exitCode;
    const auto done = [&exitCode](const McpCallOutcome &outcome) {
        if (outcome.cancelled) {
            printError(McpCommand::tr("the call was cancelled"));
            exitCode = Cancelled;
        } else if (!outcome.failure.isEmpty()) {
            printError(outcome.failure);
            exitCode = ModelFailed;
        } else {
            QTextStream(stdout) << outcome.text << Qt::endl;
            if (outcome.isError)
                printError(McpCommand::tr("the tool reported an error"));
            exitCode = outcome.isError ? ModelFailed : Success;
        }
        QCoreApplication::exit(*exitCode);
    };
    const auto progress = [](const McpProgress &update) {
        printError(McpCommand::tr("progress: %1").arg(McpTool::progressText(update)));
    };
    const qint64 callId
        = client->callTool(ref.tool, arguments, client->config().effectiveRequestTimeoutMs(), progress, done);
    // The first Ctrl+C cancels the call (the server is told); a second one stops waiting for the
    // server's answer: the servers are ended (bounded) and the command returns as cancelled.
    InterruptWatcher interrupts;
    QObject::connect(&interrupts, &InterruptWatcher::interrupted, client,
                     [&hub, &exitCode, client, callId](int count) {
                         if (count > 1) {
                             hub.shutdown();
                             exitCode = Cancelled;
                             QCoreApplication::exit(Cancelled);
                             return;
                         }
                         client->cancelCall(callId, McpCommand::tr("cancelled by the user"));
                     });
    if (!exitCode)
        QCoreApplication::exec();
    return exitCode.value_or(ModelFailed);
}

int call(McpHub &hub, const QList<McpServerConfig> &servers, const QString &toolName,
         const QJsonObject &arguments)
{
    if (!startServers(hub, servers))
        return Cancelled;
    QStringList available;
    const QList<McpHub::ToolRef> found = candidates(hub, toolName, &available);
    if (found.size() > 1) {
        QStringList names;
        for (const McpHub::ToolRef &ref : found)
            names.append(ref.server + u'/' + ref.tool);
        printError(McpCommand::tr("more than one MCP server offers the tool \"%1\": %2; name one as "
                                  "server/tool")
                       .arg(toolName, names.join(u", "_s)));
        return BadUsage;
    }
    const QStringList failed = failures(hub);
    if (found.isEmpty()) {
        if (!failed.isEmpty()) {
            printError(
                McpCommand::tr("no ready MCP server offers the tool \"%1\", and some did not start: %2")
                    .arg(toolName, failed.join(u' ')));
            return ModelFailed;
        }
        printError(
            available.isEmpty()
                ? McpCommand::tr("no MCP server offers the tool \"%1\": they offer no tools").arg(toolName)
                : McpCommand::tr("no MCP server offers the tool \"%1\": the tools are %2")
                      .arg(toolName, available.join(u", "_s)));
        return BadUsage;
    }
    for (const QString &reason : failed)
        printError(McpCommand::tr("note: %1").arg(reason));
    return callTool(hub, found.constFirst(), arguments);
}

// Runs a keychain job to its end: \a start gets the callback to call with the outcome (an error
// sentence, empty on success), which may come at once or from the event loop.
QString waitFor(const std::function<void(McpSettings::DoneCallback)> &start)
{
    std::optional<QString> outcome;
    start([&outcome](const QString &error) {
        outcome = error;
        QCoreApplication::exit(0);
    });
    if (!outcome)
        QCoreApplication::exec();
    return outcome.value_or(QString());
}

// The keychain the window uses, with the key file for a server the user put there (--key-file).
struct SecretStores
{
    SecretStores() { keychain.setKeyFile(&keyFile); }
    FileSecretStore keyFile{FileSecretStore::defaultPath()};
    KeychainSecretStore keychain;
};

// What `mcp add` says it added: the command it will run, or the URL and the headers' names.
QString describeAdded(const McpServerConfig &server)
{
    QString text;
    if (server.transport == McpServerConfig::Transport::Stdio) {
        text = McpCommand::tr("Added the MCP server \"%1\", which runs: %2")
                   .arg(server.name, McpServerInstall::shellCommand(server));
    } else {
        text = McpCommand::tr("Added the MCP server \"%1\" at %2").arg(server.name, server.url.toString());
    }
    const QStringList secrets = server.secretHeaderNames() + server.secretEnvironmentNames();
    if (!secrets.isEmpty())
        text += u'\n'
                + (server.secretStorage == McpServerConfig::SecretStorage::File
                       ? McpCommand::tr("Kept in the key file, not in the settings: %1")
                       : McpCommand::tr("Kept in the keychain, not in the settings: %1"))
                      .arg(secrets.join(u", "_s));
    return text;
}

} // namespace

int McpCommand::add(const QCommandLineParser &parser, const QStringList &arguments)
{
    // What follows "--" is the server's command line, whatever it looks like.
    const QStringList positional = parser.positionalArguments();
    const qsizetype dashes = arguments.indexOf(u"--"_s, 2);
    const QStringList commandLine = dashes < 0 ? QStringList() : arguments.mid(dashes + 1);
    const QStringList before = positional.first(positional.size() - commandLine.size());
    const QString url = parser.value(u"url"_s);
    const QStringList headers = parser.values(u"header"_s);
    const QStringList environment = parser.values(u"env"_s);
    if (before.size() != 2) {
        printError(before.size() < 2
                       ? tr("add takes a name, then -- COMMAND ARGS… or --url URL (see --help)")
                       : tr("add takes one name; put the server's command after -- (see --help)"));
        return BadUsage;
    }
    if (url.isEmpty() == (dashes < 0)) {
        printError(url.isEmpty() ? tr("add needs -- COMMAND ARGS… or --url URL (see --help)")
                                 : tr("add takes either -- COMMAND ARGS… or --url URL, not both"));
        return BadUsage;
    }
    if (url.isEmpty() && !headers.isEmpty()) {
        printError(tr("--header is for a server reached over HTTP (--url)"));
        return BadUsage;
    }
    if (!url.isEmpty() && !environment.isEmpty()) {
        printError(tr("--env is for a server started as a command (-- COMMAND ARGS…)"));
        return BadUsage;
    }
    QString error;
    std::optional<McpServerConfig> server
        = url.isEmpty() ? McpServerInstall::command(before.at(1), commandLine, environment, &error)
                        : McpServerInstall::http(before.at(1), url, headers, &error);
    if (!server) {
        printError(error);
        return BadUsage;
    }
    if (parser.isSet(u"key-file"_s))
        server->secretStorage = McpServerConfig::SecretStorage::File;

    QSettings settings;
    McpSettings stored(&settings);
    if (const QString problem = stored.nameProblem(server->name); !problem.isEmpty()) {
        printError(problem);
        return BadUsage;
    }
    SecretStores secrets;
    QObject context;
    error = waitFor([&](McpSettings::DoneCallback done) {
        stored.add(*server, &secrets.keychain, &context, std::move(done));
    });
    if (!error.isEmpty()) {
        printError(error);
        if (server->secretStorage == McpServerConfig::SecretStorage::Keychain)
            printError(tr("nothing was added; without a keychain, add it with --key-file to keep its secrets "
                          "in a file only you can read"));
        return ModelFailed;
    }
    settings.sync();
    QTextStream(stdout) << describeAdded(*server) << Qt::endl;
    return Success;
}

int McpCommand::remove(const QCommandLineParser &parser)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2) {
        printError(tr("remove takes the name of one server (see --help)"));
        return BadUsage;
    }
    QSettings settings;
    McpSettings stored(&settings);
    SecretStores secrets;
    QObject context;
    QString error;
    bool removed = false;
    const QString secretsLeft = waitFor([&](McpSettings::DoneCallback done) {
        removed = stored.remove(positional.at(1), &secrets.keychain, &context, done, &error);
        if (!removed)
            done(error);
    });
    if (!removed) {
        printError(error);
        return BadUsage;
    }
    settings.sync();
    QTextStream(stdout) << tr("Removed the MCP server \"%1\".").arg(positional.at(1)) << Qt::endl;
    if (!secretsLeft.isEmpty()) {
        printError(secretsLeft);
        return ModelFailed;
    }
    return Success;
}

int McpCommand::exec(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("add NAME -- COMMAND [ARGS…]: save a server that runs as a command (over stdio).\n"
           "add NAME --url URL [--header 'Name: value']…: save a server reached over Streamable HTTP.\n"
           "  Both save it as Settings → MCP Servers does: on, asking before each tool call, secret\n"
           "  header values and variables (Authorization, …_TOKEN, …) in the keychain, never in the\n"
           "  settings file.\n"
           "remove NAME: forget a saved server and its secrets.\n"
           "list: connect to each MCP server, print its state and tools, and end it again.\n"
           "call TOOL [ARGUMENTS]: connect to the servers, call the one tool of that name (its MCP\n"
           "name, the name the model sees, or server/tool) with a JSON object of arguments (default\n"
           "{}), print the result on stdout and progress on stderr, and end the servers again. A form\n"
           "the server asks for (elicitation) is accepted with the fields' default values under\n"
           "--approve all, else declined. A model call it asks for (sampling) runs as asked on the\n"
           "provider and model of --provider, --model, --base-url and --api-key-env (as for run)\n"
           "under --approve all, else it is declined. Ctrl+C cancels the call.\n\n"
           "Exit codes:\n"
           "  0    add, remove: done; list: every server is ready; call: the tool answered\n"
           "  1    add, remove: the keychain refused a secret; list: one or more failed; call: the\n"
           "       tool reported an error (its text on stdout), or the call or a server failed\n"
           "  2    bad usage: unknown option, invalid JSON, an unknown or ambiguous tool, a name\n"
           "       already taken or not found\n"
           "  130  cancelled by SIGINT (Ctrl+C) or SIGTERM"));
    CommandLineSyntax syntax(parser, u"mcp"_s);
    const McpServerOptions mcpOptions(false);
    mcpOptions.addTo(parser);
    const QCommandLineOption approve(u"approve"_s,
                                     tr("call: forms the server asks for are accepted with their default "
                                        "values and model calls it asks for run (all), or both are declined "
                                        "(none). Default: none."),
                                     u"all|none"_s, u"none"_s);
    parser.addOption(approve);
    // call: the provider a server's model calls (sampling) run on, under --approve all.
    const Launch::ProviderOptions providerOptions;
    providerOptions.addTo(parser);
    const LimitOptions limitOptions(false);
    limitOptions.addTo(parser);
    parser.addOption({u"url"_s, tr("add: the server's Streamable HTTP endpoint."), u"url"_s});
    parser.addOption(
        {u"header"_s, tr("add: an HTTP header sent with every request; repeatable."), u"'Name: value'"_s});
    parser.addOption(
        {u"env"_s, tr("add: an environment variable for the command; repeatable."), u"KEY=VALUE"_s});
    parser.addOption({u"key-file"_s, tr("add: keep the server's secrets in the key file only you can read "
                                        "instead of the keychain (for a desktop without one).")});
    parser.addPositionalArgument(u"command"_s, tr("What to do: add, remove, list or call."),
                                 u"add|remove|list|call"_s);
    parser.addPositionalArgument(u"tool"_s, tr("call: the tool to call."), u"[TOOL"_s);
    parser.addPositionalArgument(u"arguments"_s, tr("call: its arguments as a JSON object (default {})."),
                                 u"[ARGUMENTS_JSON]]"_s);

    QTextStream out(stdout);
    QString error;
    switch (syntax.parse(arguments, out, &error)) {
    case CommandLineSyntax::Outcome::Failed: printError(error); return BadUsage;
    case CommandLineSyntax::Outcome::HelpShown: return Success;
    case CommandLineSyntax::Outcome::Parsed: break;
    }
    const QStringList positional = parser.positionalArguments();
    const QString command = positional.value(0);
    const bool edits = command == u"add" || command == u"remove";
    for (const QString &option : {u"url"_s, u"header"_s, u"env"_s, u"key-file"_s}) {
        if (parser.isSet(option) && command != u"add") {
            printError(tr("--%1 is for add (see --help)").arg(option));
            return BadUsage;
        }
    }
    for (const QString &option : {u"mcp-config"_s, u"mcp-url"_s, u"mcp-server"_s, u"approve"_s}) {
        if (parser.isSet(option) && edits) {
            printError(tr("--%1 is for list and call; %2 changes the saved servers").arg(option, command));
            return BadUsage;
        }
    }
    if (command == u"add")
        return add(parser, arguments);
    if (command == u"remove")
        return remove(parser);
    if (command == u"list" && positional.size() != 1) {
        printError(tr("list takes no arguments (see --help)"));
        return BadUsage;
    }
    if (command == u"call" && (positional.size() < 2 || positional.size() > 3)) {
        printError(tr("call takes a tool and, optionally, its arguments as JSON (see --help)"));
        return BadUsage;
    }
    if (command != u"list" && command != u"call") {
        printError(tr("the commands are add, remove, list and call (see --help)"));
        return BadUsage;
    }
    const QString approval = parser.value(approve);
    if (approval != u"all" && approval != u"none") {
        printError(tr("--approve takes all or none"));
        return BadUsage;
    }
    if (providerOptions.isAnySet(parser) && command != u"call") {
        printError(tr("the provider options are for call (the model calls a server asks for)"));
        return BadUsage;
    }
    // The provider of the model calls a server may ask for: only under --approve all, and only when named.
    std::optional<SessionSetup::Provider> samplingProvider;
    if (command == u"call" && approval == u"all" && providerOptions.isAnySet(parser)) {
        const std::optional<ProviderProfile> profile = providerOptions.profile(parser, &error);
        if (!profile) {
            printError(error);
            return BadUsage;
        }
        const ApiKeyResolver::Result key = ApiKeyResolver::fromEnvironment(*profile);
        if (key.status == ApiKeyResolver::Result::Status::EnvironmentUnset) {
            printError(tr("no API key: set the environment variable %1, or name another with --api-key-env")
                           .arg(profile->apiKeyEnv));
            return BadUsage;
        }
        samplingProvider = SessionSetup::Provider{*profile, key.key, {}, 600'000};
    }
    QJsonObject toolArguments;
    if (command == u"call" && positional.size() == 3) {
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(positional.at(2).toUtf8(), &parseError);
        if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
            printError(parseError.error != QJsonParseError::NoError
                           ? tr("the arguments are not valid JSON: %1 (at character %2)")
                                 .arg(parseError.errorString())
                                 .arg(parseError.offset)
                           : tr("the arguments must be a JSON object, like {\"a\": 1}"));
            return BadUsage;
        }
        toolArguments = document.object();
    }

    QStringList notes;
    const std::optional<ResponseLimits> limits = limitOptions.limits(parser, &error);
    if (!limits) {
        printError(error);
        return BadUsage;
    }
    std::optional<QList<McpServerConfig>> servers = mcpOptions.servers(parser, &notes, &error);
    for (const QString &note : std::as_const(notes))
        printError(tr("note: %1").arg(note));
    if (!servers) {
        printError(error);
        return BadUsage;
    }
    if (servers->isEmpty()) {
        if (command == u"call") {
            printError(tr("no MCP server is configured (use --mcp-config or --mcp-url)"));
            return BadUsage;
        }
        out << tr("No MCP server is configured.") << Qt::endl;
        return Success;
    }

    for (McpServerConfig &server : *servers)
        server.maxResponseBytes = limits->maxResponseBytes;
    QNetworkAccessManager network;
    McpHub hub(&network);
    // A server that asks for OAuth: the sign-in opens with $BROWSER (or the URL is printed), and its
    // tokens are kept in the keychain, as the app keeps them (without one: for this run only).
    const UrlOpener browser;
    KeychainSecretStore keychain;
    hub.setAuthorizationServices(&browser, &keychain);
    const bool approveAll = approval == u"all";
    hub.setElicitationHandler([approveAll](const McpElicitation &request, McpClient::ElicitationReply reply) {
        const McpElicitationAnswer answer = McpServerOptions::answerWithoutUser(request, approveAll);
        printError(answer.action == McpElicitationAnswer::Action::Accept
                       ? tr("the MCP server \"%1\" asked \"%2\": accepted with the defaults")
                             .arg(request.serverName, request.message)
                       : tr("the MCP server \"%1\" asked \"%2\": declined")
                             .arg(request.serverName, request.message));
        reply(answer);
    });
    ProviderBinding binding(&network);
    if (samplingProvider)
        (void)binding.bind(samplingProvider);
    QObject samplingCalls; // before the hub ends its servers, every model call still running is cancelled
    hub.setSamplingHandler([&](const McpSamplingRequest &request, McpClient::SamplingReply reply) {
        if (!samplingProvider) {
            printError(approveAll ? tr("the MCP server \"%1\" asked for a model call: declined (name the "
                                       "provider with --provider and --model)")
                                        .arg(request.serverName)
                                  : tr("the MCP server \"%1\" asked for a model call: declined (it needs "
                                       "--approve all)")
                                        .arg(request.serverName));
            reply({});
            return;
        }
        ModelOptions options = binding.configFor(AgentConfig()).model;
        options.stream = false; // nobody watches it arrive: the answer goes to the server whole
        printError(tr("the MCP server \"%1\" asked for a model call: running it on %2")
                       .arg(request.serverName, options.model));
        auto *run = new McpSamplingCall(binding.createModelClient(), nullptr, -1, binding.priceLookup(),
                                        std::move(reply), &samplingCalls);
        QObject::connect(run, &McpSamplingCall::finished, run, &QObject::deleteLater);
        run->start(request, options);
    });
    int exitCode = Success;
    if (command == u"call") {
        exitCode = call(hub, *servers, positional.at(1), toolArguments);
    } else if (!startServers(hub, *servers)) {
        exitCode = Cancelled;
    } else {
        exitCode = report(hub, out) ? Success : ModelFailed;
    }
    qDeleteAll(samplingCalls.children());
    // Every MCP server process has ended when this returns.
    hub.shutdown();
    return exitCode;
}

} // namespace Loopscope::Cli
