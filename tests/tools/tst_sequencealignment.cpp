#include "agent/tools/sequencealignment.h"

#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

QStringList numbered(const QString &word, int count)
{
    QStringList items;
    for (int i = 1; i <= count; ++i)
        items.append(u"%1 %2"_s.arg(word).arg(i));
    return items;
}

} // namespace

class SequenceAlignmentTest : public QObject
{
    Q_OBJECT

private slots:
    void equalElementsPairUpInOrder_data()
    {
        QTest::addColumn<QStringList>("left");
        QTest::addColumn<QStringList>("right");
        QTest::addColumn<QList<AlignedPair>>("pairs");

        const QStringList abc{u"a"_s, u"b"_s, u"c"_s};
        QTest::newRow("equal sequences pair up one to one")
            << abc << abc << QList<AlignedPair>{{0, 0}, {1, 1}, {2, 2}};
        QTest::newRow("an element only the right has stands alone")
            << abc << QStringList{u"a"_s, u"x"_s, u"b"_s, u"c"_s}
            << QList<AlignedPair>{{0, 0}, {-1, 1}, {1, 2}, {2, 3}};
        QTest::newRow("an element only the left has stands alone")
            << abc << QStringList{u"b"_s, u"c"_s} << QList<AlignedPair>{{0, -1}, {1, 0}, {2, 1}};
        QTest::newRow("a replaced element: the left one comes first")
            << abc << QStringList{u"a"_s, u"x"_s, u"c"_s}
            << QList<AlignedPair>{{0, 0}, {1, -1}, {-1, 1}, {2, 2}};
        QTest::newRow("changes at both ends are found past the equal middle")
            << QStringList{u"x"_s, u"b"_s, u"c"_s, u"y"_s} << QStringList{u"b"_s, u"c"_s, u"z"_s}
            << QList<AlignedPair>{{0, -1}, {1, 0}, {2, 1}, {3, -1}, {-1, 2}};
        QTest::newRow("nothing is matched across a move")
            << QStringList{u"a"_s, u"b"_s} << QStringList{u"b"_s, u"a"_s}
            << QList<AlignedPair>{{0, -1}, {1, 0}, {-1, 1}};
        QTest::newRow("repeated elements pair up in order")
            << QStringList{u"a"_s, u"a"_s} << QStringList{u"a"_s, u"a"_s, u"a"_s}
            << QList<AlignedPair>{{0, 0}, {1, 1}, {-1, 2}};
        QTest::newRow("an empty left: all right")
            << QStringList{} << QStringList{u"a"_s, u"b"_s} << QList<AlignedPair>{{-1, 0}, {-1, 1}};
        QTest::newRow("an empty right: all left")
            << QStringList{u"a"_s} << QStringList{} << QList<AlignedPair>{{0, -1}};
        QTest::newRow("both empty") << QStringList{} << QStringList{} << QList<AlignedPair>{};
    }
    void equalElementsPairUpInOrder()
    {
        QFETCH(QStringList, left);
        QFETCH(QStringList, right);
        QFETCH(QList<AlignedPair>, pairs);
        const SequenceAlignment alignment = alignSequences(left, right);
        QCOMPARE(alignment.pairs, pairs);
        QVERIFY(!alignment.approximate);
    }

    void aSmallChangeInALongSequenceIsAligned()
    {
        const QStringList left = numbered(u"line"_s, 100'000);
        QStringList right = left;
        right[50'000] = u"changed"_s;
        const SequenceAlignment alignment = alignSequences(left, right);
        QVERIFY(!alignment.approximate);
        QCOMPARE(alignment.pairs.size(), 100'001);
        QCOMPARE(alignment.pairs.at(49'999), (AlignedPair{49'999, 49'999}));
        QCOMPARE(alignment.pairs.at(50'000), (AlignedPair{50'000, -1}));
        QCOMPARE(alignment.pairs.at(50'001), (AlignedPair{-1, 50'000}));
        QCOMPARE(alignment.pairs.constLast(), (AlignedPair{99'999, 99'999}));
    }

    void aMiddleUpToTheCapIsAligned()
    {
        const int size = SequenceAlignment::MaxAlignedElements / 2;
        const SequenceAlignment alignment
            = alignSequences(changedAtBothEnds(u"old"_s, size), changedAtBothEnds(u"new"_s, size));
        QVERIFY(!alignment.approximate);
        QCOMPARE(alignment.pairs.size(), size + 2);
        QCOMPARE(alignment.pairs.at(2), (AlignedPair{1, 1}));
    }

    void aMiddleBeyondTheCapStandsAloneButItsEqualEndsPairUp()
    {
        const int size = SequenceAlignment::MaxAlignedElements / 2 + 1;
        const QStringList left
            = QStringList{u"head"_s} + changedAtBothEnds(u"old"_s, size) + QStringList{u"tail"_s};
        const QStringList right
            = QStringList{u"head"_s} + changedAtBothEnds(u"new"_s, size) + QStringList{u"tail"_s};

        const SequenceAlignment alignment = alignSequences(left, right);

        QVERIFY(alignment.approximate);
        QList<AlignedPair> expected{{0, 0}};
        for (int i = 1; i <= size; ++i)
            expected.append({i, -1});
        for (int j = 1; j <= size; ++j)
            expected.append({-1, j});
        expected.append({size + 1, size + 1});
        QCOMPARE(alignment.pairs, expected);
    }

private:
    // \a size elements, equal but for the first and the last: all of it is the middle.
    static QStringList changedAtBothEnds(const QString &word, int size)
    {
        return QStringList{word + u" first"_s} + numbered(u"line"_s, size - 2)
               + QStringList{word + u" last"_s};
    }
};

QTEST_GUILESS_MAIN(SequenceAlignmentTest)
#include "tst_sequencealignment.moc"
