#include "agent/knowledge/knowledgefolderwatcher.h"
#include "agent/session/knowledgebasesmodel.h"

#include "tests/support/testfiles.h"

#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using Loopscope::Testing::writeFile;

/*
    Folders watched while the app runs: a change under a base's folder, once settled, re-indexes that
    base; a folder that disappears is reported. The settling time is short here; nothing waits on it.
*/
class TestKnowledgeFolderWatcher final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_docs;
    QString m_data;

private slots:
    void init()
    {
        QVERIFY(m_root.isValid());
        QDir(m_root.path()).removeRecursively();
        m_docs = m_root.filePath(u"docs"_s);
        m_data = m_root.filePath(u"data"_s);
        QVERIFY(QDir().mkpath(m_docs + u"/guides"_s));
        QVERIFY(QDir().mkpath(m_data));
        QVERIFY(writeFile(m_docs + u"/first.md"_s, "# First\n\nThe lighthouse keeper logs the tide.\n"));
    }

    void aFileWrittenInAWatchedFolderGetsIndexed_data()
    {
        QTest::addColumn<QString>("where");
        QTest::newRow("in the folder") << u"new.md"_s;
        QTest::newRow("in a subfolder") << u"guides/new.md"_s;
    }

    void aFileWrittenInAWatchedFolderGetsIndexed()
    {
        QFETCH(QString, where);
        KnowledgeBasesModel model(m_data);
        model.watcher()->setSettleMs(20);
        QSignalSpy finished(&model, &KnowledgeBasesModel::indexingFinished);
        QCOMPARE(model.add({u"notes"_s, {m_docs}, {}}), QString());
        QTRY_COMPARE(finished.count(), 1);
        QTRY_COMPARE(model.index(0).data(KnowledgeBasesModel::FilesRole).toInt(), 1);
        QTRY_VERIFY(model.watcher()->watchedPaths().contains(m_docs + u"/guides"_s));

        QVERIFY(writeFile(m_docs + u'/' + where, "# New\n\nThe ferry leaves at dawn.\n"));

        QTRY_VERIFY(finished.count() >= 2);
        QTRY_COMPARE(model.index(0).data(KnowledgeBasesModel::FilesRole).toInt(), 2);
    }

    void aBurstOfChangesIsOneReindex()
    {
        KnowledgeFolderWatcher watcher;
        watcher.setSettleMs(200);
        QSignalSpy watching(&watcher, &KnowledgeFolderWatcher::watching);
        watcher.setBases({{u"notes"_s, {m_docs}, {}}});
        QTRY_COMPARE(watching.count(), 1);
        QSignalSpy changed(&watcher, &KnowledgeFolderWatcher::changed);
        for (int i = 0; i < 5; ++i)
            QVERIFY(writeFile(m_docs + u"/burst%1.md"_s.arg(i), "# Burst\n"));
        QTRY_COMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toString(), u"notes"_s);
    }

    void theIndexesFolderIsNeverWatched()
    {
        // A base over a folder that holds the indexes: writing an index must not re-index the base.
        KnowledgeFolderWatcher watcher;
        watcher.setIgnoredDirectory(m_docs + u"/guides"_s);
        QSignalSpy watching(&watcher, &KnowledgeFolderWatcher::watching);
        watcher.setBases({{u"notes"_s, {m_docs}, {}}});
        QTRY_COMPARE(watching.count(), 1);
        QVERIFY(watcher.watchedPaths().contains(m_docs));
        QVERIFY(!watcher.watchedPaths().contains(m_docs + u"/guides"_s));
    }

    void aFolderThatDisappearsIsReportedNotFatal()
    {
        const QString other = m_root.filePath(u"other"_s);
        QVERIFY(QDir().mkpath(other));
        QVERIFY(writeFile(other + u"/kept.md"_s, "# Kept\n\nIndexed before its folder went.\n"));
        KnowledgeBasesModel model(m_data);
        model.watcher()->setSettleMs(20);
        QSignalSpy finished(&model, &KnowledgeBasesModel::indexingFinished);
        QSignalSpy missing(model.watcher(), &KnowledgeFolderWatcher::pathMissing);
        QCOMPARE(model.add({u"notes"_s, {m_docs, other}, {}}), QString());
        QTRY_COMPARE(finished.count(), 1);
        QTRY_VERIFY(model.watcher()->watchedPaths().contains(other));

        QVERIFY(QDir(other).removeRecursively());

        QTRY_VERIFY(missing.count() >= 1);
        QCOMPARE(missing.at(0).at(1).toString(), other);
        QTRY_VERIFY(!model.index(0).data(KnowledgeBasesModel::ProblemsRole).toStringList().isEmpty());
        QVERIFY(
            model.index(0).data(KnowledgeBasesModel::ProblemsRole).toStringList().first().contains(other));
        // What was indexed from it is kept, and the rest of the base is still watched.
        QTRY_VERIFY(finished.count() >= 2);
        QTRY_COMPARE(model.index(0).data(KnowledgeBasesModel::FilesRole).toInt(), 2);
        QVERIFY(model.watcher()->watchedPaths().contains(m_docs));
    }
};

QTEST_GUILESS_MAIN(TestKnowledgeFolderWatcher)
#include "tst_knowledgefolderwatcher.moc"
