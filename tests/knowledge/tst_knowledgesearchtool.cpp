#include "agent/knowledge/knowledgeindexer.h"
#include "agent/knowledge/knowledgelibrary.h"
#include "agent/knowledge/knowledgesearchtool.h"

#include "tests/support/testfiles.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using Loopscope::Testing::writeFile;

/*
    Two knowledge bases, "policies" and "recipes", indexed from temporary
    folders, searched as the model searches them.
*/
class TestKnowledgeSearchTool final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_docs;
    QTemporaryDir m_data;
    QList<AttachedKnowledgeBase> m_bases;

    QString doc(const QString &name) const { return m_docs.filePath(name); }

    bool addBase(const QString &name, const QStringList &files)
    {
        const QString database = m_data.filePath(name + u".sqlite"_s);
        const KnowledgeIndexReport report = KnowledgeIndexer().run({name, files}, database);
        m_bases.append({name, database});
        return report.errors.isEmpty();
    }

    ToolResult startAndWait(const KnowledgeSearchTool &tool, const QJsonObject &arguments)
    {
        QFutureWatcher<ToolResult> watcher;
        QSignalSpy finished(&watcher, &QFutureWatcher<ToolResult>::finished);
        watcher.setFuture(tool.start(arguments, std::make_shared<ToolContext>()));
        if (!finished.wait(10'000) && !watcher.isFinished())
            return ToolResult::failure(u"the search never answered"_s);
        return watcher.result();
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_docs.isValid() && m_data.isValid());
        QVERIFY(writeFile(doc(u"policies/refunds.md"_s),
                          "# Refunds\n\nRefunds above 500 euros are approved by the finance lead.\n"));
        QVERIFY(writeFile(doc(u"policies/travel.md"_s), "# Travel\n\nTrains are booked by the office.\n"));
        QVERIFY(writeFile(doc(u"recipes/soup.md"_s),
                          "# Soup\n\nRefunds for burnt soup are approved by nobody: refunds, refunds.\n"));
        QVERIFY(addBase(u"policies"_s, {doc(u"policies"_s)}));
        QVERIFY(addBase(u"recipes"_s, {doc(u"recipes"_s)}));
    }

    void theSchemaNamesTheBasesAndNeedsAQuery()
    {
        const KnowledgeSearchTool tool(m_bases);
        const ToolSchema schema = tool.schema();

        QCOMPARE(schema.name, u"knowledge_search"_s);
        QVERIFY(schema.description.contains(u"policies, recipes"_s));
        QCOMPARE(schema.parameters.value(u"required"_s).toArray(), QJsonArray{u"query"_s});
        QVERIFY(schema.parameters.value(u"properties"_s).toObject().contains(u"top_k"_s));
        QVERIFY(!tool.behaviour().asksFirst);
        QVERIFY(tool.asynchronous());
    }

    void everyAttachedBaseIsSearchedAndTheHitsMergedBestFirst()
    {
        const KnowledgeSearchRecord record
            = KnowledgeSearchTool::search(m_bases, u"who approves refunds?"_s, 5);

        QCOMPARE(record.hits.size(), 2);
        QCOMPARE(record.hits.at(0).base, u"recipes"_s); // "refunds" three times
        QCOMPARE(record.hits.at(1).base, u"policies"_s);
        QCOMPARE(record.hits.at(1).hit.path, QFileInfo(doc(u"policies/refunds.md"_s)).absoluteFilePath());
        QVERIFY(record.hits.at(0).hit.bm25 >= record.hits.at(1).hit.bm25);
        QVERIFY(record.error.isEmpty());
        QVERIFY(record.searchUs > 0);
    }

    void topKCapsTheMergedHits()
    {
        const KnowledgeSearchRecord record = KnowledgeSearchTool::search(m_bases, u"refunds trains"_s, 1);

        QCOMPARE(record.hits.size(), 1);
        QCOMPARE(record.topK, 1);
    }

    void theModelReadsNumberedPassagesWithFileLinesAndText()
    {
        const KnowledgeSearchTool tool(m_bases);

        const ToolResult result = startAndWait(tool, {{u"query"_s, u"trains booked"_s}, {u"top_k"_s, 3}});

        QVERIFY2(!result.isError, qPrintable(result.content));
        const QString travel = QFileInfo(doc(u"policies/travel.md"_s)).absoluteFilePath();
        QVERIFY2(result.content.startsWith(u"[1] "_s + travel + u" (lines 1-3, knowledge base policies"_s),
                 qPrintable(result.content));
        QVERIFY(result.content.contains(u"Trains are booked by the office."_s));
        QVERIFY(!result.content.contains(u"[2]"_s));
    }

    void theDetailsKeepTheRetrievalForTheTrace()
    {
        const KnowledgeSearchTool tool(m_bases);

        const ToolResult result = startAndWait(tool, {{u"query"_s, u"trains"_s}});

        const QJsonObject retrieval = result.details.value(u"retrieval"_s).toObject();
        QCOMPARE(retrieval.value(u"query"_s).toString(), u"trains"_s);
        QCOMPARE(retrieval.value(u"topK"_s).toInt(), KnowledgeSearchTool::DefaultTopK);
        QCOMPARE(retrieval.value(u"bases"_s).toArray(), (QJsonArray{u"policies"_s, u"recipes"_s}));
        const QJsonArray hits = retrieval.value(u"hits"_s).toArray();
        QCOMPARE(hits.size(), 1);
        QCOMPARE(hits.at(0).toObject().value(u"base"_s).toString(), u"policies"_s);
        QCOMPARE(hits.at(0).toObject().value(u"startLine"_s).toInt(), 1);
    }

    void anEmptyQueryIsAnErrorTheModelCanFix()
    {
        const KnowledgeSearchTool tool(m_bases);

        const ToolResult result = startAndWait(tool, {{u"query"_s, u"  "_s}});

        QVERIFY(result.isError);
        QVERIFY2(result.content.contains(u"empty"_s), qPrintable(result.content));
    }

    void noMatchingWordSaysSoWithoutFailing()
    {
        const KnowledgeSearchTool tool(m_bases);

        const ToolResult result = startAndWait(tool, {{u"query"_s, u"xylophone"_s}});

        QVERIFY(!result.isError);
        QVERIFY2(result.content.contains(u"No passage"_s), qPrintable(result.content));
    }

    void anUnreadableBaseIsNamedAndTheOthersStillAnswer()
    {
        QList<AttachedKnowledgeBase> bases = m_bases;
        bases.prepend({u"gone"_s, m_data.filePath(u"missing-folder/gone.sqlite"_s)});
        const KnowledgeSearchTool tool(bases);

        const ToolResult result = startAndWait(tool, {{u"query"_s, u"trains"_s}});

        QVERIFY(!result.isError);
        QVERIFY2(result.content.contains(u"\"gone\""_s), qPrintable(result.content));
        QVERIFY(result.content.contains(u"Trains are booked"_s));
    }
};

QTEST_GUILESS_MAIN(TestKnowledgeSearchTool)
#include "tst_knowledgesearchtool.moc"
