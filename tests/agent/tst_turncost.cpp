// What keeps a long turn cheap, pinned by counting instead of timing: a tool loop resends its whole
// history with every call, and three things keep each call's cost the size of what it adds. The
// request shares the turn's history instead of copying it (Agent::Turn::messagesWithSystem, kept in
// step by appendMessage()); the trace records the request as a delta of the call before
// (RecordedRequest); the OpenAI body is built in place, encoding only the new messages, which holds
// only while nothing else still holds the earlier body (EncodedMessages, HttpModelClient::send()).
// One innocent copy of any of them makes every call cost time in proportion to the history again.
// Each test drives a scripted turn of 200 tool iterations through the real HttpModelClient and
// OpenAI protocol against a local server.

#include "agent/loop/agent.h"
#include "agent/providers/httpmodelclient.h"
#include "agent/providers/openaiprotocol.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/openaicompletion.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

constexpr int Iterations = 200;

// Forwards every request to the real client and notes where its history lives and what its body
// cost to build, without keeping the request: a kept copy would itself make the history copy.
class ObservingClient final : public ModelClient
{
public:
    struct Seen
    {
        const Message *history = nullptr; // the request's message list, where it lives
        qsizetype size = 0;
        qsizetype capacity = 0;
        EncodedMessages::Cost cost;
    };

    explicit ObservingClient(HttpModelClient *client)
        : m_client(client)
    {
        connect(client, &ModelClient::textDelta, this, &ModelClient::textDelta);
        connect(client, &ModelClient::toolCallDelta, this, &ModelClient::toolCallDelta);
        connect(client, &ModelClient::attemptFinished, this, &ModelClient::attemptFinished);
        connect(client, &ModelClient::finished, this, &ModelClient::finished);
        connect(client, &ModelClient::failed, this, &ModelClient::failed);
    }

    void send(const ModelRequest &request) override
    {
        m_client->send(request);
        m_seen.append({request.messages.constData(), request.messages.size(), request.messages.capacity(),
                       m_client->lastEncodingCost()});
    }
    void cancel() override { m_client->cancel(); }
    QString providerName() const override { return m_client->providerName(); }

    const QList<Seen> &seen() const { return m_seen; }

private:
    HttpModelClient *m_client;
    QList<Seen> m_seen;
};

// The model asks for one tool call per iteration, each with new arguments, then answers.
QJsonObject toolCallCompletion(int index)
{
    const QJsonObject call{
        {u"id"_s, u"call_%1"_s.arg(index)},
        {u"type"_s, u"function"_s},
        {u"function"_s, QJsonObject{{u"name"_s, u"count"_s}, {u"arguments"_s, u"{\"n\":%1}"_s.arg(index)}}}};
    const QJsonObject message{
        {u"role"_s, u"assistant"_s}, {u"content"_s, QJsonValue::Null}, {u"tool_calls"_s, QJsonArray{call}}};
    return {
        {u"id"_s, u"chatcmpl-%1"_s.arg(index)},
        {u"model"_s, u"test-model"_s},
        {u"choices"_s, QJsonArray{QJsonObject{
                           {u"index"_s, 0}, {u"message"_s, message}, {u"finish_reason"_s, u"tool_calls"_s}}}},
        {u"usage"_s, QJsonObject{{u"prompt_tokens"_s, 12}, {u"completion_tokens"_s, 3}}}};
}

// One turn of Iterations tool calls and a final answer, run to its end.
struct LongTurn
{
    FakeHttpServer server;
    QNetworkAccessManager network;
    std::unique_ptr<HttpModelClient> http;
    std::unique_ptr<ObservingClient> client;
    Workbench workbench;
    Trace trace;
    std::unique_ptr<Agent> agent;
    bool ran = false;

    bool run(const QString &systemPrompt)
    {
        server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            const int index = exchange.requestIndex();
            exchange.respondJson(200, index < Iterations ? toolCallCompletion(index)
                                                         : openAiCompletion(u"Counted."_s, u"test-model"_s));
        });
        if (!server.listen())
            return false;
        ProviderEndpoint endpoint;
        endpoint.baseUrl = QUrl(server.baseUrl().toString() + u"/v1"_s);
        endpoint.apiKey = u"sk-test"_s;
        http = std::make_unique<HttpModelClient>(&network, std::make_unique<OpenAiProtocol>(), endpoint);
        client = std::make_unique<ObservingClient>(http.get());
        workbench.add(std::make_shared<FunctionTool>(
            ToolSchema{u"count"_s, u"Counts."_s,
                       QJsonObject{
                           {u"type"_s, u"object"_s},
                           {u"properties"_s, QJsonObject{{u"n"_s, QJsonObject{{u"type"_s, u"integer"_s}}}}}}},
            [](const QJsonObject &arguments, ToolContext &) {
                return ToolResult::success(QString::number(arguments.value(u"n"_s).toInteger()));
            }));
        agent = std::make_unique<Agent>(client.get(), &workbench, &trace);
        AgentConfig config;
        config.systemPrompt = systemPrompt;
        config.model.model = u"test-model"_s;
        config.model.stream = false;
        config.maxIterations = Iterations + 10; // no limit in sight: no note changes the system message
        config.wrapUpIterations = 0;
        agent->setConfig(config);
        QSignalSpy finished(agent.get(), &Agent::turnFinished);
        if (!agent->send(u"Count to 200, one call at a time."_s))
            return false;
        if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, 120000))
            return false;
        return finished.constFirst().first().value<TurnResult>().outcome == TurnOutcome::Answered
               && client->seen().size() == Iterations + 1;
    }

    QList<int> modelCalls() const
    {
        QList<int> calls;
        for (int id = 0; id < trace.size(); ++id) {
            if (trace.node(id).kind == TraceKind::ModelCall)
                calls.append(id);
        }
        return calls; // ids are the order the calls were made
    }

    const RecordedRequest &recorded(int call) const { return trace.node(call).data<ModelCallData>().request; }
};

void addSystemPromptRows()
{
    QTest::addColumn<QString>("systemPrompt");
    QTest::newRow("with a system prompt") << u"Count carefully."_s;
    QTest::newRow("without one") << QString();
}

} // namespace

class TurnCostTest : public QObject
{
    Q_OBJECT

private:
    // Each test looks at the same turns from its own side: each is run once, when first asked for.
    const LongTurn &longTurn(const QString &systemPrompt)
    {
        std::unique_ptr<LongTurn> &turn = m_turns[systemPrompt];
        if (!turn) {
            turn = std::make_unique<LongTurn>();
            turn->ran = turn->run(systemPrompt);
        }
        return *turn;
    }

    std::map<QString, std::unique_ptr<LongTurn>> m_turns;

private slots:
    void eachRequestSharesTheTurnsHistoryInsteadOfCopyingIt_data() { addSystemPromptRows(); }
    void eachRequestSharesTheTurnsHistoryInsteadOfCopyingIt()
    {
        QFETCH(QString, systemPrompt);
        const LongTurn &turn = longTurn(systemPrompt);
        QVERIFY(turn.ran);
        const QList<ObservingClient::Seen> &seen = turn.client->seen();
        QCOMPARE(seen.constLast().size, seen.constFirst().size + 2 * Iterations);
        // Shared, the history stays where it is from call to call, and moves only when it outgrows its
        // buffer, which grows geometrically. Copied for a call, it moves every time.
        int moves = 0;
        int unexplainedMoves = 0;
        for (qsizetype i = 1; i < seen.size(); ++i) {
            if (seen.at(i).history == seen.at(i - 1).history)
                continue;
            ++moves;
            if (seen.at(i).size <= seen.at(i - 1).capacity)
                ++unexplainedMoves;
        }
        // The first call's record holds its request whole: the history leaves it once.
        QCOMPARE_LE(unexplainedMoves, 1);
        QCOMPARE_LE(moves, 20);
    }

    void eachModelCallIsRecordedAsWhatItAddsToTheCallBefore_data() { addSystemPromptRows(); }
    void eachModelCallIsRecordedAsWhatItAddsToTheCallBefore()
    {
        QFETCH(QString, systemPrompt);
        const LongTurn &turn = longTurn(systemPrompt);
        QVERIFY(turn.ran);
        const QList<int> calls = turn.modelCalls();
        QCOMPARE(calls.size(), Iterations + 1);
        for (qsizetype i = 1; i < calls.size(); ++i) {
            const RecordedRequest &before = turn.recorded(calls.at(i - 1));
            const RecordedRequest &now = turn.recorded(calls.at(i));
            QVERIFY2(now.isDeltaOf(before), qPrintable(u"model call %1"_s.arg(i)));
            QCOMPARE(now.keptMessages(), before.messageCount());
            QCOMPARE(now.addedMessages().size(), 2); // the tool call and its result
        }

        // Written as deltas too: a saved turn grows with each call's new messages, not its history.
        int deltas = 0;
        std::function<void(const QJsonArray &)> visit = [&](const QJsonArray &nodes) {
            for (const QJsonValue &value : nodes) {
                const QJsonObject node = value.toObject();
                const QJsonObject data = node.value(u"data"_s).toObject();
                if (node.value(u"kind"_s).toString() == u"model_call"_s && data.contains(u"requestDelta"_s)) {
                    QVERIFY(!data.contains(u"request"_s));
                    QCOMPARE(data.value(u"requestDelta"_s).toObject().value(u"messages"_s).toArray().size(),
                             2);
                    ++deltas;
                }
                visit(node.value(u"children"_s).toArray());
            }
        };
        visit(turn.trace.toJson());
        QCOMPARE(deltas, Iterations);
    }

    void eachRequestBodyEncodesOnlyTheNewMessagesAndCopiesNoEarlierBody_data() { addSystemPromptRows(); }
    void eachRequestBodyEncodesOnlyTheNewMessagesAndCopiesNoEarlierBody()
    {
        QFETCH(QString, systemPrompt);
        const LongTurn &turn = longTurn(systemPrompt);
        QVERIFY(turn.ran);
        const QList<ObservingClient::Seen> &seen = turn.client->seen();
        const QList<HttpRequestRecord> requests = turn.server.requests();
        QCOMPARE(requests.size(), Iterations + 1);
        // The server got the whole history every time: the body grew by the call's new messages.
        QCOMPARE(requests.constLast().json().value(u"messages"_s).toArray().size(), seen.constLast().size);

        // After the first call, a body encodes two new messages, whose size hardly changes (the
        // ids grow by a digit now and then), however long the history has grown.
        qsizetype least = std::numeric_limits<qsizetype>::max();
        qsizetype most = 0;
        for (qsizetype i = 0; i < seen.size(); ++i) {
            QVERIFY2(seen.at(i).cost.copiedBytes == 0,
                     qPrintable(u"request %1 copied %2 bytes of an earlier body"_s.arg(i).arg(
                         seen.at(i).cost.copiedBytes)));
            if (i == 0)
                continue;
            least = std::min(least, seen.at(i).cost.encodedBytes);
            most = std::max(most, seen.at(i).cost.encodedBytes);
        }
        QCOMPARE_GT(least, 0);
        QCOMPARE_LE(most - least, 16);
        QCOMPARE_LT(most * 50, requests.constLast().body.size());
    }
};

QTEST_GUILESS_MAIN(TurnCostTest)
#include "tst_turncost.moc"
