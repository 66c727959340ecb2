#include "agent/mcp/stdiotransport.h"

#include "agent/tools/processgroups.h"

#include <QJsonDocument>
#include <QPointer>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTimer>

#ifdef Q_OS_UNIX
#include <csignal>
#include <unistd.h>
#endif
#ifdef Q_OS_LINUX
#include <sys/prctl.h>
#endif

using namespace Qt::StringLiterals;

namespace Loopscope {

StdioTransport::StdioTransport(QString program, QStringList arguments, QMap<QString, QString> environment,
                               QString workingDirectory, QObject *parent)
    : McpTransport(parent)
    , m_program(std::move(program))
    , m_arguments(std::move(arguments))
    , m_environment(std::move(environment))
    , m_workingDirectory(std::move(workingDirectory))
{}

StdioTransport::~StdioTransport()
{
    terminateBlocking();
}

void StdioTransport::open()
{
    Q_ASSERT(!m_process);
    m_process = new QProcess(this);
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (auto it = m_environment.cbegin(); it != m_environment.cend(); ++it)
        environment.insert(it.key(), it.value());
    m_process->setProcessEnvironment(environment);
    if (!m_workingDirectory.isEmpty())
        m_process->setWorkingDirectory(m_workingDirectory);
#ifdef Q_OS_UNIX
    m_process->setChildProcessModifier([] {
        // A group of its own, so that ending it also ends what a wrapper (sh -c, npx, uvx) started.
        ::setpgid(0, 0);
#ifdef Q_OS_LINUX
        // The server dies with the thread that started it, even when the app crashes.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
#endif
    });
#endif
    connect(m_process, &QProcess::started, this, [this] {
        m_group = m_process->processId();
        if (!m_pendingWrites.isEmpty())
            m_process->write(std::exchange(m_pendingWrites, {}));
    });
    connect(m_process, &QProcess::readyReadStandardOutput, this, &StdioTransport::readStdout);
    connect(m_process, &QProcess::readyReadStandardError, this, &StdioTransport::readStderr);
    connect(m_process, &QProcess::finished, this, [this](int exitCode) { onFinished(exitCode); });
    connect(m_process, &QProcess::errorOccurred, this, &StdioTransport::onErrorOccurred);
    m_process->start(m_program, m_arguments);
}

void StdioTransport::send(const QJsonObject &message)
{
    if (!m_process || m_process->state() == QProcess::NotRunning || m_shuttingDown)
        return;
    if (message.contains(u"method"_s) && message.contains(u"id"_s))
        m_waiting.insert(message.value(u"id"_s).toInteger());
    QByteArray line = QJsonDocument(message).toJson(QJsonDocument::Compact);
    line.append('\n');
    if (m_process->state() == QProcess::Starting)
        m_pendingWrites.append(line);
    else
        m_process->write(line);
}

qint64 StdioTransport::processId() const
{
    return m_process && m_process->state() != QProcess::NotRunning ? m_process->processId() : 0;
}

bool StdioTransport::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void StdioTransport::shutdown()
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    if (!isRunning()) {
        deleteLater();
        return;
    }
    // Nothing is reported any more; the process is ended in three steps, then this object goes,
    // and with it whatever is left of the server's process group.
    m_process->disconnect(this);
    connect(m_process, &QProcess::finished, this, [this] {
        killGroup();
        deleteLater();
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            deleteLater();
    });
    m_process->closeWriteChannel();
    QPointer<QProcess> process = m_process;
    QTimer::singleShot(ProcessGroups::isHurried() ? 0 : GraceMs, this, [this, process] {
        if (!process || process->state() == QProcess::NotRunning)
            return;
        terminateGroup();
        QTimer::singleShot(ProcessGroups::isHurried() ? 0 : GraceMs, this, [this, process] {
            if (process && process->state() != QProcess::NotRunning)
                killGroup();
        });
    });
}

void StdioTransport::signalGroup(bool kill)
{
#ifdef Q_OS_UNIX
    const int signal = kill ? SIGKILL : SIGTERM;
    if (ProcessGroups::exists(m_group))
        ::kill(-pid_t(m_group), signal);
    else if (isRunning())
        ::kill(pid_t(m_process->processId()), signal);
#else
    if (!isRunning())
        return;
    if (kill)
        m_process->kill();
    else
        m_process->terminate();
#endif
}

void StdioTransport::terminateGroup()
{
    signalGroup(false);
}

void StdioTransport::killGroup()
{
    signalGroup(true);
}

void StdioTransport::terminateBlocking()
{
    if (!isRunning())
        return;
    m_process->disconnect(this);
    m_process->closeWriteChannel();
    if (m_process->state() == QProcess::Starting)
        m_process->waitForStarted(GraceMs);
    if (!m_process->waitForFinished(300)) {
        terminateGroup();
        if (!m_process->waitForFinished(GraceMs)) {
            killGroup();
            m_process->waitForFinished(GraceMs);
        }
    }
    // What the server's leader left behind in its group (a wrapper's children) goes with it.
    killGroup();
}

void StdioTransport::readStdout()
{
    m_stdoutBuffer.append(m_process->readAllStandardOutput());
    qsizetype start = 0;
    if (m_skipLine) {
        const qsizetype newline = m_stdoutBuffer.indexOf('\n');
        if (newline < 0) {
            m_stdoutBuffer.clear();
            return;
        }
        m_skipLine = false;
        start = newline + 1;
    }
    while (true) {
        const qsizetype newline = m_stdoutBuffer.indexOf('\n', start);
        if (newline < 0)
            break;
        const QByteArray line = m_stdoutBuffer.mid(start, newline - start);
        start = newline + 1;
        handleLine(line);
        if (!m_process || m_shuttingDown)
            return;
    }
    m_stdoutBuffer.remove(0, start);
    if (m_stdoutBuffer.size() > m_maxResponseBytes)
        dropLongLine();
}

void StdioTransport::dropLongLine()
{
    // The request the line answers, if its id comes early as servers write it; otherwise every
    // request still waiting, since none of them can be told apart from it.
    static const QRegularExpression idPattern(uR"("id"\s*:\s*(-?\d+))"_s);
    const QRegularExpressionMatch match = idPattern.match(QString::fromUtf8(
        QByteArrayView(m_stdoutBuffer).first(std::min<qsizetype>(m_stdoutBuffer.size(), 4096))));
    m_stdoutBuffer.clear();
    m_skipLine = true;
    emit logLine(u"[stdout] "_s + tooLargeText());
    QList<qint64> failed;
    if (match.hasMatch() && m_waiting.contains(match.captured(1).toLongLong()))
        failed = {match.captured(1).toLongLong()};
    else
        failed = m_waiting.values();
    for (qint64 id : std::as_const(failed)) {
        m_waiting.remove(id);
        emit requestFailed(id, 0, tooLargeText(), false, {});
    }
}

void StdioTransport::handleLine(const QByteArray &rawLine)
{
    const QByteArray line = rawLine.trimmed();
    if (line.isEmpty())
        return;
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(line, &error);
    const QJsonObject object = document.object();
    if (error.error != QJsonParseError::NoError || !document.isObject()
        || object.value(u"jsonrpc"_s).toString() != u"2.0"_s) {
        emit logLine(u"[stdout, not JSON-RPC] "_s + QString::fromUtf8(line.left(2000)));
        return;
    }
    if (!object.contains(u"method"_s) && object.contains(u"id"_s))
        m_waiting.remove(object.value(u"id"_s).toInteger());
    emit messageReceived(object);
}

void StdioTransport::readStderr()
{
    m_stderrBuffer.append(m_process->readAllStandardError());
    qsizetype start = 0;
    while (true) {
        const qsizetype newline = m_stderrBuffer.indexOf('\n', start);
        if (newline < 0)
            break;
        QByteArray line = m_stderrBuffer.mid(start, newline - start);
        start = newline + 1;
        if (line.endsWith('\r'))
            line.chop(1);
        emit logLine(QString::fromUtf8(line));
    }
    m_stderrBuffer.remove(0, start);
    if (m_stderrBuffer.size() > 64 * 1024) {
        emit logLine(QString::fromUtf8(m_stderrBuffer));
        m_stderrBuffer.clear();
    }
}

void StdioTransport::onFinished(int exitCode)
{
    // The server ended on its own: what it started in its group does not outlive it.
    killGroup();
    // What the process wrote last still counts.
    readStdout();
    readStderr();
    if (!m_stderrBuffer.isEmpty()) {
        emit logLine(QString::fromUtf8(m_stderrBuffer));
        m_stderrBuffer.clear();
    }
    if (m_closedEmitted || m_shuttingDown)
        return;
    m_closedEmitted = true;
    emit closed(m_process->exitStatus() == QProcess::CrashExit ? -1 : exitCode, {});
}

void StdioTransport::onErrorOccurred(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || m_closedEmitted || m_shuttingDown)
        return;
    m_closedEmitted = true;
    emit closed(-1, m_process->errorString());
}

} // namespace Loopscope
