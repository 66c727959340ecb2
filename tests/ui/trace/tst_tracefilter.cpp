#include "agent/trace/tracemodel.h"
#include "tests/ui/trace/tracesamples.h"
#include "ui/trace/tracefilterbar.h"
#include "ui/trace/tracefilterproxymodel.h"
#include "ui/trace/tracestyleproxy.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

// The visible tree as text: labels, children in brackets, e.g. "turn[iteration[call]]".
QString treeText(const QAbstractItemModel &model, const QModelIndex &parent = {})
{
    QStringList rows;
    for (int row = 0; row < model.rowCount(parent); ++row) {
        const QModelIndex index = model.index(row, 0, parent);
        const QString children = treeText(model, index);
        rows.append(index.data().toString() + (children.isEmpty() ? QString() : u'[' + children + u']'));
    }
    return rows.join(u", "_s);
}

struct Filter
{
    QList<TraceKind> kinds;
    QString toolName;
    bool errorsOnly = false;
};

/*
    The proxy stack the inspector uses, over a trace of two turns:
      Summarise the report[Iteration 1 of 10[chat gpt-4o-mini[Retry after attempt 1],
                            read_file, run_shell, run_shell failed], Summary]
      Check the weather[Iteration 1 of 10[chat gpt-4o-mini, Shield "no secrets" (blocked)]]
*/
class Fixture
{
public:
    Fixture()
    {
        sample = TraceSamples::addSampleTurn(trace);
        secondTurn = trace.begin(-1, TraceKind::Turn, u"Check the weather"_s, TraceSamples::T0 + 5'000'000,
                                 TurnData{});
        const int iteration = trace.begin(secondTurn, TraceKind::Iteration, u"Iteration 1 of 10"_s,
                                          TraceSamples::T0 + 5'000'000, IterationData{1, 10});
        const int call = trace.begin(iteration, TraceKind::ModelCall, u"chat gpt-4o-mini"_s,
                                     TraceSamples::T0 + 5'100'000, ModelCallData{});
        trace.finish(call, TraceStatus::Ok, TraceSamples::T0 + 5'200'000);
        blockedShield = trace.begin(iteration, TraceKind::ShieldCheck, u"Shield no secrets"_s,
                                    TraceSamples::T0 + 5'300'000, ShieldCheckData{});
        trace.finish(blockedShield, TraceStatus::Blocked, TraceSamples::T0 + 5'300'000);
        style.setSourceModel(&model);
        filter.setSourceModel(&style);
    }

    Trace trace;
    TraceModel model{&trace};
    Ui::TraceStyleProxy style;
    Ui::TraceFilterProxyModel filter;
    QAbstractItemModelTester tester{&filter, QAbstractItemModelTester::FailureReportingMode::QtTest};
    TraceSamples::Sample sample;
    int secondTurn = -1;
    int blockedShield = -1;
};

} // namespace

Q_DECLARE_METATYPE(Filter)

class TraceFilterTest : public QObject
{
    Q_OBJECT

private slots:
    void filtersKeepMatchesWithTheirAncestorsAndHideTheRest_data()
    {
        QTest::addColumn<Filter>("filter");
        QTest::addColumn<QString>("expected");

        QTest::newRow("no filter shows every step")
            << Filter{}
            << u"Summarise the report[Iteration 1 of 10[chat gpt-4o-mini[Retry after attempt 1], "
               "read_file, run_shell, run_shell failed], Summary], "
               "Check the weather[Iteration 1 of 10[chat gpt-4o-mini, Shield no secrets]]"_s;
        QTest::newRow("model calls keep their turns and iterations but not their retries")
            << Filter{{TraceKind::ModelCall}}
            << u"Summarise the report[Iteration 1 of 10[chat gpt-4o-mini]], "
               "Check the weather[Iteration 1 of 10[chat gpt-4o-mini]]"_s;
        QTest::newRow("two kinds show both")
            << Filter{{TraceKind::Retry, TraceKind::Summary}}
            << u"Summarise the report[Iteration 1 of 10[chat gpt-4o-mini[Retry after attempt 1]], Summary]"_s;
        QTest::newRow("turns alone show no children")
            << Filter{{TraceKind::Turn}} << u"Summarise the report, Check the weather"_s;
        QTest::newRow("a tool name matches part of the name, ignoring case")
            << Filter{{}, u"SHELL"_s} << u"Summarise the report[Iteration 1 of 10[run_shell]]"_s;
        QTest::newRow("a tool name shared by two tools shows both")
            << Filter{{}, u"_"_s} << u"Summarise the report[Iteration 1 of 10[read_file, run_shell]]"_s;
        QTest::newRow("a tool name nobody has shows nothing") << Filter{{}, u"browser"_s} << QString();
        QTest::newRow("a tool name does not match labels of other steps")
            << Filter{{}, u"chat"_s} << QString();
        QTest::newRow("errors only keeps failures, blocked checks and error nodes")
            << Filter{{}, {}, true}
            << u"Summarise the report[Iteration 1 of 10[chat gpt-4o-mini[Retry after attempt 1], run_shell, "
               "run_shell failed]], Check the weather[Iteration 1 of 10[Shield no secrets]]"_s;
        QTest::newRow("errors only with a kind needs both")
            << Filter{{TraceKind::ToolCall}, {}, true}
            << u"Summarise the report[Iteration 1 of 10[run_shell]]"_s;
        QTest::newRow("errors only with a tool that succeeded shows nothing")
            << Filter{{}, u"read_file"_s, true} << QString();
    }

    void filtersKeepMatchesWithTheirAncestorsAndHideTheRest()
    {
        QFETCH(Filter, filter);
        QFETCH(QString, expected);
        Fixture f;
        QSignalSpy changed(&f.filter, &Ui::TraceFilterProxyModel::filtersChanged);

        f.filter.setKinds(filter.kinds);
        f.filter.setToolName(filter.toolName);
        f.filter.setErrorsOnly(filter.errorsOnly);

        QCOMPARE(treeText(f.filter), expected);
        const bool filtering = !filter.kinds.isEmpty() || !filter.toolName.isEmpty() || filter.errorsOnly;
        QCOMPARE(f.filter.isFiltering(), filtering);
        QCOMPARE(changed.count(),
                 int(!filter.kinds.isEmpty()) + int(!filter.toolName.isEmpty()) + int(filter.errorsOnly));
    }

    void clearingTheFilterShowsEveryStepAgain()
    {
        Fixture f;
        const QString everything = treeText(f.filter);
        f.filter.setKinds({TraceKind::Error});
        f.filter.setErrorsOnly(true);
        QVERIFY(treeText(f.filter) != everything);

        QSignalSpy changed(&f.filter, &Ui::TraceFilterProxyModel::filtersChanged);
        f.filter.clearFilters();
        QCOMPARE(treeText(f.filter), everything);
        QCOMPARE(changed.count(), 1);
        f.filter.clearFilters();
        QCOMPARE(changed.count(), 1); // nothing to clear, nothing to say
    }

    void kindsCanBeSwitchedOneByOne()
    {
        Fixture f;
        f.filter.setKindEnabled(TraceKind::ToolCall, true);
        f.filter.setKindEnabled(TraceKind::Summary, true);
        QCOMPARE(f.filter.kinds(), (QList<TraceKind>{TraceKind::ToolCall, TraceKind::Summary}));
        f.filter.setKindEnabled(TraceKind::ToolCall, false);
        QCOMPARE(f.filter.kinds(), QList<TraceKind>{TraceKind::Summary});
        QCOMPARE(treeText(f.filter), u"Summarise the report[Summary]"_s);
    }

    void newMatchingStepsAppearLiveWithTheirAncestors()
    {
        Fixture f;
        f.filter.setKinds({TraceKind::ToolCall});
        const QString before = treeText(f.filter);

        const int turn
            = f.trace.begin(-1, TraceKind::Turn, u"Third"_s, TraceSamples::T0 + 9'000'000, TurnData{});
        const int iteration = f.trace.begin(turn, TraceKind::Iteration, u"Iteration 1"_s,
                                            TraceSamples::T0 + 9'000'000, IterationData{1, 10});
        QCOMPARE(treeText(f.filter), before); // nothing matches yet
        f.trace.begin(iteration, TraceKind::ToolCall, u"search"_s, TraceSamples::T0 + 9'100'000,
                      TraceSamples::toolCallData(u"search"_s, u"{}"_s));

        QCOMPARE(treeText(f.filter), before + u", Third[Iteration 1[search]]"_s);
    }

    void aStepThatFailsLaterAppearsUnderErrorsOnly()
    {
        Fixture f;
        f.filter.setErrorsOnly(true);
        const int call = f.trace.begin(f.sample.iteration, TraceKind::ToolCall, u"fetch_url"_s,
                                       TraceSamples::T0 + 2'050'000,
                                       TraceSamples::toolCallData(u"fetch_url"_s, u"{}"_s));
        QVERIFY(!treeText(f.filter).contains(u"fetch_url"_s)); // running is not failing

        f.trace.finish(call, TraceStatus::Denied, TraceSamples::T0 + 2'060'000);

        QVERIFY2(treeText(f.filter).contains(u"run_shell failed, fetch_url]"_s),
                 qPrintable(treeText(f.filter)));
    }

    void theFilterBarDrivesTheProxyAndShowsItsState()
    {
        Fixture f;
        Ui::TraceFilterBar bar(&f.filter);

        QTest::keyClicks(bar.toolNameField(), u"read"_s);
        QCOMPARE(f.filter.toolName(), u"read"_s);
        QCOMPARE(treeText(f.filter), u"Summarise the report[Iteration 1 of 10[read_file]]"_s);
        QVERIFY(bar.clearButton()->isEnabled());

        bar.errorsOnlyBox()->click();
        QVERIFY(f.filter.errorsOnly());

        QAction *toolCalls = nullptr;
        for (QAction *action : bar.kindButton()->menu()->actions()) {
            if (action->text() == TraceModel::kindDisplayName(TraceKind::ToolCall))
                toolCalls = action;
        }
        QVERIFY(toolCalls);
        toolCalls->trigger();
        QCOMPARE(f.filter.kinds(), QList<TraceKind>{TraceKind::ToolCall});
        QCOMPARE(bar.kindButton()->text(), TraceModel::kindDisplayName(TraceKind::ToolCall));

        // Cleared elsewhere: the controls follow.
        f.filter.clearFilters();
        QVERIFY(bar.toolNameField()->text().isEmpty());
        QVERIFY(!bar.errorsOnlyBox()->isChecked());
        QVERIFY(!toolCalls->isChecked());
        QVERIFY(!bar.clearButton()->isEnabled());
        QCOMPARE(bar.kindButton()->text(), u"All kinds"_s);
    }

    void aSqueezedFilterBarKeepsTheToolNameFieldReadable()
    {
        Fixture f;
        Ui::TraceFilterBar bar(&f.filter);
        bar.resize(bar.minimumSizeHint().width(), bar.sizeHint().height());
        bar.show();
        QVERIFY(QTest::qWaitForWindowExposed(&bar));
        QLineEdit *field = bar.toolNameField();
        // Its words beside the clear button and the frame, not "T…".
        const QFontMetrics metrics = field->fontMetrics();
        const int chrome = field->minimumSizeHint().width() - metrics.maxWidth();
        QVERIFY2(field->width() >= chrome + metrics.horizontalAdvance(field->placeholderText()),
                 qPrintable(u"%1 px"_s.arg(field->width())));
    }

    void theFilterBarsControlsHaveAccessibleNames()
    {
        Fixture f;
        Ui::TraceFilterBar bar(&f.filter);
        for (QWidget *control : std::initializer_list<QWidget *>{bar.kindButton(), bar.toolNameField(),
                                                                 bar.errorsOnlyBox(), bar.clearButton()})
            QVERIFY2(!control->accessibleName().isEmpty(), control->metaObject()->className());
    }
};

QTEST_MAIN(TraceFilterTest)
#include "tst_tracefilter.moc"
