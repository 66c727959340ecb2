#include "app/cli/runcommand.h"

#include "app/cli/commandlinesyntax.h"
#include "app/cli/headlesssetup.h"

#include "agent/config/apikeyresolver.h"
#include "agent/config/providerprofile.h"
#include "agent/config/secretstore.h"
#include "agent/conversation/attachmentloader.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/urlopener.h"
#include "agent/session/chatsession.h"
#include "agent/tools/builtin/builtintools.h"
#include "agent/trace/trace.h"
#include "agent/transcript/atomicfile.h"
#include "agent/transcript/transcript.h"
#include "app/cli/contextoptions.h"
#include "app/cli/interruptwatcher.h"
#include "app/cli/jsonlineswriter.h"
#include "app/cli/knowledgecommand.h"
#include "app/cli/limitoptions.h"
#include "app/cli/mcpserveroptions.h"
#include "app/cli/terminaltext.h"
#include "app/launch/provideroptions.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QSettings>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

namespace {

struct RunOptions
{
    HeadlessSetup setup; // the key is filled in once the options are checked
    QString eventsPath;
    QString traceOutPath;
    QString sessionPath;
    QString prompt;
    QList<Attachment> attachments;
    ChatSession::ImageCheck imageCheck = ChatSession::ImageCheck::RefuseForTextOnlyModels;
};

void printError(const QString &message)
{
    QTextStream(stderr) << "loopscope run: " << visibleControls(message) << Qt::endl;
}

QString exitCodeHelp()
{
    return RunCommand::tr("MCP servers: their tools join the built-in ones. They run only with an explicit\n"
                          "--approve all, which also accepts their forms (elicitations) with the fields'\n"
                          "default values, or declines a form whose required fields have none, and runs\n"
                          "the model calls they ask for (sampling) on this run's provider and model;\n"
                          "otherwise their calls are denied (the model is told), every form and model\n"
                          "call declined. The servers end with the run.\n\n"
                          "Exit codes:\n"
                          "  0    the agent answered (or handed off to another agent), also when the\n"
                          "       iteration limit forced the last answer without tools (outcome\n"
                          "       forced_final in the finished event; a note on stderr says so)\n"
                          "  1    the provider could not be reached or answered with an error\n"
                          "  2    bad usage: unknown option or value, missing API key, unwritable file,\n"
                          "       a file --attach cannot send, an image for a model known to read text only\n"
                          "  3    limit reached: no answer within the iteration limit, too many tool\n"
                          "       errors in a row, the token budget was used up, or the time limit ran out\n"
                          "  4    a safety shield blocked the input or the answer\n"
                          "  130  cancelled by SIGINT (Ctrl+C), SIGTERM or SIGHUP; the turn ends cleanly\n");
}

// --agents and --agent into \a setup: false with *error when the file is bad, names no such agent, or
// names a tool this run cannot have (not built in, and no MCP server to offer it) or an MCP server this run
// does not start.
bool readAgents(const QCommandLineParser &parser, const QCommandLineOption &agentsFile,
                const QCommandLineOption &agentName, const QCommandLineOption &system, HeadlessSetup &setup,
                QString *error)
{
    if (!parser.isSet(agentsFile)) {
        if (parser.isSet(agentName))
            *error = RunCommand::tr("--agent needs --agents, the file that describes it");
        return !parser.isSet(agentName);
    }
    if (parser.isSet(system)) {
        *error = RunCommand::tr("give either --system or --agents (the agent's instructions), not both");
        return false;
    }
    std::optional<AgentRoster> roster = AgentRoster::load(parser.value(agentsFile), error);
    if (!roster)
        return false;
    const std::optional<AgentPreset> agent = roster->pick(parser.value(agentName), error);
    if (!agent)
        return false;
    QStringList servers;
    for (const McpServerConfig &server : std::as_const(setup.mcpServers)) {
        if (server.enabled)
            servers.append(server.name);
    }
    for (const AgentPreset &preset : std::as_const(roster->agents)) {
        // "mcp:SERVER" offers every tool of a server: one this run does not start is a mistake in the file
        // or on the command line, said before any request.
        for (const QString &server : preset.mcpServers()) {
            if (!servers.contains(server)) {
                *error
                    = servers.isEmpty()
                          ? RunCommand::tr("agent \"%1\" has every tool of the MCP server \"%2\", and this "
                                           "run has no MCP server (none saved, --mcp-config or --mcp-url)")
                                .arg(preset.name, server)
                          : RunCommand::tr("agent \"%1\" has every tool of the MCP server \"%2\", which is "
                                           "not one of this run's MCP servers (%3)")
                                .arg(preset.name, server, servers.join(u", "_s));
                return false;
            }
        }
        for (const QString &tool : preset.tools.value_or(QStringList())) {
            if (!builtinToolNames().contains(tool) && setup.mcpServers.isEmpty()) {
                *error = RunCommand::tr("agent \"%1\" has the tool \"%2\", which is not built in (%3) and "
                                        "no MCP server was given to offer it")
                             .arg(preset.name, tool, builtinToolNames().join(u", "_s));
                return false;
            }
        }
    }
    if (!setup.attachAgentProviders(*roster, error) || !setup.attachAgentKnowledge(*roster, error))
        return false;
    setup.agents = *std::move(roster);
    setup.agent = agent->name;
    return true;
}

// Returns the options, or an exit code when the program should stop now.
std::variant<RunOptions, int> parseOptions(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        RunCommand::tr("Run one turn of the agent and print its answer on stdout.\n"
                       "The API key is read from an environment variable, never from the command line.\n\n")
        + exitCodeHelp());
    CommandLineSyntax syntax(parser, u"run"_s);
    const Launch::ProviderOptions providerOptions;
    const QCommandLineOption system(u"system"_s, RunCommand::tr("A system instruction."), u"text"_s);
    const QCommandLineOption agentsFile(
        u"agents"_s,
        RunCommand::tr("An agents file (JSON, see the README): the turn runs as one of its agents, with its "
                       "instructions, model, tools and options. A bad file is bad usage."),
        u"file"_s);
    const QCommandLineOption agentName(
        u"agent"_s, RunCommand::tr("The agent of --agents to run as (default: the file's first)."),
        u"name"_s);
    const QCommandLineOption shieldModel(
        u"shield-model"_s,
        RunCommand::tr("A model shield: ask this model (e.g. llama-guard3) of the run's provider, or of "
                       "--shield-provider's profile, whether the "
                       "prompt and the answer are safe, with the Llama Guard 3 categories; unsafe or unclear "
                       "blocks (exit 4). An agent with its own \"shields\" uses those instead."),
        u"model"_s);
    const QCommandLineOption shieldProvider(
        u"shield-provider"_s,
        RunCommand::tr("The saved provider profile the model shield asks (e.g. a local Ollama with "
                       "llama-guard3), with its key as the profile says; its model unless --shield-model "
                       "names one. Default: the run's provider."),
        u"profile"_s);
    const QCommandLineOption maxIterations(
        u"max-iterations"_s, RunCommand::tr("The most model calls in the tool loop (default 10)."), u"n"_s,
        u"10"_s);
    const QCommandLineOption postLoop(u"post-loop"_s,
                                      RunCommand::tr("When the loop ends on tool results: reflect (one more "
                                                     "model call without tools) or summary (a line per tool "
                                                     "call, no model call). Default: reflect."),
                                      u"mode"_s, u"reflect"_s);
    const QCommandLineOption onHandoff(
        u"on-handoff"_s,
        RunCommand::tr("What an agent's transfer_to_NAME does: continue (the same turn goes on as that "
                       "agent) or end (the turn ends, handed off). Default: continue; an agent's "
                       "on_handoff wins."),
        u"mode"_s, u"continue"_s);
    const QCommandLineOption handoffHistory(
        u"handoff-history"_s,
        RunCommand::tr("What the agent handed to sees: all (the whole conversation) or text (without "
                       "the tool calls of the agent that handed off). Default: all."),
        u"what"_s, u"all"_s);
    const QCommandLineOption maxHandoffs(
        u"max-handoffs"_s,
        RunCommand::tr("The most handoffs that continue one turn; the next one ends it (default 5)."), u"n"_s,
        u"5"_s);
    const QCommandLineOption noStream(u"no-stream"_s,
                                      RunCommand::tr("Ask for whole responses, not streams."));
    const QCommandLineOption tools(
        u"tools"_s,
        RunCommand::tr("Comma-separated built-in tools (%1), or all. Default: none.")
            .arg(builtinToolNames().join(u", "_s)),
        u"list"_s);
    const QCommandLineOption workspace(u"workspace"_s,
                                       RunCommand::tr("The folder file tools may read (default: the current "
                                                      "folder)."),
                                       u"dir"_s);
    const QCommandLineOption approve(u"approve"_s,
                                     RunCommand::tr("Tool calls: all runs them, none denies every one (the "
                                                    "model is told). Default: the read-only built-in tools "
                                                    "run; write_file, edit_file, run_command, fetch_url and "
                                                    "MCP tools only with an explicit all (or "
                                                    "--approve-tools)."),
                                     u"all|none"_s, u"all"_s);
    const QCommandLineOption approveTools(
        u"approve-tools"_s,
        RunCommand::tr("Comma-separated built-in tools that may run; every other tool call is denied (the "
                       "model is told why). Instead of --approve."),
        u"list"_s);
    const QCommandLineOption fetchPrivate(
        u"fetch-private"_s,
        RunCommand::tr("Let fetch_url reach loopback and private network addresses (refused by default)."));
    const QCommandLineOption knowledge(
        u"knowledge"_s,
        RunCommand::tr(
            "A knowledge base (see loopscope knowledge) the model may search with knowledge_search, "
            "which only reads and always runs. Repeatable. An unknown base is bad usage."),
        u"name"_s);
    const QCommandLineOption retrieve(
        u"retrieve"_s,
        RunCommand::tr(
            "How the --knowledge bases are used: tool (the model searches them with "
            "knowledge_search when it wants to) or auto (the question is also searched before the "
            "first iteration and the best passages go into the request as context; "
            "knowledge_search stays offered; with --agents, the bases of the agent the turn starts "
            "as are searched)."),
        u"tool|auto"_s, u"tool"_s);
    const QCommandLineOption events(
        u"events"_s,
        RunCommand::tr("Write the live event stream as JSON Lines to a file, or to "
                       "stdout with -. With -, the answer is not printed again: it "
                       "is in the \"finished\" event."),
        u"file|-"_s);
    const QCommandLineOption traceOut(
        u"trace-out"_s, RunCommand::tr("Write the whole trace tree as JSON to a file."), u"file"_s);
    const QCommandLineOption session(
        u"session"_s,
        RunCommand::tr("Continue the saved session in this file (*.loopscope.json), "
                       "creating it if missing, and save it back after the turn."),
        u"file"_s);
    const QCommandLineOption attach(
        u"attach"_s,
        RunCommand::tr("Send a file with the prompt (repeatable): an image (PNG, JPEG, WebP, GIF) as an "
                       "image, a text, Markdown, code, JSON or CSV file or a PDF's text as text. A file "
                       "that cannot be sent is bad usage."),
        u"file"_s);
    const QCommandLineOption sendImagesAnyway(
        u"send-images-anyway"_s,
        RunCommand::tr("Send attached images even to a model known to read text only (refused by "
                       "default, before any request)."));
    providerOptions.addTo(parser);
    const McpServerOptions mcpOptions(true);
    mcpOptions.addTo(parser);
    const LimitOptions limitOptions(true);
    limitOptions.addTo(parser);
    const ContextOptions contextOptions;
    contextOptions.addTo(parser);
    parser.addOptions({system,         agentsFile,  agentName,     shieldModel,  shieldProvider,  onHandoff,
                       handoffHistory, maxHandoffs, maxIterations, postLoop,     noStream,        tools,
                       workspace,      approve,     approveTools,  fetchPrivate, knowledge,       retrieve,
                       events,         traceOut,    session,       attach,       sendImagesAnyway});
    parser.addPositionalArgument(u"prompt"_s, RunCommand::tr("What to ask the agent."), u"\"prompt\""_s);

    QTextStream out(stdout);
    QString usageError;
    switch (syntax.parse(arguments, out, &usageError)) {
    case CommandLineSyntax::Outcome::Failed: printError(usageError); return BadUsage;
    case CommandLineSyntax::Outcome::HelpShown: return Success;
    case CommandLineSyntax::Outcome::Parsed: break;
    }

    RunOptions options;
    QString error;
    const std::optional<ProviderProfile> profile = providerOptions.profile(parser, &error);
    if (!profile) {
        printError(error);
        return BadUsage;
    }
    options.setup.profile = *profile;
    const std::optional<ResponseLimits> limits = limitOptions.limits(parser, &error);
    if (!limits) {
        printError(error);
        return BadUsage;
    }
    options.setup.limits = *limits;
    const std::optional<int> maxToolCalls = limitOptions.maxToolCalls(parser, &error);
    if (!maxToolCalls) {
        printError(error);
        return BadUsage;
    }
    options.setup.config.maxToolCallsPerResponse = *maxToolCalls;
    const std::optional<int> timeLimit = limitOptions.turnTimeLimitMs(parser, &error);
    if (!timeLimit) {
        printError(error);
        return BadUsage;
    }
    options.setup.config.turnTimeLimitMs = *timeLimit;
    if (!contextOptions.applyTo(parser, options.setup.config, &error)) {
        printError(error);
        return BadUsage;
    }

    bool ok = false;
    options.setup.config.maxIterations = parser.value(maxIterations).toInt(&ok);
    if (!ok || options.setup.config.maxIterations < 1 || options.setup.config.maxIterations > 1000) {
        printError(RunCommand::tr("--max-iterations takes a number from 1 to 1000"));
        return BadUsage;
    }
    const auto mode = postLoopModeFromName(parser.value(postLoop));
    if (!mode || *mode == PostLoopMode::None) {
        printError(RunCommand::tr("--post-loop takes reflect or summary"));
        return BadUsage;
    }
    options.setup.config.postLoop = *mode;
    const auto handoff = handoffModeFromName(parser.value(onHandoff));
    if (!handoff) {
        printError(RunCommand::tr("--on-handoff takes continue or end"));
        return BadUsage;
    }
    options.setup.config.handoff = *handoff;
    const auto seen = handoffHistoryFromName(parser.value(handoffHistory));
    if (!seen) {
        printError(RunCommand::tr("--handoff-history takes all or text"));
        return BadUsage;
    }
    options.setup.config.handoffHistory = *seen;
    options.setup.config.maxHandoffs = parser.value(maxHandoffs).toInt(&ok);
    if (!ok || options.setup.config.maxHandoffs < 0 || options.setup.config.maxHandoffs > 100) {
        printError(RunCommand::tr("--max-handoffs takes a number from 0 to 100"));
        return BadUsage;
    }
    options.setup.config.systemPrompt = parser.value(system);
    if (parser.isSet(shieldModel) || parser.isSet(shieldProvider)) {
        if (parser.isSet(shieldModel) && parser.value(shieldModel).trimmed().isEmpty()) {
            printError(RunCommand::tr("--shield-model needs a model name"));
            return BadUsage;
        }
        if (parser.isSet(shieldProvider) && parser.value(shieldProvider).trimmed().isEmpty()) {
            printError(RunCommand::tr("--shield-provider needs the name of a saved provider profile"));
            return BadUsage;
        }
        ModelShield guard;
        guard.model = parser.value(shieldModel).trimmed();
        guard.provider = parser.value(shieldProvider).trimmed();
        options.setup.config.shields.model = guard;
    }
    // The model and its parameters come from the profile.
    options.setup.config.model.stream = !parser.isSet(noStream);

    if (parser.isSet(tools)) {
        const QString list = parser.value(tools).trimmed();
        options.setup.tools = list == u"all" ? builtinToolNames() : list.split(u',', Qt::SkipEmptyParts);
        for (QString &name : options.setup.tools) {
            name = name.trimmed();
            if (!builtinToolNames().contains(name)) {
                printError(RunCommand::tr("unknown tool \"%1\": the built-in tools are %2")
                               .arg(name, builtinToolNames().join(u", "_s)));
                return BadUsage;
            }
        }
    }
    options.setup.workspace = parser.isSet(workspace) ? parser.value(workspace) : QDir::currentPath();
    if (!QFileInfo(options.setup.workspace).isDir()) {
        printError(RunCommand::tr("the workspace \"%1\" is not a folder").arg(options.setup.workspace));
        return BadUsage;
    }
    const QString approval = parser.value(approve);
    if (approval != u"all" && approval != u"none") {
        printError(RunCommand::tr("--approve takes all or none"));
        return BadUsage;
    }
    options.setup.approveAll = approval == u"all";
    options.setup.approveMcp = parser.isSet(approve) && options.setup.approveAll;
    if (parser.isSet(approveTools)) {
        if (parser.isSet(approve)) {
            printError(RunCommand::tr("give either --approve or --approve-tools, not both"));
            return BadUsage;
        }
        QStringList approved;
        for (const QString &part : parser.value(approveTools).split(u',', Qt::SkipEmptyParts)) {
            const QString name = part.trimmed();
            if (!builtinToolNames().contains(name)) {
                printError(RunCommand::tr("--approve-tools: unknown tool \"%1\": the built-in tools are %2")
                               .arg(name, builtinToolNames().join(u", "_s)));
                return BadUsage;
            }
            approved.append(name);
        }
        options.setup.approvedTools = approved;
        options.setup.approveAll = false;
    }
    options.setup.fetchPrivate = parser.isSet(fetchPrivate);
    for (const QString &name : parser.values(knowledge)) {
        const bool attached
            = std::any_of(options.setup.knowledge.cbegin(), options.setup.knowledge.cend(),
                          [&name](const AttachedKnowledgeBase &base) { return base.name == name; });
        if (attached)
            continue;
        const std::optional<AttachedKnowledgeBase> base = KnowledgeCommand::attach(name, &error);
        if (!base) {
            printError(error);
            return BadUsage;
        }
        options.setup.knowledge.append(*base);
    }
    const QString retrieval = parser.value(retrieve);
    if (retrieval != u"tool" && retrieval != u"auto") {
        printError(RunCommand::tr("--retrieve takes tool or auto"));
        return BadUsage;
    }
    options.setup.retrieveBeforeTurn = retrieval == u"auto";
    options.eventsPath = parser.value(events);
    options.traceOutPath = parser.value(traceOut);
    options.sessionPath = parser.value(session);

    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1 || positional.constFirst().trimmed().isEmpty()) {
        printError(RunCommand::tr("give exactly one prompt, in quotes (see --help)"));
        return BadUsage;
    }
    options.prompt = positional.constFirst();
    // Read before anything starts: a file that cannot be sent stops the run before any request.
    for (const QString &path : parser.values(attach)) {
        const AttachmentLoad load = AttachmentLoader::load(path);
        if (!load.ok()) {
            printError(load.error);
            return BadUsage;
        }
        options.attachments.append(*load.attachment);
    }
    if (parser.isSet(sendImagesAnyway))
        options.imageCheck = ChatSession::ImageCheck::SendAnyway;

    QStringList notes;
    const std::optional<QList<McpServerConfig>> servers = mcpOptions.servers(parser, &notes, &error);
    for (const QString &note : std::as_const(notes))
        printError(RunCommand::tr("note: %1").arg(note));
    if (!servers) {
        printError(error);
        return BadUsage;
    }
    options.setup.mcpServers = *servers;
    if (!readAgents(parser, agentsFile, agentName, system, options.setup, &error)) {
        printError(error);
        return BadUsage;
    }
    // Like an agent's own profile: a shield profile that is not saved, or has no key, stops the run here.
    if (parser.isSet(shieldProvider)
        && !options.setup.attachSavedProfile(options.setup.config.shields.model->provider,
                                             RunCommand::tr("the model shield (--shield-provider)"),
                                             &error)) {
        printError(error);
        return BadUsage;
    }
    // The bases of the agent the turn starts as are searched (SessionSetup::knowledgeOf); an agent whose
    // "knowledge" is [] searches none, which is its choice, not a usage error.
    if (options.setup.retrieveBeforeTurn && options.setup.knowledge.isEmpty()
        && options.setup.agentKnowledge.isEmpty()) {
        printError(RunCommand::tr(
            "--retrieve auto needs a knowledge base to search (--knowledge, or the agent's \"knowledge\")"));
        return BadUsage;
    }
    return options;
}

int exitCodeFor(TurnOutcome outcome)
{
    switch (outcome) {
    case TurnOutcome::Answered:
    case TurnOutcome::Reflected:
    case TurnOutcome::Summarised:
    case TurnOutcome::ForcedFinal: // an answer all the same; stderr and the events say how it came
    case TurnOutcome::HandedOff: return Success;
    case TurnOutcome::Failed: return ModelFailed;
    case TurnOutcome::Fallback:
    case TurnOutcome::ErrorLimit:
    case TurnOutcome::TokenBudget:
    case TurnOutcome::TimeLimit: return LimitReached;
    case TurnOutcome::Blocked: return Blocked;
    case TurnOutcome::Cancelled: return Cancelled;
    }
    return ModelFailed;
}

bool writeTrace(const Trace &trace, const QString &path, QString *error)
{
    return writeFileAtomically(path, QJsonDocument(trace.toJson()).toJson(QJsonDocument::Indented), error);
}

// The conversation this run continues (from --session, if the file exists),
// with this run's provider, loop options, tools and approvals. False after
// saying why the session file cannot be continued.
bool prepareSession(ChatSession &session, const RunOptions &options)
{
    if (!options.sessionPath.isEmpty() && QFileInfo::exists(options.sessionPath)) {
        TranscriptLoadResult loaded = TranscriptFile::load(options.sessionPath);
        if (!loaded.transcript) {
            printError(RunCommand::tr("cannot continue the session \"%1\": %2")
                           .arg(options.sessionPath, loaded.error));
            return false;
        }
        session.restore(*loaded.transcript, std::move(*loaded.trace));
    }
    options.setup.applyTo(session);
    return true;
}

// What a finished turn leaves behind (the trace and session files, the answer
// on stdout, the error on stderr), and the exit code that reports it. A file
// that cannot be written turns success into bad usage, never hides a failure.
// An events stream that stopped on a write error (said on stderr when it stopped) counts the same.
int finishTurn(const TurnResult &result, const ChatSession &session, const RunOptions &options,
               const JsonLinesWriter &eventLog)
{
    int exitCode = exitCodeFor(result.outcome);
    if (!eventLog.writeError().isEmpty())
        exitCode = exitCode == Success ? BadUsage : exitCode;
    if (!options.traceOutPath.isEmpty()) {
        QString error;
        if (!writeTrace(*session.trace(), options.traceOutPath, &error)) {
            printError(
                RunCommand::tr("cannot write the trace to \"%1\": %2").arg(options.traceOutPath, error));
            exitCode = exitCode == Success ? BadUsage : exitCode;
        }
    }
    if (!options.sessionPath.isEmpty()) {
        QString error;
        if (!TranscriptFile::save(session.toTranscript(), options.sessionPath, &error)) {
            printError(
                RunCommand::tr("cannot save the session to \"%1\": %2").arg(options.sessionPath, error));
            exitCode = exitCode == Success ? BadUsage : exitCode;
        }
    }
    if (!result.text.isEmpty() && options.eventsPath != u"-")
        QTextStream(stdout) << result.text << Qt::endl;
    if (!result.error.isEmpty())
        printError(result.error);
    if (result.outcome == TurnOutcome::ForcedFinal)
        printError(
            RunCommand::tr("reached the limit of %1 iterations: the last answer was forced without tools")
                .arg(result.iterations));
    return exitCode;
}

} // namespace

int RunCommand::exec(const QStringList &arguments)
{
    auto parsed = parseOptions(arguments);
    if (const int *code = std::get_if<int>(&parsed))
        return *code;
    RunOptions options = std::get<RunOptions>(std::move(parsed));

    // The environment only: a terminal or a script has no keyring to unlock.
    const ApiKeyResolver::Result key = ApiKeyResolver::fromEnvironment(options.setup.profile);
    if (key.status == ApiKeyResolver::Result::Status::EnvironmentUnset) {
        printError(tr("no API key: set the environment variable %1, or name another with --api-key-env")
                       .arg(options.setup.profile.apiKeyEnv));
        return BadUsage;
    }
    options.setup.apiKey = key.key;

    JsonLinesWriter eventLog;
    if (!options.eventsPath.isEmpty() && !eventLog.open(options.eventsPath)) {
        printError(
            tr("cannot write the events to \"%1\": %2").arg(options.eventsPath, eventLog.errorString()));
        return BadUsage;
    }

    // Before the session: signals are still caught while it ends the turn's commands.
    InterruptWatcher interrupts;
    QNetworkAccessManager network;
    // MCP servers that ask for OAuth sign in with $BROWSER (or print the URL) and keep their tokens in
    // the keychain, as in the app (without one: for this run only).
    const UrlOpener browser;
    KeychainSecretStore keychain;
    ChatSession session(&network);
    session.mcp()->setAuthorizationServices(&browser, &keychain);
    if (!prepareSession(session, options))
        return BadUsage;

    Agent *agent = session.agent();
    QObject::connect(agent, &Agent::event, &session, [&eventLog, &options](const AgentEvent &event) {
        // The first failed write closes the stream: the cause is said once, the turn goes on.
        if (eventLog.isOpen() && !eventLog.write(event.toJson())) {
            printError(tr("cannot write the events to \"%1\": %2; the rest of the stream is lost")
                           .arg(options.eventsPath, eventLog.writeError()));
        }
        if (event.kind == AgentEvent::Kind::Retry)
            QTextStream(stderr) << visibleControls(event.text) << Qt::endl;
    });
    QObject::connect(agent, &Agent::turnFinished, &session,
                     [&session, &options, &eventLog](const TurnResult &result) {
                         const int exitCode = finishTurn(result, session, options, eventLog);
                         // A cancelled MCP call's notification leaves before the servers are ended.
                         session.mcp()->whenSent(&session, [exitCode] { QCoreApplication::exit(exitCode); });
                     });

    QObject::connect(&session, &ChatSession::notice, &session, [](const QString &text) { printError(text); });
    QObject::connect(&session, &ChatSession::elicitationRequested, &session,
                     [&session, &options](int id, const McpElicitation &request) {
                         const McpElicitationAnswer answer
                             = McpServerOptions::answerWithoutUser(request, options.setup.approveMcp);
                         printError(answer.action == McpElicitationAnswer::Action::Accept
                                        ? tr("the MCP server \"%1\" asked \"%2\": accepted with the defaults")
                                              .arg(request.serverName, request.message)
                                        : tr("the MCP server \"%1\" asked \"%2\": declined")
                                              .arg(request.serverName, request.message));
                         session.answerElicitation(id, answer);
                     });
    // A server's request for a model call runs as asked, on the run's provider, only with --approve all.
    QObject::connect(&session, &ChatSession::samplingRequested, &session,
                     [&session, &options](int id, const McpSamplingRequest &request) {
                         const bool allowed = options.setup.approveMcp;
                         printError(allowed
                                        ? tr("the MCP server \"%1\" asked for a model call: running it on %2")
                                              .arg(request.serverName, session.samplingModel())
                                        : tr("the MCP server \"%1\" asked for a model call: declined (it "
                                             "needs --approve all)")
                                              .arg(request.serverName));
                         session.answerSampling(id, {allowed, request, {}});
                     });

    // The first Ctrl+C (or SIGTERM, SIGHUP) cancels the turn cleanly; a second one hurries the
    // end (the watcher skips the grace before SIGKILL) but never leaves a command running.
    QObject::connect(&interrupts, &InterruptWatcher::interrupted, &session, [&session] { session.stop(); });

    // Queued: a turn can end at once (a blocked input), and exit() before exec() is lost.
    // A refused send (an image for a model known to read text only) has said why in a notice.
    QMetaObject::invokeMethod(
        &session,
        [&session, &options] {
            if (session.send(options.prompt, options.attachments, options.imageCheck))
                return;
            if (!session.imageRefusal(options.attachments).isEmpty())
                printError(tr("To send the image all the same, add --send-images-anyway."));
            QCoreApplication::exit(BadUsage);
        },
        Qt::QueuedConnection);
    const int exitCode = QCoreApplication::exec();
    // Every MCP server process has ended when this returns (the session would do it too, later).
    session.mcp()->shutdown();
    return exitCode;
}

} // namespace Loopscope::Cli
