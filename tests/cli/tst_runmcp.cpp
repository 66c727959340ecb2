// `loopscope run` and `loopscope mcp list|call` with MCP servers, end to end: the
// real executable, server-everything over stdio (the mcp_servers fixture) and
// a scripted OpenAI-compatible model over real HTTP on 127.0.0.1. No server
// process may outlive the run, also after SIGINT.

#include "tests/mcp/mcptestservers.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/headlessprocess.h"
#include "tests/support/openaicompletion.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <optional>
#include <sys/types.h>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString apiKey = u"sk-cli-mcp-0123456789"_s;

QJsonObject toolCallCompletion(const QString &name, const QJsonObject &arguments)
{
    const QJsonObject call{
        {u"id"_s, u"call_1"_s},
        {u"type"_s, u"function"_s},
        {u"function"_s, QJsonObject{{u"name"_s, name},
                                    {u"arguments"_s, QString::fromUtf8(QJsonDocument(arguments).toJson(
                                                         QJsonDocument::Compact))}}}};
    return {{u"id"_s, u"chatcmpl-1"_s},
            {u"object"_s, u"chat.completion"_s},
            {u"model"_s, u"m"_s},
            {u"choices"_s,
             QJsonArray{QJsonObject{{u"index"_s, 0},
                                    {u"message"_s, QJsonObject{{u"role"_s, u"assistant"_s},
                                                               {u"content"_s, QJsonValue::Null},
                                                               {u"tool_calls"_s, QJsonArray{call}}}},
                                    {u"finish_reason"_s, u"tool_calls"_s}}}},
            {u"usage"_s, QJsonObject{{u"prompt_tokens"_s, 10}, {u"completion_tokens"_s, 5}}}};
}

// The last message of a request: the model's next turn is decided by it.
QJsonObject lastMessage(const HttpRequestRecord &request)
{
    return request.json().value(u"messages"_s).toArray().last().toObject();
}

// Gone, or a zombie waiting for its new parent to reap it: the server has ended either way.
bool processEnded(qint64 pid)
{
    if (::kill(pid_t(pid), 0) != 0)
        return errno == ESRCH;
    QFile stat(u"/proc/%1/stat"_s.arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return true;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close >= 0 && line.mid(close + 2, 1) == "Z";
}

} // namespace

class RunMcpTest : public QObject
{
    Q_OBJECT

private:
    FakeHttpServer m_server;
    QTemporaryDir m_dir;

    using Run = HeadlessProcess::Result;

    QStringList runArguments() const
    {
        return {u"run"_s,
                u"--provider"_s,
                u"openai"_s,
                u"--base-url"_s,
                m_server.baseUrl().toString() + u"/v1"_s,
                u"--model"_s,
                u"m"_s,
                u"--api-key-env"_s,
                u"LOOPSCOPE_TEST_KEY"_s,
                u"--no-stream"_s};
    }

    // A config file with server-everything started through sh, which writes its pid to \a pidFile first.
    QString writeConfig(const QString &fileName, const QString &pidFile, bool withBroken = false) const
    {
        const QString script = u"echo $$ > '%1'; exec '%2' '%3'"_s.arg(pidFile, McpTestServers::nodeProgram(),
                                                                       McpTestServers::everythingScript());
        QJsonObject servers{{u"everything"_s,
                             QJsonObject{{u"command"_s, u"sh"_s}, {u"args"_s, QJsonArray{u"-c"_s, script}}}}};
        if (withBroken)
            servers.insert(u"broken"_s, QJsonObject{{u"command"_s, u"/nonexistent/loopscope-mcp-server"_s}});
        const QString path = m_dir.filePath(fileName);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(QJsonDocument(QJsonObject{{u"mcpServers"_s, servers}}).toJson());
        return path;
    }

    HeadlessProcess loopscope() const
    {
        HeadlessProcess process(QStringLiteral(LOOPSCOPE_EXECUTABLE), m_dir.filePath(u"config"_s));
        process.setEnvironmentVariable(u"LOOPSCOPE_TEST_KEY"_s, apiKey);
        return process;
    }

    Run run(const QStringList &arguments) const { return loopscope().run(arguments); }

    static void addSignalRows()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("Ctrl+C") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }

    // The model calls \a tool once, then answers.
    void scriptOneToolCall(const QString &tool, const QJsonObject &arguments)
    {
        m_server.setHandler([tool, arguments](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (lastMessage(request).value(u"role"_s).toString() == u"user")
                exchange.respondJson(200, toolCallCompletion(tool, arguments));
            else
                exchange.respondJson(200, openAiCompletion(u"too late"_s, u"m"_s));
        });
    }

    static bool reportedProgress(const QString &eventsPath)
    {
        QFile events(eventsPath);
        return events.open(QIODevice::ReadOnly) && events.readAll().contains("\"tool_progress\"");
    }

    static qint64 readPid(const QString &pidFile)
    {
        QFile file(pidFile);
        if (!file.open(QIODevice::ReadOnly))
            return 0;
        return file.readAll().trimmed().toLongLong();
    }

private slots:
    void initTestCase()
    {
        const QString reason = McpTestServers::unavailableReason();
        if (!reason.isEmpty())
            QFAIL(qPrintable(u"The MCP test servers are not available: "_s + reason));
        QVERIFY(m_server.listen());
        QVERIFY(m_dir.isValid());
    }

    void init() { m_server.setHandler({}); }

    void runCallsAnMcpToolAndEndsItsServer()
    {
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonObject last = lastMessage(request);
            if (last.value(u"role"_s).toString() == u"user")
                exchange.respondJson(200, toolCallCompletion(u"echo"_s, {{u"message"_s, u"through MCP"_s}}));
            else
                exchange.respondJson(
                    200,
                    openAiCompletion(u"The server said: "_s + last.value(u"content"_s).toString(), u"m"_s));
        });
        const QString pidFile = m_dir.filePath(u"run.pid"_s);
        const QString config = writeConfig(u"run.json"_s, pidFile);
        const qsizetype before = m_server.requests().size();

        const Run result = run(runArguments() << u"--mcp-config"_s << config << u"--approve"_s << u"all"_s
                                              << u"Echo something"_s);

        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY2(result.out.contains("through MCP"), result.out.constData());
        QCOMPARE(m_server.requests().size(), before + 2);
        const QJsonArray tools = m_server.requests().at(before).json().value(u"tools"_s).toArray();
        QStringList names;
        for (const QJsonValue &tool : tools)
            names.append(tool[u"function"_s][u"name"_s].toString());
        QVERIFY2(names.contains(u"echo"_s), qPrintable(names.join(u", ")));
        const QJsonObject toolMessage = lastMessage(m_server.requests().constLast());
        QCOMPARE(toolMessage.value(u"role"_s).toString(), u"tool"_s);
        QVERIFY(toolMessage.value(u"content"_s).toString().contains(u"through MCP"_s));

        const qint64 pid = readPid(pidFile);
        QVERIFY(pid > 0);
        QTRY_VERIFY_WITH_TIMEOUT(processEnded(pid), 5000);
    }

    void mcpToolsNeedAnExplicitApproveAll_data()
    {
        QTest::addColumn<QStringList>("approval");
        QTest::addColumn<QString>("said");
        QTest::newRow("--approve none") << QStringList{u"--approve"_s, u"none"_s} << u"(--approve none)"_s;
        // Built-in tools run by default; an MCP server's may write files or spend money.
        QTest::newRow("no --approve") << QStringList() << u"need an explicit --approve all"_s;
    }

    void mcpToolsNeedAnExplicitApproveAll()
    {
        QFETCH(QStringList, approval);
        QFETCH(QString, said);
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonObject last = lastMessage(request);
            if (last.value(u"role"_s).toString() == u"user")
                exchange.respondJson(200, toolCallCompletion(u"echo"_s, {{u"message"_s, u"no"_s}}));
            else
                exchange.respondJson(200, openAiCompletion(last.value(u"content"_s).toString(), u"m"_s));
        });
        const QString pidFile = m_dir.filePath(u"none.pid"_s);
        const QString config = writeConfig(u"none.json"_s, pidFile);

        const Run result
            = run(runArguments() << u"--mcp-config"_s << config << approval << u"Echo something"_s);

        QVERIFY2(result.exitCode == 0, result.err.constData());
        // The scripted model answers with the tool result it got: the denial, and why.
        QVERIFY2(result.out.contains("not approved"), result.out.constData());
        QVERIFY2(result.out.contains(said.toUtf8()), result.out.constData());
        QTRY_VERIFY_WITH_TIMEOUT(processEnded(readPid(pidFile)), 5000);
    }

    void sigintMidTurnEndsTheServerToo()
    {
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (lastMessage(request).value(u"role"_s).toString() == u"user")
                exchange.respondJson(200, toolCallCompletion(u"trigger-long-running-operation"_s,
                                                             {{u"duration"_s, 60}, {u"steps"_s, 60}}));
            else
                exchange.respondJson(200, openAiCompletion(u"too late"_s, u"m"_s));
        });
        const QString pidFile = m_dir.filePath(u"sigint.pid"_s);
        const QString config = writeConfig(u"sigint.json"_s, pidFile);
        const QString eventsPath = m_dir.filePath(u"sigint.jsonl"_s);
        HeadlessProcess process = loopscope();
        process.start(runArguments() << u"--mcp-config"_s << config << u"--approve"_s << u"all"_s
                                     << u"--events"_s << eventsPath << u"Take your time"_s);
        // Mid-turn: the long operation has reported progress.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&eventsPath] {
                QFile events(eventsPath);
                return events.open(QIODevice::ReadOnly) && events.readAll().contains("\"tool_progress\"");
            }(),
            30'000);
        const qint64 pid = readPid(pidFile);
        QVERIFY(pid > 0);
        QVERIFY(!processEnded(pid));

        process.interrupt();
        const Run result = process.finish();

        QCOMPARE(result.exitCode, 130);
        QTRY_VERIFY_WITH_TIMEOUT(processEnded(pid), 5000);
    }

    void aSignalMidCallTellsTheServerTheCallIsCancelled_data() { addSignalRows(); }

    void aSignalMidCallTellsTheServerTheCallIsCancelled()
    {
        QFETCH(int, signal);
        scriptOneToolCall(u"trigger-long-running-operation"_s, {{u"duration"_s, 60}, {u"steps"_s, 60}});
        // tee keeps every line Loopscope writes to the server.
        const QString name = u"cancel-%1"_s.arg(signal);
        const QString sentPath = m_dir.filePath(name + u".sent"_s);
        const QString script = u"tee '%1' | '%2' '%3'"_s.arg(sentPath, McpTestServers::nodeProgram(),
                                                             McpTestServers::everythingScript());
        const QString config = m_dir.filePath(name + u".json"_s);
        {
            QFile file(config);
            QVERIFY(file.open(QIODevice::WriteOnly));
            const QJsonObject server{{u"command"_s, u"sh"_s}, {u"args"_s, QJsonArray{u"-c"_s, script}}};
            file.write(QJsonDocument(QJsonObject{{u"mcpServers"_s, QJsonObject{{u"everything"_s, server}}}})
                           .toJson());
        }
        const QString eventsPath = m_dir.filePath(name + u".jsonl"_s);
        HeadlessProcess process = loopscope();
        process.start(runArguments() << u"--mcp-config"_s << config << u"--approve"_s << u"all"_s
                                     << u"--events"_s << eventsPath << u"Take your time"_s);
        QTRY_VERIFY_WITH_TIMEOUT(reportedProgress(eventsPath), 30'000);

        process.sendSignal(signal);
        const Run result = process.finish();
        QCOMPARE(result.exitCode, 130);

        QFile sentFile(sentPath);
        QVERIFY(sentFile.open(QIODevice::ReadOnly));
        std::optional<qint64> callId;
        bool cancelled = false;
        for (const QByteArray &line : sentFile.readAll().split('\n')) {
            const QJsonObject message = QJsonDocument::fromJson(line).object();
            const QString method = message.value(u"method"_s).toString();
            if (method == u"tools/call"_s)
                callId = message.value(u"id"_s).toInteger();
            else if (method == u"notifications/cancelled"_s && callId)
                cancelled
                    = message.value(u"params"_s).toObject().value(u"requestId"_s).toInteger() == *callId;
        }
        QVERIFY(callId.has_value());
        QVERIFY2(cancelled, "the server was not told that its call was cancelled");
    }

    void aSignalMidCallOverHttpTellsTheServerBeforeItEnds_data() { addSignalRows(); }

    void aSignalMidCallOverHttpTellsTheServerBeforeItEnds()
    {
        QFETCH(int, signal);
        scriptOneToolCall(u"slow"_s, {});
        // A Streamable HTTP server of 2025-11-25 whose one tool reports progress and never ends.
        FakeHttpServer mcp;
        QVERIFY(mcp.listen());
        std::optional<qint64> callId;
        QList<QJsonObject> notifications;
        mcp.setHandler([&](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonObject body = request.json();
            const QString method = body.value(u"method"_s).toString();
            const QJsonValue id = body.value(u"id"_s);
            const auto answer = [&](const QJsonObject &result) {
                exchange.respondJson(200, {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}},
                                     {{"Mcp-Session-Id", "s1"}});
            };
            if (request.method != "POST") {
                exchange.respond(405);
            } else if (!body.contains(u"id"_s)) {
                notifications.append(body);
                exchange.respond(202);
            } else if (method == u"initialize"_s) {
                answer({{u"protocolVersion"_s, u"2025-11-25"_s},
                        {u"capabilities"_s, QJsonObject{{u"tools"_s, QJsonObject{}}}},
                        {u"serverInfo"_s, QJsonObject{{u"name"_s, u"slow"_s}}}});
            } else if (method == u"tools/list"_s) {
                answer({{u"tools"_s, QJsonArray{QJsonObject{
                                         {u"name"_s, u"slow"_s},
                                         {u"inputSchema"_s, QJsonObject{{u"type"_s, u"object"_s}}}}}}});
            } else if (method == u"tools/call"_s) {
                callId = id.toInteger();
                const QJsonValue token = body.value(u"params"_s)
                                             .toObject()
                                             .value(u"_meta"_s)
                                             .toObject()
                                             .value(u"progressToken"_s);
                const QJsonObject progress{
                    {u"jsonrpc"_s, u"2.0"_s},
                    {u"method"_s, u"notifications/progress"_s},
                    {u"params"_s,
                     QJsonObject{{u"progressToken"_s, token}, {u"progress"_s, 1}, {u"total"_s, 10}}}};
                exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
                exchange.send(
                    FakeHttpServer::sseEvent(QJsonDocument(progress).toJson(QJsonDocument::Compact)));
                exchange.stall();
            } else {
                exchange.respondJson(
                    400, {{u"jsonrpc"_s, u"2.0"_s},
                          {u"id"_s, id},
                          {u"error"_s, QJsonObject{{u"code"_s, -32601}, {u"message"_s, u"Unknown"_s}}}});
            }
        });
        const QString eventsPath = m_dir.filePath(u"http-cancel-%1.jsonl"_s.arg(signal));
        HeadlessProcess process = loopscope();
        process.start(runArguments() << u"--mcp-url"_s << mcp.baseUrl().toString() + u"/mcp"_s
                                     << u"--approve"_s << u"all"_s << u"--events"_s << eventsPath
                                     << u"Take your time"_s);
        QTRY_VERIFY_WITH_TIMEOUT(reportedProgress(eventsPath), 30'000);

        process.sendSignal(signal);
        const Run result = process.finish();
        QCOMPARE(result.exitCode, 130);
        QVERIFY(callId.has_value());
        const auto told = [&] {
            return std::any_of(notifications.cbegin(), notifications.cend(), [&](const QJsonObject &n) {
                return n.value(u"method"_s).toString() == u"notifications/cancelled"_s
                       && n.value(u"params"_s).toObject().value(u"requestId"_s).toInteger() == *callId;
            });
        };
        // What reached this server before the run ended is served here, a little later at most.
        QTRY_VERIFY2_WITH_TIMEOUT(told(), "the server was not told that its call was cancelled", 2000);
    }

    void approveAllDeclinesAFormWhoseRequiredFieldsHaveNoDefault()
    {
        // server-everything adds its elicitation tool after start-up (list_changed): the model waits
        // for it with harmless calls, then calls it and repeats what came back.
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            const QJsonObject last = messages.last().toObject();
            bool offered = false;
            for (const QJsonValue &tool : request.json().value(u"tools"_s).toArray())
                offered |= tool[u"function"_s][u"name"_s].toString() == u"trigger-elicitation-request";
            const bool asked = QJsonDocument(messages).toJson().contains("\"trigger-elicitation-request\"");
            if (asked && last.value(u"role"_s).toString() == u"tool")
                exchange.respondJson(200, openAiCompletion(last.value(u"content"_s).toString(), u"m"_s));
            else if (offered)
                exchange.respondJson(200, toolCallCompletion(u"trigger-elicitation-request"_s, {}));
            else
                exchange.respondJson(
                    200, toolCallCompletion(u"get-sum"_s, {{u"a"_s, messages.size()}, {u"b"_s, 1}}));
        });
        const QString pidFile = m_dir.filePath(u"elicit.pid"_s);
        const QString config = writeConfig(u"elicit.json"_s, pidFile);

        const Run result = run(runArguments() << u"--mcp-config"_s << config << u"--approve"_s << u"all"_s
                                              << u"Ask me something"_s);

        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY2(result.err.contains("the MCP server \"everything\" asked"), result.err.constData());
        QVERIFY2(result.err.contains("declined"), result.err.constData());
        QVERIFY2(result.out.toLower().contains("declined"), result.out.constData());
        QTRY_VERIFY_WITH_TIMEOUT(processEnded(readPid(pidFile)), 5000);
    }

    void aServersModelCallRunsOnlyUnderApproveAll_data()
    {
        QTest::addColumn<bool>("viaRun");
        QTest::addColumn<QStringList>("approval");
        QTest::addColumn<bool>("sampled");
        QTest::newRow("run --approve all") << true << QStringList{u"--approve"_s, u"all"_s} << true;
        QTest::newRow("mcp call --approve all with a provider")
            << false << QStringList{u"--approve"_s, u"all"_s} << true;
        QTest::newRow("mcp call without --approve all") << false << QStringList{} << false;
        // (run: an MCP tool itself runs only with --approve all, so its model call is never declined there.)
    }

    void aServersModelCallRunsOnlyUnderApproveAll()
    {
        QFETCH(bool, viaRun);
        QFETCH(QStringList, approval);
        QFETCH(bool, sampled);
        // The fault server's echo asks for a model call (2026-07-28 input_required) when its text is
        // "sample"; the model call is told apart from the run's own requests by its system prompt.
        int samplings = 0;
        m_server.setHandler([&samplings](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            const QJsonObject last = messages.last().toObject();
            if (messages.first()[u"content"_s].toString() == u"Answer in one word.") {
                ++samplings;
                exchange.respondJson(200, openAiCompletion(u"Paris"_s, u"m"_s));
            } else if (last.value(u"role"_s).toString() == u"tool") {
                exchange.respondJson(200, openAiCompletion(last.value(u"content"_s).toString(), u"m"_s));
            } else {
                exchange.respondJson(200, toolCallCompletion(u"echo"_s, {{u"text"_s, u"sample"_s}}));
            }
        });
        const QJsonObject fault{{u"command"_s, McpTestServers::pythonProgram()},
                                {u"args"_s, QJsonArray{McpTestServers::faultServerScript(), u"mrtr"_s}}};
        const QString config = m_dir.filePath(u"sampling.json"_s);
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(QJsonObject{{u"mcpServers"_s, QJsonObject{{u"fault"_s, fault}}}}).toJson());
        file.close();

        QStringList arguments = runArguments();
        if (viaRun) {
            arguments << u"--mcp-config"_s << config << approval << u"Ask the server"_s;
        } else {
            arguments.replace(0, u"call"_s);
            arguments.removeAll(u"--no-stream"_s);
            arguments = QStringList{u"mcp"_s} + arguments << u"--mcp-config"_s << config << approval
                                                          << u"echo"_s << uR"({"text": "sample"})"_s;
        }
        const Run result = run(arguments);

        QCOMPARE(samplings, sampled ? 1 : 0);
        QVERIFY2(result.err.contains("the MCP server \"fault\" asked for a model call"),
                 result.err.constData());
        if (sampled) {
            QVERIFY2(result.exitCode == 0, result.err.constData());
            QVERIFY2(result.out.contains("summary: Paris (m, endTurn)"), result.out.constData());
        } else {
            QVERIFY2(result.err.contains("declined"), result.err.constData());
            // The server hears it; run's model reads that the call was not completed, mcp call says so.
            const QByteArray said = viaRun ? result.out : result.err;
            QVERIFY2(said.contains("declined its request for a model call"), said.constData());
            QCOMPARE(result.exitCode, viaRun ? 0 : 1);
        }
    }

    void mcpListSaysWhichServersAreReady()
    {
        const QString config = writeConfig(u"list.json"_s, m_dir.filePath(u"list.pid"_s), true);

        const Run both = run({u"mcp"_s, u"list"_s, u"--mcp-config"_s, config});
        QCOMPARE(both.exitCode, 1);
        QVERIFY2(both.out.contains("everything: ready (protocol "), both.out.constData());
        QVERIFY2(both.out.contains("\n  echo  Echoes back"), both.out.constData());
        QVERIFY2(both.out.contains("broken: failed: The MCP server “broken”"), both.out.constData());

        const Run good
            = run({u"mcp"_s, u"list"_s, u"--mcp-config"_s, config, u"--mcp-server"_s, u"everything"_s});
        QCOMPARE(good.exitCode, 0);
        QVERIFY(!good.out.contains("broken"));
        QTRY_VERIFY_WITH_TIMEOUT(processEnded(readPid(m_dir.filePath(u"list.pid"_s))), 5000);

        const Run unknown
            = run({u"mcp"_s, u"list"_s, u"--mcp-config"_s, config, u"--mcp-server"_s, u"nope"_s});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("nope"), unknown.err.constData());
    }

    void mcpCallPrintsTheResultAndEndsTheServer_data()
    {
        QTest::addColumn<QString>("tool");
        QTest::addColumn<QString>("arguments");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("mcp name") << u"echo"_s << uR"({"message": "hello call"})"_s
                                  << QByteArray("hello call");
        QTest::newRow("server/tool") << u"everything/get-sum"_s << uR"({"a": 2, "b": 3})"_s
                                     << QByteArray("5");
    }

    void mcpCallPrintsTheResultAndEndsTheServer()
    {
        QFETCH(QString, tool);
        QFETCH(QString, arguments);
        QFETCH(QByteArray, expected);
        const QString pidFile = m_dir.filePath(u"call.pid"_s);
        const QString config = writeConfig(u"call.json"_s, pidFile);

        const Run result = run({u"mcp"_s, u"call"_s, u"--mcp-config"_s, config, tool, arguments});

        QVERIFY2(result.exitCode == 0, result.err.constData());
        QVERIFY2(result.out.contains(expected), result.out.constData());
        const qint64 pid = readPid(pidFile);
        QVERIFY(pid > 0);
        QTRY_VERIFY_WITH_TIMEOUT(processEnded(pid), 5000);
    }

    void mcpCallRefusesBadUsage_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QByteArray>("message");
        QTest::newRow("invalid JSON")
            << QStringList{u"get-sum"_s, u"{\"a\": 1,"_s} << QByteArray("not valid JSON");
        QTest::newRow("not an object")
            << QStringList{u"get-sum"_s, u"[1, 2]"_s} << QByteArray("must be a JSON object");
        QTest::newRow("unknown tool")
            << QStringList{u"no-such-tool"_s} << QByteArray("no MCP server offers the tool \"no-such-tool\"");
        QTest::newRow("no tool") << QStringList{} << QByteArray("call takes a tool");
    }

    void mcpCallRefusesBadUsage()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QByteArray, message);
        const QString config = writeConfig(u"bad.json"_s, m_dir.filePath(u"bad.pid"_s));

        const Run result = run(QStringList{u"mcp"_s, u"call"_s, u"--mcp-config"_s, config} + arguments);

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(message), result.err.constData());
        QVERIFY(result.out.isEmpty());
    }

    void mcpUrlReachesAStreamableHttpServer()
    {
        QProcess server;
        QString error;
        const quint16 port = McpTestServers::startEverythingHttp(server, &error);
        QVERIFY2(port != 0, qPrintable(error));
        const QString url = u"http://127.0.0.1:%1/mcp"_s.arg(port);

        const Run list = run({u"mcp"_s, u"list"_s, u"--mcp-url"_s, url});
        QVERIFY2(list.exitCode == 0, list.err.constData());
        QVERIFY2(list.out.contains(u"127.0.0.1:%1: ready (protocol "_s.arg(port).toUtf8()),
                 list.out.constData());

        const Run call
            = run({u"mcp"_s, u"call"_s, u"--mcp-url"_s, url, u"echo"_s, uR"({"message": "over HTTP"})"_s});
        QVERIFY2(call.exitCode == 0, call.err.constData());
        QVERIFY2(call.out.contains("over HTTP"), call.out.constData());

        const Run bad = run({u"mcp"_s, u"list"_s, u"--mcp-url"_s, u"ftp://127.0.0.1/mcp"_s});
        QCOMPARE(bad.exitCode, 2);

        server.terminate();
        if (!server.waitForFinished(5000)) {
            server.kill();
            server.waitForFinished();
        }
    }

    void anOAuthSignInIsKeptInTheKeychainForTheNextRun()
    {
        QProcess server;
        QString error;
        const quint16 port = McpTestServers::startAuthServer(server, u"ok"_s, &error);
        QVERIFY2(port != 0, qPrintable(error));
        // A browser without a person that notes each time it is opened (the test runs under
        // with-keyring.sh: a private session bus with an unlocked keyring).
        const QString opened = m_dir.filePath(u"browser-opened.log"_s);
        const QString browser = m_dir.filePath(u"browser.sh"_s);
        QFile script(browser);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write(
            u"#!/bin/sh\necho \"$1\" >> '%1'\nexec curl --silent --location --output /dev/null \"$1\"\n"_s
                .arg(opened)
                .toUtf8());
        script.close();
        script.setPermissions(script.permissions() | QFileDevice::ExeOwner);
        const QStringList arguments{u"mcp"_s, u"list"_s, u"--mcp-url"_s,
                                    u"http://127.0.0.1:%1/mcp"_s.arg(port)};
        const auto signedIn = [&] {
            HeadlessProcess process = loopscope();
            process.setEnvironmentVariable(u"BROWSER"_s, browser);
            process.setEnvironmentVariable(u"DBUS_SESSION_BUS_ADDRESS"_s,
                                           qEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS"));
            return process.run(arguments);
        };
        const auto browserOpenings = [&opened] {
            QFile log(opened);
            return log.open(QIODevice::ReadOnly) ? log.readAll().count('\n') : 0;
        };

        const Run first = signedIn();
        QVERIFY2(first.exitCode == 0, first.err.constData());
        QCOMPARE(browserOpenings(), 1);
        const Run second = signedIn();
        QVERIFY2(second.exitCode == 0, second.err.constData());
        QCOMPARE(browserOpenings(), 1); // the keychain's token: no second sign-in
        QVERIFY(!QByteArray(first.out + first.err + second.out + second.err).contains("SECRET-"));

        server.kill();
        server.waitForFinished(5000);
    }

    void aSavedServersSecretHeadersComeFromTheKeychain()
    {
        QProcess server;
        QString error;
        const quint16 port = McpTestServers::startAuthServer(server, u"static"_s, &error);
        QVERIFY2(port != 0, qPrintable(error));
        // Saved as the window saves it: the header values go to the keychain (the test's private
        // gnome-keyring, see with-keyring.sh), never to the settings file.
        const auto command = [this](const QStringList &arguments, bool withKeychain) {
            HeadlessProcess process = loopscope();
            if (withKeychain)
                process.setEnvironmentVariable(u"DBUS_SESSION_BUS_ADDRESS"_s,
                                               qEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS"));
            return process.run(QStringList{u"mcp"_s} + arguments);
        };
        const Run added = command({u"add"_s, u"remote"_s, u"--url"_s, u"http://127.0.0.1:%1/mcp"_s.arg(port),
                                   u"--header"_s, u"Authorization: Bearer SECRET-STATIC"_s, u"--header"_s,
                                   u"X-Api-Key: SECRET-KEY"_s},
                                  true);
        QVERIFY2(added.exitCode == 0, added.err.constData());
        const auto removeAgain = qScopeGuard([&command] { command({u"remove"_s, u"remote"_s}, true); });

        const Run list = command({u"list"_s}, true);
        QVERIFY2(list.exitCode == 0, list.err.constData());
        QVERIFY2(list.out.contains("remote: ready (protocol "), list.out.constData());
        const Run call = command({u"call"_s, u"whoami"_s}, true);
        QVERIFY2(call.exitCode == 0, call.err.constData());
        QVERIFY2(call.out.contains("refreshed 0"), call.out.constData());

        // No keychain: said once for both headers, and the server starts without them (refused here).
        const Run without = command({u"list"_s}, false);
        QVERIFY(without.exitCode != 0);
        QCOMPARE(without.err.count("there is no keychain on this desktop"), 1);
        QVERIFY2(without.err.contains("remote start without the secrets"), without.err.constData());

        QVERIFY(!QByteArray(list.out + list.err + call.out + call.err + without.out + without.err)
                     .contains("SECRET-"));
        server.kill();
        server.waitForFinished(5000);
    }

    void noMcpRefusesMcpOptions()
    {
        const Run result
            = run(runArguments() << u"--no-mcp"_s << u"--mcp-config"_s << u"x.json"_s << u"hi"_s);
        QCOMPARE(result.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(RunMcpTest)
#include "tst_runmcp.moc"
