#pragma once

#include <QStringView>

namespace Loopscope::Ui {

/*!
    Where a growing Markdown text can be cut so that what comes before the cut
    renders the same whatever is appended: the start of its last top-level
    block. A block ends at a blank line followed by a line that starts a new
    block at the margin; a list that goes on after a blank line (a loose list)
    and indented text (a list item's paragraphs, indented code) stay in the
    block before. Streamed prose is rendered block by block this way: finished
    blocks once, only the open last one again with each batch.

    Not handled: a link reference definition that comes after the link it
    defines (language models do not write them).
*/
// The offset in \a markdown of its last block, searching from \a from, which
// must be the start of a block (0, or an offset this function returned).
qsizetype lastMarkdownBlockStart(QStringView markdown, qsizetype from = 0);

} // namespace Loopscope::Ui
