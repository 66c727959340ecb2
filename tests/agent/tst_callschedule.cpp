// Which of one response's tool calls may start next: the model's order, and calls sharing an
// exclusive key (the same file) one after another.

#include "agent/loop/callschedule.h"

#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

using Stage = CallSchedule::Stage;

namespace {

// Takes every startable call in order, as the tool phase does with no parallel limit.
QList<int> startAll(CallSchedule &schedule)
{
    QList<int> started;
    while (const std::optional<int> next = schedule.nextStartable()) {
        schedule.setStage(*next, Stage::Running);
        started.append(*next);
    }
    return started;
}

} // namespace

class CallScheduleTest : public QObject
{
    Q_OBJECT

private slots:
    void callsStartInTheModelsOrderOnceQueued_data()
    {
        QTest::addColumn<QStringList>("keys");
        QTest::addColumn<QList<int>>("startFirst");
        QTest::addColumn<QList<int>>("startAfterTheFirstFinishes");

        QTest::newRow("no keys: all at once")
            << QStringList{{}, {}, {}} << QList<int>{0, 1, 2} << QList<int>{};
        QTest::newRow("one key: one after another")
            << QStringList{u"a"_s, u"a"_s, u"a"_s} << QList<int>{0} << QList<int>{1};
        QTest::newRow("two keys interleaved")
            << QStringList{u"a"_s, u"b"_s, u"a"_s, u"b"_s} << QList<int>{0, 1} << QList<int>{2};
        QTest::newRow("a keyless call is never held back")
            << QStringList{u"a"_s, u"a"_s, {}} << QList<int>{0, 2} << QList<int>{1};
    }

    void callsStartInTheModelsOrderOnceQueued()
    {
        QFETCH(QStringList, keys);
        QFETCH(QList<int>, startFirst);
        QFETCH(QList<int>, startAfterTheFirstFinishes);
        CallSchedule schedule;
        schedule.reset(int(keys.size()));
        // Queued last to first: the order they start in is still the model's.
        for (int i = int(keys.size()) - 1; i >= 0; --i) {
            schedule.setExclusiveKey(i, keys.at(i));
            schedule.setStage(i, Stage::Queued);
        }
        QCOMPARE(startAll(schedule), startFirst);
        QCOMPARE(schedule.running(), startFirst.size());

        schedule.setStage(0, Stage::Done);
        QCOMPARE(startAll(schedule), startAfterTheFirstFinishes);
        QVERIFY(!schedule.allDone());
    }

    void aCallWaitsForAnEarlierCallOfItsKeyInEveryStage_data()
    {
        QTest::addColumn<Stage>("earlierStage");
        QTest::newRow("checking") << Stage::Checking;
        QTest::newRow("awaiting a decision") << Stage::AwaitingDecision;
        QTest::newRow("queued") << Stage::Queued;
        QTest::newRow("running") << Stage::Running;
    }

    void aCallWaitsForAnEarlierCallOfItsKeyInEveryStage()
    {
        QFETCH(Stage, earlierStage);
        CallSchedule schedule;
        schedule.reset(2);
        schedule.setExclusiveKey(0, u"notes.md"_s);
        schedule.setExclusiveKey(1, u"notes.md"_s);
        schedule.setStage(0, earlierStage);
        schedule.setStage(1, Stage::Queued);

        const std::optional<int> next = schedule.nextStartable();
        if (earlierStage == Stage::Queued)
            QCOMPARE(next, std::optional<int>(0));
        else
            QCOMPARE(next, std::nullopt);

        schedule.setStage(0, Stage::Done);
        QCOMPARE(schedule.nextStartable(), std::optional<int>(1));
    }

    void anEditedKeyReleasesTheOldFileAndHoldsTheNewOne()
    {
        CallSchedule schedule;
        schedule.reset(3);
        schedule.setExclusiveKey(0, u"a.txt"_s);
        schedule.setExclusiveKey(1, u"a.txt"_s);
        schedule.setExclusiveKey(2, u"b.txt"_s);
        schedule.setStage(0, Stage::AwaitingDecision);
        schedule.setStage(1, Stage::Queued);
        schedule.setStage(2, Stage::Queued);
        QCOMPARE(schedule.nextStartable(), std::optional<int>(2));

        // The user edits call 0 to write b.txt instead: call 1 may go, call 2 now waits for call 0.
        schedule.setExclusiveKey(0, u"b.txt"_s);
        QCOMPARE(startAll(schedule), QList<int>{1});
        schedule.setStage(0, Stage::Queued);
        QCOMPARE(startAll(schedule), QList<int>{0});
        schedule.setStage(0, Stage::Done);
        QCOMPARE(startAll(schedule), QList<int>{2});
    }

    void theCountsFollowTheStages()
    {
        CallSchedule schedule;
        schedule.reset(3);
        QVERIFY(!schedule.allDone());
        schedule.setStage(0, Stage::AwaitingDecision);
        schedule.setStage(1, Stage::AwaitingDecision);
        QCOMPARE(schedule.awaitingDecision(), 2);
        schedule.setStage(1, Stage::Queued);
        schedule.setStage(1, Stage::Running);
        QCOMPARE(schedule.awaitingDecision(), 1);
        QCOMPARE(schedule.running(), 1);
        for (int i = 0; i < 3; ++i)
            schedule.setStage(i, Stage::Done);
        QCOMPARE(schedule.running(), 0);
        QCOMPARE(schedule.awaitingDecision(), 0);
        QVERIFY(schedule.allDone());

        schedule.reset(0);
        QVERIFY(schedule.allDone()); // a response without calls has nothing to wait for
    }
};

QTEST_GUILESS_MAIN(CallScheduleTest)
#include "tst_callschedule.moc"
