#pragma once

// Traces for the trace panel's tests: one finished turn with every part the
// inspector shows, and helpers to grow a trace step by step.

#include "agent/trace/trace.h"

#include <QJsonArray>
#include <QJsonObject>

namespace TraceSamples {

using namespace Loopscope;
using namespace Qt::StringLiterals;

constexpr qint64 T0 = 1'712'345'678'000'000; // April 2024, in microseconds
constexpr qint64 Ms = 1000;

inline const QString Url = u"https://api.openai.com/v1/chat/completions"_s;
// The user's message as the request body echoes it: a quote for the shell, a word to search for.
inline const QString UserText = u"Please summarise the quarterly report, it's due Friday"_s;

inline QJsonObject wireRequest(const QString &authorization = u"[redacted]"_s)
{
    const QJsonObject body{
        {u"model"_s, u"gpt-4o-mini"_s},
        {u"stream"_s, true},
        {u"messages"_s, QJsonArray{QJsonObject{{u"role"_s, u"user"_s}, {u"content"_s, UserText}}}}};
    return {{u"method"_s, u"POST"_s},
            {u"url"_s, Url},
            {u"headers"_s,
             QJsonObject{{u"Authorization"_s, authorization}, {u"Content-Type"_s, u"application/json"_s}}},
            {u"body"_s, body}};
}

inline ModelCallData modelCallData(const QString &authorization = u"[redacted]"_s)
{
    ModelCallData data;
    data.provider = u"openai"_s;
    data.model = u"gpt-4o-mini"_s;
    ModelRequest request;
    request.messages = {Message::user(UserText)};
    request.options.model = u"gpt-4o-mini"_s;
    data.request = request;
    data.response.text = u"Here is the summary."_s;
    data.response.usage = {1200, 34};

    ModelAttempt throttled;
    throttled.number = 1;
    throttled.startedUs = T0 + 10 * Ms;
    throttled.endedUs = T0 + 200 * Ms;
    throttled.httpStatus = 429;
    throttled.error = u"HTTP 429 Too Many Requests"_s;
    throttled.retryInMs = 300;
    throttled.request = wireRequest(authorization);
    throttled.response = QJsonObject{{u"error"_s, QJsonObject{{u"message"_s, u"slow down"_s}}}};

    ModelAttempt answered = throttled;
    answered.number = 2;
    answered.startedUs = T0 + 500 * Ms;
    answered.endedUs = T0 + 1000 * Ms;
    answered.httpStatus = 200;
    answered.error.clear();
    answered.retryInMs = -1;
    answered.response = QJsonArray{u"data: {\"choices\":[]}"_s};

    data.attempts = {throttled, answered};
    return data;
}

inline ToolCallData toolCallData(const QString &name, const QString &arguments, const QString &result = {})
{
    ToolCallData data;
    data.call = ToolCall{u"call_"_s + name, name, arguments, {}};
    data.result = result;
    return data;
}

/*
    turn "Summarise the report"                 0 .. 2500 ms
      iteration 1                               0 .. 2100 ms
        model call (2 attempts)                10 .. 1000 ms
          retry after attempt 1                10 ..  200 ms
        tool read_file                       1100 .. 1500 ms
        tool run_shell (failed)              1200 .. 1900 ms   overlaps read_file
        error "run_shell failed"             2000 ms
      summary                                2200 .. 2300 ms
*/
struct Sample
{
    int turn = -1;
    int iteration = -1;
    int modelCall = -1;
    int retry = -1;
    int readFile = -1;
    int runShell = -1;
    int error = -1;
    int summary = -1;
};

inline Sample addSampleTurn(Trace &trace, const QString &authorization = u"[redacted]"_s)
{
    Sample s;
    s.turn = trace.begin(-1, TraceKind::Turn, u"Summarise the report"_s, T0, TurnData{});
    s.iteration = trace.begin(s.turn, TraceKind::Iteration, u"Iteration 1 of 10"_s, T0, IterationData{1, 10});
    s.modelCall = trace.begin(s.iteration, TraceKind::ModelCall, u"chat gpt-4o-mini"_s, T0 + 10 * Ms,
                              modelCallData(authorization));
    s.retry = trace.begin(s.modelCall, TraceKind::Retry, u"Retry after attempt 1"_s, T0 + 10 * Ms,
                          RetryData{1, 429, u"HTTP 429 Too Many Requests"_s, 300});
    trace.finish(s.retry, TraceStatus::Error, T0 + 200 * Ms);
    trace.finish(s.modelCall, TraceStatus::Ok, T0 + 1000 * Ms);

    s.readFile
        = trace.begin(s.iteration, TraceKind::ToolCall, u"read_file"_s, T0 + 1100 * Ms,
                      toolCallData(u"read_file"_s, u"{\"path\": \"report.md\"}"_s, u"Q3 revenue rose"_s));
    s.runShell = trace.begin(s.iteration, TraceKind::ToolCall, u"run_shell"_s, T0 + 1200 * Ms,
                             toolCallData(u"run_shell"_s, u"{\"command\": \"wc -l report.md\"}"_s));
    trace.finish(s.readFile, TraceStatus::Ok, T0 + 1500 * Ms);
    trace.update(s.runShell, [](TraceNode &node) {
        node.data<ToolCallData>().result = u"permission denied"_s;
        node.data<ToolCallData>().isError = true;
    });
    trace.finish(s.runShell, TraceStatus::Error, T0 + 1900 * Ms);
    s.error = trace.begin(s.iteration, TraceKind::Error, u"run_shell failed"_s, T0 + 2000 * Ms,
                          ErrorData{u"permission denied"_s, u"tool"_s});
    trace.finish(s.error, TraceStatus::Error, T0 + 2000 * Ms);
    trace.finish(s.iteration, TraceStatus::Ok, T0 + 2100 * Ms);

    s.summary = trace.begin(s.turn, TraceKind::Summary, u"Summary"_s, T0 + 2200 * Ms,
                            TextData{u"The report was summarised."_s});
    trace.finish(s.summary, TraceStatus::Ok, T0 + 2300 * Ms);
    trace.finish(s.turn, TraceStatus::Ok, T0 + 2500 * Ms);
    return s;
}

} // namespace TraceSamples
