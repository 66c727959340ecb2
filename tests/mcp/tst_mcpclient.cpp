#include "agent/mcp/httptransport.h"
#include "agent/mcp/mcpclient.h"
#include "agent/mcp/mcptool.h"
#include "tests/mcp/mcptestservers.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/floodserver.h"
#include "tests/support/processtable.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <memory>
#include <optional>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

constexpr int StartTimeoutMs = 30'000;

QStringList toolNames(const McpClient &client)
{
    QStringList names;
    for (const McpToolInfo &tool : client.tools())
        names.append(tool.name);
    return names;
}

// What the user's model answers a sampling request with when \a accepted: "Paris", one turn.
McpSamplingAnswer parisAnswer(bool accepted)
{
    McpSamplingAnswer answer;
    answer.accepted = accepted;
    if (accepted)
        answer.result = {{u"role"_s, u"assistant"_s},
                         {u"content"_s, QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"Paris"_s}}},
                         {u"model"_s, u"test-model"_s},
                         {u"stopReason"_s, u"endTurn"_s}};
    return answer;
}

bool loggedOutgoing(const QSignalSpy &spy, const QString &method)
{
    for (const QList<QVariant> &arguments : spy) {
        if (arguments.at(0).toBool()
            && arguments.at(1).toJsonObject().value(u"method"_s).toString() == method)
            return true;
    }
    return false;
}

bool processExists(qint64 pid)
{
    return ::kill(pid_t(pid), 0) == 0 || errno != ESRCH;
}

// Collects a call's outcome; the test waits until it is there.
struct CallResult
{
    std::optional<McpCallOutcome> outcome;
    QList<McpProgress> progress;
};

} // namespace

class TestMcpClient final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();

    void handshakeOverStdioNegotiatesTheVersionAndListsTools();
    void handshakeOverStreamableHttpNegotiatesTheVersionAndListsTools();
    void conditionalToolsArriveThroughListChanged();
    void toolCallsAnswerWithText_data();
    void toolCallsAnswerWithText();
    void progressReachesTheCallbackWithTotals();
    void cancellingEndsTheCallAtOnceAndTheServerHearsOfIt();
    void anMcpToolAnswersLaterWithProgressAndStopsWhenCancelled();
    void anMcpToolStartedOffItsClientsThreadIsRefused();
    void structuredContentComesWithText();
    void invalidArgumentsAreAToolErrorNotAFailure();
    void rootsListReturnsTheRootFolder();
    void changingTheRootTellsTheServer();
    void elicitationIsAnsweredByTheHandler_data();
    void elicitationIsAnsweredByTheHandler();
    void samplingIsOfferedOnlyWithAHandlerAndAnsweredByIt_data();
    void samplingIsOfferedOnlyWithAHandlerAndAnsweredByIt();
    void inputRequiredIsAnsweredAndTheCallRetried_data();
    void inputRequiredIsAnsweredAndTheCallRetried();
    void aDeclinedSamplingRequestEndsTheCallWithoutARetry();
    void aServerThatAsksForInputForeverIsGivenUpOn();
    void cancellingWhileTheUserIsAskedEndsTheCallAndALateAnswerIsDropped();
    void promptsAndResourcesAreListedAndRead();
    void filesystemServerSeesOnlyItsFolder();
    void callOverHttpWorks();

    void notJsonRpcLinesOnStdoutAreLoggedAndSkipped();
    void silentServerFailsWithATimeoutReason();
    void serverExitingDuringACallFailsTheCall();
    void pagedToolListsAreFollowedToTheEnd();
    void discoverOnlyServerIsSpokenToWithMeta();
    void serverExitingOnTheProbeIsStartedAgain();
    void logMessagesArriveAtTheChosenLevelAndAbove_data();
    void logMessagesArriveAtTheChosenLevelAndAbove();
    void theChosenLogLevelHoldsAcrossARestart();
    void theSavedLogLevelIsAskedForFromTheFirstStart();
    void anUnknownLogLevelIsRefused();
    void everythingsSimulatedLogReachesTheClient();
    void aSubscribedResourceSaysWhenItChanges_data();
    void aSubscribedResourceSaysWhenItChanges();
    void aModernServerSendsResourceUpdatesOnTheListenStream();
    void aModernHttpServerSendsResourceUpdatesOnTheListenStream();
    void aToolAnsweredWithATaskIsPolledUntilItEnds_data();
    void aToolAnsweredWithATaskIsPolledUntilItEnds();
    void aTaskThatAsksForInputIsAnsweredWithTasksUpdate_data();
    void aTaskThatAsksForInputIsAnsweredWithTasksUpdate();
    void aTaskThatNeverEndsIsCancelledWithTasksCancel();
    void aToolThatRequiresATaskIsCalledAsAnExperimentalTask_data();
    void aToolThatRequiresATaskIsCalledAsAnExperimentalTask();
    void missingCommandFailsWithAClearSentence();
    void httpUnauthorisedFailsWithAnAuthorisationSentence();
    void aConfiguredAuthorizationHeaderIsNotReplacedByASignIn();
    void httpExpiredSessionIsInitialisedAgainAndTheCallRetried();
    void httpModernServerGetsMethodHeaders();
    void theDiscoveryProbeCarriesTheProtocolVersionHeader();
    void aModernRefusalOfTheProbeIsHandledAsSuch_data();
    void aModernRefusalOfTheProbeIsHandledAsSuch();
    void aCallsAnswerWaitsForTheToolListTheServerChangedDuringIt();
    void anAnswerOverTheSizeLimitFailsTheCallAtOnce_data();
    void anAnswerOverTheSizeLimitFailsTheCallAtOnce();
    void aServerFasterThanTheHttpTransportWaitsInsteadOfFillingItsMemory();
    void aStdioLineOverTheSizeLimitFailsTheCallAtOnce();
    void destroyingTheClientLeavesNoProcess();
    void aServerStartedThroughAWrapperLeavesNoProcessOfItsGroup_data();
    void aServerStartedThroughAWrapperLeavesNoProcessOfItsGroup();

private:
    std::unique_ptr<McpClient> startedClient(const McpServerConfig &config,
                                             int startupTimeoutMs = StartTimeoutMs);
    McpCallOutcome call(McpClient &client, const QString &tool, const QJsonObject &arguments,
                        int timeoutMs = 0, QList<McpProgress> *progress = nullptr);

    // server-everything over Streamable HTTP, started by the first test that needs it.
    bool startHttpServer(QString *error);

    QNetworkAccessManager m_network;
    QProcess *m_httpServer = nullptr;
    quint16 m_httpPort = 0;
};

void TestMcpClient::initTestCase()
{
    const QString reason = McpTestServers::unavailableReason();
    QVERIFY2(reason.isEmpty(), qPrintable(reason));
    QVERIFY2(!McpTestServers::pythonProgram().isEmpty(), "python3 is needed for the fault server");
}

void TestMcpClient::cleanupTestCase()
{
    if (m_httpServer) {
        m_httpServer->terminate();
        m_httpServer->waitForFinished(5000);
        delete m_httpServer;
    }
}

std::unique_ptr<McpClient> TestMcpClient::startedClient(const McpServerConfig &config, int startupTimeoutMs)
{
    auto client = std::make_unique<McpClient>(config, &m_network);
    client->setStartupTimeoutMs(startupTimeoutMs);
    client->start();
    return client;
}

McpCallOutcome TestMcpClient::call(McpClient &client, const QString &tool, const QJsonObject &arguments,
                                   int timeoutMs, QList<McpProgress> *progress)
{
    auto result = std::make_shared<CallResult>();
    client.callTool(
        tool, arguments, timeoutMs, [result](const McpProgress &p) { result->progress.append(p); },
        [result](const McpCallOutcome &outcome) { result->outcome = outcome; });
    if (!QTest::qWaitFor([&] { return result->outcome.has_value(); }, 30'000))
        return McpCallOutcome{u"the test gave up waiting for the call"_s};
    if (progress)
        *progress = result->progress;
    return *result->outcome;
}

#define WAIT_READY(client)                                                                                   \
    QTRY_VERIFY_WITH_TIMEOUT((client)->state() != McpClient::State::Starting, StartTimeoutMs);               \
    QVERIFY2((client)->state() == McpClient::State::Ready, qPrintable((client)->failureReason()))

void TestMcpClient::handshakeOverStdioNegotiatesTheVersionAndListsTools()
{
    auto client = startedClient(McpTestServers::everythingStdio());
    QSignalSpy states(client.get(), &McpClient::stateChanged);
    WAIT_READY(client);
    QCOMPARE(states.first().first().value<McpClient::State>(), McpClient::State::Ready);
    const McpStartupInfo info = client->startupInfo().value();
    QCOMPARE(info.protocolVersion, u"2025-11-25"_s);
    QVERIFY(!info.discovered);
    QVERIFY(!info.serverInfo.value(u"name"_s).toString().isEmpty());
    QVERIFY(info.toolCount > 0);
    QVERIFY(info.serverCapabilities.contains(u"tools"_s));
    QVERIFY(info.exchange.size() >= 4); // discover, its error, initialize, its result, …
    QCOMPARE(info.exchange.first().value(u"method"_s).toString(), u"server/discover"_s);
    const QStringList names = toolNames(*client);
    for (const QString &expected : {u"echo"_s, u"get-sum"_s, u"trigger-long-running-operation"_s})
        QVERIFY2(names.contains(expected), qPrintable(names.join(u", "_s)));
    QVERIFY(client->processId() > 0);
}

bool TestMcpClient::startHttpServer(QString *error)
{
    if (m_httpPort)
        return true;
    if (!m_httpServer)
        m_httpServer = new QProcess;
    m_httpPort = McpTestServers::startEverythingHttp(*m_httpServer, error);
    return m_httpPort != 0;
}

void TestMcpClient::handshakeOverStreamableHttpNegotiatesTheVersionAndListsTools()
{
    QString error;
    QVERIFY2(startHttpServer(&error), qPrintable(error));
    auto client = startedClient(McpTestServers::httpServer(m_httpPort));
    WAIT_READY(client);
    const McpStartupInfo info = client->startupInfo().value();
    QCOMPARE(info.protocolVersion, u"2025-11-25"_s);
    QVERIFY(!info.discovered);
    QVERIFY(info.toolCount > 0);
    QVERIFY(toolNames(*client).contains(u"echo"_s));
    QCOMPARE(client->processId(), 0);
}

void TestMcpClient::conditionalToolsArriveThroughListChanged()
{
    auto client = std::make_unique<McpClient>(McpTestServers::everythingStdio(), &m_network);
    QSignalSpy toolsChanged(client.get(), &McpClient::toolsChanged);
    client->start();
    WAIT_READY(client);
    // The server registers them once it knows the client's capabilities. Its list_changed may come
    // while start-up still lists (then the first list has them) or after (then toolsChanged says so).
    const bool inFirstList = toolNames(*client).contains(u"get-roots-list"_s);
    QTRY_VERIFY_WITH_TIMEOUT(toolNames(*client).contains(u"get-roots-list"_s), 10'000);
    if (!inFirstList)
        QVERIFY(toolsChanged.count() >= 1);
    QVERIFY(toolNames(*client).contains(u"trigger-elicitation-request"_s));
}

void TestMcpClient::toolCallsAnswerWithText_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QJsonObject>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("echo") << u"echo"_s << QJsonObject{{u"message"_s, u"hello MCP"_s}} << u"hello MCP"_s;
    QTest::newRow("get-sum") << u"get-sum"_s << QJsonObject{{u"a"_s, 2}, {u"b"_s, 40}} << u"42"_s;
}

void TestMcpClient::toolCallsAnswerWithText()
{
    QFETCH(QString, tool);
    QFETCH(QJsonObject, arguments);
    QFETCH(QString, expected);
    auto client = startedClient(McpTestServers::everythingStdio());
    WAIT_READY(client);
    const McpCallOutcome outcome = call(*client, tool, arguments);
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QVERIFY(!outcome.isError);
    QVERIFY2(outcome.text.contains(expected), qPrintable(outcome.text));
    QCOMPARE(outcome.request.value(u"method"_s).toString(), u"tools/call"_s);
    QCOMPARE(outcome.response.value(u"id"_s), outcome.request.value(u"id"_s));
    QVERIFY(outcome.result.contains(u"content"_s));
}

void TestMcpClient::progressReachesTheCallbackWithTotals()
{
    auto client = startedClient(McpTestServers::everythingStdio());
    WAIT_READY(client);
    QList<McpProgress> progress;
    const McpCallOutcome outcome = call(*client, u"trigger-long-running-operation"_s,
                                        {{u"duration"_s, 1}, {u"steps"_s, 3}}, 0, &progress);
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QCOMPARE(progress.size(), 3);
    QCOMPARE(outcome.progress, progress);
    QCOMPARE(progress.last().progress, 3.0);
    QCOMPARE(progress.last().total, std::optional<double>(3.0));
}

void TestMcpClient::cancellingEndsTheCallAtOnceAndTheServerHearsOfIt()
{
    auto client = startedClient(McpTestServers::everythingStdio());
    WAIT_READY(client);
    QSignalSpy log(client.get(), &McpClient::messageLogged);
    auto result = std::make_shared<CallResult>();
    const qint64 id = client->callTool(
        u"trigger-long-running-operation"_s, {{u"duration"_s, 20}, {u"steps"_s, 20}}, 0,
        [result](const McpProgress &p) { result->progress.append(p); },
        [result](const McpCallOutcome &outcome) { result->outcome = outcome; });
    QTRY_VERIFY_WITH_TIMEOUT(!result->progress.isEmpty(), 10'000); // the server is working on it
    client->cancelCall(id, u"The user stopped it."_s);
    QVERIFY(result->outcome.has_value()); // at once, not later
    QVERIFY(result->outcome->cancelled);
    QVERIFY(!result->outcome->failure.isEmpty());
    QVERIFY(loggedOutgoing(log, u"notifications/cancelled"_s));
    // The connection goes on.
    const McpCallOutcome next = call(*client, u"echo"_s, {{u"message"_s, u"still here"_s}});
    QVERIFY2(next.failure.isEmpty(), qPrintable(next.failure));
    QVERIFY(next.text.contains(u"still here"_s));
    QCOMPARE(client->state(), McpClient::State::Ready);
}

McpTool toolOf(McpClient &client, const QString &name)
{
    for (const McpToolInfo &info : client.tools()) {
        if (info.name == name)
            return McpTool(&client, client.config().name, info, name, {});
    }
    return McpTool(&client, client.config().name, {}, name, {});
}

void TestMcpClient::anMcpToolAnswersLaterWithProgressAndStopsWhenCancelled()
{
    auto client = startedClient(McpTestServers::everythingStdio());
    WAIT_READY(client);
    QSignalSpy log(client.get(), &McpClient::messageLogged);
    const McpTool tool = toolOf(*client, u"trigger-long-running-operation"_s);
    QStringList progress;
    const auto context
        = std::make_shared<ToolContext>([&progress](const QString &text) { progress.append(text); });

    QFuture<ToolResult> future = tool.start({{u"duration"_s, 20}, {u"steps"_s, 20}}, context);

    QTRY_VERIFY_WITH_TIMEOUT(!progress.isEmpty(), 10'000); // on this thread, while the server works
    QVERIFY(!future.isFinished());
    context->cancel();
    QVERIFY(future.isFinished()); // at once, not later
    QVERIFY(future.result().isError);
    QVERIFY(future.result().details[u"mcp"_s][u"cancelled"_s].toBool());
    QVERIFY(loggedOutgoing(log, u"notifications/cancelled"_s));
    QCOMPARE(client->state(), McpClient::State::Ready);
}

void TestMcpClient::anMcpToolStartedOffItsClientsThreadIsRefused()
{
    auto client = startedClient(McpTestServers::everythingStdio());
    WAIT_READY(client);
    QSignalSpy log(client.get(), &McpClient::messageLogged);
    const McpTool tool = toolOf(*client, u"echo"_s);

    QFuture<ToolResult> future = QtConcurrent::run([&tool] {
        return tool.start({{u"message"_s, u"hi"_s}}, std::make_shared<ToolContext>()).result();
    });

    QTRY_VERIFY(future.isFinished());
    QVERIFY(future.result().isError);
    QVERIFY2(future.result().content.contains(u"another thread"_s), qPrintable(future.result().content));
    QTest::qWait(50);
    QVERIFY(!loggedOutgoing(log, u"tools/call"_s));
}

void TestMcpClient::structuredContentComesWithText()
{
    auto client = startedClient(McpTestServers::everythingStdio());
    WAIT_READY(client);
    const McpCallOutcome outcome
        = call(*client, u"get-structured-content"_s, {{u"location"_s, u"New York"_s}});
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QVERIFY(outcome.result.value(u"structuredContent"_s).toObject().contains(u"temperature"_s));
    QVERIFY(!outcome.text.isEmpty());
    const McpToolInfo tool = [&] {
        for (const McpToolInfo &t : client->tools())
            if (t.name == u"get-structured-content"_s)
                return t;
        return McpToolInfo{};
    }();
    QVERIFY(!tool.outputSchema.isEmpty());
}

void TestMcpClient::invalidArgumentsAreAToolErrorNotAFailure()
{
    auto client = startedClient(McpTestServers::everythingStdio());
    WAIT_READY(client);
    const McpCallOutcome outcome = call(*client, u"get-sum"_s, {{u"a"_s, u"not a number"_s}});
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QVERIFY(outcome.isError);
    QVERIFY(!outcome.text.isEmpty());
}

void TestMcpClient::rootsListReturnsTheRootFolder()
{
    QTemporaryDir root;
    QVERIFY(root.isValid());
    auto client = std::make_unique<McpClient>(McpTestServers::everythingStdio(), &m_network);
    client->setRootFolder(root.path());
    client->start();
    WAIT_READY(client);
    QTRY_VERIFY_WITH_TIMEOUT(toolNames(*client).contains(u"get-roots-list"_s), 10'000);
    const McpCallOutcome outcome = call(*client, u"get-roots-list"_s, {});
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QVERIFY2(outcome.text.contains(QUrl::fromLocalFile(root.path()).toString()), qPrintable(outcome.text));
}

void TestMcpClient::changingTheRootTellsTheServer()
{
    QTemporaryDir first;
    QTemporaryDir second;
    QVERIFY(first.isValid() && second.isValid());
    auto client = std::make_unique<McpClient>(McpTestServers::everythingStdio(), &m_network);
    client->setRootFolder(first.path());
    client->start();
    WAIT_READY(client);
    QTRY_VERIFY_WITH_TIMEOUT(toolNames(*client).contains(u"get-roots-list"_s), 10'000);
    QSignalSpy log(client.get(), &McpClient::messageLogged);
    client->setRootFolder(second.path());
    QVERIFY(loggedOutgoing(log, u"notifications/roots/list_changed"_s));
    const QString secondUri = QUrl::fromLocalFile(second.path()).toString();
    // The server asks for the roots again; the tool then shows the new one.
    QTRY_VERIFY_WITH_TIMEOUT(call(*client, u"get-roots-list"_s, {}).text.contains(secondUri), 10'000);
}

void TestMcpClient::elicitationIsAnsweredByTheHandler_data()
{
    QTest::addColumn<bool>("withHandler");
    QTest::addColumn<QString>("expected");
    QTest::newRow("accepted with content") << true << u"Ada Lovelace"_s;
    QTest::newRow("declined without a handler") << false << u"declined"_s;
}

void TestMcpClient::elicitationIsAnsweredByTheHandler()
{
    QFETCH(bool, withHandler);
    QFETCH(QString, expected);
    auto client = std::make_unique<McpClient>(McpTestServers::everythingStdio(), &m_network);
    QString askedMessage;
    if (withHandler) {
        client->setElicitationHandler(
            [&askedMessage](const McpElicitation &elicitation, McpClient::ElicitationReply reply) {
                askedMessage = elicitation.message;
                McpElicitationAnswer answer;
                answer.action = McpElicitationAnswer::Action::Accept;
                answer.content = {{u"name"_s, u"Ada Lovelace"_s}, {u"check"_s, true}};
                reply(answer);
            });
    }
    client->start();
    WAIT_READY(client);
    QTRY_VERIFY_WITH_TIMEOUT(toolNames(*client).contains(u"trigger-elicitation-request"_s), 10'000);
    const McpCallOutcome outcome = call(*client, u"trigger-elicitation-request"_s, {});
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QVERIFY2(outcome.text.contains(expected), qPrintable(outcome.text));
    QCOMPARE(askedMessage.isEmpty(), !withHandler);
}

void TestMcpClient::samplingIsOfferedOnlyWithAHandlerAndAnsweredByIt_data()
{
    QTest::addColumn<bool>("accept");
    QTest::addColumn<QString>("expected");
    QTest::newRow("accepted: the server reads the model's answer") << true << u"Paris"_s;
    QTest::newRow("declined: the server hears the spec's refusal")
        << false << u"User rejected sampling request"_s;
}

void TestMcpClient::samplingIsOfferedOnlyWithAHandlerAndAnsweredByIt()
{
    QFETCH(bool, accept);
    QFETCH(QString, expected);
    // Without a handler the client does not declare sampling, and server-everything offers no sampling tool.
    {
        auto plain = startedClient(McpTestServers::everythingStdio());
        WAIT_READY(plain);
        QTRY_VERIFY_WITH_TIMEOUT(toolNames(*plain).contains(u"trigger-elicitation-request"_s), 10'000);
        QVERIFY(!toolNames(*plain).contains(u"trigger-sampling-request"_s));
    }
    auto client = std::make_unique<McpClient>(McpTestServers::everythingStdio(), &m_network);
    std::optional<McpSamplingRequest> asked;
    client->setSamplingHandler(
        [&asked, accept](const McpSamplingRequest &request, McpClient::SamplingReply reply) {
            asked = request;
            reply(parisAnswer(accept));
        });
    client->start();
    WAIT_READY(client);
    QTRY_VERIFY_WITH_TIMEOUT(toolNames(*client).contains(u"trigger-sampling-request"_s), 10'000);
    const McpCallOutcome outcome = call(*client, u"trigger-sampling-request"_s,
                                        {{u"prompt"_s, u"capital of France"_s}, {u"maxTokens"_s, 42}});
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QVERIFY2(outcome.text.contains(expected), qPrintable(outcome.text));
    QCOMPARE(outcome.isError, !accept);
    QVERIFY(asked);
    QCOMPARE(asked->serverName, u"everything"_s);
    QCOMPARE(asked->maxTokens, 42);
    QCOMPARE(asked->systemPrompt, u"You are a helpful test server."_s);
    QCOMPARE(asked->messages.size(), 1);
    QVERIFY(asked->messages.first()[u"content"_s][u"text"_s].toString().contains(u"capital of France"_s));
}

void TestMcpClient::inputRequiredIsAnsweredAndTheCallRetried_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("acceptForm");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("samplings");
    QTest::addColumn<QStringList>("statesSent");
    QTest::newRow("a model call") << u"sample"_s << true << u"summary: Paris (test-model, endTurn)"_s << 1
                                  << QStringList{u"None"_s, u"round-1"_s};
    QTest::newRow("a form, accepted") << u"ask"_s << true << u"name: accept {\"name\": \"Ada\"}"_s << 0
                                      << QStringList{u"None"_s, u"round-1"_s};
    QTest::newRow("a form, declined: still an answer")
        << u"ask"_s << false << u"name: decline {}"_s << 0 << QStringList{u"None"_s, u"round-1"_s};
    QTest::newRow("both at once")
        << u"both"_s << true << u"name: accept {\"name\": \"Ada\"}; summary: Paris (test-model, endTurn)"_s
        << 1 << QStringList{u"None"_s, u"round-1"_s};
    QTest::newRow("a page to open, accepted: nothing but the consent goes back")
        << u"link"_s << true << u"link: accept {}"_s << 0 << QStringList{u"None"_s, u"round-1"_s};
    QTest::newRow("two rounds") << u"again"_s << true << u"summary: Paris (test-model, endTurn)"_s << 2
                                << QStringList{u"None"_s, u"round-1"_s, u"round-2"_s};
}

void TestMcpClient::inputRequiredIsAnsweredAndTheCallRetried()
{
    QFETCH(QString, text);
    QFETCH(bool, acceptForm);
    QFETCH(QString, expected);
    QFETCH(int, samplings);
    QFETCH(QStringList, statesSent);
    auto client = std::make_unique<McpClient>(McpTestServers::faultServer(u"mrtr"_s), &m_network);
    int sampled = 0;
    client->setSamplingHandler([&sampled](const McpSamplingRequest &request, McpClient::SamplingReply reply) {
        ++sampled;
        QCOMPARE(request.serverName, u"fault"_s);
        QCOMPARE(request.systemPrompt, u"Answer in one word."_s);
        QCOMPARE(request.maxTokens, 20);
        QCOMPARE(request.preferredModel(), u"claude-3-sonnet"_s);
        McpSamplingAnswer answer = parisAnswer(true);
        answer.usage.inputTokens = 10;
        answer.usage.outputTokens = 1;
        reply(answer);
    });
    client->setElicitationHandler(
        [acceptForm](const McpElicitation &request, McpClient::ElicitationReply reply) {
            if (request.isUrl()) {
                QCOMPARE(request.url, QUrl(u"https://example.com/sign?id=7"_s));
                QCOMPARE(request.message, u"Sign the form on our site."_s);
                reply({McpElicitationAnswer::Action::Accept, {}});
                return;
            }
            QCOMPARE(request.message, u"Your name?"_s);
            reply({acceptForm ? McpElicitationAnswer::Action::Accept : McpElicitationAnswer::Action::Decline,
                   acceptForm ? QJsonObject{{u"name"_s, u"Ada"_s}} : QJsonObject{}});
        });
    client->start();
    WAIT_READY(client);
    const McpCallOutcome outcome = call(*client, u"echo"_s, {{u"text"_s, text}});
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QCOMPARE(outcome.text, expected);
    QCOMPARE(sampled, samplings);
    QCOMPARE(outcome.samplingUsage.total(), 11 * samplings);
    // Each retry is a new request that echoes the server's requestState exactly.
    QStringList states;
    for (const QString &line : client->stderrTail()) {
        if (line.startsWith(u"tools/call "_s))
            states.append(line.section(u"state="_s, 1));
    }
    QCOMPARE(states, statesSent);
    QCOMPARE(outcome.request[u"params"_s][u"requestState"_s].toString(), statesSent.constLast());
}

void TestMcpClient::aDeclinedSamplingRequestEndsTheCallWithoutARetry()
{
    auto client = std::make_unique<McpClient>(McpTestServers::faultServer(u"mrtr"_s), &m_network);
    client->setSamplingHandler([](const McpSamplingRequest &, McpClient::SamplingReply reply) { reply({}); });
    client->start();
    WAIT_READY(client);
    const McpCallOutcome outcome = call(*client, u"echo"_s, {{u"text"_s, u"sample"_s}});
    QVERIFY2(outcome.failure.contains(u"declined"_s), qPrintable(outcome.failure));
    const QStringList log = client->stderrTail();
    QCOMPARE(std::count_if(log.cbegin(), log.cend(),
                           [](const QString &line) { return line.startsWith(u"tools/call"_s); }),
             1);
}

void TestMcpClient::aServerThatAsksForInputForeverIsGivenUpOn()
{
    auto client = startedClient(McpTestServers::faultServer(u"mrtr"_s));
    WAIT_READY(client);
    const McpCallOutcome outcome = call(*client, u"echo"_s, {{u"text"_s, u"forever"_s}});
    QVERIFY2(outcome.failure.contains(u"gave up"_s), qPrintable(outcome.failure));
}

void TestMcpClient::cancellingWhileTheUserIsAskedEndsTheCallAndALateAnswerIsDropped()
{
    auto client = std::make_unique<McpClient>(McpTestServers::faultServer(u"mrtr"_s), &m_network);
    McpClient::SamplingReply held;
    client->setSamplingHandler(
        [&held](const McpSamplingRequest &, McpClient::SamplingReply reply) { held = std::move(reply); });
    client->start();
    WAIT_READY(client);
    std::optional<McpCallOutcome> outcome;
    const qint64 callId = client->callTool(u"echo"_s, {{u"text"_s, u"sample"_s}}, 0, {},
                                           [&outcome](const McpCallOutcome &o) { outcome = o; });
    QTRY_VERIFY(held);
    client->cancelCall(callId, u"Stop pressed"_s);
    QVERIFY(outcome && outcome->cancelled);
    McpSamplingAnswer late;
    late.accepted = true;
    held(late);
    // Nothing is retried for a call that ended: a retry would reach the server before this next call.
    QCOMPARE(call(*client, u"echo"_s, {{u"text"_s, u"after"_s}}).text, u"Modern echo: after"_s);
    QTRY_VERIFY(client->stderrTail().join(u'\n').contains(u"tools/call after"_s));
    const QStringList log = client->stderrTail();
    QCOMPARE(std::count_if(log.cbegin(), log.cend(),
                           [](const QString &line) { return line.startsWith(u"tools/call sample"_s); }),
             1);
}

void TestMcpClient::promptsAndResourcesAreListedAndRead()
{
    auto client = startedClient(McpTestServers::everythingStdio());
    WAIT_READY(client);
    QVERIFY(!client->prompts().isEmpty());
    QVERIFY(!client->resources().isEmpty());
    bool hasArgsPrompt = false;
    for (const McpPromptInfo &prompt : client->prompts())
        hasArgsPrompt |= prompt.name == u"args-prompt"_s && !prompt.arguments.isEmpty();
    QVERIFY(hasArgsPrompt);

    std::optional<std::pair<QString, QString>> prompt;
    client->getPrompt(u"args-prompt"_s, {{u"city"_s, u"Lisbon"_s}},
                      [&prompt](const QString &text, const QString &error) {
                          prompt = {text, error};
                      });
    QTRY_VERIFY_WITH_TIMEOUT(prompt.has_value(), 10'000);
    QVERIFY2(prompt->second.isEmpty(), qPrintable(prompt->second));
    QVERIFY2(prompt->first.contains(u"Lisbon"_s), qPrintable(prompt->first));

    std::optional<std::pair<QString, QString>> resource;
    const McpResourceInfo first = client->resources().first();
    client->readResource(first.uri, [&resource](const QString &text, const QString &error) {
        resource = {text, error};
    });
    QTRY_VERIFY_WITH_TIMEOUT(resource.has_value(), 10'000);
    QVERIFY2(resource->second.isEmpty(), qPrintable(resource->second));
    QVERIFY(!resource->first.isEmpty());
}

void TestMcpClient::filesystemServerSeesOnlyItsFolder()
{
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QFile file(folder.filePath(u"note.txt"_s));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("written by the test\n");
    file.close();
    auto client = startedClient(McpTestServers::filesystemStdio(folder.path()));
    WAIT_READY(client);
    const McpCallOutcome allowed = call(*client, u"list_allowed_directories"_s, {});
    QVERIFY2(allowed.failure.isEmpty(), qPrintable(allowed.failure));
    QVERIFY2(allowed.text.contains(QFileInfo(folder.path()).canonicalFilePath())
                 || allowed.text.contains(folder.path()),
             qPrintable(allowed.text));
    const QString readTool
        = toolNames(*client).contains(u"read_text_file"_s) ? u"read_text_file"_s : u"read_file"_s;
    const McpCallOutcome read = call(*client, readTool, {{u"path"_s, file.fileName()}});
    QVERIFY2(read.failure.isEmpty(), qPrintable(read.failure));
    QVERIFY2(read.text.contains(u"written by the test"_s), qPrintable(read.text));
    const McpCallOutcome outside = call(*client, readTool, {{u"path"_s, u"/etc/hostname"_s}});
    QVERIFY(outside.isError || !outside.failure.isEmpty());
}

void TestMcpClient::callOverHttpWorks()
{
    QString error;
    QVERIFY2(startHttpServer(&error), qPrintable(error)); // also when this test runs alone
    auto client = startedClient(McpTestServers::httpServer(m_httpPort));
    WAIT_READY(client);
    QList<McpProgress> progress;
    const McpCallOutcome outcome = call(*client, u"trigger-long-running-operation"_s,
                                        {{u"duration"_s, 1}, {u"steps"_s, 2}}, 0, &progress);
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QCOMPARE(progress.size(), 2);
    QTRY_VERIFY_WITH_TIMEOUT(toolNames(*client).contains(u"trigger-elicitation-request"_s), 10'000);
    const McpCallOutcome declined = call(*client, u"trigger-elicitation-request"_s, {});
    QVERIFY2(declined.failure.isEmpty(), qPrintable(declined.failure));
    QVERIFY2(declined.text.contains(u"declined"_s), qPrintable(declined.text));
}

void TestMcpClient::notJsonRpcLinesOnStdoutAreLoggedAndSkipped()
{
    auto client = startedClient(McpTestServers::faultServer(u"garbage"_s));
    WAIT_READY(client);
    const McpCallOutcome outcome = call(*client, u"echo"_s, {{u"text"_s, u"through the noise"_s}});
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QCOMPARE(outcome.text, u"Echo: through the noise"_s);
    QVERIFY(client->stderrTail().join(u'\n').contains(u"[stdout, not JSON-RPC] this line is not JSON"_s));
}

void TestMcpClient::silentServerFailsWithATimeoutReason()
{
    auto client = startedClient(McpTestServers::faultServer(u"silent"_s, u"quiet"_s), 1500);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, 10'000);
    QVERIFY2(client->failureReason().contains(u"“quiet”"_s), qPrintable(client->failureReason()));
    QVERIFY2(client->failureReason().contains(u"within 1.5 s"_s), qPrintable(client->failureReason()));
}

void TestMcpClient::serverExitingDuringACallFailsTheCall()
{
    auto client = startedClient(McpTestServers::faultServer(u"crash-during-call"_s, u"crashy"_s));
    WAIT_READY(client);
    const McpCallOutcome outcome = call(*client, u"echo"_s, {{u"text"_s, u"x"_s}});
    QVERIFY2(outcome.failure.contains(u"“crashy” exited (code 3) during the call"_s),
             qPrintable(outcome.failure));
    QVERIFY2(outcome.failure.contains(u"crashing in the middle"_s), qPrintable(outcome.failure));
    QVERIFY(outcome.stderrLines.join(u'\n').contains(u"crashing in the middle"_s));
    QCOMPARE(client->state(), McpClient::State::Failed);
}

void TestMcpClient::pagedToolListsAreFollowedToTheEnd()
{
    auto client = startedClient(McpTestServers::faultServer(u"paged"_s));
    WAIT_READY(client);
    QStringList expected;
    for (int i = 0; i < 7; ++i)
        expected.append(u"paged-%1"_s.arg(i));
    QCOMPARE(toolNames(*client), expected);
    QCOMPARE(client->startupInfo()->toolCount, 7);
}

void TestMcpClient::discoverOnlyServerIsSpokenToWithMeta()
{
    auto client = startedClient(McpTestServers::faultServer(u"discover-only"_s));
    WAIT_READY(client);
    const McpStartupInfo info = client->startupInfo().value();
    QVERIFY(info.discovered);
    QCOMPARE(info.protocolVersion, u"2026-07-28"_s);
    QCOMPARE(info.serverInfo.value(u"name"_s).toString(), u"fault-discover-only"_s);
    QCOMPARE(info.instructions, u"Modern only."_s);
    QCOMPARE(toolNames(*client), QStringList{u"echo"_s});
    const McpCallOutcome outcome = call(*client, u"echo"_s, {{u"text"_s, u"now"_s}});
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QCOMPARE(outcome.text, u"Modern echo: now"_s);
    QCOMPARE(outcome.request.value(u"params"_s)
                 .toObject()
                 .value(u"_meta"_s)
                 .toObject()
                 .value(u"io.modelcontextprotocol/protocolVersion"_s)
                 .toString(),
             u"2026-07-28"_s);
}

void TestMcpClient::logMessagesArriveAtTheChosenLevelAndAbove_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("level");
    QTest::addColumn<QStringList>("expected");
    const QStringList all = McpLogMessage::levels();
    QTest::newRow("2025: the server's default") << u"logging"_s << QString() << all;
    QTest::newRow("2025: logging/setLevel error") << u"logging"_s << u"error"_s << all.mid(4);
    QTest::newRow("2026: none unless asked") << u"logging-modern"_s << QString() << QStringList();
    QTest::newRow("2026: logLevel in _meta") << u"logging-modern"_s << u"critical"_s << all.mid(5);
}

void TestMcpClient::logMessagesArriveAtTheChosenLevelAndAbove()
{
    QFETCH(QString, mode);
    QFETCH(QString, level);
    QFETCH(QStringList, expected);
    auto client = startedClient(McpTestServers::faultServer(mode));
    WAIT_READY(client);
    QVERIFY(client->supportsLogging());
    QSignalSpy messages(client.get(), &McpClient::logMessage);
    if (!level.isEmpty()) {
        std::optional<QString> error;
        client->setLogLevel(level, [&error](const QString &e) { error = e; });
        QTRY_VERIFY(error.has_value());
        QVERIFY2(error->isEmpty(), qPrintable(*error));
        QCOMPARE(client->logLevel(), level);
    }
    const McpCallOutcome outcome = call(*client, u"echo"_s, {{u"text"_s, u"hi"_s}});
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    // The server sends its messages before the answer, on the same stream.
    QStringList levels;
    for (const QList<QVariant> &arguments : std::as_const(messages))
        levels.append(arguments.constFirst().value<McpLogMessage>().level);
    QCOMPARE(levels, expected);
    QCOMPARE(client->logTail().size(), expected.size());
    if (!expected.isEmpty()) {
        const McpLogMessage first = client->logTail().constFirst();
        QCOMPARE(first.logger, u"fault.db"_s);
        QCOMPARE(first.data.toObject().value(u"level"_s).toString(), expected.constFirst());
        QCOMPARE(first.text(), u"[%1] fault.db: {\"level\":\"%1\",\"n\":%2}"_s.arg(expected.constFirst())
                                   .arg(McpLogMessage::levels().indexOf(expected.constFirst())));
    }
}

void TestMcpClient::theChosenLogLevelHoldsAcrossARestart()
{
    auto client = startedClient(McpTestServers::faultServer(u"logging"_s));
    WAIT_READY(client);
    client->setLogLevel(u"alert"_s);
    client->restart();
    WAIT_READY(client);
    QSignalSpy messages(client.get(), &McpClient::logMessage);
    const McpCallOutcome outcome = call(*client, u"echo"_s, {});
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QCOMPARE(messages.count(), 2); // alert and emergency: the new process was told the level again
}

void TestMcpClient::theSavedLogLevelIsAskedForFromTheFirstStart()
{
    McpServerConfig config = McpTestServers::faultServer(u"logging"_s);
    config.logLevel = u"alert"_s; // as Settings → MCP Servers saved it
    auto client = startedClient(config);
    WAIT_READY(client);
    QCOMPARE(client->logLevel(), u"alert"_s);
    QSignalSpy messages(client.get(), &McpClient::logMessage);
    const McpCallOutcome outcome = call(*client, u"echo"_s, {});
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QCOMPARE(messages.count(), 2); // alert and emergency, not the six below
}

void TestMcpClient::anUnknownLogLevelIsRefused()
{
    auto client = startedClient(McpTestServers::faultServer(u"logging"_s));
    WAIT_READY(client);
    std::optional<QString> error;
    client->setLogLevel(u"verbose"_s, [&error](const QString &e) { error = e; });
    QVERIFY(error.has_value());
    QVERIFY2(error->contains(u"verbose"_s) && error->contains(u"debug"_s), qPrintable(*error));
    QCOMPARE(client->logLevel(), QString());
}

void TestMcpClient::everythingsSimulatedLogReachesTheClient()
{
    auto client = startedClient(McpTestServers::everythingStdio());
    WAIT_READY(client);
    QVERIFY(client->supportsLogging());
    std::optional<QString> error;
    client->setLogLevel(u"debug"_s, [&error](const QString &e) { error = e; });
    QTRY_VERIFY(error.has_value());
    QVERIFY2(error->isEmpty(), qPrintable(*error));
    QSignalSpy messages(client.get(), &McpClient::logMessage);
    // It sends one message of a random level at once, then one every 5 s until toggled off.
    const McpCallOutcome on = call(*client, u"toggle-simulated-logging"_s, {});
    QVERIFY2(on.failure.isEmpty(), qPrintable(on.failure));
    QTRY_VERIFY(messages.count() >= 1);
    const McpLogMessage message = messages.constFirst().constFirst().value<McpLogMessage>();
    QVERIFY2(McpLogMessage::levels().contains(message.level), qPrintable(message.level));
    QVERIFY2(message.data.toString().contains(u"message"_s, Qt::CaseInsensitive), qPrintable(message.text()));
    call(*client, u"toggle-simulated-logging"_s, {});
}

void TestMcpClient::aSubscribedResourceSaysWhenItChanges_data()
{
    QTest::addColumn<bool>("overHttp");
    QTest::newRow("stdio") << false;
    QTest::newRow("Streamable HTTP, on the GET stream") << true;
}

void TestMcpClient::aSubscribedResourceSaysWhenItChanges()
{
    QFETCH(bool, overHttp);
    McpServerConfig config = McpTestServers::everythingStdio();
    if (overHttp) {
        QString error;
        QVERIFY2(startHttpServer(&error), qPrintable(error));
        config = McpTestServers::httpServer(m_httpPort);
    }
    auto client = startedClient(config);
    WAIT_READY(client);
    QVERIFY(client->supportsResourceSubscriptions());
    QVERIFY(!client->resources().isEmpty());
    const QString uri = client->resources().constFirst().uri;
    QSignalSpy updated(client.get(), &McpClient::resourceUpdated);
    std::optional<QString> subscribed;
    client->subscribeResource(uri, [&subscribed](const QString &error) { subscribed = error; });
    QTRY_VERIFY_WITH_TIMEOUT(subscribed.has_value(), 10'000);
    QVERIFY2(subscribed->isEmpty(), qPrintable(*subscribed));
    QCOMPARE(client->subscribedResources(), QStringList{uri});

    // server-everything sends its simulated updates once this tool is called: at once, then every 5 s.
    const McpCallOutcome on = call(*client, u"toggle-subscriber-updates"_s, {});
    QVERIFY2(on.failure.isEmpty(), qPrintable(on.failure));
    QTRY_VERIFY_WITH_TIMEOUT(!updated.isEmpty(), 10'000);
    QCOMPARE(updated.constFirst().constFirst().toString(), uri);

    client->unsubscribeResource(uri);
    QVERIFY(client->subscribedResources().isEmpty());
    call(*client, u"toggle-subscriber-updates"_s, {});
}

void TestMcpClient::aModernServerSendsResourceUpdatesOnTheListenStream()
{
    auto client = startedClient(McpTestServers::faultServer(u"subscriptions"_s));
    WAIT_READY(client);
    QVERIFY(client->supportsResourceSubscriptions());
    QSignalSpy updated(client.get(), &McpClient::resourceUpdated);
    QSignalSpy logged(client.get(), &McpClient::messageLogged);
    const auto touch = [this, &client](const QString &uri) {
        return call(*client, u"echo"_s, {{u"text"_s, QString(u"touch "_s + uri)}}).failure;
    };

    std::optional<QString> subscribed;
    client->subscribeResource(u"note://a"_s, [&subscribed](const QString &error) { subscribed = error; });
    QTRY_VERIFY(subscribed.has_value());
    QVERIFY2(subscribed->isEmpty(), qPrintable(*subscribed));
    // There is no resources/subscribe in 2026-07-28: the listen stream is opened again with the resource.
    QVERIFY(!loggedOutgoing(logged, u"resources/subscribe"_s));
    QJsonArray listenedFor;
    for (const QList<QVariant> &arguments : std::as_const(logged)) {
        const QJsonObject message = arguments.at(1).toJsonObject();
        if (arguments.at(0).toBool() && message.value(u"method"_s).toString() == u"subscriptions/listen"_s)
            listenedFor = message.value(u"params"_s)
                              .toObject()
                              .value(u"notifications"_s)
                              .toObject()
                              .value(u"resourceSubscriptions"_s)
                              .toArray();
    }
    QCOMPARE(listenedFor, QJsonArray{u"note://a"_s});
    QTRY_VERIFY(client->stderrTail().join(u'\n').contains(u"closed"_s)); // the first stream, told so

    // A resource the server does not know is not acknowledged, so not subscribed.
    subscribed.reset();
    client->subscribeResource(u"note://unknown"_s,
                              [&subscribed](const QString &error) { subscribed = error; });
    QTRY_VERIFY(subscribed.has_value());
    QVERIFY2(subscribed->contains(u"did not accept"_s), qPrintable(*subscribed));
    QCOMPARE(client->subscribedResources(), QStringList{u"note://a"_s});

    QCOMPARE(touch(u"note://a"_s), QString());
    QTRY_COMPARE(updated.count(), 1);
    QCOMPARE(updated.constLast().constFirst().toString(), u"note://a"_s);

    // Held across a restart: the new process gets the subscription on its listen stream.
    client->restart();
    WAIT_READY(client);
    QCOMPARE(touch(u"note://a"_s), QString());
    QTRY_COMPARE(updated.count(), 2);

    // Unsubscribed: the stream is opened again without it, and an update is no longer sent (it
    // would have arrived before the call's answer, on the same pipe).
    client->unsubscribeResource(u"note://a"_s);
    QCOMPARE(touch(u"note://a"_s), QString());
    QCOMPARE(updated.count(), 2);
}

void TestMcpClient::aModernHttpServerSendsResourceUpdatesOnTheListenStream()
{
    // A 2026-07-28 server over HTTP: subscriptions/listen is a POST whose SSE answer stays open,
    // and the server's notifications come on it.
    struct Listen
    {
        QPointer<HttpExchange> stream;
        QJsonArray resources;
    };
    QList<Listen> listens;
    QStringList problems;
    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([&](const HttpRequestRecord &request, HttpExchange &exchange) {
        const QJsonObject body = request.json();
        const QString method = body.value(u"method"_s).toString();
        const QJsonObject params = body.value(u"params"_s).toObject();
        const QJsonValue id = body.value(u"id"_s);
        if (id.isUndefined()) {
            exchange.respond(202); // a notification
            return;
        }
        if (request.header("Mcp-Method") != method.toUtf8())
            problems.append(u"Mcp-Method missing on "_s + method);
        const auto sseMessage = [](const QJsonObject &message) {
            return FakeHttpServer::sseEvent(QJsonDocument(message).toJson(QJsonDocument::Compact));
        };
        if (method == u"subscriptions/listen"_s) {
            const QJsonObject asked = params.value(u"notifications"_s).toObject();
            listens.append({&exchange, asked.value(u"resourceSubscriptions"_s).toArray()});
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.send(sseMessage(
                {{u"jsonrpc"_s, u"2.0"_s},
                 {u"method"_s, u"notifications/subscriptions/acknowledged"_s},
                 {u"params"_s,
                  QJsonObject{{u"_meta"_s, QJsonObject{{u"io.modelcontextprotocol/subscriptionId"_s, id}}},
                              {u"notifications"_s, asked}}}}));
            return; // open until the client closes it
        }
        QJsonObject result{{u"resultType"_s, u"complete"_s}};
        if (method == u"server/discover"_s) {
            result.insert(u"supportedVersions"_s, QJsonArray{u"2026-07-28"_s});
            result.insert(u"capabilities"_s,
                          QJsonObject{{u"tools"_s, QJsonObject{}},
                                      {u"resources"_s, QJsonObject{{u"subscribe"_s, true}}}});
            result.insert(u"serverInfo"_s, QJsonObject{{u"name"_s, u"modern-http"_s}});
        } else if (method == u"tools/list"_s) {
            result.insert(u"tools"_s, QJsonArray{QJsonObject{{u"name"_s, u"touch"_s}}});
        } else if (method == u"resources/list"_s) {
            result.insert(u"resources"_s,
                          QJsonArray{QJsonObject{{u"uri"_s, u"note://a"_s}, {u"name"_s, u"a"_s}}});
        } else if (method == u"resources/templates/list"_s) {
            result.insert(u"resourceTemplates"_s, QJsonArray{});
        } else if (method == u"tools/call"_s) {
            // The change is told on every open listen stream that asked for the resource.
            for (const Listen &listen : std::as_const(listens)) {
                if (listen.stream && listen.stream->isClientConnected()
                    && listen.resources.contains(QJsonValue(u"note://a"_s)))
                    listen.stream->send(sseMessage({{u"jsonrpc"_s, u"2.0"_s},
                                                    {u"method"_s, u"notifications/resources/updated"_s},
                                                    {u"params"_s, QJsonObject{{u"uri"_s, u"note://a"_s}}}}));
            }
            result.insert(u"content"_s,
                          QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"touched"_s}}});
        }
        exchange.respondJson(200, {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}});
    });
    auto client = startedClient(McpTestServers::httpServer(server.port(), u"modern"_s), 5000);
    WAIT_READY(client);
    QVERIFY(client->startupInfo()->discovered);
    QVERIFY(client->supportsResourceSubscriptions());
    QSignalSpy updated(client.get(), &McpClient::resourceUpdated);

    std::optional<QString> subscribed;
    client->subscribeResource(u"note://a"_s, [&subscribed](const QString &error) { subscribed = error; });
    QTRY_VERIFY(subscribed.has_value());
    QVERIFY2(subscribed->isEmpty(), qPrintable(*subscribed));
    QCOMPARE(listens.size(), 1);
    QCOMPARE(listens.constLast().resources, QJsonArray{u"note://a"_s});

    QCOMPARE(call(*client, u"touch"_s, {}, 5000).failure, QString());
    QTRY_COMPARE(updated.count(), 1);
    QCOMPARE(updated.constLast().constFirst().toString(), u"note://a"_s);

    // Unsubscribed: over HTTP the stream is closed (there is nothing else to listen for).
    client->unsubscribeResource(u"note://a"_s);
    QTRY_VERIFY(!listens.constFirst().stream || !listens.constFirst().stream->isClientConnected());
    QCOMPARE(listens.size(), 1);
    QCOMPARE(call(*client, u"touch"_s, {}, 5000).failure, QString());
    QCOMPARE(updated.count(), 1);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u", "_s)));
}

void TestMcpClient::aToolAnsweredWithATaskIsPolledUntilItEnds_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("failure");
    QTest::addColumn<QStringList>("shownWhileRunning");
    QTest::newRow("completes: its result is the tool's")
        << u"complete"_s << u"Task done"_s << QString() << QStringList{u"Queued"_s, u"Step 1"_s};
    QTest::newRow("fails: the server's error")
        << u"fail"_s << QString() << u"failed: disk full (-32603)"_s << QStringList{u"Queued"_s};
    // The server polls every 60 s: only its notifications/tasks can end this one in time.
    QTest::newRow("ends in a notification")
        << u"notify"_s << u"Task done"_s << QString() << QStringList{u"Queued"_s};
}

void TestMcpClient::aToolAnsweredWithATaskIsPolledUntilItEnds()
{
    QFETCH(QString, kind);
    QFETCH(QString, text);
    QFETCH(QString, failure);
    QFETCH(QStringList, shownWhileRunning);
    auto client = startedClient(McpTestServers::faultServer(u"tasks"_s));
    WAIT_READY(client);
    QList<McpProgress> progress;
    const McpCallOutcome outcome = call(*client, u"echo"_s, {{u"text"_s, kind}}, 0, &progress);
    QCOMPARE(outcome.text, text);
    QVERIFY2(outcome.failure.contains(failure), qPrintable(outcome.failure));
    QCOMPARE(outcome.failure.isEmpty(), failure.isEmpty());
    QStringList shown;
    for (const McpProgress &update : std::as_const(progress))
        shown.append(update.message);
    QCOMPARE(shown, shownWhileRunning);
    // The client said it takes tasks, and never polled sooner than the server's pollIntervalMs.
    QVERIFY(outcome.request.value(u"params"_s)
                .toObject()
                .value(u"_meta"_s)
                .toObject()
                .value(u"io.modelcontextprotocol/clientCapabilities"_s)
                .toObject()
                .value(u"extensions"_s)
                .toObject()
                .contains(u"io.modelcontextprotocol/tasks"_s));
    const QString log = client->stderrTail().join(u'\n');
    QVERIFY2(!log.contains(u"too soon"_s), qPrintable(log));
}

void TestMcpClient::aTaskThatAsksForInputIsAnsweredWithTasksUpdate_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("accept");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("failure");
    QTest::newRow("a form, accepted")
        << u"ask"_s << true << u"name: accept {\"name\": \"Ada\"}"_s << QString();
    QTest::newRow("a form, declined: still an answer, the task goes on")
        << u"ask"_s << false << u"name: decline {}"_s << QString();
    QTest::newRow("a model call") << u"ask-sample"_s << true << u"summary: Paris (test-model, endTurn)"_s
                                  << QString();
    // No input response says "refused" for sampling: the task would wait for ever, so it is cancelled.
    QTest::newRow("a model call, declined: the task is cancelled")
        << u"ask-sample"_s << false << QString() << u"declined"_s;
}

void TestMcpClient::aTaskThatAsksForInputIsAnsweredWithTasksUpdate()
{
    QFETCH(QString, kind);
    QFETCH(bool, accept);
    QFETCH(QString, text);
    QFETCH(QString, failure);
    auto client = std::make_unique<McpClient>(McpTestServers::faultServer(u"tasks"_s), &m_network);
    int asked = 0;
    client->setSamplingHandler(
        [&asked, accept](const McpSamplingRequest &request, McpClient::SamplingReply reply) {
            ++asked;
            QCOMPARE(request.systemPrompt, u"Answer in one word."_s);
            reply(parisAnswer(accept));
        });
    client->setElicitationHandler(
        [&asked, accept](const McpElicitation &request, McpClient::ElicitationReply reply) {
            ++asked;
            QCOMPARE(request.message, u"Your name?"_s);
            reply({accept ? McpElicitationAnswer::Action::Accept : McpElicitationAnswer::Action::Decline,
                   accept ? QJsonObject{{u"name"_s, u"Ada"_s}} : QJsonObject{}});
        });
    client->start();
    WAIT_READY(client);
    const McpCallOutcome outcome = call(*client, u"echo"_s, {{u"text"_s, kind}});
    QCOMPARE(outcome.text, text);
    QVERIFY2(outcome.failure.contains(failure), qPrintable(outcome.failure));
    QCOMPARE(outcome.failure.isEmpty(), failure.isEmpty());
    // Asked once, although the task stays input_required for a poll or more after the answer.
    QCOMPARE(asked, 1);
    const QString log = client->stderrTail().join(u'\n');
    QCOMPARE(log.count(u"tasks/update task-1"_s), failure.isEmpty() ? 1 : 0);
    QVERIFY2(!log.contains(u"too soon"_s), qPrintable(log));
    if (!failure.isEmpty())
        QTRY_VERIFY(client->stderrTail().join(u'\n').contains(u"tasks/cancel task-1"_s));
}

void TestMcpClient::aTaskThatNeverEndsIsCancelledWithTasksCancel()
{
    auto client = startedClient(McpTestServers::faultServer(u"tasks"_s));
    WAIT_READY(client);
    std::optional<McpCallOutcome> outcome;
    QStringList shown;
    const qint64 callId = client->callTool(
        u"echo"_s, {{u"text"_s, u"forever"_s}}, 0,
        [&shown](const McpProgress &p) { shown.append(p.message); },
        [&outcome](const McpCallOutcome &o) { outcome = o; });
    QTRY_VERIFY(shown.contains(u"Step 2"_s)); // still running, and shown so
    QVERIFY(!outcome);
    client->cancelCall(callId, u"Stop pressed"_s);
    QVERIFY(outcome && outcome->cancelled);
    // The server hears of it through tasks/cancel; notifications/cancelled is not for tasks.
    QTRY_VERIFY(client->stderrTail().join(u'\n').contains(u"tasks/cancel task-1"_s));
    const QString log = client->stderrTail().join(u'\n');
    QVERIFY2(!log.contains(u"notifications/cancelled"_s), qPrintable(log));
    QVERIFY2(!log.contains(u"too soon"_s), qPrintable(log));
}

void TestMcpClient::aToolThatRequiresATaskIsCalledAsAnExperimentalTask_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("isError");
    QTest::addColumn<QStringList>("shownWhileRunning");
    QTest::newRow("completes after two polls")
        << u"complete"_s << u"Task done"_s << false << QStringList{u"Queued"_s, u"Step 1"_s};
    QTest::newRow("fails: its isError result")
        << u"fail"_s << u"disk full"_s << true << QStringList{u"Queued"_s};
    // The server polls every 60 s: only notifications/tasks/status can end this one in time.
    QTest::newRow("ends in a status notification")
        << u"notify"_s << u"Task done"_s << false << QStringList{u"Queued"_s};
}

void TestMcpClient::aToolThatRequiresATaskIsCalledAsAnExperimentalTask()
{
    QFETCH(QString, kind);
    QFETCH(QString, text);
    QFETCH(bool, isError);
    QFETCH(QStringList, shownWhileRunning);
    auto client = startedClient(McpTestServers::faultServer(u"tasks-legacy"_s));
    WAIT_READY(client);
    QList<McpProgress> progress;
    const McpCallOutcome outcome = call(*client, u"slow"_s, {{u"text"_s, kind}}, 0, &progress);
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QCOMPARE(outcome.text, text);
    QCOMPARE(outcome.isError, isError);
    QStringList shown;
    for (const McpProgress &update : std::as_const(progress))
        shown.append(update.message);
    QCOMPARE(shown, shownWhileRunning);
    QVERIFY(outcome.request.value(u"params"_s).toObject().contains(u"task"_s));
    QVERIFY(client->stderrTail().join(u'\n').contains(u"tasks/result task-1"_s));

    // A tool that does not require a task is called as usual.
    const McpCallOutcome plain = call(*client, u"echo"_s, {{u"text"_s, u"hi"_s}});
    QCOMPARE(plain.text, u"Echo: hi"_s);
    QVERIFY(!plain.request.value(u"params"_s).toObject().contains(u"task"_s));
}

void TestMcpClient::serverExitingOnTheProbeIsStartedAgain()
{
    auto client = startedClient(McpTestServers::faultServer(u"exit-on-discover"_s));
    WAIT_READY(client);
    QCOMPARE(client->startupInfo()->protocolVersion, u"2025-11-25"_s);
    QVERIFY(client->stderrTail().join(u'\n').contains(u"exiting"_s));
}

void TestMcpClient::missingCommandFailsWithAClearSentence()
{
    McpServerConfig config;
    config.name = u"ghost"_s;
    config.command = u"/nonexistent/loopscope-mcp-server"_s;
    auto client = startedClient(config);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, 10'000);
    QVERIFY2(client->failureReason().startsWith(u"The MCP server “ghost” could not start: "_s),
             qPrintable(client->failureReason()));
}

void TestMcpClient::httpUnauthorisedFailsWithAnAuthorisationSentence()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.respond(401, {{"WWW-Authenticate", "Bearer"}});
    });
    McpServerConfig config = McpTestServers::httpServer(server.port(), u"locked"_s);
    config.headers.insert(u"X-Api-Key"_s, u"secret-value-123"_s);
    auto client = startedClient(config, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, 10'000);
    // No metadata anywhere: the 2025-03-26 fallback endpoints are tried, and refused too.
    QCOMPARE(
        client->failureReason(),
        u"The MCP server “locked” wants authorisation (HTTP 401), and signing in did not succeed: the "
        "authorization server refused to register Loopscope (HTTP 401). If it takes a token instead, add an "
        "Authorization header in its settings."_s);
    QVERIFY(!client->failureReason().contains(u"secret-value-123"_s));
    QCOMPARE(server.requests().first().header("X-Api-Key"), QByteArray("secret-value-123"));
}

void TestMcpClient::aConfiguredAuthorizationHeaderIsNotReplacedByASignIn()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
        exchange.respond(401, {{"WWW-Authenticate", "Bearer"}});
    });
    McpServerConfig config = McpTestServers::httpServer(server.port(), u"locked"_s);
    config.headers.insert(u"Authorization"_s, u"Bearer typed-by-the-user"_s);
    auto client = startedClient(config, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, 10'000);
    QCOMPARE(client->failureReason(), u"The MCP server “locked” wants authorisation (HTTP 401): add an "
                                      "Authorization header in its settings."_s);
    for (const HttpRequestRecord &request : server.requests())
        QCOMPARE(request.header("Authorization"), QByteArray("Bearer typed-by-the-user"));
    QVERIFY(!server.requests().isEmpty());
    QVERIFY(std::none_of(server.requests().cbegin(), server.requests().cend(),
                         [](const HttpRequestRecord &r) { return r.path.contains("well-known"); }));
}

void TestMcpClient::httpExpiredSessionIsInitialisedAgainAndTheCallRetried()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    int sessions = 0;
    bool expiredOnce = false;
    server.setHandler([&](const HttpRequestRecord &request, HttpExchange &exchange) {
        const QJsonObject body = request.json();
        const QString method = body.value(u"method"_s).toString();
        const QJsonValue id = body.value(u"id"_s);
        auto answer = [&](const QJsonObject &result, const HttpHeaders &headers = {}) {
            exchange.respondJson(200, {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}},
                                 headers);
        };
        if (method == u"initialize"_s) {
            ++sessions;
            answer({{u"protocolVersion"_s, u"2025-06-18"_s},
                    {u"capabilities"_s, QJsonObject{{u"tools"_s, QJsonObject{}}}},
                    {u"serverInfo"_s, QJsonObject{{u"name"_s, u"expiring"_s}}}},
                   {{"Mcp-Session-Id", "session-" + QByteArray::number(sessions)}});
        } else if (!body.contains(u"id"_s) || request.method == "DELETE") {
            exchange.respond(202);
        } else if (method == u"server/discover"_s) {
            exchange.respondJson(
                400, {{u"jsonrpc"_s, u"2.0"_s},
                      {u"id"_s, QJsonValue()},
                      {u"error"_s, QJsonObject{{u"code"_s, -32000}, {u"message"_s, u"No session"_s}}}});
        } else if (method == u"tools/list"_s) {
            answer({{u"tools"_s,
                     QJsonArray{QJsonObject{{u"name"_s, u"echo"_s},
                                            {u"inputSchema"_s, QJsonObject{{u"type"_s, u"object"_s}}}}}}});
        } else if (method == u"tools/call"_s) {
            if (!expiredOnce) {
                expiredOnce = true;
                exchange.respond(404, {}, "session not found");
                return;
            }
            QCOMPARE(request.header("Mcp-Session-Id"), QByteArray("session-2"));
            answer({{u"content"_s,
                     QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"after renewal"_s}}}}});
        } else {
            exchange.respond(404);
        }
    });
    auto client = startedClient(McpTestServers::httpServer(server.port(), u"expiring"_s), 5000);
    WAIT_READY(client);
    QCOMPARE(client->startupInfo()->protocolVersion, u"2025-06-18"_s);
    const McpCallOutcome outcome = call(*client, u"echo"_s, {}, 5000);
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QCOMPARE(outcome.text, u"after renewal"_s);
    QCOMPARE(sessions, 2);
    // The protocol version header follows the negotiation.
    QCOMPARE(server.requests().last().header("MCP-Protocol-Version"), QByteArray("2025-06-18"));
    client.reset();
    QTRY_VERIFY_WITH_TIMEOUT(server.requests().last().method == "DELETE", 5000);
    QCOMPARE(server.requests().last().header("Mcp-Session-Id"), QByteArray("session-2"));
}

void TestMcpClient::httpModernServerGetsMethodHeaders()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    QStringList problems;
    server.setHandler([&](const HttpRequestRecord &request, HttpExchange &exchange) {
        const QJsonObject body = request.json();
        const QString method = body.value(u"method"_s).toString();
        const QJsonObject params = body.value(u"params"_s).toObject();
        const QJsonValue id = body.value(u"id"_s);
        if (request.header("Mcp-Method") != method.toUtf8())
            problems.append(u"Mcp-Method missing on "_s + method);
        if (params.value(u"_meta"_s).toObject().value(u"io.modelcontextprotocol/protocolVersion"_s).toString()
            != u"2026-07-28"_s) {
            exchange.respondJson(
                400, {{u"jsonrpc"_s, u"2.0"_s},
                      {u"id"_s, id},
                      {u"error"_s, QJsonObject{{u"code"_s, -32022}, {u"message"_s, u"Unsupported"_s}}}});
            return;
        }
        if (request.hasHeader("Mcp-Session-Id"))
            problems.append(u"a session id was sent"_s);
        QJsonObject result{{u"resultType"_s, u"complete"_s}};
        if (method == u"server/discover"_s) {
            result.insert(u"supportedVersions"_s, QJsonArray{u"2026-07-28"_s});
            result.insert(u"capabilities"_s, QJsonObject{{u"tools"_s, QJsonObject{}}});
            result.insert(u"serverInfo"_s, QJsonObject{{u"name"_s, u"modern-http"_s}});
        } else if (method == u"tools/list"_s) {
            result.insert(u"tools"_s, QJsonArray{QJsonObject{{u"name"_s, u"weather"_s}}});
        } else if (method == u"tools/call"_s) {
            if (request.header("Mcp-Name") != "weather")
                problems.append(u"Mcp-Name missing"_s);
            if (request.header("MCP-Protocol-Version") != "2026-07-28")
                problems.append(u"MCP-Protocol-Version missing"_s);
            result.insert(u"content"_s,
                          QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"sunny"_s}}});
        }
        // As an SSE stream, with a progress notification before the answer.
        exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
        if (method == u"tools/call"_s) {
            const QJsonObject progress{
                {u"jsonrpc"_s, u"2.0"_s},
                {u"method"_s, u"notifications/progress"_s},
                {u"params"_s, QJsonObject{{u"progressToken"_s,
                                           params.value(u"_meta"_s).toObject().value(u"progressToken"_s)},
                                          {u"progress"_s, 1},
                                          {u"total"_s, 2}}}};
            exchange.send(FakeHttpServer::sseEvent(QJsonDocument(progress).toJson(QJsonDocument::Compact)));
        }
        const QJsonObject response{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}};
        exchange.send(FakeHttpServer::sseEvent(QJsonDocument(response).toJson(QJsonDocument::Compact)));
        exchange.end();
    });
    auto client = startedClient(McpTestServers::httpServer(server.port(), u"modern"_s), 5000);
    WAIT_READY(client);
    QVERIFY(client->startupInfo()->discovered);
    QList<McpProgress> progress;
    const McpCallOutcome outcome = call(*client, u"weather"_s, {}, 5000, &progress);
    QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
    QCOMPARE(outcome.text, u"sunny"_s);
    QCOMPARE(progress.size(), 1);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u"; "_s)));
}

void TestMcpClient::theDiscoveryProbeCarriesTheProtocolVersionHeader()
{
    // A server of 2026-07-28 only: it refuses every POST without the header, the handshake too.
    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
        const QJsonObject body = request.json();
        const QString method = body.value(u"method"_s).toString();
        const QJsonValue id = body.value(u"id"_s);
        if (request.header("MCP-Protocol-Version") != "2026-07-28" || method == u"initialize"_s) {
            exchange.respondJson(
                400, {{u"jsonrpc"_s, u"2.0"_s},
                      {u"id"_s, id},
                      {u"error"_s, QJsonObject{{u"code"_s, -32020}, {u"message"_s, u"Header mismatch"_s}}}});
            return;
        }
        QJsonObject result{{u"resultType"_s, u"complete"_s}};
        if (method == u"server/discover"_s) {
            result.insert(u"supportedVersions"_s, QJsonArray{u"2026-07-28"_s});
            result.insert(u"capabilities"_s, QJsonObject{{u"tools"_s, QJsonObject{}}});
            result.insert(u"serverInfo"_s, QJsonObject{{u"name"_s, u"strict"_s}});
        } else if (method == u"tools/list"_s) {
            result.insert(u"tools"_s, QJsonArray{QJsonObject{{u"name"_s, u"weather"_s}}});
        }
        exchange.respondJson(200, {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}});
    });
    auto client = startedClient(McpTestServers::httpServer(server.port(), u"strict"_s), 5000);
    WAIT_READY(client);
    QVERIFY(client->startupInfo()->discovered);
    QCOMPARE(client->tools().size(), 1);
    QCOMPARE(server.requests().first().json().value(u"method"_s).toString(), u"server/discover"_s);
    QCOMPARE(server.requests().first().header("MCP-Protocol-Version"), QByteArray("2026-07-28"));
}

void TestMcpClient::aModernRefusalOfTheProbeIsHandledAsSuch_data()
{
    QTest::addColumn<int>("code");
    QTest::addColumn<QJsonObject>("data");
    QTest::addColumn<bool>("handshake");
    QTest::addColumn<QString>("sentence");
    QTest::newRow("a header mismatch fails without the handshake")
        << -32020 << QJsonObject{} << false << u"refused the request's protocol headers"_s;
    QTest::newRow("a missing capability fails without the handshake")
        << -32021 << QJsonObject{} << false << u"needs a client capability"_s;
    QTest::newRow("an unsupported version naming no handshake revision fails and names them")
        << -32022 << QJsonObject{{u"supported"_s, QJsonArray{u"2027-03-01"_s}}} << false
        << u"supports MCP versions 2027-03-01"_s;
    QTest::newRow("an unsupported version naming a handshake revision goes to the handshake")
        << -32022 << QJsonObject{{u"supported"_s, QJsonArray{u"2025-06-18"_s}}} << true << QString();
    QTest::newRow("an older server's 400 goes to the handshake")
        << -32000 << QJsonObject{} << true << QString();
}

void TestMcpClient::aModernRefusalOfTheProbeIsHandledAsSuch()
{
    QFETCH(int, code);
    QFETCH(QJsonObject, data);
    QFETCH(bool, handshake);
    QFETCH(QString, sentence);
    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([&](const HttpRequestRecord &request, HttpExchange &exchange) {
        const QJsonObject body = request.json();
        const QString method = body.value(u"method"_s).toString();
        const QJsonValue id = body.value(u"id"_s);
        auto answer = [&](const QJsonObject &result) {
            exchange.respondJson(200, {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}});
        };
        if (method == u"server/discover"_s) {
            QJsonObject error{{u"code"_s, code}, {u"message"_s, u"Refused"_s}};
            if (!data.isEmpty())
                error.insert(u"data"_s, data);
            exchange.respondJson(400, {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"error"_s, error}});
        } else if (method == u"initialize"_s) {
            answer({{u"protocolVersion"_s, u"2025-06-18"_s},
                    {u"capabilities"_s, QJsonObject{{u"tools"_s, QJsonObject{}}}},
                    {u"serverInfo"_s, QJsonObject{{u"name"_s, u"refusing"_s}}}});
        } else if (!body.contains(u"id"_s) || request.method != "POST") {
            exchange.respond(202);
        } else if (method == u"tools/list"_s) {
            answer({{u"tools"_s, QJsonArray{}}});
        } else {
            exchange.respond(404);
        }
    });
    auto client = startedClient(McpTestServers::httpServer(server.port(), u"refusing"_s), 5000);
    const auto sentInitialize = [&server] {
        const QList<HttpRequestRecord> requests = server.requests();
        return std::any_of(requests.cbegin(), requests.cend(), [](const HttpRequestRecord &request) {
            return request.json().value(u"method"_s).toString() == u"initialize"_s;
        });
    };
    if (handshake) {
        WAIT_READY(client);
        QVERIFY(sentInitialize());
        // The handshake negotiates its own version: the probe's header does not go with it.
        const QList<HttpRequestRecord> requests = server.requests();
        for (const HttpRequestRecord &request : requests) {
            if (request.json().value(u"method"_s).toString() == u"initialize"_s)
                QVERIFY(!request.hasHeader("MCP-Protocol-Version"));
        }
        return;
    }
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, 10'000);
    QVERIFY2(client->failureReason().contains(sentence), qPrintable(client->failureReason()));
    QVERIFY(!sentInitialize());
}

void TestMcpClient::aCallsAnswerWaitsForTheToolListTheServerChangedDuringIt()
{
    FakeHttpServer server;
    QVERIFY(server.listen());
    bool changed = false;
    server.setHandler([&](const HttpRequestRecord &request, HttpExchange &exchange) {
        const QJsonObject body = request.json();
        const QString method = body.value(u"method"_s).toString();
        const QJsonValue id = body.value(u"id"_s);
        auto message = [&](const QJsonObject &result) {
            return FakeHttpServer::sseEvent(
                QJsonDocument(QJsonObject{{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}})
                    .toJson(QJsonDocument::Compact));
        };
        if (method == u"server/discover"_s) {
            exchange.respondJson(
                400, {{u"jsonrpc"_s, u"2.0"_s},
                      {u"id"_s, id},
                      {u"error"_s, QJsonObject{{u"code"_s, -32601}, {u"message"_s, u"Unknown"_s}}}});
            return;
        }
        if (!body.contains(u"id"_s) || request.method != "POST") {
            exchange.respond(202);
            return;
        }
        exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
        if (method == u"initialize"_s) {
            exchange.send(message(
                {{u"protocolVersion"_s, u"2025-11-25"_s},
                 {u"capabilities"_s, QJsonObject{{u"tools"_s, QJsonObject{{u"listChanged"_s, true}}}}},
                 {u"serverInfo"_s, QJsonObject{{u"name"_s, u"changing"_s}}}}));
        } else if (method == u"tools/list"_s) {
            QJsonArray tools{QJsonObject{{u"name"_s, u"unlock"_s}}};
            if (changed)
                tools.append(QJsonObject{{u"name"_s, u"unlocked"_s}});
            // The new list takes a while: longer than the call's own answer.
            exchange.send(message({{u"tools"_s, tools}}), changed ? 300 : 0);
        } else if (method == u"tools/call"_s) {
            changed = true;
            const QJsonObject notification{{u"jsonrpc"_s, u"2.0"_s},
                                           {u"method"_s, u"notifications/tools/list_changed"_s}};
            exchange.send(
                FakeHttpServer::sseEvent(QJsonDocument(notification).toJson(QJsonDocument::Compact)));
            exchange.send(message(
                {{u"content"_s, QJsonArray{QJsonObject{{u"type"_s, u"text"_s}, {u"text"_s, u"done"_s}}}}}));
        }
        exchange.end();
    });
    auto client = startedClient(McpTestServers::httpServer(server.port(), u"changing"_s), 5000);
    WAIT_READY(client);
    QCOMPARE(client->tools().size(), 1);
    QSignalSpy toolsChanged(client.get(), &McpClient::toolsChanged);
    std::optional<qsizetype> toolsWhenAnswered;
    client->callTool(u"unlock"_s, {}, 5000, {}, [&](const McpCallOutcome &outcome) {
        QVERIFY2(outcome.failure.isEmpty(), qPrintable(outcome.failure));
        toolsWhenAnswered = client->tools().size();
    });
    QTRY_VERIFY_WITH_TIMEOUT(toolsWhenAnswered.has_value(), 5000);
    // The answer came after the new list: the next model request can offer the new tool.
    QCOMPARE(*toolsWhenAnswered, qsizetype(2));
    QCOMPARE(toolsChanged.size(), 1);
}

void TestMcpClient::anAnswerOverTheSizeLimitFailsTheCallAtOnce_data()
{
    QTest::addColumn<bool>("sse");
    QTest::newRow("an endless SSE event") << true;
    QTest::newRow("an endless JSON body") << false;
}

void TestMcpClient::anAnswerOverTheSizeLimitFailsTheCallAtOnce()
{
    QFETCH(bool, sse);
    FakeHttpServer server;
    QVERIFY(server.listen());
    server.setHandler([sse](const HttpRequestRecord &request, HttpExchange &exchange) {
        const QJsonObject body = request.json();
        const QString method = body.value(u"method"_s).toString();
        const QJsonValue id = body.value(u"id"_s);
        if (!body.contains(u"id"_s) || request.method != "POST") {
            exchange.respond(request.method == "GET" ? 405 : 202);
            return;
        }
        QJsonObject result{{u"resultType"_s, u"complete"_s}};
        if (method == u"server/discover"_s) {
            result.insert(u"supportedVersions"_s, QJsonArray{u"2026-07-28"_s});
            result.insert(u"capabilities"_s, QJsonObject{{u"tools"_s, QJsonObject{}}});
            result.insert(u"serverInfo"_s, QJsonObject{{u"name"_s, u"endless"_s}});
        } else if (method == u"tools/list"_s) {
            result.insert(u"tools"_s, QJsonArray{QJsonObject{{u"name"_s, u"flood"_s}}});
        } else if (method == u"tools/call"_s) {
            const QByteArray start = R"({"jsonrpc":"2.0","id":)" + QByteArray::number(id.toInteger())
                                     + R"(,"result":{"content":[{"type":"text","text":")";
            exchange.beginStream(200, {{"Content-Type", sse ? "text/event-stream" : "application/json"}});
            exchange.send(sse ? "data: " + start : start);
            exchange.sendForever(QByteArray(16384, 'x'));
            return;
        }
        exchange.respondJson(200, {{u"jsonrpc"_s, u"2.0"_s}, {u"id"_s, id}, {u"result"_s, result}});
    });
    McpServerConfig config = McpTestServers::httpServer(server.port(), u"endless"_s);
    config.maxResponseBytes = 1024 * 1024;
    auto client = startedClient(config, 5000);
    WAIT_READY(client);
    QElapsedTimer timer;
    timer.start();
    const McpCallOutcome outcome = call(*client, u"flood"_s, {}, 30'000);
    QVERIFY2(outcome.failure.contains(u"larger than the response size limit of 1 MB (--max-response-mb)"_s),
             qPrintable(outcome.failure));
    QVERIFY2(timer.elapsed() < 10'000, "the call waited out its time limit");
}

void TestMcpClient::aServerFasterThanTheHttpTransportWaitsInsteadOfFillingItsMemory()
{
    // One SSE event without end, sent as fast as the transport's socket takes it, up to far more
    // than the transport may take in: unbounded read-ahead reaches that in a moment.
    FloodServer server(200, "data: " + QByteArray(64 * 1024, 'x'), 128 * 1024 * 1024);
    const quint16 port = server.port();
    QVERIFY(port != 0);
    QNetworkAccessManager network;
    HttpTransport transport(&network, QUrl(u"http://127.0.0.1:%1/mcp"_s.arg(port)), {});
    transport.setMaxResponseBytes(1024 * 1024);
    QSignalSpy failed(&transport, &McpTransport::requestFailed);
    transport.open();
    transport.send({{u"jsonrpc"_s, u"2.0"_s},
                    {u"id"_s, 1},
                    {u"method"_s, u"tools/call"_s},
                    {u"params"_s, QJsonObject{{u"name"_s, u"flood"_s}}}});
    // The client's thread is busy for a while once the request is under way; what the server gets
    // out meanwhile is what the HTTP thread read ahead of the transport.
    QTimer::singleShot(0, &transport, [] { QThread::msleep(3000); });

    QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30'000);
    QTRY_VERIFY_WITH_TIMEOUT(server.isDone(), 10'000);
    // The limit, the read-ahead and what TCP buffers between the two ends; not the whole flood.
    const qint64 accepted = server.accepted();
    qInfo("the server got %lld bytes out", accepted);
    QVERIFY2(accepted < 32 * 1024 * 1024, qPrintable(u"%1 bytes"_s.arg(accepted)));
}

void TestMcpClient::aStdioLineOverTheSizeLimitFailsTheCallAtOnce()
{
    McpServerConfig config = McpTestServers::faultServer(u"huge-answer"_s, u"huge"_s);
    config.maxResponseBytes = 1024 * 1024;
    auto client = startedClient(config);
    WAIT_READY(client);
    QElapsedTimer timer;
    timer.start();
    const McpCallOutcome huge = call(*client, u"echo"_s, {{u"text"_s, u"huge"_s}}, 30'000);
    QVERIFY2(huge.failure.contains(u"larger than the response size limit of 1 MB (--max-response-mb)"_s),
             qPrintable(huge.failure));
    QVERIFY2(timer.elapsed() < 10'000, "the call waited out its time limit");
    // The rest of the long line is skipped, not read as the next message.
    const McpCallOutcome next = call(*client, u"echo"_s, {{u"text"_s, u"small"_s}}, 10'000);
    QVERIFY2(next.failure.isEmpty(), qPrintable(next.failure));
    QCOMPARE(next.text, u"Echo: small"_s);
}

void TestMcpClient::destroyingTheClientLeavesNoProcess()
{
    auto client = startedClient(McpTestServers::everythingStdio());
    WAIT_READY(client);
    const qint64 pid = client->processId();
    QVERIFY(pid > 0);
    QVERIFY(processExists(pid));
    auto result = std::make_shared<CallResult>();
    client->callTool(u"trigger-long-running-operation"_s, {{u"duration"_s, 30}, {u"steps"_s, 30}}, 0, {},
                     [result](const McpCallOutcome &outcome) { result->outcome = outcome; });
    client.reset();
    QVERIFY(result->outcome.has_value()); // the pending call ended too
    QVERIFY(!result->outcome->failure.isEmpty());
    QVERIFY(!processExists(pid));
}

void TestMcpClient::aServerStartedThroughAWrapperLeavesNoProcessOfItsGroup_data()
{
    QTest::addColumn<bool>("destroyed");
    QTest::newRow("stopped") << false;
    QTest::newRow("destroyed") << true;
}

void TestMcpClient::aServerStartedThroughAWrapperLeavesNoProcessOfItsGroup()
{
    QFETCH(bool, destroyed);
    // A launcher (sh -c, npx, uvx) that runs the server and leaves a helper of its own beside it.
    McpServerConfig config = McpTestServers::everythingStdio(u"wrapped"_s);
    config.arguments
        = QStringList{u"-c"_s, u"sleep 300 & \"$0\" \"$@\"; exit $?"_s, config.command} + config.arguments;
    config.command = u"/bin/sh"_s;
    auto client = startedClient(config);
    WAIT_READY(client);
    const qint64 wrapper = client->processId();
    QVERIFY(wrapper > 0);
    const auto startedProcesses = [wrapper] {
        QList<qint64> pids{wrapper};
        for (const ProcessTable::Entry &entry : ProcessTable::living()) {
            if (entry.parent == wrapper)
                pids.append(entry.pid);
        }
        return pids;
    };
    QTRY_COMPARE_WITH_TIMEOUT(startedProcesses().size(), 3, 5000); // sh, sleep, node
    const QList<qint64> started = startedProcesses();
    const auto cleanUp = qScopeGuard([started] {
        for (const qint64 pid : started)
            ::kill(pid_t(pid), SIGKILL);
    });
    const auto living = [started] {
        QList<qint64> pids;
        for (const qint64 pid : started) {
            if (ProcessTable::isLiving(pid))
                pids.append(pid);
        }
        return pids;
    };

    if (destroyed)
        client.reset();
    else
        client->stop();

    QTRY_COMPARE_WITH_TIMEOUT(living(), QList<qint64>(), 5000);
}

QTEST_GUILESS_MAIN(TestMcpClient)
#include "tst_mcpclient.moc"
