// The MCP hub and its place in a ChatSession, against real servers over stdio:
// server-everything (npm, the mcp_servers fixture), the fault server of
// tests/mcp and a small server whose tool list grows (listchangeserver.py).
// The model is scripted (ScriptedModelClient).

#include "agent/export/htmlexport.h"
#include "agent/export/markdownexport.h"
#include "agent/export/otlpexport.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcptool.h"
#include "agent/mcp/mcptoolnames.h"
#include "agent/replay/recordedturn.h"
#include "agent/replay/transcriptreplay.h"
#include "agent/session/chatsession.h"
#include "agent/trace/tracetiming.h"
#include "agent/transcript/transcript.h"
#include "tests/mcp/followingopener.h"
#include "tests/mcp/mcptestservers.h"
#include "tests/support/scriptedmodelclient.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

using Source = McpToolNames::Source;

McpServerConfig listChangeServer(const QString &name = u"grower"_s)
{
    McpServerConfig config;
    config.name = name;
    config.command = McpTestServers::pythonProgram();
    config.arguments = {QStringLiteral(LISTCHANGE_SERVER)};
    return config;
}

McpServerConfig missingServer(const QString &name = u"missing"_s)
{
    McpServerConfig config;
    config.name = name;
    config.command = u"/nonexistent/loopscope-mcp-server"_s;
    return config;
}

QStringList toolNames(const QList<ToolSchema> &schemas)
{
    QStringList names;
    for (const ToolSchema &schema : schemas)
        names.append(schema.name);
    return names;
}

QList<int> nodesOfKind(const Trace &trace, TraceKind kind)
{
    QList<int> nodes;
    for (int id = 0; id < trace.size(); ++id) {
        if (trace.node(id).kind == kind)
            nodes.append(id);
    }
    return nodes;
}

// The text of the tool message that answers \a callId in a request.
QString toolResultIn(const ModelRequest &request, const QString &callId)
{
    for (const Message &message : request.messages) {
        if (message.role == Message::Role::Tool && message.toolCallId == callId)
            return message.text;
    }
    return {};
}

// The tool message that answers \a callId in a request.
std::optional<Message> toolMessageIn(const QList<Message> &messages, const QString &callId)
{
    for (const Message &message : messages) {
        if (message.role == Message::Role::Tool && message.toolCallId == callId)
            return message;
    }
    return std::nullopt;
}

// The PNG server-everything's get-tiny-image returns, read from the server's own source.
QByteArray tinyImageOfTheServer()
{
    QFile source(McpTestServers::modulesDirectory()
                 + u"/@modelcontextprotocol/server-everything/dist/tools/get-tiny-image.js"_s);
    if (!source.open(QIODevice::ReadOnly))
        return {};
    const QByteArray text = source.readAll();
    const QByteArray marker = "MCP_TINY_IMAGE = \"";
    const qsizetype start = text.indexOf(marker);
    if (start < 0)
        return {};
    const qsizetype from = start + marker.size();
    return QByteArray::fromBase64(text.mid(from, text.indexOf('"', from) - from));
}

int noticeCount(const ConversationRows &rows, const QString &containing)
{
    int count = 0;
    for (const ConversationRow &row : rows.rows())
        count += row.kind == ConversationRow::Kind::Notice && row.text.contains(containing);
    return count;
}

} // namespace

class McpHubTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qRegisterMetaType<TurnResult>();
        qRegisterMetaType<AgentEvent>();
    }

    void init() { m_network = std::make_unique<QNetworkAccessManager>(); }

    void cleanup()
    {
        m_session.reset();
        m_model.reset();
        m_network.reset();
    }

    void toolNamesAreValidAndUnique_data()
    {
        QTest::addColumn<QList<Source>>("sources");
        QTest::addColumn<QStringList>("taken");
        QTest::addColumn<QStringList>("expected");

        QTest::newRow("plain names stay as they are")
            << QList<Source>{{u"files"_s, u"read"_s}, {u"web"_s, u"fetch"_s}} << QStringList{}
            << QStringList{u"read"_s, u"fetch"_s};
        QTest::newRow("invalid characters become underscores")
            << QList<Source>{{u"files"_s, u"read.file"_s}, {u"files"_s, u"größe ändern"_s}} << QStringList{}
            << QStringList{u"read_file"_s, u"gr__e__ndern"_s};
        QTest::newRow("a name two servers offer gets each server's prefix")
            << QList<Source>{{u"alpha"_s, u"echo"_s}, {u"beta"_s, u"echo"_s}, {u"beta"_s, u"sum"_s}}
            << QStringList{} << QStringList{u"alpha_echo"_s, u"beta_echo"_s, u"sum"_s};
        QTest::newRow("a built-in's name gets the server's prefix")
            << QList<Source>{{u"my files"_s, u"read_file"_s}} << QStringList{u"read_file"_s}
            << QStringList{u"my_files_read_file"_s};
        QTest::newRow("an empty name becomes an underscore")
            << QList<Source>{{u"s"_s, QString()}} << QStringList{} << QStringList{u"_"_s};
    }

    void toolNamesAreValidAndUnique()
    {
        QFETCH(QList<Source>, sources);
        QFETCH(QStringList, taken);
        QFETCH(QStringList, expected);
        const QStringList names = McpToolNames::assign(sources, QSet<QString>(taken.cbegin(), taken.cend()));
        QCOMPARE(names, expected);
    }

    void longAndCollidingNamesAreCutToSixtyFourAndStayUnique_data()
    {
        QTest::addColumn<QList<Source>>("sources");
        QTest::addColumn<QStringList>("taken");

        const QString longName = QString(80, u'x');
        QTest::newRow("a long name") << QList<Source>{{u"s"_s, longName}} << QStringList{};
        QTest::newRow("two long names that share their first 64 characters")
            << QList<Source>{{u"s"_s, longName + u'a'}, {u"s"_s, longName + u'b'}} << QStringList{};
        QTest::newRow("a long server name as prefix")
            << QList<Source>{{QString(70, u's'), u"echo"_s}, {u"t"_s, u"echo"_s}} << QStringList{};
        QTest::newRow("names that sanitise alike on one server")
            << QList<Source>{{u"s"_s, u"a.b"_s}, {u"s"_s, u"a_b"_s}, {u"s"_s, u"a b"_s}} << QStringList{};
        QTest::newRow("servers whose names sanitise alike")
            << QList<Source>{{u"a.b"_s, u"echo"_s}, {u"a_b"_s, u"echo"_s}} << QStringList{};
        QTest::newRow("a prefixed name a built-in already has")
            << QList<Source>{{u"s"_s, u"echo"_s}, {u"t"_s, u"echo"_s}} << QStringList{u"s_echo"_s};
    }

    void longAndCollidingNamesAreCutToSixtyFourAndStayUnique()
    {
        QFETCH(QList<Source>, sources);
        QFETCH(QStringList, taken);
        const QSet<QString> takenSet(taken.cbegin(), taken.cend());
        const QStringList names = McpToolNames::assign(sources, takenSet);
        QCOMPARE(names.size(), sources.size());
        QCOMPARE(QSet<QString>(names.cbegin(), names.cend()).size(), names.size());
        for (const QString &name : names) {
            QVERIFY2(McpToolNames::isValid(name), qPrintable(name));
            QVERIFY2(!takenSet.contains(name), qPrintable(name));
        }
        // The same input, the same names.
        QCOMPARE(McpToolNames::assign(sources, takenSet), names);
    }

    void progressReadsAsStepsOfTheTotal()
    {
        QCOMPARE(McpTool::progressText({3, 10, u"Step 3"_s}), u"3/10 Step 3"_s);
        QCOMPARE(McpTool::progressText({0.5, std::nullopt, {}}), u"0.5"_s);
    }

    void theHubOffersTheToolsOfAReadyServerAskingByDefault()
    {
        skipWithoutServers();
        McpHub hub(m_network.get());
        QSignalSpy changed(&hub, &McpHub::toolsChanged);
        McpServerConfig everything = McpTestServers::everythingStdio();
        everything.disabledTools = {u"get-env"_s};
        everything.toolApproval = {{u"get-sum"_s, u"always"_s}};
        hub.setServers({everything});
        QTRY_COMPARE_WITH_TIMEOUT(hub.client(u"everything"_s)->state(), McpClient::State::Ready, 30'000);
        QVERIFY(!changed.isEmpty());

        QStringList names;
        for (const auto &tool : hub.tools()) {
            names.append(tool->name());
            QVERIFY2(McpToolNames::isValid(tool->name()), qPrintable(tool->name()));
        }
        QVERIFY2(names.contains(u"echo"_s), qPrintable(names.join(u", ")));
        QVERIFY(names.contains(u"get-sum"_s));
        QVERIFY(!names.contains(u"get-env"_s));
        QCOMPARE(hub.resolve(u"echo"_s), (McpHub::ToolRef{u"everything"_s, u"echo"_s}));
        QVERIFY(!hub.resolve(u"get-env"_s));
        const QHash<QString, QString> rules = hub.approvalRules();
        QCOMPARE(rules.value(u"echo"_s), u"ask"_s);
        QCOMPARE(rules.value(u"get-sum"_s), u"always"_s);

        // A server removed from the configuration takes its tools along.
        changed.clear();
        hub.setServers({});
        QCOMPARE(changed.size(), 1);
        QVERIFY(hub.tools().isEmpty());
    }

    void aToolTwoServersOfferGetsEachServersPrefix()
    {
        skipWithoutServers();
        McpHub hub(m_network.get());
        hub.setBuiltinToolNames({u"get-sum"_s});
        hub.setServers(
            {McpTestServers::everythingStdio(u"alpha"_s), McpTestServers::everythingStdio(u"beta"_s)});
        QTRY_VERIFY_WITH_TIMEOUT(hub.client(u"alpha"_s)->state() == McpClient::State::Ready
                                     && hub.client(u"beta"_s)->state() == McpClient::State::Ready,
                                 30'000);
        QVERIFY(hub.resolve(u"alpha_echo"_s));
        QCOMPARE(hub.resolve(u"beta_echo"_s)->server, u"beta"_s);
        QVERIFY(!hub.resolve(u"echo"_s));
        QCOMPARE(hub.resolve(u"alpha_get-sum"_s)->tool, u"get-sum"_s);
    }

    void aTurnCallsAnMcpToolAndTheTraceKeepsTheExchange()
    {
        skipWithoutServers();
        makeSession();
        applyMcp({McpTestServers::everythingStdio()});
        m_session->approvals()->setDefaultRule(ToolApprovalPolicy::Rule::Ask);
        m_model->enqueue(ScriptedModelClient::calls(
            {ScriptedModelClient::call(u"c1"_s, u"echo"_s, uR"({"message":"hello from the model"})"_s)}));
        m_model->enqueue(ScriptedModelClient::text(u"done"_s));
        QSignalSpy approvals(m_session->approvals(), &ToolApprovalPolicy::approvalRequested);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);

        // Sent at once: the turn waits for the server, so the first request offers its tools.
        QVERIFY(m_session->send(u"echo something"_s));
        QVERIFY(m_session->isBusy());
        // MCP tools are asked about by default.
        QTRY_COMPARE_WITH_TIMEOUT(approvals.size(), 1, 30'000);
        QVERIFY(m_session->approvals()->allowOnce(u"c1"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Answered);

        QCOMPARE(m_model->requests().size(), 2);
        QVERIFY(toolNames(m_model->requests().first().tools).contains(u"echo"_s));
        const QString result = toolResultIn(m_model->requests().at(1), u"c1"_s);
        QVERIFY2(result.contains(u"hello from the model"_s), qPrintable(result));

        const Trace &trace = *m_session->trace();
        const QList<int> calls = nodesOfKind(trace, TraceKind::ToolCall);
        QCOMPARE(calls.size(), 1);
        const ToolCallData &data = trace.node(calls.first()).data<ToolCallData>();
        const QJsonObject mcp = data.details.value(u"mcp"_s).toObject();
        QCOMPARE(mcp.value(u"server"_s).toString(), u"everything"_s);
        QCOMPARE(mcp.value(u"tool"_s).toString(), u"echo"_s);
        QCOMPARE(mcp[u"request"_s][u"method"_s].toString(), u"tools/call"_s);
        QCOMPARE(mcp[u"request"_s][u"params"_s][u"arguments"_s][u"message"_s].toString(),
                 u"hello from the model"_s);
        QVERIFY(mcp[u"response"_s].toObject().contains(u"result"_s));
        QVERIFY(mcp.contains(u"content"_s));
        // The model saw the text, not the details.
        QVERIFY(!result.contains(u"tools/call"_s));

        // The server's start-up is a node of its own under the turn.
        const QList<int> servers = nodesOfKind(trace, TraceKind::McpServer);
        QCOMPARE(servers.size(), 1);
        const TraceNode &server = trace.node(servers.first());
        QCOMPARE(server.parent, trace.roots().first());
        QCOMPARE(server.status, TraceStatus::Ok);
        QCOMPARE(server.label, u"MCP server everything"_s);
        const McpServerData &startup = server.data<McpServerData>();
        QVERIFY(!startup.startup.value(u"protocolVersion"_s).toString().isEmpty());
        QVERIFY(startup.startup.value(u"toolCount"_s).toInt() > 0);
        QVERIFY(!startup.startup.value(u"exchange"_s).toArray().isEmpty());

        // Saved and opened again, the details and the start-up node are still there.
        QTemporaryDir dir;
        const QString path = dir.filePath(u"mcp.loopscope.json"_s);
        QString error;
        QVERIFY2(TranscriptFile::save(m_session->toTranscript(), path, &error), qPrintable(error));
        TranscriptLoadResult loaded = TranscriptFile::load(path);
        QVERIFY2(loaded.transcript, qPrintable(loaded.error));
        QNetworkAccessManager network;
        ChatSession reopened(&network);
        QVERIFY(reopened.restore(*loaded.transcript, std::move(*loaded.trace), &error));
        const Trace &restored = *reopened.trace();
        QCOMPARE(
            restored.node(nodesOfKind(restored, TraceKind::ToolCall).first()).data<ToolCallData>().details,
            data.details);
        QCOMPARE(restored.node(nodesOfKind(restored, TraceKind::McpServer).first()), server);

        // A replay needs no server: the MCP tool is a stand-in that answers from the recording.
        m_session.reset();
        const auto turns = RecordedTurn::fromTranscript(*loaded.transcript, &error);
        QVERIFY2(turns, qPrintable(error));
        TranscriptReplay replay(*turns);
        replay.setToolProvider(reopened.replayTools());
        QSignalSpy replayed(&replay, &TranscriptReplay::finished);
        replay.start();
        QTRY_COMPARE(replayed.size(), 1);
        QCOMPARE(replay.skippedCount(), 0);
        QVERIFY(replayed.first().first().toBool());
        QCOMPARE(replay.reproducedCount(), 1);
    }

    void anMcpToolsImageReachesTheNextRequestAsAnImageAndTheSessionKeepsItOnce()
    {
        skipWithoutServers();
        const QByteArray png = tinyImageOfTheServer();
        QVERIFY2(png.startsWith("\x89PNG"), "get-tiny-image.js of server-everything has no MCP_TINY_IMAGE");
        makeSession();
        applyMcp({McpTestServers::everythingStdio()}, ToolApprovalPolicy::Rule::Always);
        m_model->enqueue(
            ScriptedModelClient::calls({ScriptedModelClient::call(u"c1"_s, u"get-tiny-image"_s, u"{}"_s)}));
        m_model->enqueue(ScriptedModelClient::text(u"It is the MCP logo."_s));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"Show me the tiny image"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Answered);

        // The next request carries the image byte for byte, and the text without a line about it.
        QCOMPARE(m_model->requests().size(), 2);
        const std::optional<Message> result = toolMessageIn(m_model->requests().at(1).messages, u"c1"_s);
        QVERIFY(result);
        QCOMPARE(result->text, u"Here's the image you requested:\n\nThe image above is the MCP logo."_s);
        QCOMPARE(result->attachments.size(), 1);
        const Attachment &image = result->attachments.first();
        QVERIFY(image.isImage());
        QCOMPARE(image.name, u"get-tiny-image-1.png"_s);
        QCOMPARE(image.mimeType, u"image/png"_s);
        QCOMPARE(image.bytes, png);
        QCOMPARE(QImage::fromData(image.bytes).size(), QSize(20, 20));

        // The trace shows the image as an attachment of the call, and the exchange without its bytes.
        const Trace &trace = *m_session->trace();
        const ToolCallData &data
            = trace.node(nodesOfKind(trace, TraceKind::ToolCall).first()).data<ToolCallData>();
        QCOMPARE(data.details.value(u"attachments"_s).toArray().size(), 1);
        const QByteArray base64 = png.toBase64();
        QVERIFY(!QJsonDocument(data.details.value(u"mcp"_s).toObject()).toJson().contains(base64));

        // Saved, the file holds the image once; opened again, the history and the trace have it whole.
        QTemporaryDir dir;
        const QString path = dir.filePath(u"image.loopscope.json"_s);
        QString error;
        QVERIFY2(TranscriptFile::save(m_session->toTranscript(), path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count(base64), 1);
        TranscriptLoadResult loaded = TranscriptFile::load(path);
        QVERIFY2(loaded.transcript, qPrintable(loaded.error));
        const std::optional<Message> reopened = toolMessageIn(loaded.transcript->messages, u"c1"_s);
        QVERIFY(reopened);
        QCOMPARE(reopened->attachments, result->attachments);
        QNetworkAccessManager network;
        ChatSession restored(&network);
        QVERIFY2(restored.restore(*loaded.transcript, std::move(*loaded.trace), &error), qPrintable(error));
        const Trace &restoredTrace = *restored.trace();
        QCOMPARE(restoredTrace.node(nodesOfKind(restoredTrace, TraceKind::ToolCall).first())
                     .data<ToolCallData>()
                     .details,
                 data.details);

        // Replayed without the server, the recorded result (image included) is what the model gets.
        m_session.reset();
        const auto turns = RecordedTurn::fromTranscript(*loaded.transcript, &error);
        QVERIFY2(turns, qPrintable(error));
        TranscriptReplay replay(*turns);
        replay.setToolProvider(restored.replayTools());
        QSignalSpy replayed(&replay, &TranscriptReplay::finished);
        replay.start();
        QTRY_COMPARE(replayed.size(), 1);
        QVERIFY(replayed.first().first().toBool());
        QCOMPARE(replay.reproducedCount(), 1);
    }

    void progressOfAnMcpCallArrivesAsToolProgressEvents()
    {
        skipWithoutServers();
        makeSession();
        applyMcp({McpTestServers::everythingStdio()}, ToolApprovalPolicy::Rule::Always);
        m_model->enqueue(ScriptedModelClient::calls({ScriptedModelClient::call(
            u"c1"_s, u"trigger-long-running-operation"_s, uR"({"duration":1,"steps":3})"_s)}));
        m_model->enqueue(ScriptedModelClient::text(u"done"_s));
        QStringList progress;
        connect(m_session->agent(), &Agent::event, this, [&progress](const AgentEvent &event) {
            if (event.kind == AgentEvent::Kind::ToolProgress)
                progress.append(event.text);
        });
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QVERIFY(m_session->send(u"take your time"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);
        QVERIFY2(progress.contains(u"1/3"_s) || progress.join(u'|').contains(u"1/3"_s),
                 qPrintable(progress.join(u" | ")));
        QVERIFY2(progress.join(u'|').contains(u"3/3"_s), qPrintable(progress.join(u" | ")));
        const QString result = toolResultIn(m_model->requests().at(1), u"c1"_s);
        QVERIFY2(result.contains(u"completed"_s), qPrintable(result));
        const Trace &trace = *m_session->trace();
        const ToolCallData &data
            = trace.node(nodesOfKind(trace, TraceKind::ToolCall).first()).data<ToolCallData>();
        QCOMPARE(data.details[u"mcp"_s][u"progress"_s].toArray().size(), 3);
    }

    void aServerThatCannotStartLetsTheTurnGoOnWithOneNotice()
    {
        makeSession();
        applyMcp({missingServer()});
        m_model->enqueue(ScriptedModelClient::text(u"answered anyway"_s));
        m_model->enqueue(ScriptedModelClient::text(u"again"_s));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QSignalSpy notices(m_session.get(), &ChatSession::notice);
        QVERIFY(m_session->send(u"hello"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Answered);
        QCOMPARE(notices.size(), 1);
        QVERIFY2(notices.first().first().toString().contains(u"“missing”"_s),
                 qPrintable(notices.first().first().toString()));
        QCOMPARE(noticeCount(*m_session->rows(), u"“missing”"_s), 1);

        const Trace &trace = *m_session->trace();
        const QList<int> servers = nodesOfKind(trace, TraceKind::McpServer);
        QCOMPARE(servers.size(), 1);
        QCOMPARE(trace.node(servers.first()).status, TraceStatus::Error);
        QVERIFY(!trace.node(servers.first()).data<McpServerData>().error.isEmpty());

        // The next turn tries again, and says so once more.
        QVERIFY(m_session->send(u"again"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 30'000);
        QCOMPARE(notices.size(), 2);
        QCOMPARE(nodesOfKind(trace, TraceKind::McpServer).size(), 2);
    }

    void aServerThatDiesKeepsItsToolsForTheTurnAndAnswersWithAnErrorNamingIt()
    {
        skipWithoutServers();
        makeSession();
        applyMcp({McpTestServers::faultServer(u"crash-during-call"_s)}, ToolApprovalPolicy::Rule::Always);
        m_model->enqueue(
            ScriptedModelClient::calls({ScriptedModelClient::call(u"c1"_s, u"crash"_s, u"{}"_s)}));
        m_model->enqueue(ScriptedModelClient::calls(
            {ScriptedModelClient::call(u"c2"_s, u"echo"_s, uR"({"text":"hi"})"_s)}));
        m_model->enqueue(ScriptedModelClient::text(u"the server is gone"_s));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QSignalSpy notices(m_session.get(), &ChatSession::notice);
        QVERIFY(m_session->send(u"crash it"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);

        QCOMPARE(m_model->requests().size(), 3);
        const QString crashed = toolResultIn(m_model->requests().at(1), u"c1"_s);
        QVERIFY2(crashed.contains(u"fault"_s), qPrintable(crashed));
        // Its tools stay on offer for the turn; a call answers with the error naming the server.
        QVERIFY(toolNames(m_model->requests().at(2).tools).contains(u"echo"_s));
        const QString echo = toolResultIn(m_model->requests().at(2), u"c2"_s);
        QVERIFY2(echo.contains(u"The MCP server “fault” is not running"_s), qPrintable(echo));
        QCOMPARE(notices.size(), 1);
        QVERIFY2(notices.first().first().toString().startsWith(u"The MCP server “fault” stopped"_s),
                 qPrintable(notices.first().first().toString()));

        // The next turn starts it again.
        m_model->enqueue(ScriptedModelClient::calls(
            {ScriptedModelClient::call(u"c3"_s, u"echo"_s, uR"({"text":"back"})"_s)}));
        m_model->enqueue(ScriptedModelClient::text(u"it is back"_s));
        QVERIFY(m_session->send(u"again"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 30'000);
        // In this mode the server crashes again, but the call reached it: it was started again.
        const QString again = toolResultIn(m_model->requests().at(4), u"c3"_s);
        QVERIFY2(again.contains(u"during the call"_s) && !again.contains(u"not running"_s),
                 qPrintable(again));
        QCOMPARE(notices.size(), 2);
        QCOMPARE(nodesOfKind(*m_session->trace(), TraceKind::McpServer).size(), 2);
    }

    void aChangedToolListReachesTheModelFromTheNextIteration()
    {
        skipWithoutServers();
        makeSession();
        applyMcp({listChangeServer()}, ToolApprovalPolicy::Rule::Always);
        const QList<QVariant> finished = runTurnCalling(u"grow"_s, u"extra"_s);
        QVERIFY(!finished.isEmpty());
        QCOMPARE(toolNames(m_model->requests().at(0).tools), QStringList{u"grow"_s});
        QCOMPARE(toolNames(m_model->requests().at(1).tools), (QStringList{u"grow"_s, u"extra"_s}));
        QCOMPARE(toolResultIn(m_model->requests().at(2), u"c2"_s), u"extra ran"_s);
    }

    void anAgentNamingAServerGetsEveryToolOfItAndNoneOfAnothers_data()
    {
        QTest::addColumn<bool>("handedTo");
        QTest::newRow("the session's agent") << false;
        QTest::newRow("the agent a turn is handed to") << true;
    }

    void anAgentNamingAServerGetsEveryToolOfItAndNoneOfAnothers()
    {
        QFETCH(bool, handedTo);
        skipWithoutServers();
        makeSession();
        AgentPreset filer;
        filer.name = u"filer"_s;
        filer.instructions = u"Grow things."_s;
        filer.tools = QStringList{u"calculator"_s, AgentPreset::mcpServerEntry(u"grower"_s)};
        AgentPreset triage;
        triage.name = u"triage"_s;
        triage.instructions = u"Route."_s;
        triage.tools = QStringList();
        triage.handoffs = {filer.name};
        SessionSetup setup = m_session->setup();
        setup.agents.agents = {triage, filer};
        setup.agent = handedTo ? triage.name : filer.name;
        // Both offer "grow": each server's gets its prefix.
        setup.mcpServers = {listChangeServer(u"grower"_s), listChangeServer(u"other"_s)};
        setup.approvals.mcpOverride = ToolApprovalPolicy::Rule::Always;
        m_session->apply(setup);
        if (handedTo) {
            m_model->enqueue(ScriptedModelClient::calls(
                {ScriptedModelClient::call(u"h1"_s, u"transfer_to_filer"_s, uR"({"reason": "growing"})"_s)}));
        }

        // grower's "grow" adds "extra" (tools/list_changed) while the turn runs.
        const QList<QVariant> finished = runTurnCalling(u"grower_grow"_s, u"extra"_s);
        QVERIFY(!finished.isEmpty());
        const QList<ModelRequest> requests = m_model->requests();
        const qsizetype first = handedTo ? 1 : 0;
        QCOMPARE(requests.size(), first + 3);
        if (handedTo)
            QCOMPARE(toolNames(requests.at(0).tools), QStringList{u"transfer_to_filer"_s});
        QCOMPARE(toolNames(requests.at(first).tools), (QStringList{u"calculator"_s, u"grower_grow"_s}));
        QCOMPARE(toolNames(requests.at(first + 1).tools),
                 (QStringList{u"calculator"_s, u"grower_grow"_s, u"extra"_s}));
        QCOMPARE(toolResultIn(requests.at(first + 2), u"c2"_s), u"extra ran"_s);
    }

    void stoppingATurnThatWaitsForServersCancelsIt()
    {
        skipWithoutServers();
        makeSession();
        applyMcp({McpTestServers::faultServer(u"silent"_s)});
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QSignalSpy busy(m_session.get(), &ChatSession::busyChanged);
        QVERIFY(m_session->send(u"wait"_s));
        QVERIFY(m_session->isBusy());
        QCOMPARE(busy.size(), 1);
        QVERIFY(!m_session->send(u"not now"_s));
        m_session->stop();
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().value<TurnResult>().outcome, TurnOutcome::Cancelled);
        QVERIFY(!m_session->isBusy());
        QVERIFY(m_model->requests().size() <= 1);
    }

    void anElicitationWaitsForTheAnswerAndIsCancelledWhenTheTurnStops()
    {
        skipWithoutServers();
        makeSession();
        applyMcp({McpTestServers::everythingStdio()}, ToolApprovalPolicy::Rule::Always);
        m_model->enqueue(ScriptedModelClient::calls(
            {ScriptedModelClient::call(u"c1"_s, u"trigger-elicitation-request"_s, u"{}"_s)}));
        m_model->enqueue(ScriptedModelClient::text(u"done"_s));
        QSignalSpy requested(m_session.get(), &ChatSession::elicitationRequested);
        QSignalSpy settled(m_session.get(), &ChatSession::elicitationSettled);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        // The server adds its elicitation tool once it knows the client can answer (list_changed).
        QTRY_VERIFY_WITH_TIMEOUT(m_session->mcp()->resolve(u"trigger-elicitation-request"_s), 30'000);
        QVERIFY(m_session->send(u"ask me"_s));
        QTRY_COMPARE_WITH_TIMEOUT(requested.size(), 1, 30'000);
        const int id = requested.first().first().toInt();
        const auto request = requested.first().at(1).value<McpElicitation>();
        QCOMPARE(request.serverName, u"everything"_s);
        QVERIFY(m_session->agent()->isRunning());
        m_session->stop();
        QCOMPARE(settled.size(), 1);
        QCOMPARE(settled.first().first().toInt(), id);
        QVERIFY(!m_session->answerElicitation(id, {McpElicitationAnswer::Action::Accept, {}}));
        QTRY_COMPARE(finished.size(), 1);
    }

    void theTimeSpentAnsweringAServerIsAWaitNotTheMachines()
    {
        skipWithoutServers();
        makeSession();
        applyMcp({McpTestServers::everythingStdio()}, ToolApprovalPolicy::Rule::Always);
        m_model->enqueue(ScriptedModelClient::calls(
            {ScriptedModelClient::call(u"c1"_s, u"trigger-elicitation-request"_s, u"{}"_s)}));
        m_model->enqueue(ScriptedModelClient::text(u"done"_s));
        QSignalSpy requested(m_session.get(), &ChatSession::elicitationRequested);
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        QTRY_VERIFY_WITH_TIMEOUT(m_session->mcp()->resolve(u"trigger-elicitation-request"_s), 30'000);
        QVERIFY(m_session->send(u"ask me"_s));
        QTRY_COMPARE_WITH_TIMEOUT(requested.size(), 1, 30'000);
        const auto request = requested.first().at(1).value<McpElicitation>();
        QTest::qWait(600); // the user reads the question
        QVERIFY(m_session->answerElicitation(requested.first().first().toInt(),
                                             {McpElicitationAnswer::Action::Decline, {}}));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30'000);

        const Trace &trace = *m_session->trace();
        const QList<int> waits = nodesOfKind(trace, TraceKind::Wait);
        QCOMPARE(waits.size(), 1);
        const TraceNode &wait = trace.node(waits.first());
        QCOMPARE(wait.status, TraceStatus::Ok);
        QCOMPARE(wait.data<WaitData>().waitingFor, u"answer"_s);
        QCOMPARE(wait.data<WaitData>().decision, u"declined"_s);
        QCOMPARE(wait.data<WaitData>().preview, request.message);
        QVERIFY2(wait.durationUs() >= 500'000, qPrintable(QString::number(wait.durationUs())));
        // Under the tool call that asked, whose time is now the machine's part only.
        const TraceNode &tool = trace.node(wait.parent);
        QCOMPARE(tool.data<ToolCallData>().call.name, u"trigger-elicitation-request"_s);
        const StepTiming timing = stepTiming(trace, tool.id);
        QCOMPARE(timing.waitingUs, wait.durationUs());
        QVERIFY(timing.workingUs() < timing.durationUs);
        QCOMPARE(stepTiming(trace, trace.roots().constLast()).waitingUs, wait.durationUs());
    }

    void eachStepOfAnOAuthSignInIsInTheTraceAndNoTokenInTheSessionOrItsExports()
    {
        QProcess authServer;
        QString error;
        // "expire": the first token is refused after one call, so the second call refreshes it.
        const quint16 port = McpTestServers::startAuthServer(authServer, u"expire"_s, &error);
        QVERIFY2(port != 0, qPrintable(error));
        const QString base = u"http://127.0.0.1:%1"_s.arg(port);
        makeSession();
        McpTestServers::FollowingOpener browser(m_network.get());
        m_session->mcp()->setAuthorizationServices(&browser, nullptr);
        applyMcp({McpTestServers::authServer(port)}, ToolApprovalPolicy::Rule::Always);
        const QList<QVariant> finished = runTurnCalling(u"whoami"_s, u"whoami"_s);
        QVERIFY(!finished.isEmpty());
        QCOMPARE(finished.first().value<TurnResult>().outcome, TurnOutcome::Answered);

        // Nothing secret anywhere: the saved session, and each export of it.
        QTemporaryDir dir;
        const QString path = dir.filePath(u"oauth.loopscope.json"_s);
        QVERIFY2(TranscriptFile::save(m_session->toTranscript(), path, &error), qPrintable(error));
        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        const QByteArray session = saved.readAll();
        QVERIFY(session.contains("mcp_auth"));
        const Transcript transcript = m_session->toTranscript();
        const QList<QPair<QString, QByteArray>> outputs{
            {u"session file"_s, session},
            {u"HTML"_s, exportHtml(transcript)},
            {u"Markdown"_s, exportMarkdown(transcript).toUtf8()},
            {u"OTLP"_s, exportOtlpJson(transcript)},
        };
        // authserver.py's tokens, code and client secret all start with SECRET-; the PKCE verifier and
        // the state never leave the authorizer but through the browser's URL, whose query is not kept.
        for (const auto &[what, text] : outputs) {
            QVERIFY2(!text.contains("SECRET-"), qPrintable(what));
            QVERIFY2(!text.contains("code_challenge") && !text.contains("state="), qPrintable(what));
        }
        const Trace &trace = *m_session->trace();
        const auto stepsUnder = [&trace](int parent) {
            QStringList steps;
            for (const int child : trace.node(parent).children) {
                if (trace.node(child).kind == TraceKind::McpAuth) {
                    const McpAuthData &step = trace.node(child).data<McpAuthData>();
                    steps.append(u"%1 %2 %3 %4"_s.arg(step.step, step.method, step.url).arg(step.status));
                }
            }
            return steps;
        };
        // The sign-in during the start-up, under the server's node.
        const QList<int> servers = nodesOfKind(trace, TraceKind::McpServer);
        QCOMPARE(servers.size(), 1);
        QCOMPARE(stepsUnder(servers.first()),
                 (QStringList{
                     u"resource_metadata GET %1/.well-known/oauth-protected-resource/mcp 200"_s.arg(base),
                     u"authorization_server_metadata GET %1/.well-known/oauth-authorization-server 200"_s.arg(
                         base),
                     u"registration POST %1/register 201"_s.arg(base),
                     u"authorization BROWSER %1/authorize 0"_s.arg(base),
                     u"token POST %1/token 200"_s.arg(base),
                 }));
        // The refresh, under the call that needed it.
        const QList<int> calls = nodesOfKind(trace, TraceKind::ToolCall);
        QCOMPARE(calls.size(), 2);
        QCOMPARE(stepsUnder(calls.first()), QStringList());
        const QStringList refresh = stepsUnder(calls.last());
        QCOMPARE(refresh.size(), 3);
        QCOMPARE(refresh.last(), u"refresh POST %1/token 200"_s.arg(base));
        for (const int id : nodesOfKind(trace, TraceKind::McpAuth))
            QCOMPARE(trace.node(id).status, TraceStatus::Ok);

        m_session.reset();
        authServer.kill();
        authServer.waitForFinished(5000);
    }

private:
    // A turn whose model calls \a first, then \a second, then answers; the turnFinished arguments, empty
    // when the turn did not finish in time.
    QList<QVariant> runTurnCalling(const QString &first, const QString &second)
    {
        m_model->enqueue(ScriptedModelClient::calls({ScriptedModelClient::call(u"c1"_s, first, u"{}"_s)}));
        m_model->enqueue(ScriptedModelClient::calls({ScriptedModelClient::call(u"c2"_s, second, u"{}"_s)}));
        m_model->enqueue(ScriptedModelClient::text(u"done"_s));
        QSignalSpy finished(m_session->agent(), &Agent::turnFinished);
        if (!m_session->send(u"go"_s)
            || !QTest::qWaitFor([&finished] { return !finished.isEmpty(); }, 30'000))
            return {};
        return finished.first();
    }

    void skipWithoutServers()
    {
        const QString reason = McpTestServers::unavailableReason();
        if (!reason.isEmpty())
            QFAIL(qPrintable(u"The MCP test servers are not available: "_s + reason));
    }

    void makeSession()
    {
        m_session = std::make_unique<ChatSession>(m_network.get());
        m_model = std::make_unique<ScriptedModelClient>();
        AgentConfig config;
        config.toolTimeoutMs = 20'000;
        SessionSetup setup = m_session->setup();
        setup.loop = config;
        setup.tools = {{}, QDir::tempPath()};
        m_session->apply(setup);
        QVERIFY(m_session->agent()->setModelClient(m_model.get()));
    }

    // The session's MCP servers, their tools' rules overridden by \a rule when given.
    void applyMcp(const QList<McpServerConfig> &servers,
                  std::optional<ToolApprovalPolicy::Rule> rule = std::nullopt)
    {
        SessionSetup setup = m_session->setup();
        setup.mcpServers = servers;
        setup.approvals.mcpOverride = rule;
        m_session->apply(setup);
    }

    std::unique_ptr<QNetworkAccessManager> m_network;
    std::unique_ptr<ScriptedModelClient> m_model;
    std::unique_ptr<ChatSession> m_session;
};

QTEST_GUILESS_MAIN(McpHubTest)
#include "tst_mcphub.moc"
