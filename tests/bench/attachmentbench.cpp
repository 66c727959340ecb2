// loopscope-attachment-bench: what a big image costs a long turn. The first
// message carries an image of --image-mb MB (a PNG of noise, so it does not
// compress: the file is as big as asked); the turn runs --iterations requests
// (tool rounds of one call, then the answer) against loopscope-bench-server,
// each request carrying the whole history and so the image. It reports the
// client's CPU per request, the saved session file's size (each image is kept
// once in a session, however many recorded requests carry it), the time to
// save and reopen it, and the process's peak RSS. --image-mb 0 gives the same
// turn without an image, to compare with.
//
//   cmake --preset release -DLOOPSCOPE_BENCHMARKS=ON
//   cmake --build build/release --target loopscope-attachment-bench loopscope-bench-server
//   build/release/tests/bench/loopscope-attachment-bench [--image-mb 5] [--iterations 20]

#include "agent/conversation/attachmentloader.h"
#include "agent/loop/agent.h"
#include "agent/providers/httpmodelclient.h"
#include "agent/providers/openaiprotocol.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "agent/transcript/transcript.h"
#include "tests/bench/benchsupport.h"
#include "tests/bench/spawnedserver.h"

#include <QBuffer>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTextStream>

#include <cmath>

using namespace Qt::StringLiterals;
using namespace Loopscope;
using namespace Loopscope::Bench;

namespace {

enum ExitCode { Success = 0, Failed = 1, BadUsage = 2 };

int fail(const QString &message)
{
    QTextStream(stderr) << "loopscope-attachment-bench: " << message << Qt::endl;
    return Failed;
}

// A PNG of noise of about \a bytes: noise does not compress, so the file is about its pixels' size.
QByteArray noisePng(qint64 bytes)
{
    const int side = std::max(1, int(std::sqrt(double(bytes) / 3.0)));
    QImage image(side, side, QImage::Format_RGB888);
    QRandomGenerator random(25); // the same image on every run
    for (int y = 0; y < side; ++y) {
        uchar *line = image.scanLine(y);
        for (int x = 0; x < side * 3; ++x)
            line[x] = uchar(random.bounded(256));
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG", 0); // fastest: the noise does not compress anyway
    return png;
}

// The tool the server's loop-K-1 model calls: it adds two integers.
std::shared_ptr<const Tool> addTool()
{
    const QJsonObject integer{{u"type"_s, u"integer"_s}};
    ToolSchema schema{u"add"_s,
                      u"Adds two integers."_s,
                      {{u"type"_s, u"object"_s},
                       {u"properties"_s, QJsonObject{{u"a"_s, integer}, {u"b"_s, integer}}},
                       {u"required"_s, QJsonArray{u"a"_s, u"b"_s}}}};
    return std::make_shared<FunctionTool>(std::move(schema), [](const QJsonObject &arguments, ToolContext &) {
        return ToolResult::success(
            QString::number(arguments.value(u"a"_s).toInteger() + arguments.value(u"b"_s).toInteger()));
    });
}

// Starts the kernel's peak RSS (VmHWM) over from the current RSS, so that a phase's peak is its own.
void resetPeakRss()
{
    QFile clearRefs(u"/proc/self/clear_refs"_s);
    if (clearRefs.open(QIODevice::WriteOnly))
        clearRefs.write("5");
}

QString fixed(double value, int decimals = 2)
{
    return QString::number(value, 'f', decimals);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"loopscope-attachment-bench"_s);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        u"Measures a turn whose first message carries a big image: CPU per request, the saved session "
        "file's size, peak RSS. The last line printed is one JSON object."_s);
    parser.addHelpOption();
    const QCommandLineOption imageMb(u"image-mb"_s, u"The image's size in MB (0: no image)."_s, u"MB"_s,
                                     u"5"_s);
    const QCommandLineOption iterationsOption(u"iterations"_s, u"Requests in the turn (2 or more)."_s, u"N"_s,
                                              u"20"_s);
    parser.addOptions({imageMb, iterationsOption});
    parser.process(app);
    bool ok = false;
    const double megabytes = parser.value(imageMb).toDouble(&ok);
    const int iterations = parser.value(iterationsOption).toInt(&ok) * int(ok);
    if (!ok || megabytes < 0 || megabytes > 19 || iterations < 2 || iterations > 1000) {
        QTextStream(stderr) << "loopscope-attachment-bench: --image-mb wants 0 to 19, --iterations 2 to 1000"
                            << Qt::endl;
        return BadUsage;
    }

    // The image is read before the turn, as the composer reads it when it is attached.
    QList<Attachment> attachments;
    if (megabytes > 0) {
        const AttachmentLoad load
            = AttachmentLoader::fromBytes(u"photo.png"_s, noisePng(qint64(megabytes * 1024 * 1024)));
        if (!load.ok())
            return fail(load.error);
        attachments.append(*load.attachment);
    }
    const qint64 imageBytes = attachments.isEmpty() ? 0 : attachments.constFirst().bytes.size();
    trimHeap(); // the generator's pixels are gone: the turn starts from the attachment alone
    const double rssBeforeTurn = rssMb();
    resetPeakRss();

    SpawnedServer server;
    QString error;
    const std::optional<quint16> port = server.start(&error);
    if (!port)
        return fail(error);

    QNetworkAccessManager network;
    ProviderEndpoint endpoint;
    endpoint.baseUrl = QUrl(u"http://127.0.0.1:%1/v1"_s.arg(*port));
    endpoint.apiKey = u"sk-bench-0123456789abcdefghijklmnopqrstuvwxyz"_s;
    endpoint.maxRetries = 0;
    HttpModelClient client(&network, std::make_unique<OpenAiProtocol>(), endpoint);
    Workbench workbench;
    workbench.add(addTool());
    Trace trace;
    Agent agent(&client, &workbench, &trace);
    AgentConfig config;
    // iterations - 1 tool rounds of one call, then the answer.
    config.model.model = u"loop-%1-1"_s.arg(iterations - 1);
    config.model.stream = true;
    config.maxIterations = iterations + 1;
    agent.setConfig(config);

    // The turn runs in the application's event loop; main() goes on once it has ended.
    QEventLoop turnLoop;
    TurnResult result;
    QObject::connect(&agent, &Agent::turnFinished, &turnLoop, [&result, &turnLoop](const TurnResult &ended) {
        result = ended;
        turnLoop.quit();
    });
    const Cpu before = cpu();
    const qint64 startNs = nowNs();
    if (!agent.send(u"What is in the picture? Call add as the rounds require first."_s, attachments))
        return fail(u"the turn did not start"_s);
    turnLoop.exec();
    const qint64 turnNs = nowNs() - startNs;
    const Cpu after = cpu();
    const Cpu turnCpu{after.userMs - before.userMs, after.systemMs - before.systemMs};
    const double turnPeak = peakRssMb();
    trimHeap();
    resetPeakRss();
    if (result.outcome != TurnOutcome::Answered || result.iterations != iterations)
        return fail(u"the turn ended as %1 after %2 iterations (%3)"_s.arg(turnOutcomeName(result.outcome))
                        .arg(result.iterations)
                        .arg(result.error));

    // Saved as the window saves a session, then opened again as it opens one.
    QTemporaryDir dir;
    const QString path = dir.filePath(u"session.json"_s);
    Transcript transcript;
    transcript.title = u"A big image"_s;
    transcript.created = QDateTime::currentDateTimeUtc();
    transcript.updated = transcript.created;
    transcript.providerKind = u"openai"_s;
    transcript.baseUrl = endpoint.baseUrl;
    transcript.config = config;
    transcript.messages = agent.history();
    qint64 mark = nowNs();
    transcript.trace = trace.toJson();
    if (!TranscriptFile::save(transcript, path, &error))
        return fail(error);
    const double saveMs = double(nowNs() - mark) / 1e6;
    const qint64 fileBytes = QFileInfo(path).size();
    transcript = {};
    const double savePeak = peakRssMb();
    trimHeap();
    resetPeakRss();
    mark = nowNs();
    const TranscriptLoadResult loaded = TranscriptFile::load(path, TranscriptFile::TraceForm::ForestOnly);
    const double loadMs = double(nowNs() - mark) / 1e6;
    const double reopenPeak = peakRssMb();
    if (!loaded.error.isEmpty())
        return fail(loaded.error);
    if (!attachments.isEmpty() && loaded.transcript->messages.constFirst().attachments != attachments)
        return fail(u"the reopened session's image is not the one sent"_s);

    const double cpuPerRequest = turnCpu.totalMs() / iterations;
    const double base64Mb = double((imageBytes + 2) / 3 * 4) / 1048576.0;
    QTextStream out(stdout);
    out << u"image %1 MB (%2 bytes), %3 requests: %4 ms CPU per request (user %5 + sys %6 ms in all), "
           "%7 ms wall per request"_s.arg(fixed(double(imageBytes) / 1048576.0), QString::number(imageBytes),
                                          QString::number(iterations), fixed(cpuPerRequest),
                                          fixed(turnCpu.userMs, 1), fixed(turnCpu.systemMs, 1),
                                          fixed(double(turnNs) / 1e6 / iterations))
        << Qt::endl;
    out << u"peak RSS %1 MB during the turn (%2 MB before it, the image read)"_s.arg(fixed(turnPeak, 1),
                                                                                     fixed(rssBeforeTurn, 1))
        << Qt::endl;
    out << u"session file %1 MB (%2 bytes; the image as base64 is %3 MB): saved in %4 ms (peak RSS %5 MB), "
           "reopened in %6 ms (peak RSS %7 MB)"_s.arg(
               fixed(double(fileBytes) / 1048576.0), QString::number(fileBytes), fixed(base64Mb),
               fixed(saveMs, 1), fixed(savePeak, 1), fixed(loadMs, 1), fixed(reopenPeak, 1))
        << Qt::endl;
    out << u"{\"benchmark\":\"attachment\",\"image_bytes\":%1,\"requests\":%2,\"cpu_ms_per_request\":%3,"
           "\"wall_ms_per_request\":%4,\"max_rss_mb\":%5,\"session_file_bytes\":%6,"_s.arg(
               QString::number(imageBytes), QString::number(iterations), fixed(cpuPerRequest, 3),
               fixed(double(turnNs) / 1e6 / iterations, 3), fixed(turnPeak, 1), QString::number(fileBytes))
               + u"\"save_ms\":%1,\"save_max_rss_mb\":%2,\"reopen_ms\":%3,\"reopen_max_rss_mb\":%4}"_s.arg(
                   fixed(saveMs, 1), fixed(savePeak, 1), fixed(loadMs, 1), fixed(reopenPeak, 1))
        << Qt::endl;
    return Success;
}
