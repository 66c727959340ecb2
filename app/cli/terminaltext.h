#pragma once

#include <QString>

namespace Loopscope::Cli {

// Text from outside (a provider's error, a server's log) made safe for a terminal: every control
// character but the line feed and the tab is shown as an escape (\x1b, \r, \u009b), so that ESC,
// OSC and CR sequences cannot clear the screen, set the title or overwrite what was printed.
QString visibleControls(const QString &text);

} // namespace Loopscope::Cli
