#include "agent/config/providerprofile.h"
#include "agent/trace/trace.h"
#include "agent/transcript/transcript.h"
#include "tests/support/fakeembeddings.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/headlessprocess.h"
#include "tests/support/modelinfoserver.h"
#include "tests/support/openaicompletion.h"
#include "tests/support/processtable.h"
#include "tests/support/testfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <csignal>
#include <cstring>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString apiKey = u"sk-cli-secret-0123456789"_s;

QByteArray sse(const QJsonObject &object)
{
    return FakeHttpServer::sseEvent(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

QByteArray textStream(const QString &text)
{
    const auto choice = [](const QJsonObject &delta, const QJsonValue &finish) {
        return QJsonObject{
            {u"model"_s, u"m"_s},
            {u"choices"_s,
             QJsonArray{QJsonObject{{u"index"_s, 0}, {u"delta"_s, delta}, {u"finish_reason"_s, finish}}}}};
    };
    return sse(choice({{u"content"_s, text.left(3)}}, QJsonValue::Null))
           + sse(choice({{u"content"_s, text.mid(3)}}, QJsonValue::Null)) + sse(choice({}, u"stop"_s))
           + sse({{u"choices"_s, QJsonArray{}},
                  {u"usage"_s, QJsonObject{{u"prompt_tokens"_s, 11}, {u"completion_tokens"_s, 4}}}})
           + "data: [DONE]\n\n";
}

// One response asking for a call of \a name with each of \a arguments.
QByteArray toolCallsStream(const QString &name, const QStringList &arguments)
{
    QJsonArray calls;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        calls.append(
            QJsonObject{{u"index"_s, int(i)},
                        {u"id"_s, u"call_%1"_s.arg(i + 1)},
                        {u"type"_s, u"function"_s},
                        {u"function"_s, QJsonObject{{u"name"_s, name}, {u"arguments"_s, arguments.at(i)}}}});
    }
    return sse({{u"choices"_s, QJsonArray{QJsonObject{{u"index"_s, 0},
                                                      {u"delta"_s, QJsonObject{{u"tool_calls"_s, calls}}},
                                                      {u"finish_reason"_s, QJsonValue::Null}}}}})
           + sse({{u"choices"_s, QJsonArray{QJsonObject{{u"index"_s, 0},
                                                        {u"delta"_s, QJsonObject{}},
                                                        {u"finish_reason"_s, u"tool_calls"_s}}}}})
           + "data: [DONE]\n\n";
}

QByteArray toolCallStream(const QString &name, const QString &arguments)
{
    return toolCallsStream(name, {arguments});
}

void stream(HttpExchange &exchange, const QByteArray &body)
{
    exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
    exchange.send(body);
    exchange.end();
}

QList<QJsonObject> readJsonLines(const QByteArray &bytes)
{
    QList<QJsonObject> objects;
    for (const QByteArray &line : bytes.split('\n')) {
        if (!line.trimmed().isEmpty())
            objects.append(QJsonDocument::fromJson(line).object());
    }
    return objects;
}

QStringList eventNames(const QList<QJsonObject> &events)
{
    QStringList names;
    for (const QJsonObject &event : events)
        names.append(event.value(u"event"_s).toString());
    return names;
}

} // namespace

class RunCommandTest : public QObject
{
    Q_OBJECT

private:
    FakeHttpServer m_server;
    QTemporaryDir m_dir;

    using Run = HeadlessProcess::Result;
    static constexpr int TimeoutMs = 30'000;

    // \a server listening, answering every request with \a text streamed.
    static bool listenStreaming(FakeHttpServer &server, const QString &text)
    {
        server.setHandler([text](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(text));
        });
        return server.listen();
    }

    // An OpenAI-compatible profile \a name on \a server, saved as the window saves it in the runs'
    // configuration folder (its key from LOOPSCOPE_TEST_KEY); the folder is cleared when the guard goes.
    static auto saveProfile(const FakeHttpServer &server, const QString &name)
    {
        const QString settingsPath
            = QDir::tempPath() + u"/loopscope-tst-runcommand-config/Loopscope/Loopscope.conf"_s;
        {
            QSettings settings(settingsPath, QSettings::IniFormat);
            ProviderProfileStore(&settings).save(
                openAiTestProfile(server.baseUrl(), name, u"LOOPSCOPE_TEST_KEY"_s));
        }
        return qScopeGuard([settingsPath] { QFile::remove(settingsPath); });
    }

    QStringList baseArguments() const
    {
        return {u"run"_s,
                u"--provider"_s,
                u"openai"_s,
                u"--base-url"_s,
                m_server.baseUrl().toString() + u"/v1"_s,
                u"--model"_s,
                u"m"_s,
                u"--api-key-env"_s,
                u"LOOPSCOPE_TEST_KEY"_s};
    }

    static HeadlessProcess loopscope()
    {
        HeadlessProcess process(QStringLiteral(LOOPSCOPE_EXECUTABLE),
                                QDir::tempPath() + u"/loopscope-tst-runcommand-config"_s);
        process.setEnvironmentVariable(u"LOOPSCOPE_TEST_KEY"_s, apiKey);
        return process;
    }

    static Run run(const QStringList &arguments) { return loopscope().run(arguments, TimeoutMs); }

    // A process whose data folder (where the knowledge bases are) is \a dataHome.
    static HeadlessProcess loopscopeWithData(const QString &dataHome)
    {
        HeadlessProcess process = loopscope();
        process.setEnvironmentVariable(u"XDG_DATA_HOME"_s, dataHome);
        return process;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_server.listen());
        QVERIFY(m_dir.isValid());
    }

    void init() { m_server.setHandler({}); }

    void itPrintsTheAnswerOnStdoutAndExitsZero()
    {
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(u"Hello from the model"_s));
        });

        const Run result = run(baseArguments() << u"Say hello"_s);

        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "Hello from the model\n"_ba);
        const HttpRequestRecord sent = m_server.requests().constLast();
        QCOMPARE(sent.header("authorization"), "Bearer "_ba + apiKey.toUtf8());
        const QJsonArray messages = sent.json().value(u"messages"_s).toArray();
        QCOMPARE(messages.last().toObject().value(u"content"_s).toString(), u"Say hello"_s);
    }

    void eventsAndTraceRecordTheLoopWithoutTheKey()
    {
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            if (messages.last().toObject().value(u"role"_s).toString() == u"user")
                stream(exchange, toolCallStream(u"calculator"_s, u"{\"expression\":\"6*7\"}"_s));
            else
                stream(exchange, textStream(u"It is 42."_s));
        });
        const QString eventsPath = m_dir.filePath(u"events.jsonl"_s);
        const QString tracePath = m_dir.filePath(u"trace.json"_s);

        const Run result
            = run(baseArguments() << u"--tools"_s << u"calculator"_s << u"--events"_s << eventsPath
                                  << u"--trace-out"_s << tracePath << u"What is 6*7?"_s);

        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "It is 42.\n"_ba);
        QFile eventsFile(eventsPath);
        QVERIFY(eventsFile.open(QIODevice::ReadOnly));
        const QByteArray eventBytes = eventsFile.readAll();
        const QList<QJsonObject> events = readJsonLines(eventBytes);
        const QStringList names = eventNames(events);
        for (const QString &expected : {u"turn_started"_s, u"iteration_started"_s, u"model_request"_s,
                                        u"text_delta"_s, u"tool_call"_s, u"tool_result"_s, u"finished"_s})
            QVERIFY2(names.contains(expected), qPrintable(expected));
        QCOMPARE(names.constLast(), u"finished"_s);
        for (const QJsonObject &event : events)
            QVERIFY(event.value(u"timeUs"_s).toInteger() > 0);
        const auto toolResult = std::find_if(events.cbegin(), events.cend(), [](const QJsonObject &e) {
            return e.value(u"event"_s).toString() == u"tool_result"_s;
        });
        QVERIFY(toolResult->value(u"text"_s).toString().contains(u"42"_s));

        QFile traceFile(tracePath);
        QVERIFY(traceFile.open(QIODevice::ReadOnly));
        const QByteArray traceBytes = traceFile.readAll();
        Trace trace;
        QString error;
        QVERIFY2(trace.fromJson(QJsonDocument::fromJson(traceBytes).array(), &error), qPrintable(error));
        QCOMPARE(trace.roots().size(), 1);
        QCOMPARE(trace.node(trace.roots().constFirst()).children.size(), 2); // two iterations

        // The wire request is in the trace, with its headers, but never the key.
        QVERIFY(traceBytes.contains("[redacted]"));
        QVERIFY(!traceBytes.contains(apiKey.toUtf8()));
        QVERIFY(!eventBytes.contains(apiKey.toUtf8()));
        QVERIFY(!result.out.contains(apiKey.toUtf8()));
        QVERIFY(!result.err.contains(apiKey.toUtf8()));
    }

    void eventsCanGoToStdout()
    {
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(u"streamed"_s));
        });

        const Run result = run(baseArguments() << u"--events"_s << u"-"_s << u"hi"_s);

        QCOMPARE(result.exitCode, 0);
        const QList<QJsonObject> events = readJsonLines(result.out);
        QVERIFY(events.size() >= 5);
        QCOMPARE(events.constLast().value(u"event"_s).toString(), u"finished"_s);
        QCOMPARE(events.constLast().value(u"text"_s).toString(), u"streamed"_s);
    }

    void anAnswerForcedByTheIterationLimitExitsZeroAndTheFinishedEventSaysSo()
    {
        // Tools while they are offered; an answer once the final iteration takes them away.
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.json().value(u"tool_choice"_s).toString() == u"none")
                stream(exchange, textStream(u"Forced answer."_s));
            else
                stream(exchange, toolCallStream(u"calculator"_s, u"{\"expression\":\"1+1\"}"_s));
        });
        const QString eventsPath = m_dir.filePath(u"forced-events.jsonl"_s);

        const Run result = run(baseArguments() << u"--tools"_s << u"calculator"_s << u"--max-iterations"_s
                                               << u"2"_s << u"--events"_s << eventsPath << u"go"_s);

        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "Forced answer.\n"_ba);
        QVERIFY2(
            QString::fromUtf8(result.err)
                .contains(u"reached the limit of 2 iterations: the last answer was forced without tools"_s),
            result.err.constData());
        QFile file(eventsPath);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<QJsonObject> events = readJsonLines(file.readAll());
        QVERIFY(!events.isEmpty());
        QCOMPARE(events.constLast().value(u"event"_s).toString(), u"finished"_s);
        QCOMPARE(events.constLast().value(u"outcome"_s).toString(), u"forced_final"_s);
        QCOMPARE(events.constLast().value(u"iterations"_s).toInt(), 2);
    }

    void exitCodesTellOutcomesApart_data()
    {
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QStringList>("extraArguments");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrPart");

        QTest::newRow("the key is rejected: provider error")
            << u"401"_s << QStringList() << 1 << u"the API key was rejected (401)"_s;
        QTest::newRow("the limit is reached without an answer")
            << u"always tools"_s << QStringList{u"--tools"_s, u"calculator"_s, u"--max-iterations"_s, u"2"_s}
            << 3 << u"final iteration"_s;
        QTest::newRow("every tool call denied, then the model answers")
            << u"deny"_s << QStringList{u"--tools"_s, u"calculator"_s, u"--approve"_s, u"none"_s} << 0
            << QString();
        QTest::newRow("an unknown provider is bad usage")
            << u"none"_s << QStringList{u"--provider"_s, u"mistral"_s} << 2 << u"unknown provider"_s;
        QTest::newRow("an unknown tool is bad usage")
            << u"none"_s << QStringList{u"--tools"_s, u"rm"_s} << 2 << u"unknown tool"_s;
        QTest::newRow("a missing key is bad usage")
            << u"none"_s << QStringList{u"--api-key-env"_s, u"LOOPSCOPE_UNSET_VARIABLE"_s} << 2
            << u"LOOPSCOPE_UNSET_VARIABLE"_s;
        QTest::newRow("a bad iteration limit is bad usage")
            << u"none"_s << QStringList{u"--max-iterations"_s, u"zero"_s} << 2 << u"--max-iterations"_s;
    }

    void exitCodesTellOutcomesApart()
    {
        QFETCH(QString, scenario);
        QFETCH(QStringList, extraArguments);
        QFETCH(int, exitCode);
        QFETCH(QString, stderrPart);
        const int requestsBefore = int(m_server.requests().size());
        m_server.setHandler([scenario](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (scenario == u"401") {
                exchange.respond(401, {{"Content-Type", "application/json"}},
                                 R"({"error":{"message":"Incorrect API key provided"}})");
                return;
            }
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            const bool answered = messages.last().toObject().value(u"role"_s).toString() == u"tool";
            if (scenario == u"deny" && answered) {
                const QString result = messages.last().toObject().value(u"content"_s).toString();
                stream(exchange, textStream(result.contains(u"--approve none"_s) ? u"I was not allowed."_s
                                                                                 : u"It ran anyway!"_s));
                return;
            }
            stream(exchange, toolCallStream(u"calculator"_s, u"{\"expression\":\"1+1\"}"_s));
        });

        QStringList arguments = baseArguments();
        // Later options win: an override of --provider or --api-key-env replaces the default.
        for (int i = 0; i + 1 < extraArguments.size(); i += 2) {
            const int at = int(arguments.indexOf(extraArguments.at(i)));
            if (at >= 0)
                arguments.remove(at, 2);
        }
        const Run result = run(arguments + extraArguments << u"go"_s);

        QCOMPARE(result.exitCode, exitCode);
        QVERIFY2(QString::fromUtf8(result.err).contains(stderrPart), result.err.constData());
        if (scenario == u"deny")
            QCOMPARE(result.out, "I was not allowed.\n"_ba);
        if (scenario == u"none")
            QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void aScriptedModelWritesAFileRunsCatOnItAndAnswersFromTheOutput()
    {
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        // One step per request: write the file, run cat on it, answer from what cat printed.
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            QStringList toolResults;
            for (const QJsonValue &message : messages) {
                if (message.toObject().value(u"role"_s).toString() == u"tool")
                    toolResults.append(message.toObject().value(u"content"_s).toString());
            }
            if (toolResults.isEmpty()) {
                stream(exchange,
                       toolCallStream(
                           u"write_file"_s,
                           uR"({"path":"notes/hello.txt","content":"The secret word is kumquat.\n"})"_s));
            } else if (toolResults.size() == 1) {
                stream(exchange, toolCallStream(u"run_command"_s, uR"({"command":"cat notes/hello.txt"})"_s));
            } else {
                const QString output = toolResults.constLast();
                stream(exchange, textStream(u"cat said: "_s + output.section(u'\n', 0, 0)));
            }
        });
        const QString tracePath = m_dir.filePath(u"tools-trace.json"_s);

        const Run result
            = run(baseArguments() << u"--tools"_s << u"write_file,run_command"_s << u"--workspace"_s
                                  << workspace.path() << u"--approve-tools"_s << u"write_file,run_command"_s
                                  << u"--trace-out"_s << tracePath << u"Write a note and read it back"_s);

        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "cat said: The secret word is kumquat.\n"_ba);
        QFile written(workspace.filePath(u"notes/hello.txt"_s));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), "The secret word is kumquat.\n"_ba);

        // The trace keeps the command's full output and exit code.
        QFile traceFile(tracePath);
        QVERIFY(traceFile.open(QIODevice::ReadOnly));
        const QByteArray traceBytes = traceFile.readAll();
        QVERIFY(traceBytes.contains("\"exitCode\": 0"));
        QVERIFY(traceBytes.contains("\"output\": \"The secret word is kumquat.\\n\""));
    }

    void anApprovedCommandNeverPrintsAnApiKey_data()
    {
        QTest::addColumn<QString>("command");
        QTest::newRow("env") << u"env"_s;
        QTest::newRow("printenv NAME") << u"printenv LOOPSCOPE_TEST_KEY; printenv OPENAI_API_KEY"_s;
        QTest::newRow("echo $NAME") << u"echo \"[$LOOPSCOPE_TEST_KEY][$OPENAI_API_KEY]\""_s;
    }

    void anApprovedCommandNeverPrintsAnApiKey()
    {
        QFETCH(QString, command);
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        // The model runs the command, then answers with everything it printed.
        m_server.setHandler([command](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonObject last = request.json().value(u"messages"_s).toArray().last().toObject();
            if (last.value(u"role"_s).toString() == u"tool")
                stream(exchange, textStream(u"It printed: "_s + last.value(u"content"_s).toString()));
            else
                stream(exchange,
                       toolCallStream(u"run_command"_s,
                                      QString::fromUtf8(QJsonDocument(QJsonObject{{u"command"_s, command}})
                                                            .toJson(QJsonDocument::Compact))));
        });
        const QString otherKey = u"sk-proj-conventional-0123456789"_s;
        const QString eventsPath = m_dir.filePath(u"secret-events.jsonl"_s);
        const QString tracePath = m_dir.filePath(u"secret-trace.json"_s);
        const QString sessionPath = m_dir.filePath(u"secret.loopscope.json"_s);
        QFile::remove(sessionPath);
        HeadlessProcess process = loopscope();
        // A key for another profile, in the variable OpenAI's profiles read by default.
        process.setEnvironmentVariable(u"OPENAI_API_KEY"_s, otherKey);

        const Run result = process.run(
            baseArguments() << u"--tools"_s << u"run_command"_s << u"--workspace"_s << workspace.path()
                            << u"--approve-tools"_s << u"run_command"_s << u"--events"_s << eventsPath
                            << u"--trace-out"_s << tracePath << u"--session"_s << sessionPath << u"Show me"_s,
            TimeoutMs);

        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY2(result.out.startsWith("It printed: "), result.out.constData());
        QByteArray recorded = result.out + result.err;
        for (const QString &path : {eventsPath, tracePath, sessionPath}) {
            QFile file(path);
            QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
            recorded += file.readAll();
        }
        QVERIFY2(!recorded.contains(apiKey.toUtf8()), "the key in use was recorded");
        QVERIFY2(!recorded.contains(otherKey.toUtf8()), "a conventional key variable was recorded");
    }

    void aProcessThatLeftTheCommandsGroupDoesNotOutliveTheTurn()
    {
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        const QString command = u"setsid sleep 300 > /dev/null 2>&1 & echo $! > escaped.pid; sleep 1"_s;
        m_server.setHandler([command](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonObject last = request.json().value(u"messages"_s).toArray().last().toObject();
            if (last.value(u"role"_s).toString() == u"tool")
                stream(exchange, textStream(u"Done."_s));
            else
                stream(exchange,
                       toolCallStream(u"run_command"_s,
                                      QString::fromUtf8(QJsonDocument(QJsonObject{{u"command"_s, command}})
                                                            .toJson(QJsonDocument::Compact))));
        });

        const Run result
            = run(baseArguments() << u"--tools"_s << u"run_command"_s << u"--workspace"_s << workspace.path()
                                  << u"--approve-tools"_s << u"run_command"_s << u"Start it"_s);

        QVERIFY2(result.exitCode == 0, result.err.constData());
        QFile pidFile(workspace.filePath(u"escaped.pid"_s));
        QVERIFY(pidFile.open(QIODevice::ReadOnly));
        const qint64 escaped = pidFile.readAll().trimmed().toLongLong();
        QVERIFY(escaped > 0);
        const auto cleanUp = qScopeGuard([escaped] { ::kill(pid_t(escaped), SIGKILL); });
        QTRY_VERIFY_WITH_TIMEOUT(!ProcessTable::isLiving(escaped), 5000);
    }

    void aCommandCannotReadAKeyThroughProc_data()
    {
        QTest::addColumn<QString>("environ");
        QTest::newRow("the app's environment, /proc/$PPID/environ") << u"/proc/$PPID/environ"_s;
        QTest::newRow("the command's own, /proc/self/environ") << u"/proc/self/environ"_s;
    }

    void aCommandCannotReadAKeyThroughProc()
    {
        QFETCH(QString, environ);
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        // base64 walks around the mask on the key's literal text; the model answers with what it got.
        const QString command = u"cat "_s + environ + u" | base64 -w0"_s;
        QList<QByteArray> authorizations;
        m_server.setHandler([command, &authorizations](const HttpRequestRecord &request,
                                                       HttpExchange &exchange) {
            authorizations.append(request.header("Authorization"));
            const QJsonObject last = request.json().value(u"messages"_s).toArray().last().toObject();
            if (last.value(u"role"_s).toString() == u"tool")
                stream(exchange, textStream(u"It printed: "_s + last.value(u"content"_s).toString()));
            else
                stream(exchange,
                       toolCallStream(u"run_command"_s,
                                      QString::fromUtf8(QJsonDocument(QJsonObject{{u"command"_s, command}})
                                                            .toJson(QJsonDocument::Compact))));
        });
        const QString otherKey = u"sk-proj-conventional-0123456789"_s;
        HeadlessProcess process = loopscope();
        process.setEnvironmentVariable(u"OPENAI_API_KEY"_s, otherKey);

        const Run result = process.run(baseArguments() << u"--tools"_s << u"run_command"_s << u"--workspace"_s
                                                       << workspace.path() << u"--approve-tools"_s
                                                       << u"run_command"_s << u"Show me"_s,
                                       TimeoutMs);

        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(authorizations, QList<QByteArray>(2, "Bearer " + apiKey.toUtf8()));
        const QByteArray printed = result.out.mid(result.out.indexOf(": ") + 2).trimmed();
        const QByteArray environment = QByteArray::fromBase64(printed.left(printed.indexOf('\n')));
        // It did read an environment: the variables the test gave the app are there.
        QVERIFY2(environment.contains("XDG_CONFIG_HOME="), printed.constData());
        QVERIFY2(!environment.contains(apiKey.toUtf8()), "the key in use was readable");
        QVERIFY2(!environment.contains(otherKey.toUtf8()), "a conventional key variable was readable");
    }

    void toolsWithEffectsRunOnlyWhenApproved_data()
    {
        QTest::addColumn<QStringList>("approval");
        QTest::addColumn<QString>("reasonPart");

        QTest::newRow("no approval option: denied") << QStringList() << u"--approve all or --approve-tools"_s;
        QTest::newRow("another tool approved: denied")
            << QStringList{u"--approve-tools"_s, u"read_file"_s} << u"only read_file are"_s;
        QTest::newRow("--approve none: denied")
            << QStringList{u"--approve"_s, u"none"_s} << u"--approve none"_s;
        QTest::newRow("--approve all: runs") << QStringList{u"--approve"_s, u"all"_s} << QString();
        QTest::newRow("approved by name: runs")
            << QStringList{u"--approve-tools"_s, u"write_file"_s} << QString();
    }

    void toolsWithEffectsRunOnlyWhenApproved()
    {
        QFETCH(QStringList, approval);
        QFETCH(QString, reasonPart);
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            const QJsonObject last = messages.last().toObject();
            if (last.value(u"role"_s).toString() == u"tool")
                stream(exchange, textStream(u"Result: "_s + last.value(u"content"_s).toString()));
            else
                stream(exchange, toolCallStream(u"write_file"_s, uR"({"path":"x.txt","content":"x"})"_s));
        });

        const Run result = run(baseArguments() << u"--tools"_s << u"all"_s << u"--workspace"_s
                                               << workspace.path() << approval << u"go"_s);

        QCOMPARE(result.exitCode, 0);
        const QString answer = QString::fromUtf8(result.out);
        if (reasonPart.isEmpty()) {
            QVERIFY2(answer.contains(u"Created 'x.txt'"_s), qPrintable(answer));
            QVERIFY(QFileInfo::exists(workspace.filePath(u"x.txt"_s)));
        } else {
            QVERIFY2(answer.contains(reasonPart), qPrintable(answer));
            QVERIFY(!QFileInfo::exists(workspace.filePath(u"x.txt"_s)));
        }
    }

    void fetchReachesThisMachineOnlyWithFetchPrivate_data()
    {
        QTest::addColumn<bool>("allowed");
        QTest::newRow("refused by default") << false;
        QTest::newRow("allowed with --fetch-private") << true;
    }

    void fetchReachesThisMachineOnlyWithFetchPrivate()
    {
        QFETCH(bool, allowed);
        const QString pageUrl = m_server.baseUrl().toString() + u"/page"_s;
        m_server.setHandler([pageUrl](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.path == "/page") {
                exchange.respond(200, {{"Content-Type", "text/html"}}, "<h1>Local</h1><p>intranet page</p>");
                return;
            }
            const QJsonObject last = request.json().value(u"messages"_s).toArray().last().toObject();
            if (last.value(u"role"_s).toString() == u"tool")
                stream(exchange, textStream(u"Result: "_s + last.value(u"content"_s).toString()));
            else
                stream(exchange, toolCallStream(u"fetch_url"_s, u"{\"url\":\"%1\"}"_s.arg(pageUrl)));
        });
        QStringList arguments = baseArguments()
                                << u"--tools"_s << u"fetch_url"_s << u"--approve-tools"_s << u"fetch_url"_s;
        if (allowed)
            arguments << u"--fetch-private"_s;

        const Run result = run(arguments << u"go"_s);

        QCOMPARE(result.exitCode, 0);
        const QString answer = QString::fromUtf8(result.out);
        if (allowed)
            QVERIFY2(answer.contains(u"# Local\n\nintranet page"_s), qPrintable(answer));
        else
            QVERIFY2(answer.contains(u"loopback or private"_s), qPrintable(answer));
    }

    void sigintCancelsTheTurnCleanly()
    {
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.stall();
        });
        const QString eventsPath = m_dir.filePath(u"cancelled.jsonl"_s);
        const int requestsBefore = int(m_server.requests().size());
        HeadlessProcess process = loopscope();
        process.start(baseArguments() << u"--events"_s << eventsPath << u"wait forever"_s);
        QTRY_VERIFY_WITH_TIMEOUT(m_server.requests().size() > requestsBefore, 15000);

        process.interrupt();
        const Run result = process.finish(TimeoutMs);

        QCOMPARE(result.exitCode, 130);
        QFile eventsFile(eventsPath);
        QVERIFY(eventsFile.open(QIODevice::ReadOnly));
        const QList<QJsonObject> events = readJsonLines(eventsFile.readAll());
        QCOMPARE(events.constLast().value(u"event"_s).toString(), u"finished"_s);
        QCOMPARE(events.constLast().value(u"outcome"_s).toString(), u"cancelled"_s);
    }

    void aSignalEndsTheTurnAndEveryProcessOfATermIgnoringCommand_data()
    {
        QTest::addColumn<QList<int>>("signalsSent");
        QTest::newRow("SIGHUP: the terminal or SSH connection closed") << QList<int>{SIGHUP};
        QTest::newRow("SIGTERM") << QList<int>{SIGTERM};
        QTest::newRow("Ctrl+C twice") << QList<int>{SIGINT, SIGINT};
    }

    void aSignalEndsTheTurnAndEveryProcessOfATermIgnoringCommand()
    {
        QFETCH(QList<int>, signalsSent);
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        // The command ignores SIGTERM, as does the child it leaves in the background; it writes its
        // process group (its shell's pid) once both run.
        const QString command = u"trap '' TERM; sleep 300 & sleep 300 & echo $$ > group.pid; wait"_s;
        m_server.setHandler([command](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange,
                   toolCallStream(u"run_command"_s,
                                  QString::fromUtf8(QJsonDocument(QJsonObject{{u"command"_s, command}})
                                                        .toJson(QJsonDocument::Compact))));
        });
        const QString eventsPath = m_dir.filePath(u"signalled.jsonl"_s);
        HeadlessProcess process = loopscope();
        process.start(baseArguments() << u"--tools"_s << u"run_command"_s << u"--workspace"_s
                                      << workspace.path() << u"--approve-tools"_s << u"run_command"_s
                                      << u"--events"_s << eventsPath << u"Run it"_s);
        QFile groupFile(workspace.filePath(u"group.pid"_s));
        QTRY_VERIFY_WITH_TIMEOUT(groupFile.size() > 0, 15000);
        QVERIFY(groupFile.open(QIODevice::ReadOnly));
        const qint64 group = groupFile.readAll().trimmed().toLongLong();
        QVERIFY(group > 0);
        const auto cleanUp = qScopeGuard([group] { ::kill(-pid_t(group), SIGKILL); });
        QTRY_COMPARE_WITH_TIMEOUT(ProcessTable::livingInGroup(group).size(), 3, 5000);

        for (const int signal : signalsSent)
            process.sendSignal(signal);
        const Run result = process.finish(TimeoutMs);

        QCOMPARE(result.exitCode, 130);
        QFile eventsFile(eventsPath);
        QVERIFY(eventsFile.open(QIODevice::ReadOnly));
        const QList<QJsonObject> events = readJsonLines(eventsFile.readAll());
        QCOMPARE(events.constLast().value(u"event"_s).toString(), u"finished"_s);
        QCOMPARE(events.constLast().value(u"outcome"_s).toString(), u"cancelled"_s);
        QTRY_COMPARE_WITH_TIMEOUT(ProcessTable::livingInGroup(group), QList<qint64>(), 5000);
    }

    void aSessionFileIsContinuedAndSavedBackWithoutTheKey()
    {
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            stream(exchange, textStream(u"Answer %1"_s.arg(messages.size())));
        });
        const QString session = m_dir.filePath(u"continued.loopscope.json"_s);
        QFile::remove(session);

        const Run first = run(baseArguments() << u"--session"_s << session << u"First question"_s);
        QCOMPARE(first.exitCode, 0);
        QVERIFY(QFile::exists(session));
        const Run second = run(baseArguments() << u"--session"_s << session << u"Second question"_s);
        QCOMPARE(second.exitCode, 0);
        // The second run showed the model the first turn.
        QCOMPARE(second.out, "Answer 3\n"_ba);

        const TranscriptLoadResult loaded = TranscriptFile::load(session);
        QVERIFY2(loaded.transcript, qPrintable(loaded.error));
        QCOMPARE(loaded.transcript->turnCount(), 2);
        QCOMPARE(loaded.transcript->messages.size(), 4);
        QCOMPARE(loaded.transcript->title, u"First question"_s);
        QCOMPARE(loaded.transcript->trace.size(), 2);
        QCOMPARE(loaded.transcript->config.model.model, u"m"_s);
        QFile file(session);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains(apiKey.toUtf8()));
    }

    void anEchoedKeySplitAcrossTwoChunksReachesNoOutputOrFile()
    {
        // The provider echoes the key in a successful answer, each time split across two stream
        // events: in a tool call's arguments, then in the answer's text.
        const qsizetype half = apiKey.size() / 2;
        const auto choice = [](const QJsonObject &delta, const QJsonValue &finish = QJsonValue::Null) {
            return sse(
                {{u"model"_s, u"m"_s},
                 {u"choices"_s, QJsonArray{QJsonObject{
                                    {u"index"_s, 0}, {u"delta"_s, delta}, {u"finish_reason"_s, finish}}}}});
        };
        const auto arguments = [&](const QString &fragment, bool first) {
            QJsonObject call{{u"index"_s, 0}, {u"function"_s, QJsonObject{{u"arguments"_s, fragment}}}};
            if (first) {
                call.insert(u"id"_s, u"call_1"_s);
                call.insert(u"type"_s, u"function"_s);
                call.insert(u"function"_s,
                            QJsonObject{{u"name"_s, u"calculator"_s}, {u"arguments"_s, fragment}});
            }
            return choice({{u"tool_calls"_s, QJsonArray{call}}});
        };
        const QByteArray toolCall = arguments(u"{\"expression\":\"1+"_s + apiKey.first(half), true)
                                    + arguments(apiKey.sliced(half) + u"\"}"_s, false)
                                    + choice({}, u"tool_calls"_s) + "data: [DONE]\n\n";
        const QByteArray answer = choice({{u"content"_s, QString(u"Your key: "_s + apiKey.first(half))}})
                                  + choice({{u"content"_s, QString(apiKey.sliced(half) + u" ok"_s)}})
                                  + choice({}, u"stop"_s) + "data: [DONE]\n\n";
        m_server.setHandler([toolCall, answer](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            const QByteArray body
                = messages.last().toObject().value(u"role"_s).toString() == u"user" ? toolCall : answer;
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            // Every event its own read.
            exchange.sendSplit(body,
                               {int(body.indexOf("data: ", 10)),
                                int(body.indexOf("data: ", body.indexOf("data: ", 10) + 10))},
                               5);
            exchange.end();
        });
        const QString eventsPath = m_dir.filePath(u"echo-events.jsonl"_s);
        const QString tracePath = m_dir.filePath(u"echo-trace.json"_s);
        const QString session = m_dir.filePath(u"echo.loopscope.json"_s);
        QFile::remove(session);
        // The server is shared by the whole run: its earlier requests are not this test's.
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result = run(baseArguments()
                               << u"--tools"_s << u"calculator"_s << u"--events"_s << eventsPath
                               << u"--trace-out"_s << tracePath << u"--session"_s << session << u"Echo it"_s);

        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "Your key: [redacted] ok\n"_ba);
        const QByteArray key = apiKey.toUtf8();
        QVERIFY(!result.err.contains(key));
        for (const QString &path : {eventsPath, tracePath, session}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            QVERIFY2(!bytes.contains(key), qPrintable(path));
            QVERIFY2(bytes.contains("[redacted]"), qPrintable(path));
        }
        // The tool got, and the next request sent back, the redacted arguments.
        QCOMPARE(m_server.requests().size(), requestsBefore + 2);
        QVERIFY(!m_server.requests().at(requestsBefore + 1).body.contains(key));
        for (const QString &format : {u"md"_s, u"html"_s, u"otlp"_s}) {
            const Run exported = run({u"export"_s, session, u"--format"_s, format});
            QCOMPARE(exported.exitCode, 0);
            QVERIFY2(!exported.out.contains(key), qPrintable(format));
        }
    }

    void anAnswerCutByALimitExitsOneNamingIt_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("delayMs");
        QTest::addColumn<QString>("expected");
        QTest::newRow("an endless stream, past --max-response-mb")
            << QStringList{u"--max-response-mb"_s, u"1"_s} << 0
            << u"larger than the response size limit of 1 MB (Settings → Loop, --max-response-mb)"_s;
        QTest::newRow("a stream that keeps coming, past --request-timeout-s")
            << QStringList{u"--request-timeout-s"_s, u"1"_s} << 20
            << u"longer than the request time limit of 1 s (Settings → Loop, --request-timeout-s)"_s;
    }

    void anAnswerCutByALimitExitsOneNamingIt()
    {
        QFETCH(QStringList, options);
        QFETCH(int, delayMs);
        QFETCH(QString, expected);
        const QByteArray piece = sse(
            {{u"model"_s, u"m"_s},
             {u"choices"_s, QJsonArray{QJsonObject{{u"index"_s, 0},
                                                   {u"delta"_s, QJsonObject{{u"content"_s, u"more "_s}}},
                                                   {u"finish_reason"_s, QJsonValue::Null}}}}});
        m_server.setHandler([piece, delayMs](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.sendForever(delayMs > 0 ? piece : piece.repeated(64), delayMs);
        });
        const qsizetype before = m_server.requests().size();

        const Run result = run(baseArguments() << options << u"Go on"_s);

        QCOMPARE(result.exitCode, 1);
        QVERIFY2(QString::fromUtf8(result.err).contains(expected), result.err.constData());
        QCOMPARE(m_server.requests().size() - before, 1); // not retried
    }

    void callsPastMaxToolCallsAreAnsweredWithAnErrorSayingWhy()
    {
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            if (messages.last().toObject().value(u"role"_s).toString() == u"user")
                stream(exchange, toolCallsStream(u"calculator"_s,
                                                 {uR"({"expression":"1+1"})"_s, uR"({"expression":"2+2"})"_s,
                                                  uR"({"expression":"3+3"})"_s}));
            else
                stream(exchange, textStream(u"Done adding."_s));
        });

        const Run result = run(baseArguments() << u"--tools"_s << u"calculator"_s << u"--max-tool-calls"_s
                                               << u"2"_s << u"--events"_s << u"-"_s << u"Add"_s);

        QCOMPARE(result.exitCode, 0);
        // Results come as calls finish: told apart by their call's id.
        QHash<QString, QJsonObject> results;
        for (const QJsonObject &event : readJsonLines(result.out)) {
            if (event.value(u"event"_s).toString() == u"tool_result"_s)
                results.insert(event.value(u"toolCall"_s).toObject().value(u"id"_s).toString(), event);
        }
        QCOMPARE(results.size(), 3);
        QVERIFY(results.value(u"call_1"_s).value(u"text"_s).toString().contains(u"2"_s));
        QVERIFY(results.value(u"call_2"_s).value(u"text"_s).toString().contains(u"4"_s));
        QCOMPARE(results.value(u"call_1"_s).value(u"status"_s).toString(), u"ok"_s);
        const QString refused = results.value(u"call_3"_s).value(u"text"_s).toString();
        QVERIFY2(refused.contains(u"Not executed"_s) && refused.contains(u"limit of 2"_s),
                 qPrintable(refused));
        QCOMPARE(results.value(u"call_3"_s).value(u"status"_s).toString(), u"skipped"_s);
    }

    // The provider stalls mid-answer: the turn's time limit ends it, the trace and events say
    // why, and the exit code is the limit's, not a cancellation's.
    void aTurnOutOfTimeStopsWithTheTimeLimitOutcomeAndExitThree()
    {
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) { exchange.stall(); });

        const Run result = run(baseArguments() << u"--time-limit-s"_s << u"1"_s << u"--events"_s << u"-"_s
                                               << u"Take your time"_s);

        QCOMPARE(result.exitCode, 3);
        const QList<QJsonObject> events = readJsonLines(result.out);
        QVERIFY(!events.isEmpty());
        QCOMPARE(events.constLast().value(u"event"_s).toString(), u"finished"_s);
        QCOMPARE(events.constLast().value(u"outcome"_s).toString(), u"time_limit"_s);
        QVERIFY2(result.err.contains("time limit of 1 s"), result.err.constData());
    }

    void limitOptionsRefuseWhatIsNotAPositiveNumber_data()
    {
        QTest::addColumn<QStringList>("options");
        QTest::newRow("--max-tool-calls 0") << QStringList{u"--max-tool-calls"_s, u"0"_s};
        QTest::newRow("--max-tool-calls 100001") << QStringList{u"--max-tool-calls"_s, u"100001"_s};
        QTest::newRow("--max-response-mb 0") << QStringList{u"--max-response-mb"_s, u"0"_s};
        QTest::newRow("--max-response-mb lots") << QStringList{u"--max-response-mb"_s, u"lots"_s};
        QTest::newRow("--request-timeout-s -5") << QStringList{u"--request-timeout-s"_s, u"-5"_s};
        QTest::newRow("--time-limit-s -1") << QStringList{u"--time-limit-s"_s, u"-1"_s};
        QTest::newRow("--time-limit-s 86401") << QStringList{u"--time-limit-s"_s, u"86401"_s};
        QTest::newRow("--context-window 0") << QStringList{u"--context-window"_s, u"0"_s};
        QTest::newRow("--compact shrink") << QStringList{u"--compact"_s, u"shrink"_s};
        QTest::newRow("--compact-at 101") << QStringList{u"--compact-at"_s, u"101"_s};
    }

    // The question alone is larger than the window: it is refused before it is sent, saying so.
    void aPromptLargerThanTheContextWindowIsRefusedBeforeAnyRequest()
    {
        const qsizetype before = m_server.requests().size();
        const Run result = run(baseArguments() << u"--context-window"_s << u"100"_s << QString(2000, u'x'));
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains("context window holds 100"), result.err.constData());
        QVERIFY2(result.err.contains("--context-window"), result.err.constData());
        QCOMPARE(m_server.requests().size(), before);
    }

    // Ollama keeps its default 2,048 or 4,096 tokens unless told: the window goes as num_ctx.
    void ollamaIsSentTheContextWindowAsNumCtx()
    {
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(200, QJsonObject{{u"model"_s, u"m"_s},
                                                  {u"message"_s, QJsonObject{{u"role"_s, u"assistant"_s},
                                                                             {u"content"_s, u"Hi"_s}}},
                                                  {u"done"_s, true},
                                                  {u"done_reason"_s, u"stop"_s}});
        });
        const Run result
            = run({u"run"_s, u"--provider"_s, u"ollama"_s, u"--base-url"_s, m_server.baseUrl().toString(),
                   u"--model"_s, u"m"_s, u"--no-stream"_s, u"--context-window"_s, u"8192"_s, u"Hello"_s});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        const QJsonObject body = m_server.requests().constLast().json();
        QCOMPARE(body.value(u"options"_s).toObject().value(u"num_ctx"_s).toInteger(), 8192);
    }

    // Without --context-window the run asks Ollama (/api/show) once, and sends the model's trained
    // length capped, which is also what the request is checked against.
    void withoutAWindowOllamaIsAskedForItAndSentItCapped()
    {
        ModelInfoRoutes routes;
        routes.contextLength = 131'072;
        routes.install(m_server);
        const qsizetype showsBefore = requestsTo(m_server, "/api/show").size();
        const Run result
            = run({u"run"_s, u"--provider"_s, u"ollama"_s, u"--base-url"_s, m_server.baseUrl().toString(),
                   u"--model"_s, u"qwen2.5:7b"_s, u"--no-stream"_s, u"Hello"_s});
        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(result.out, "Hi\n"_ba);
        const QList<HttpRequestRecord> shows = requestsTo(m_server, "/api/show");
        QCOMPARE(shows.size(), showsBefore + 1);
        QCOMPARE(shows.constLast().json().value(u"model"_s).toString(), u"qwen2.5:7b"_s);
        const QJsonObject body = requestsTo(m_server, "/api/chat").constLast().json();
        QCOMPARE(body.value(u"options"_s).toObject().value(u"num_ctx"_s).toInteger(), 32'768);
    }

    void limitOptionsRefuseWhatIsNotAPositiveNumber()
    {
        QFETCH(QStringList, options);
        const Run result = run(baseArguments() << options << u"Hi"_s);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(options.first().toUtf8()), result.err.constData());
    }

    void terminalEscapesFromTheProviderArePrintedVisibly()
    {
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(
                400,
                {{u"error"_s, QJsonObject{{u"message"_s, u"\x1b]0;pwned\x07\x1b[2J\rgone \u009b31m"_s}}}});
        });

        const Run result = run(baseArguments() << u"Hi"_s);

        QCOMPARE(result.exitCode, 1);
        QVERIFY2(!result.err.contains('\x1b') && !result.err.contains('\r') && !result.err.contains('\x07')
                     && !result.err.contains("\xc2\x9b"),
                 result.err.toPercentEncoding(" :;[]()\\\n").constData());
        QVERIFY2(result.err.contains(R"(\x1b]0;pwned\x07\x1b[2J\rgone \u009b31m)"), result.err.constData());
    }

    void eventsOnAFullDiskSayWhyAndExitTwoAfterTheTurn()
    {
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(u"Hello from the model"_s));
        });

        // Every write to /dev/full fails with ENOSPC, as on a full disk.
        const Run result = run(baseArguments() << u"--events"_s << u"/dev/full"_s << u"Say hello"_s);

        QCOMPARE(result.exitCode, 2);
        QCOMPARE(result.out, "Hello from the model\n"_ba); // the turn itself finished
        const QString err = QString::fromUtf8(result.err);
        QVERIFY2(err.contains(u"cannot write the events to \"/dev/full\": No space left on device"_s),
                 result.err.constData());
        QCOMPARE(err.count(u"cannot write the events"_s), 1);
    }

    void aSessionFileCutByAFullDiskIsReportedAndLeftAsItWas_data()
    {
        QTest::addColumn<bool>("existing");
        QTest::newRow("a new session file") << false;
        QTest::newRow("an existing session file") << true;
    }

    void aSessionFileCutByAFullDiskIsReportedAndLeftAsItWas()
    {
        QFETCH(bool, existing);
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(u"Noted"_s));
        });
        const QString session = m_dir.filePath(u"full-disk.loopscope.json"_s);
        QFile::remove(session);
        QByteArray before;
        if (existing) {
            QCOMPARE(run(baseArguments() << u"--session"_s << session << u"First"_s).exitCode, 0);
            QFile file(session);
            QVERIFY(file.open(QIODevice::ReadOnly));
            before = file.readAll();
        }

        // The process may write no file larger than 16 KB (ulimit -f): the session with this
        // prompt is larger, as a nearly full disk would leave no room for it.
        HeadlessProcess process = loopscope();
        process.setFileSizeLimit(16 * 1024);
        const Run result
            = process.run(baseArguments() << u"--session"_s << session << QString(40'000, u'x'), TimeoutMs);

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("cannot save the session"), result.err.constData());
        QVERIFY2(result.err.contains(qPrintable(QString::fromLocal8Bit(std::strerror(EFBIG)))),
                 result.err.constData());
        QVERIFY2(!result.err.contains("Unknown error"), result.err.constData());
        QCOMPARE(QFile::exists(session), existing);
        if (existing) {
            QFile file(session);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), before);
        }
        QCOMPARE(QDir(m_dir.path()).entryList({u"full-disk.loopscope.json*"_s}, QDir::Files).size(),
                 existing ? 1 : 0); // no temporary file left behind
    }

    void aReadOnlySessionFileIsNotWritten()
    {
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(u"Noted"_s));
        });
        const QString session = m_dir.filePath(u"read-only.loopscope.json"_s);
        QFile::remove(session);
        QCOMPARE(run(baseArguments() << u"--session"_s << session << u"First"_s).exitCode, 0);
        const QFile::Permissions readOnly = QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther; // 444
        QVERIFY(QFile::setPermissions(session, readOnly));
        QFile file(session);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray before = file.readAll();
        file.close();

        const Run result = run(baseArguments() << u"--session"_s << session << u"Second"_s);

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("read-only"), result.err.constData());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), before);
        // The user's bits say what this process may do (root may write anything): not compared.
        const QFile::Permissions userBits = QFile::ReadUser | QFile::WriteUser | QFile::ExeUser;
        QCOMPARE(QFileInfo(session).permissions() & ~userBits, readOnly);
        QFile::setPermissions(session, readOnly | QFile::WriteOwner);
    }

    void aBrokenSessionFileIsBadUsageAndLeftAlone()
    {
        const QString session = m_dir.filePath(u"broken.loopscope.json"_s);
        QFile file(session);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"formatVersion\": 2, \"messages\": 7}");
        file.close();
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result = run(baseArguments() << u"--session"_s << session << u"Hello"_s);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("cannot continue the session"), result.err.constData());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), "{\"formatVersion\": 2, \"messages\": 7}"_ba);
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    // Writes an agents file into the test's folder and returns its path.
    QString writeAgentsFile(const QString &name, const QByteArray &bytes) const
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            return {};
        return path;
    }

    static QByteArray triageAndBilling()
    {
        return R"({"agents": [
            {"name": "triage", "instructions": "Route the question.", "model": "triage-model",
             "tools": ["calculator"], "handoffs": ["billing"], "temperature": 0.5, "top_p": 0.9},
            {"name": "billing", "instructions": "Answer invoices.", "tools": []}
        ]})"_ba;
    }

    static QStringList toolNames(const QJsonObject &request)
    {
        QStringList names;
        for (const QJsonValue &tool : request.value(u"tools"_s).toArray())
            names.append(tool[u"function"_s][u"name"_s].toString());
        return names;
    }

    void theTurnRunsAsTheAgentsFilesAgent_data()
    {
        QTest::addColumn<QStringList>("agentArguments");
        QTest::addColumn<QString>("instructions");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QStringList>("tools");
        QTest::addColumn<double>("temperature");
        QTest::addColumn<double>("topP"); // -1: not sent

        QTest::newRow("without --agent: the file's first")
            << QStringList() << u"Route the question."_s << u"triage-model"_s
            << QStringList{u"calculator"_s, u"transfer_to_billing"_s} << 0.5 << 0.9;
        QTest::newRow("--agent billing") << QStringList{u"--agent"_s, u"billing"_s} << u"Answer invoices."_s
                                         << u"m"_s << QStringList() << -1.0 << -1.0;
    }

    void theTurnRunsAsTheAgentsFilesAgent()
    {
        QFETCH(QStringList, agentArguments);
        QFETCH(QString, instructions);
        QFETCH(QString, model);
        QFETCH(QStringList, tools);
        QFETCH(double, temperature);
        QFETCH(double, topP);
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(u"Agent answer"_s));
        });
        const QString path = writeAgentsFile(u"agents.json"_s, triageAndBilling());
        QVERIFY(!path.isEmpty());

        // --tools is the session's; an agent that names its tools runs with those instead.
        const Run result = run(baseArguments() << u"--tools"_s << u"current_time"_s << u"--agents"_s << path
                                               << agentArguments << u"What do I owe?"_s);

        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "Agent answer\n"_ba);
        const QJsonObject sent = m_server.requests().constLast().json();
        const QJsonArray messages = sent.value(u"messages"_s).toArray();
        QCOMPARE(messages.first()[u"role"_s].toString(), u"system"_s);
        QCOMPARE(messages.first()[u"content"_s].toString(), instructions);
        QCOMPARE(messages.last()[u"content"_s].toString(), u"What do I owe?"_s);
        QCOMPARE(sent.value(u"model"_s).toString(), model);
        QCOMPARE(toolNames(sent), tools);
        QCOMPARE(sent.value(u"temperature"_s).toDouble(-1), temperature);
        QCOMPARE(sent.value(u"top_p"_s).toDouble(-1), topP);
    }

    void anAgentOnASavedProfileIsAskedOnThatProfilesServer()
    {
        FakeHttpServer other;
        QVERIFY(listenStreaming(other, u"From the other profile"_s));
        const auto removeSettings = saveProfile(other, u"Other"_s);
        const QString path = writeAgentsFile(
            u"provider-agents.json"_s,
            R"({"agents": [{"name": "local", "instructions": "Answer.", "provider": "Other", "tools": []}]})"_ba);
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result = run(baseArguments() << u"--agents"_s << path << u"Hello"_s);

        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "From the other profile\n"_ba);
        QCOMPARE(other.requests().size(), 1);
        QCOMPARE(other.requests().constFirst().json().value(u"model"_s).toString(), u"test-model"_s);
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void aShieldProviderThatIsNotSavedExitsTwoNamingItBeforeAnyRequest()
    {
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result = run(baseArguments() << u"--shield-model"_s << u"guard"_s << u"--shield-provider"_s
                                               << u"Nowhere"_s << u"Hello"_s);

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("--shield-provider) runs on the provider profile \"Nowhere\", which is "
                                     "not a saved profile"),
                 result.err.constData());
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void aModelShieldOnASavedProfileIsAskedOnThatProfilesServer()
    {
        FakeHttpServer guardServer;
        QVERIFY(listenStreaming(guardServer, u"unsafe\nS2"_s));
        const auto removeSettings = saveProfile(guardServer, u"Guard"_s);
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result
            = run(baseArguments() << u"--shield-model"_s << u"llama-guard3:1b"_s << u"--shield-provider"_s
                                  << u"Guard"_s << u"How do I pick a lock?"_s);

        QCOMPARE(result.exitCode, 4);
        QVERIFY2(result.err.contains("S2 (Non-Violent Crimes)"), result.err.constData());
        // Judged on the guard's profile; the run's provider was never asked.
        QCOMPARE(guardServer.requests().size(), 1);
        QCOMPARE(guardServer.requests().constFirst().json().value(u"model"_s).toString(),
                 u"llama-guard3:1b"_s);
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void aHandoffContinuesOrEndsTheTurnAsTheOptionSays_data()
    {
        QTest::addColumn<QStringList>("handoffArguments");
        QTest::addColumn<int>("requests");
        QTest::addColumn<QString>("answeredBy");
        QTest::addColumn<QString>("outcome");

        QTest::newRow("by default the turn continues as billing")
            << QStringList() << 2 << u"billing"_s << u"answered"_s;
        QTest::newRow("--on-handoff end ends it handed off")
            << QStringList{u"--on-handoff"_s, u"end"_s} << 1 << u"triage"_s << u"handed_off"_s;
        QTest::newRow("--max-handoffs 0 ends it at the first handoff")
            << QStringList{u"--max-handoffs"_s, u"0"_s} << 1 << u"triage"_s << u"handed_off"_s;
    }

    void aHandoffContinuesOrEndsTheTurnAsTheOptionSays()
    {
        QFETCH(QStringList, handoffArguments);
        QFETCH(int, requests);
        QFETCH(QString, answeredBy);
        QFETCH(QString, outcome);
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QString system = request.json().value(u"messages"_s)[0][u"content"_s].toString();
            if (system == u"Route the question.")
                stream(exchange, toolCallStream(u"transfer_to_billing"_s, u"{\"reason\":\"an invoice\"}"_s));
            else
                stream(exchange, textStream(u"Billing answer"_s));
        });
        const QString path = writeAgentsFile(u"agents.json"_s, triageAndBilling());
        const QString eventsPath = m_dir.filePath(u"handoff-events.jsonl"_s);
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result = run(baseArguments() << u"--agents"_s << path << u"--events"_s << eventsPath
                                               << handoffArguments << u"What do I owe?"_s);

        QCOMPARE(result.exitCode, 0);
        QCOMPARE(m_server.requests().size() - requestsBefore, requests);
        QFile eventsFile(eventsPath);
        QVERIFY(eventsFile.open(QIODevice::ReadOnly));
        const QList<QJsonObject> events = readJsonLines(eventsFile.readAll());
        for (const QJsonObject &event : events)
            QVERIFY2(!event.value(u"agent"_s).toString().isEmpty(),
                     qPrintable(event.value(u"event"_s).toString()));
        QCOMPARE(events.constFirst().value(u"agent"_s).toString(), u"triage"_s);
        QCOMPARE(events.constLast().value(u"event"_s).toString(), u"finished"_s);
        QCOMPARE(events.constLast().value(u"agent"_s).toString(), answeredBy);
        QCOMPARE(events.constLast().value(u"outcome"_s).toString(), outcome);
        if (requests == 2) {
            QCOMPARE(result.out, "Billing answer\n"_ba);
            const QJsonObject next = m_server.requests().constLast().json();
            QCOMPARE(next.value(u"messages"_s)[0][u"content"_s].toString(), u"Answer invoices."_s);
            QCOMPARE(toolNames(next), QStringList());
        }
    }

    void aSubAgentsEventsComeLiveBeforeTheToolResultWithItsAnswer()
    {
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            const QString system = messages.first()[u"content"_s].toString();
            if (system == u"Research.")
                stream(exchange, textStream(u"Researcher answer"_s));
            else if (messages.last()[u"role"_s].toString() != u"tool")
                stream(exchange, toolCallStream(u"ask_researcher"_s, u"{\"task\":\"Find it.\"}"_s));
            else
                stream(exchange, textStream(u"Lead answer"_s));
        });
        const QString path = writeAgentsFile(u"subagents.json"_s, R"({"agents": [
            {"name": "lead", "instructions": "Lead.", "tools": [], "subagents": ["researcher"]},
            {"name": "researcher", "instructions": "Research.", "tools": []}
        ]})"_ba);
        const QString eventsPath = m_dir.filePath(u"subagent-events.jsonl"_s);

        const Run result = run(baseArguments() << u"--agents"_s << path << u"--events"_s << eventsPath
                                               << u"Find it for me."_s);

        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "Lead answer\n"_ba);
        QFile eventsFile(eventsPath);
        QVERIFY(eventsFile.open(QIODevice::ReadOnly));
        const QList<QJsonObject> events = readJsonLines(eventsFile.readAll());
        qsizetype lastNested = -1;
        qsizetype firstNested = -1;
        qsizetype answerResult = -1;
        for (qsizetype i = 0; i < events.size(); ++i) {
            const QJsonObject &event = events.at(i);
            if (event.value(u"agent"_s).toString() == u"researcher") {
                QCOMPARE(event.value(u"depth"_s).toInt(), 1);
                firstNested = firstNested < 0 ? i : firstNested;
                lastNested = i;
            } else if (event.value(u"event"_s).toString() == u"tool_result") {
                QCOMPARE(event.value(u"agent"_s).toString(), u"lead"_s);
                QCOMPARE(event.value(u"text"_s).toString(), u"Researcher answer"_s);
                answerResult = i;
            }
        }
        QVERIFY(firstNested > 0);
        QCOMPARE(events.at(firstNested).value(u"event"_s).toString(), u"turn_started"_s);
        QCOMPARE(events.at(lastNested).value(u"event"_s).toString(), u"finished"_s);
        QVERIFY(answerResult > lastNested);
        QCOMPARE(events.constLast().value(u"agent"_s).toString(), u"lead"_s);
    }

    void aBadHandoffOptionExitsTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("stderrPart");
        QTest::newRow("--on-handoff stop") << QStringList{u"--on-handoff"_s, u"stop"_s} << "--on-handoff"_ba;
        QTest::newRow("--handoff-history some")
            << QStringList{u"--handoff-history"_s, u"some"_s} << "--handoff-history"_ba;
        QTest::newRow("--max-handoffs -1")
            << QStringList{u"--max-handoffs"_s, u"-1"_s} << "--max-handoffs"_ba;
    }

    void aBadHandoffOptionExitsTwo()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, stderrPart);
        const Run result = run(baseArguments() << arguments << u"hi"_s);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(stderrPart), result.err.constData());
    }

    void aBadAgentsFileExitsTwoNamingTheProblemBeforeAnyRequest_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QStringList>("extraArguments");
        QTest::addColumn<QString>("stderrPart");

        const QByteArray good = triageAndBilling();
        QTest::newRow("a handoff to an unknown agent")
            << R"({"agents": [{"name": "triage", "instructions": "i", "handoffs": ["billing"]}]})"_ba
            << QStringList() << u"agent \"triage\" hands off to \"billing\", which is not an agent"_s;
        QTest::newRow("an unknown sub-agent")
            << R"({"agents": [{"name": "triage", "instructions": "i", "subagents": ["research"]}]})"_ba
            << QStringList() << u"the sub-agent \"research\""_s;
        QTest::newRow("duplicate names")
            << R"({"agents": [{"name": "a", "instructions": "i"}, {"name": "a", "instructions": "j"}]})"_ba
            << QStringList() << u"two agents are named \"a\""_s;
        QTest::newRow("a sub-agent cycle")
            << R"({"agents": [{"name": "a", "instructions": "i", "subagents": ["b"]},
                              {"name": "b", "instructions": "j", "subagents": ["a"]}]})"_ba
            << QStringList() << u"cycle: a → b → a"_s;
        QTest::newRow("not JSON") << "{\"agents\""_ba << QStringList() << u"not JSON"_s;
        QTest::newRow("an agent the file does not have")
            << good << QStringList{u"--agent"_s, u"sales"_s} << u"there is no agent \"sales\""_s;
        QTest::newRow("a tool that is not built in")
            << R"({"agents": [{"name": "a", "instructions": "i", "tools": ["rm"]}]})"_ba << QStringList()
            << u"agent \"a\" has the tool \"rm\""_s;
        QTest::newRow("an MCP server when the run has none")
            << R"({"agents": [{"name": "a", "instructions": "i", "tools": ["mcp:files"]}]})"_ba
            << QStringList{u"--no-mcp"_s}
            << u"agent \"a\" has every tool of the MCP server \"files\", and this run has no MCP server"_s;
        QTest::newRow("an MCP server the run does not have")
            << R"({"agents": [{"name": "a", "instructions": "i"},
                              {"name": "b", "instructions": "j", "tools": ["calculator", "mcp:files"]}]})"_ba
            << QStringList{u"--mcp-url"_s, u"http://127.0.0.1:9/mcp"_s}
            << u"agent \"b\" has every tool of the MCP server \"files\", which is not one of this run's MCP "
               u"servers (127.0.0.1:9)"_s;
        QTest::newRow("an MCP server entry without a server")
            << R"({"agents": [{"name": "a", "instructions": "i", "tools": ["mcp:"]}]})"_ba << QStringList()
            << u"agents[0].tools[0] must name an MCP server after \"mcp:\""_s;
        QTest::newRow("--system beside --agents")
            << good << QStringList{u"--system"_s, u"Be brief."_s} << u"either --system or --agents"_s;
        QTest::newRow("a provider profile that is not saved")
            << R"({"agents": [{"name": "a", "instructions": "i", "provider": "Nowhere"}]})"_ba
            << QStringList()
            << u"agent \"a\" runs on the provider profile \"Nowhere\", which is not a saved profile"_s;
        QTest::newRow("a model shield on a provider profile that is not saved")
            << R"({"agents": [{"name": "a", "instructions": "i", "shields": {"model": {"provider": "Nowhere"}}}]})"_ba
            << QStringList()
            << u"the model shield of agent \"a\" runs on the provider profile \"Nowhere\", which is not a "
               u"saved "
               "profile"_s;
        QTest::newRow("a knowledge base the library does not have")
            << R"({"agents": [{"name": "a", "instructions": "i", "knowledge": ["nowhere-kb-of-agents"]}]})"_ba
            << QStringList()
            << u"agent \"a\" searches the knowledge base \"nowhere-kb-of-agents\": there is no knowledge base named"_s;
        QTest::newRow("a model shield on tool calls")
            << R"({"agents": [{"name": "a", "instructions": "i", "shields": {"model": {"stages": ["tool_call"]}}}]})"_ba
            << QStringList() << u"agents[0].shields.model.stages names the stage \"tool_call\""_s;
        QTest::newRow("a shield rule that does not compile")
            << "{\"agents\": [{\"name\": \"a\", \"instructions\": \"i\", \"shields\": {\"rules\": "
               "[{\"pattern\": \"[a-\", "
               "\"kind\": \"regex\"}]}}]}"_ba
            << QStringList() << u"agents[0].shields.rules[0].pattern: Invalid regular expression"_s;
    }

    void aModelShieldBlocksTheRunBeforeTheModelIsAsked_data()
    {
        QTest::addColumn<bool>("fromAgentsFile");
        QTest::newRow("--shield-model") << false;
        QTest::newRow("the agent's shields in the agents file") << true;
    }

    void aModelShieldBlocksTheRunBeforeTheModelIsAsked()
    {
        QFETCH(bool, fromAgentsFile);
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            const bool guard = messages.last()
                                   .toObject()
                                   .value(u"content"_s)
                                   .toString()
                                   .contains(u"<BEGIN CONVERSATION>"_s);
            stream(exchange, textStream(guard ? u"unsafe\nS2"_s : u"Here is how."_s));
        });
        QStringList arguments = baseArguments();
        if (fromAgentsFile) {
            const QString path = writeAgentsFile(
                u"shielded.json"_s,
                R"({"agents": [{"name": "careful", "instructions": "Help.", "shields": {"model": {"model": "guard", "stages": ["input"]}}}]})"_ba);
            arguments << u"--agents"_s << path;
        } else {
            arguments << u"--shield-model"_s << u"guard"_s;
        }
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result = run(arguments << u"How do I pick a lock?"_s);

        QCOMPARE(result.exitCode, 4);
        QVERIFY2(result.err.contains("S2 (Non-Violent Crimes)"), result.err.constData());
        QVERIFY(result.out.isEmpty());
        // Only the guard was asked, with its own model.
        QCOMPARE(m_server.requests().size(), requestsBefore + 1);
        QCOMPARE(m_server.requests().constLast().json().value(u"model"_s).toString(), u"guard"_s);
    }

    void aBadAgentsFileExitsTwoNamingTheProblemBeforeAnyRequest()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QStringList, extraArguments);
        QFETCH(QString, stderrPart);
        const QString path = writeAgentsFile(u"bad-agents.json"_s, bytes);
        QVERIFY(!path.isEmpty());
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result = run(baseArguments() << u"--agents"_s << path << extraArguments << u"Hello"_s);

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(QString::fromUtf8(result.err).contains(stderrPart), result.err.constData());
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void attachedFilesGoWithThePromptImagesByteForByte()
    {
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(u"A cyan square and a note"_s));
        });
        QImage image(32, 24, QImage::Format_RGB32);
        image.fill(Qt::cyan);
        const QString imagePath = m_dir.filePath(u"square.png"_s);
        QVERIFY(image.save(imagePath, "png"));
        QFile imageFile(imagePath);
        QVERIFY(imageFile.open(QIODevice::ReadOnly));
        const QByteArray png = imageFile.readAll();
        const QString notePath = m_dir.filePath(u"note.md"_s);
        QFile note(notePath);
        QVERIFY(note.open(QIODevice::WriteOnly));
        note.write("# Note\nThe square is cyan.\n");
        note.close();

        const Run result = run(baseArguments() << u"--attach"_s << imagePath << u"--attach"_s << notePath
                                               << u"What is attached?"_s);

        QCOMPARE(result.exitCode, 0);
        const QJsonArray parts = m_server.requests().constLast().lastMessageParts();
        QCOMPARE(parts.size(), 3);
        const QString url
            = parts.at(0).toObject().value(u"image_url"_s).toObject().value(u"url"_s).toString();
        QVERIFY(url.startsWith(u"data:image/png;base64,"_s));
        QCOMPARE(QByteArray::fromBase64(url.mid(url.indexOf(u',') + 1).toLatin1()), png);
        const QString noteText = parts.at(1).toObject().value(u"text"_s).toString();
        QVERIFY2(noteText.contains(u"note.md"_s) && noteText.contains(u"The square is cyan."_s),
                 qPrintable(noteText));
        QCOMPARE(parts.at(2).toObject().value(u"text"_s).toString(), u"What is attached?"_s);
    }

    void aFileThatCannotBeAttachedExitsTwoWithTheLoadersMessageBeforeAnyRequest_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("stderrPart");
        QTest::newRow("a missing file") << u"missing.png"_s << QByteArray() << u"the file does not exist"_s;
        QTest::newRow("a corrupt image")
            << u"broken.png"_s << QByteArray("\x89PNG\r\n\x1a\nnot really", 18) << u"corrupt"_s;
        QTest::newRow("a binary file") << u"program.bin"_s
                                       << QByteArray("\x7f"
                                                     "ELF\x02\x01\x01\0\0\0",
                                                     10)
                                       << u"not an image"_s;
    }

    void aFileThatCannotBeAttachedExitsTwoWithTheLoadersMessageBeforeAnyRequest()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        QFETCH(QString, stderrPart);
        const QString path = m_dir.filePath(name);
        if (!bytes.isEmpty()) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(bytes);
        }
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result = run(baseArguments() << u"--attach"_s << path << u"Look"_s);

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(QString::fromUtf8(result.err).contains(stderrPart), result.err.constData());
        QVERIFY2(QString::fromUtf8(result.err).contains(name), result.err.constData());
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void anImageForATextOnlyModelExitsTwoUnlessSentAnyway()
    {
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(u"I cannot see it"_s));
        });
        QImage image(8, 8, QImage::Format_RGB32);
        image.fill(Qt::red);
        const QString imagePath = m_dir.filePath(u"red.png"_s);
        QVERIFY(image.save(imagePath, "png"));
        QStringList arguments = baseArguments();
        arguments[arguments.indexOf(u"m"_s)] = u"gpt-3.5-turbo"_s;
        const qsizetype requestsBefore = m_server.requests().size();

        const Run refused = run(QStringList(arguments) << u"--attach"_s << imagePath << u"Look"_s);

        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("gpt-3.5-turbo") && refused.err.contains("--send-images-anyway"),
                 refused.err.constData());
        QCOMPARE(m_server.requests().size(), requestsBefore);

        const Run sent = run(QStringList(arguments)
                             << u"--attach"_s << imagePath << u"--send-images-anyway"_s << u"Look"_s);
        QCOMPARE(sent.exitCode, 0);
        QCOMPARE(m_server.requests().size(), requestsBefore + 1);
        QVERIFY(m_server.requests().constLast().body.contains("image_url"));
    }

    void theModelSearchesAnAttachedKnowledgeBaseAndReadsTheHitsInTheNextRequest()
    {
        const QString dataHome = m_dir.filePath(u"knowledge-data"_s);
        const QString docs = m_dir.filePath(u"knowledge-docs"_s);
        QVERIFY(QDir().mkpath(docs));
        QFile handbook(docs + u"/handbook.md"_s);
        QVERIFY(handbook.open(QIODevice::WriteOnly));
        handbook.write("# Refunds\n\nRefunds above 500 euros\nare approved by the finance lead.\n");
        handbook.close();
        QFile canteen(docs + u"/canteen.md"_s);
        QVERIFY(canteen.open(QIODevice::WriteOnly));
        canteen.write("# Canteen\n\nLunch is served at noon.\n");
        canteen.close();
        const Run added
            = loopscopeWithData(dataHome).run({u"knowledge"_s, u"add"_s, u"docs"_s, docs}, TimeoutMs);
        QCOMPARE(added.exitCode, 0);

        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            if (messages.last().toObject().value(u"role"_s).toString() == u"user")
                stream(exchange,
                       toolCallStream(u"knowledge_search"_s, u"{\"query\":\"who approves refunds?\"}"_s));
            else
                stream(exchange, textStream(u"The finance lead."_s));
        });
        const qsizetype requestsBefore = m_server.requests().size();

        // No --tools, and no --approve: the search only reads.
        const Run result = loopscopeWithData(dataHome).run(
            baseArguments() << u"--knowledge"_s << u"docs"_s << u"Who approves refunds?"_s, TimeoutMs);

        QCOMPARE(result.exitCode, 0);
        QCOMPARE(result.out, "The finance lead.\n"_ba);
        QCOMPARE(m_server.requests().size(), requestsBefore + 2);
        const QJsonArray offered = m_server.requests().at(requestsBefore).json().value(u"tools"_s).toArray();
        QCOMPARE(offered.size(), 1);
        QCOMPARE(offered.first().toObject().value(u"function"_s).toObject().value(u"name"_s).toString(),
                 u"knowledge_search"_s);
        const QJsonArray messages = m_server.requests().constLast().json().value(u"messages"_s).toArray();
        const QJsonObject toolMessage = messages.last().toObject();
        QCOMPARE(toolMessage.value(u"role"_s).toString(), u"tool"_s);
        const QString seen = toolMessage.value(u"content"_s).toString();
        QVERIFY2(seen.contains(QFileInfo(handbook).absoluteFilePath()), qPrintable(seen));
        QVERIFY2(seen.contains(u"approved by the finance lead"_s), qPrintable(seen));
        QVERIFY2(seen.contains(u"lines 1-4"_s), qPrintable(seen));
        QVERIFY2(!seen.contains(u"Lunch"_s), qPrintable(seen));
    }

    void aBaseWithEmbeddingsFindsAPassageByMeaningAndTheTraceSaysWithWhichModel()
    {
        const QString dataHome = m_dir.filePath(u"embedded-data"_s);
        const QString docs = m_dir.filePath(u"embedded-docs"_s);
        QVERIFY(Testing::writeFile(docs + u"/garage.md"_s, "# Garage\n\nThe automobile needs new tyres.\n"));
        QVERIFY(Testing::writeFile(docs + u"/canteen.md"_s, "# Canteen\n\nLunch is served at noon.\n"));
        // One server for both: the chat and, under /v1/embeddings, vectors that carry meaning.
        const FakeHttpServer::Handler embeddings
            = Testing::embeddingsHandler(ProviderKind::OpenAi, Testing::conceptVector);
        m_server.setHandler([&embeddings](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (request.path.endsWith("/embeddings"))
                return embeddings(request, exchange);
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            if (messages.last().toObject().value(u"role"_s).toString() == u"user")
                stream(exchange, toolCallStream(u"knowledge_search"_s, u"{\"query\":\"my car\"}"_s));
            else
                stream(exchange, textStream(u"New tyres."_s));
        });
        const Run added = loopscopeWithData(dataHome).run(
            {u"knowledge"_s, u"add"_s, u"cars"_s, docs, u"--embedding-model"_s, u"concepts"_s,
             u"--base-url"_s, m_server.baseUrl().toString() + u"/v1"_s, u"--api-key-env"_s,
             u"LOOPSCOPE_TEST_KEY"_s},
            TimeoutMs);
        QVERIFY2(added.exitCode == 0, added.err.constData());
        QVERIFY2(added.out.contains("passages embedded 2"), added.out.constData());
        const qsizetype requestsBefore = m_server.requests().size();

        const QString tracePath = m_dir.filePath(u"embedded-trace.json"_s);
        const Run result = loopscopeWithData(dataHome).run(baseArguments() << u"--knowledge"_s << u"cars"_s
                                                                           << u"--trace-out"_s << tracePath
                                                                           << u"What does my car need?"_s,
                                                           TimeoutMs);

        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(result.out, "New tyres.\n"_ba);
        // A chat request, the question's embedding, the chat request with the hits.
        QCOMPARE(m_server.requests().size(), requestsBefore + 3);
        const QJsonArray messages = m_server.requests().constLast().json().value(u"messages"_s).toArray();
        const QString seen = messages.last().toObject().value(u"content"_s).toString();
        // "car" is in no document: the garage is found by meaning.
        QVERIFY2(seen.contains(u"garage.md"_s), qPrintable(seen));
        QFile trace(tracePath);
        QVERIFY(trace.open(QIODevice::ReadOnly));
        const QByteArray traceJson = trace.readAll();
        QVERIFY(traceJson.contains("\"embeddingModel\": \"concepts\""));
        QVERIFY(traceJson.contains("\"cosine\""));
        QVERIFY(!traceJson.contains(apiKey.toUtf8()));
    }

    void retrieveAutoPutsThePassagesIntoTheFirstRequestAndTheTraceShowsTheRetrieval()
    {
        const QString dataHome = m_dir.filePath(u"auto-data"_s);
        const QString docs = m_dir.filePath(u"auto-docs"_s);
        QVERIFY(
            Testing::writeFile(docs + u"/handbook.md"_s,
                               "# Refunds\n\nRefunds above 500 euros\nare approved by the finance lead.\n"));
        QVERIFY(Testing::writeFile(docs + u"/canteen.md"_s, "# Canteen\n\nLunch is served at noon.\n"));
        const Run added
            = loopscopeWithData(dataHome).run({u"knowledge"_s, u"add"_s, u"docs"_s, docs}, TimeoutMs);
        QCOMPARE(added.exitCode, 0);
        // The model answers at once: what it knows, it read in the request.
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(u"The finance lead."_s));
        });
        const qsizetype requestsBefore = m_server.requests().size();
        const QString tracePath = m_dir.filePath(u"auto-trace.json"_s);
        const QString sessionPath = m_dir.filePath(u"auto.loopscope.json"_s);

        const Run result = loopscopeWithData(dataHome).run(
            baseArguments() << u"--knowledge"_s << u"docs"_s << u"--retrieve"_s << u"auto"_s
                            << u"--trace-out"_s << tracePath << u"--session"_s << sessionPath
                            << u"Who approves refunds?"_s,
            TimeoutMs);

        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(result.out, "The finance lead.\n"_ba);
        QCOMPARE(m_server.requests().size(), requestsBefore + 1);
        const QJsonObject request = m_server.requests().at(requestsBefore).json();
        const QJsonObject system = request.value(u"messages"_s).toArray().first().toObject();
        QCOMPARE(system.value(u"role"_s).toString(), u"system"_s);
        const QString seen = system.value(u"content"_s).toString();
        QVERIFY2(seen.contains(u"Passages from your knowledge bases"_s), qPrintable(seen));
        QVERIFY2(seen.contains(docs + u"/handbook.md"_s), qPrintable(seen));
        QVERIFY2(seen.contains(u"approved by the finance lead"_s), qPrintable(seen));
        QVERIFY2(!seen.contains(u"Lunch"_s), qPrintable(seen));
        // The tool stays offered, to search further.
        const QJsonArray offered = request.value(u"tools"_s).toArray();
        QCOMPARE(offered.size(), 1);
        QCOMPARE(offered.first().toObject().value(u"function"_s).toObject().value(u"name"_s).toString(),
                 u"knowledge_search"_s);

        QFile trace(tracePath);
        QVERIFY(trace.open(QIODevice::ReadOnly));
        const QJsonObject turn = QJsonDocument::fromJson(trace.readAll()).array().first().toObject();
        QCOMPARE(turn.value(u"kind"_s).toString(), u"turn"_s);
        const QJsonObject retrieval = turn.value(u"children"_s).toArray().first().toObject();
        QCOMPARE(retrieval.value(u"kind"_s).toString(), u"retrieval"_s);
        const QJsonObject data = retrieval.value(u"data"_s).toObject();
        QCOMPARE(data.value(u"query"_s).toString(), u"Who approves refunds?"_s);
        const QJsonArray hits = data.value(u"hits"_s).toArray();
        QCOMPARE(hits.size(), 1);
        QVERIFY(hits.first().toObject().value(u"path"_s).toString().endsWith(u"handbook.md"_s));

        // A replay sends the passages the turn found, without searching again.
        const Run replayed = loopscopeWithData(dataHome).run({u"replay"_s, sessionPath}, TimeoutMs);
        QVERIFY2(replayed.exitCode == 0, QByteArray(replayed.out + replayed.err).constData());
        QCOMPARE(m_server.requests().size(), requestsBefore + 1);
    }

    void retrieveAutoSearchesTheBasesOfTheAgentTheTurnStartsAs_data()
    {
        QTest::addColumn<QByteArray>("agentKnowledge"); // the agent's "knowledge" member, if any
        QTest::addColumn<QStringList>("sessionKnowledge");
        QTest::addColumn<QStringList>("searched"); // empty: no retrieval at all
        QTest::newRow("the agent's own base, not the session's")
            << R"(, "knowledge": ["handbook"])"_ba << QStringList{u"canteen"_s} << QStringList{u"handbook"_s};
        QTest::newRow("the agent's own base without --knowledge")
            << R"(, "knowledge": ["handbook"])"_ba << QStringList() << QStringList{u"handbook"_s};
        QTest::newRow("the session's when the agent names none")
            << QByteArray() << QStringList{u"canteen"_s} << QStringList{u"canteen"_s};
        QTest::newRow("none when the agent's list is empty")
            << R"(, "knowledge": [])"_ba << QStringList{u"canteen"_s} << QStringList();
    }

    void retrieveAutoSearchesTheBasesOfTheAgentTheTurnStartsAs()
    {
        QFETCH(QByteArray, agentKnowledge);
        QFETCH(QStringList, sessionKnowledge);
        QFETCH(QStringList, searched);
        const QString dataHome = m_dir.filePath(u"agent-auto-data"_s);
        const QString handbook = m_dir.filePath(u"agent-auto-handbook"_s);
        const QString canteen = m_dir.filePath(u"agent-auto-canteen"_s);
        QVERIFY(Testing::writeFile(handbook + u"/handbook.md"_s,
                                   "# Refunds\n\nRefunds are approved by the finance lead.\n"));
        QVERIFY(Testing::writeFile(canteen + u"/canteen.md"_s, "# Canteen\n\nRefunds of lunch at noon.\n"));
        for (const auto &[name, folder] :
             {std::pair{u"handbook"_s, handbook}, std::pair{u"canteen"_s, canteen}}) {
            loopscopeWithData(dataHome).run({u"knowledge"_s, u"remove"_s, name}, TimeoutMs);
            const Run added
                = loopscopeWithData(dataHome).run({u"knowledge"_s, u"add"_s, name, folder}, TimeoutMs);
            QVERIFY2(added.exitCode == 0, added.err.constData());
        }
        const QString agents = writeAgentsFile(
            u"agent-auto.json"_s, R"({"agents": [{"name": "clerk", "instructions": "Answer.", "tools": [])"_ba
                                      + agentKnowledge + "}]}");
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(u"The finance lead."_s));
        });
        const qsizetype requestsBefore = m_server.requests().size();
        const QString tracePath = m_dir.filePath(u"agent-auto-trace.json"_s);
        QStringList arguments = baseArguments() << u"--agents"_s << agents << u"--retrieve"_s << u"auto"_s
                                                << u"--trace-out"_s << tracePath;
        for (const QString &name : sessionKnowledge)
            arguments << u"--knowledge"_s << name;

        const Run result
            = loopscopeWithData(dataHome).run(arguments << u"Who approves refunds?"_s, TimeoutMs);

        QVERIFY2(result.exitCode == 0, result.err.constData());
        QCOMPARE(m_server.requests().size(), requestsBefore + 1);
        const QJsonObject system
            = m_server.requests().at(requestsBefore).json().value(u"messages"_s).toArray().first().toObject();
        const QString seen = system.value(u"content"_s).toString();
        QCOMPARE(seen.contains(u"finance lead"_s), searched.contains(u"handbook"_s));
        QCOMPARE(seen.contains(u"lunch"_s), searched.contains(u"canteen"_s));
        QFile trace(tracePath);
        QVERIFY(trace.open(QIODevice::ReadOnly));
        const QJsonObject turn = QJsonDocument::fromJson(trace.readAll()).array().first().toObject();
        QStringList retrievedFrom;
        for (const QJsonValue &child : turn.value(u"children"_s).toArray()) {
            if (child.toObject().value(u"kind"_s).toString() != u"retrieval")
                continue;
            // The Retrieval node says which bases were searched.
            for (const QJsonValue &base :
                 child.toObject().value(u"data"_s).toObject().value(u"bases"_s).toArray())
                retrievedFrom.append(base.toString());
        }
        QCOMPARE(retrievedFrom, searched);
    }

    void retrieveTakesToolOrAutoAndAutoNeedsAKnowledgeBase_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("error");
        QTest::newRow("unknown mode")
            << QStringList{u"--retrieve"_s, u"always"_s} << "--retrieve takes tool or auto"_ba;
        QTest::newRow("auto without a base")
            << QStringList{u"--retrieve"_s, u"auto"_s} << "--retrieve auto needs a knowledge base"_ba;
    }

    void retrieveTakesToolOrAutoAndAutoNeedsAKnowledgeBase()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, error);
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result = loopscope().run(baseArguments() << arguments << u"Hello"_s, TimeoutMs);

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(error), result.err.constData());
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void anUnknownKnowledgeBaseExitsTwoBeforeAnyRequest()
    {
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result
            = loopscopeWithData(m_dir.filePath(u"no-knowledge"_s))
                  .run(baseArguments() << u"--knowledge"_s << u"nowhere"_s << u"Hello"_s, TimeoutMs);

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("no knowledge base named \"nowhere\""), result.err.constData());
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void anAgentWithoutAnAgentsFileIsBadUsage()
    {
        const Run result = run(baseArguments() << u"--agent"_s << u"billing"_s << u"Hello"_s);

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains("--agent needs --agents"), result.err.constData());
    }

    void exportWritesEachFormat_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("Markdown") << u"md"_s << "Exported question"_ba;
        QTest::newRow("standalone HTML") << u"html"_s << "<html"_ba;
        QTest::newRow("OpenTelemetry spans") << u"otlp"_s << "invoke_agent"_ba;
    }

    void exportWritesEachFormat()
    {
        QFETCH(QString, format);
        QFETCH(QByteArray, expected);
        m_server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            stream(exchange, textStream(u"Exported answer"_s));
        });
        const QString session = m_dir.filePath(u"export-%1.loopscope.json"_s.arg(format));
        QFile::remove(session);
        QCOMPARE(run(baseArguments() << u"--session"_s << session << u"Exported question"_s).exitCode, 0);

        const Run toStdout = run({u"export"_s, session, u"--format"_s, format});
        QCOMPARE(toStdout.exitCode, 0);
        QVERIFY2(toStdout.out.contains(expected), toStdout.out.left(400).constData());
        QVERIFY(!toStdout.out.contains(apiKey.toUtf8()));

        const QString out = m_dir.filePath(u"exported."_s + format);
        QCOMPARE(run({u"export"_s, session, u"--format"_s, format, u"--output"_s, out}).exitCode, 0);
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), toStdout.out);
    }

    void exportRefusesBadUsage_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("an unknown format")
            << QStringList{u"export"_s, u"x.loopscope.json"_s, u"--format"_s, u"pdf"_s};
        QTest::newRow("no file") << QStringList{u"export"_s, u"--format"_s, u"md"_s};
        QTest::newRow("a missing file")
            << QStringList{u"export"_s, u"/nonexistent/x.loopscope.json"_s, u"--format"_s, u"md"_s};
    }

    void exportRefusesBadUsage()
    {
        QFETCH(QStringList, arguments);
        const Run result = run(arguments);
        QCOMPARE(result.exitCode, 2);
        QVERIFY(!result.err.isEmpty());
    }

    void helpDocumentsOptionsAndExitCodes()
    {
        const Run result = run({u"run"_s, u"--help"_s});

        QCOMPARE(result.exitCode, 0);
        const QString help = QString::fromUtf8(result.out);
        for (const QString &option :
             {u"--provider"_s, u"--base-url"_s, u"--model"_s, u"--api-key-env"_s, u"--max-iterations"_s,
              u"--post-loop"_s, u"--no-stream"_s, u"--tools"_s, u"--workspace"_s, u"--approve"_s,
              u"--approve-tools"_s, u"--fetch-private"_s, u"--events"_s, u"--trace-out"_s, u"--agents"_s,
              u"--agent"_s, u"130"_s, u"Exit codes"_s})
            QVERIFY2(help.contains(option), qPrintable(option));
    }
};

QTEST_GUILESS_MAIN(RunCommandTest)
#include "tst_runcommand.moc"
