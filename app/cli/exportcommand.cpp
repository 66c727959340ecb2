#include "app/cli/exportcommand.h"

#include "app/cli/commandlinesyntax.h"

#include "agent/export/exportfile.h"
#include "agent/transcript/atomicfile.h"
#include "agent/transcript/transcript.h"

#include <QCommandLineParser>
#include <QFile>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

namespace {

constexpr int Success = 0;
constexpr int BadUsage = 2;

void printError(const QString &message)
{
    QTextStream(stderr) << "loopscope export: " << message << Qt::endl;
}

} // namespace

int ExportCommand::exec(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("Export a saved session (*.loopscope.json) as Markdown, standalone HTML, or "
           "its trace as OpenTelemetry GenAI spans in OTLP/JSON."));
    CommandLineSyntax syntax(parser, u"export"_s);
    const QCommandLineOption format(u"format"_s, tr("md, html or otlp."), u"format"_s);
    const QCommandLineOption output({u"o"_s, u"output"_s}, tr("Write to this file instead of stdout."),
                                    u"file"_s);
    const QCommandLineOption content(
        u"otlp-content"_s, tr("With otlp: include messages, tool arguments and results (opt-in in the "
                              "GenAI conventions)."));
    parser.addOptions({format, output, content});
    parser.addPositionalArgument(u"file"_s, tr("The session to export."), u"FILE"_s);

    QTextStream out(stdout);
    QString usageError;
    switch (syntax.parse(arguments, out, &usageError)) {
    case CommandLineSyntax::Outcome::Failed: printError(usageError); return BadUsage;
    case CommandLineSyntax::Outcome::HelpShown: return Success;
    case CommandLineSyntax::Outcome::Parsed: break;
    }
    const std::optional<ExportFormat> exportFormat = exportFormatNamed(parser.value(format));
    if (!exportFormat) {
        printError(tr("--format takes md, html or otlp"));
        return BadUsage;
    }
    if (parser.positionalArguments().size() != 1) {
        printError(tr("name exactly one session file (see --help)"));
        return BadUsage;
    }

    const QString path = parser.positionalArguments().constFirst();
    const TranscriptLoadResult loaded = TranscriptFile::load(path);
    if (!loaded.transcript) {
        printError(tr("cannot read %1: %2").arg(path, loaded.error));
        return BadUsage;
    }
    OtlpExportOptions options;
    options.includeContent = parser.isSet(content);
    QString error;
    const std::optional<QByteArray> exported
        = exportTranscript(*loaded.transcript, *exportFormat, options, &error);
    if (!exported) {
        printError(tr("cannot export the trace of %1: %2").arg(path, error));
        return BadUsage;
    }
    const QByteArray &bytes = *exported;

    if (!parser.isSet(output)) {
        QFile out;
        if (!out.open(stdout, QIODevice::WriteOnly) || out.write(bytes) != bytes.size()) {
            printError(tr("cannot write to stdout"));
            return BadUsage;
        }
        return Success;
    }
    QString reason;
    if (!writeFileAtomically(parser.value(output), bytes, &reason)) {
        printError(tr("cannot write %1: %2").arg(parser.value(output), reason));
        return BadUsage;
    }
    return Success;
}

} // namespace Loopscope::Cli
