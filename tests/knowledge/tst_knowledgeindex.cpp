#include "agent/knowledge/knowledgeindex.h"
#include "agent/knowledge/knowledgeindexer.h"
#include "agent/knowledge/knowledgelibrary.h"

#include "tests/support/testfiles.h"
#include "tests/support/testpdf.h"

#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonObject>
#include <QLockFile>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using Loopscope::Testing::writeFile;

namespace {

// Moves a file's modification time, as an editor saving it a little later would.
bool setModified(const QString &path, const QDateTime &when)
{
    QFile file(path);
    return file.open(QIODevice::ReadWrite) && file.setFileTime(when, QFileDevice::FileModificationTime);
}

QStringList pathsOf(const QList<KnowledgeHit> &hits)
{
    QStringList paths;
    for (const KnowledgeHit &hit : hits)
        paths.append(QFileInfo(hit.path).fileName());
    return paths;
}

QStringList pathsOf(const QList<KnowledgeSkippedFile> &skipped)
{
    QStringList paths;
    for (const KnowledgeSkippedFile &file : skipped)
        paths.append(QFileInfo(file.path).fileName());
    return paths;
}

} // namespace

/*
    A knowledge base over a temporary folder "docs" with three documents; the
    index lives in a second temporary folder, as the app's data folder.
*/
class TestKnowledgeIndex final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_docs;
    QTemporaryDir m_data;
    KnowledgeBaseDefinition m_base;
    QString m_database;

    QString doc(const QString &name) const { return m_docs.filePath(name); }

    std::unique_ptr<KnowledgeIndex> openIndex()
    {
        QString error;
        auto index = KnowledgeIndex::open(m_database, &error);
        if (!index)
            qWarning() << error;
        return index;
    }

    QList<KnowledgeHit> search(const QString &question, int topK = 10)
    {
        auto index = openIndex();
        return index ? index->search(question, topK) : QList<KnowledgeHit>{};
    }

private slots:
    void init()
    {
        m_docs.~QTemporaryDir();
        new (&m_docs) QTemporaryDir();
        m_data.~QTemporaryDir();
        new (&m_data) QTemporaryDir();
        QVERIFY(writeFile(doc(u"network.md"_s),
                          "# Network\n\nLoopscope reaches the provider directly.\n\n"
                          "## Proxy\n\nSet HTTPS_PROXY to route requests through a proxy server.\n"));
        QVERIFY(writeFile(doc(u"kitchen/pasta.txt"_s), "Boil the pasta in salted water for nine minutes.\n"));
        QVERIFY(writeFile(doc(u"kitchen/menu.html"_s),
                          "<html><body><h1>Menu</h1><p>Tomato soup &amp; bread.</p></body></html>"));
        QVERIFY(writeFile(doc(u".hidden/secret.md"_s), "proxy password hunter2\n"));
        m_base = {u"docs"_s, {m_docs.path()}};
        m_database = m_data.filePath(u"docs.sqlite"_s);
    }

    void indexingFindsEveryDocumentAndSkipsHiddenFolders()
    {
        const KnowledgeIndexReport report = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(report.errors, QStringList());
        QCOMPARE(report.filesSeen, 3);
        QCOMPARE(report.filesIndexed, 3);
        QVERIFY(report.chunksWritten >= 4);
        const KnowledgeIndexStatus status = openIndex()->status();
        QCOMPARE(status.files, 3);
        QCOMPARE(status.chunks, report.chunksWritten);
        QVERIFY(status.bytes > 0);
        QVERIFY(status.lastIndexed.isValid());
        QVERIFY(search(u"hunter2"_s).isEmpty());
    }

    void aQuestionFindsThePassagesSharingSomeOfItsWordsBestFirst()
    {
        KnowledgeIndexer().run(m_base, m_database);
        // "configure" and "behind" are in no document: an AND of the words would find nothing.
        const auto hits = search(u"How do I configure Loopscope behind a proxy server?"_s);
        QVERIFY(!hits.isEmpty());
        QCOMPARE(pathsOf(hits), (QStringList{u"network.md"_s, u"network.md"_s}));
        const KnowledgeHit &best = hits.first();
        QCOMPARE(best.path, doc(u"network.md"_s));
        QCOMPARE(best.startLine, 5);
        QCOMPARE(best.endLine, 7);
        QCOMPARE(best.text, u"## Proxy\n\nSet HTTPS_PROXY to route requests through a proxy server."_s);
        QVERIFY(best.bm25 > hits[1].bm25);
        QVERIFY(best.bm25 > 0);
    }

    void stemmingMatchesOtherFormsOfAWord()
    {
        KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(pathsOf(search(u"boiling"_s)), QStringList{u"pasta.txt"_s});
    }

    void htmlIsSearchedAsItsText()
    {
        KnowledgeIndexer().run(m_base, m_database);
        const auto hits = search(u"soup"_s);
        QCOMPARE(pathsOf(hits), QStringList{u"menu.html"_s});
        QVERIFY2(!hits.first().text.contains(u"<p>"_s), qPrintable(hits.first().text));
        QVERIFY(hits.first().text.contains(u"Tomato soup & bread."_s));
    }

    void topKLimitsTheHits()
    {
        KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(search(u"proxy provider pasta soup"_s, 2).size(), 2);
        QCOMPARE(search(u"proxy provider pasta soup"_s, 0).size(), 0);
    }

    void fts5SyntaxInAQuestionIsSearchedAsPlainWords_data()
    {
        QTest::addColumn<QString>("question");
        QTest::newRow("a lone double quote") << u"\"proxy"_s;
        QTest::newRow("a star") << u"prox* proxy*"_s;
        QTest::newRow("NEAR with an open parenthesis") << u"NEAR(proxy"_s;
        QTest::newRow("a closing parenthesis") << u"proxy)"_s;
        QTest::newRow("boolean operators") << u"AND proxy OR NOT"_s;
        QTest::newRow("a column filter") << u"text: proxy"_s;
        QTest::newRow("a caret and a plus") << u"^proxy + -"_s;
    }

    void fts5SyntaxInAQuestionIsSearchedAsPlainWords()
    {
        QFETCH(QString, question);
        KnowledgeIndexer().run(m_base, m_database);
        auto index = openIndex();
        const auto hits = index->search(question, 10);
        QCOMPARE(index->lastError(), QString());
        QVERIFY(pathsOf(hits).contains(u"network.md"_s));
    }

    void aQuestionWithoutWordsFindsNothingWithoutAnError()
    {
        KnowledgeIndexer().run(m_base, m_database);
        auto index = openIndex();
        QVERIFY(index->search(u"?! ()"_s, 10).isEmpty());
        QCOMPARE(index->lastError(), QString());
    }

    void hitsAsJsonCarryPathLinesScoreAndText()
    {
        const KnowledgeHit hit{u"/docs/a.md"_s, 3, 9, 4.5, u"text"_s};
        const QJsonObject json = hit.toJson();
        QCOMPARE(json.value(u"path"_s).toString(), u"/docs/a.md"_s);
        QCOMPARE(json.value(u"startLine"_s).toInt(), 3);
        QCOMPARE(json.value(u"endLine"_s).toInt(), 9);
        QCOMPARE(json.value(u"score"_s).toDouble(), 4.5);
        QCOMPARE(json.value(u"bm25"_s).toDouble(), 4.5);
        QCOMPARE(json.value(u"text"_s).toString(), u"text"_s);
    }

    void reindexingSkipsUnchangedFiles()
    {
        KnowledgeIndexer().run(m_base, m_database);
        const KnowledgeIndexReport again = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(again.filesIndexed, 0);
        QCOMPARE(again.filesUnchanged, 3);
        QCOMPARE(again.filesRemoved, 0);
        QCOMPARE(openIndex()->status().files, 3);
    }

    void aFileSavedAgainUnchangedIsNotChunkedAgain()
    {
        KnowledgeIndexer().run(m_base, m_database);
        QVERIFY(setModified(doc(u"kitchen/pasta.txt"_s), QDateTime::currentDateTime().addSecs(60)));
        const KnowledgeIndexReport again = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(again.filesIndexed, 0);
        QCOMPARE(again.filesUnchanged, 3);
        // The new time is recorded: the next run does not even read the file.
        QCOMPARE(KnowledgeIndexer().run(m_base, m_database).filesUnchanged, 3);
        QCOMPARE(openIndex()->files().value(doc(u"kitchen/pasta.txt"_s)).modified,
                 QFileInfo(doc(u"kitchen/pasta.txt"_s)).lastModified().toMSecsSinceEpoch());
    }

    void aChangedFileIsChunkedAgain()
    {
        KnowledgeIndexer().run(m_base, m_database);
        QVERIFY(writeFile(doc(u"kitchen/pasta.txt"_s), "Bake the lasagne for forty minutes.\n"));
        QVERIFY(setModified(doc(u"kitchen/pasta.txt"_s), QDateTime::currentDateTime().addSecs(60)));
        const KnowledgeIndexReport again = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(again.filesIndexed, 1);
        QCOMPARE(again.filesUnchanged, 2);
        QCOMPARE(pathsOf(search(u"lasagne"_s)), QStringList{u"pasta.txt"_s});
        QVERIFY(search(u"salted"_s).isEmpty());
        QCOMPARE(openIndex()->status().chunks, 4);
    }

    void aDeletedFileIsDropped()
    {
        KnowledgeIndexer().run(m_base, m_database);
        QVERIFY(QFile::remove(doc(u"kitchen/pasta.txt"_s)));
        const KnowledgeIndexReport again = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(again.filesRemoved, 1);
        QVERIFY(search(u"pasta"_s).isEmpty());
        QCOMPARE(openIndex()->status().files, 2);
    }

    void aFolderThatIsGoneIsReportedAndKeepsWhatWasIndexed()
    {
        const KnowledgeBaseDefinition base{u"docs"_s, {doc(u"kitchen"_s), doc(u"network.md"_s)}};
        KnowledgeIndexer().run(base, m_database);
        QVERIFY(QDir(doc(u"kitchen"_s)).removeRecursively());
        const KnowledgeIndexReport again = KnowledgeIndexer().run(base, m_database);
        QCOMPARE(again.errors.size(), 1);
        QVERIFY2(again.errors.first().contains(doc(u"kitchen"_s)), qPrintable(again.errors.first()));
        QCOMPARE(again.filesRemoved, 0);
        QCOMPARE(pathsOf(search(u"pasta"_s)), QStringList{u"pasta.txt"_s});
    }

    void binaryOversizedAndUnreadablePdfFilesAreSkippedAndListed()
    {
        QVERIFY(writeFile(doc(u"image.png"_s), QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR proxy", 22)));
        QVERIFY(writeFile(doc(u"huge.log"_s), QByteArray(KnowledgeIndexer::MaxFileBytes + 1, 'a')));
        QVERIFY(writeFile(doc(u"manual.pdf"_s), "%PDF-1.4 proxy"));
        const KnowledgeIndexReport report = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(report.errors, QStringList());
        QCOMPARE(report.filesIndexed, 3);
        QCOMPARE(pathsOf(report.skipped), (QStringList{u"huge.log"_s, u"image.png"_s, u"manual.pdf"_s}));
        for (const KnowledgeSkippedFile &file : report.skipped)
            QVERIFY(!file.reason.isEmpty());
        QCOMPARE(openIndex()->status().skipped, report.skipped);
        QCOMPARE(pathsOf(search(u"proxy"_s)), QStringList{u"network.md"_s});
    }

    void aPdfIsSearchedByItsTextAndEachPassageKeepsItsPage()
    {
        QVERIFY(writeFile(
            doc(u"manual.pdf"_s),
            Testing::pdfWithPages({u"Installing the widget"_s, u"Calibrating the flux capacitor"_s})));
        QVERIFY(writeFile(doc(u"scan.pdf"_s), Testing::pdfWithPages({QString()})));
        const KnowledgeIndexReport report = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(report.errors, QStringList());
        QCOMPARE(report.filesIndexed, 4);
        QCOMPARE(pathsOf(report.skipped), QStringList{u"scan.pdf"_s});
        QVERIFY2(report.skipped.first().reason.contains(u"no text layer"_s),
                 qPrintable(report.skipped.first().reason));

        const QList<KnowledgeHit> hits = search(u"flux capacitor"_s);
        QCOMPARE(pathsOf(hits), QStringList{u"manual.pdf"_s});
        QCOMPARE(hits.first().page, 2);
        QCOMPARE(hits.first().startLine, 1);
        QVERIFY(hits.first().text.contains(u"Calibrating"_s));
        QCOMPARE(hits.first().toJson().value(u"page"_s).toInt(), 2);
        QCOMPARE(search(u"widget"_s).first().page, 1);
        // A text file's hit has no page.
        QVERIFY(!search(u"pasta"_s).first().toJson().contains(u"page"_s));
    }

    void aFileThatTurnsBinaryLeavesTheIndex()
    {
        KnowledgeIndexer().run(m_base, m_database);
        QVERIFY(writeFile(doc(u"kitchen/pasta.txt"_s), QByteArray("pasta\0\0", 7)));
        QVERIFY(setModified(doc(u"kitchen/pasta.txt"_s), QDateTime::currentDateTime().addSecs(60)));
        const KnowledgeIndexReport again = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(pathsOf(again.skipped), QStringList{u"pasta.txt"_s});
        QCOMPARE(again.filesRemoved, 1);
        QVERIFY(search(u"pasta"_s).isEmpty());
    }

    void cancellingStopsAfterTheFileInHandAndTheNextRunFinishes()
    {
        std::atomic<bool> cancel{false};
        QStringList done;
        const auto report = KnowledgeIndexer().run(
            m_base, m_database,
            [&](int, int total, const QString &path) {
                QCOMPARE(total, 3);
                done.append(path);
                cancel = true;
            },
            &cancel);
        QVERIFY(report.cancelled);
        QCOMPARE(done.size(), 1);
        QCOMPARE(openIndex()->status().files, 1);
        QVERIFY(!openIndex()->status().lastIndexed.isValid());
        const KnowledgeIndexReport rest = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(rest.filesIndexed, 2);
        QCOMPARE(rest.filesUnchanged, 1);
    }

    void progressCountsEveryFile()
    {
        QList<int> done;
        KnowledgeIndexer().run(m_base, m_database, [&](int count, int total, const QString &) {
            QCOMPARE(total, 3);
            done.append(count);
        });
        QCOMPARE(done, (QList<int>{1, 2, 3}));
    }

    void aSecondWriterIsRefused()
    {
        QLockFile other(m_database + u".lock"_s);
        QVERIFY(other.tryLock(0));
        const KnowledgeIndexReport report = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(report.errors.size(), 1);
        QVERIFY2(report.errors.first().contains(u"another process"_s), qPrintable(report.errors.first()));
        QCOMPARE(report.filesIndexed, 0);
    }

    void searchesReadWhileAWriteIsUnderWay()
    {
        KnowledgeIndexer().run(m_base, m_database);
        {
            QSqlDatabase writer = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"writer"_s);
            writer.setDatabaseName(m_database);
            QVERIFY(writer.open());
            QSqlQuery write(writer);
            QVERIFY(write.exec(u"BEGIN IMMEDIATE"_s));
            QVERIFY(write.exec(u"DELETE FROM chunks"_s));
            // WAL: the reader neither waits for the writer nor sees what it has not committed.
            auto reader = openIndex();
            QElapsedTimer timer;
            timer.start();
            QCOMPARE(pathsOf(reader->search(u"pasta"_s, 10)), QStringList{u"pasta.txt"_s});
            QVERIFY(timer.elapsed() < 5000);
            QVERIFY(write.exec(u"ROLLBACK"_s));
            writer.close();
        }
        QSqlDatabase::removeDatabase(u"writer"_s);
    }

    void aDamagedIndexIsRebuiltWithANotice()
    {
        QVERIFY(writeFile(m_database, QByteArray(8192, 'Z')));
        const KnowledgeIndexReport report = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(report.errors, QStringList());
        QCOMPARE(report.notices.size(), 1);
        QVERIFY2(report.notices.first().contains(u"damaged"_s), qPrintable(report.notices.first()));
        QCOMPARE(report.filesIndexed, 3);
        auto index = openIndex();
        QCOMPARE(index->notices(), QStringList());
        QCOMPARE(pathsOf(index->search(u"pasta"_s, 10)), QStringList{u"pasta.txt"_s});
    }

    void anIndexOfAnotherSchemaVersionIsRebuiltWithANotice()
    {
        {
            QSqlDatabase old = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"old-schema"_s);
            old.setDatabaseName(m_database);
            QVERIFY(old.open());
            QSqlQuery query(old);
            QVERIFY(query.exec(u"CREATE TABLE passages(body TEXT)"_s));
            QVERIFY(query.exec(u"PRAGMA user_version=99"_s));
            old.close();
        }
        QSqlDatabase::removeDatabase(u"old-schema"_s);
        QString error;
        auto index = KnowledgeIndex::open(m_database, &error);
        QVERIFY2(index, qPrintable(error));
        QCOMPARE(index->notices().size(), 1);
        QVERIFY2(index->notices().first().contains(u"99"_s), qPrintable(index->notices().first()));
        QCOMPARE(index->status().files, 0);
    }

    // Searching and listing open an index without its writer's lock: they create, upgrade and rebuild
    // nothing, and say that the next indexing will.
    void openingForReadingChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("said");
        QTest::newRow("no index yet") << QByteArray() << u"does not exist yet"_s;
        QTest::newRow("a damaged index") << QByteArray(8192, 'Z') << u"damaged"_s;
    }

    void openingForReadingChangesNothing()
    {
        QFETCH(QByteArray, content);
        QFETCH(QString, said);
        if (!content.isEmpty())
            QVERIFY(writeFile(m_database, content));
        QString error;
        QVERIFY(!KnowledgeIndex::openForReading(m_database, &error));
        QVERIFY2(error.contains(said), qPrintable(error));
        QCOMPARE(QFile::exists(m_database), !content.isEmpty());
        if (!content.isEmpty()) {
            QFile file(m_database);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), content);
        }

        QCOMPARE(KnowledgeIndexer().run(m_base, m_database).errors, QStringList());
        auto index = KnowledgeIndex::openForReading(m_database, &error);
        QVERIFY2(index, qPrintable(error));
        QCOMPARE(pathsOf(index->search(u"pasta"_s, 10)), QStringList{u"pasta.txt"_s});
    }

    // Searches keep an index's vectors in memory between them (VectorCache): what a writer stores or
    // drops in between is what the next search sees.
    void aSearchSeesTheVectorsWrittenSinceTheLastOne()
    {
        QCOMPARE(KnowledgeIndexer().run(m_base, m_database).errors, QStringList());
        auto writer = openIndex();
        bool dropped = false;
        QVERIFY(writer->useEmbeddingModel(u"directions"_s, &dropped));
        const QList<KnowledgePendingChunk> pending = writer->chunksWithoutVectors(100);
        QVERIFY(pending.size() >= 2);
        QList<std::pair<qint64, Embedding>> sideways;
        for (const KnowledgePendingChunk &chunk : pending)
            sideways.append({chunk.id, Embedding{0, 1, 0}});
        QVERIFY(writer->storeVectors(sideways));
        QString error;
        auto reader = KnowledgeIndex::openForReading(m_database, &error);
        QVERIFY2(reader, qPrintable(error));
        const Embedding ahead{1, 0, 0};
        // "?" has no word to search: the vectors alone rank.
        QList<KnowledgeHit> best = reader->search(u"?"_s, 1, ahead);
        QCOMPARE(best.size(), 1);
        QCOMPARE(best.first().cosine, std::optional<double>(0.0));

        QVERIFY(writer->storeVectors({{pending.first().id, Embedding{2, 0, 0}}}));
        best = reader->search(u"?"_s, 1, ahead);
        QCOMPARE(best.size(), 1);
        QCOMPARE(best.first().cosine, std::optional<double>(1.0));
        const QString nearest = best.first().path;

        QVERIFY(writer->removeFile(nearest));
        best = KnowledgeIndex::openForReading(m_database, &error)->search(u"?"_s, 1, ahead);
        QCOMPARE(best.size(), 1);
        QVERIFY(best.first().path != nearest);
        QCOMPARE(best.first().cosine, std::optional<double>(0.0));
    }

    void anIndexThatCannotBeCreatedSaysWhy()
    {
        QString error;
        QVERIFY(!KnowledgeIndex::open(m_data.filePath(u"no/such/folder/x.sqlite"_s), &error));
        QVERIFY2(error.contains(u"x.sqlite"_s), qPrintable(error));
    }

    void theLibraryAddsListsAndRemovesBases()
    {
        KnowledgeLibrary library(m_data.filePath(u"knowledge"_s));
        QVERIFY(library.bases().isEmpty());
        const QString relative = QDir::current().relativeFilePath(m_docs.path());
        QCOMPARE(library.add({u"docs"_s, {relative, relative + u"/"_s}}), QString());
        QCOMPARE(library.add({u"api-v2.1"_s, {doc(u"network.md"_s)}}), QString());
        const auto bases = library.bases();
        QCOMPARE(bases.size(), 2);
        QCOMPARE(bases[0].name, u"api-v2.1"_s);
        QCOMPARE(bases[1], (KnowledgeBaseDefinition{u"docs"_s, {QDir::cleanPath(m_docs.path())}}));
        QVERIFY(!library.add({u"docs"_s, {doc(u"kitchen"_s)}}).isEmpty());

        KnowledgeIndexer().run(bases[1], library.databasePath(u"docs"_s));
        QVERIFY(QFile::exists(library.databasePath(u"docs"_s)));
        QCOMPARE(library.remove(u"docs"_s), QString());
        QVERIFY(!QFile::exists(library.databasePath(u"docs"_s)));
        QVERIFY(!library.base(u"docs"_s));
        QVERIFY(!library.remove(u"docs"_s).isEmpty());
        QCOMPARE(library.bases().size(), 1);
    }

    void badBaseNamesAreRefused_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("empty") << QString();
        QTest::newRow("a path") << u"../evil"_s;
        QTest::newRow("hidden") << u".docs"_s;
        QTest::newRow("a space") << u"my docs"_s;
        QTest::newRow("too long") << QString(65, u'a');
    }

    void badBaseNamesAreRefused()
    {
        QFETCH(QString, name);
        KnowledgeLibrary library(m_data.filePath(u"knowledge"_s));
        QVERIFY(!library.add({name, {m_docs.path()}}).isEmpty());
        QVERIFY(library.bases().isEmpty());
    }

    void aBaseNeedsAPath()
    {
        KnowledgeLibrary library(m_data.filePath(u"knowledge"_s));
        QVERIFY(!library.add({u"docs"_s, {}}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestKnowledgeIndex)
#include "tst_knowledgeindex.moc"
