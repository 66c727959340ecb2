#pragma once

#include "agent/export/otlpexport.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace Loopscope {

struct Transcript;

enum class ExportFormat { Markdown, Html, OtlpJson };
// "md", "html" or "otlp", as `loopscope export --format` and the File menu name them.
std::optional<ExportFormat> exportFormatNamed(const QString &name);

/*!
    A session in one of the export formats: the one place that picks the
    exporter for a format, for the File menu and `loopscope export` alike.
    nullopt, with the reason in *error, when the OTLP export cannot read the
    trace: an empty document is never passed off as an export.
*/
std::optional<QByteArray> exportTranscript(const Transcript &transcript, ExportFormat format,
                                           const OtlpExportOptions &otlp = {}, QString *error = nullptr);

/*!
    exportTranscript() written to a file, whole or not at all. On failure
    nothing is written (an existing file stays as it was) and *error says why
    in a sentence for the user.
*/
bool exportTranscriptToFile(const Transcript &transcript, ExportFormat format, const QString &path,
                            QString *error = nullptr);

} // namespace Loopscope
