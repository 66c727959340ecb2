#pragma once

#include <QString>

namespace Loopscope {

/*!
    A file name stem made from a session's title, for the Save and Export
    dialogs: every system accepts it (no / \ : * ? " < > | or control
    characters, no leading or trailing dots or spaces, no "..", not a
    reserved Windows device name), it is at most \a maxLength characters,
    cut at a word where it can be, and never empty.
*/
QString fileNameStem(const QString &title, int maxLength = 60);

} // namespace Loopscope
