#include "agent/knowledge/vectorsearch.h"

#include <QHash>

#include <algorithm>
#include <cmath>
#include <cstring>

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
    float sum = 0;
    for (qsizetype i = 0; i < size; ++i)
        sum += a[i] * b[i];
    return sum;
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
