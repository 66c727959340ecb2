#pragma once

#include <QString>

namespace Loopscope {

struct Transcript;

enum class ExportFormat { Markdown, Html, OtlpJson };

/*!
    Exports a session to a file in one of the export formats. A trace the
    OTLP export cannot read is reported, not exported as an empty file: on
    failure nothing is written and *error says why in a sentence for the user.
*/
bool exportTranscriptToFile(const Transcript &transcript, ExportFormat format, const QString &path,
                            QString *error = nullptr);

} // namespace Loopscope
