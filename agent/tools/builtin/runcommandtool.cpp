#include "agent/tools/builtin/runcommandtool.h"

#include "agent/tools/processgroups.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QStringDecoder>
#include <QThread>

#include <atomic>

#ifdef Q_OS_UNIX
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// Keeps the first and the last limit/2 bytes of a stream and counts what fell between.
class HeadTailBuffer final
{
public:
    explicit HeadTailBuffer(qsizetype limit)
        : m_half(limit / 2)
    {}

    void append(QByteArrayView data)
    {
        m_total += data.size();
        const qsizetype toHead = qMin(data.size(), m_half - m_head.size());
        if (toHead > 0) {
            m_head.append(data.first(toHead));
            data = data.sliced(toHead);
        }
        if (data.isEmpty())
            return;
        m_tail.append(data);
        if (m_tail.size() > 2 * m_half) // trim now and then, not on every append
            m_tail.remove(0, m_tail.size() - m_half);
    }

    qint64 total() const { return m_total; }
    qint64 dropped() const { return m_total - m_head.size() - qMin<qsizetype>(m_tail.size(), m_half); }

    // The text kept, with a note where bytes were dropped.
    QString text(const QString &droppedNote) const
    {
        const QByteArray tail = m_tail.size() > m_half ? m_tail.right(m_half) : m_tail;
        if (dropped() <= 0)
            return decode(m_head + tail);
        return decode(m_head) + droppedNote.arg(dropped()) + decode(tail);
    }

private:
    static QString decode(const QByteArray &bytes) { return QString::fromUtf8(bytes); }

    qsizetype m_half;
    QByteArray m_head;
    QByteArray m_tail;
    qint64 m_total = 0;
};

// Ends the command and everything it started: its process group (ProcessGroups::end).
// Without process groups (Windows): the shell only.
void endProcessTree(QProcess &process, qint64 group)
{
    ProcessGroups::end(group, RunCommandTool::KillGraceMs, [&process] {
        if (process.state() != QProcess::NotRunning)
            process.waitForFinished(20);
        else
            QThread::msleep(20);
    });
    if (process.state() != QProcess::NotRunning) {
        process.kill();
        process.waitForFinished(5000);
    }
}

} // namespace

RunCommandTool::RunCommandTool(Workspace workspace, CommandSecrets secrets)
    : m_workspace(std::move(workspace))
    , m_secrets(std::move(secrets))
{}

QString RunCommandTool::redacted(const QString &output) const
{
    return m_secrets.redact ? m_secrets.redact(output) : output;
}

ToolSchema RunCommandTool::schema() const
{
    return {
        Name,
        u"Runs a shell command in the workspace folder and returns its output (stdout and stderr "
        "together) and exit code. It runs with the user's permissions, after the user approved it. "
        "Output longer than %1 KiB is cut in the middle, which the output then says. The command is "
        "stopped after timeout_s seconds; anything it started in the background is ended when it "
        "finishes. There is no input: interactive programs get end-of-file."_s.arg(MaxOutputBytes / 1024),
        QJsonObject{
            {u"type"_s, u"object"_s},
            {u"properties"_s,
             QJsonObject{
                 {u"command"_s,
                  QJsonObject{{u"type"_s, u"string"_s},
                              {u"description"_s,
                               u"The command line, run by the user's shell (cmd.exe on Windows), "
                               "e.g. \"ls -la src\" or \"make test\"."_s}}},
                 {u"timeout_s"_s,
                  QJsonObject{{u"type"_s, u"integer"_s},
                              {u"minimum"_s, 1},
                              {u"maximum"_s, MaxTimeoutS},
                              {u"description"_s, u"Seconds before the command is stopped. Default: %1."_s.arg(
                                                     DefaultTimeoutS)}}},
             }},
            {u"required"_s, QJsonArray{u"command"_s}},
            {u"additionalProperties"_s, false},
        }};
}

ToolBehaviour RunCommandTool::behaviour() const
{
    ToolBehaviour behaviour;
    behaviour.asksFirst = true;
    // The tool keeps its own time (timeout_s); the loop's limit is only a backstop
    // for a tool that fails to, so it lies beyond the longest timeout plus the kill grace.
    behaviour.timeoutMs = (MaxTimeoutS + 30) * 1000;
    return behaviour;
}

QStringList RunCommandTool::shellCommandLine(const QString &command)
{
#ifdef Q_OS_WIN
    const QString comspec = qEnvironmentVariable("ComSpec");
    return {comspec.isEmpty() ? u"cmd.exe"_s : comspec, u"/c"_s, command};
#else
    const QString shell = qEnvironmentVariable("SHELL");
    const bool usable = !shell.isEmpty() && QFileInfo(shell).isExecutable();
    return {usable ? shell : u"/bin/sh"_s, u"-c"_s, command};
#endif
}

ToolResult RunCommandTool::invoke(const QJsonObject &arguments, ToolContext &context) const
{
    const QString command = arguments.value(u"command"_s).toString();
    if (command.trimmed().isEmpty())
        return ToolResult::failure(tr("The command is empty."));
    const int timeoutS = qBound(1, arguments.value(u"timeout_s"_s).toInt(DefaultTimeoutS), MaxTimeoutS);
    const ResolvedPath folder = m_workspace.resolve(u"."_s);
    if (!folder.isValid())
        return ToolResult::failure(folder.error);

    const QStringList commandLine = shellCommandLine(command);
    QProcess process;
    process.setProgram(commandLine.constFirst());
#ifdef Q_OS_WIN
    // cmd.exe parses its own command line: pass it unquoted.
    process.setNativeArguments(u"/c "_s + command);
#else
    process.setArguments(commandLine.mid(1));
    // A group of its own, so that ending it ends everything it started.
    process.setChildProcessModifier([] { ::setpgid(0, 0); });
#endif
    process.setWorkingDirectory(folder.path);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const QString &name : m_secrets.hiddenVariables)
        environment.remove(name);
    // Inherited by all the command starts, also by what leaves its process group: found by it at the end.
    static std::atomic_int commandCount = 0;
    const QString mark = u"%1-%2"_s.arg(QCoreApplication::applicationPid()).arg(++commandCount);
    environment.insert(QString::fromLatin1(MarkVariable), mark);
    process.setProcessEnvironment(environment);
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.setStandardInputFile(QProcess::nullDevice());

    QElapsedTimer elapsed;
    elapsed.start();
    process.start();
    if (!process.waitForStarted(30'000)) {
        return ToolResult::failure(tr("The command could not be started with %1: %2")
                                       .arg(commandLine.constFirst(), process.errorString()));
    }
    const qint64 group = process.processId();

    HeadTailBuffer forModel(MaxOutputBytes);
    HeadTailBuffer forTrace(MaxDetailsBytes);
    QByteArray pendingProgress;
    qint64 progressSent = 0;
    QElapsedTimer sinceProgress;
    sinceProgress.start();
    QStringDecoder progressDecoder(QStringDecoder::Utf8);

    const auto flushProgress = [&](bool all) {
        if (pendingProgress.isEmpty() || progressSent >= MaxProgressBytes)
            return;
        // Whole lines only, unless everything goes (or a line grows very long).
        qsizetype cut = all ? pendingProgress.size() : pendingProgress.lastIndexOf('\n') + 1;
        if (cut == 0 && pendingProgress.size() >= 4096)
            cut = pendingProgress.size();
        if (cut == 0)
            return;
        QByteArray chunk = pendingProgress.left(cut);
        pendingProgress.remove(0, cut);
        if (progressSent + chunk.size() > MaxProgressBytes) {
            chunk.truncate(MaxProgressBytes - progressSent);
            progressSent = MaxProgressBytes;
            const QString text = redacted(progressDecoder.decode(chunk));
            context.reportProgress(text + tr("\n[live output stops here; the rest is in the result]"));
            return;
        }
        progressSent += chunk.size();
        QString text = redacted(progressDecoder.decode(chunk));
        if (text.endsWith(u'\n'))
            text.chop(1);
        context.reportProgress(text);
        sinceProgress.restart();
    };
    const auto take = [&] {
        const QByteArray data = process.readAll();
        if (data.isEmpty())
            return;
        forModel.append(data);
        forTrace.append(data);
        if (progressSent < MaxProgressBytes)
            pendingProgress.append(data);
    };

    enum class Ending { Exited, TimedOut, Cancelled };
    Ending ending = Ending::Exited;
    const qint64 timeoutMs = qint64(timeoutS) * 1000;
    while (process.state() != QProcess::NotRunning) {
        process.waitForReadyRead(50);
        take();
        if (sinceProgress.elapsed() >= ProgressIntervalMs || pendingProgress.size() >= 8192)
            flushProgress(false);
        if (context.isCancelled()) {
            ending = Ending::Cancelled;
            break;
        }
        if (elapsed.elapsed() >= timeoutMs) {
            ending = Ending::TimedOut;
            break;
        }
    }
    // Ended or not, whatever the command left running in its group ends with it, and so does
    // what left the group (setsid) but still carries the command's mark.
    endProcessTree(process, group);
    ProcessGroups::endMarked(QByteArray(MarkVariable) + '=' + mark.toLatin1());
    take();
    flushProgress(true);
    const qint64 durationMs = elapsed.elapsed();

    const bool crashed = process.exitStatus() == QProcess::CrashExit;
    const int exitCode = process.exitCode();
    QString status;
    switch (ending) {
    case Ending::TimedOut:
        status = tr("[stopped: the command did not finish within %1 s; it and everything it started were "
                    "ended]")
                     .arg(timeoutS);
        break;
    case Ending::Cancelled:
        status = tr("[cancelled: the command and everything it started were ended]");
        break;
    case Ending::Exited:
        status = crashed ? tr("[the command was killed by signal %1]").arg(exitCode)
                         : tr("[exit code %1]").arg(exitCode);
        break;
    }

    QString output = redacted(forModel.text(tr("\n[... %1 bytes of output dropped here ...]\n")));
    if (forModel.total() == 0)
        output = tr("[no output]");
    if (!output.endsWith(u'\n'))
        output += u'\n';

    ToolResult result;
    result.content = output + status;
    result.isError = ending != Ending::Exited;

    QJsonObject details{
        {u"command"_s, command},
        {u"shell"_s, QJsonArray::fromStringList(commandLine.mid(0, commandLine.size() - 1))},
        {u"folder"_s, folder.path},
        {u"timeoutS"_s, timeoutS},
        {u"durationMs"_s, durationMs},
        {u"output"_s, redacted(forTrace.text(u"\n[... %1 bytes dropped ...]\n"_s))},
        {u"outputBytes"_s, forTrace.total()},
        {u"outputTruncated"_s, forTrace.dropped() > 0},
        {u"timedOut"_s, ending == Ending::TimedOut},
        {u"cancelled"_s, ending == Ending::Cancelled},
    };
    if (ending == Ending::Exited) {
        if (crashed)
            details.insert(u"signal"_s, exitCode);
        else
            details.insert(u"exitCode"_s, exitCode);
    }
    result.details = QJsonObject{{u"command"_s, details}};
    return result;
}

} // namespace Loopscope
