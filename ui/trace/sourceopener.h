#pragma once

#include <QString>

#include <functional>

namespace Loopscope::Ui {

/*!
    Opens a passage's file at its line: what a click on a retrieved passage
    does, in the details pane and under an answer in the chat. Widgets take
    one from outside, so a test sees what would be opened.
*/
using SourceOpener = std::function<void(const QString &path, int line)>;

// Asks the desktop to open the file (a file URL: no desktop convention opens a file at a line, so
// the line is shown beside the link).
SourceOpener desktopSourceOpener();

} // namespace Loopscope::Ui
