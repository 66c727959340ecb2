#include "agent/tools/sequencealignment.h"

#include <dtl/dtl.hpp>

#include <vector>

namespace Loopscope {

SequenceAlignment alignSequences(const QStringList &left, const QStringList &right)
{
    SequenceAlignment alignment;
    QList<AlignedPair> &pairs = alignment.pairs;
    pairs.reserve(qMax(left.size(), right.size()));
    // Equal heads and tails need no search; only the middle goes to dtl, so that a small edit of
    // a large text, or two long, nearly equal requests, diff quickly.
    qsizetype head = 0;
    while (head < left.size() && head < right.size() && left.at(head) == right.at(head))
        ++head;
    qsizetype tail = 0;
    while (tail < left.size() - head && tail < right.size() - head
           && left.at(left.size() - 1 - tail) == right.at(right.size() - 1 - tail))
        ++tail;
    for (qsizetype i = 0; i < head; ++i)
        pairs.append({int(i), int(i)});

    const std::vector<QString> a(left.cbegin() + head, left.cend() - tail);
    const std::vector<QString> b(right.cbegin() + head, right.cend() - tail);
    int i = int(head);
    int j = int(head);
    alignment.approximate = a.size() + b.size() > size_t(SequenceAlignment::MaxAlignedElements);
    if (!a.empty() && !b.empty() && !alignment.approximate) {
        dtl::Diff<QString, std::vector<QString>> diff(a, b, /*deletesFirst=*/true);
        diff.compose();
        // The script lists every element of both in order; its own indices are not used,
        // as they are not consistent across dtl's code paths.
        for (const auto &[element, info] : diff.getSes().getSequence()) {
            Q_UNUSED(element)
            switch (info.type) {
            case dtl::SES_DELETE: pairs.append({i++, -1}); break;
            case dtl::SES_ADD: pairs.append({-1, j++}); break;
            default: pairs.append({i++, j++}); break;
            }
        }
    } else {
        for (std::size_t k = 0; k < a.size(); ++k)
            pairs.append({i++, -1});
        for (std::size_t k = 0; k < b.size(); ++k)
            pairs.append({-1, j++});
    }
    for (qsizetype k = 0; k < tail; ++k)
        pairs.append({i++, j++});
    return alignment;
}

} // namespace Loopscope
