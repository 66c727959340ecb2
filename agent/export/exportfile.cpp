#include "agent/export/exportfile.h"

#include "agent/conversation/enumnames.h"
#include "agent/export/htmlexport.h"
#include "agent/export/markdownexport.h"
#include "agent/transcript/atomicfile.h"
#include "agent/transcript/transcript.h"

#include <QCoreApplication>
#include <QDir>

namespace Loopscope {

namespace {

class ExportFileText final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::ExportFileText)
};

constexpr EnumName<ExportFormat> ExportFormatNames[] = {
    {ExportFormat::Markdown, u"md"},
    {ExportFormat::Html, u"html"},
    {ExportFormat::OtlpJson, u"otlp"},
};

} // namespace

std::optional<ExportFormat> exportFormatNamed(const QString &name)
{
    return valueNamed(ExportFormatNames, name);
}

std::optional<QByteArray> exportTranscript(const Transcript &transcript, ExportFormat format,
                                           const OtlpExportOptions &otlp, QString *error)
{
    switch (format) {
    case ExportFormat::Markdown: return exportMarkdown(transcript).toUtf8();
    case ExportFormat::Html: return exportHtml(transcript);
    case ExportFormat::OtlpJson:
        if (QByteArray bytes = exportOtlpJson(transcript, otlp, error); !bytes.isEmpty())
            return bytes;
        return std::nullopt;
    }
    return std::nullopt;
}

bool exportTranscriptToFile(const Transcript &transcript, ExportFormat format, const QString &path,
                            QString *error)
{
    QString reason;
    const std::optional<QByteArray> bytes = exportTranscript(transcript, format, {}, &reason);
    if (!bytes) {
        if (error)
            *error = ExportFileText::tr("The trace cannot be exported: %1").arg(reason);
        return false;
    }
    if (!writeFileAtomically(path, *bytes, &reason)) {
        if (error)
            *error = ExportFileText::tr("%1 could not be written: %2")
                         .arg(QDir::toNativeSeparators(path), reason);
        return false;
    }
    return true;
}

} // namespace Loopscope
