#include "agent/knowledge/vectorsearch.h"

#include <QTest>

#include <cmath>

using namespace Loopscope;
using namespace Loopscope::VectorSearch;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(QList<QList<qint64>>)

namespace {

std::pair<qint64, QByteArray> stored(qint64 id, const Embedding &vector)
{
    return {id, toBlob(normalized(vector))};
}

bool near(double a, double b)
{
    return std::abs(a - b) < 1e-5;
}

} // namespace

/*
    Vector search's arithmetic: float32 BLOBs, cosine similarity, the
    nearest passages, and reciprocal rank fusion of two rankings.
*/
class TestVectorSearch final : public QObject
{
    Q_OBJECT

private slots:
    void aVectorSurvivesItsBlobExactly()
    {
        const Embedding vector{0.0f, -1.5f, 3.25e-7f, 1e30f, -0.0f};
        const QByteArray blob = toBlob(vector);
        QCOMPARE(blob.size(), qsizetype(5 * sizeof(float)));
        QCOMPARE(fromBlob(blob), vector);
        QVERIFY(fromBlob(blob.left(7)).isEmpty()); // not a whole number of floats
        QVERIFY(fromBlob({}).isEmpty());
    }

    void cosineIsTheAngleWhateverTheLengths_data()
    {
        QTest::addColumn<Embedding>("a");
        QTest::addColumn<Embedding>("b");
        QTest::addColumn<double>("expected");
        QTest::newRow("the same direction") << Embedding{1, 2, 3} << Embedding{2, 4, 6} << 1.0;
        QTest::newRow("opposite") << Embedding{1, 0} << Embedding{-3, 0} << -1.0;
        QTest::newRow("at right angles") << Embedding{1, 0} << Embedding{0, 5} << 0.0;
        QTest::newRow("forty-five degrees") << Embedding{1, 0} << Embedding{1, 1} << std::sqrt(0.5);
        QTest::newRow("a zero vector") << Embedding{0, 0} << Embedding{1, 1} << 0.0;
        QTest::newRow("other sizes") << Embedding{1, 0} << Embedding{1, 0, 0} << 0.0;
    }

    void cosineIsTheAngleWhateverTheLengths()
    {
        QFETCH(Embedding, a);
        QFETCH(Embedding, b);
        QFETCH(double, expected);
        QVERIFY2(near(cosine(a, b), expected), qPrintable(QString::number(cosine(a, b))));
        if (a.size() == b.size()) {
            const Embedding unitA = normalized(a);
            const Embedding unitB = normalized(b);
            QVERIFY(near(dot(unitA.constData(), unitB.constData(), a.size()), expected));
        }
    }

    void theNearestPassagesComeBestFirst()
    {
        const QList<std::pair<qint64, QByteArray>> candidates{
            stored(10, {1, 0, 0}),       stored(11, {0.9f, 0.1f, 0}),
            stored(12, {0, 1, 0}),       stored(13, {-1, 0, 0}),
            stored(14, {0.5f, 0.5f, 0}), {15, toBlob(Embedding{1, 0})}, // another model's vector: left out
        };
        const QList<Scored> best = nearest({2, 0, 0}, candidates, 3);
        QCOMPARE(best.size(), 3);
        QCOMPARE(best.at(0).id, 10);
        QCOMPARE(best.at(1).id, 11);
        QCOMPARE(best.at(2).id, 14);
        QVERIFY(near(best.at(0).score, 1.0));
        QVERIFY(near(best.at(2).score, std::sqrt(0.5)));
        QCOMPARE(nearest({2, 0, 0}, candidates, 100).size(), 5);
        QVERIFY(nearest({2, 0, 0}, candidates, 0).isEmpty());
    }

    // What a search scores in memory (VectorMatrix): every row, longer than one SIMD block so the dot
    // product's eight running sums and its tail both count; the best rows first, ties in row order.
    void theRowsOfAMatrixAreScoredAndTheBestComeFirst()
    {
        constexpr int Dimensions = 19;
        VectorMatrix matrix;
        matrix.dimensions = Dimensions;
        const auto addRow = [&matrix](qint64 id, int hot) {
            Embedding row(Dimensions, 0.0f);
            row[hot] = 1.0f;
            matrix.ids.append(id);
            matrix.values.insert(matrix.values.end(), row.cbegin(), row.cend());
        };
        addRow(3, 18); // only in the tail
        addRow(5, 2);
        addRow(8, 18);
        addRow(9, 7);
        Embedding query(Dimensions, 0.0f);
        query[18] = 2.0f;
        query[7] = 1.0f;

        const std::vector<float> scores = similarities(normalized(query), matrix);
        QCOMPARE(scores.size(), size_t(4));
        QVERIFY(near(scores[0], 2.0 / std::sqrt(5.0)));
        QVERIFY(near(scores[1], 0.0));
        QVERIFY(near(scores[3], 1.0 / std::sqrt(5.0)));
        QCOMPARE(bestRows(scores, 3), (QList<qsizetype>{0, 2, 3}));
        QCOMPARE(bestRows(scores, 10).size(), 4);
        QVERIFY(bestRows(scores, 0).isEmpty());
        // A query of another size scores nothing.
        QCOMPARE(similarities(Embedding{1, 0}, matrix), std::vector<float>(4, 0.0f));
    }

    void fusionRanksWhatBothRankingsHoldHighFirst_data()
    {
        QTest::addColumn<QList<QList<qint64>>>("rankings");
        QTest::addColumn<QList<qint64>>("expected");
        QTest::addColumn<double>("bestScore");
        QTest::newRow("one ranking keeps its order")
            << QList<QList<qint64>>{{3, 1, 2}} << QList<qint64>{3, 1, 2} << 1.0 / 61;
        QTest::newRow("second in both beats first in one")
            << QList<QList<qint64>>{{1, 2, 3}, {4, 2, 5}} << QList<qint64>{2, 1, 4, 3, 5} << 2.0 / 62;
        QTest::newRow("ties keep the order of first appearance")
            << QList<QList<qint64>>{{7, 8}, {8, 7}} << QList<qint64>{7, 8} << 1.0 / 61 + 1.0 / 62;
        QTest::newRow("nothing to fuse") << QList<QList<qint64>>{{}, {}} << QList<qint64>{} << 0.0;
    }

    void fusionRanksWhatBothRankingsHoldHighFirst()
    {
        QFETCH(QList<QList<qint64>>, rankings);
        QFETCH(QList<qint64>, expected);
        QFETCH(double, bestScore);
        const QList<Scored> fused = fuse(rankings);
        QList<qint64> ids;
        for (const Scored &scored : fused)
            ids.append(scored.id);
        QCOMPARE(ids, expected);
        if (!fused.isEmpty())
            QVERIFY(near(fused.constFirst().score, bestScore));
    }
};

QTEST_GUILESS_MAIN(TestVectorSearch)
#include "tst_vectorsearch.moc"
