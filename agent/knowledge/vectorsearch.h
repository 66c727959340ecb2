#pragma once

#include "agent/knowledge/embeddingsclient.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

#include <utility>
#include <vector>

namespace Loopscope {

// An index's vectors in one block of floats, row after row, as a search reads them.
struct VectorMatrix
{
    QString version; // the index's vectorsVersion when they were read
    int dimensions = 0;
    QList<qint64> ids;         // the passages, one per row, in id order
    std::vector<float> values; // ids.size() rows of dimensions floats, normalised

    const float *row(qsizetype index) const { return values.data() + size_t(index) * size_t(dimensions); }
};

/*!
    The arithmetic of vector and hybrid search, apart from SQLite so it can
    be measured and tested alone. Vectors are stored as float32 BLOBs (the
    machine's byte order: an index never leaves the machine that wrote it),
    normalised to length 1 when stored, so that cosine similarity is a dot
    product: a tight loop over contiguous floats that the compiler
    vectorises. Brute force over every passage is the right tool up to about
    100k passages. Lexical and vector rankings are merged by reciprocal rank
    fusion, which needs no common scale between BM25 and cosine.
*/
namespace VectorSearch {

// The default k of reciprocal rank fusion, as in the paper and in most engines.
inline constexpr int FusionK = 60;

QByteArray toBlob(const Embedding &vector);
// Empty for a BLOB that is not a whole number of floats.
Embedding fromBlob(QByteArrayView blob);
// The vector scaled to length 1; a zero vector stays zero.
Embedding normalized(Embedding vector);
float dot(const float *a, const float *b, qsizetype size);
// Of any two vectors of one size; 0 when either is zero or the sizes differ.
float cosine(const Embedding &a, const Embedding &b);

struct Scored
{
    qint64 id = 0;
    double score = 0;
    bool operator==(const Scored &) const = default;
};

// The \a topK of \a candidates (ids with normalised float32 BLOBs) closest to \a query, best first;
// a candidate of another size is left out.
QList<Scored> nearest(const Embedding &query, const QList<std::pair<qint64, QByteArray>> &candidates,
                      int topK);

// Every row's dot product with \a unit (a normalised query of the matrix's dimensions), in row order.
std::vector<float> similarities(const Embedding &unit, const VectorMatrix &matrix);
// The rows of the \a topK highest \a scores, best first; ties in row order.
QList<qsizetype> bestRows(const std::vector<float> &scores, int topK);

// Reciprocal rank fusion of rankings (ids, best first): each id scores the sum over the rankings
// that hold it of 1 / (k + its rank), ranks counted from 1. Best first; ties keep the order of
// first appearance.
QList<Scored> fuse(const QList<QList<qint64>> &rankings, int k = FusionK);

} // namespace VectorSearch

} // namespace Loopscope
