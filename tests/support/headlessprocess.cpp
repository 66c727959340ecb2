#include "tests/support/headlessprocess.h"

#include <QProcess>
#include <QTest>

#ifdef Q_OS_UNIX
#include <csignal>
#include <sys/resource.h>
#include <sys/types.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace Loopscope {

HeadlessProcess::HeadlessProcess(QString program, QString configHome)
    : m_process(std::make_unique<QProcess>())
    , m_program(std::move(program))
    , m_environment(QProcessEnvironment::systemEnvironment())
{
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "DBUS_SESSION_BUS_ADDRESS"})
        m_environment.remove(QString::fromLatin1(name));
    // No saved settings of the user's (their MCP servers would start).
    m_environment.insert(u"XDG_CONFIG_HOME"_s, configHome);
}

HeadlessProcess::HeadlessProcess(HeadlessProcess &&other) noexcept = default;

HeadlessProcess::~HeadlessProcess()
{
    if (m_process)
        killGroup();
}

void HeadlessProcess::setEnvironmentVariable(const QString &name, const QString &value)
{
    m_environment.insert(name, value);
}

void HeadlessProcess::setStandardInput(const QByteArray &input)
{
    m_input = input;
}

void HeadlessProcess::start(const QStringList &arguments)
{
    m_arguments = arguments;
    m_process->setProcessEnvironment(m_environment);
#ifdef Q_OS_UNIX
    m_process->setChildProcessModifier([limit = m_fileSizeLimit] {
        ::setpgid(0, 0);
        if (limit > 0) {
            ::signal(SIGXFSZ, SIG_IGN); // stays ignored across exec
            const rlimit fileSize{rlim_t(limit), rlim_t(limit)};
            ::setrlimit(RLIMIT_FSIZE, &fileSize);
        }
    });
#endif
    m_process->start(m_program, arguments);
    if (!m_process->waitForStarted()) {
        QTest::qFail(qPrintable(u"%1 did not start: %2"_s.arg(m_program, m_process->errorString())), __FILE__,
                     __LINE__);
        return;
    }
    m_group = m_process->processId();
    if (!m_input.isEmpty())
        m_process->write(m_input);
    m_process->closeWriteChannel();
}

qint64 HeadlessProcess::processId() const
{
    return m_process->processId();
}

void HeadlessProcess::interrupt()
{
#ifdef Q_OS_UNIX
    if (m_process->state() != QProcess::NotRunning)
        ::kill(pid_t(m_process->processId()), SIGINT);
#else
    m_process->terminate();
#endif
}

void HeadlessProcess::sendSignal(int signal)
{
#ifdef Q_OS_UNIX
    if (m_process->state() != QProcess::NotRunning)
        ::kill(pid_t(m_process->processId()), signal);
#else
    Q_UNUSED(signal);
#endif
}

HeadlessProcess::Result HeadlessProcess::finish(int timeoutMs)
{
    Result result;
    QProcess &process = *m_process;
    if (!QTest::qWaitFor([&process] { return process.state() == QProcess::NotRunning; }, timeoutMs)) {
        killGroup();
        const QString command = QStringList(QStringList{u"loopscope"_s} + m_arguments).join(u' ');
        QTest::qFail(
            qPrintable(u"`%1` did not end within %2 s and was killed; it printed on stderr:\n%3"_s.arg(
                command, QString::number(timeoutMs / 1000.0),
                QString::fromUtf8(process.readAllStandardError()))),
            __FILE__, __LINE__);
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

HeadlessProcess::Result HeadlessProcess::run(const QStringList &arguments, int timeoutMs)
{
    start(arguments);
    return finish(timeoutMs);
}

void HeadlessProcess::killGroup()
{
#ifdef Q_OS_UNIX
    // What it started may still run after it ended (an MCP server it failed to stop).
    if (m_group > 0)
        ::kill(-pid_t(m_group), SIGKILL);
#endif
    if (m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished();
    }
}

} // namespace Loopscope
