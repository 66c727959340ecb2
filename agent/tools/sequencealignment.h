#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace Loopscope {

/*! Which element of one sequence stands for which of the other; -1 on the side that lacks it. */
struct AlignedPair
{
    int left = -1; // index into the left sequence, -1 when only the right has this element
    int right = -1;
    bool operator==(const AlignedPair &) const = default;
};

/*!
    Two sequences side by side: the lines of two texts for an approval's
    diff, the tool calls of two iterations (by name) and the lines of two
    model requests for a comparison. Equal heads and tails pair up without a
    search; the middle's edit script comes from dtl (Debian's libdtl-dev), a
    longest common subsequence, so equal elements pair up in order and
    nothing is matched across a move. A middle too large to search in
    reasonable time is not aligned at all: every left element of it stands
    alone, then every right one.
*/
struct SequenceAlignment
{
    // In order of both sequences; an unmatched left element comes before an unmatched right one.
    QList<AlignedPair> pairs;
    // The middle was larger than MaxAlignedElements: nothing in it is paired up.
    bool approximate = false;

    // Changed elements (left and right) beyond which no alignment is searched for: an O(ND)
    // search over tens of thousands of wholly different lines would keep an approval waiting.
    static constexpr int MaxAlignedElements = 20'000;
};

SequenceAlignment alignSequences(const QStringList &left, const QStringList &right);

} // namespace Loopscope
