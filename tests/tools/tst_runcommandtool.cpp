#include "agent/tools/builtin/runcommandtool.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QtConcurrent/QtConcurrentRun>

#include <mutex>

#ifdef Q_OS_UNIX
#include <csignal>
#endif

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

// Alive and not a zombie waiting to be reaped.
bool processAlive(qint64 pid)
{
#ifdef Q_OS_LINUX
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close < 0 || line.mid(close + 2, 1) != "Z";
#elif defined(Q_OS_UNIX)
    return ::kill(pid_t(pid), 0) == 0;
#else
    Q_UNUSED(pid);
    return false;
#endif
}

// The first line of the output that is a number: the pid a command printed.
qint64 firstPid(const QString &output)
{
    for (const QString &line : output.split(u'\n')) {
        bool ok = false;
        const qint64 pid = line.trimmed().toLongLong(&ok);
        if (ok && pid > 1)
            return pid;
    }
    return -1;
}

// Collects progress from a tool running on another thread.
struct ProgressLog
{
    std::mutex mutex;
    QStringList messages;

    ToolContext::ProgressSink sink()
    {
        return [this](const QString &message) {
            std::lock_guard lock(mutex);
            messages.append(message);
        };
    }
    QStringList taken()
    {
        std::lock_guard lock(mutex);
        return messages;
    }
};

} // namespace

class RunCommandToolTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void itRunsInTheWorkspaceAndReportsTheExitCode()
    {
        const RunCommandTool tool{Workspace(m_dir.path())};
        ToolContext context;
        const ToolResult result = tool.invoke({{u"command"_s, u"pwd"_s}}, context);

        QVERIFY2(!result.isError, qPrintable(result.content));
        QCOMPARE(result.content, QDir(m_dir.path()).canonicalPath() + u"\n[exit code 0]"_s);
        const QJsonObject details = result.details.value(u"command"_s).toObject();
        QCOMPARE(details.value(u"exitCode"_s).toInt(-1), 0);
        QCOMPARE(details.value(u"command"_s).toString(), u"pwd"_s);
        QCOMPARE(details.value(u"output"_s).toString(), QDir(m_dir.path()).canonicalPath() + u'\n');
        QCOMPARE(details.value(u"timedOut"_s).toBool(), false);
    }

    void stdoutAndStderrAreInterleavedInOrder()
    {
        const RunCommandTool tool{Workspace(m_dir.path())};
        ToolContext context;
        const ToolResult result = tool.invoke(
            {{u"command"_s, u"echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three"_s}}, context);

        QCOMPARE(result.content, u"one\ntwo\nthree\n[exit code 0]"_s);
    }

    void aNonZeroExitIsReportedNotTreatedAsAFailure()
    {
        const RunCommandTool tool{Workspace(m_dir.path())};
        ToolContext context;
        const ToolResult result = tool.invoke({{u"command"_s, u"echo failing; exit 3"_s}}, context);

        QVERIFY(!result.isError);
        QCOMPARE(result.content, u"failing\n[exit code 3]"_s);
        QCOMPARE(result.details.value(u"command"_s).toObject().value(u"exitCode"_s).toInt(), 3);
    }

    void aCommandKilledByASignalSaysWhich()
    {
        const RunCommandTool tool{Workspace(m_dir.path())};
        ToolContext context;
        const ToolResult result = tool.invoke({{u"command"_s, u"kill -9 $$"_s}}, context);

        QCOMPARE(result.content, u"[no output]\n[the command was killed by signal 9]"_s);
        QCOMPARE(result.details.value(u"command"_s).toObject().value(u"signal"_s).toInt(), 9);
    }

    void aTimeoutEndsTheWholeProcessGroup()
    {
        const RunCommandTool tool{Workspace(m_dir.path())};
        ToolContext context;
        QElapsedTimer timer;
        timer.start();
        // A grandchild in the background, and a shell that waits for it.
        const ToolResult result
            = tool.invoke({{u"command"_s, u"sleep 300 & echo $!; wait"_s}, {u"timeout_s"_s, 1}}, context);

        QVERIFY(timer.elapsed() < 10'000);
        QVERIFY(result.isError);
        QVERIFY2(result.content.contains(u"did not finish within 1 s"_s), qPrintable(result.content));
        const qint64 grandchild = firstPid(result.content);
        QVERIFY2(grandchild > 0, qPrintable(result.content));
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(grandchild), 5000);
        QCOMPARE(result.details.value(u"command"_s).toObject().value(u"timedOut"_s).toBool(), true);
    }

    void whatACommandLeavesInTheBackgroundEndsWithIt()
    {
        const RunCommandTool tool{Workspace(m_dir.path())};
        ToolContext context;
        const ToolResult result
            = tool.invoke({{u"command"_s, u"sleep 300 >/dev/null 2>&1 & echo $!"_s}}, context);

        QVERIFY2(result.content.endsWith(u"[exit code 0]"_s), qPrintable(result.content));
        const qint64 grandchild = firstPid(result.content);
        QVERIFY(grandchild > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(grandchild), 5000);
    }

    void cancellationEndsTheWholeProcessGroupAndKeepsTheOutputSoFar()
    {
        const RunCommandTool tool{Workspace(m_dir.path())};
        ProgressLog progress;
        ToolContext context(progress.sink());
        QFuture<ToolResult> future = QtConcurrent::run([&tool, &context] {
            return tool.invoke({{u"command"_s, u"sleep 300 & echo $!; echo started; wait"_s}}, context);
        });

        QTRY_VERIFY_WITH_TIMEOUT(progress.taken().join(u'\n').contains(u"started"_s), 10'000);
        QElapsedTimer timer;
        timer.start();
        context.cancel();
        future.waitForFinished();
        QVERIFY(timer.elapsed() < 5000);

        const ToolResult result = future.result();
        QVERIFY(result.isError);
        QVERIFY2(result.content.contains(u"[cancelled"_s), qPrintable(result.content));
        QVERIFY2(result.content.contains(u"started"_s), qPrintable(result.content));
        const qint64 grandchild = firstPid(result.content);
        QVERIFY(grandchild > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(grandchild), 5000);
        QCOMPARE(result.details.value(u"command"_s).toObject().value(u"cancelled"_s).toBool(), true);
    }

    void outputIsStreamedAsProgressWhileTheCommandRuns()
    {
        const RunCommandTool tool{Workspace(m_dir.path())};
        ProgressLog progress;
        ToolContext context(progress.sink());
        QFuture<ToolResult> future = QtConcurrent::run([&tool, &context] {
            return tool.invoke({{u"command"_s, u"echo first; sleep 1; echo second"_s}}, context);
        });

        // The first line arrives while the command still sleeps.
        QTRY_VERIFY_WITH_TIMEOUT(progress.taken().contains(u"first"_s), 5000);
        QVERIFY(!future.isFinished());
        future.waitForFinished();
        QCOMPARE(progress.taken(), (QStringList{u"first"_s, u"second"_s}));
    }

    void aHugeOutputIsCappedHeadAndTailWithANote()
    {
        const RunCommandTool tool{Workspace(m_dir.path())};
        ProgressLog progress;
        ToolContext context(progress.sink());
        // 3 MB of numbered lines: the first and the last survive.
        const ToolResult result = tool.invoke(
            {{u"command"_s, u"i=0; while [ $i -lt 3 ]; do i=$((i+1)); echo begin; done; "
                            "yes 0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz | "
                            "head -c 3000000; "
                            "echo; echo the-end"_s}},
            context);

        QVERIFY(!result.isError);
        QVERIFY2(result.content.startsWith(u"begin\nbegin\nbegin\n"_s), qPrintable(result.content.left(200)));
        QVERIFY(result.content.endsWith(u"the-end\n[exit code 0]"_s));
        QVERIFY(result.content.contains(u"bytes of output dropped here"_s));
        QVERIFY(result.content.size() < RunCommandTool::MaxOutputBytes + 200);

        const QJsonObject details = result.details.value(u"command"_s).toObject();
        QVERIFY(details.value(u"outputBytes"_s).toInteger() > 3'000'000);
        QCOMPARE(details.value(u"outputTruncated"_s).toBool(), true);
        QVERIFY(details.value(u"output"_s).toString().size() <= RunCommandTool::MaxDetailsBytes + 100);
        QVERIFY(details.value(u"output"_s).toString().endsWith(u"the-end\n"_s));

        // The live stream stops at its own cap and says so.
        qsizetype streamed = 0;
        const QStringList messages = progress.taken();
        for (const QString &message : messages)
            streamed += message.size();
        QVERIFY(streamed <= RunCommandTool::MaxProgressBytes + 200);
        // In batches, not a message per line: a chatty command does not flood the chat.
        QVERIFY2(messages.size() <= 64, qPrintable(QString::number(messages.size())));
        QVERIFY(messages.constLast().contains(u"live output stops here"_s));
    }

    void aCommandWithoutOutputSaysSo()
    {
        const RunCommandTool tool{Workspace(m_dir.path())};
        ToolContext context;
        QCOMPARE(tool.invoke({{u"command"_s, u"true"_s}}, context).content, u"[no output]\n[exit code 0]"_s);
    }

    void itRefusesWhatItCannotRun()
    {
        ToolContext context;
        const ToolResult empty
            = RunCommandTool(Workspace(m_dir.path())).invoke({{u"command"_s, u"  "_s}}, context);
        QVERIFY(empty.isError);
        const ToolResult noWorkspace = RunCommandTool(Workspace()).invoke({{u"command"_s, u"ls"_s}}, context);
        QVERIFY(noWorkspace.isError);
        QVERIFY2(noWorkspace.content.contains(u"No workspace folder"_s), qPrintable(noWorkspace.content));
    }

    void aHiddenVariableNeverReachesTheOutput_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("env") << u"env"_s;
        QTest::newRow("printenv NAME") << u"printenv LOOPSCOPE_TST_SECRET"_s;
        QTest::newRow("echo $NAME") << u"echo \"[$LOOPSCOPE_TST_SECRET]\""_s;
        QTest::newRow("a child shell") << u"sh -c 'echo $LOOPSCOPE_TST_SECRET'"_s;
    }
    void aHiddenVariableNeverReachesTheOutput()
    {
        QFETCH(QString, command);
        const QByteArray secret = "sk-tst-hidden-0123456789";
        qputenv("LOOPSCOPE_TST_SECRET", secret);
        qputenv("LOOPSCOPE_TST_VISIBLE", "still-there");
        const RunCommandTool tool{Workspace(m_dir.path()), CommandSecrets{{u"LOOPSCOPE_TST_SECRET"_s}, {}}};
        ProgressLog progress;
        ToolContext context(progress.sink());

        const ToolResult result = tool.invoke({{u"command"_s, command}}, context);
        const ToolResult visible
            = tool.invoke({{u"command"_s, u"printenv LOOPSCOPE_TST_VISIBLE"_s}}, context);
        qunsetenv("LOOPSCOPE_TST_SECRET");
        qunsetenv("LOOPSCOPE_TST_VISIBLE");

        QVERIFY2(!result.content.contains(QString::fromLatin1(secret)), "the value is in the result");
        QVERIFY(!QJsonDocument(result.details).toJson().contains(secret));
        QVERIFY(!progress.taken().join(u'\n').contains(QString::fromLatin1(secret)));
        // Only the hidden variable is left out: the rest of the environment is the app's.
        QCOMPARE(visible.content, u"still-there\n[exit code 0]"_s);
    }

    void aSecretPrintedAnotherWayIsRedacted()
    {
        QFile file(m_dir.filePath(u"key.txt"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("key: sk-tst-in-a-file-0123\n");
        file.close();
        const auto redact = [](const QString &text) {
            return QString(text).replace(u"sk-tst-in-a-file-0123"_s, u"[redacted]"_s);
        };
        const RunCommandTool tool{Workspace(m_dir.path()), CommandSecrets{{}, redact}};
        ProgressLog progress;
        ToolContext context(progress.sink());

        const ToolResult result = tool.invoke({{u"command"_s, u"cat key.txt"_s}}, context);

        QCOMPARE(result.content, u"key: [redacted]\n[exit code 0]"_s);
        QCOMPARE(result.details.value(u"command"_s).toObject().value(u"output"_s).toString(),
                 u"key: [redacted]\n"_s);
        QCOMPARE(progress.taken(), QStringList{u"key: [redacted]"_s});
    }

    void itKeepsItsOwnTimeAndAsksFirst()
    {
        const RunCommandTool tool{Workspace(m_dir.path())};
        QVERIFY(tool.behaviour().asksFirst);
        QVERIFY(tool.behaviour().timeoutMs.value_or(0) > RunCommandTool::MaxTimeoutS * 1000);
        const QJsonObject timeout
            = tool.schema().parameters.value(u"properties"_s).toObject().value(u"timeout_s"_s).toObject();
        QCOMPARE(timeout.value(u"maximum"_s).toInt(), RunCommandTool::MaxTimeoutS);
        QCOMPARE(timeout.value(u"minimum"_s).toInt(), 1);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(RunCommandToolTest)
#include "tst_runcommandtool.moc"
