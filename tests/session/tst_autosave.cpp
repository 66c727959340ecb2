// Autosaver: in this process over a fake OpenAI-compatible server on
// 127.0.0.1, and in a child process (autosavechild) killed with SIGKILL in
// the middle of a turn.

#include "agent/session/autosaver.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "tests/support/fakehttpserver.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <memory>

#include <sys/resource.h>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

QJsonObject completion(const QString &text)
{
    return {{u"id"_s, u"chatcmpl-1"_s},
            {u"model"_s, u"test-model"_s},
            {u"choices"_s, QJsonArray{QJsonObject{
                               {u"index"_s, 0},
                               {u"message"_s, QJsonObject{{u"role"_s, u"assistant"_s}, {u"content"_s, text}}},
                               {u"finish_reason"_s, u"stop"_s}}}},
            {u"usage"_s, QJsonObject{{u"prompt_tokens"_s, 10}, {u"completion_tokens"_s, 2}}}};
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString canonical(const QString &path)
{
    return QFileInfo(path).canonicalFilePath();
}

// The child's answer to question \a turn (see autosavechild.cpp).
QString childAnswer(int turn)
{
    return u"Answer %1: the saved turn, whole."_s.arg(turn);
}

// While it lives, no file of this process may grow past 512 bytes (ulimit -f), as on
// a full disk; after it, what runs next writes freely, also when a check returned early.
class FullDisk final
{
public:
    FullDisk()
    {
        m_ok = ::getrlimit(RLIMIT_FSIZE, &m_before) == 0;
        m_oldHandler = ::signal(SIGXFSZ, SIG_IGN);
        rlimit tight = m_before;
        tight.rlim_cur = 512;
        m_ok = m_ok && ::setrlimit(RLIMIT_FSIZE, &tight) == 0;
    }
    ~FullDisk()
    {
        ::setrlimit(RLIMIT_FSIZE, &m_before);
        ::signal(SIGXFSZ, m_oldHandler);
    }
    FullDisk(const FullDisk &) = delete;
    FullDisk &operator=(const FullDisk &) = delete;
    bool isFull() const { return m_ok; }

private:
    rlimit m_before{};
    sighandler_t m_oldHandler = SIG_DFL;
    bool m_ok = false;
};

} // namespace

class AutosaveTest : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_folder = m_dir->filePath(u"sessions"_s);
        m_server = std::make_unique<FakeHttpServer>();
        QVERIFY(m_server->listen());
        m_server->setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            exchange.respondJson(200, completion(u"Re: "_s + messages.last()[u"content"_s].toString()));
        });
        m_network = std::make_unique<QNetworkAccessManager>();
        m_session = std::make_unique<ChatSession>(m_network.get());
        AgentConfig config;
        config.model.stream = false;
        SessionSetup setup = m_session->setup();
        setup.loop = config;
        m_session->apply(setup);
        ProviderProfile profile;
        profile.id = u"autosave-test"_s;
        profile.name = u"Local test"_s;
        profile.kind = ProviderKind::OpenAi;
        profile.baseUrl = m_server->baseUrl().resolved(QUrl(u"/v1"_s));
        profile.model = u"test-model"_s;
        m_session->apply(m_session->setup().withProvider(profile, u"sk-autosave-0123456789"_s));
    }

    void cleanup()
    {
        m_session.reset();
        m_network.reset();
        m_server.reset();
        m_dir.reset();
    }

    void eachFinishedTurnIsSavedToTheSameFileOfTheLibrary()
    {
        Autosaver autosaver(m_session.get(), m_folder);
        QSignalSpy saved(&autosaver, &Autosaver::saved);
        QSignalSpy failed(&autosaver, &Autosaver::failed);
        QCOMPARE(autosaver.currentPath(), QString());

        turn(u"first"_s);
        QTRY_COMPARE(saved.size(), 1);
        const QString path = autosaver.currentPath();
        QCOMPARE(saved.first().first().toString(), path);
        QCOMPARE(QFileInfo(path).absolutePath(), QDir(m_folder).absolutePath());
        static const QRegularExpression name(u"^\\d{8}-\\d{6}-[0-9a-f]{4}\\.loopscope\\.json$"_s);
        QVERIFY2(name.match(QFileInfo(path).fileName()).hasMatch(), qPrintable(path));
        QCOMPARE(load(path).messages, m_session->agent()->history());

        turn(u"second"_s);
        QTRY_COMPARE(saved.size(), 2);
        QCOMPARE(saved.last().first().toString(), path);
        const Transcript second = load(path);
        QCOMPARE(second.messages, m_session->agent()->history());
        QCOMPARE(second.messages.size(), 4);
        QCOMPARE(second.trace, m_session->trace()->toJson());
        QCOMPARE(second.title, u"first"_s);
        QCOMPARE(second.config.model.model, u"test-model"_s);
        QCOMPARE(QDir(m_folder).entryList(QDir::Files), QStringList{QFileInfo(path).fileName()});
        QCOMPARE(failed.size(), 0);
    }

    void whatWasWrittenIsWhatTheLibraryWouldListForTheFile()
    {
        Autosaver autosaver(m_session.get(), m_folder);
        QSignalSpy wrote(&autosaver, &Autosaver::wrote);
        turn(u"first"_s);
        turn(u"second"_s);
        QTRY_COMPARE(wrote.size(), 2);
        const auto written = wrote.last().at(0).value<SessionLibraryEntry>();
        const QFileInfo file(autosaver.currentPath());
        QCOMPARE(wrote.last().at(1).toDateTime(), file.lastModified().toUTC());

        SessionLibrary library(m_folder);
        QSignalSpy changed(&library, &SessionLibrary::entriesChanged);
        library.refresh();
        QVERIFY(changed.wait(10000));
        QCOMPARE(library.entries(), QList<SessionLibraryEntry>{written});
        QCOMPARE(written.turnCount, 2);
        QCOMPARE(written.title, u"first"_s);
        QCOMPARE(written.sizeBytes, file.size());
    }

    void aSessionDeletedWhileItsAutosaveIsWrittenStaysDeleted()
    {
        SessionLibrary library(m_folder);
        Autosaver autosaver(m_session.get(), m_folder);
        autosaver.setLibrary(&library);
        QSignalSpy saved(&autosaver, &Autosaver::saved);
        turn(u"first"_s);
        QTRY_COMPARE(saved.size(), 1);
        const QString path = autosaver.currentPath();

        // The next write waits in the pool until the file has been deleted.
        QThreadPool *pool = QThreadPool::globalInstance();
        const int threads = pool->maxThreadCount();
        pool->setMaxThreadCount(1);
        const auto restore = qScopeGuard([pool, threads] { pool->setMaxThreadCount(threads); });
        QSemaphore release;
        pool->start([&release] { release.acquire(); });
        turn(u"second"_s);
        QVERIFY(autosaver.isSaving());
        QString error;
        QVERIFY2(library.remove(path, &error), qPrintable(error));
        release.release();
        QTRY_VERIFY(!autosaver.isSaving());

        QVERIFY2(!QFile::exists(path), "the deleted session came back with its autosave");
        QCOMPARE(saved.size(), 1);
        QCOMPARE(autosaver.currentPath(), QString());
        // The conversation goes on in a file of its own.
        turn(u"third"_s);
        QTRY_COMPARE(saved.size(), 2);
        QVERIFY(autosaver.currentPath() != path);
        QVERIFY(!QFile::exists(path));
    }

    void aTurnThatFailedIsSavedToo()
    {
        m_server->setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(400, {{u"error"_s, QJsonObject{{u"message"_s, u"bad request"_s}}}});
        });
        Autosaver autosaver(m_session.get(), m_folder);
        QSignalSpy saved(&autosaver, &Autosaver::saved);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"will fail"_s));
        QTRY_COMPARE(saved.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Failed);
        const Transcript saved1 = load(autosaver.currentPath());
        QCOMPARE(saved1.messages.first(), Message::user(u"will fail"_s));
        QCOMPARE(saved1.trace, m_session->trace()->toJson());
    }

    void anEmptyConversationIsNotSaved()
    {
        Autosaver autosaver(m_session.get(), m_folder);
        QSignalSpy saved(&autosaver, &Autosaver::saved);
        autosaver.saveNow();
        QVERIFY(!autosaver.isSaving());
        QCOMPARE(autosaver.currentPath(), QString());
        QCOMPARE(saved.size(), 0);
    }

    void theConversationGoesToAnotherFileWhen_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<bool>("continuesInTheOpenedFile");
        QTest::newRow("it is cleared") << u"clear"_s << false;
        QTest::newRow("a transcript is restored without a file") << u"restore"_s << false;
        QTest::newRow("a file from another folder is opened") << u"open elsewhere"_s << false;
        QTest::newRow("a file of the library is opened: it goes on in it") << u"open library file"_s << true;
    }

    void theConversationGoesToAnotherFileWhen()
    {
        QFETCH(QString, change);
        QFETCH(bool, continuesInTheOpenedFile);
        Autosaver autosaver(m_session.get(), m_folder);
        QSignalSpy saved(&autosaver, &Autosaver::saved);
        turn(u"before"_s);
        QTRY_COMPARE(saved.size(), 1);
        const QString before = autosaver.currentPath();
        const QByteArray beforeBytes = readAll(before);

        QString opened;
        if (change == u"clear") {
            QVERIFY(m_session->clear());
        } else {
            Transcript other = m_session->toTranscript();
            other.title = u"Opened"_s;
            if (change == u"open elsewhere")
                opened = m_dir->filePath(u"elsewhere.loopscope.json"_s);
            else if (change == u"open library file")
                opened = QDir(m_folder).filePath(u"opened.loopscope.json"_s);
            if (!opened.isEmpty())
                QVERIFY(TranscriptFile::save(other, opened));
            QString error;
            QVERIFY2(m_session->restore(other, &error), qPrintable(error));
            if (!opened.isEmpty())
                autosaver.adoptOpenedFile(opened);
        }
        const QByteArray openedBytes = opened.isEmpty() ? QByteArray() : readAll(opened);

        turn(u"after"_s);
        QTRY_COMPARE(saved.size(), 2);
        const QString after = autosaver.currentPath();
        QCOMPARE(saved.last().first().toString(), after);
        QCOMPARE(readAll(before), beforeBytes);
        if (continuesInTheOpenedFile) {
            QCOMPARE(canonical(after), canonical(opened));
        } else {
            QVERIFY(after != before);
            QCOMPARE(QFileInfo(after).absolutePath(), QDir(m_folder).absolutePath());
            if (!opened.isEmpty())
                QCOMPARE(readAll(opened), openedBytes);
        }
        QCOMPARE(load(after).messages, m_session->agent()->history());
    }

    void anOlderSnapshotNeverOverwritesANewerOne()
    {
        Autosaver autosaver(m_session.get(), m_folder);
        QSignalSpy saved(&autosaver, &Autosaver::saved);
        turn(u"question"_s);
        QTRY_COMPARE(saved.size(), 1);

        // No event is handled in between: the first write runs, the others wait as one.
        for (int i = 1; i <= 20; ++i) {
            m_session->setTitle(u"Title %1"_s.arg(i));
            autosaver.saveNow();
        }
        QVERIFY(autosaver.isSaving());
        QTRY_VERIFY(!autosaver.isSaving());
        QCOMPARE(saved.size(), 3);
        QCOMPARE(load(autosaver.currentPath()).title, u"Title 20"_s);
    }

    void destroyingTheAutosaverWritesWhatIsStillWaiting()
    {
        auto autosaver = std::make_unique<Autosaver>(m_session.get(), m_folder);
        QSignalSpy saved(autosaver.get(), &Autosaver::saved);
        turn(u"question"_s);
        QTRY_COMPARE(saved.size(), 1);
        const QString path = autosaver->currentPath();

        m_session->setTitle(u"Running"_s);
        autosaver->saveNow();
        m_session->setTitle(u"Waiting"_s);
        autosaver->saveNow();
        autosaver.reset();
        QCOMPARE(load(path).title, u"Waiting"_s);
    }

    void aFolderThatCannotBeCreatedReportsWhy()
    {
        const QString file = m_dir->filePath(u"a-file"_s);
        QFile blocker(file);
        QVERIFY(blocker.open(QIODevice::WriteOnly));
        blocker.close();
        Autosaver autosaver(m_session.get(), file + u"/sessions"_s);
        QSignalSpy saved(&autosaver, &Autosaver::saved);
        QSignalSpy failed(&autosaver, &Autosaver::failed);
        turn(u"question"_s);
        QTRY_COMPARE(failed.size(), 1);
        QVERIFY2(failed.first().first().toString().contains(u"sessions"_s),
                 qPrintable(failed.first().first().toString()));
        QCOMPARE(saved.size(), 0);
        QVERIFY(!autosaver.isSaving());
    }

    void aFailedAutosaveLastsAndIsRetriedUntilASaveSucceeds()
    {
        // The library's folder cannot be made while a file stands where its parent should be.
        const QString blocker = m_dir->filePath(u"blocked"_s);
        QFile file(blocker);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        Autosaver autosaver(m_session.get(), blocker + u"/sessions"_s);
        autosaver.setRetryDelays(20, 80);
        QSignalSpy saved(&autosaver, &Autosaver::saved);
        QSignalSpy failed(&autosaver, &Autosaver::failed);
        QSignalSpy errorChanged(&autosaver, &Autosaver::errorChanged);

        turn(u"question"_s);
        QTRY_COMPARE(errorChanged.size(), 1);
        QVERIFY2(autosaver.error().contains(u"sessions"_s), qPrintable(autosaver.error()));
        QCOMPARE(autosaver.savedTurns(), 0);

        // Tried again on its own, backing off, and still failing: the state lasts.
        QTRY_VERIFY(failed.size() >= 3);
        QCOMPARE(errorChanged.size(), 1);
        QVERIFY(!autosaver.error().isEmpty());
        QCOMPARE(saved.size(), 0);

        // Once the folder can be written, a retry keeps the turn, with no new turn needed.
        QVERIFY(QFile::remove(blocker));
        QTRY_COMPARE(saved.size(), 1);
        QCOMPARE(autosaver.error(), QString());
        QCOMPARE(errorChanged.size(), 2);
        QCOMPARE(errorChanged.last().first().toString(), QString());
        QCOMPARE(autosaver.savedTurns(), 1);
        QCOMPARE(load(autosaver.currentPath()).messages, m_session->agent()->history());
    }

    void aFullDiskIsReportedInTheSystemsWords()
    {
        Autosaver autosaver(m_session.get(), m_folder);
        QSignalSpy failed(&autosaver, &Autosaver::failed);
        turn(u"question"_s);
        QTRY_COMPARE(autosaver.savedTurns(), 1);

        {
            const FullDisk full;
            QVERIFY(full.isFull());
            turn(u"another question"_s);
            QTRY_COMPARE(failed.size(), 1);
        }
        const QString error = autosaver.error();
        QVERIFY2(error.contains(QString::fromLocal8Bit(std::strerror(EFBIG))), qPrintable(error));
        QVERIFY2(!error.contains(u"Unknown error"_s), qPrintable(error));
        QCOMPARE(autosaver.savedTurns(), 1);
        QCOMPARE(load(autosaver.currentPath()).turnCount(), 1); // the file before the failure, whole
    }

    // The conversation is as long as the library's file, but its last turn is not the file's.
    void aReplacedTurnTheLibraryCouldNotWriteCountsAsUnsaved_data()
    {
        QTest::addColumn<bool>("edit");
        QTest::newRow("regenerated") << false;
        QTest::newRow("edited and sent again") << true;
    }
    void aReplacedTurnTheLibraryCouldNotWriteCountsAsUnsaved()
    {
        QFETCH(bool, edit);
        Autosaver autosaver(m_session.get(), m_folder);
        SessionDocument document(m_session.get());
        document.setAutosaver(&autosaver);
        QSignalSpy failed(&autosaver, &Autosaver::failed);
        turn(u"question"_s);
        QTRY_COMPARE(autosaver.savedTurns(), 1);
        QCOMPARE(document.unsavedTurns(), 0);

        {
            const FullDisk full;
            QVERIFY(full.isFull());
            QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
            QVERIFY(edit ? m_session->editLastAndResend(u"another question"_s) : m_session->regenerate());
            QTRY_COMPARE(finished.size(), 1);
            QTRY_COMPARE(failed.size(), 1);
        }
        QCOMPARE(autosaver.savedTurns(), 1);
        QCOMPARE(autosaver.unwrittenTurns(), 1);
        QCOMPARE(document.unsavedTurns(), 1);
    }

    void aKilledSessionKeepsEveryCompletedTurn_data()
    {
        QTest::addColumn<int>("completedTurns");
        QTest::newRow("killed in the second turn") << 1;
        QTest::newRow("killed in the third turn") << 2;
    }

    void aKilledSessionKeepsEveryCompletedTurn()
    {
        QFETCH(int, completedTurns);
        QProcess child;
        child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        QByteArray output;
        connect(&child, &QProcess::readyReadStandardOutput, this,
                [&output, &child] { output += child.readAllStandardOutput(); });
        child.start(QString::fromUtf8(AUTOSAVE_CHILD), {m_folder, QString::number(completedTurns)});
        QVERIFY2(child.waitForStarted(), qPrintable(child.errorString()));

        const QByteArray inNextTurn = "turn " + QByteArray::number(completedTurns + 1) + " started\n";
        QTRY_VERIFY2_WITH_TIMEOUT(output.contains(inNextTurn) || child.state() != QProcess::Running,
                                  output.constData(), 20000);
        QVERIFY2(child.state() == QProcess::Running, output.constData());
        child.kill();
        QVERIFY(child.waitForFinished(10000));
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        // "saved 1 <path>" ... "saved N <path>", then the turn that never ends.
        const QList<QByteArray> lines = output.trimmed().split('\n');
        QCOMPARE(lines.size(), completedTurns + 1);
        QCOMPARE(lines.constLast(), inNextTurn.trimmed());
        QString path;
        for (int i = 0; i < completedTurns; ++i) {
            const QByteArray prefix = "saved " + QByteArray::number(i + 1) + ' ';
            QVERIFY2(lines.at(i).startsWith(prefix), lines.at(i).constData());
            const QString savedPath = QString::fromUtf8(lines.at(i).mid(prefix.size()));
            QVERIFY(path.isEmpty() || savedPath == path);
            path = savedPath;
        }
        // What a kill in the middle of a write would leave: a torn temporary file.
        const QByteArray whole = readAll(path);
        QVERIFY(!whole.isEmpty());
        QFile torn(path + u".Xy12Zw"_s);
        QVERIFY(torn.open(QIODevice::WriteOnly));
        torn.write(whole.left(whole.size() / 2));
        torn.close();

        const Transcript transcript = load(path);
        QCOMPARE(transcript.turnCount(), completedTurns);
        QCOMPARE(transcript.messages.size(), 2 * completedTurns);
        Trace trace;
        QString error;
        QVERIFY2(trace.fromJson(transcript.trace, &error), qPrintable(error));
        QCOMPARE(trace.roots().size(), completedTurns);
        for (int i = 0; i < completedTurns; ++i) {
            const QString question = u"Question %1"_s.arg(i + 1);
            QCOMPARE(transcript.messages.at(2 * i), Message::user(question));
            QCOMPARE(transcript.messages.at(2 * i + 1).role, Message::Role::Assistant);
            QCOMPARE(transcript.messages.at(2 * i + 1).text, childAnswer(i + 1));
            const TraceNode &root = trace.node(trace.roots().at(i));
            QCOMPARE(root.kind, TraceKind::Turn);
            QCOMPARE(root.status, TraceStatus::Ok);
            QCOMPARE(root.data<TurnData>().input, question);
            QCOMPARE(root.data<TurnData>().output, childAnswer(i + 1));
            QCOMPARE(root.data<TurnData>().outcome, turnOutcomeName(TurnOutcome::Answered));
        }

        SessionLibrary library(m_folder);
        QSignalSpy listed(&library, &SessionLibrary::entriesChanged);
        library.refresh();
        QVERIFY(listed.wait(10000));
        const QList<SessionLibraryEntry> entries = library.entries();
        QCOMPARE(entries.size(), 1);
        QCOMPARE(canonical(entries.first().path), canonical(path));
        QVERIFY2(entries.first().isReadable(), qPrintable(entries.first().error));
        QCOMPARE(entries.first().turnCount, completedTurns);
    }

private:
    void turn(const QString &text)
    {
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(text));
        QTRY_COMPARE(finished.size(), 1);
    }

    static Transcript load(const QString &path)
    {
        const TranscriptLoadResult loaded = TranscriptFile::load(path);
        if (!loaded.transcript) {
            qWarning("%s: %s", qPrintable(path), qPrintable(loaded.error));
            return {};
        }
        return *loaded.transcript;
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_folder;
    std::unique_ptr<FakeHttpServer> m_server;
    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<ChatSession> m_session;
};

QTEST_GUILESS_MAIN(AutosaveTest)
#include "tst_autosave.moc"
