#include "agent/compare/runcomparison.h"
#include "agent/loop/agentpreset.h"
#include "agent/trace/trace.h"
#include "tests/replay/recordingfixture.h"
#include "translations/translations.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;

namespace {

using Status = ComparisonRow::Status;

// A turn recorded by a real agent on a scripted model with real tools.
ComparedTurn record(const QList<Step> &steps, const QString &source, int multiplyBias = 0,
                    const AgentConfig &config = recordingConfig())
{
    Recording recording(config);
    recording.tools.multiplyBias = multiplyBias;
    recording.run(question, steps);
    return ComparedTurn::fromTrace(recording.trace, recording.trace.roots().constLast(), source).value();
}

// Each row as "<mark> <indented label>", the marks of `loopscope diff`.
QStringList outline(const RunComparison &comparison)
{
    QStringList lines;
    QList<int> depth;
    for (const ComparisonRow &row : comparison.rows()) {
        depth.append(row.parent >= 0 ? depth.at(row.parent) + 1 : 0);
        QChar mark = u'~';
        if (row.counted) {
            switch (row.status) {
            case Status::Same: mark = u'='; break;
            case Status::Differs: mark = u'!'; break;
            case Status::OnlyLeft: mark = u'<'; break;
            case Status::OnlyRight: mark = u'>'; break;
            }
        }
        lines.append(QString(mark) + u' ' + QString(depth.constLast() * 2, u' ') + row.label);
    }
    return lines;
}

const QStringList sameThreeIterations{
    u"= question"_s,   u"= iteration 1"_s, u"=   model request"_s, u"=   add"_s,           u"=     result"_s,
    u"=   multiply"_s, u"=     result"_s,  u"= iteration 2"_s,     u"=   model request"_s, u"=   add"_s,
    u"=     result"_s, u"= iteration 3"_s, u"=   model request"_s, u"= answer"_s,          u"= outcome"_s,
    u"~ tokens"_s,     u"~ time"_s};

/*
    A turn of 20 s whose one tool call was held 12 s for the user's approval:
    the trace as the agent records it, the Wait under the call.
*/
ComparedTurn turnThatWaitedForApproval()
{
    constexpr qint64 second = 1'000'000;
    constexpr qint64 t0 = 1'700'000'000 * second;
    Trace trace;
    TurnData turnData;
    turnData.input = u"Delete the build folder"_s;
    turnData.output = u"Done."_s;
    const int turn = trace.begin(-1, TraceKind::Turn, u"turn"_s, t0, turnData);
    IterationData iterationData;
    iterationData.number = 1;
    const int iteration
        = trace.begin(turn, TraceKind::Iteration, u"iteration 1"_s, t0 + 1 * second, iterationData);
    ToolCallData callData;
    callData.call = ScriptedModelClient::call(u"c1"_s, u"run_command"_s, u"{}"_s);
    callData.result = u"removed"_s;
    const int tool = trace.begin(iteration, TraceKind::ToolCall, u"run_command"_s, t0 + 2 * second, callData);
    const int wait = trace.begin(tool, TraceKind::Wait, u"Waiting for your approval"_s, t0 + 3 * second,
                                 WaitData{u"approval"_s, u"allowed"_s});
    trace.finish(wait, TraceStatus::Ok, t0 + 15 * second);
    trace.finish(tool, TraceStatus::Ok, t0 + 16 * second);
    trace.finish(iteration, TraceStatus::Ok, t0 + 19 * second);
    trace.finish(turn, TraceStatus::Ok, t0 + 20 * second);
    return ComparedTurn::fromTrace(trace, turn, u"approval"_s).value();
}

} // namespace

class RunComparisonTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        Translations::install(); // the plural forms: "2 messages"
    }

    void runsAreAlignedStepByStepWithTheirFirstDifference_data()
    {
        QTest::addColumn<ComparedTurn>("left");
        QTest::addColumn<ComparedTurn>("right");
        QTest::addColumn<QStringList>("outline");
        QTest::addColumn<QString>("firstDifference"); // the outline line of the first difference
        QTest::addColumn<QString>("summary");

        const ComparedTurn recorded = record(threeIterations(), u"recorded"_s);
        QTest::newRow("two runs that did the same") << recorded << record(threeIterations(), u"again"_s)
                                                    << sameThreeIterations << QString() << u"identical"_s;

        // multiply answers 21 instead of 20: the next request carries it too, but the result came first.
        QStringList oneResult = sameThreeIterations;
        oneResult[1] = u"! iteration 1"_s;
        oneResult[6] = u"!     result"_s;
        oneResult[7] = u"! iteration 2"_s;
        oneResult[8] = u"!   model request"_s;
        oneResult[11] = u"! iteration 3"_s;
        oneResult[12] = u"!   model request"_s;
        QTest::newRow("one tool result differs")
            << recorded << record(threeIterations(), u"biased"_s, 1) << oneResult << u"!     result"_s
            << u"diverged at iteration 1: multiply results differ"_s;

        // The right run answers after the first results: one iteration fewer.
        const QList<Step> twoIterations{
            ScriptedModelClient::calls({add(u"c1"_s, 2, 3), multiply(u"c2"_s, 4, 5)}),
            ScriptedModelClient::text(answer)};
        QTest::newRow("the number of iterations differs")
            << recorded << record(twoIterations, u"shorter"_s)
            << QStringList{u"= question"_s,        u"= iteration 1"_s, u"=   model request"_s,
                           u"=   add"_s,           u"=     result"_s,  u"=   multiply"_s,
                           u"=     result"_s,      u"! iteration 2"_s, u"=   model request"_s,
                           u"<   add"_s,           u"<     result"_s,  u"< iteration 3"_s,
                           u"<   model request"_s, u"= answer"_s,      u"= outcome"_s,
                           u"~ tokens"_s,          u"~ time"_s}
            << u"<   add"_s
            << u"diverged at iteration 2: only the left run calls add (3 iterations against 2)"_s;

        QList<Step> otherAnswer = threeIterations();
        otherAnswer.last() = ScriptedModelClient::text(u"It makes 25."_s);
        QStringList answerOnly = sameThreeIterations;
        answerOnly[13] = u"! answer"_s;
        QTest::newRow("only the answer differs") << recorded << record(otherAnswer, u"terse"_s) << answerOnly
                                                 << u"! answer"_s << u"same steps; the answers differ"_s;

        QList<Step> otherArguments = threeIterations();
        otherArguments[1] = ScriptedModelClient::calls({add(u"c3"_s, 20, 5)});
        QStringList arguments = sameThreeIterations;
        arguments[7] = u"! iteration 2"_s;
        arguments[9] = u"!   add"_s;
        arguments[11] = u"! iteration 3"_s;
        arguments[12] = u"!   model request"_s;
        QTest::newRow("the arguments of a call differ")
            << recorded << record(otherArguments, u"swapped"_s) << arguments << u"!   add"_s
            << u"diverged at iteration 2: add arguments differ"_s;

        AgentConfig otherModel = recordingConfig();
        otherModel.model.model = u"other-model"_s;
        QStringList model = sameThreeIterations;
        for (int row : {1, 2, 7, 8, 11, 12})
            model[row].replace(0, 1, u'!');
        QTest::newRow("the same question on another model")
            << recorded << record(threeIterations(), u"other model"_s, 0, otherModel) << model
            << u"!   model request"_s
            << u"diverged at iteration 1: the model requests differ: the model differs"_s;
    }

    void runsAreAlignedStepByStepWithTheirFirstDifference()
    {
        QFETCH(ComparedTurn, left);
        QFETCH(ComparedTurn, right);
        QFETCH(QStringList, outline);
        QFETCH(QString, firstDifference);
        QFETCH(QString, summary);

        const RunComparison comparison(left, right);
        QCOMPARE(::outline(comparison), outline);
        QCOMPARE(comparison.summary(), summary);
        QCOMPARE(comparison.isEqual(), firstDifference.isEmpty());
        if (!firstDifference.isEmpty())
            QCOMPARE(::outline(comparison).at(comparison.firstDifference()), firstDifference);
    }

    void theCellsShowWhatEachRunDid()
    {
        const RunComparison comparison(record(threeIterations(), u"a"_s),
                                       record(threeIterations(), u"b"_s, 1));
        const QList<ComparisonRow> &rows = comparison.rows();
        QCOMPARE(rows.at(5).label, u"multiply"_s);
        QCOMPARE(rows.at(5).left, u"{\"a\":4,\"b\":5}"_s);
        QCOMPARE(rows.at(6).left, u"20"_s);
        QCOMPARE(rows.at(6).right, u"21"_s);
        QCOMPARE(rows.at(2).left, u"test-model · 2 messages · 4 tools"_s);
        QCOMPARE(rows.at(6).parent, 5);
        QCOMPARE(rows.at(5).parent, 1);
        QVERIFY(rows.at(6).leftNode >= 0 && rows.at(6).rightNode >= 0);
    }

    void whatChangedBetweenTheAgentsVersionsIsShownFieldByField()
    {
        AgentPreset before;
        before.name = u"adder"_s;
        before.version = 1;
        before.instructions = u"You add.\nBe brief."_s;
        AgentPreset after = before;
        after.version = 2;
        after.instructions = u"You add.\nShow your work."_s;
        after.maxIterations = 6;
        const ComparedTurn left = record(threeIterations(), u"a"_s, 0, before.configOver(recordingConfig()));
        const ComparedTurn right = record(threeIterations(), u"b"_s, 0, after.configOver(recordingConfig()));
        QCOMPARE(left.agents.size(), 1);
        QCOMPARE(left.agents.constFirst().version, std::optional<qint64>(1));
        // The version is recorded on its own, not inside the definition too.
        QCOMPARE(right.agents.constFirst().definition, after.definitionJson());
        QVERIFY(!right.agents.constFirst().definition.contains(u"version"_s));

        const RunComparison comparison(left, right);
        const QStringList lines = outline(comparison);
        QCOMPARE(lines.mid(0, 4), (QStringList{u"= question"_s, u"~ agent"_s, u"~   instructions"_s,
                                               u"~   max_iterations"_s}));
        const ComparisonRow &agent = comparison.rows().at(1);
        QCOMPARE(agent.kind, ComparisonRow::Kind::Agent);
        QCOMPARE(agent.left, u"adder, version 1"_s);
        QCOMPARE(agent.right, u"adder, version 2"_s);
        QCOMPARE(comparison.rows().at(3).left, QString());
        QCOMPARE(comparison.rows().at(3).right, u"6"_s);
        // The instructions as a text diff, as a model request's is.
        const QList<RequestDiffLine> expected{{RequestDiffLine::Kind::Same, u"You add."_s},
                                              {RequestDiffLine::Kind::OnlyLeft, u"Be brief."_s},
                                              {RequestDiffLine::Kind::OnlyRight, u"Show your work."_s}};
        QCOMPARE(comparison.requestDiff(2), expected);
        // And how the runs differ: the first request's system instruction.
        QVERIFY2(comparison.summary().contains(u"iteration 1"_s), qPrintable(comparison.summary()));

        // Two runs of the same version show the agent without changes; runs of the session's own
        // agent show no agent at all.
        const RunComparison same(left, left);
        QCOMPARE(outline(same).mid(0, 3), (QStringList{u"= question"_s, u"~ agent"_s, u"= iteration 1"_s}));
        QVERIFY(same.isEqual());
        const ComparedTurn plain = record(threeIterations(), u"c"_s);
        QCOMPARE(outline(RunComparison(plain, plain)), sameThreeIterations);
    }

    // Triage handed the question to billing, whose instructions were edited between the two runs: the
    // part billing ran shows it, under the agent it was handed to. The left run is the session as
    // older versions saved it, with each version inside its definition too; it compares as a new one.
    void everyAgentATurnPassedThroughShowsWhatChangedInIt()
    {
        const auto load = [] {
            TranscriptLoadResult loaded
                = TranscriptFile::load(QFINDTESTDATA("../replay/fixtures/handoff-subagent.loopscope.json"));
            auto trace = std::make_unique<Trace>();
            if (loaded.trace)
                trace->assign(std::move(*loaded.trace));
            return trace;
        };
        const auto handoffNode = [](const Trace &trace) {
            for (int id = 0; id < trace.size(); ++id) {
                if (trace.node(id).kind == TraceKind::Handoff)
                    return id;
            }
            return -1;
        };
        const std::unique_ptr<Trace> older = load();
        const std::unique_ptr<Trace> edited = load();
        const int handoff = handoffNode(*older);
        QVERIFY(handoff > 0);
        const int turn = older->roots().constFirst();
        older->update(turn,
                      [](TraceNode &node) { node.data<TurnData>().agentDefinition.insert(u"version"_s, 1); });
        older->update(handoff, [](TraceNode &node) {
            node.data<HandoffData>().targetDefinition.insert(u"version"_s, 2);
        });
        edited->update(handoff, [](TraceNode &node) {
            HandoffData &data = node.data<HandoffData>();
            data.targetVersion = 3;
            data.targetDefinition.insert(u"instructions"_s, u"You bill.\nCite the invoice."_s);
        });
        const ComparedTurn left = ComparedTurn::fromTrace(*older, turn, u"older"_s).value();
        const ComparedTurn right = ComparedTurn::fromTrace(*edited, turn, u"edited"_s).value();
        QCOMPARE(left.agents.size(), 2);
        QCOMPARE(left.agents.at(1).name, u"billing"_s);
        QCOMPARE(left.agents.at(1).node, handoff);
        QVERIFY(!left.agents.at(0).definition.contains(u"version"_s));

        const RunComparison comparison(left, right);
        QCOMPARE(outline(comparison).mid(0, 5), (QStringList{u"= question"_s, u"~ agent"_s, u"~ handed to"_s,
                                                             u"~   instructions"_s, u"= iteration 1"_s}));
        const QList<ComparisonRow> &rows = comparison.rows();
        QCOMPARE(rows.at(1).status, Status::Same); // triage: the same version, the same definition
        QCOMPARE(rows.at(1).left, u"triage, version 1"_s);
        QCOMPARE(rows.at(2).status, Status::Differs);
        QCOMPARE(rows.at(2).left, u"billing, version 2"_s);
        QCOMPARE(rows.at(2).right, u"billing, version 3"_s);
        QCOMPARE(rows.at(2).leftNode, handoff);
        QCOMPARE(rows.at(3).parent, 2);
        const QList<RequestDiffLine> expected{{RequestDiffLine::Kind::Same, u"You bill."_s},
                                              {RequestDiffLine::Kind::OnlyRight, u"Cite the invoice."_s}};
        QCOMPARE(comparison.requestDiff(3), expected);
        // The recorded steps are the same: what the agents were is shown, never counted.
        QVERIFY(comparison.isEqual());

        // The same recording against itself: each part's agent without changes.
        const RunComparison same(left, ComparedTurn::fromTrace(*load(), turn, u"again"_s).value());
        QCOMPARE(outline(same).mid(0, 4),
                 (QStringList{u"= question"_s, u"~ agent"_s, u"~ handed to"_s, u"= iteration 1"_s}));
        QCOMPARE(same.rows().at(2).status, Status::Same);
    }

    void aModelRequestsDiffShowsTheLinesThatDiffer()
    {
        const RunComparison comparison(record(threeIterations(), u"a"_s),
                                       record(threeIterations(), u"b"_s, 1));
        const int secondRequest = 8;
        QCOMPARE(comparison.rows().at(secondRequest).kind, ComparisonRow::Kind::ModelRequest);
        const QList<RequestDiffLine> diff = comparison.requestDiff(secondRequest);
        QList<RequestDiffLine> changed;
        for (const RequestDiffLine &line : diff) {
            if (line.kind != RequestDiffLine::Kind::Same)
                changed.append(line);
        }
        const QList<RequestDiffLine> expected{{RequestDiffLine::Kind::OnlyLeft, u"    20"_s},
                                              {RequestDiffLine::Kind::OnlyRight, u"    21"_s}};
        QCOMPARE(changed, expected);
        QVERIFY(diff.contains(RequestDiffLine{RequestDiffLine::Kind::Same, u"model: test-model"_s}));
        QVERIFY(comparison.requestDiff(0).isEmpty()); // the question is no request
    }

    void toolCallIdsDoNotMakeRequestsDiffer()
    {
        ModelRequest a;
        a.messages = {Message::user(u"hi"_s)};
        Message calling = Message::assistant(QString());
        calling.toolCalls = {ScriptedModelClient::call(u"call_1"_s, u"add"_s, u"{\"a\": 1, \"b\": 2}"_s)};
        a.messages.append(calling);
        ModelRequest b = a;
        b.messages[1].toolCalls[0].id = u"toolu_9"_s;
        b.messages[1].toolCalls[0].arguments = u"{\"b\":2,\"a\":1}"_s;
        QVERIFY(!RunComparison::requestDifference(a, b));
        b.options.temperature = 0.7;
        QCOMPARE(RunComparison::requestDifference(a, b).value_or(QString()), u"the temperature differs"_s);
    }

    void topPMakesRequestsDifferAndIsShownWithTheParameters()
    {
        ModelRequest a;
        a.messages = {Message::user(u"hi"_s)};
        ModelRequest b = a;
        b.options.topP = 0.9;
        QCOMPARE(RunComparison::requestDifference(a, b).value_or(QString()), u"top p differs"_s);
        QVERIFY(RunComparison::requestLines(a).contains(u"top p: default"_s));
        QVERIFY(RunComparison::requestLines(b).contains(u"top p: 0.9"_s));
    }

    void aRecordedCostIsShownButNeverMakesRunsDiffer()
    {
        ComparedTurn left = record(threeIterations(), u"a"_s);
        ComparedTurn right = left;
        left.iterations[0].modelCalls[0].costUsd = 0.0012;
        right.iterations[0].modelCalls[0].costUsd = 0.0015;
        right.usage.outputTokens += 7;
        right.durationUs += 1000;
        const RunComparison comparison(left, right);
        QVERIFY(comparison.isEqual());
        const ComparisonRow &cost = comparison.rows().constLast();
        QCOMPARE(cost.kind, ComparisonRow::Kind::Cost);
        QCOMPARE(cost.left, u"$0.0012"_s);
        QCOMPARE(cost.right, u"$0.0015"_s);
        QCOMPARE(cost.status, Status::Differs);
        QVERIFY(!cost.counted);
        // Without any recorded cost there is no cost row.
        const ComparedTurn unpriced = record(threeIterations(), u"c"_s);
        QVERIFY(RunComparison(unpriced, unpriced).rows().constLast().kind != ComparisonRow::Kind::Cost);
    }

    void timesShowTheMachinesTimeWithTheWaitingApart()
    {
        const ComparedTurn waited = turnThatWaitedForApproval();
        QCOMPARE(waited.iterations.size(), 1);
        QCOMPARE(waited.iterations[0].toolCalls.size(), 1);
        QCOMPARE(waited.iterations[0].toolCalls[0].waitingUs, 12'000'000);

        const ComparedTurn quick = [waited] {
            ComparedTurn turn = waited;
            turn.waitingUs = 0;
            turn.durationUs = 8'000'000;
            turn.iterations[0].waitingUs = 0;
            turn.iterations[0].durationUs = 6'000'000;
            return turn;
        }();
        const RunComparison comparison(waited, quick);

        const ComparisonRow &time = comparison.rows().constLast();
        QCOMPARE(time.kind, ComparisonRow::Kind::Time);
        QCOMPARE(time.left, u"8.00 s (+12.00 s waiting)"_s);
        QCOMPARE(time.right, u"8.00 s"_s);
        QCOMPARE(time.status, Status::Differs); // the same machine time, but one waited
        QVERIFY(!time.counted);
        const ComparisonRow &iteration = comparison.rows().at(1);
        QCOMPARE(iteration.kind, ComparisonRow::Kind::Iteration);
        QCOMPARE(iteration.left, u"6.00 s (+12.00 s waiting) · 0 tokens"_s);
        QCOMPARE(iteration.right, u"6.00 s · 0 tokens"_s);
    }

    void aSessionFileGivesItsTurnsOrSaysWhyNot()
    {
        QTemporaryDir dir;
        Recording recording;
        recording.run(question, threeIterations());
        recording.run(u"Again?"_s, {ScriptedModelClient::text(u"Yes."_s)});
        const QString path = dir.filePath(u"sums.loopscope.json"_s);
        QVERIFY(TranscriptFile::save(recording.transcript(), path));

        const ComparedSession session = ComparedSession::load(path);
        QVERIFY2(session.isValid(), qPrintable(session.error));
        QCOMPARE(session.title, u"Sums"_s);
        QCOMPARE(session.turns.size(), 2);
        QCOMPARE(session.turns.at(1).source, u"sums.loopscope.json, turn 2"_s);
        QCOMPARE(session.turns.at(1).answer, u"Yes."_s);
        QCOMPARE(session.turns.at(0).iterations.size(), 3);
        QCOMPARE(session.turns.at(0).iterations.at(0).toolCalls.size(), 2);
        QCOMPARE(session.turns.at(0).iterations.at(1).modelCalls.at(0).request.messages.size(), 5);

        QFile garbage(dir.filePath(u"garbage.loopscope.json"_s));
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write("{ not json");
        garbage.close();
        QVERIFY(!ComparedSession::load(garbage.fileName()).isValid());
        QVERIFY(!ComparedSession::load(dir.filePath(u"missing.loopscope.json"_s)).isValid());
    }
};

QTEST_GUILESS_MAIN(RunComparisonTest)
#include "tst_runcomparison.moc"
