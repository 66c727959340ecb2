// loopscope-window-bench: opening a long saved session in the real window.
// A MainWindow with everything real (settings in a throw-away file, no
// keychain) opens --file through "Open", as a user does; the time runs
// until the session is opened, its title shown, its chat and trace filled in
// and the GUI thread has answered a timer again. A heartbeat records the
// longest time the GUI thread did not answer meanwhile. Prints one JSON line.
// Targets (issue 15): ≤ 0.5 s and ≤ 150 MB for 10,000 messages and 30,000
// trace nodes (the loader alone, measured by loopscope-session-bench: 0.25 s).
//
//   cmake --build build/release --target loopscope-window-bench loopscope-session-bench
//   build/release/tests/bench/loopscope-session-bench --turns 2500 --repeat 1 --keep /tmp/long.json
//   QT_QPA_PLATFORM=offscreen build/release/tests/bench/loopscope-window-bench --file /tmp/long.json

#include "tests/bench/benchsupport.h"

#include "ui/chat/chatview.h"
#include "ui/mainwindow.h"
#include "ui/session/sessionactions.h"
#include "ui/trace/traceinspector.h"

#include "agent/config/appsettings.h"
#include "agent/config/providerprofile.h"
#include "agent/config/secretstore.h"
#include "agent/loop/agent.h"
#include "agent/playground/playgroundrun.h"
#include "agent/providers/connectiontester.h"
#include "agent/providers/ollamaprobe.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "agent/trace/trace.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QSettings>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTreeView>

using namespace Qt::StringLiterals;
using namespace Loopscope;

namespace {

// The window asks for API keys; the benchmark has none to give.
class NoSecrets final : public SecretStore
{
public:
    void read(const QString &, QObject *, ReadCallback done) override { done({}); }
    void write(const QString &, const QString &, QObject *, WriteCallback done) override { done({}); }
    void remove(const QString &, QObject *, WriteCallback done) override { done({}); }
};

} // namespace

int main(int argc, char *argv[])
{
    Bench::useOffscreenPlatform();
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"How long the window takes to open a long session."_s);
    parser.addHelpOption();
    const QCommandLineOption sessionOption(
        u"file"_s, u"The session file to open (QApplication takes --session for itself)."_s, u"path"_s);
    parser.addOption(sessionOption);
    parser.process(app);
    const QString path = parser.value(sessionOption);
    if (path.isEmpty()) {
        QTextStream(stderr) << "loopscope-window-bench: --file is required" << Qt::endl;
        return 2;
    }

    QTemporaryDir dir;
    QSettings settings(dir.filePath(u"settings.ini"_s), QSettings::IniFormat);
    ProviderProfileStore profiles(&settings);
    AppSettings appSettings(&settings);
    NoSecrets secrets;
    QNetworkAccessManager network;
    ChatSession session(&network);
    SessionDocument document(&session);
    SessionLibrary library(dir.filePath(u"library"_s));
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
    profile.baseUrl = QUrl(u"http://127.0.0.1:9/v1"_s);
    profile.model = u"bench"_s;
    profile.apiKeyEnv = u"LOOPSCOPE_BENCH_KEY"_s;
    qputenv("LOOPSCOPE_BENCH_KEY", "sk-bench-0123456789");
    window.start(profile);
    Bench::settle(500);
    const double idleRss = Bench::rssMb();

    Bench::Heartbeat heartbeat;
    qint64 openedNs = 0;
    qint64 usableNs = 0;
    QString error;
    QObject::connect(&document, &SessionDocument::opened, &app, [&] {
        openedNs = Bench::nowNs();
        // The first beat after the window took in the session: it answers again.
        heartbeat.onNextBeat([&] {
            usableNs = Bench::nowNs();
            app.quit();
        });
    });
    QObject::connect(&document, &SessionDocument::openFailed, &app,
                     [&](const QString &, const QString &reason) {
                         error = reason;
                         app.quit();
                     });
    const Bench::Cpu before = Bench::cpu();
    heartbeat.start();
    const qint64 startedNs = Bench::nowNs();
    window.sessionActions()->openFile(path);
    app.exec();
    const Bench::Cpu after = Bench::cpu();
    const Bench::Heartbeat::Stalls stalls = heartbeat.stalls(startedNs, usableNs, 20'000'000);
    heartbeat.stop();
    if (!error.isEmpty()) {
        QTextStream(stderr) << "loopscope-window-bench: " << error << Qt::endl;
        return 1;
    }
    const double usableRss = Bench::rssMb();
    Bench::settle(500);

    const QJsonObject result{
        {u"messages"_s, session.agent()->history().size()},
        {u"trace_nodes"_s, session.trace()->size()},
        {u"chat_items"_s, window.chatView()->itemCount()},
        {u"title"_s, window.windowTitle()},
        {u"opened_ms"_s, Bench::round((openedNs - startedNs) / 1e6)},
        {u"usable_ms"_s, Bench::round((usableNs - startedNs) / 1e6)},
        {u"cpu_ms"_s, Bench::round(after.totalMs() - before.totalMs())},
        {u"longest_stall_ms"_s, Bench::round(stalls.longestNs / 1e6)},
        {u"longest_stall_cpu_ms"_s, Bench::round(stalls.longestCpuNs / 1e6)},
        {u"rss_idle_mb"_s, Bench::round(idleRss)},
        {u"rss_usable_mb"_s, Bench::round(usableRss)},
        {u"rss_settled_mb"_s, Bench::round(Bench::rssMb())},
        {u"peak_rss_mb"_s, Bench::round(Bench::peakRssMb())},
    };
    QTextStream(stdout) << QJsonDocument(result).toJson(QJsonDocument::Compact) << Qt::endl;
    return 0;
}
