#pragma once

#include "agent/trace/tracenode.h"

#include <QColor>
#include <QIcon>

class QPalette;

namespace Loopscope::Ui {

/*!
    The trace's visual vocabulary: one glyph per kind of step and one colour per
    status, shared by the tree, the details pane and the timeline so the three
    read alike. Glyphs are painted, not loaded, so they stay sharp at any
    device pixel ratio; status colours are fixed hues picked for the palette's
    base colour so they stay readable in light and dark themes.
*/
class TraceIcons final
{
public:
    static QIcon kindIcon(TraceKind kind);
    // The glyph's fill: a mid-tone hue that shows on light and dark bases.
    static QColor kindColor(TraceKind kind);
    // Text colour for a status on the palette's base; Cancelled and Skipped use the placeholder colour.
    static QColor statusColor(TraceStatus status, const QPalette &palette);
    static bool isDark(const QPalette &palette);
};

} // namespace Loopscope::Ui
