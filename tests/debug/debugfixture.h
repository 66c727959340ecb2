#pragma once

#include "agent/loop/agent.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "tests/support/scriptedmodelclient.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QMutex>
#include <QPromise>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

namespace Loopscope::Testing {

using namespace Qt::StringLiterals;

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

// The arguments a tool ran with, recorded from whichever thread it ran on.
class Invocations
{
public:
    void record(const QJsonObject &arguments)
    {
        QMutexLocker lock(&m_mutex);
        m_arguments.append(arguments);
    }
    int count() const
    {
        QMutexLocker lock(&m_mutex);
        return int(m_arguments.size());
    }
    QList<QJsonObject> arguments() const
    {
        QMutexLocker lock(&m_mutex);
        return m_arguments;
    }

private:
    mutable QMutex m_mutex;
    QList<QJsonObject> m_arguments;
};

// A real agent on a scripted model with real tools: "add" (a + b) and "echo" (its text),
// and "fail", which always reports an error. The interceptors are the test's to add.
struct AgentFixture
{
    ScriptedModelClient client;
    Workbench workbench;
    Trace trace;
    Agent agent{&client, &workbench, &trace};
    QSignalSpy finished{&agent, &Agent::turnFinished};
    Invocations adds;
    Invocations echoes;
    Invocations failures;

    AgentFixture()
    {
        const QJsonObject integer{{u"type"_s, u"integer"_s}};
        const QJsonObject string{{u"type"_s, u"string"_s}};
        addTool(u"add"_s, objectSchema({{u"a"_s, integer}, {u"b"_s, integer}}, {u"a"_s, u"b"_s}),
                [this](const QJsonObject &args, ToolContext &) {
                    adds.record(args);
                    return ToolResult::success(
                        QString::number(args.value(u"a"_s).toInteger() + args.value(u"b"_s).toInteger()));
                });
        addTool(u"echo"_s, objectSchema({{u"text"_s, string}}, {u"text"_s}),
                [this](const QJsonObject &args, ToolContext &) {
                    echoes.record(args);
                    return ToolResult::success(args.value(u"text"_s).toString());
                });
        addTool(u"fail"_s, objectSchema({}, {}), [this](const QJsonObject &args, ToolContext &) {
            failures.record(args);
            return ToolResult::failure(u"the disk is on fire"_s);
        });
    }

    ~AgentFixture()
    {
        if (agent.isRunning())
            agent.cancel();
    }

    void addTool(const QString &name, const QJsonObject &schema, FunctionTool::Function function)
    {
        workbench.add(
            std::make_shared<FunctionTool>(ToolSchema{name, name + u" tool"_s, schema}, std::move(function)));
    }

    // "add_later": "add" as a tool that answers later, from a timer on this thread; its runs count as adds.
    void addAsyncAdd()
    {
        const QJsonObject integer{{u"type"_s, u"integer"_s}};
        workbench.add(std::make_shared<AsyncFunctionTool>(
            ToolSchema{u"add_later"_s, u"add_later tool"_s,
                       objectSchema({{u"a"_s, integer}, {u"b"_s, integer}}, {u"a"_s, u"b"_s})},
            [this](const QJsonObject &args, std::shared_ptr<ToolContext>) {
                adds.record(args);
                const auto promise = std::make_shared<QPromise<ToolResult>>();
                promise->start();
                QTimer::singleShot(10, &trace, [promise, args] {
                    promise->addResult(ToolResult::success(
                        QString::number(args.value(u"a"_s).toInteger() + args.value(u"b"_s).toInteger())));
                    promise->finish();
                });
                return promise->future();
            }));
    }

    static ToolCall add(const QString &id, int a, int b, const QString &tool = u"add"_s)
    {
        return ScriptedModelClient::call(id, tool, json({{u"a"_s, a}, {u"b"_s, b}}));
    }
    static ToolCall echo(const QString &id, const QString &text)
    {
        return ScriptedModelClient::call(id, u"echo"_s, json({{u"text"_s, text}}));
    }

    TurnResult lastResult() const { return finished.constLast().first().value<TurnResult>(); }

    QList<int> nodesOfKind(TraceKind kind) const
    {
        QList<int> result;
        for (int i = 0; i < trace.size(); ++i) {
            if (trace.node(i).kind == kind)
                result.append(i);
        }
        return result;
    }
    const ToolCallData &toolNode(int index = 0) const
    {
        return trace.node(nodesOfKind(TraceKind::ToolCall).at(index)).data<ToolCallData>();
    }

    // The last tool result in the request the model received \a request-th (0-based).
    Message lastToolResult(int request) const
    {
        const QList<Message> &messages = client.requests().at(request).messages;
        for (auto it = messages.crbegin(); it != messages.crend(); ++it) {
            if (it->role == Message::Role::Tool)
                return *it;
        }
        return {};
    }
};

} // namespace Loopscope::Testing
