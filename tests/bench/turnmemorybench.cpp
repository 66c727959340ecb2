// loopscope-turn-memory-bench: what each finished turn keeps in the window.
// A MainWindow with everything real, as the app wires it (settings and the
// library in a throw-away folder, every turn autosaved, no keychain) talks to
// loopscope-bench-server (its chat-N model, streamed) started as a child
// process, so the server's memory is not counted. Each turn is what a soak of
// the app saw: a model call asking for the calculator, the call, and a model
// call that streams about --answer-bytes (1,600) of prose. After --warmup turns and after --turns
// turns the benchmark lets the window settle and prints the heap in use
// (malloc_info) and RSS, and the growth per turn between the two. One JSON line.
// Target (issue 24 item 13): ≤ 0.25 MB per turn.
//
//   cmake --build build/release --target loopscope-turn-memory-bench loopscope-bench-server
//   QT_QPA_PLATFORM=offscreen build/release/tests/bench/loopscope-turn-memory-bench --turns 50 --warmup 5

#include "tests/bench/benchsupport.h"
#include "tests/bench/spawnedserver.h"

#include "ui/chat/chatcomposer.h"
#include "ui/chat/chatview.h"
#include "ui/mainwindow.h"

#include "agent/config/appsettings.h"
#include "agent/config/providerprofile.h"
#include "agent/config/secretstore.h"
#include "agent/loop/agent.h"
#include "agent/playground/playgroundrun.h"
#include "agent/providers/connectiontester.h"
#include "agent/providers/ollamaprobe.h"
#include "agent/session/autosaver.h"
#include "agent/session/chatsession.h"
#include "agent/session/processheap.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "agent/trace/trace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace Qt::StringLiterals;
using namespace Loopscope;

namespace {

class NoSecrets final : public SecretStore
{
public:
    void read(const QString &, QObject *, ReadCallback done) override { done({}); }
    void write(const QString &, const QString &, QObject *, WriteCallback done) override { done({}); }
    void remove(const QString &, QObject *, WriteCallback done) override { done({}); }
};

// The heap's bytes in use in every malloc arena, the GUI thread's and the worker threads' (what
// RSS would be without fragmentation and freed pages kept): malloc_info()'s totals, the system's
// bytes less the free chunks, plus the large blocks malloc mapped on their own. (mallinfo2() counts
// the main arena only.)
double heapInUseMb()
{
#if defined(__GLIBC__)
    char *buffer = nullptr;
    size_t size = 0;
    FILE *stream = open_memstream(&buffer, &size);
    if (!stream)
        return -1;
    malloc_info(0, stream);
    fclose(stream);
    const QByteArray xml(buffer, qsizetype(size));
    free(buffer);
    // The totals follow the last arena's </heap>.
    const QByteArray totals = xml.mid(xml.lastIndexOf("</heap>"));
    const auto total = [&totals](const QByteArray &element) {
        const qsizetype at = totals.indexOf(element);
        if (at < 0)
            return 0.0;
        const qsizetype from = totals.indexOf("size=\"", at) + 6;
        return totals.mid(from, totals.indexOf('"', from) - from).toDouble();
    };
    const double bytes = total("<system type=\"current\"") - total("<total type=\"fast\"")
                         - total("<total type=\"rest\"") + total("<total type=\"mmap\"");
    return bytes / (1024.0 * 1024.0);
#else
    return -1;
#endif
}

} // namespace

int main(int argc, char *argv[])
{
    // As the app does (app/main.cpp); --arena-per-thread measures malloc's default for comparison.
    const bool arenaPerThread = std::any_of(
        argv + 1, argv + argc, [](const char *arg) { return std::strcmp(arg, "--arena-per-thread") == 0; });
    if (!arenaPerThread)
        ProcessHeap::keepOneArena();
    Bench::useOffscreenPlatform();
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"What each finished turn keeps in the window's memory."_s);
    parser.addHelpOption();
    const QCommandLineOption turnsOption(u"turns"_s, u"Turns in all (default 50)."_s, u"n"_s, u"50"_s);
    const QCommandLineOption warmupOption(u"warmup"_s, u"Turns before the first measurement (default 5)."_s,
                                          u"n"_s, u"5"_s);
    // For a heap profiler (heaptrack, massif): what the window holds at the end shows as leaked.
    const QCommandLineOption exitOption(u"exit-without-cleanup"_s,
                                        u"End with _Exit() after printing, freeing nothing."_s);
    const QCommandLineOption answerOption(u"answer-bytes"_s, u"Bytes of each turn's answer (default 1600)."_s,
                                          u"n"_s, u"1600"_s);
    parser.addOption(answerOption);
    parser.addOption(turnsOption);
    parser.addOption(warmupOption);
    parser.addOption(exitOption);
    parser.addOption(QCommandLineOption(
        u"arena-per-thread"_s, u"Leave malloc an arena per thread (its default; the app keeps one)."_s));
    parser.process(app);
    const int turns = parser.value(turnsOption).toInt();
    const int warmup = parser.value(warmupOption).toInt();
    const int answerBytes = parser.value(answerOption).toInt();
    if (turns < 1 || warmup < 0 || warmup >= turns || answerBytes < 1) {
        QTextStream(stderr) << "loopscope-turn-memory-bench: need 0 <= --warmup < --turns" << Qt::endl;
        return 2;
    }

    Bench::SpawnedServer server;
    QString error;
    const std::optional<quint16> port = server.start(&error);
    if (!port) {
        QTextStream(stderr) << "loopscope-turn-memory-bench: " << error << Qt::endl;
        return 1;
    }

    QTemporaryDir dir;
    QSettings settings(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
    ProviderProfileStore profiles(&settings);
    AppSettings appSettings(&settings);
    appSettings.setEnabledTools({u"calculator"_s});
    appSettings.setWorkspaceFolder(dir.path());
    NoSecrets secrets;
    QNetworkAccessManager network;
    ChatSession session(&network);
    SessionDocument document(&session);
    SessionLibrary library(dir.filePath(u"library"_s));
    // As the app does: every finished turn is written into the library.
    Autosaver autosaver(&session, library.folder());
    document.setAutosaver(&autosaver);
    autosaver.setLibrary(&library);
    library.refresh();
    OllamaProbe ollamaProbe(&network);
    ConnectionTester connectionTester(&network);
    const Ui::NetworkHelpers helpers{&ollamaProbe, &connectionTester, [&network, &secrets] {
                                         return new PlaygroundRun(&network, &secrets);
                                     }};
    Ui::MainWindow window(
        {&session, &profiles, &appSettings, &secrets, helpers, &settings, &document, &library});
    window.resize(1400, 900);
    window.show();
    ProviderProfile profile;
    profile.id = u"command-line"_s;
    profile.name = u"Bench"_s;
    profile.kind = ProviderKind::OpenAi;
    profile.baseUrl = QUrl(u"http://127.0.0.1:%1/v1"_s.arg(*port));
    profile.model = u"chat-%1"_s.arg(answerBytes);
    profile.apiKeyEnv = u"LOOPSCOPE_BENCH_KEY"_s;
    qputenv("LOOPSCOPE_BENCH_KEY", "sk-bench-0123456789");
    window.start(profile);
    Bench::settle(300);
    const double idleHeap = heapInUseMb();
    const double idleRss = Bench::rssMb();

    // The turn's autosave, and the library's rescan of the folder it wrote to, run on pool threads
    // and build and free the file's JSON: the heap is measured when both are done.
    const auto quiesce = [&] {
        const QDeadlineTimer deadline(30'000);
        do {
            Bench::settle(50);
        } while ((autosaver.isSaving() || library.isRefreshing()) && !deadline.hasExpired());
    };
    int done = 0;
    double heapAtWarmup = 0;
    double rssAtWarmup = 0;
    double anonAtWarmup = 0;
    qsizetype historyAtWarmup = 0;
    const qint64 startedNs = Bench::nowNs();
    while (done < turns) {
        const qsizetype before = session.agent()->history().size();
        window.composer()->setText(u"Question %1: what is %1 times 17 plus 3?"_s.arg(done + 1));
        window.composer()->send();
        // A turn adds the question, the call, its result and the answer.
        const QDeadlineTimer deadline(30'000);
        while ((session.isBusy() || session.agent()->history().size() < before + 4) && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        quiesce();
        if (deadline.hasExpired()) {
            QTextStream(stderr) << "loopscope-turn-memory-bench: turn " << done + 1 << " did not finish"
                                << Qt::endl;
            return 1;
        }
        ++done;
        if (done == warmup) {
            Bench::settle(300);
            quiesce();
            heapAtWarmup = heapInUseMb();
            rssAtWarmup = Bench::rssMb();
            anonAtWarmup = Bench::statusMb("RssAnon:");
            historyAtWarmup = session.agent()->history().size();
        }
    }
    Bench::settle(300);
    quiesce();
    const double heapAtEnd = heapInUseMb();
    const double rssAtEnd = Bench::rssMb();
    const double anonAtEnd = Bench::statusMb("RssAnon:");
    const int measured = turns - warmup;
    const auto perTurn = [measured](double mb) {
        return std::round(mb / measured * 1000.0) / 1000.0;
    };

    qsizetype conversationBytes = 0;
    for (const Message &message : session.agent()->history())
        conversationBytes += message.text.toUtf8().size();

    const QJsonObject result{
        {u"turns"_s, turns},
        {u"arenas"_s, arenaPerThread ? u"per thread"_s : u"one"_s},
        {u"warmup"_s, warmup},
        {u"messages"_s, session.agent()->history().size()},
        {u"messages_after_warmup"_s, historyAtWarmup},
        {u"trace_nodes"_s, session.trace()->size()},
        {u"chat_items"_s, window.chatView()->itemCount()},
        {u"conversation_kb"_s, Bench::round(conversationBytes / 1024.0)},
        {u"autosaved_kb"_s, Bench::round(QFileInfo(autosaver.currentPath()).size() / 1024.0)},
        {u"seconds"_s, Bench::round((Bench::nowNs() - startedNs) / 1e9)},
        {u"heap_idle_mb"_s, Bench::round(idleHeap)},
        {u"heap_warm_mb"_s, Bench::round(heapAtWarmup)},
        {u"heap_end_mb"_s, Bench::round(heapAtEnd)},
        {u"heap_mb_per_turn"_s, perTurn(heapAtEnd - heapAtWarmup)},
        {u"rss_idle_mb"_s, Bench::round(idleRss)},
        {u"rss_warm_mb"_s, Bench::round(rssAtWarmup)},
        {u"rss_end_mb"_s, Bench::round(rssAtEnd)},
        {u"rss_anon_warm_mb"_s, Bench::round(anonAtWarmup)},
        {u"rss_anon_end_mb"_s, Bench::round(anonAtEnd)},
        {u"rss_anon_mb_per_turn"_s, perTurn(anonAtEnd - anonAtWarmup)},
        {u"rss_mb_per_turn"_s, perTurn(rssAtEnd - rssAtWarmup)},
    };
    QTextStream(stdout) << QJsonDocument(result).toJson(QJsonDocument::Compact) << Qt::endl;
    if (parser.isSet(exitOption))
        std::_Exit(0);
    return 0;
}
