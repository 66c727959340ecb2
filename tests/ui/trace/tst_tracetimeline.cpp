#include "agent/trace/tracemodel.h"
#include "tests/ui/trace/tracesamples.h"
#include "ui/trace/tracetimeline.h"
#include "ui/trace/tracetimelinelayout.h"

#include <QHelpEvent>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using TraceSamples::Ms;
using TraceSamples::T0;

namespace {

class FakeClock final : public Clock
{
public:
    qint64 nowUs() const override { return now; }
    qint64 now = T0;
};

struct Shown
{
    int nodeId = -1;
    int lane = 0;
    bool marker = false;
    bool error = false;
    bool operator==(const Shown &) const = default;
};

QList<Shown> shown(const QList<Ui::TimelineItem> &items)
{
    QList<Shown> result;
    for (const Ui::TimelineItem &item : items)
        result.append({item.nodeId, item.lane, item.isMarker(), item.isError()});
    return result;
}

// Lets QCOMPARE show which item differs.
char *toString(const Shown &s)
{
    return qstrdup(QByteArray("{node " + QByteArray::number(s.nodeId) + ", lane " + QByteArray::number(s.lane)
                              + (s.marker ? ", marker" : "") + (s.error ? ", error" : "") + "}")
                       .constData());
}

} // namespace

Q_DECLARE_METATYPE(Loopscope::Ui::TimelineSpan)

class TraceTimelineTest : public QObject
{
    Q_OBJECT

private slots:
    void overlappingSpansGoToSeparateLanes_data()
    {
        QTest::addColumn<QList<Ui::TimelineSpan>>("spans");
        QTest::addColumn<QList<int>>("lanes");
        QTest::newRow("nothing") << QList<Ui::TimelineSpan>{} << QList<int>{};
        QTest::newRow("sequential calls share one lane")
            << QList<Ui::TimelineSpan>{{0, 10}, {10, 20}, {25, 30}} << QList<int>{0, 0, 0};
        QTest::newRow("two overlapping tool calls take two lanes")
            << QList<Ui::TimelineSpan>{{0, 10}, {5, 15}} << QList<int>{0, 1};
        QTest::newRow("three parallel tool calls take three lanes")
            << QList<Ui::TimelineSpan>{{0, 30}, {1, 20}, {2, 10}} << QList<int>{0, 1, 2};
        QTest::newRow("a lane is reused once it is free")
            << QList<Ui::TimelineSpan>{{0, 10}, {2, 6}, {7, 12}, {12, 14}} << QList<int>{0, 1, 1, 0};
        QTest::newRow("the order of the input does not matter")
            << QList<Ui::TimelineSpan>{{5, 15}, {0, 10}} << QList<int>{1, 0};
        QTest::newRow("an instant inside a call gets a lane of its own")
            << QList<Ui::TimelineSpan>{{0, 10}, {4, 4}} << QList<int>{0, 1};
        QTest::newRow("an instant right after a call shares its lane")
            << QList<Ui::TimelineSpan>{{0, 10}, {10, 10}} << QList<int>{0, 0};
    }

    void overlappingSpansGoToSeparateLanes()
    {
        QFETCH(QList<Ui::TimelineSpan>, spans);
        QFETCH(QList<int>, lanes);
        QCOMPARE(Ui::timelineLanes(spans), lanes);
    }

    void aTurnShowsItsCallsInLanesAndMarksItsErrors()
    {
        Trace trace;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);

        const QList<Ui::TimelineItem> items = Ui::timelineItems(trace, s.turn, T0 + 10'000 * Ms);

        // The model call, then read_file and run_shell side by side, then the error on its own.
        const QList<Shown> expected{{s.modelCall, 0, false, false},
                                    {s.readFile, 0, false, false},
                                    {s.runShell, 1, false, true},
                                    {s.error, 0, true, true}};
        QCOMPARE(shown(items), expected);
        QCOMPARE(items.at(1).startUs, T0 + 1100 * Ms);
        QCOMPARE(items.at(1).endUs, T0 + 1500 * Ms);
        QCOMPARE(items.at(1).toolName, u"read_file"_s);
    }

    void aBlockedShieldCheckIsMarkedButOneThatPassedIsNot()
    {
        Trace trace;
        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, T0, TurnData{});
        const int passed
            = trace.begin(turn, TraceKind::ShieldCheck, u"input ok"_s, T0 + Ms, ShieldCheckData{});
        trace.finish(passed, TraceStatus::Ok, T0 + Ms);
        const int blocked
            = trace.begin(turn, TraceKind::ShieldCheck, u"output blocked"_s, T0 + 2 * Ms, ShieldCheckData{});
        trace.finish(blocked, TraceStatus::Blocked, T0 + 2 * Ms);

        QCOMPARE(shown(Ui::timelineItems(trace, turn, T0 + 3 * Ms)),
                 (QList<Shown>{{blocked, 0, true, true}}));
    }

    void runningCallsGrowUntilTheyFinish()
    {
        Trace trace;
        FakeClock clock;
        Ui::TraceTimeline timeline(&trace);
        timeline.setClock(&clock);
        timeline.resize(600, 120);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));

        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, T0, TurnData{});
        const int call = trace.begin(turn, TraceKind::ModelCall, u"chat"_s, T0 + 100 * Ms, ModelCallData{});
        clock.now = T0 + 200 * Ms;
        QTRY_COMPARE(timeline.items().size(), 1);
        QTRY_COMPARE(timeline.items().at(0).endUs, T0 + 200 * Ms);
        const int earlyWidth = timeline.itemRect(call).width();

        clock.now = T0 + 2000 * Ms;
        QTRY_COMPARE(timeline.items().at(0).endUs, T0 + 2000 * Ms);
        QVERIFY2(timeline.itemRect(call).width() > earlyWidth * 1.5,
                 qPrintable(u"%1 -> %2"_s.arg(earlyWidth).arg(timeline.itemRect(call).width())));

        trace.finish(call, TraceStatus::Ok, T0 + 2100 * Ms);
        clock.now = T0 + 9000 * Ms;
        QTRY_COMPARE(timeline.items().at(0).status, TraceStatus::Ok);
        QCOMPARE(timeline.items().at(0).endUs, T0 + 2100 * Ms); // finished: the clock no longer matters
    }

    void withoutAChosenTurnTheLatestTurnIsShown()
    {
        Trace trace;
        Ui::TraceTimeline timeline(&trace);
        const TraceSamples::Sample first = TraceSamples::addSampleTurn(trace);
        QTRY_COMPARE(timeline.turn(), first.turn);

        const int second = trace.begin(-1, TraceKind::Turn, u"next"_s, T0 + 9000 * Ms, TurnData{});
        QTRY_COMPARE(timeline.turn(), second);

        timeline.setTurn(first.turn);
        QCOMPARE(timeline.turn(), first.turn);
        QCOMPARE(timeline.items().size(), 4);
    }

    void clickingABarReportsItsNode_data()
    {
        QTest::addColumn<QString>("step");
        QTest::newRow("the model call") << u"modelCall"_s;
        QTest::newRow("the second of two parallel tools") << u"runShell"_s;
        QTest::newRow("the error marker") << u"error"_s;
    }

    void clickingABarReportsItsNode()
    {
        QFETCH(QString, step);
        Trace trace;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        const int node = step == u"modelCall"_s ? s.modelCall : step == u"runShell"_s ? s.runShell : s.error;
        Ui::TraceTimeline timeline(&trace);
        timeline.setTurn(s.turn);
        timeline.resize(600, 160);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        QSignalSpy clicked(&timeline, &Ui::TraceTimeline::nodeClicked);

        const QRect rect = timeline.itemRect(node);
        QVERIFY(!rect.isEmpty());
        QTest::mouseClick(&timeline, Qt::LeftButton, {}, rect.center());

        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.at(0).at(0).toInt(), node);
        QCOMPARE(timeline.selectedNode(), node);
    }

    void clickingBetweenBarsReportsNothing()
    {
        Trace trace;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceTimeline timeline(&trace);
        timeline.setTurn(s.turn);
        timeline.resize(600, 160);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        QSignalSpy clicked(&timeline, &Ui::TraceTimeline::nodeClicked);

        // Lane 1 before run_shell starts is empty.
        const QRect shell = timeline.itemRect(s.runShell);
        QTest::mouseClick(&timeline, Qt::LeftButton, {}, QPoint(shell.left() - 40, shell.center().y()));
        QCOMPARE(clicked.count(), 0);
        QCOMPARE(timeline.selectedNode(), -1);
    }

    void arrowKeysWalkThroughTheSteps()
    {
        Trace trace;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceTimeline timeline(&trace);
        timeline.setTurn(s.turn);
        QSignalSpy clicked(&timeline, &Ui::TraceTimeline::nodeClicked);

        QTest::keyClick(&timeline, Qt::Key_Right);
        QTest::keyClick(&timeline, Qt::Key_Right);
        QTest::keyClick(&timeline, Qt::Key_End);
        QTest::keyClick(&timeline, Qt::Key_Left);

        QCOMPARE(clicked.count(), 4);
        QCOMPARE(clicked.at(0).at(0).toInt(), s.modelCall);
        QCOMPARE(clicked.at(1).at(0).toInt(), s.readFile);
        QCOMPARE(clicked.at(2).at(0).toInt(), s.error);
        QCOMPARE(clicked.at(3).at(0).toInt(), s.runShell);
    }

    void aBarsTooltipNamesTheStepAndItsTiming()
    {
        Trace trace;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        Ui::TraceTimeline timeline(&trace);
        timeline.setTurn(s.turn);
        timeline.resize(600, 160);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));

        const QPoint pos = timeline.itemRect(s.runShell).center();
        QHelpEvent help(QEvent::ToolTip, pos, timeline.mapToGlobal(pos));
        QCoreApplication::sendEvent(&timeline, &help);

        QTRY_VERIFY(QToolTip::isVisible());
        const QString text = QToolTip::text();
        QVERIFY2(text.contains(u"run_shell"_s), qPrintable(text));
        QVERIFY2(text.contains(TraceModel::statusDisplayName(TraceStatus::Error)), qPrintable(text));
        QVERIFY2(text.contains(TraceModel::formatDuration(700'000)), qPrintable(text));
        QToolTip::hideText();
    }

    void aWaitForTheUserIsABarOverItsSpanNotAMarker()
    {
        Trace trace;
        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, T0, TurnData{});
        const int iteration = trace.begin(turn, TraceKind::Iteration, u"i"_s, T0, IterationData{1, 10});
        const int tool = trace.begin(iteration, TraceKind::ToolCall, u"write_file"_s, T0 + 100 * Ms,
                                     TraceSamples::toolCallData(u"write_file"_s, u"{}"_s));
        const int wait = trace.begin(tool, TraceKind::Wait, u"Waiting for your approval"_s, T0 + 100 * Ms,
                                     WaitData{u"approval"_s, {}});
        trace.finish(wait, TraceStatus::Ok, T0 + 16'000 * Ms);
        trace.update(tool, [](TraceNode &node) { node.startedUs = T0 + 16'000 * Ms; });
        trace.finish(tool, TraceStatus::Ok, T0 + 16'500 * Ms);
        trace.finish(iteration, TraceStatus::Ok, T0 + 16'600 * Ms);
        trace.finish(turn, TraceStatus::Ok, T0 + 16'600 * Ms);

        const QList<Ui::TimelineItem> items = Ui::timelineItems(trace, turn, T0 + 20'000 * Ms);
        QCOMPARE(shown(items), (QList<Shown>{{wait, 0, false, false}, {tool, 0, false, false}}));
        QVERIFY(items.at(0).isWait());
        QVERIFY(!items.at(1).isWait());
        QCOMPARE(items.at(0).startUs, T0 + 100 * Ms);
        QCOMPARE(items.at(0).endUs, T0 + 16'000 * Ms);

        Ui::TraceTimeline timeline(&trace);
        timeline.setTurn(turn);
        timeline.resize(600, 120);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        // The wait takes most of the turn's width, the tool the little after it.
        QCOMPARE_GT(timeline.itemRect(wait).width(), 10 * timeline.itemRect(tool).width());
        QCOMPARE_LE(timeline.itemRect(wait).right(), timeline.itemRect(tool).left() + 1);
    }

    void anMcpStartUpBeforeTheTurnDoesNotStretchItsScale()
    {
        // The turn waited 14 s for an MCP server to start, then ran for 13 s.
        Trace trace;
        const int turn = trace.begin(-1, TraceKind::Turn, u"t"_s, T0, TurnData{});
        const int mcp = trace.begin(turn, TraceKind::McpServer, u"MCP server files"_s, T0 - 14'000 * Ms,
                                    McpServerData{u"files"_s, {}, {}, {}});
        trace.finish(mcp, TraceStatus::Ok, T0 - 100 * Ms);
        const int iteration = trace.begin(turn, TraceKind::Iteration, u"i"_s, T0, IterationData{1, 10});
        const int model = trace.begin(iteration, TraceKind::ModelCall, u"chat"_s, T0 + 10 * Ms,
                                      TraceSamples::modelCallData());
        trace.finish(model, TraceStatus::Ok, T0 + 13'000 * Ms);
        trace.finish(iteration, TraceStatus::Ok, T0 + 13'000 * Ms);
        trace.finish(turn, TraceStatus::Ok, T0 + 13'000 * Ms);

        const QList<Ui::TimelineItem> items = Ui::timelineItems(trace, turn, T0 + 20'000 * Ms);
        QCOMPARE(items.size(), 2);
        QCOMPARE(items.at(0).nodeId, mcp);
        QCOMPARE(items.at(0).startUs, T0);
        QCOMPARE(items.at(0).startedBeforeTurnUs, 14'000 * Ms);

        Ui::TraceTimeline timeline(&trace);
        timeline.setTurn(turn);
        timeline.resize(600, 120);
        timeline.show();
        QVERIFY(QTest::qWaitForWindowExposed(&timeline));
        // The model call fills the turn's span: nearly the whole width, not half of it.
        QCOMPARE_GT(timeline.itemRect(model).width(), 550);
        QCOMPARE_LE(timeline.itemRect(mcp).center().x(), timeline.itemRect(model).left() + 1);

        const QPoint pos = timeline.itemRect(mcp).center();
        QHelpEvent help(QEvent::ToolTip, pos, timeline.mapToGlobal(pos));
        QCoreApplication::sendEvent(&timeline, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        const QString text = QToolTip::text();
        QVERIFY2(text.contains(u"before the turn"_s), qPrintable(text));
        QVERIFY2(text.contains(TraceModel::formatSpan(14'000 * Ms)), qPrintable(text));
        QToolTip::hideText();
    }
};

QTEST_MAIN(TraceTimelineTest)
#include "tst_tracetimeline.moc"
