#include "agent/knowledge/vectorsearch.h"

#include <QHash>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

namespace Loopscope::VectorSearch {

QByteArray toBlob(const Embedding &vector)
{
    return QByteArray(reinterpret_cast<const char *>(vector.constData()),
                      vector.size() * qsizetype(sizeof(float)));
}

Embedding fromBlob(QByteArrayView blob)
{
    // An empty blob has no data pointer, and memcpy may not be handed a null one even for 0 bytes.
    if (blob.isEmpty() || blob.size() % qsizetype(sizeof(float)) != 0)
        return {};
    Embedding vector(blob.size() / qsizetype(sizeof(float)));
    std::memcpy(vector.data(), blob.data(), size_t(blob.size()));
    return vector;
}

float dot(const float *a, const float *b, qsizetype size)
{
    // Eight running sums, not one: a single sum is a chain of dependent additions the compiler may not
    // reorder (that would change the rounding), so it can neither use SIMD lanes nor overlap them. Eight
    // independent sums fill two SSE registers (-O2 vectorises them), and the result is the same on every
    // machine, since the order of the additions is fixed here.
    constexpr qsizetype Lanes = 8;
    float sums[Lanes] = {};
    qsizetype i = 0;
    for (; i + Lanes <= size; i += Lanes) {
        for (qsizetype lane = 0; lane < Lanes; ++lane)
            sums[lane] += a[i + lane] * b[i + lane];
    }
    for (; i < size; ++i)
        sums[0] += a[i] * b[i];
    return ((sums[0] + sums[4]) + (sums[1] + sums[5])) + ((sums[2] + sums[6]) + (sums[3] + sums[7]));
}

Embedding normalized(Embedding vector)
{
    const float length = std::sqrt(dot(vector.constData(), vector.constData(), vector.size()));
    if (length > 0) {
        for (float &value : vector)
            value /= length;
    }
    return vector;
}

float cosine(const Embedding &a, const Embedding &b)
{
    if (a.size() != b.size())
        return 0;
    const float lengths = std::sqrt(dot(a.constData(), a.constData(), a.size())
                                    * dot(b.constData(), b.constData(), b.size()));
    return lengths > 0 ? dot(a.constData(), b.constData(), a.size()) / lengths : 0;
}

QList<Scored> nearest(const Embedding &query, const QList<std::pair<qint64, QByteArray>> &candidates,
                      int topK)
{
    const Embedding unit = normalized(query);
    const qsizetype bytes = unit.size() * qsizetype(sizeof(float));
    QList<Scored> scored;
    scored.reserve(candidates.size());
    Embedding aligned(unit.size()); // a BLOB's bytes need not be aligned for floats
    for (const auto &[id, blob] : candidates) {
        if (blob.size() != bytes || bytes == 0)
            continue;
        std::memcpy(aligned.data(), blob.constData(), size_t(bytes));
        scored.append({id, dot(unit.constData(), aligned.constData(), unit.size())});
    }
    const qsizetype keep = std::min<qsizetype>(std::max(topK, 0), scored.size());
    std::partial_sort(scored.begin(), scored.begin() + keep, scored.end(),
                      [](const Scored &a, const Scored &b) { return a.score > b.score; });
    scored.resize(keep);
    return scored;
}

std::vector<float> similarities(const Embedding &unit, const VectorMatrix &matrix)
{
    std::vector<float> scores(size_t(matrix.ids.size()), 0.0f);
    if (unit.size() != matrix.dimensions)
        return scores;
    for (qsizetype row = 0; row < matrix.ids.size(); ++row)
        scores[size_t(row)] = dot(unit.constData(), matrix.row(row), matrix.dimensions);
    return scores;
}

QList<qsizetype> bestRows(const std::vector<float> &scores, int topK)
{
    std::vector<qsizetype> rows(scores.size());
    std::iota(rows.begin(), rows.end(), qsizetype(0));
    const size_t keep = std::min(size_t(std::max(topK, 0)), rows.size());
    std::partial_sort(
        rows.begin(), rows.begin() + qsizetype(keep), rows.end(), [&scores](qsizetype a, qsizetype b) {
            return scores[size_t(a)] > scores[size_t(b)] || (scores[size_t(a)] == scores[size_t(b)] && a < b);
        });
    return QList<qsizetype>(rows.begin(), rows.begin() + qsizetype(keep));
}

QList<Scored> fuse(const QList<QList<qint64>> &rankings, int k)
{
    QList<Scored> fused;
    QHash<qint64, qsizetype> position;
    for (const QList<qint64> &ranking : rankings) {
        for (qsizetype rank = 0; rank < ranking.size(); ++rank) {
            const qint64 id = ranking.at(rank);
            const double score = 1.0 / double(k + rank + 1);
            const auto found = position.constFind(id);
            if (found == position.cend()) {
                position.insert(id, fused.size());
                fused.append({id, score});
            } else {
                fused[*found].score += score;
            }
        }
    }
    std::stable_sort(fused.begin(), fused.end(),
                     [](const Scored &a, const Scored &b) { return a.score > b.score; });
    return fused;
}

} // namespace Loopscope::VectorSearch
