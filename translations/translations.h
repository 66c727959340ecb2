#pragma once

namespace Loopscope::Translations {

/*!
 * Installs the translation for the user's language on the running
 * QCoreApplication, and the English one when there is none: the English file
 * holds the plural forms of the %n strings, so even an English user reads
 * "1 saved session" rather than "1 saved session(s)". Call it once, after the
 * application object exists.
 */
void install();

} // namespace Loopscope::Translations
