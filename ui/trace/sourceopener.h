#pragma once

#include "agent/trace/tracenode.h"

#include <QString>

#include <functional>

namespace Loopscope::Ui {

/*!
    Opens a passage's file at its line: what a click on a retrieved passage
    does, in the details pane and under an answer in the chat. Widgets take
    one from outside, so a test sees what would be opened.
*/
using SourceOpener = std::function<void(const QString &path, int line)>;

// Shows a retrieved passage: by default in a SourceViewer at its lines (the trace's details, the chat's
// sources), so both open a passage the same way.
using PassageOpener = std::function<void(const RetrievalHit &hit)>;

// Asks the desktop to open the file (a file URL: no desktop convention opens a file at a line, so
// the line is shown beside the link).
SourceOpener desktopSourceOpener();

} // namespace Loopscope::Ui
