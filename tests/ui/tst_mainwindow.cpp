#include "mainwindow.h"
#include "trace/trace.h"

#include <QSplitter>
#include <QTest>
#include <QTreeView>

using namespace Loopscope;
using namespace Qt::StringLiterals;

class MainWindowTest : public QObject
{
    Q_OBJECT

private slots:
    void theWindowShowsConversationAndTraceSideBySide()
    {
        Trace trace;
        Ui::MainWindow window(&trace);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QCOMPARE(window.splitter()->count(), 2);
        QCOMPARE(window.splitter()->orientation(), Qt::Horizontal);
        QCOMPARE(window.splitter()->widget(0)->accessibleName(), u"Conversation"_s);
        QCOMPARE(window.splitter()->widget(1), window.traceView());
        QVERIFY(window.traceView()->isVisible());
    }

    void theTraceTreeGrowsWithTheTrace()
    {
        Trace trace;
        Ui::MainWindow window(&trace);
        QAbstractItemModel *model = window.traceView()->model();
        QCOMPARE(model->rowCount(), 0);

        const int turn = trace.begin(-1, TraceKind::Turn, u"hello"_s, 1, TurnData{});
        trace.begin(turn, TraceKind::Iteration, u"Iteration 1 of 10"_s, 2, IterationData{});

        QCOMPARE(model->rowCount(), 1);
        const QModelIndex turnIndex = model->index(0, 0);
        QCOMPARE(turnIndex.data().toString(), u"hello"_s);
        QCOMPARE(model->rowCount(turnIndex), 1);
    }
};

QTEST_MAIN(MainWindowTest)
#include "tst_mainwindow.moc"
