#include "app/cli/replaycommand.h"

#include "app/cli/commandlinesyntax.h"

#include "agent/replay/recordedturn.h"
#include "agent/replay/replayworkbench.h"
#include "agent/replay/transcriptreplay.h"
#include "agent/transcript/transcript.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>

#include <cstdio>

using namespace Qt::StringLiterals;

namespace Loopscope::Cli {

ReplayCommand::ReplayCommand()
    : m_stdout(stdout)
    , m_stderr(stderr)
    , m_out(&m_stdout)
    , m_err(&m_stderr)
{}

ReplayCommand::ReplayCommand(QTextStream *out, QTextStream *err)
    : m_out(out)
    , m_err(err)
{}

int ReplayCommand::exec(const QStringList &arguments)
{
    const auto printError = [this](const QString &message) {
        *m_err << "loopscope replay: " << message << Qt::endl;
    };

    QCommandLineParser parser;
    parser.setApplicationDescription(
        tr("Replay the turns of a saved session from their recorded model responses, without a network,\n"
           "and report for each whether it reproduced: the same requests to the model, the same tool\n"
           "calls and the same answer. Tool results come from the recording too, unless --live-tools.\n\n"
           "Exit codes:\n"
           "  0  every turn that could be replayed reproduced\n"
           "  1  at least one turn diverged or ended differently\n"
           "  2  bad usage, an unreadable or malformed file, or nothing to replay\n"));
    CommandLineSyntax syntax(parser, u"replay"_s);
    const QCommandLineOption turn(u"turn"_s, tr("Replay only turn n (from 1, as listed)."), u"n"_s);
    const QCommandLineOption liveTools(u"live-tools"_s,
                                       tr("Run the built-in tools instead of using their recorded results."));
    const QCommandLineOption workspace(u"workspace"_s,
                                       tr("The folder file tools may read with --live-tools (default: the "
                                          "current folder)."),
                                       u"dir"_s);
    parser.addOptions({turn, liveTools, workspace});
    parser.addPositionalArgument(u"file"_s, tr("A saved session (*.loopscope.json)."), u"FILE"_s);

    QString usageError;
    switch (syntax.parse(arguments, *m_out, &usageError)) {
    case CommandLineSyntax::Outcome::Failed: printError(usageError); return BadInput;
    case CommandLineSyntax::Outcome::HelpShown: return Reproduced;
    case CommandLineSyntax::Outcome::Parsed: break;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printError(tr("give exactly one saved session file (see --help)"));
        return BadInput;
    }
    int onlyTurn = 0;
    if (parser.isSet(turn)) {
        bool ok = false;
        onlyTurn = parser.value(turn).toInt(&ok);
        if (!ok || onlyTurn < 1) {
            printError(tr("--turn takes a turn number from 1"));
            return BadInput;
        }
    }
    const QString folder = parser.isSet(workspace) ? parser.value(workspace) : QDir::currentPath();
    if (!QFileInfo(folder).isDir()) {
        printError(tr("the workspace \"%1\" is not a folder").arg(folder));
        return BadInput;
    }

    const QString path = positional.constFirst();
    const TranscriptLoadResult loaded = TranscriptFile::load(path);
    if (!loaded.transcript) {
        printError(tr("cannot replay \"%1\": %2").arg(path, loaded.error));
        return BadInput;
    }
    QString error;
    std::optional<QList<RecordedTurn>> turns = RecordedTurn::fromTranscript(*loaded.transcript, &error);
    if (!turns) {
        printError(tr("cannot replay \"%1\": %2").arg(path, error));
        return BadInput;
    }
    if (turns->isEmpty()) {
        printError(tr("\"%1\" has no turns to replay").arg(path));
        return BadInput;
    }
    if (onlyTurn > turns->size()) {
        printError(tr("\"%1\" has %2 turns, not %3").arg(path).arg(turns->size()).arg(onlyTurn));
        return BadInput;
    }
    if (onlyTurn > 0)
        *turns = {turns->at(onlyTurn - 1)};

    TranscriptReplay replay(*turns);
    replay.setToolProvider(ReplayWorkbench::builtinTools(Workspace(folder)));
    if (parser.isSet(liveTools))
        replay.setToolSource(RecordedToolResults::Source::Live);

    QObject::connect(&replay, &TranscriptReplay::turnSkipped, &replay, [this](int index, const QString &why) {
        *m_out << tr("turn %1: skipped: %2").arg(index + 1).arg(why) << Qt::endl;
    });
    QObject::connect(&replay, &TranscriptReplay::turnReplayed, &replay,
                     [this](int index, const ReplayReport &report) {
                         *m_out << tr("turn %1: %2").arg(index + 1).arg(report.summary()) << Qt::endl;
                     });
    QObject::connect(&replay, &TranscriptReplay::finished, &replay,
                     [&replay, printError](bool allReproduced) {
                         int code = allReproduced ? Reproduced : Diverged;
                         if (replay.reproducedCount() + replay.notReproducedCount() == 0) {
                             printError(tr("no turn could be replayed"));
                             code = BadInput;
                         }
                         QCoreApplication::exit(code);
                     });
    // Queued by start(): exit() before exec() would be lost.
    replay.start();
    return QCoreApplication::exec();
}

} // namespace Loopscope::Cli
