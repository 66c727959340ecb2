#include "agent/export/exportfile.h"

#include "agent/export/htmlexport.h"
#include "agent/export/markdownexport.h"
#include "agent/export/otlpexport.h"
#include "agent/session/atomicfile.h"
#include "agent/session/transcript.h"

#include <QCoreApplication>
#include <QDir>

namespace Loopscope {

namespace {

class ExportFileText final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::ExportFileText)
};

} // namespace

bool exportTranscriptToFile(const Transcript &transcript, ExportFormat format, const QString &path,
                            QString *error)
{
    QString reason;
    QByteArray bytes;
    switch (format) {
    case ExportFormat::Markdown: bytes = exportMarkdown(transcript).toUtf8(); break;
    case ExportFormat::Html: bytes = exportHtml(transcript); break;
    case ExportFormat::OtlpJson:
        bytes = exportOtlpJson(transcript, {}, &reason);
        if (bytes.isEmpty()) {
            if (error)
                *error = ExportFileText::tr("The trace cannot be exported: %1").arg(reason);
            return false;
        }
        break;
    }
    if (!writeFileAtomically(path, bytes, &reason)) {
        if (error)
            *error = ExportFileText::tr("%1 could not be written: %2")
                         .arg(QDir::toNativeSeparators(path), reason);
        return false;
    }
    return true;
}

} // namespace Loopscope
