#include "tests/support/democonversation.h"

#include "tests/support/fakehttpserver.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

QByteArray chunk(const QJsonObject &delta, const QString &finishReason = {})
{
    QJsonObject choice{{u"index"_s, 0}, {u"delta"_s, delta}};
    choice.insert(u"finish_reason"_s,
                  finishReason.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(finishReason));
    const QJsonObject body{{u"id"_s, u"chatcmpl-demo"_s},
                           {u"object"_s, u"chat.completion.chunk"_s},
                           {u"model"_s, u"gpt-4o-mini"_s},
                           {u"choices"_s, QJsonArray{choice}}};
    return FakeHttpServer::sseEvent(QJsonDocument(body).toJson(QJsonDocument::Compact));
}

QByteArray usageChunk(int input, int output)
{
    const QJsonObject body{
        {u"id"_s, u"chatcmpl-demo"_s},
        {u"choices"_s, QJsonArray{}},
        {u"usage"_s, QJsonObject{{u"prompt_tokens"_s, input}, {u"completion_tokens"_s, output}}}};
    return FakeHttpServer::sseEvent(QJsonDocument(body).toJson(QJsonDocument::Compact));
}

QJsonObject toolCallDelta(int index, const QString &id, const QString &name, const QString &arguments)
{
    return {{u"tool_calls"_s,
             QJsonArray{
                 QJsonObject{{u"index"_s, index},
                             {u"id"_s, id},
                             {u"type"_s, u"function"_s},
                             {u"function"_s, QJsonObject{{u"name"_s, name}, {u"arguments"_s, arguments}}}}}}};
}

// The calculator answers "0.17*2340 = 397.8": the model works with the value.
QString valueOf(const QString &result)
{
    const qsizetype equals = result.lastIndexOf(u'=');
    return equals < 0 ? result.trimmed() : result.mid(equals + 1).trimmed();
}

struct Seen
{
    int toolResults = 0;
    int userMessages = 0;
    QStringList results; // tool message contents, in order
};

Seen inspect(const QJsonObject &request)
{
    Seen seen;
    const QJsonArray messages = request.value(u"messages"_s).toArray();
    // Only what follows the last question belongs to the current turn.
    for (const QJsonValue &value : messages) {
        const QString role = value[u"role"_s].toString();
        if (role == u"user") {
            ++seen.userMessages;
            seen.toolResults = 0;
            seen.results.clear();
        } else if (role == u"tool") {
            ++seen.toolResults;
            seen.results.append(value[u"content"_s].toString());
        }
    }
    return seen;
}

QString answer(const Seen &seen)
{
    const QString share = valueOf(seen.results.value(0));
    const QString time = seen.results.value(1);
    const QString rest = valueOf(seen.results.value(2));
    return u"## The numbers\n\n"
           "| Question | Tool | Result |\n"
           "| --- | --- | --- |\n"
           "| 17 % of 2,340 | `calculator` | **%1** |\n"
           "| What is left | `calculator` | **%2** |\n"
           "| Time in UTC | `current_time` | %3 |\n\n"
           "Two calls ran in parallel in the first iteration, the subtraction in the second.\n\n"
           "```python\nshare = 0.17 * 2340\nrest = 2340 - share\n```\n"_s.arg(share, rest, time.left(40));
}

// The stream of one response: optional text, then tool calls, then usage.
void respond(HttpExchange &exchange, int pieceDelayMs, const QString &text, const QList<QStringList> &calls,
             int inputTokens)
{
    if (!text.isEmpty()) {
        for (qsizetype i = 0; i < text.size(); i += 12)
            exchange.send(chunk({{u"content"_s, text.mid(i, 12)}}), pieceDelayMs);
    }
    for (int i = 0; i < calls.size(); ++i)
        exchange.send(chunk(toolCallDelta(i, calls.at(i).at(0), calls.at(i).at(1), calls.at(i).at(2))),
                      pieceDelayMs);
    exchange.send(chunk({}, calls.isEmpty() ? u"stop"_s : u"tool_calls"_s), pieceDelayMs);
    exchange.send(usageChunk(inputTokens, int(text.size() / 4) + 20 * int(calls.size())), pieceDelayMs);
}

} // namespace

void DemoConversation::installRecovery(FakeHttpServer &server, int pieceDelayMs)
{
    server.setHandler([pieceDelayMs](const HttpRequestRecord &request, HttpExchange &exchange) {
        const Seen seen = inspect(request.json());
        exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
        const int input = 380 + 70 * seen.toolResults;
        if (seen.userMessages > 1) {
            respond(exchange, pieceDelayMs, u"Ask away."_s, {}, input);
        } else if (seen.toolResults == 0) {
            respond(exchange, pieceDelayMs, {},
                    {{u"call_pct"_s, u"calculator"_s, u"{\"expr\":\"0.15*80\"}"_s},
                     {u"call_weather"_s, u"get_weather"_s, u"{\"city\":\"Paris\"}"_s}},
                    input);
        } else if (seen.toolResults == 2) {
            respond(exchange, pieceDelayMs, u"The calculator wants an `expression`; trying again."_s,
                    {{u"call_pct_2"_s, u"calculator"_s, u"{\"expression\":\"0.15*80\"}"_s}}, input);
        } else {
            respond(exchange, pieceDelayMs,
                    u"15% of 80 is **%1**.\n\nI have no weather tool here (only %2), so I cannot tell you "
                    "the weather in Paris."_s.arg(valueOf(seen.results.value(2)),
                                                  seen.results.value(1).contains(u"current_time"_s)
                                                      ? u"a calculator and a clock"_s
                                                      : u"a calculator"_s),
                    {}, input);
        }
        exchange.send("data: [DONE]\n\n", pieceDelayMs);
        exchange.end();
    });
}

void DemoConversation::installMcp(FakeHttpServer &server, int pieceDelayMs)
{
    server.setHandler([pieceDelayMs](const HttpRequestRecord &request, HttpExchange &exchange) {
        const Seen seen = inspect(request.json());
        exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
        const int input = 900 + 80 * seen.toolResults;
        if (seen.toolResults == 0) {
            respond(exchange, pieceDelayMs, u"Starting both on the MCP server."_s,
                    {{u"call_long"_s, u"trigger-long-running-operation"_s, u"{\"duration\":3,\"steps\":5}"_s},
                     {u"call_echo"_s, u"echo"_s, u"{\"message\":\"hello\"}"_s}},
                    input);
        } else {
            respond(
                exchange, pieceDelayMs,
                u"Both ran on **everything**, the MCP server:\n\n"
                "- the long operation reported its five steps and finished: %1\n"
                "- echo answered: %2"_s.arg(seen.results.value(0).left(80), seen.results.value(1).left(80)),
                {}, input);
        }
        exchange.send("data: [DONE]\n\n", pieceDelayMs);
        exchange.end();
    });
}

void DemoConversation::installEdit(FakeHttpServer &server, int pieceDelayMs)
{
    server.setHandler([pieceDelayMs](const HttpRequestRecord &request, HttpExchange &exchange) {
        const Seen seen = inspect(request.json());
        exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
        const int input = 700 + 90 * seen.toolResults;
        if (seen.toolResults == 0) {
            respond(
                exchange, pieceDelayMs, u"I'll tick it off and count what is left."_s,
                {{u"call_edit"_s, u"edit_file"_s,
                  u"{\"path\":\"notes.md\",\"old_text\":\"- [ ] tag v1.4\",\"new_text\":\"- [x] tag v1.4\"}"_s},
                 {u"call_count"_s, u"run_command"_s, u"{\"command\":\"grep -c '\\\\[ \\\\]' notes.md\"}"_s}},
                input);
        } else {
            respond(exchange, pieceDelayMs,
                    u"Done: **tag v1.4** is ticked in `notes.md`. Open tasks left: %1."_s.arg(
                        seen.results.value(1).section(u'\n', 0, 0).trimmed()),
                    {}, input);
        }
        exchange.send("data: [DONE]\n\n", pieceDelayMs);
        exchange.end();
    });
}

void DemoConversation::install(FakeHttpServer &server, int pieceDelayMs)
{
    server.setHandler([pieceDelayMs](const HttpRequestRecord &request, HttpExchange &exchange) {
        const Seen seen = inspect(request.json());
        exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
        const auto text = [&](const QString &answerText) {
            // Streamed in small pieces, as a model would.
            for (qsizetype i = 0; i < answerText.size(); i += 12)
                exchange.send(chunk({{u"content"_s, answerText.mid(i, 12)}}), pieceDelayMs);
            exchange.send(chunk({}, u"stop"_s), pieceDelayMs);
            exchange.send(usageChunk(420 + 60 * seen.toolResults, int(answerText.size() / 4)), pieceDelayMs);
        };
        if (seen.userMessages > 1) {
            text(u"Sure — ask me anything about the numbers above."_s);
        } else if (seen.toolResults == 0) {
            exchange.send(chunk({{u"role"_s, u"assistant"_s}, {u"content"_s, u"Let me work that out."_s}}),
                          pieceDelayMs);
            exchange.send(chunk(toolCallDelta(0, u"call_share"_s, u"calculator"_s, u"{\"expression\":"_s)),
                          pieceDelayMs);
            exchange.send(
                chunk({{u"tool_calls"_s,
                        QJsonArray{QJsonObject{
                            {u"index"_s, 0},
                            {u"function"_s, QJsonObject{{u"arguments"_s, u"\"0.17*2340\"}"_s}}}}}}}),
                pieceDelayMs);
            exchange.send(
                chunk(toolCallDelta(1, u"call_time"_s, u"current_time"_s, u"{\"timezone\":\"UTC\"}"_s)),
                pieceDelayMs);
            exchange.send(chunk({}, u"tool_calls"_s), pieceDelayMs);
            exchange.send(usageChunk(412, 38), pieceDelayMs);
        } else if (seen.toolResults == 2) {
            exchange.send(
                chunk(toolCallDelta(0, u"call_rest"_s, u"calculator"_s,
                                    u"{\"expression\":\"2340-%1\"}"_s.arg(valueOf(seen.results.value(0))))),
                pieceDelayMs);
            exchange.send(chunk({}, u"tool_calls"_s), pieceDelayMs);
            exchange.send(usageChunk(486, 21), pieceDelayMs);
        } else {
            text(answer(seen));
        }
        exchange.send("data: [DONE]\n\n", pieceDelayMs);
        exchange.end();
    });
}

} // namespace Loopscope
