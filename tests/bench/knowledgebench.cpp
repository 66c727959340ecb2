// loopscope-knowledge-bench: what a knowledge base costs at the sizes the README promises. Three modes:
//
//   --build DIR --chunks N [--dimensions 768]
//       writes an index of N synthetic passages (~600 characters of words, 100 per file) with a
//       deterministic vector each straight through KnowledgeIndex (no embeddings server), and prints
//       the time it took and the database's size;
//   --search DIR [--queries 20]
//       in a fresh process, so its peak RSS is the search's: opens the index and times BM25, vector
//       and hybrid top-10 searches (median and min of --queries), the raw dot-product loop over the
//       same vectors held in memory, and the peak RSS against the goal (1.3 x the vectors' bytes +
//       100 MB);
//   --embed [--chunks 1000]
//       embeds a lexical index of N passages through KnowledgeEmbedder against an in-process embeddings
//       server on 127.0.0.1 in each wire format, and prints the requests it took per 1,000 passages.
//
//   cmake --preset release -DBUILD_TESTING=ON -DLOOPSCOPE_BENCHMARKS=ON
//   cmake --build build/release --target loopscope loopscope-knowledge-bench
//   tests/bench/knowledge-bench.sh build/release      # all of it, each measurement 3 times
//
// Indexing a corpus of files as whole processes (and the Python baseline) is knowledge-bench.sh's job.

#include "agent/knowledge/knowledgeembedder.h"
#include "agent/knowledge/knowledgeindex.h"
#include "agent/knowledge/vectorsearch.h"
#include "tests/bench/benchsupport.h"
#include "tests/support/fakeembeddings.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

constexpr int PassagesPerFile = 100;
constexpr int TopK = 10;

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

// A vocabulary with a long tail, as prose has: a few words in most passages, most words in few.
QStringList vocabulary()
{
    static const QStringList words = [] {
        QStringList list;
        QRandomGenerator random(7);
        for (int i = 0; i < 20000; ++i) {
            QString word;
            const int length = 3 + int(random.bounded(8));
            for (int c = 0; c < length; ++c)
                word.append(QChar(u'a' + char16_t(random.bounded(26))));
            list.append(word);
        }
        return list;
    }();
    return words;
}

QString passageText(QRandomGenerator &random)
{
    const QStringList &words = vocabulary();
    QString text;
    while (text.size() < 600) {
        // Squaring a uniform number favours the first words: a Zipf-like spread.
        const double u = random.generateDouble();
        text += words.at(int(u * u * u * words.size())) + u' ';
    }
    return text;
}

Embedding randomVector(QRandomGenerator &random, int dimensions)
{
    Embedding vector(dimensions);
    for (float &value : vector)
        value = float(random.generateDouble() * 2.0 - 1.0);
    return vector;
}

int build(const QString &directory, int chunks, int dimensions)
{
    QDir().mkpath(directory);
    const QString path = directory + u"/bench.sqlite"_s;
    KnowledgeIndex::removeFiles(path);
    QString error;
    auto index = KnowledgeIndex::open(path, &error);
    if (!index) {
        out() << "cannot open: " << error << Qt::endl;
        return 1;
    }
    bool dropped = false;
    index->useEmbeddingModel(u"bench-768"_s, &dropped);
    QRandomGenerator random(42);
    const qint64 start = Bench::nowNs();
    for (int file = 0; file * PassagesPerFile < chunks; ++file) {
        QList<KnowledgeChunk> passages;
        for (int i = 0; i < PassagesPerFile && file * PassagesPerFile + i < chunks; ++i)
            passages.append({i * 10 + 1, i * 10 + 9, passageText(random), 0});
        const QString name = u"/corpus/file%1.md"_s.arg(file);
        if (!index->replaceFile(name, {0, 0, name.toUtf8()}, passages)) {
            out() << index->lastError() << Qt::endl;
            return 1;
        }
    }
    const qint64 lexical = Bench::nowNs();
    for (;;) {
        const QList<KnowledgePendingChunk> pending = index->chunksWithoutVectors(1000);
        if (pending.isEmpty())
            break;
        QList<std::pair<qint64, Embedding>> vectors;
        for (const KnowledgePendingChunk &chunk : pending)
            vectors.append({chunk.id, randomVector(random, dimensions)});
        if (!index->storeVectors(vectors)) {
            out() << index->lastError() << Qt::endl;
            return 1;
        }
    }
    index->finishRun({}, QDateTime::currentDateTimeUtc());
    const qint64 end = Bench::nowNs();
    out() << "built " << chunks << " passages x " << dimensions << " dimensions: passages "
          << Bench::round((lexical - start) / 1e9) << " s, vectors " << Bench::round((end - lexical) / 1e9)
          << " s; database " << Bench::round(index->status().bytes / 1048576.0) << " MB" << Qt::endl;
    return 0;
}

// Wall-clock and CPU time of the calling thread: on a shared machine the CPU time is what "one core"
// means; the wall-clock time includes waiting for a core.
struct Timing
{
    double minMs = 0;
    double medianMs = 0;
    double cpuMinMs = 0;
    double cpuMedianMs = 0;
};

Timing timed(int queries, const std::function<void(int)> &search)
{
    QList<double> ms;
    QList<double> cpuMs;
    for (int i = 0; i < queries; ++i) {
        const qint64 start = Bench::nowNs();
        const qint64 cpuStart = Bench::threadCpuNs();
        search(i);
        cpuMs.append((Bench::threadCpuNs() - cpuStart) / 1e6);
        ms.append((Bench::nowNs() - start) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    std::sort(cpuMs.begin(), cpuMs.end());
    return {Bench::round(ms.constFirst()), Bench::round(ms.at(ms.size() / 2)),
            Bench::round(cpuMs.constFirst()), Bench::round(cpuMs.at(cpuMs.size() / 2))};
}

void print(const char *what, const Timing &timing)
{
    out() << "  " << what << ": median " << timing.medianMs << " ms (CPU " << timing.cpuMedianMs << "), min "
          << timing.minMs << " ms (CPU " << timing.cpuMinMs << ")" << Qt::endl;
}

int search(const QString &directory, int queries)
{
    QString error;
    auto index = KnowledgeIndex::open(directory + u"/bench.sqlite"_s, &error);
    if (!index) {
        out() << "cannot open: " << error << Qt::endl;
        return 1;
    }
    const KnowledgeIndexStatus status = index->status();
    const int dimensions = index->embeddingDimensions();
    out() << "index of " << status.chunks << " passages, " << status.embeddedChunks << " vectors x "
          << dimensions << " dimensions, database " << Bench::round(status.bytes / 1048576.0) << " MB"
          << Qt::endl;
    QRandomGenerator random(99);
    QList<QString> questions;
    QList<Embedding> vectors;
    for (int i = 0; i < queries; ++i) {
        // Three words of the passages' vocabulary, as a short question has.
        const QStringList words = passageText(random).split(u' ', Qt::SkipEmptyParts).mid(0, 3);
        questions.append(words.join(u' '));
        vectors.append(randomVector(random, dimensions));
    }
    int found = 0;
    // The first search with a vector reads every vector from SQLite into memory (VectorCache); the
    // others use what it read, as a running app's searches do.
    print("first vector  ",
          timed(1, [&](int) { found += int(index->search(u"?"_s, TopK, vectors.at(0)).size()); }));
    print("BM25 top-10   ",
          timed(queries, [&](int i) { found += int(index->search(questions.at(i), TopK).size()); }));
    // A question of no searchable word: the vector ranking alone.
    print("vector top-10 ",
          timed(queries, [&](int i) { found += int(index->search(u"?"_s, TopK, vectors.at(i)).size()); }));
    print("hybrid top-10 ", timed(queries, [&](int i) {
              found += int(index->search(questions.at(i), TopK, vectors.at(i)).size());
          }));
    const double peakSearchMb = Bench::statusMb("VmHWM:");

    // The arithmetic alone, over the same number of vectors held contiguously in memory: what the loop
    // costs without SQLite and Qt SQL handing over each BLOB.
    std::vector<float> matrix(size_t(status.embeddedChunks) * size_t(dimensions));
    for (float &value : matrix)
        value = float(random.generateDouble() * 2.0 - 1.0);
    float sink = 0;
    print("dot loop only ", timed(queries, [&](int i) {
              const Embedding unit = VectorSearch::normalized(vectors.at(i));
              for (size_t row = 0; row < size_t(status.embeddedChunks); ++row)
                  sink += VectorSearch::dot(unit.constData(), matrix.data() + row * size_t(dimensions),
                                            dimensions);
          }));
    const double vectorMb = double(status.embeddedChunks) * dimensions * sizeof(float) / 1048576.0;
    out() << "  peak RSS of the searches " << Bench::round(peakSearchMb) << " MB; goal <= 1.3 x "
          << Bench::round(vectorMb) << " MB of vectors + 100 MB = " << Bench::round(1.3 * vectorMb + 100)
          << " MB" << (found > 0 && sink != 0 ? "" : " (no hits?)") << Qt::endl;
    return 0;
}

int embed(int chunks)
{
    const QList<std::pair<ProviderKind, const char *>> kinds{
        {ProviderKind::OpenAi, "OpenAI /v1/embeddings"},
        {ProviderKind::Ollama, "Ollama /api/embed"},
        {ProviderKind::Gemini, "Gemini batchEmbedContents"}};
    for (const auto &[kind, name] : kinds) {
        QTemporaryDir directory;
        const QString path = directory.filePath(u"embed.sqlite"_s);
        {
            QString error;
            auto index = KnowledgeIndex::open(path, &error);
            QRandomGenerator random(5);
            for (int file = 0; file * PassagesPerFile < chunks; ++file) {
                QList<KnowledgeChunk> passages;
                for (int i = 0; i < PassagesPerFile && file * PassagesPerFile + i < chunks; ++i)
                    passages.append({i + 1, i + 1, passageText(random), 0});
                const QString name = u"/f%1.md"_s.arg(file);
                if (!index || !index->replaceFile(name, {0, 0, name.toUtf8()}, passages)) {
                    out() << (index ? index->lastError() : error) << Qt::endl;
                    return 1;
                }
            }
        }
        FakeHttpServer server;
        server.listen();
        server.setHandler(Testing::embeddingsHandler(kind, [](const QString &text) {
            QList<float> vector(768, 0.0f);
            vector[qHash(text) % 768] = 1.0f;
            return vector;
        }));
        QNetworkAccessManager network;
        const QUrl baseUrl
            = kind == ProviderKind::OpenAi ? QUrl(server.baseUrl().toString() + u"/v1"_s) : server.baseUrl();
        KnowledgeEmbedder embedder(&network, {kind, baseUrl, u"bench-768"_s, u"key"_s}, path);
        QEventLoop loop;
        int embedded = -1;
        QObject::connect(&embedder, &KnowledgeEmbedder::finished, &loop, [&](int count) {
            embedded = count;
            loop.quit();
        });
        QObject::connect(&embedder, &KnowledgeEmbedder::failed, &loop, [&](const QString &message) {
            out() << name << " failed: " << message << Qt::endl;
            loop.quit();
        });
        const qint64 start = Bench::nowNs();
        embedder.start();
        loop.exec();
        out() << name << ": " << embedded << " passages in " << server.requests().size()
              << " requests = " << Bench::round(server.requests().size() * 1000.0 / chunks)
              << " per 1,000 passages (" << Bench::round((Bench::nowNs() - start) / 1e6)
              << " ms with the server in this process)" << Qt::endl;
    }
    return 0;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOptions({
        {u"build"_s, u"Write a synthetic index into the folder."_s, u"folder"_s},
        {u"search"_s, u"Time searches of the index in the folder."_s, u"folder"_s},
        {u"embed"_s, u"Count embeddings requests against a server in this process."_s},
        {u"chunks"_s, u"Passages to write or embed."_s, u"count"_s, u"10000"_s},
        {u"dimensions"_s, u"Each vector's dimensions."_s, u"count"_s, u"768"_s},
        {u"queries"_s, u"Searches of each kind."_s, u"count"_s, u"20"_s},
    });
    parser.process(app);
    const int chunks = parser.value(u"chunks"_s).toInt();
    if (parser.isSet(u"build"_s))
        return build(parser.value(u"build"_s), chunks, parser.value(u"dimensions"_s).toInt());
    if (parser.isSet(u"search"_s))
        return search(parser.value(u"search"_s), std::max(1, parser.value(u"queries"_s).toInt()));
    if (parser.isSet(u"embed"_s))
        return embed(parser.isSet(u"chunks"_s) ? chunks : 1000);
    parser.showHelp(1);
}
