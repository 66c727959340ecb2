// loopscope-session-bench: how long opening a big saved session takes, and
// how much memory it needs. It writes a session of 10,000 messages and 30,000
// trace nodes (2,500 turns with a tool call each), then loads it --repeat
// times, each in a fresh process of its own, so that the peak memory is that
// of loading alone. Loading is what the app does on "Open":
// TranscriptFile::load() with TraceForm::ForestOnly (one simdjson parse, which
// reads the trace too), Trace::assign() and a TraceModel on the trace.
// Prints one JSON line per size (--turns 625,1250,2500 by default, so that growth
// shows): the median time, the highest peak and the phases; the largest last.
// Targets at 2,500 turns: the loader alone under 0.25 s, under 150 MB.
//
//   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPSCOPE_BENCHMARKS=ON
//   cmake --build build-bench --target loopscope-session-bench
//   build-bench/tests/bench/loopscope-session-bench [--turns 625,1250,2500] [--repeat 5]
//
// A model call records the request it sent. Here that is the system prompt and
// the turn's own messages, not the whole history before it: with the history,
// the file grows with the square of the conversation and 10,000 messages
// would not fit the 512 MB a session file may have.

#include "agent/trace/trace.h"
#include "agent/trace/tracemodel.h"
#include "agent/transcript/transcript.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>

#include <sys/resource.h>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace Loopscope;

namespace {

constexpr double TargetMs = 250;
constexpr double TargetMb = 150;

// The high-water mark of this process image. Not getrusage(): its ru_maxrss
// survives exec, so it would report the generating parent's peak.
double peakRssMb()
{
    QFile status(u"/proc/self/status"_s);
    if (status.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : status.readAll().split('\n')) {
            if (line.startsWith("VmHWM:"))
                return line.mid(6).trimmed().split(' ').constFirst().toDouble() / 1024.0; // in kB
        }
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0;
}

QString sentence(int turn, const QString &topic, int words)
{
    QStringList text{u"Turn %1 about %2:"_s.arg(turn).arg(topic)};
    static const QStringList vocabulary{u"the"_s,        u"invoice"_s,  u"Zürich"_s, u"temperature"_s,
                                        u"was"_s,        u"21 °C"_s,    u"and"_s,    u"result"_s,
                                        u"calculator"_s, u"returned"_s, u"window"_s, u"東京"_s};
    for (int i = 0; i < words; ++i)
        text.append(vocabulary.at((turn * 7 + i * 3) % vocabulary.size()));
    return text.join(u' ');
}

// 4 messages and 12 trace nodes per turn, with realistic payloads.
Transcript generate(int turns)
{
    Transcript transcript;
    transcript.title = u"A long session"_s;
    transcript.created = QDateTime(QDate(2024, 5, 1), QTime(9, 0), Qt::UTC);
    transcript.updated = transcript.created.addDays(3);
    transcript.providerKind = u"openai"_s;
    transcript.baseUrl = QUrl(u"https://api.openai.com/v1"_s);
    transcript.config.systemPrompt = u"You are a careful assistant. Use the tools when they help."_s;
    transcript.config.model.model = u"gpt-4o-mini"_s;
    transcript.tools = {u"calculator"_s, u"read_file"_s};

    const ToolSchema calculator{
        u"calculator"_s, u"Evaluates an arithmetic expression"_s,
        QJsonObject{{u"type"_s, u"object"_s},
                    {u"properties"_s, QJsonObject{{u"expression"_s, QJsonObject{{u"type"_s, u"string"_s}}}}},
                    {u"required"_s, QJsonArray{u"expression"_s}}}};
    Trace trace;
    qint64 now = 1'714'554'000'000'000;
    const auto tick = [&now](qint64 us) {
        return now += us;
    };
    for (int turn = 0; turn < turns; ++turn) {
        const QString question = sentence(turn, u"a question"_s, 16);
        const ToolCall call{u"call_%1"_s.arg(turn),
                            u"calculator"_s,
                            uR"({"expression":"%1*0.17"})"_s.arg(turn * 13 + 2340),
                            {}};
        const QString result = sentence(turn, u"a tool result"_s, 50);
        const QString answer = sentence(turn, u"an answer"_s, 100);
        const Message user = Message::user(question);
        const Message calling = Message::assistant({}, {call});
        const Message toolResult = Message::toolResult(call, result, false);
        const Message answered = Message::assistant(answer);
        transcript.messages += {user, calling, toolResult, answered};

        const auto modelCall = [&](const QList<Message> &messages, const ModelResponse &response) {
            ModelCallData data;
            data.provider = u"openai"_s;
            data.model = u"gpt-4o-mini"_s;
            ModelRequest request;
            request.messages = QList<Message>{Message::system(transcript.config.systemPrompt)} + messages;
            request.tools = {calculator};
            request.options = transcript.config.model;
            data.request = std::move(request);
            data.response = response;
            ModelAttempt attempt;
            attempt.startedUs = now;
            attempt.endedUs = now + 800'000;
            attempt.httpStatus = 200;
            attempt.request = QJsonObject{{u"method"_s, u"POST"_s},
                                          {u"url"_s, u"https://api.openai.com/v1/chat/completions"_s},
                                          {u"headers"_s, QJsonObject{{u"Authorization"_s, u"[redacted]"_s}}}};
            attempt.response
                = QJsonObject{{u"id"_s, u"chatcmpl-%1"_s.arg(turn)}, {u"object"_s, u"chat.completion"_s}};
            data.attempts = {attempt};
            return data;
        };
        ModelResponse callResponse;
        callResponse.toolCalls = {call};
        callResponse.finishReason = FinishReason::ToolCalls;
        callResponse.usage = {420, 24};
        ModelResponse answerResponse;
        answerResponse.text = answer;
        answerResponse.usage = {610, 180};

        const int root = trace.begin(-1, TraceKind::Turn, question, tick(1000),
                                     TurnData{u"assistant"_s, question, answer, u"answered"_s, {1030, 204}});
        const int input = trace.begin(root, TraceKind::ShieldCheck, u"rules"_s, tick(50),
                                      ShieldCheckData{u"rules"_s, u"input"_s, question, true, {}});
        trace.finish(input, TraceStatus::Ok, tick(20));
        const int first = trace.begin(root, TraceKind::Iteration, u"Iteration 1"_s, tick(10),
                                      IterationData{1, 10, false, true});
        const int firstCall = trace.begin(first, TraceKind::ModelCall, u"gpt-4o-mini"_s, tick(10),
                                          modelCall({user}, callResponse));
        const int retry = trace.begin(firstCall, TraceKind::Retry, u"HTTP 429"_s, tick(300'000),
                                      RetryData{1, 429, u"rate limited"_s, 1000});
        trace.finish(retry, TraceStatus::Ok, tick(1'000'000));
        trace.finish(firstCall, TraceStatus::Ok, tick(500'000));
        const int tool = trace.begin(first, TraceKind::ToolCall, u"calculator"_s, tick(100),
                                     ToolCallData{call, {}, result, false, u"auto"_s, {u"evaluating"_s}});
        const int toolShield
            = trace.begin(tool, TraceKind::ShieldCheck, u"rules"_s, tick(10),
                          ShieldCheckData{u"rules"_s, u"tool_call"_s, u"calculator"_s, true, {}});
        trace.finish(toolShield, TraceStatus::Ok, tick(10));
        trace.finish(tool, TraceStatus::Ok, tick(2000));
        trace.finish(first, TraceStatus::Ok, tick(10));
        const int second = trace.begin(root, TraceKind::Iteration, u"Iteration 2"_s, tick(10),
                                       IterationData{2, 10, false, true});
        const int secondCall = trace.begin(second, TraceKind::ModelCall, u"gpt-4o-mini"_s, tick(10),
                                           modelCall({user, calling, toolResult}, answerResponse));
        trace.finish(secondCall, TraceStatus::Ok, tick(1'200'000));
        const int output = trace.begin(second, TraceKind::ShieldCheck, u"regex"_s, tick(10),
                                       ShieldCheckData{u"regex"_s, u"output"_s, {}, true, {}});
        trace.finish(output, TraceStatus::Ok, tick(10));
        trace.finish(second, TraceStatus::Ok, tick(10));
        const int reflection = trace.begin(root, TraceKind::Reflection, u"Reflection"_s, tick(10),
                                           TextData{sentence(turn, u"a reflection"_s, 20)});
        trace.finish(reflection, TraceStatus::Skipped, tick(10));
        const int error = trace.begin(root, TraceKind::Error, u"Slow tool"_s, tick(10),
                                      ErrorData{u"The calculator took longer than usual."_s, u"slow_tool"_s});
        trace.finish(error, TraceStatus::Ok, tick(10));
        trace.finish(root, TraceStatus::Ok, tick(100));
    }
    transcript.trace = trace.toJson();
    return transcript;
}

struct Phases
{
    double readAndParseMs = 0; // TranscriptFile::load: read, check, parse, validate, read the trace
    double traceMs = 0;        // Trace::assign() of the trace read while loading
    double modelMs = 0;        // TraceModel on the loaded trace
};

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.at(values.size() / 2);
}

// One load, in a process of its own: prints its phases and peak memory as JSON.
int loadOnce(const QString &path)
{
    Phases phases;
    QElapsedTimer timer;
    timer.start();
    // As SessionDocument::open() does: the window needs the trace as a forest only.
    TranscriptLoadResult loaded = TranscriptFile::load(path, TranscriptFile::TraceForm::ForestOnly);
    phases.readAndParseMs = double(timer.nsecsElapsed()) / 1e6;
    if (!loaded.transcript) {
        QTextStream(stderr) << "loopscope-session-bench: " << loaded.error << Qt::endl;
        return 1;
    }
    // As ChatSession::restore() does: the trace was read and checked while loading.
    timer.restart();
    Trace trace;
    trace.assign(std::move(*loaded.trace));
    phases.traceMs = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    TraceModel model(&trace);
    if (model.rowCount() != trace.roots().size())
        return 1;
    phases.modelMs = double(timer.nsecsElapsed()) / 1e6;

    const QJsonObject result{{u"messages"_s, loaded.transcript->messages.size()},
                             {u"traceNodes"_s, trace.size()},
                             {u"readAndParseMs"_s, phases.readAndParseMs},
                             {u"traceMs"_s, phases.traceMs},
                             {u"modelMs"_s, phases.modelMs},
                             {u"peakRssMb"_s, peakRssMb()}};
    QTextStream(stdout) << QJsonDocument(result).toJson(QJsonDocument::Compact) << Qt::endl;
    return 0;
}

// Loads \a path in \a repeat fresh processes: each is what opening a session costs, and
// none inherits the memory of the others (or of the parent, which generated the session).
int measure(const QString &path, int repeat)
{
    QList<QJsonObject> runs;
    for (int i = 0; i < repeat; ++i) {
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        child.start(QCoreApplication::applicationFilePath(), {u"--load"_s, path});
        if (!child.waitForFinished(-1) || child.exitStatus() != QProcess::NormalExit || child.exitCode() != 0)
            return 1;
        runs.append(QJsonDocument::fromJson(child.readAllStandardOutput()).object());
    }
    const auto medianOf = [&runs](const QString &key) {
        QList<double> values;
        for (const QJsonObject &run : std::as_const(runs))
            values.append(run.value(key).toDouble());
        return median(values);
    };
    QList<double> totals;
    double peakMb = 0;
    for (const QJsonObject &run : std::as_const(runs)) {
        totals.append(run.value(u"readAndParseMs"_s).toDouble() + run.value(u"traceMs"_s).toDouble()
                      + run.value(u"modelMs"_s).toDouble());
        peakMb = std::max(peakMb, run.value(u"peakRssMb"_s).toDouble());
    }
    const double loadMs = median(totals);
    const QJsonObject result{
        {u"benchmark"_s, u"session-load"_s},
        {u"messages"_s, runs.constFirst().value(u"messages"_s)},
        {u"traceNodes"_s, runs.constFirst().value(u"traceNodes"_s)},
        {u"fileMb"_s, double(QFileInfo(path).size()) / (1024.0 * 1024.0)},
        {u"runs"_s, repeat},
        {u"loadMsMedian"_s, loadMs},
        {u"loadMsMin"_s, *std::min_element(totals.cbegin(), totals.cend())},
        {u"phasesMsMedian"_s, QJsonObject{{u"readAndParse"_s, medianOf(u"readAndParseMs"_s)},
                                          {u"trace"_s, medianOf(u"traceMs"_s)},
                                          {u"model"_s, medianOf(u"modelMs"_s)}}},
        {u"peakRssMbMax"_s, peakMb},
        {u"targetMs"_s, TargetMs},
        {u"targetRssMb"_s, TargetMb},
        {u"withinTargets"_s, loadMs < TargetMs && peakMb < TargetMb},
    };
    QTextStream(stdout) << QJsonDocument(result).toJson(QJsonDocument::Compact) << Qt::endl;
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Measures opening a saved session of 10,000 messages."_s);
    parser.addHelpOption();
    const QCommandLineOption turns(
        u"turns"_s,
        u"Turns to generate (4 messages, 12 trace nodes each); a comma-separated list measures each."_s,
        u"n[,n...]"_s, u"625,1250,2500"_s);
    const QCommandLineOption repeat(
        u"repeat"_s, u"Loads to measure, each in a fresh process; the median is reported."_s, u"n"_s, u"5"_s);
    const QCommandLineOption keep(u"keep"_s, u"Write the session to this file and keep it."_s, u"path"_s);
    const QCommandLineOption loadOnly(u"load"_s,
                                      u"Load this file once and print the numbers (what the benchmark "
                                      "runs itself with)."_s,
                                      u"path"_s);
    parser.addOptions({turns, repeat, keep, loadOnly});
    parser.process(app);

    if (parser.isSet(loadOnly))
        return loadOnce(parser.value(loadOnly));

    QList<int> sizes;
    for (const QString &size : parser.value(turns).split(u',', Qt::SkipEmptyParts))
        sizes.append(std::max(1, size.trimmed().toInt()));
    if (sizes.isEmpty())
        sizes.append(2500);
    std::sort(sizes.begin(), sizes.end());
    QTemporaryDir dir;
    for (const int size : std::as_const(sizes)) {
        // --keep keeps the largest, written last.
        const QString path = parser.isSet(keep) ? parser.value(keep) : dir.filePath(u"long.loopscope.json"_s);
        QString error;
        if (!TranscriptFile::save(generate(size), path, &error)) {
            QTextStream(stderr) << "loopscope-session-bench: " << error << Qt::endl;
            return 1;
        }
        if (const int failed = measure(path, std::max(1, parser.value(repeat).toInt())); failed != 0)
            return failed;
    }
    return 0;
}
