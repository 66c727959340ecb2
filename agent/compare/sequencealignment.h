#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace Loopscope {

/*!
    Two sequences side by side: which element of one stands for which of the
    other, the rest standing alone. The tool calls of two iterations (by
    name) and the lines of two model requests are aligned this way. The edit
    script comes from dtl (Debian's libdtl-dev): a longest common subsequence,
    so equal elements pair up in order and nothing is matched across a move.
*/
struct AlignedPair
{
    int left = -1; // index into the left sequence, -1 when only the right has this element
    int right = -1;
    bool operator==(const AlignedPair &) const = default;
};

// In order of both sequences; an unmatched left element comes before an unmatched right one.
QList<AlignedPair> alignSequences(const QStringList &left, const QStringList &right);

} // namespace Loopscope
