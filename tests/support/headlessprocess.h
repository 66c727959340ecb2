#pragma once

#include <QByteArray>
#include <QProcessEnvironment>
#include <QStringList>

#include <memory>

QT_BEGIN_NAMESPACE
class QProcess;
QT_END_NAMESPACE

namespace Loopscope {

/*!
    The loopscope executable run as a script or CI would run a headless
    command: no display, no session bus (so no keyring), no saved settings
    of the user's, end-of-file on stdin unless a test gives input, and the
    variables a test adds (an API key). It runs in a process group of its
    own, which is killed when this object goes, so that nothing it started
    (an MCP server) outlives a failed test. The one way tests run the app's
    binary.
*/
class HeadlessProcess final
{
public:
    struct Result
    {
        int exitCode = -1; // -1 when it crashed or had to be killed
        QByteArray out;
        QByteArray err;
    };

    static constexpr int DefaultTimeoutMs = 60'000;

    // \a configHome: a folder that stands in for the user's settings (XDG_CONFIG_HOME).
    HeadlessProcess(QString program, QString configHome);
    HeadlessProcess(HeadlessProcess &&other) noexcept;
    HeadlessProcess &operator=(HeadlessProcess &&other) = delete;
    ~HeadlessProcess();

    void setEnvironmentVariable(const QString &name, const QString &value);
    // Written to its stdin, which is then closed.
    void setStandardInput(const QByteArray &input);
    // The largest file it may write, in bytes (RLIMIT_FSIZE, as `ulimit -f`): a write past it fails
    // with EFBIG (SIGXFSZ is ignored), the way a nearly full disk fails it. 0: no limit.
    void setFileSizeLimit(qint64 bytes) { m_fileSizeLimit = bytes; }

    void start(const QStringList &arguments);
    qint64 processId() const;
    // SIGINT, as Ctrl+C in a terminal.
    void interrupt();
    // Any signal, e.g. SIGHUP as when the terminal closes (Unix only).
    void sendSignal(int signal);
    // Waits, serving this thread's events (a FakeHttpServer answers meanwhile), until it ends.
    // Past \a timeoutMs it is killed and the test fails, saying which command hung.
    Result finish(int timeoutMs = DefaultTimeoutMs);
    Result run(const QStringList &arguments, int timeoutMs = DefaultTimeoutMs);

private:
    void killGroup();

    std::unique_ptr<QProcess> m_process;
    QString m_program;
    QStringList m_arguments;
    QProcessEnvironment m_environment;
    QByteArray m_input;
    qint64 m_group = 0;
    qint64 m_fileSizeLimit = 0;
};

} // namespace Loopscope
