// loopscope-bench: the cost of the tool loop itself. It runs whole turns of K
// tool rounds with P parallel calls against loopscope-bench-server (which
// answers at once), so everything that is not the client's own CPU is
// loopback I/O, and reports wall time, CPU and peak memory of this process.
//
//   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPSCOPE_BENCHMARKS=ON
//   cmake --build build-bench --target loopscope-bench loopscope-bench-server
//   build-bench/tests/bench/loopscope-bench --spawn-server --rounds 50 --parallel 4 --stream 1
// or, with the server started separately:
//   build-bench/tests/bench/loopscope-bench-server --port 8765 &
//   build-bench/tests/bench/loopscope-bench --port 8765 --rounds 50 --parallel 4 --stream 1

#include "agent/loop/agent.h"
#include "agent/providers/httpmodelclient.h"
#include "agent/providers/openaiprotocol.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracemodel.h"
#include "tests/bench/spawnedserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QRegularExpression>
#include <QTextStream>

#include <sys/resource.h>

#include <atomic>
#include <memory>
#include <optional>

using namespace Qt::StringLiterals;

namespace Loopscope::Bench {

namespace {

enum ExitCode { Success = 0, WrongAnswer = 1, BadUsage = 2, NoServer = 3 };

void printError(const QString &message)
{
    QTextStream(stderr) << "loopscope-bench: " << message << Qt::endl;
}

struct BenchOptions
{
    quint16 port = 0;
    bool spawnServer = false;
    int rounds = 50;
    int parallel = 4;
    int repeat = 5;
    int warmup = 1;
    bool stream = true;
    bool freshClient = false; // a new QNetworkAccessManager and client per run
    bool traceModel = false;  // a TraceModel follows the trace, as in the GUI

    int iterationsPerRun() const { return rounds + 1; }
    QString model() const { return u"loop-%1-%2"_s.arg(rounds).arg(parallel); }

    static std::optional<BenchOptions> parse(const QStringList &arguments, QString *error)
    {
        QCommandLineParser parser;
        parser.setApplicationDescription(
            u"Measures the agent loop's own overhead: R turns of K tool rounds with P parallel calls "
            "against loopscope-bench-server. The last line printed is one JSON object."_s);
        parser.addHelpOption();
        const QCommandLineOption port(u"port"_s, u"Port of a running loopscope-bench-server on 127.0.0.1."_s,
                                      u"N"_s);
        const QCommandLineOption spawn(
            u"spawn-server"_s, u"Start loopscope-bench-server from this binary's directory instead."_s);
        const QCommandLineOption rounds(u"rounds"_s, u"Tool rounds per turn (K)."_s, u"K"_s, u"50"_s);
        const QCommandLineOption parallel(u"parallel"_s, u"Parallel calls per round (P)."_s, u"P"_s, u"4"_s);
        const QCommandLineOption repeat(u"repeat"_s, u"Measured turns (R), after the warm-up turns."_s,
                                        u"R"_s, u"5"_s);
        const QCommandLineOption warmup(
            u"warmup"_s, u"Warm-up turns before the measured ones, reported apart."_s, u"N"_s, u"1"_s);
        const QCommandLineOption stream(u"stream"_s, u"1: streamed responses (SSE); 0: plain JSON."_s,
                                        u"0|1"_s, u"1"_s);
        const QCommandLineOption fresh(u"fresh-client"_s,
                                       u"1: a new QNetworkAccessManager and HttpModelClient per turn."_s,
                                       u"0|1"_s, u"0"_s);
        const QCommandLineOption model(
            u"trace-model"_s, u"1: attach a TraceModel to the trace, as the GUI does."_s, u"0|1"_s, u"0"_s);
        parser.addOptions({port, spawn, rounds, parallel, repeat, warmup, stream, fresh, model});
        parser.process(arguments); // exits on --help and on unknown options

        BenchOptions options;
        const auto number = [&](const QCommandLineOption &option, int min, int max, int *out) {
            bool ok = false;
            const int value = parser.value(option).toInt(&ok);
            if (!ok || value < min || value > max) {
                *error = u"--%1 wants a number from %2 to %3"_s.arg(option.names().constFirst())
                             .arg(min)
                             .arg(max);
                return false;
            }
            *out = value;
            return true;
        };
        int portNumber = 0;
        int streamFlag = 1;
        int freshFlag = 0;
        int modelFlag = 0;
        if (!number(rounds, 0, 100'000, &options.rounds) || !number(parallel, 1, 1000, &options.parallel)
            || !number(repeat, 1, 100'000, &options.repeat) || !number(warmup, 0, 1000, &options.warmup)
            || !number(stream, 0, 1, &streamFlag) || !number(fresh, 0, 1, &freshFlag)
            || !number(model, 0, 1, &modelFlag))
            return std::nullopt;
        options.stream = streamFlag == 1;
        options.freshClient = freshFlag == 1;
        options.traceModel = modelFlag == 1;
        options.spawnServer = parser.isSet(spawn);
        if (parser.isSet(port) && !number(port, 1, 65535, &portNumber))
            return std::nullopt;
        options.port = quint16(portNumber);
        if (options.spawnServer == parser.isSet(port)) {
            *error = u"pass either --port N (of a running loopscope-bench-server) or --spawn-server"_s;
            return std::nullopt;
        }
        return options;
    }
};

/*!
    What the add tool really received, summed across the worker threads it
    runs on: the expected answer, independent of what the server thinks.
*/
class AddLedger final
{
public:
    void record(qint64 a, qint64 b)
    {
        m_sum.fetch_add(a + b, std::memory_order_relaxed);
        m_calls.fetch_add(1, std::memory_order_relaxed);
    }
    void reset()
    {
        m_sum = 0;
        m_calls = 0;
    }
    qint64 sum() const { return m_sum.load(); }
    int calls() const { return m_calls.load(); }

private:
    std::atomic<qint64> m_sum = 0;
    std::atomic<int> m_calls = 0;
};

std::shared_ptr<const Tool> createAddTool(std::shared_ptr<AddLedger> ledger)
{
    const QJsonObject integer{{u"type"_s, u"integer"_s}};
    ToolSchema schema{u"add"_s,
                      u"Adds two integers and returns the sum."_s,
                      {{u"type"_s, u"object"_s},
                       {u"properties"_s, QJsonObject{{u"a"_s, integer}, {u"b"_s, integer}}},
                       {u"required"_s, QJsonArray{u"a"_s, u"b"_s}},
                       {u"additionalProperties"_s, false}}};
    // The workbench has validated the arguments against the schema by now.
    return std::make_shared<FunctionTool>(std::move(schema),
                                          [ledger](const QJsonObject &arguments, ToolContext &) {
                                              const qint64 a = arguments.value(u"a"_s).toInteger();
                                              const qint64 b = arguments.value(u"b"_s).toInteger();
                                              ledger->record(a, b);
                                              return ToolResult::success(QString::number(a + b));
                                          });
}

/*! CPU and peak memory of this whole process (every thread), from getrusage. */
struct ResourceSample
{
    double userMs = 0;
    double sysMs = 0;
    double maxRssMb = 0;

    static ResourceSample now()
    {
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        const auto ms = [](const timeval &t) {
            return double(t.tv_sec) * 1e3 + double(t.tv_usec) / 1e3;
        };
        return {ms(usage.ru_utime), ms(usage.ru_stime),
                double(usage.ru_maxrss) / 1024.0}; // ru_maxrss is in KiB
    }
};

} // namespace

// Outside the anonymous namespace: moc cannot name classes in one.

/*!
    Owns everything one benchmark needs and runs its turns one after another:
    a warm-up turn, then the measured ones, each a fresh conversation (new
    trace, workbench and agent). The network stack and model client are
    shared across turns as in the app, unless --fresh-client asks otherwise.
*/
class BenchRunner final : public QObject
{
    Q_OBJECT

public:
    BenchRunner(const BenchOptions &options, QUrl baseUrl, QObject *parent = nullptr)
        : QObject(parent)
        , m_options(options)
        , m_baseUrl(std::move(baseUrl))
    {}

    // Starts the first turn from the event loop; QCoreApplication::exit() follows the last.
    void start() { QMetaObject::invokeMethod(this, &BenchRunner::startTurn, Qt::QueuedConnection); }

private:
    bool isWarmUp() const { return m_turnsDone < m_options.warmup; }

    void startTurn()
    {
        // The previous turn's agent is gone before the next is built, as when
        // a user starts a new conversation; its teardown counts as overhead.
        m_agent.reset();
        m_traceModel.reset();
        m_trace.reset();
        m_workbench.reset();
        if (!m_client || m_options.freshClient)
            createClient();

        m_ledger->reset();
        m_trace = std::make_unique<Trace>();
        if (m_options.traceModel)
            m_traceModel = std::make_unique<TraceModel>(m_trace.get());
        m_workbench = std::make_unique<Workbench>();
        m_workbench->add(createAddTool(m_ledger));
        m_agent = std::make_unique<Agent>(m_client.get(), m_workbench.get(), m_trace.get());
        AgentConfig config;
        config.model.model = m_options.model();
        config.model.stream = m_options.stream;
        // K tool rounds, then the answer; one spare iteration, so that the answer is not one the
        // limit forced (the final iteration goes without tools, and ends the turn as forced_final).
        config.maxIterations = m_options.iterationsPerRun() + 1;
        m_agent->setConfig(config);
        connect(m_agent.get(), &Agent::turnFinished, this, &BenchRunner::onTurnFinished);

        if (m_turnsDone == 0) {
            m_warmUpBefore = ResourceSample::now();
            m_warmUpWall.start();
        }
        if (m_turnsDone == m_options.warmup) {
            if (m_options.warmup > 0)
                reportWarmUp(ResourceSample::now());
            m_before = ResourceSample::now();
            m_wall.start();
        }
        m_turnTimer.start();
        m_agent->send(u"Call add as the rounds require, then tell me the total of all results."_s);
    }

    void createClient()
    {
        m_client.reset(); // before the manager it uses
        m_network = std::make_unique<QNetworkAccessManager>();
        ProviderEndpoint endpoint;
        endpoint.baseUrl = m_baseUrl;
        // A real key, so the redactor does the work it does for every user.
        endpoint.apiKey = u"sk-bench-0123456789abcdefghijklmnopqrstuvwxyz"_s;
        // A retry would hide a server fault and distort the timing: fail instead.
        endpoint.maxRetries = 0;
        m_client = std::make_unique<HttpModelClient>(m_network.get(), std::make_unique<OpenAiProtocol>(),
                                                     endpoint);
    }

    void onTurnFinished(const TurnResult &result)
    {
        const double turnMs = double(m_turnTimer.nsecsElapsed()) / 1e6;
        if (const QString problem = checkTurn(result); !problem.isEmpty()) {
            printError(
                u"turn %1%2: %3"_s.arg(m_turnsDone).arg(isWarmUp() ? u" (warm-up)"_s : QString(), problem));
            QCoreApplication::exit(WrongAnswer);
            return;
        }
        if (!isWarmUp())
            m_turnMs.append(turnMs);
        ++m_turnsDone;
        if (m_turnsDone < m_options.warmup + m_options.repeat) {
            // Queued: the agent is still inside its own signal here.
            QMetaObject::invokeMethod(this, &BenchRunner::startTurn, Qt::QueuedConnection);
            return;
        }
        const double wallMs = double(m_wall.nsecsElapsed()) / 1e6;
        report(wallMs, ResourceSample::now());
        QCoreApplication::exit(Success);
    }

    // Empty when the turn ended as the script says it must.
    QString checkTurn(const TurnResult &result) const
    {
        if (result.outcome != TurnOutcome::Answered)
            return u"ended as %1, not answered: %2"_s.arg(turnOutcomeName(result.outcome), result.error);
        if (result.iterations != m_options.iterationsPerRun())
            return u"took %1 iterations, expected %2"_s.arg(result.iterations)
                .arg(m_options.iterationsPerRun());
        const int expectedCalls = m_options.rounds * m_options.parallel;
        if (m_ledger->calls() != expectedCalls)
            return u"the tool ran %1 times, expected %2"_s.arg(m_ledger->calls()).arg(expectedCalls);
        // The sum as a number anywhere in the answer: any server that plays loop-K-P words it its own way.
        static const QRegularExpression numbers(u"-?\\d+"_s);
        for (const QRegularExpressionMatch &match : numbers.globalMatch(result.text)) {
            if (match.captured().toLongLong() == m_ledger->sum())
                return {};
        }
        return u"wrong answer \"%1\", expected it to contain the number %2"_s.arg(result.text)
            .arg(m_ledger->sum());
    }

    void reportWarmUp(const ResourceSample &after) const
    {
        const int iterations = m_options.warmup * m_options.iterationsPerRun();
        const double cpuMs = after.userMs - m_warmUpBefore.userMs + after.sysMs - m_warmUpBefore.sysMs;
        QTextStream(stdout)
            << u"warm-up: %1 turn(s), %2 ms wall per turn, %3 ms CPU per iteration, peak RSS %4 MB"_s.arg(
                   QString::number(m_options.warmup),
                   QString::number(double(m_warmUpWall.nsecsElapsed()) / 1e6 / m_options.warmup, 'f', 1),
                   QString::number(cpuMs / iterations, 'f', 3), QString::number(after.maxRssMb, 'f', 1))
            << Qt::endl;
    }

    void report(double wallMs, const ResourceSample &after) const
    {
        const int runs = m_options.repeat;
        const int iterations = runs * m_options.iterationsPerRun();
        const double userMs = after.userMs - m_before.userMs;
        const double sysMs = after.sysMs - m_before.sysMs;
        const auto fixed = [](double value, int decimals = 3) {
            return QString::number(value, 'f', decimals);
        };

        QStringList turns;
        for (double ms : m_turnMs)
            turns.append(fixed(ms, 1));
        QTextStream out(stdout);
        out << u"K=%1 P=%2 stream=%3 R=%4: %5 ms per turn (%6), %7 ms wall per iteration"_s.arg(
            QString::number(m_options.rounds), QString::number(m_options.parallel),
            QString::number(int(m_options.stream)), QString::number(runs), fixed(wallMs / runs, 2),
            turns.join(u' '), fixed(wallMs / iterations))
            << Qt::endl;
        out << u"client CPU: %1 ms per iteration (user %2 ms + sys %3 ms over %4 iterations), peak RSS %5 MB"_s
                   .arg(fixed((userMs + sysMs) / iterations), fixed(userMs, 1), fixed(sysMs, 1),
                        QString::number(iterations), fixed(after.maxRssMb, 1))
            << Qt::endl;
        // Written by hand to keep the key order stable for scripts that diff it.
        out << u"{\"rounds\":%1,\"parallel\":%2,\"repeat\":%3,\"stream\":%4,\"ms_per_run\":%5,"
               "\"ms_per_iteration\":%6,\"cpu_user_ms\":%7,\"cpu_sys_ms\":%8,\"max_rss_mb\":%9,"_s.arg(
                   QString::number(m_options.rounds), QString::number(m_options.parallel),
                   QString::number(runs), QString::number(int(m_options.stream)), fixed(wallMs / runs),
                   fixed(wallMs / iterations), fixed(userMs), fixed(sysMs), fixed(after.maxRssMb, 2))
                   + u"\"cpu_ms_per_iteration\":%1,\"warmup\":%2,\"client\":\"loopscope\"}"_s.arg(
                       fixed((userMs + sysMs) / iterations), QString::number(m_options.warmup))
            << Qt::endl;
    }

    const BenchOptions m_options;
    const QUrl m_baseUrl;
    std::shared_ptr<AddLedger> m_ledger = std::make_shared<AddLedger>();

    // Declared in the order they may be built: the agent goes first.
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<HttpModelClient> m_client;
    std::unique_ptr<Trace> m_trace;
    std::unique_ptr<TraceModel> m_traceModel;
    std::unique_ptr<Workbench> m_workbench;
    std::unique_ptr<Agent> m_agent;

    int m_turnsDone = 0; // the warm-up included
    QList<double> m_turnMs;
    QElapsedTimer m_turnTimer;
    QElapsedTimer m_wall;
    QElapsedTimer m_warmUpWall;
    ResourceSample m_before;
    ResourceSample m_warmUpBefore;
};

} // namespace Loopscope::Bench

int main(int argc, char *argv[])
{
    using namespace Loopscope::Bench;
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"loopscope-bench"_s);

    QString error;
    const std::optional<BenchOptions> options = BenchOptions::parse(QCoreApplication::arguments(), &error);
    if (!options) {
        printError(error);
        return BadUsage;
    }

    quint16 port = options->port;
    std::unique_ptr<SpawnedServer> server;
    if (options->spawnServer) {
        server = std::make_unique<SpawnedServer>();
        const std::optional<quint16> spawnedPort = server->start(&error);
        if (!spawnedPort) {
            printError(error);
            return NoServer;
        }
        port = *spawnedPort;
    }

    QUrl baseUrl;
    baseUrl.setScheme(u"http"_s);
    baseUrl.setHost(u"127.0.0.1"_s);
    baseUrl.setPort(port);
    baseUrl.setPath(u"/v1"_s);

    BenchRunner runner(*options, baseUrl);
    runner.start();
    return QCoreApplication::exec();
}

#include "loopbench.moc"
