#include "agent/loop/agent.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "tests/support/scriptedmodelclient.h"

#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using Kind = AgentEvent::Kind;

namespace {

// The line `loopscope run --events` writes for an event.
QByteArray jsonLine(const AgentEvent &event)
{
    return QJsonDocument(event.toJson()).toJson(QJsonDocument::Compact);
}

AgentEvent sampleEvent(Kind kind, const QString &text = {}, AgentEventPayload payload = {},
                       bool isError = false, const ToolCall &call = {})
{
    AgentEvent e;
    e.kind = kind;
    e.timeUs = 1000;
    e.iteration = 2;
    e.traceNode = 7;
    e.text = text;
    e.toolCall = call;
    e.isError = isError;
    e.payload = std::move(payload);
    return e;
}

// Every timestamp the same, so that the lines can be compared byte for byte.
class FixedClock final : public Clock
{
public:
    qint64 nowUs() const override { return 1000; }
};

} // namespace

class AgentEventTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<AgentEvent>(); }

    // The JSON Lines format is read by other programs: these lines are pinned byte for byte.
    void everyKindWritesTheSameJsonLineAsBefore_data()
    {
        QTest::addColumn<AgentEvent>("event");
        QTest::addColumn<QByteArray>("line");

        const ToolCall call = ScriptedModelClient::call(u"c1"_s, u"add"_s, u"[1]"_s);
        QTest::newRow("turn started") << sampleEvent(Kind::TurnStarted, u"hi"_s)
                                      << QByteArray(R"({"event":"turn_started","iteration":2,"text":"hi",)"
                                                    R"("timeUs":1000,"traceNode":7})");
        QTest::newRow("iteration started")
            << sampleEvent(Kind::IterationStarted, {}, IterationStartedInfo{10, true, false})
            << QByteArray(R"({"event":"iteration_started","iteration":2,"maxIterations":10,"timeUs":1000,)"
                          R"("toolsOffered":false,"traceNode":7,"wrapUpNote":true})");
        QTest::newRow("model request")
            << sampleEvent(Kind::ModelRequest, {}, ModelRequestInfo{3, 2, ToolChoice::Auto, true})
            << QByteArray(
                   R"({"edited":true,"event":"model_request","iteration":2,"messages":3,"timeUs":1000,)"
                   R"("toolChoice":"auto","tools":2,"traceNode":7})");
        QTest::newRow("text delta") << sampleEvent(Kind::TextDelta, u"Hel"_s)
                                    << QByteArray(R"({"event":"text_delta","iteration":2,"text":"Hel",)"
                                                  R"("timeUs":1000,"traceNode":7})");
        QTest::newRow("model response")
            << sampleEvent(Kind::ModelResponse, u"Hello"_s, ModelResponseInfo{FinishReason::Stop, 1, {10, 5}})
            << QByteArray(R"({"event":"model_response","finishReason":"stop","inputTokens":10,"iteration":2,)"
                          R"("outputTokens":5,"text":"Hello","timeUs":1000,"toolCalls":1,"traceNode":7})");
        QTest::newRow("tool call") << sampleEvent(Kind::ToolCall, {}, {}, false, call)
                                   << QByteArray(R"({"event":"tool_call","iteration":2,"timeUs":1000,)"
                                                 R"("toolCall":{"arguments":"[1]","id":"c1","name":"add"},)"
                                                 R"("traceNode":7})");
        QTest::newRow("tool progress")
            << sampleEvent(Kind::ToolProgress, u"half way"_s, {}, false, call)
            << QByteArray(R"({"event":"tool_progress","iteration":2,"text":"half way",)"
                          R"("timeUs":1000,"toolCall":{"arguments":"[1]",)"
                          R"("id":"c1","name":"add"},"traceNode":7})");
        QTest::newRow("tool result")
            << sampleEvent(Kind::ToolResult, u"denied"_s, ToolResultInfo{TraceStatus::Denied}, true, call)
            << QByteArray(R"({"event":"tool_result","isError":true,"iteration":2,"status":"denied",)"
                          R"("text":"denied","timeUs":1000,"toolCall":{"arguments":"[1]","id":"c1",)"
                          R"("name":"add"},"traceNode":7})");
        QTest::newRow("retry")
            << sampleEvent(Kind::Retry, u"busy"_s, RetryInfo{1, 529, 250}, true)
            << QByteArray(R"({"attempt":1,"event":"retry","httpStatus":529,"isError":true,"iteration":2,)"
                          R"("retryInMs":250,"text":"busy","timeUs":1000,"traceNode":7})");
        QTest::newRow("error") << sampleEvent(Kind::Error, u"boom"_s, ErrorInfo{u"provider"_s}, true)
                               << QByteArray(
                                      R"({"code":"provider","event":"error","isError":true,"iteration":2,)"
                                      R"("text":"boom","timeUs":1000,"traceNode":7})");
        QTest::newRow("shield blocked")
            << sampleEvent(Kind::ShieldBlocked, u"no"_s, ShieldInfo{ShieldStage::Output, u"rules"_s}, true)
            << QByteArray(R"({"event":"shield_blocked","isError":true,"iteration":2,"shield":"rules",)"
                          R"("stage":"output","text":"no","timeUs":1000,"traceNode":7})");
        QTest::newRow("reflection") << sampleEvent(Kind::Reflection, u"So"_s)
                                    << QByteArray(R"({"event":"reflection","iteration":2,"text":"So",)"
                                                  R"("timeUs":1000,"traceNode":7})");
        QTest::newRow("summary") << sampleEvent(Kind::Summary, u"add: 1"_s)
                                 << QByteArray(R"({"event":"summary","iteration":2,"text":"add: 1",)"
                                               R"("timeUs":1000,"traceNode":7})");
        QTest::newRow("handoff") << sampleEvent(Kind::Handoff, u"billing"_s, HandoffInfo{u"billing_agent"_s},
                                                false, call)
                                 << QByteArray(R"({"event":"handoff","iteration":2,"target":"billing_agent",)"
                                               R"("text":"billing","timeUs":1000,"toolCall":{"arguments":)"
                                               R"("[1]","id":"c1","name":"add"},"traceNode":7})");
        QTest::newRow("compaction")
            << sampleEvent(Kind::Compaction, {}, CompactionInfo{u"trim-tool-results"_s, 8000, 7000, 4000})
            << QByteArray(R"({"contextWindow":8000,"event":"compaction","iteration":2,)"
                          R"("strategy":"trim-tool-results","timeUs":1000,"tokensAfter":4000,)"
                          R"("tokensBefore":7000,"traceNode":7})");
        QTest::newRow("turn finished")
            << sampleEvent(Kind::TurnFinished, u"Hello"_s,
                           TurnFinishedInfo{TurnOutcome::Answered, 2, {20, 10}})
            << QByteArray(
                   R"({"event":"finished","inputTokens":20,"iteration":2,"iterations":2,)"
                   R"("outcome":"answered","outputTokens":10,"text":"Hello","timeUs":1000,"traceNode":7})");
    }

    void everyKindWritesTheSameJsonLineAsBefore()
    {
        QFETCH(AgentEvent, event);
        QFETCH(QByteArray, line);
        QCOMPARE(jsonLine(event), line);
    }

    // What the loop itself puts in each event, as `loopscope run --events` writes it: every event
    // names the agent.
    void aToolTurnWritesTheSameJsonLinesAsBefore()
    {
        ScriptedModelClient client;
        Workbench workbench;
        Trace trace;
        Agent agent(&client, &workbench, &trace);
        agent.setClock(std::make_shared<FixedClock>());
        workbench.add(std::make_shared<FunctionTool>(
            ToolSchema{u"add"_s, u"adds"_s, QJsonObject{{u"type"_s, u"object"_s}}},
            [](const QJsonObject &, ToolContext &context) {
                context.reportProgress(u"half way"_s);
                return ToolResult::success(u"2"_s);
            }));
        ScriptedModelClient::Step first
            = ScriptedModelClient::calls({ScriptedModelClient::call(u"c1"_s, u"add"_s, u"{}"_s)});
        ModelAttempt failed;
        failed.httpStatus = 529;
        failed.error = u"busy"_s;
        failed.retryInMs = 0;
        first.retries.append(failed);
        client.enqueue({first, ScriptedModelClient::text(u"Two."_s)});

        QByteArrayList lines;
        connect(&agent, &Agent::event, this, [&lines](const AgentEvent &e) { lines.append(jsonLine(e)); });
        QSignalSpy finished(&agent, &Agent::turnFinished);
        QVERIFY(agent.send(u"1+1?"_s));
        QTRY_COMPARE(finished.size(), 1);

        const QByteArrayList expected{
            R"({"agent":"assistant","event":"turn_started","iteration":0,"text":"1+1?","timeUs":1000,"traceNode":0})",
            R"({"agent":"assistant","event":"iteration_started","iteration":1,"maxIterations":10,"timeUs":1000,"toolsOffered":true,"traceNode":1,"wrapUpNote":false})",
            R"({"agent":"assistant","edited":false,"event":"model_request","iteration":1,"messages":1,"timeUs":1000,"toolChoice":"auto","tools":1,"traceNode":2})",
            R"({"agent":"assistant","attempt":1,"event":"retry","httpStatus":529,"isError":true,"iteration":1,"retryInMs":0,"text":"busy","timeUs":1000,"traceNode":3})",
            R"({"agent":"assistant","event":"model_response","finishReason":"tool_calls","inputTokens":10,"iteration":1,"outputTokens":5,"timeUs":1000,"toolCalls":1,"traceNode":2})",
            R"({"agent":"assistant","event":"tool_call","iteration":1,"timeUs":1000,"toolCall":{"arguments":"{}","id":"c1","name":"add"},"traceNode":4})",
            R"({"agent":"assistant","event":"tool_progress","iteration":1,"text":"half way","timeUs":1000,"toolCall":{"arguments":"{}","id":"c1","name":"add"},"traceNode":4})",
            R"({"agent":"assistant","event":"tool_result","iteration":1,"status":"ok","text":"2","timeUs":1000,"toolCall":{"arguments":"{}","id":"c1","name":"add"},"traceNode":4})",
            R"({"agent":"assistant","event":"iteration_started","iteration":2,"maxIterations":10,"timeUs":1000,"toolsOffered":true,"traceNode":5,"wrapUpNote":false})",
            R"({"agent":"assistant","edited":false,"event":"model_request","iteration":2,"messages":3,"timeUs":1000,"toolChoice":"auto","tools":1,"traceNode":6})",
            R"({"agent":"assistant","event":"text_delta","iteration":2,"text":"Two.","timeUs":1000,"traceNode":6})",
            R"({"agent":"assistant","event":"model_response","finishReason":"stop","inputTokens":10,"iteration":2,"outputTokens":5,"text":"Two.","timeUs":1000,"toolCalls":0,"traceNode":6})",
            R"({"agent":"assistant","event":"finished","inputTokens":20,"iteration":0,"iterations":2,"outcome":"answered","outputTokens":10,"text":"Two.","timeUs":1000,"traceNode":0})"};
        QCOMPARE(lines, expected);
    }
};

QTEST_GUILESS_MAIN(AgentEventTest)
#include "tst_agentevent.moc"
