#include "agent/knowledge/knowledgeindexer.h"
#include "agent/knowledge/knowledgesearchtool.h"
#include "agent/loop/agent.h"
#include "agent/replay/replayrun.h"
#include "agent/session/conversationrows.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "agent/trace/tracemodel.h"
#include "agent/transcript/transcript.h"
#include "tests/support/scriptedmodelclient.h"
#include "tests/support/testfiles.h"
#include "tests/support/tracenodes.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using Loopscope::Testing::nodesOfKind;
using Loopscope::Testing::writeFile;
using Step = ScriptedModelClient::Step;

namespace {

const QString Answer = u"Refunds above 500 euros need the finance lead (refunds.md)."_s;

// The model searches once, then answers.
QList<Step> searchThenAnswer()
{
    return {ScriptedModelClient::calls({ScriptedModelClient::call(
                u"k1"_s, u"knowledge_search"_s, uR"({"query":"who approves refunds?"})"_s)}),
            ScriptedModelClient::text(Answer)};
}

} // namespace

/*
    A search of the user's documents from the loop to the window: the tool
    call's Retrieval step in the trace (through the trace model), the same
    step after saving and reopening, a replay that shows the recorded passages
    with the index gone, and the sources under the answer in the chat's rows.
*/
class TestKnowledgeRetrieval final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_docs;
    QTemporaryDir m_data;
    QList<AttachedKnowledgeBase> m_bases;

    // An agent with knowledge_search over the "policies" base, and a model tester on its trace.
    struct Fixture
    {
        explicit Fixture(const QList<AttachedKnowledgeBase> &bases)
        {
            workbench.add(std::make_shared<KnowledgeSearchTool>(bases));
            rows.setTrace(&trace);
            rows.follow(&agent);
        }
        ~Fixture() { agent.cancel(); }

        bool ask(const QList<Step> &steps)
        {
            client.enqueue(steps);
            return agent.send(u"Who approves refunds?"_s)
                   && QTest::qWaitFor([this] { return !finished.isEmpty(); }, 10'000);
        }

        Transcript transcript() const
        {
            Transcript transcript;
            transcript.title = u"Refunds"_s;
            transcript.created = QDateTime(QDate(2026, 11, 28), QTime(9, 0), Qt::UTC);
            transcript.updated = transcript.created;
            transcript.providerKind = u"openai"_s;
            transcript.config = agent.config();
            transcript.messages = agent.history();
            transcript.trace = trace.toJson();
            return transcript;
        }

        ScriptedModelClient client;
        Workbench workbench;
        Trace trace;
        TraceModel model{&trace};
        QAbstractItemModelTester tester{&model, QAbstractItemModelTester::FailureReportingMode::Fatal};
        Agent agent{&client, &workbench, &trace};
        ConversationRows rows;
        QSignalSpy finished{&agent, &Agent::turnFinished};
    };

private slots:
    void initTestCase()
    {
        QVERIFY(m_docs.isValid() && m_data.isValid());
        QVERIFY(writeFile(m_docs.filePath(u"refunds.md"_s),
                          "# Refunds\n\nRefunds above 500 euros are approved by the finance lead.\n"));
        QVERIFY(writeFile(m_docs.filePath(u"travel.md"_s), "# Travel\n\nTrains are booked by the office.\n"));
        const QString database = m_data.filePath(u"policies.sqlite"_s);
        QVERIFY(KnowledgeIndexer().run({u"policies"_s, {m_docs.path()}}, database).errors.isEmpty());
        m_bases = {{u"policies"_s, database}};
    }

    void aSearchIsARetrievalStepUnderItsToolCall()
    {
        Fixture f(m_bases);
        QVERIFY(f.ask(searchThenAnswer()));

        const QList<int> retrievals = nodesOfKind(f.trace, TraceKind::Retrieval);
        QCOMPARE(retrievals.size(), 1);
        const TraceNode &node = f.trace.node(retrievals.constFirst());
        const TraceNode &call = f.trace.node(node.parent);
        QCOMPARE(call.kind, TraceKind::ToolCall);
        QCOMPARE(call.data<ToolCallData>().call.name, u"knowledge_search"_s);
        // The call keeps the rest of its details; the search is the step's.
        QVERIFY(!call.data<ToolCallData>().details.contains(RetrievalDetailsKey));
        QCOMPARE(node.status, TraceStatus::Ok);
        QVERIFY(node.startedUs >= call.startedUs);
        QVERIFY(node.endedUs <= call.endedUs);
        QVERIFY(node.label.contains(u"who approves refunds?"_s));

        const RetrievalData &retrieval = node.data<RetrievalData>();
        QCOMPARE(retrieval.query, u"who approves refunds?"_s);
        QCOMPARE(retrieval.bases, QStringList{u"policies"_s});
        QCOMPARE(retrieval.topK, KnowledgeSearchTool::DefaultTopK);
        QVERIFY(retrieval.searchUs > 0);
        QCOMPARE(retrieval.hits.size(), 1); // travel.md shares no word with the query
        const RetrievalHit &hit = retrieval.hits.constFirst();
        QCOMPARE(hit.path, m_docs.filePath(u"refunds.md"_s));
        QCOMPARE(hit.base, u"policies"_s);
        QCOMPARE(hit.startLine, 1);
        QCOMPARE(hit.endLine, 3);
        QVERIFY(hit.bm25 > 0);
        QVERIFY(hit.text.contains(u"finance lead"_s));

        // The trace model shows it in its tool call's row, as its own kind.
        const QModelIndex index = f.model.indexForNode(node.id);
        QCOMPARE(index.parent(), f.model.indexForNode(call.id));
        QCOMPARE(index.data(TraceModel::KindRole).toInt(), int(TraceKind::Retrieval));
        QCOMPARE(index.siblingAtColumn(TraceModel::KindColumn).data().toString(), u"Retrieval"_s);
        QCOMPARE(RetrievalData::fromJson(index.data(TraceModel::PayloadJsonRole).toJsonObject()), retrieval);
    }

    void aSavedSessionKeepsTheRetrieval()
    {
        Fixture f(m_bases);
        QVERIFY(f.ask(searchThenAnswer()));
        const QByteArray bytes = TranscriptFile::serialize(f.transcript());

        // The checked reader and the fast one that opening a session takes.
        const TranscriptLoadResult checked = TranscriptFile::parse(bytes);
        QVERIFY2(checked.transcript, qPrintable(checked.error));
        Trace fromJson;
        QVERIFY(fromJson.fromJson(checked.transcript->trace));
        const TranscriptLoadResult fast = TranscriptFile::parse(bytes, TranscriptFile::TraceForm::ForestOnly);
        QVERIFY2(fast.trace, qPrintable(fast.error));
        Trace fromForest;
        fromForest.assign(*fast.trace);

        for (const Trace *reopened : {&fromJson, &fromForest}) {
            QCOMPARE(reopened->size(), f.trace.size());
            for (int id = 0; id < f.trace.size(); ++id)
                QCOMPARE(reopened->node(id), f.trace.node(id));
        }
        const QList<int> retrievals = nodesOfKind(fromForest, TraceKind::Retrieval);
        QCOMPARE(retrievals.size(), 1);
        QVERIFY(fromForest.node(retrievals.constFirst())
                    .data<RetrievalData>()
                    .hits.constFirst()
                    .text.contains(u"finance lead"_s));
    }

    void aReplayShowsTheRecordedPassagesWithoutTheIndex()
    {
        Fixture f(m_bases);
        QVERIFY(f.ask(searchThenAnswer()));
        const RetrievalData recorded
            = f.trace.node(nodesOfKind(f.trace, TraceKind::Retrieval).constFirst()).data<RetrievalData>();
        const auto turns = RecordedTurn::fromTranscript(f.transcript());
        QVERIFY(turns && turns->size() == 1);

        // The replay's tool would search a base that is gone: the recording answers instead.
        Workbench workbench;
        workbench.add(std::make_shared<KnowledgeSearchTool>(
            QList<AttachedKnowledgeBase>{{u"policies"_s, m_data.filePath(u"gone.sqlite"_s)}}));
        ReplayRun replay(turns->constFirst(), &workbench);
        QSignalSpy finished(&replay, &ReplayRun::finished);
        QVERIFY(replay.start());
        QVERIFY(finished.wait(10'000));
        QVERIFY(finished.constFirst().at(0).toBool()); // reproduced
        QVERIFY(!QFile::exists(m_data.filePath(u"gone.sqlite"_s)));

        const QList<int> retrievals = nodesOfKind(*replay.trace(), TraceKind::Retrieval);
        QCOMPARE(retrievals.size(), 1);
        QCOMPARE(replay.trace()->node(retrievals.constFirst()).data<RetrievalData>(), recorded);
    }

    void theAnswerDrawsOnThePassagesItsTurnRetrieved()
    {
        Fixture f(m_bases);
        QVERIFY(f.ask(searchThenAnswer()));
        const RetrievalData retrieval
            = f.trace.node(nodesOfKind(f.trace, TraceKind::Retrieval).constFirst()).data<RetrievalData>();

        const auto answerRow = [](const ConversationRows &rows) {
            for (const ConversationRow &row : rows.rows()) {
                if (row.kind == ConversationRow::Kind::Assistant && row.text == Answer)
                    return row;
            }
            return ConversationRow{};
        };
        // Live, and rebuilt from the history as reopening a session does.
        QCOMPARE(answerRow(f.rows).sources, retrieval.hits);
        ConversationRows reopened;
        QAbstractItemModelTester tester(&reopened, QAbstractItemModelTester::FailureReportingMode::Fatal);
        reopened.setTrace(&f.trace);
        reopened.showHistory(f.agent.history());
        QCOMPARE(answerRow(reopened).sources, retrieval.hits);
        const int row = int(reopened.rows().indexOf(answerRow(reopened)));
        QCOMPARE(reopened.index(row).data(ConversationRows::SourcesRole).value<QList<RetrievalHit>>(),
                 retrieval.hits);

        // A later answer of another turn that searched nothing names no sources.
        f.finished.clear();
        QVERIFY(f.ask({ScriptedModelClient::text(u"You are welcome."_s)}));
        QCOMPARE(f.rows.rows().constLast().text, u"You are welcome."_s);
        QVERIFY(f.rows.rows().constLast().sources.isEmpty());
    }

    void aSearchOfABaseThatCannotBeReadIsAFailedRetrieval()
    {
        Fixture f({{u"broken"_s, m_data.filePath(u"missing/folder/broken.sqlite"_s)}});
        QVERIFY(f.ask(searchThenAnswer()));
        const QList<int> retrievals = nodesOfKind(f.trace, TraceKind::Retrieval);
        QCOMPARE(retrievals.size(), 1);
        const TraceNode &node = f.trace.node(retrievals.constFirst());
        QCOMPARE(node.status, TraceStatus::Error);
        QVERIFY(node.data<RetrievalData>().error.contains(u"broken"_s));
        QVERIFY(node.data<RetrievalData>().hits.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestKnowledgeRetrieval)
#include "tst_knowledgeretrieval.moc"
