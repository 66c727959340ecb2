// loopscope-parser-bench: what the stream parsers cost per byte when a stream arrives in the
// smallest pieces a network can deliver. Each size N (MB) is one SSE stream and one NDJSON stream
// whose first line is N MB long, followed by 20,000 short events, fed one byte at a time, as the
// slowest server would send them. A parser that rescans or copies its buffer per feed grows with
// the square of the line; a linear one keeps the time per MB flat as N doubles. Prints one JSON
// line per size and format, then the ratio of the largest to the smallest time per MB (about 1
// when linear).
//
//   cmake -S . -B build-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPSCOPE_BENCHMARKS=ON
//   cmake --build build-bench --target loopscope-parser-bench
//   build-bench/tests/bench/loopscope-parser-bench [--sizes 1,2,4,8]

#include "agent/providers/ndjsonparser.h"
#include "agent/wire/sseparser.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <algorithm>

using namespace Qt::StringLiterals;
using namespace Loopscope;

namespace {

constexpr int ShortEvents = 20000;

struct Measurement
{
    qsizetype bytes = 0;
    qsizetype items = 0;
    qint64 elapsedNs = 0;
};

QByteArray sseStream(qsizetype lineBytes)
{
    QByteArray stream = "data: "_ba + QByteArray(lineBytes, 'x') + "\n\n"_ba;
    for (int i = 0; i < ShortEvents; ++i)
        stream += "data: " + QByteArray::number(i) + "\n\n";
    return stream;
}

QByteArray ndjsonStream(qsizetype lineBytes)
{
    QByteArray stream = "{\"text\":\""_ba + QByteArray(lineBytes, 'x') + "\"}\n"_ba;
    for (int i = 0; i < ShortEvents; ++i)
        stream += "{\"i\":" + QByteArray::number(i) + "}\n";
    return stream;
}

// Feeds one byte at a time and takes what is ready every 4 KB, as a reply's readyRead would.
template<typename Parser, typename Take>
Measurement feedByteByByte(const QByteArray &stream, Parser &parser, Take take)
{
    Measurement result;
    result.bytes = stream.size();
    QElapsedTimer timer;
    timer.start();
    for (qsizetype i = 0; i < stream.size(); ++i) {
        parser.feed(QByteArrayView(stream).sliced(i, 1));
        if (i % 4096 == 0)
            result.items += take(parser);
    }
    result.items += take(parser);
    result.elapsedNs = timer.nsecsElapsed();
    return result;
}

double nsPerMegabyte(const Measurement &m)
{
    return double(m.elapsedNs) / (double(m.bytes) / (1024.0 * 1024.0));
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser options;
    options.setApplicationDescription(u"Stream parser cost per byte, fed one byte at a time"_s);
    options.addHelpOption();
    options.addOption(
        {u"sizes"_s, u"Lengths of the long line in MB, comma-separated."_s, u"list"_s, u"1,2,4,8"_s});
    options.process(app);

    QList<int> sizes;
    for (const QString &size : options.value(u"sizes"_s).split(u',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const int megabytes = size.toInt(&ok);
        if (!ok || megabytes <= 0 || megabytes > 512) {
            QTextStream(stderr) << "loopscope-parser-bench: --sizes takes whole MB from 1 to 512\n";
            return 2;
        }
        sizes.append(megabytes);
    }

    QTextStream out(stdout);
    for (const QString &format : {u"sse"_s, u"ndjson"_s}) {
        double fastest = 0;
        double slowest = 0;
        for (const int megabytes : std::as_const(sizes)) {
            const qsizetype lineBytes = qsizetype(megabytes) * 1024 * 1024;
            Measurement m;
            if (format == u"sse") {
                SseParser parser(lineBytes + 1024);
                m = feedByteByByte(sseStream(lineBytes), parser,
                                   [](SseParser &p) { return p.takeEvents().size(); });
            } else {
                NdjsonParser parser(lineBytes + 1024);
                m = feedByteByByte(ndjsonStream(lineBytes), parser,
                                   [](NdjsonParser &p) { return p.takeObjects().size(); });
            }
            if (m.items != ShortEvents + 1) {
                QTextStream(stderr) << "loopscope-parser-bench: " << format << " yielded " << m.items
                                    << " items, expected " << ShortEvents + 1 << '\n';
                return 1;
            }
            const double perMb = nsPerMegabyte(m);
            fastest = fastest == 0 ? perMb : std::min(fastest, perMb);
            slowest = std::max(slowest, perMb);
            const QJsonObject line{{u"format"_s, format},
                                   {u"lineMB"_s, megabytes},
                                   {u"streamBytes"_s, double(m.bytes)},
                                   {u"ms"_s, double(m.elapsedNs) / 1e6},
                                   {u"msPerMB"_s, perMb / 1e6}};
            out << QJsonDocument(line).toJson(QJsonDocument::Compact) << Qt::endl;
        }
        out << QJsonDocument(
                   QJsonObject{{u"format"_s, format}, {u"slowestOverFastestPerMB"_s, slowest / fastest}})
                   .toJson(QJsonDocument::Compact)
            << Qt::endl;
    }
    return 0;
}
