#pragma once

#include "agent/loop/agent.h"
#include "agent/replay/recordedturn.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "agent/transcript/transcript.h"
#include "tests/support/scriptedmodelclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <functional>

// Recorded runs for the replay tests: real agents on scripted models with real tools.
namespace Loopscope::Testing {

using namespace Qt::StringLiterals;
using Step = ScriptedModelClient::Step;

inline QString json(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

inline QJsonObject objectSchema(const QJsonObject &properties, const QStringList &required)
{
    return {{u"type"_s, u"object"_s},
            {u"properties"_s, properties},
            {u"required"_s, QJsonArray::fromStringList(required)},
            {u"additionalProperties"_s, false}};
}

inline ToolCall add(const QString &id, int a, int b)
{
    return ScriptedModelClient::call(id, u"add"_s, json({{u"a"_s, a}, {u"b"_s, b}}));
}

inline ToolCall multiply(const QString &id, int a, int b)
{
    return ScriptedModelClient::call(id, u"multiply"_s, json({{u"a"_s, a}, {u"b"_s, b}}));
}

inline ToolCall call(const QString &id, const QString &name)
{
    return ScriptedModelClient::call(id, name, u"{}"_s);
}

/*
    Real tools: add, multiply (off by `multiplyBias`, for a tool that changed
    since the recording), fail (always an error) and wait (runs until
    cancelled). They count how often they ran, on whichever thread.
*/
struct Tools
{
    std::atomic_int runs = 0;
    int multiplyBias = 0;

    explicit Tools(int bias = 0)
        : multiplyBias(bias)
    {}

    void install(Workbench &workbench)
    {
        const QJsonObject integer{{u"type"_s, u"integer"_s}};
        const QJsonObject pair = objectSchema({{u"a"_s, integer}, {u"b"_s, integer}}, {u"a"_s, u"b"_s});
        const auto number = [](const QJsonObject &args, const QString &key) {
            return args.value(key).toInteger();
        };
        addTool(workbench, u"add"_s, pair, [this, number](const QJsonObject &args, ToolContext &) {
            ++runs;
            return ToolResult::success(QString::number(number(args, u"a"_s) + number(args, u"b"_s)));
        });
        addTool(workbench, u"multiply"_s, pair, [this, number](const QJsonObject &args, ToolContext &) {
            ++runs;
            return ToolResult::success(
                QString::number(number(args, u"a"_s) * number(args, u"b"_s) + multiplyBias));
        });
        addTool(workbench, u"fail"_s, objectSchema({}, {}), [this](const QJsonObject &, ToolContext &) {
            ++runs;
            return ToolResult::failure(u"the disk is on fire"_s);
        });
        addTool(workbench, u"wait"_s, objectSchema({}, {}),
                [this](const QJsonObject &, ToolContext &context) {
                    ++runs;
                    while (!context.isCancelled())
                        QThread::msleep(5);
                    return ToolResult::success(u"waited"_s);
                });
    }

    static void addTool(Workbench &workbench, const QString &name, const QJsonObject &schema,
                        FunctionTool::Function function)
    {
        workbench.add(
            std::make_shared<FunctionTool>(ToolSchema{name, name + u" tool"_s, schema}, std::move(function)));
    }
};

inline AgentConfig recordingConfig()
{
    AgentConfig config;
    config.systemPrompt = u"You add and multiply."_s;
    config.model.model = u"test-model"_s;
    config.model.temperature = 0.2;
    return config;
}

// A real agent on a scripted model: runs turns and saves them as a session would.
struct Recording
{
    ScriptedModelClient client;
    Tools tools;
    Workbench workbench;
    Trace trace;
    Agent agent{&client, &workbench, &trace};
    QSignalSpy finished{&agent, &Agent::turnFinished};

    explicit Recording(const AgentConfig &config = recordingConfig())
    {
        tools.install(workbench);
        agent.setConfig(config);
    }
    ~Recording()
    {
        if (agent.isRunning())
            agent.cancel();
    }

    TurnResult run(const QString &input, const QList<Step> &steps, const QList<Attachment> &attachments = {})
    {
        client.enqueue(steps);
        const auto before = finished.size();
        if (!agent.send(input, attachments)
            || !QTest::qWaitFor([&] { return finished.size() > before; }, 20000))
            return {};
        return finished.constLast().first().value<TurnResult>();
    }

    Transcript transcript() const
    {
        Transcript transcript;
        transcript.title = u"Sums"_s;
        transcript.created = QDateTime(QDate(2024, 5, 1), QTime(9, 0), Qt::UTC);
        transcript.updated = transcript.created;
        transcript.providerKind = u"openai"_s;
        transcript.config = agent.config();
        transcript.tools = workbench.names();
        transcript.messages = agent.history();
        transcript.trace = trace.toJson();
        return transcript;
    }

    QList<RecordedTurn> turns() const
    {
        const auto turns = RecordedTurn::fromTranscript(transcript());
        return turns.value_or(QList<RecordedTurn>{});
    }
};

// The standard turn: iteration 1 adds and multiplies in parallel, iteration 2 adds the results, 3 answers.
inline const QString question = u"What is (2 + 3) + 4 × 5?"_s;
inline const QString answer = u"2 + 3 is 5 and 4 × 5 is 20, which makes 25 together."_s;

inline QList<Step> threeIterations()
{
    return {ScriptedModelClient::calls({add(u"c1"_s, 2, 3), multiply(u"c2"_s, 4, 5)}),
            ScriptedModelClient::calls({add(u"c3"_s, 5, 20)}), ScriptedModelClient::text(answer)};
}

// Finds the tool call node \a callId anywhere in a trace's JSON and gives it another result.
inline bool changeRecordedResult(QJsonArray &trace, const QString &callId, const QString &result)
{
    const std::function<bool(QJsonObject &)> visit = [&](QJsonObject &node) {
        QJsonObject data = node.value(u"data"_s).toObject();
        if (node.value(u"kind"_s).toString() == u"tool_call"
            && data.value(u"call"_s).toObject().value(u"id"_s).toString() == callId) {
            data.insert(u"result"_s, result);
            node.insert(u"data"_s, data);
            return true;
        }
        QJsonArray children = node.value(u"children"_s).toArray();
        for (qsizetype i = 0; i < children.size(); ++i) {
            QJsonObject child = children.at(i).toObject();
            if (visit(child)) {
                children.replace(i, child);
                node.insert(u"children"_s, children);
                return true;
            }
        }
        return false;
    };
    for (qsizetype i = 0; i < trace.size(); ++i) {
        QJsonObject root = trace.at(i).toObject();
        if (visit(root)) {
            trace.replace(i, root);
            return true;
        }
    }
    return false;
}

/*
    Four turns, the third replaced by "regenerate":
      turn 0  messages 0-3  "What is 2 + 3?"  add, then "5."
      turn 1  messages 4-7  "And 4 × 5?"      multiply, then "20."
      turn 2  (replaced)    "Say hi"          "hi"
      turn 3  messages 8-9  "Say hello"       "hello"
*/
inline Transcript fourTurns()
{
    Recording recording;
    recording.run(u"What is 2 + 3?"_s,
                  {ScriptedModelClient::calls({add(u"c1"_s, 2, 3)}), ScriptedModelClient::text(u"5."_s)});
    recording.run(u"And 4 × 5?"_s, {ScriptedModelClient::calls({multiply(u"c2"_s, 4, 5)}),
                                    ScriptedModelClient::text(u"20."_s)});
    recording.run(u"Say hi"_s, {ScriptedModelClient::text(u"hi"_s)});
    recording.agent.setHistory(recording.agent.history().first(8));
    recording.run(u"Say hello"_s, {ScriptedModelClient::text(u"hello"_s)});
    return recording.transcript();
}

} // namespace Loopscope::Testing
