// SessionLibrary over real files in a temporary folder.

#include "agent/session/filenamestem.h"
#include "agent/session/sessionlibrary.h"
#include "agent/transcript/transcript.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QDateTime base = QDateTime(QDate(2024, 5, 1), QTime(9, 0), Qt::UTC);

Transcript transcript(const QString &title, int minutesAfterBase, const QString &model,
                      const QList<Message> &messages)
{
    Transcript result;
    result.title = title;
    result.created = base;
    result.updated = base.addSecs(60LL * minutesAfterBase);
    result.providerKind = u"openai"_s;
    result.config.model.model = model;
    result.messages = messages;
    return result;
}

QList<Message> conversation(const QStringList &texts)
{
    QList<Message> messages;
    for (qsizetype i = 0; i < texts.size(); ++i)
        messages.append(i % 2 == 0 ? Message::user(texts.at(i)) : Message::assistant(texts.at(i)));
    return messages;
}

void writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY2(file.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(file.errorString()));
    QCOMPARE(file.write(bytes), bytes.size());
}

QStringList titlesOf(const QList<SessionLibraryEntry> &entries)
{
    QStringList titles;
    for (const SessionLibraryEntry &entry : entries)
        titles.append(entry.title);
    return titles;
}

QStringList titlesOf(const QList<SessionSearchHit> &hits)
{
    QStringList titles;
    for (const SessionSearchHit &hit : hits)
        titles.append(hit.title);
    return titles;
}

} // namespace

class SessionLibraryTest : public QObject
{
    Q_OBJECT

private slots:
    void aTitleBecomesAFileNameEverySystemAccepts_data()
    {
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("stem");
        QTest::newRow("plain") << u"Weather in Paris"_s << u"Weather in Paris"_s;
        QTest::newRow("path separators and colons")
            << u"src/main.cpp: why? *now*"_s << u"src-main.cpp- why- -now"_s;
        QTest::newRow("double dots") << u"../../etc/passwd"_s << u"etc-passwd"_s;
        QTest::newRow("quotes, pipes and angles") << u"a \"b\" <c> | d"_s << u"a -b- -c- - d"_s;
        QTest::newRow("newlines and tabs") << u"line one\n\tline two"_s << u"line one line two"_s;
        QTest::newRow("leading and trailing dots and spaces") << u" .hidden. "_s << u"hidden"_s;
        QTest::newRow("nothing usable") << u"///"_s << u"session"_s;
        QTest::newRow("empty") << QString() << u"session"_s;
        QTest::newRow("a Windows device name") << u"con"_s << u"_con"_s;
        QTest::newRow("COM1") << u"COM1"_s << u"_COM1"_s;
        QTest::newRow("long titles are cut at a word")
            << u"Plan the migration of every service to the new cluster before the end of the quarter"_s
            << u"Plan the migration of every service to the new cluster"_s;
        QTest::newRow("a surrogate pair is never split")
            << (QString(59, u'x') + u"\U0001F600"_s) << QString(59, u'x');
    }

    void aTitleBecomesAFileNameEverySystemAccepts()
    {
        QFETCH(QString, title);
        QFETCH(QString, stem);
        QCOMPARE(fileNameStem(title), stem);
        QVERIFY(fileNameStem(title).size() <= 60);
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void cleanup() { m_dir.reset(); }

    void entriesDescribeEachSessionNewestFirst()
    {
        save(u"pasta.loopscope.json"_s,
             transcript(u"Pasta"_s, 10, u"gpt-4o-mini"_s, conversation({u"a"_s, u"b"_s, u"c"_s, u"d"_s})));
        save(u"bread.loopscope.json"_s,
             transcript(u"Bread"_s, 30, u"llama3"_s, conversation({u"a"_s, u"b"_s})));
        save(u"soup.loopscope.json"_s,
             transcript(u"Soup"_s, 20, u"claude"_s, conversation({u"a"_s, u"b"_s, u"c"_s})));

        SessionLibrary library(m_dir->path());
        const QList<SessionLibraryEntry> entries = refreshed(library);
        QCOMPARE(titlesOf(entries), (QStringList{u"Bread"_s, u"Soup"_s, u"Pasta"_s}));
        const SessionLibraryEntry &soup = entries.at(1);
        QCOMPARE(soup.path, m_dir->filePath(u"soup.loopscope.json"_s));
        QCOMPARE(soup.model, u"claude"_s);
        QCOMPARE(soup.turnCount, 2);
        QCOMPARE(soup.updated, base.addSecs(20 * 60));
        QCOMPARE(soup.sizeBytes, QFileInfo(soup.path).size());
        QVERIFY(soup.isReadable());
        QCOMPARE(entries.at(2).turnCount, 2);
        QCOMPARE(entries.at(0).turnCount, 1);
    }

    void anUnreadableFileIsListedWithItsError_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("not JSON") << "this is not json"_ba;
        QTest::newRow("an empty file") << QByteArray();
        QTest::newRow("JSON that is not a transcript") << "{\"hello\": [1, 2, 3]}"_ba;
        const QByteArray whole = TranscriptFile::serialize(
            transcript(u"Cut"_s, 2, u"m"_s, conversation({u"question"_s, u"answer"_s})));
        QTest::newRow("a transcript cut in the middle") << whole.left(whole.size() / 2);
    }

    void anUnreadableFileIsListedWithItsError()
    {
        QFETCH(QByteArray, bytes);
        save(u"good.loopscope.json"_s, transcript(u"Good"_s, 1, u"m"_s, conversation({u"q"_s, u"a"_s})));
        const QString brokenPath = m_dir->filePath(u"broken.loopscope.json"_s);
        writeBytes(brokenPath, bytes);

        SessionLibrary library(m_dir->path());
        const QList<SessionLibraryEntry> entries = refreshed(library);
        QCOMPARE(entries.size(), 2);
        const auto broken = std::find_if(entries.cbegin(), entries.cend(),
                                         [&](const SessionLibraryEntry &e) { return e.path == brokenPath; });
        QVERIFY(broken != entries.cend());
        QVERIFY(!broken->isReadable());
        QVERIFY(!broken->error.isEmpty());
        QCOMPARE(broken->sizeBytes, bytes.size());
        QVERIFY(broken->updated.isValid());
        QCOMPARE(broken->turnCount, 0);
    }

    void onlySessionFilesAreListed()
    {
        save(u"kept.loopscope.json"_s, transcript(u"Kept"_s, 1, u"m"_s, conversation({u"q"_s, u"a"_s})));
        // What a write cut short by a kill leaves behind, and things that are not sessions.
        writeBytes(m_dir->filePath(u"kept.loopscope.json.Ab12Cd"_s), "{\"title\": \"tr"_ba);
        writeBytes(m_dir->filePath(u"notes.txt"_s), "notes"_ba);
        writeBytes(m_dir->filePath(u".loopscope.json"_s), "{}"_ba);
        QVERIFY(QDir(m_dir->path()).mkdir(u"folder.loopscope.json"_s));

        SessionLibrary library(m_dir->path());
        const QList<SessionLibraryEntry> entries = refreshed(library);
        QCOMPARE(titlesOf(entries), QStringList{u"Kept"_s});
        QVERIFY(entries.first().isReadable());
    }

    void aRefreshSeesFilesAddedChangedAndRemoved()
    {
        save(u"one.loopscope.json"_s, transcript(u"One"_s, 1, u"m"_s, conversation({u"q"_s, u"a"_s})));
        save(u"two.loopscope.json"_s, transcript(u"Two"_s, 2, u"m"_s, conversation({u"q"_s, u"a"_s})));
        SessionLibrary library(m_dir->path());
        QCOMPARE(titlesOf(refreshed(library)), (QStringList{u"Two"_s, u"One"_s}));

        save(u"one.loopscope.json"_s,
             transcript(u"One, renamed"_s, 3, u"m"_s, conversation({u"q"_s, u"a"_s, u"q2"_s, u"a2"_s})));
        QVERIFY(QFile::remove(m_dir->filePath(u"two.loopscope.json"_s)));
        save(u"three.loopscope.json"_s, transcript(u"Three"_s, 0, u"m"_s, conversation({u"q"_s})));
        const QList<SessionLibraryEntry> entries = refreshed(library);
        QCOMPARE(titlesOf(entries), (QStringList{u"One, renamed"_s, u"Three"_s}));
        QCOMPARE(entries.first().turnCount, 2);
    }

    void aFileTheAppWroteIsListedAsWrittenUntilSomeoneChangesIt()
    {
        save(u"mine.loopscope.json"_s, transcript(u"On disk"_s, 1, u"m"_s, conversation({u"q"_s, u"a"_s})));
        const QFileInfo file(m_dir->filePath(u"mine.loopscope.json"_s));
        SessionLibrary library(m_dir->path());
        QCOMPARE(titlesOf(refreshed(library)), QStringList{u"On disk"_s});

        // What the app wrote is what it lists; the file is not read back after every turn.
        SessionLibraryEntry written
            = SessionLibrary::entryOf(file, transcript(u"As written"_s, 2, u"m"_s, {}));
        library.noteWritten(written, file.lastModified());
        QCOMPARE(titlesOf(refreshed(library)), QStringList{u"As written"_s});

        // Written again by anyone else (another size, another time): read again.
        save(u"mine.loopscope.json"_s,
             transcript(u"Changed elsewhere"_s, 3, u"m"_s, conversation({u"q"_s, u"a"_s, u"q2"_s})));
        QCOMPARE(titlesOf(refreshed(library)), QStringList{u"Changed elsewhere"_s});

        // A file outside the library, or an unreadable one, is never noted.
        written.path = QDir::temp().filePath(u"elsewhere.loopscope.json"_s);
        library.noteWritten(written, file.lastModified());
        QCOMPARE(titlesOf(refreshed(library)), QStringList{u"Changed elsewhere"_s});
    }

    void filesWrittenIntoTheFolderShowUpWithoutAsking()
    {
        SessionLibrary library(m_dir->path());
        QCOMPARE(refreshed(library).size(), 0);
        save(u"later.loopscope.json"_s, transcript(u"Later"_s, 1, u"m"_s, conversation({u"q"_s, u"a"_s})));
        QTRY_COMPARE(titlesOf(library.entries()), QStringList{u"Later"_s});
    }

    void searchFindsTheSessionsWhoseMessagesContainTheText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("titles");
        QTest::addColumn<QList<int>>("messageIndexes");

        QTest::newRow("a word in one answer") << u"basil"_s << QStringList{u"Pasta"_s} << QList<int>{1};
        QTest::newRow("whatever the case") << u"BASIL"_s << QStringList{u"Pasta"_s} << QList<int>{1};
        QTest::newRow("in several sessions, newest first")
            << u"flour"_s << QStringList{u"Bread"_s, u"Pasta"_s} << QList<int>{0, 2};
        QTest::newRow("across words") << u"rise overnight"_s << QStringList{u"Bread"_s} << QList<int>{1};
        QTest::newRow("nowhere") << u"saffron"_s << QStringList{} << QList<int>{};
        QTest::newRow("nothing to look for") << QString() << QStringList{} << QList<int>{};
    }

    void searchFindsTheSessionsWhoseMessagesContainTheText()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, titles);
        QFETCH(QList<int>, messageIndexes);
        save(u"pasta.loopscope.json"_s,
             transcript(u"Pasta"_s, 10, u"m"_s,
                        conversation({u"How do I make pesto?"_s, u"Blend Basil, pine nuts and oil."_s,
                                      u"And fresh pasta, with which flour?"_s, u"Tipo 00."_s})));
        save(u"bread.loopscope.json"_s, transcript(u"Bread"_s, 20, u"m"_s,
                                                   conversation({u"Which flour for bread?"_s,
                                                                 u"Bread flour; let it rise overnight."_s})));
        // A title alone does not match: only what was said.
        save(u"soup.loopscope.json"_s,
             transcript(u"Basil soup"_s, 30, u"m"_s, conversation({u"Tomato soup?"_s, u"Yes."_s})));
        writeBytes(m_dir->filePath(u"broken.loopscope.json"_s), "basil flour"_ba);

        SessionLibrary library(m_dir->path());
        QSignalSpy finished(&library, &SessionLibrary::searchFinished);
        library.search(text);
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().at(0).toString(), text);
        const auto hits = finished.first().at(1).value<QList<SessionSearchHit>>();
        QCOMPARE(titlesOf(hits), titles);
        for (qsizetype i = 0; i < hits.size(); ++i) {
            QCOMPARE(hits.at(i).messageIndex, messageIndexes.at(i));
            QVERIFY2(hits.at(i).snippet.contains(text, Qt::CaseInsensitive), qPrintable(hits.at(i).snippet));
            QVERIFY(hits.at(i).path.endsWith(SessionLibrary::fileSuffix()));
        }
    }

    // What a sub-agent was asked, found and answered lives only in the trace: the search finds it
    // there and points at the call that asked it; the agents themselves are found by name.
    void searchFindsWhatAgentsSaidBeyondTheMessages_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("messageIndex");
        QTest::addColumn<QString>("snippet");

        QTest::newRow("a sub-agent's task, in its part only")
            << u"when was invoice"_s << 4 << u"researcher › When was invoice 7 paid?"_s;
        QTest::newRow("an agent by name, where it was asked")
            << u"Researcher"_s << 4 << u"researcher › When was invoice 7 paid?"_s;
        QTest::newRow("an agent handed to, where the handoff is")
            << u"billing"_s << 2 << u"Handed off to billing."_s;
        QTest::newRow("what the messages say comes first")
            << u"3 May"_s << 4 << u"Invoice 7 was paid on 3 May."_s;
        QTest::newRow("nowhere") << u"refund"_s << -1 << QString();
    }

    void searchFindsWhatAgentsSaidBeyondTheMessages()
    {
        QFETCH(QString, text);
        QFETCH(int, messageIndex);
        QFETCH(QString, snippet);
        QVERIFY(QFile::copy(QFINDTESTDATA("../replay/fixtures/handoff-subagent.loopscope.json"),
                            m_dir->filePath(u"invoices.loopscope.json"_s)));

        SessionLibrary library(m_dir->path());
        QSignalSpy finished(&library, &SessionLibrary::searchFinished);
        library.search(text);
        QTRY_COMPARE(finished.size(), 1);
        const auto hits = finished.first().at(1).value<QList<SessionSearchHit>>();
        QCOMPARE(hits.size(), messageIndex < 0 ? 0 : 1);
        if (hits.isEmpty())
            return;
        QCOMPARE(hits.constFirst().messageIndex, messageIndex);
        QCOMPARE(hits.constFirst().snippet, snippet);
    }

    void aSnippetIsTheTextAroundTheMatchOnOneLine()
    {
        const QString before = QString(200, u'a') + u"\n\nline two "_s;
        const QString after = u" and then\n"_s + QString(200, u'z');
        save(u"long.loopscope.json"_s,
             transcript(u"Long"_s, 1, u"m"_s, conversation({u"q"_s, before + u"NEEDLE"_s + after})));

        SessionLibrary library(m_dir->path());
        QSignalSpy finished(&library, &SessionLibrary::searchFinished);
        library.search(u"needle"_s);
        QTRY_COMPARE(finished.size(), 1);
        const auto hits = finished.first().at(1).value<QList<SessionSearchHit>>();
        QCOMPARE(hits.size(), 1);
        const QString snippet = hits.first().snippet;
        QVERIFY2(snippet.startsWith(u'…') && snippet.endsWith(u'…'), qPrintable(snippet));
        QVERIFY2(snippet.contains(u"line two NEEDLE and then"_s), qPrintable(snippet));
        QVERIFY(!snippet.contains(u'\n'));
        QVERIFY2(snippet.size() < 160, qPrintable(snippet));
    }

    void aNewerSearchSupersedesAnOlderOne()
    {
        // Enough files that the first search is still reading when the second starts.
        for (int i = 0; i < 150; ++i) {
            save(u"s%1.loopscope.json"_s.arg(i),
                 transcript(u"Session %1"_s.arg(i), i, u"m"_s,
                            conversation({u"alpha question %1"_s.arg(i), QString(2000, u'x') + u" beta"_s})));
        }
        SessionLibrary library(m_dir->path());
        QSignalSpy finished(&library, &SessionLibrary::searchFinished);
        library.search(u"alpha"_s);
        library.search(u"gamma"_s);
        library.search(u"beta"_s);
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().at(0).toString(), u"beta"_s);
        QCOMPARE(finished.first().at(1).value<QList<SessionSearchHit>>().size(), 150);
        // The superseded searches never report, not even late.
        QTest::qWait(300);
        QCOMPARE(finished.size(), 1);
    }

    void removeDeletesOnlySessionsOfTheLibrary()
    {
        save(u"one.loopscope.json"_s, transcript(u"One"_s, 1, u"m"_s, conversation({u"q"_s, u"a"_s})));
        save(u"two.loopscope.json"_s, transcript(u"Two"_s, 2, u"m"_s, conversation({u"q"_s, u"a"_s})));
        QTemporaryDir elsewhere;
        QVERIFY(elsewhere.isValid());
        const QString outside = elsewhere.filePath(u"other.loopscope.json"_s);
        writeBytes(outside, "{}"_ba);
        const QString notes = m_dir->filePath(u"notes.txt"_s);
        writeBytes(notes, "notes"_ba);

        SessionLibrary library(m_dir->path());
        refreshed(library);
        QSignalSpy changed(&library, &SessionLibrary::entriesChanged);
        QString error;
        QVERIFY(!library.remove(outside, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(QFile::exists(outside));
        QVERIFY(!library.remove(notes));
        QVERIFY(QFile::exists(notes));
        QVERIFY(!library.remove(m_dir->filePath(u"../"_s + QFileInfo(outside).fileName())));
        QCOMPARE(changed.size(), 0);

        const QString one = m_dir->filePath(u"one.loopscope.json"_s);
        QVERIFY(library.remove(one, &error));
        QVERIFY(!QFile::exists(one));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(titlesOf(library.entries()), QStringList{u"Two"_s});
        QVERIFY(!library.remove(one, &error));
        QVERIFY(!error.isEmpty());
    }

    void destroyingTheLibraryWhileItReadsIsSafe()
    {
        for (int i = 0; i < 100; ++i) {
            save(u"s%1.loopscope.json"_s.arg(i),
                 transcript(u"Session %1"_s.arg(i), i, u"m"_s, conversation({QString(5000, u'q'), u"a"_s})));
        }
        auto library = std::make_unique<SessionLibrary>(m_dir->path());
        QSignalSpy changed(library.get(), &SessionLibrary::entriesChanged);
        QSignalSpy finished(library.get(), &SessionLibrary::searchFinished);
        library->refresh();
        library->search(u"q"_s);
        QVERIFY(library->isRefreshing() || library->isSearching());
        library.reset();
        QCOMPARE(changed.size(), 0);
        QCOMPARE(finished.size(), 0);
    }

private:
    void save(const QString &name, const Transcript &value)
    {
        QString error;
        QVERIFY2(TranscriptFile::save(value, m_dir->filePath(name), &error), qPrintable(error));
    }

    static QList<SessionLibraryEntry> refreshed(SessionLibrary &library)
    {
        QSignalSpy changed(&library, &SessionLibrary::entriesChanged);
        library.refresh();
        if (!changed.wait(10000))
            qWarning("The library did not report its entries");
        return library.entries();
    }

    std::unique_ptr<QTemporaryDir> m_dir;
};

QTEST_GUILESS_MAIN(SessionLibraryTest)
#include "tst_sessionlibrary.moc"
