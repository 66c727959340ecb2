#include "app/cli/evalcommand.h"

#include "app/cli/commandlinesyntax.h"
#include "app/cli/headlesssetup.h"
#include "app/cli/interruptwatcher.h"
#include "app/cli/knowledgecommand.h"
#include "app/cli/limitoptions.h"
#include "app/cli/terminaltext.h"
#include "app/launch/provideroptions.h"

#include "agent/config/apikeyresolver.h"
#include "agent/config/keyenvironment.h"
#include "agent/eval/evalrunner.h"
#include "agent/eval/evalsuite.h"
#include "agent/eval/junitreport.h"
#include "agent/session/chatsession.h"
#include "agent/tools/builtin/builtintools.h"
#include "agent/trace/tracecost.h"
#include "agent/transcript/atomicfile.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QNetworkAccessManager>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

namespace {

QString description()
{
    return EvalCommand::tr(
        "Run a suite of loop regression tests: each line of SUITE.jsonl is a case, a prompt for a\n"
        "live model or a recorded session to replay without a network, with expectations on the\n"
        "answer, the tool calls and the iterations. Prints PASS, FAIL or ERROR and the first unmet\n"
        "expectation per case, then a summary; --junit writes a JUnit XML report for CI.\n"
        "The provider options are the default for cases that name no provider or model. Nobody is\n"
        "there to ask: built-in tools run unless a case says \"approve\": \"none\". API keys are\n"
        "read from environment variables, never from the command line or the suite.\n\n"
        "Exit codes:\n"
        "  0    every case passed\n"
        "  1    at least one case failed or could not be judged (an error)\n"
        "  2    bad usage: unknown option or value, a malformed suite (the line is named), a\n"
        "       missing API key, an unwritable report or folder\n"
        "  130  cancelled by SIGINT (Ctrl+C) or SIGTERM; the report lists the cases not run\n");
}

// The provider a live case runs on: its own, or the command line's with what it changes.
std::optional<ProviderProfile> profileFor(const EvalCase &evalCase,
                                          const Launch::ProviderOptions::Choice &commandLine, QString *error)
{
    Launch::ProviderOptions::Choice choice;
    QString hint;
    if (evalCase.provider.namesProvider()) {
        // A case that names its provider describes it whole: nothing of the command line's carries over.
        choice.kind = evalCase.provider.kind.value_or(commandLine.kind);
        choice.baseUrl = evalCase.provider.baseUrl;
        choice.model = evalCase.provider.model.value_or(QString());
        choice.apiKeyEnv = evalCase.provider.apiKeyEnv;
        hint = EvalCommand::tr("in the case (\"model\"): it names its own provider");
    } else {
        choice = commandLine;
        choice.model = evalCase.provider.model.value_or(choice.model);
        choice.apiKeyEnv = evalCase.provider.apiKeyEnv ? evalCase.provider.apiKeyEnv : commandLine.apiKeyEnv;
        hint = EvalCommand::tr("in the case (\"model\") or with --model");
    }
    return Launch::ProviderOptions::profile(choice, hint, error);
}

// What each live case runs with (replays need nothing): its provider, its key from the
// environment (CI has no keyring to unlock), its loop options, tools and approvals. nullopt, with
// *error naming the case's line, when a case names no model or its key is missing.
std::optional<QList<HeadlessSetup>> setupsFor(const EvalSuite &suite,
                                              const Launch::ProviderOptions::Choice &commandLine,
                                              const std::optional<AgentRoster> &suiteAgents, QString *error)
{
    QList<HeadlessSetup> setups(suite.cases.size());
    for (qsizetype i = 0; i < suite.cases.size(); ++i) {
        const EvalCase &evalCase = suite.cases.at(i);
        if (evalCase.isReplay())
            continue;
        const auto fail = [&](const QString &message) {
            *error = EvalCommand::tr("%1: line %2: %3").arg(suite.path).arg(evalCase.line).arg(message);
            return std::nullopt;
        };
        HeadlessSetup &setup = setups[i];
        QString why;
        const std::optional<ProviderProfile> profile = profileFor(evalCase, commandLine, &why);
        if (!profile)
            return fail(why);
        setup.profile = *profile;
        const ApiKeyResolver::Result key = ApiKeyResolver::fromEnvironment(setup.profile);
        if (key.status == ApiKeyResolver::Result::Status::EnvironmentUnset)
            return fail(EvalCommand::tr("no API key: set the environment variable %1, or name another with "
                                        "\"api_key_env\" or --api-key-env")
                            .arg(setup.profile.apiKeyEnv));
        setup.apiKey = key.key;
        KeyEnvironment::take(setup.profile.apiKeyEnv);
        setup.config.systemPrompt = evalCase.system;
        if (evalCase.maxIterations)
            setup.config.maxIterations = *evalCase.maxIterations;
        if (evalCase.contextWindow)
            setup.config.model.contextWindow = *evalCase.contextWindow;
        if (evalCase.compaction)
            setup.config.compaction = *evalCase.compaction;
        setup.tools = evalCase.tools;
        setup.workspace = evalCase.workspace;
        setup.approveAll = evalCase.approveAll;
        // A suite names its tools and runs unattended: "approve": "all" means every one of them,
        // including those that write files, run commands or fetch URLs.
        setup.approveMcp = evalCase.approveAll;
        for (const QString &name : evalCase.knowledge) {
            const std::optional<AttachedKnowledgeBase> base = KnowledgeCommand::attach(name, &why);
            if (!base)
                return fail(why);
            if (!setup.knowledge.contains(*base))
                setup.knowledge.append(*base);
        }
        setup.retrieveBeforeTurn = evalCase.retrieveBeforeTurn;
        // The case's own agents file, else the suite's (--agents).
        const std::optional<AgentRoster> &agents = evalCase.agents ? evalCase.agents : suiteAgents;
        if (!agents && !evalCase.agent.isEmpty())
            return fail(EvalCommand::tr("\"agent\": %1 names an agent of an agents file: give the case "
                                        "\"agents\" or run the suite with --agents")
                            .arg(evalCase.agent));
        if (agents) {
            const std::optional<AgentPreset> agent = agents->pick(evalCase.agent, &why);
            if (!agent)
                return fail(why);
            // Eval offers no MCP servers: an agent's tools are built-in ones.
            for (const AgentPreset &preset : agents->agents) {
                for (const QString &tool : preset.tools.value_or(QStringList())) {
                    if (const std::optional<QString> server = AgentPreset::mcpServerOf(tool))
                        return fail(EvalCommand::tr("agent \"%1\" has every tool of the MCP server \"%2\", "
                                                    "and eval runs no MCP servers")
                                        .arg(preset.name, *server));
                    if (!builtinToolNames().contains(tool))
                        return fail(
                            EvalCommand::tr("agent \"%1\" has the tool \"%2\", which is not built in (%3)")
                                .arg(preset.name, tool, builtinToolNames().join(u", "_s)));
                }
            }
            // Each agent searches its own bases (knowledge_search and --retrieve auto's "retrieve"); one
            // that is not in the library fails the suite before any case runs.
            if (!setup.attachAgentKnowledge(*agents, &why))
                return fail(why);
            // An agent (or its model shield) on a saved profile of its own runs there, with the key its
            // variable holds; one that is not saved fails the suite before any case runs.
            if (!setup.attachAgentProviders(*agents, &why))
                return fail(why);
            setup.agents = *agents;
            setup.agent = agent->name;
        }
        if (setup.retrieveBeforeTurn && setup.knowledge.isEmpty() && setup.agentKnowledge.isEmpty())
            return fail(EvalCommand::tr("\"retrieve\": \"auto\" needs a knowledge base to search "
                                        "(\"knowledge\", or an agent's)"));
    }
    return setups;
}

QString statusWord(EvalCaseResult::Status status)
{
    switch (status) {
    case EvalCaseResult::Status::Passed: return u"PASS"_s;
    case EvalCaseResult::Status::Failed: return u"FAIL"_s;
    case EvalCaseResult::Status::Error: return u"ERROR"_s;
    case EvalCaseResult::Status::Skipped: return u"SKIP"_s;
    }
    return {};
}

} // namespace

EvalCommand::EvalCommand()
    : m_stdout(stdout)
    , m_stderr(stderr)
    , m_out(&m_stdout)
    , m_err(&m_stderr)
{}

EvalCommand::EvalCommand(QTextStream *out, QTextStream *err)
    : m_out(out)
    , m_err(err)
{}

void EvalCommand::printError(const QString &message)
{
    *m_err << "loopscope eval: " << visibleControls(message) << Qt::endl;
}

int EvalCommand::exec(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(description());
    CommandLineSyntax syntax(parser, u"eval"_s);
    const Launch::ProviderOptions providerOptions;
    const QCommandLineOption junit(u"junit"_s, tr("Write a JUnit XML report to this file."), u"file"_s);
    const QCommandLineOption agentsFile(
        u"agents"_s,
        tr("An agents file (JSON, see the README) for the suite's live cases: a case runs as its \"agent\", "
           "else as the file's first; a case's own \"agents\" wins."),
        u"file"_s);
    const QCommandLineOption jobs(u"jobs"_s, tr("Run up to n cases at once (default 1)."), u"n"_s, u"1"_s);
    const QCommandLineOption timeout(
        u"timeout"_s, tr("Stop a case after this many seconds; it is then an error (default 300)."),
        u"seconds"_s, u"300"_s);
    const QCommandLineOption saveSessions(
        u"save-sessions"_s,
        tr("Save each case's session (*.loopscope.json, named after the case) into this folder, to open "
           "a failing one in the app."),
        u"dir"_s);
    providerOptions.addTo(parser);
    const LimitOptions limitOptions(true);
    limitOptions.addTo(parser);
    parser.addOptions({junit, agentsFile, jobs, timeout, saveSessions});
    parser.addPositionalArgument(u"suite"_s, tr("The suite: one JSON object per line."), u"SUITE.jsonl"_s);

    QString usageError;
    switch (syntax.parse(arguments, *m_out, &usageError)) {
    case CommandLineSyntax::Outcome::Failed: printError(usageError); return BadInput;
    case CommandLineSyntax::Outcome::HelpShown: return AllPassed;
    case CommandLineSyntax::Outcome::Parsed: break;
    }
    if (parser.positionalArguments().size() != 1) {
        printError(tr("give exactly one suite file (see --help)"));
        return BadInput;
    }
    bool ok = false;
    const int jobCount = parser.value(jobs).toInt(&ok);
    if (!ok || jobCount < 1 || jobCount > 64) {
        printError(tr("--jobs takes a number from 1 to 64"));
        return BadInput;
    }
    const int timeoutSeconds = parser.value(timeout).toInt(&ok);
    if (!ok || timeoutSeconds < 1) {
        printError(tr("--timeout takes a number of seconds from 1"));
        return BadInput;
    }
    const QString reportPath = parser.value(junit);
    if (!reportPath.isEmpty() && !QFileInfo(QFileInfo(reportPath).absolutePath()).isDir()) {
        printError(tr("cannot write the report to \"%1\": its folder does not exist").arg(reportPath));
        return BadInput;
    }
    const QString sessionFolder = parser.value(saveSessions);
    if (!sessionFolder.isEmpty() && !QDir().mkpath(sessionFolder)) {
        printError(tr("cannot create the folder \"%1\" for the sessions").arg(sessionFolder));
        return BadInput;
    }
    // Checked even when every case names its own provider: a wrong option is a mistake either way.
    // The model may come from the cases, so a stand-in lets the rest be checked.
    QString limitError;
    const std::optional<ResponseLimits> limits = limitOptions.limits(parser, &limitError);
    const std::optional<int> maxToolCalls = limitOptions.maxToolCalls(parser, &limitError);
    const std::optional<int> timeLimit
        = limits && maxToolCalls ? limitOptions.turnTimeLimitMs(parser, &limitError) : std::nullopt;
    if (!limits || !maxToolCalls || !timeLimit) {
        printError(limitError);
        return BadInput;
    }
    const Launch::ProviderOptions::Choice commandLine = providerOptions.choice(parser);
    if (providerOptions.isAnySet(parser)) {
        Launch::ProviderOptions::Choice check = commandLine;
        check.model = check.model.isEmpty() ? u"any"_s : check.model;
        QString error;
        if (!Launch::ProviderOptions::profile(check, {}, &error)) {
            printError(error);
            return BadInput;
        }
    }

    // Everything is read and checked before anything runs.
    QString error;
    const std::optional<EvalSuite> suite = EvalSuite::load(parser.positionalArguments().constFirst(), &error);
    if (!suite) {
        printError(error);
        return BadInput;
    }
    std::optional<AgentRoster> suiteAgents;
    if (parser.isSet(agentsFile)) {
        suiteAgents = AgentRoster::load(parser.value(agentsFile), &error);
        if (!suiteAgents) {
            printError(error);
            return BadInput;
        }
    }
    std::optional<QList<HeadlessSetup>> setups = setupsFor(*suite, commandLine, suiteAgents, &error);
    if (!setups) {
        printError(error);
        return BadInput;
    }
    for (HeadlessSetup &setup : *setups) {
        setup.limits = *limits;
        setup.config.maxToolCallsPerResponse = *maxToolCalls;
        setup.config.turnTimeLimitMs = *timeLimit;
    }

    QNetworkAccessManager network;
    EvalRunner runner(suite->cases, [&network, &setups](int index) {
        auto session = std::make_unique<ChatSession>(&network);
        setups->at(index).applyTo(*session);
        return session;
    });
    // What a turn cost, from the costs its model calls recorded (the session prices each call as it
    // finishes). A sum that misses a call is no answer: a cost limit cannot pass on part of the bill.
    runner.setCostFunction([](const Trace &trace, int turnNode) -> std::optional<double> {
        const CostSum sum = traceCost(trace, turnNode);
        if (!sum.isKnown() || sum.isPartial())
            return std::nullopt;
        return sum.usd;
    });
    runner.setJobs(jobCount);
    runner.setTimeoutSeconds(timeoutSeconds);
    if (!sessionFolder.isEmpty())
        runner.setSessionFolder(sessionFolder);

    QObject::connect(&runner, &EvalRunner::caseFinished, &runner, [this](int, const EvalCaseResult &result) {
        *m_out << statusWord(result.status) << ' ' << result.name;
        if (!result.firstMessage().isEmpty())
            *m_out << ": " << result.firstMessage();
        *m_out << Qt::endl;
    });
    bool cancelled = false;
    QObject::connect(&runner, &EvalRunner::finished, &runner, [&] {
        const QList<EvalCaseResult> results = runner.results();
        const EvalSummary summary = EvalSummary::of(results);
        *m_out << summary.line(runner.elapsedMs()) << Qt::endl;
        int code = cancelled ? Cancelled : summary.allPassed() ? AllPassed : SomeFailed;
        if (!reportPath.isEmpty()) {
            QString writeError;
            if (!writeFileAtomically(reportPath, JUnitReport::toXml(suite->name, results, runner.elapsedMs()),
                                     &writeError)) {
                printError(tr("cannot write the report to \"%1\": %2").arg(reportPath, writeError));
                code = code == AllPassed ? BadInput : code;
            }
        }
        QCoreApplication::exit(code);
    });

    // The first Ctrl+C stops the running cases cleanly and skips the rest (the report is still
    // written). A second one hurries the end (the watcher skips the grace before SIGKILL for the
    // cases' commands) but still ends them and writes the report: leaving at once would leave both
    // behind.
    InterruptWatcher interrupts;
    QObject::connect(&interrupts, &InterruptWatcher::interrupted, &runner, [&] {
        cancelled = true;
        runner.cancel(tr("cancelled"));
    });

    runner.start();
    return QCoreApplication::exec();
}

} // namespace Loopscope::Cli
