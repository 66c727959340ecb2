#include "agent/trace/tracemodel.h"
#include "tests/ui/trace/tracesamples.h"
#include "ui/trace/jsontreeview.h"
#include "ui/trace/tracedetailspane.h"
#include "ui/trace/tracefilterbar.h"
#include "ui/trace/tracefilterproxymodel.h"
#include "ui/trace/traceicons.h"
#include "ui/trace/traceinspector.h"
#include "ui/trace/tracetimeline.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSplitter>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using TraceSamples::Ms;
using TraceSamples::T0;

namespace {

const QString LeakedKey = u"sk-live-0123456789abcdef"_s;

// An inspector on a trace of its own, shown, with its tree's model under test.
struct Fixture
{
    explicit Fixture(QSize size = {600, 800})
    {
        inspector.resize(size);
        inspector.show();
        if (!QTest::qWaitForWindowExposed(&inspector))
            qFatal("The inspector was never exposed");
    }

    QTreeView *tree() const { return inspector.treeView(); }
    QAbstractItemModel *view() const { return inspector.treeView()->model(); }

    QModelIndex viewIndex(int nodeId) const
    {
        if (view()->rowCount() == 0)
            return {};
        const QModelIndexList found = view()->match(view()->index(0, 0), TraceModel::NodeIdRole, nodeId, 1,
                                                    Qt::MatchExactly | Qt::MatchRecursive);
        return found.value(0);
    }

    bool isShown(int nodeId) const
    {
        const QModelIndex index = viewIndex(nodeId);
        return index.isValid() && tree()->viewport()->rect().intersects(tree()->visualRect(index));
    }

    void clickRow(int nodeId) const
    {
        const QRect rect = tree()->visualRect(viewIndex(nodeId));
        QTest::mouseClick(tree()->viewport(), Qt::LeftButton, {}, rect.center());
    }

    QToolButton *followButton() const
    {
        for (QToolButton *button : inspector.findChildren<QToolButton *>()) {
            if (button->accessibleName() == u"Follow new steps"_s)
                return button;
        }
        return nullptr;
    }

    // A turn with one iteration and `count` finished tool calls; returns the last call.
    int addToolCalls(int iteration, int count)
    {
        int last = -1;
        for (int i = 0; i < count; ++i) {
            const QString name = u"tool_%1"_s.arg(trace.size());
            last = trace.begin(iteration, TraceKind::ToolCall, name, T0 + trace.size() * Ms,
                               TraceSamples::toolCallData(name, u"{}"_s));
            trace.finish(last, TraceStatus::Ok, T0 + trace.size() * Ms);
        }
        return last;
    }

    Trace trace;
    TraceModel model{&trace};
    Ui::TraceInspector inspector{&trace, &model};
    QAbstractItemModelTester tester{inspector.treeView()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest};
    QSignalSpy selected{&inspector, &Ui::TraceInspector::nodeSelected};
};

} // namespace

class TraceInspectorTest : public QObject
{
    Q_OBJECT

private slots:
    void init() { QGuiApplication::clipboard()->clear(); }

    void aNarrowPaneGivesTheNamesRoomBeforeTheKindCostAndTokens_data()
    {
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("kindShown");
        QTest::addColumn<bool>("costShown");
        QTest::addColumn<bool>("tokensShown");
        QTest::newRow("wide") << 800 << true << true << true;
        QTest::newRow("narrow: the icon says the kind") << 520 << false << true << true;
        QTest::newRow("narrower: the cost goes before the tokens") << 420 << false << false << true;
        QTest::newRow("very narrow") << 300 << false << false << false;
    }

    void aNarrowPaneGivesTheNamesRoomBeforeTheKindCostAndTokens()
    {
        QFETCH(int, width);
        QFETCH(bool, kindShown);
        QFETCH(bool, costShown);
        QFETCH(bool, tokensShown);
        Fixture f({width, 600});
        QTRY_COMPARE(!f.tree()->isColumnHidden(TraceModel::KindColumn), kindShown);
        QCOMPARE(!f.tree()->isColumnHidden(TraceModel::CostColumn), costShown);
        QCOMPARE(!f.tree()->isColumnHidden(TraceModel::TokensColumn), tokensShown);
        QVERIFY(!f.tree()->isColumnHidden(TraceModel::StatusColumn));
        QVERIFY(!f.tree()->isColumnHidden(TraceModel::DurationColumn));
        // Widened again, everything comes back.
        f.inspector.resize(1000, 600);
        QTRY_VERIFY(!f.tree()->isColumnHidden(TraceModel::KindColumn));
        QVERIFY(!f.tree()->isColumnHidden(TraceModel::CostColumn));
        QVERIFY(!f.tree()->isColumnHidden(TraceModel::TokensColumn));
    }

    void aRetryOpensItsModelCallAndStaysInSightAfterTheCallSucceeds()
    {
        Fixture f;
        const int turn = f.trace.begin(-1, TraceKind::Turn, u"hello"_s, T0, TurnData{});
        const int iteration
            = f.trace.begin(turn, TraceKind::Iteration, u"Iteration 1 of 10"_s, T0, IterationData{1, 10});
        const int call = f.trace.begin(iteration, TraceKind::ModelCall, u"chat"_s, T0 + Ms, ModelCallData{});
        QVERIFY(!f.tree()->isExpanded(f.viewIndex(call)));

        const int retry = f.trace.begin(call, TraceKind::Retry, u"Retry after attempt 1"_s, T0 + Ms,
                                        RetryData{1, 429, u"rate limited"_s, 1000});
        QVERIFY(f.tree()->isExpanded(f.viewIndex(call)));
        f.trace.finish(retry, TraceStatus::Error, T0 + 1000 * Ms);
        f.trace.finish(call, TraceStatus::Ok, T0 + 1100 * Ms);
        f.trace.finish(iteration, TraceStatus::Ok, T0 + 1100 * Ms);
        f.trace.finish(turn, TraceStatus::Ok, T0 + 1100 * Ms);
        QVERIFY(f.tree()->isExpanded(f.viewIndex(call)));
        QVERIFY(f.isShown(retry));
    }

    void theTreeGrowsLiveAndOpensTheRunningTurn()
    {
        Fixture f;
        QCOMPARE(f.view()->rowCount(), 0);

        const int turn = f.trace.begin(-1, TraceKind::Turn, u"hello"_s, T0, TurnData{});
        QCOMPARE(f.view()->rowCount(), 1);
        const int iteration
            = f.trace.begin(turn, TraceKind::Iteration, u"Iteration 1 of 10"_s, T0, IterationData{1, 10});
        QVERIFY(f.tree()->isExpanded(f.viewIndex(turn)));
        const int call = f.trace.begin(iteration, TraceKind::ModelCall, u"chat"_s, T0 + Ms, ModelCallData{});
        QVERIFY(f.tree()->isExpanded(f.viewIndex(iteration)));
        QCOMPARE(f.view()->rowCount(f.viewIndex(iteration)), 1);
        QVERIFY(f.isShown(call));

        // Each row carries its kind's glyph, a status colour, its duration once known.
        const QModelIndex callIndex = f.viewIndex(call);
        QVERIFY(!callIndex.data(Qt::DecorationRole).value<QIcon>().isNull());
        const QModelIndex status = callIndex.siblingAtColumn(TraceModel::StatusColumn);
        QCOMPARE(status.data().toString(), TraceModel::statusDisplayName(TraceStatus::Running));
        QCOMPARE(status.data(Qt::ForegroundRole).value<QColor>(),
                 Ui::TraceIcons::statusColor(TraceStatus::Running, f.inspector.palette()));
        QVERIFY(callIndex.siblingAtColumn(TraceModel::DurationColumn).data().toString().isEmpty());

        f.trace.finish(call, TraceStatus::Ok, T0 + 51 * Ms);
        QCOMPARE(status.data().toString(), TraceModel::statusDisplayName(TraceStatus::Ok));
        QCOMPARE(callIndex.siblingAtColumn(TraceModel::DurationColumn).data().toString(),
                 TraceModel::formatDuration(50'000));
        QCOMPARE(f.selected.count(), 0);
    }

    void aTraceThatAlreadyRunsOpensItsRunningTurn()
    {
        auto trace = std::make_unique<Trace>();
        const int finished = trace->begin(-1, TraceKind::Turn, u"done"_s, T0, TurnData{});
        const int iteration
            = trace->begin(finished, TraceKind::Iteration, u"Iteration 1"_s, T0, IterationData{});
        trace->finish(iteration, TraceStatus::Ok, T0 + Ms);
        trace->finish(finished, TraceStatus::Ok, T0 + Ms);
        const int running = trace->begin(-1, TraceKind::Turn, u"busy"_s, T0, TurnData{});
        trace->begin(running, TraceKind::Iteration, u"Iteration 1"_s, T0, IterationData{});
        TraceModel model(trace.get());
        Ui::TraceInspector inspector(trace.get(), &model);

        const QAbstractItemModel *view = inspector.treeView()->model();
        QVERIFY(!inspector.treeView()->isExpanded(view->index(0, 0)));
        QCOMPARE(view->index(1, 0).data(TraceModel::NodeIdRole).toInt(), running);
        QVERIFY(inspector.treeView()->isExpanded(view->index(1, 0)));
        QVERIFY(inspector.treeView()->isExpanded(view->index(0, 0, view->index(1, 0))));
    }

    void theTreeFollowsNewRowsUntilTheUserSelectsElsewhere()
    {
        Fixture f({500, 420});
        const int turn = f.trace.begin(-1, TraceKind::Turn, u"long"_s, T0, TurnData{});
        const int iteration
            = f.trace.begin(turn, TraceKind::Iteration, u"Iteration 1"_s, T0, IterationData{});
        int last = f.addToolCalls(iteration, 60);
        QVERIFY(f.inspector.isFollowing());
        QTRY_VERIFY(f.isShown(last));
        QVERIFY(!f.isShown(turn));

        // The user picks a row: the tree stays where it is from now on.
        const int picked = f.tree()->indexAt(QPoint(10, 10)).data(TraceModel::NodeIdRole).toInt();
        f.clickRow(picked);
        QCOMPARE(f.selected.count(), 1);
        QCOMPARE(f.selected.at(0).at(0).toInt(), picked);
        QVERIFY(!f.inspector.isFollowing());
        QVERIFY(!f.followButton()->isChecked());
        const int scroll = f.tree()->verticalScrollBar()->value();
        last = f.addToolCalls(iteration, 20);
        QTest::qWait(50);
        QCOMPARE(f.tree()->verticalScrollBar()->value(), scroll);
        QVERIFY(!f.isShown(last));
        QCOMPARE(f.inspector.selectedNode(), picked);

        // Following again jumps to the newest row.
        f.followButton()->click();
        QVERIFY(f.inspector.isFollowing());
        QTRY_VERIFY(f.isShown(last));
        QCOMPARE(f.inspector.selectedNode(), picked); // following scrolls, it does not select
    }

    void scrollingAwayStopsFollowingAndScrollingToTheEndResumesIt()
    {
        Fixture f({500, 420});
        const int turn = f.trace.begin(-1, TraceKind::Turn, u"long"_s, T0, TurnData{});
        const int iteration
            = f.trace.begin(turn, TraceKind::Iteration, u"Iteration 1"_s, T0, IterationData{});
        f.addToolCalls(iteration, 60);
        QTRY_VERIFY(f.tree()->verticalScrollBar()->value() > 0);
        QSignalSpy following(&f.inspector, &Ui::TraceInspector::followingChanged);

        f.tree()->verticalScrollBar()->triggerAction(QAbstractSlider::SliderPageStepSub);
        QVERIFY(!f.inspector.isFollowing());
        const int last = f.addToolCalls(iteration, 5);
        QTest::qWait(50);
        QVERIFY(!f.isShown(last));

        f.tree()->verticalScrollBar()->triggerAction(QAbstractSlider::SliderToMaximum);
        QVERIFY(f.inspector.isFollowing());
        QCOMPARE(following.count(), 2);
        QCOMPARE(following.at(0).at(0).toBool(), false);
        QCOMPARE(following.at(1).at(0).toBool(), true);
        const int newest = f.addToolCalls(iteration, 5);
        QTRY_VERIFY(f.isShown(newest));
        QCOMPARE(f.selected.count(), 0);
    }

    void theFilterBarNarrowsTheTreeAndOpensTheMatches_data()
    {
        QTest::addColumn<QString>("control");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("hidden");
        QTest::newRow("errors only") << u"errors"_s << u"runShell"_s << u"readFile"_s;
        QTest::newRow("a tool name") << u"tool"_s << u"readFile"_s << u"runShell"_s;
    }

    void theFilterBarNarrowsTheTreeAndOpensTheMatches()
    {
        QFETCH(QString, control);
        QFETCH(QString, shown);
        QFETCH(QString, hidden);
        Trace trace;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        TraceModel model(&trace);
        Ui::TraceInspector inspector(&trace, &model);
        QAbstractItemModelTester tester(inspector.treeView()->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        const auto node = [&s](const QString &name) {
            return name == u"runShell"_s ? s.runShell : s.readFile;
        };
        const auto index = [&inspector](int id) {
            const QAbstractItemModel *view = inspector.treeView()->model();
            return view
                ->match(view->index(0, 0), TraceModel::NodeIdRole, id, 1,
                        Qt::MatchExactly | Qt::MatchRecursive)
                .value(0);
        };
        QVERIFY(!inspector.treeView()->isExpanded(index(s.iteration))); // a finished trace starts closed

        if (control == u"errors"_s)
            inspector.filterBar()->errorsOnlyBox()->click();
        else
            inspector.filterBar()->toolNameField()->setText(u"read"_s);

        QVERIFY(index(node(shown)).isValid());
        QVERIFY(!index(node(hidden)).isValid());
        QVERIFY(inspector.treeView()->isExpanded(index(s.turn)));
        QVERIFY(inspector.treeView()->isExpanded(index(s.iteration)));
    }

    void selectingAModelCallShowsItsRedactedJsonAndSearchHighlightsTheMatches()
    {
        Fixture f;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(f.trace, u"Bearer "_s + LeakedKey);
        QTRY_VERIFY(f.isShown(s.modelCall));

        f.clickRow(s.modelCall);

        QCOMPARE(f.selected.count(), 1);
        QCOMPARE(f.selected.at(0).at(0).toInt(), s.modelCall);
        QCOMPARE(f.inspector.selectedNode(), s.modelCall);
        Ui::TraceDetailsPane *details = f.inspector.detailsPane();
        QCOMPARE(details->node(), s.modelCall);
        const QString json = details->textView()->toPlainText();
        QVERIFY(json.contains(u"\"Authorization\": \"[redacted]\""_s));
        QVERIFY(json.contains(TraceSamples::UserText));
        QVERIFY(!json.contains(LeakedKey));

        details->searchField()->setText(u"Quarterly"_s);
        QCOMPARE(details->matchCount(), 3);
        QCOMPARE(details->textView()->extraSelections().size(), 3);
        for (const QTextEdit::ExtraSelection &selection : details->textView()->extraSelections())
            QCOMPARE(selection.cursor.selectedText(), u"quarterly"_s);
    }

    void copyAsCurlGivesTheUrlHeadersAndQuotedBodyButNoSecret()
    {
        Fixture f;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(f.trace, u"Bearer "_s + LeakedKey);
        f.inspector.selectNode(s.modelCall);

        f.inspector.detailsPane()->copyCurlAction()->trigger();

        const QString command = QGuiApplication::clipboard()->text();
        QVERIFY2(command.startsWith(u"curl 'https://api.openai.com/v1/chat/completions' \\\n"_s),
                 qPrintable(command));
        QVERIFY(command.contains(u"--header 'Content-Type: application/json'"_s));
        QVERIFY(command.contains(u"--header 'Authorization: [redacted]'"_s));
        QVERIFY(command.contains(u"--data-binary '{"_s));
        QVERIFY(command.contains(u"report, it'\\''s due Friday"_s));
        QVERIFY(!command.contains(LeakedKey));
        QVERIFY(!command.contains(u"Bearer"_s));
    }

    void clickingATimelineBarSelectsItsNodeAndEmitsNodeSelected()
    {
        Fixture f;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(f.trace);
        Ui::TraceTimeline *timeline = f.inspector.timeline();
        QTRY_COMPARE(timeline->turn(), s.turn); // nothing selected: the latest turn
        QTRY_VERIFY(!timeline->itemRect(s.runShell).isEmpty());

        QTest::mouseClick(timeline, Qt::LeftButton, {}, timeline->itemRect(s.runShell).center());

        QCOMPARE(f.selected.count(), 1);
        QCOMPARE(f.selected.at(0).at(0).toInt(), s.runShell);
        QCOMPARE(f.inspector.selectedNode(), s.runShell);
        QCOMPARE(f.tree()->currentIndex().data(TraceModel::NodeIdRole).toInt(), s.runShell);
        QCOMPARE(f.inspector.detailsPane()->node(), s.runShell);
        QCOMPARE(timeline->selectedNode(), s.runShell);
        QVERIFY(!f.inspector.isFollowing());
    }

    void selectNodeSelectsWithoutEmittingNodeSelected()
    {
        Trace trace;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(trace);
        const int laterTurn = trace.begin(-1, TraceKind::Turn, u"later"_s, T0 + 9000 * Ms, TurnData{});
        TraceModel model(&trace);
        Ui::TraceInspector inspector(&trace, &model);
        inspector.resize(600, 800);
        inspector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&inspector));
        QSignalSpy selected(&inspector, &Ui::TraceInspector::nodeSelected);
        QCOMPARE(inspector.timeline()->turn(), laterTurn);

        inspector.selectNode(s.runShell);

        QCOMPARE(selected.count(), 0);
        QCOMPARE(inspector.selectedNode(), s.runShell);
        const QModelIndex current = inspector.treeView()->currentIndex();
        QCOMPARE(current.data(TraceModel::NodeIdRole).toInt(), s.runShell);
        QVERIFY(inspector.treeView()->isExpanded(current.parent()));
        QVERIFY(inspector.treeView()->isExpanded(current.parent().parent()));
        QVERIFY(
            inspector.treeView()->viewport()->rect().intersects(inspector.treeView()->visualRect(current)));
        QCOMPARE(inspector.detailsPane()->node(), s.runShell);
        QCOMPARE(inspector.timeline()->turn(), s.turn); // the selected step's turn
        QCOMPARE(inspector.timeline()->selectedNode(), s.runShell);

        inspector.selectNode(-1);
        QCOMPARE(selected.count(), 0);
        QCOMPARE(inspector.selectedNode(), -1);
        QCOMPARE(inspector.detailsPane()->node(), -1);
        QCOMPARE(inspector.timeline()->turn(), laterTurn);
    }

    void selectNodeClearsAFilterThatHidesTheNode()
    {
        Fixture f;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(f.trace);
        f.inspector.filterModel()->setKinds({TraceKind::ModelCall});
        QVERIFY(!f.viewIndex(s.readFile).isValid());

        f.inspector.selectNode(s.readFile);

        QVERIFY(!f.inspector.filterModel()->isFiltering());
        QCOMPARE(f.inspector.filterBar()->kindButton()->text(), u"All kinds"_s);
        QCOMPARE(f.inspector.selectedNode(), s.readFile);
        QCOMPARE(f.selected.count(), 0);
    }

    void aFilterThatHidesTheSelectedStepIsNotAUserSelection()
    {
        Fixture f;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(f.trace);
        f.inspector.selectNode(s.readFile);

        f.inspector.filterModel()->setKinds({TraceKind::ModelCall});
        QVERIFY(!f.viewIndex(s.readFile).isValid());
        f.inspector.filterModel()->clearFilters();

        QCOMPARE(f.selected.count(), 0);
    }

    void aSecondTurnGetsTheTimelineWhileNothingIsSelected()
    {
        Fixture f;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(f.trace);
        QTRY_COMPARE(f.inspector.timeline()->turn(), s.turn);
        const int next = f.trace.begin(-1, TraceKind::Turn, u"next"_s, T0 + 9000 * Ms, TurnData{});
        QTRY_COMPARE(f.inspector.timeline()->turn(), next);

        f.inspector.selectNode(s.modelCall);
        f.trace.begin(-1, TraceKind::Turn, u"third"_s, T0 + 9900 * Ms, TurnData{});
        QTest::qWait(50);
        QCOMPARE(f.inspector.timeline()->turn(), s.turn); // the user's choice stays
    }

    void aDarkPaletteRecoloursTheStatuses()
    {
        Fixture f;
        const TraceSamples::Sample s = TraceSamples::addSampleTurn(f.trace);
        QPalette dark = f.inspector.palette();
        dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
        const QPalette light = f.inspector.palette();

        f.inspector.setPalette(dark);

        const QModelIndex status = f.viewIndex(s.runShell).siblingAtColumn(TraceModel::StatusColumn);
        QCOMPARE(status.data(Qt::ForegroundRole).value<QColor>(),
                 Ui::TraceIcons::statusColor(TraceStatus::Error, dark));
        QVERIFY(Ui::TraceIcons::isDark(dark) && !Ui::TraceIcons::isDark(light));
    }

    void thePartsHaveAccessibleNames()
    {
        Fixture f;
        for (QWidget *widget :
             std::initializer_list<QWidget *>{f.tree(), f.inspector.timeline(), f.inspector.detailsPane(),
                                              f.inspector.filterBar(), f.followButton()}) {
            QVERIFY(widget);
            QVERIFY2(!widget->accessibleName().isEmpty(), widget->metaObject()->className());
        }
    }

    void theDetailsGetTheRoomAndTheTimelineItsMinimum_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("a 1280x800 window's trace column") << QSize(600, 690);
        QTest::newRow("a 900x600 window's trace column") << QSize(420, 490);
    }

    void theDetailsGetTheRoomAndTheTimelineItsMinimum()
    {
        QFETCH(QSize, size);
        Fixture f(size);
        const TraceSamples::Sample sample = TraceSamples::addSampleTurn(f.trace);
        f.inspector.selectNode(sample.modelCall);
        QCoreApplication::processEvents();
        QSplitter *splitter = f.inspector.splitter();
        QWidget *timeline = splitter->widget(1);
        QCOMPARE(timeline->height(), timeline->minimumHeight());
        // The request's tree shows more than its first few rows; the tree its steps.
        const int details = f.inspector.detailsPane()->height();
        QVERIFY2(
            details >= f.inspector.treeView()->height(),
            qPrintable(u"details %1 px, tree %2 px"_s.arg(details).arg(f.inspector.treeView()->height())));
        const int rows = f.inspector.detailsPane()->requestView()->viewport()->height()
                         / f.inspector.fontMetrics().lineSpacing();
        QString sizes;
        for (int s : splitter->sizes())
            sizes += QString::number(s) + u' ';
        QVERIFY2(rows >= (size.height() > 600 ? 12 : 4),
                 qPrintable(u"%1 rows; the column %2 (details' minimum %3, request view %4)"_s.arg(rows)
                                .arg(sizes)
                                .arg(f.inspector.detailsPane()->minimumSizeHint().height())
                                .arg(f.inspector.detailsPane()->requestView()->height())));
    }

    void selectingAnotherKindOfStepLeavesTheSplitterAlone_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::newRow("a 1280x800 window's trace column") << QSize(600, 690);
        QTest::newRow("a 900x600 window's trace column") << QSize(420, 490);
    }

    void selectingAnotherKindOfStepLeavesTheSplitterAlone()
    {
        QFETCH(QSize, size);
        Fixture f(size);
        const TraceSamples::Sample sample = TraceSamples::addSampleTurn(f.trace);
        f.inspector.selectNode(sample.turn);
        QCoreApplication::processEvents();
        // The user squeezes the details as far as they go.
        QList<int> sizes = f.inspector.splitter()->sizes();
        sizes[0] += sizes[2];
        sizes[2] = 0;
        f.inspector.splitter()->setSizes(sizes);
        QCoreApplication::processEvents();
        const QList<int> chosen = f.inspector.splitter()->sizes();
        for (int node : {sample.modelCall, sample.readFile, sample.error, sample.modelCall, sample.summary,
                         sample.turn}) {
            f.inspector.selectNode(node);
            QCoreApplication::processEvents();
            QCOMPARE(f.inspector.splitter()->sizes(), chosen);
        }
    }

    void aSidePanelShownAndHiddenGivesTheSizesBack()
    {
        Fixture f(QSize(600, 690));
        TraceSamples::addSampleTurn(f.trace);
        auto *panel = new QWidget;
        f.inspector.setSidePanel(panel);
        QCoreApplication::processEvents();
        QList<int> sizes = f.inspector.splitter()->sizes();
        // Where the user put them.
        sizes[0] += 40;
        sizes[2] -= 40;
        f.inspector.splitter()->setSizes(sizes);
        const QList<int> chosen = f.inspector.splitter()->sizes();

        f.inspector.showSidePanel(true);
        QTRY_VERIFY(panel->isVisible());
        QVERIFY(f.inspector.splitter()->sizes() != chosen);
        f.inspector.showSidePanel(false);
        QTRY_VERIFY(panel->isHidden());
        QCOMPARE(f.inspector.splitter()->sizes(), chosen);
    }

    void aSidePanelTakesItsRoomFromTheDetailsNotTheTree_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("treeKeepsItsHeight"); // else it keeps its minimum, a few rows
        QTest::newRow("a 1280x800 window's trace column") << QSize(600, 690) << true;
        QTest::newRow("a 900x600 window's trace column") << QSize(420, 490) << false;
    }

    void aSidePanelTakesItsRoomFromTheDetailsNotTheTree()
    {
        QFETCH(QSize, size);
        QFETCH(bool, treeKeepsItsHeight);
        Fixture f;
        TraceSamples::addSampleTurn(f.trace);
        auto *panel = new QWidget;
        f.inspector.setSidePanel(panel);
        f.inspector.resize(size);
        f.inspector.show();
        QVERIFY(QTest::qWaitForWindowExposed(&f.inspector));
        QVERIFY(panel->isHidden());
        const int treeBefore = f.inspector.treeView()->height();
        const int detailsBefore = f.inspector.detailsPane()->height();

        f.inspector.showSidePanel(true);

        QTRY_VERIFY(panel->isVisible());
        QTRY_VERIFY(panel->height() >= panel->minimumHeight()); // a few lines, set by the inspector
        QVERIFY(panel->minimumHeight() > 0);
        if (treeKeepsItsHeight)
            QVERIFY(f.inspector.treeView()->height() >= treeBefore);
        else
            QVERIFY(f.inspector.treeView()->height() >= 5 * f.inspector.fontMetrics().lineSpacing());
        QVERIFY(f.inspector.detailsPane()->height() < detailsBefore);
        const QList<int> sizes = f.inspector.splitter()->sizes();
        for (int i = 0; i < sizes.size(); ++i)
            QVERIFY2(sizes.at(i) > 0 && sizes.at(i) >= f.inspector.splitter()->widget(i)->minimumHeight(),
                     qPrintable(QString::number(i)));

        f.inspector.showSidePanel(false);
        QTRY_VERIFY(panel->isHidden());
    }
};

QTEST_MAIN(TraceInspectorTest)
#include "tst_traceinspector.moc"
