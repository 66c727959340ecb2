// The model shield (Llama Guard) against a real OpenAI-compatible server on 127.0.0.1: the guard's
// requests and the main model's go to the same server, told apart by the guard's prompt.

#include "agent/loop/agent.h"
#include "agent/providers/httpmodelclient.h"
#include "agent/providers/openaiprotocol.h"
#include "agent/safety/modelshield.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/openaicompletion.h"
#include "tests/support/tracenodes.h"

#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;

namespace {

const QString Answer = u"Paris is the capital of France."_s;

// The text of the last message of an OpenAI chat request.
QString lastMessage(const HttpRequestRecord &request)
{
    const QJsonArray messages = request.json().value(u"messages"_s).toArray();
    return messages.isEmpty() ? QString() : messages.last().toObject().value(u"content"_s).toString();
}

bool isGuardRequest(const HttpRequestRecord &request)
{
    return lastMessage(request).contains(u"<BEGIN CONVERSATION>"_s);
}

// One agent with a model shield, on a server where the guard answers what the test says.
struct Fixture
{
    FakeHttpServer server;
    QNetworkAccessManager network;
    std::unique_ptr<HttpModelClient> client;
    Workbench workbench;
    Trace trace;
    std::unique_ptr<Agent> agent;
    std::unique_ptr<QSignalSpy> finished;
    QStringList inputVerdicts{u"safe"_s};  // the guard's answers to the question, in turn
    QStringList outputVerdicts{u"safe"_s}; // and to the answer
    bool stallGuard = false;
    QPointer<HttpExchange> stalled;

    explicit Fixture(const ModelShield &shield)
    {
        server.setHandler([this](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (!isGuardRequest(request)) {
                exchange.respondJson(200, openAiCompletion(Answer, u"test-model"_s));
                return;
            }
            if (stallGuard) {
                stalled = &exchange;
                exchange.stall();
                return;
            }
            const bool judgesAnswer = lastMessage(request).contains(u"Agent: "_s);
            QStringList &verdicts = judgesAnswer ? outputVerdicts : inputVerdicts;
            const QString verdict = verdicts.size() > 1 ? verdicts.takeFirst() : verdicts.constFirst();
            exchange.respondJson(200, openAiCompletion(verdict, u"guard-model"_s, 200, 4));
        });
        QVERIFY(server.listen());
        ProviderEndpoint endpoint;
        endpoint.baseUrl = QUrl(server.baseUrl().toString() + u"/v1"_s);
        endpoint.apiKey = u"sk-test"_s;
        client = std::make_unique<HttpModelClient>(&network, std::make_unique<OpenAiProtocol>(), endpoint);
        agent = std::make_unique<Agent>(client.get(), &workbench, &trace);
        AgentConfig config;
        config.model.model = u"test-model"_s;
        config.model.stream = false;
        config.shields.model = shield;
        agent->setConfig(config);
        finished = std::make_unique<QSignalSpy>(agent.get(), &Agent::turnFinished);
    }

    TurnResult ask(const QString &question)
    {
        agent->send(question);
        if (!QTest::qWaitFor([this] { return !finished->isEmpty(); }, 20'000))
            return {};
        return finished->takeFirst().constFirst().value<TurnResult>();
    }

    QList<HttpRequestRecord> mainRequests() const
    {
        QList<HttpRequestRecord> main;
        for (const HttpRequestRecord &request : server.requests()) {
            if (!isGuardRequest(request))
                main.append(request);
        }
        return main;
    }

    const ShieldCheckData &check(int node) const { return trace.node(node).data<ShieldCheckData>(); }
};

ModelShield guard(QList<ShieldStage> stages = {ShieldStage::Input, ShieldStage::Output})
{
    ModelShield shield;
    shield.name = u"llama-guard"_s;
    shield.model = u"guard-model"_s;
    shield.stages = std::move(stages);
    return shield;
}

} // namespace

class ModelShieldTest : public QObject
{
    Q_OBJECT

private slots:
    void theVerdictIsReadFromTheFirstLines_data()
    {
        QTest::addColumn<QString>("answer");
        QTest::addColumn<int>("verdict");
        QTest::addColumn<QStringList>("categories");

        QTest::newRow("safe") << u"safe"_s << int(ModelShield::Verdict::Safe) << QStringList();
        QTest::newRow("safe with blank lines and case")
            << u"\n  Safe \n"_s << int(ModelShield::Verdict::Safe) << QStringList();
        QTest::newRow("unsafe with categories")
            << u"unsafe\nS1,S10"_s << int(ModelShield::Verdict::Unsafe) << QStringList{u"S1"_s, u"S10"_s};
        QTest::newRow("unsafe with spaced categories")
            << u"unsafe\ns2, S14"_s << int(ModelShield::Verdict::Unsafe) << QStringList{u"S2"_s, u"S14"_s};
        QTest::newRow("unsafe alone") << u"unsafe"_s << int(ModelShield::Verdict::Unsafe) << QStringList();
        QTest::newRow("a sentence") << u"I think this is safe."_s << int(ModelShield::Verdict::Unclear)
                                    << QStringList();
        QTest::newRow("nothing") << QString() << int(ModelShield::Verdict::Unclear) << QStringList();
    }

    void theVerdictIsReadFromTheFirstLines()
    {
        QFETCH(QString, answer);
        QFETCH(int, verdict);
        QFETCH(QStringList, categories);

        const ModelShield::Reading reading = ModelShield::read(answer);
        QCOMPARE(int(reading.verdict), verdict);
        QCOMPARE(reading.categories, categories);
    }

    void thePromptNamesTheRoleAndHoldsTheConversation()
    {
        const ModelShield shield;
        const QString input = shield.prompt(ShieldStage::Input, {}, u"How do I {role} bake bread?"_s);
        QVERIFY(input.contains(u"S14: Code Interpreter Abuse."_s));
        QVERIFY(input.contains(u"ONLY THE LAST User message"_s));
        // What the user wrote is not a template: its placeholders stay as written.
        QVERIFY(input.contains(u"User: How do I {role} bake bread?"_s));

        const QString output = shield.prompt(ShieldStage::Output, u"Capital?"_s, u"Paris."_s);
        QVERIFY(output.contains(u"ONLY THE LAST Agent message"_s));
        QVERIFY(output.contains(u"User: Capital?\n\nAgent: Paris."_s));
    }

    void anUnsafeInputIsBlockedBeforeTheModelIsAsked()
    {
        Fixture f(guard());
        f.inputVerdicts = {u"unsafe\nS1,S9"_s};

        const TurnResult result = f.ask(u"How do I build a weapon?"_s);

        QCOMPARE(result.outcome, TurnOutcome::Blocked);
        QVERIFY2(result.error.contains(u"S1 (Violent Crimes), S9 (Indiscriminate Weapons)"_s),
                 qPrintable(result.error));
        QCOMPARE(f.server.requests().size(), 1);
        QVERIFY(f.mainRequests().isEmpty());
        QCOMPARE(f.server.requests().constFirst().json().value(u"model"_s).toString(), u"guard-model"_s);
        // The question never entered the conversation.
        QVERIFY(f.agent->history().isEmpty());
        // The check is a node of the turn with the model call it made under it, counted in the turn.
        const QList<int> checks = nodesOfKind(f.trace, TraceKind::ShieldCheck);
        QCOMPARE(checks.size(), 1);
        QCOMPARE(f.trace.node(checks.constFirst()).parent, result.traceNode);
        QCOMPARE(f.trace.node(checks.constFirst()).status, TraceStatus::Blocked);
        QCOMPARE(f.check(checks.constFirst()).stage, u"input"_s);
        QVERIFY(!f.check(checks.constFirst()).passed);
        const QList<int> calls = f.trace.childrenOf(checks.constFirst());
        QCOMPARE(calls.size(), 1);
        QCOMPARE(f.trace.node(calls.constFirst()).kind, TraceKind::ModelCall);
        QCOMPARE(f.trace.node(calls.constFirst()).data<ModelCallData>().model, u"guard-model"_s);
        QCOMPARE(result.usage.inputTokens, 200);
    }

    void anUnsafeAnswerIsWithheld()
    {
        Fixture f(guard());
        f.outputVerdicts = {u"unsafe\nS5"_s};

        const TurnResult result = f.ask(u"What is the capital of France?"_s);

        QCOMPARE(result.outcome, TurnOutcome::Blocked);
        QVERIFY(result.text.isEmpty());
        QVERIFY2(result.error.contains(u"S5 (Defamation)"_s), qPrintable(result.error));
        // Input check, the model, output check; the guard saw the question and the answer.
        QCOMPARE(f.server.requests().size(), 3);
        QVERIFY(lastMessage(f.server.requests().at(2))
                    .contains(u"User: What is the capital of France?\n\nAgent: "_s + Answer));
        QCOMPARE(f.agent->history().size(), 2);
        QVERIFY(!f.agent->history().constLast().text.contains(Answer));
        const QList<int> checks = nodesOfKind(f.trace, TraceKind::ShieldCheck);
        QCOMPARE(checks.size(), 2);
        QVERIFY(f.check(checks.at(0)).passed);
        QCOMPARE(f.check(checks.at(1)).stage, u"output"_s);
        QVERIFY(!f.check(checks.at(1)).passed);
        // Both guard calls and the model's count for the turn.
        QCOMPARE(result.usage.inputTokens, 200 + 12 + 200);
    }

    void aSafeTurnAnswers()
    {
        Fixture f(guard({ShieldStage::Output}));

        const TurnResult result = f.ask(u"What is the capital of France?"_s);

        QCOMPARE(result.outcome, TurnOutcome::Answered);
        QCOMPARE(result.text, Answer);
        QCOMPARE(f.server.requests().size(), 2); // only the output stage was asked for
        QCOMPARE(f.agent->history().constLast().text, Answer);
    }

    void anUnclearVerdictFollowsThePolicy_data()
    {
        QTest::addColumn<int>("policy");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<int>("outcome");

        QTest::newRow("block, a sentence")
            << int(ModelShield::Unclear::Block) << u"It depends."_s << int(TurnOutcome::Blocked);
        QTest::newRow("allow, a sentence")
            << int(ModelShield::Unclear::Allow) << u"It depends."_s << int(TurnOutcome::Answered);
        QTest::newRow("block, nothing")
            << int(ModelShield::Unclear::Block) << QString() << int(TurnOutcome::Blocked);
    }

    void anUnclearVerdictFollowsThePolicy()
    {
        QFETCH(int, policy);
        QFETCH(QString, verdict);
        QFETCH(int, outcome);
        ModelShield shield = guard({ShieldStage::Input});
        shield.unclear = ModelShield::Unclear(policy);
        Fixture f(shield);
        f.inputVerdicts = {verdict};

        const TurnResult result = f.ask(u"Hello"_s);

        QCOMPARE(int(result.outcome), outcome);
        QCOMPARE(f.mainRequests().size(), outcome == int(TurnOutcome::Answered) ? 1 : 0);
        // Either way the trace says the verdict was unclear.
        const int check = nodesOfKind(f.trace, TraceKind::ShieldCheck).constFirst();
        QVERIFY2(f.check(check).reason.contains(u"no clear verdict"_s), qPrintable(f.check(check).reason));
    }

    void stopDuringTheCheckCancelsItsCall()
    {
        Fixture f(guard());
        f.stallGuard = true;
        QSignalSpy received(&f.server, &FakeHttpServer::requestReceived);

        f.agent->send(u"Hello"_s);
        // The loop does not wait for the guard: send() returned, and the call is under way.
        QVERIFY(f.finished->isEmpty());
        QTRY_VERIFY(f.stalled);
        QCOMPARE(f.agent->state(), Agent::State::WaitingForModel);
        f.agent->cancel();

        QCOMPARE(f.finished->size(), 1);
        QCOMPARE(f.finished->constFirst().constFirst().value<TurnResult>().outcome, TurnOutcome::Cancelled);
        QTRY_VERIFY(!f.stalled || !f.stalled->isClientConnected());
        const int check = nodesOfKind(f.trace, TraceKind::ShieldCheck).constFirst();
        QCOMPARE(f.trace.node(check).status, TraceStatus::Cancelled);
        QVERIFY(!f.check(check).passed); // what a reopened session reads: the question was not asked
        QCOMPARE(f.trace.node(f.trace.childrenOf(check).constFirst()).status, TraceStatus::Cancelled);
        QVERIFY(f.mainRequests().isEmpty());
        QVERIFY(f.agent->history().isEmpty());
    }

    void aGuardThatCannotBeReachedIsUnclear()
    {
        ModelShield shield = guard({ShieldStage::Input});
        shield.unclear = ModelShield::Unclear::Block;
        Fixture f(shield);
        f.server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(400,
                                 QJsonObject{{u"error"_s, QJsonObject{{u"message"_s, u"no such model"_s}}}});
        });

        const TurnResult result = f.ask(u"Hello"_s);

        QCOMPARE(result.outcome, TurnOutcome::Blocked);
        QVERIFY2(result.error.contains(u"llama-guard could not be asked"_s), qPrintable(result.error));
    }
};

QTEST_GUILESS_MAIN(ModelShieldTest)
#include "tst_modelshield.moc"
