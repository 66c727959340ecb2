#include "agent/conversation/attachmentloader.h"
#include "agent/export/exportfile.h"
#include "agent/export/htmlexport.h"
#include "agent/export/markdownexport.h"
#include "agent/export/otlpexport.h"
#include "agent/loop/agent.h"
#include "agent/providers/httpmodelclient.h"
#include "agent/providers/openaiprotocol.h"
#include "agent/safety/modelshield.h"
#include "agent/safety/ruleshield.h"
#include "agent/tools/functiontool.h"
#include "agent/tools/workbench.h"
#include "agent/trace/trace.h"
#include "agent/transcript/transcript.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/scriptedmodelclient.h"
#include "tests/support/testimages.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using Step = ScriptedModelClient::Step;

namespace {

// What the genuine session's tools return.
const QString priceResult = u"4.20 EUR"_s;
const QString lookupResult = u"Found:\n```\ncode\n````\n<script>alert(1)</script>\n\x1b[31mred\x1b[0m"_s;
const QString warehouseError = u"the warehouse is closed"_s;
const QString answerMarkdown
    = u"# Price\n\nA widget costs **4.20 EUR**.\n\n```python\nprint(\"`hi`\")\n```\n\n"
      "| item | price |\n|---|---|\n| widget | 4.20 |"_s;
const QString unclosedAnswer = u"Unclosed fence:\n```js\nlet x = 1;"_s;

QJsonObject objectSchema()
{
    return {{u"type"_s, u"object"_s}};
}

ToolCall call(const QString &id, const QString &name, const QString &arguments)
{
    return ScriptedModelClient::call(id, name, arguments);
}

// The transcript the app would save for a session, from a finished agent.
Transcript transcriptOf(const Agent &agent, const Trace &trace)
{
    Transcript transcript;
    transcript.title = u"Widget prices"_s;
    transcript.created = QDateTime(QDate(2024, 5, 1), QTime(9, 30), Qt::UTC);
    transcript.updated = QDateTime(QDate(2024, 5, 1), QTime(9, 45), Qt::UTC);
    transcript.providerKind = u"openai"_s;
    transcript.baseUrl = QUrl(u"https://api.example.com/v1"_s);
    transcript.config = agent.config();
    transcript.tools = {u"get_price"_s, u"lookup"_s, u"fail"_s};
    transcript.messages = agent.history();
    transcript.trace = trace.toJson();
    return transcript;
}

/*
    Runs a real agent through three turns: parallel calls (one failing) after
    a retried attempt and a Markdown answer; a call with arguments that are
    not JSON and an answer that leaves a fence open; a provider failure.
    A shield that never blocks records its checks.
*/
Transcript genuineSession()
{
    ScriptedModelClient client;
    Workbench workbench;
    Trace trace;
    Agent agent(&client, &workbench, &trace);
    auto clock = std::make_shared<SystemClock>();
    agent.setClock(clock);
    AgentConfig config;
    config.name = u"pricer"_s;
    config.model.model = u"gpt-test"_s;
    config.systemPrompt = u"Answer briefly."_s;
    agent.setConfig(config);

    auto shield = std::make_shared<RuleShield>(u"rules"_s);
    RuleShield::Rule rule;
    rule.pattern = u"forbidden"_s;
    shield->addRule(rule);
    agent.addShield(shield);

    const auto addTool = [&workbench](const QString &name, ToolResult result) {
        workbench.add(
            std::make_shared<FunctionTool>(ToolSchema{name, name, objectSchema()},
                                           [result](const QJsonObject &, ToolContext &) { return result; }));
    };
    addTool(u"get_price"_s, ToolResult::success(priceResult));
    addTool(u"lookup"_s, ToolResult::success(lookupResult));
    addTool(u"fail"_s, ToolResult::failure(warehouseError));

    // Built when the request arrives, so the retried attempt lies inside its model call.
    QList<std::function<Step()>> script{
        [&clock] {
            Step step = ScriptedModelClient::calls({call(u"c1"_s, u"get_price"_s, uR"({"item":"widget"})"_s),
                                                    call(u"c2"_s, u"lookup"_s, uR"({"q":"x"})"_s),
                                                    call(u"c3"_s, u"fail"_s, u"{}"_s)},
                                                   {}, {100, 20});
            ModelAttempt attempt;
            attempt.startedUs = clock->nowUs();
            attempt.endedUs = clock->nowUs();
            attempt.httpStatus = 503;
            attempt.error = u"the provider is overloaded (503)"_s;
            attempt.retryInMs = 5;
            step.retries = {attempt};
            return step;
        },
        [] {
            return ScriptedModelClient::text(answerMarkdown, {150, 30});
        },
        [] {
            return ScriptedModelClient::calls({call(u"c4"_s, u"lookup"_s, u"{not json"_s)}, {}, {10, 5});
        },
        [] {
            return ScriptedModelClient::text(unclosedAnswer, {20, 6});
        },
        [] { return ScriptedModelClient::failure(u"the provider failed (500)"_s); },
    };
    int next = 0;
    client.setResponder([&](const ModelRequest &) { return script.value(next++, [] { return Step(); })(); });

    QSignalSpy finished(&agent, &Agent::turnFinished);
    for (const QString &input : {u"What does a widget cost? <b>now</b>"_s,
                                 u"And is it <script>alert('x')</script> in stock?"_s, u"Fail, please."_s}) {
        const qsizetype before = finished.size();
        if (!agent.send(input) || !QTest::qWaitFor([&] { return finished.size() > before; }, 20000))
            return {};
    }
    return transcriptOf(agent, trace);
}

// The session with each of its model calls changed by \a edit, as if recorded that way.
Transcript withModelCalls(Transcript transcript, const std::function<void(ModelCallData &)> &edit)
{
    std::optional<TraceForest> forest = Trace::readJson(transcript.trace);
    if (!forest)
        return {};
    for (TraceNode &node : forest->nodes) {
        if (auto *call = std::get_if<ModelCallData>(&node.payload))
            edit(*call);
    }
    Trace trace;
    trace.assign(*std::move(forest));
    transcript.trace = trace.toJson();
    return transcript;
}

/*
    Two turns answered by different models of different providers, the user
    having switched in between, saved and opened again: what an export of a
    reopened session reads.
*/
Transcript reopenedSessionWithTwoModels()
{
    ScriptedModelClient client;
    Workbench workbench;
    Trace trace;
    Agent agent(&client, &workbench, &trace);
    AgentConfig config;
    config.model.model = u"model-a"_s;
    agent.setConfig(config);
    client.setResponder([](const ModelRequest &request) {
        return ScriptedModelClient::text(u"Answered by "_s + request.options.model, {10, 2});
    });
    QSignalSpy finished(&agent, &Agent::turnFinished);
    if (!agent.send(u"First question"_s) || !QTest::qWaitFor([&] { return finished.size() == 1; }, 20000))
        return {};
    config.model.model = u"model-b"_s;
    agent.setConfig(config);
    if (!agent.send(u"Second question"_s) || !QTest::qWaitFor([&] { return finished.size() == 2; }, 20000))
        return {};
    Transcript session = transcriptOf(agent, trace);
    session.providerKind = u"anthropic"_s; // the provider of the session's last turn
    session = withModelCalls(session, [](ModelCallData &call) {
        call.provider = call.model == u"model-a"_s ? u"openai"_s : u"anthropic"_s;
    });
    const TranscriptLoadResult reopened = TranscriptFile::parse(TranscriptFile::serialize(session));
    return reopened.transcript.value_or(Transcript());
}

// Priced when recorded at $10 per million input and $20 per million output tokens.
Transcript pricedSession(const Transcript &session)
{
    PriceBasis price;
    price.inputPerMTok = 10;
    price.outputPerMTok = 20;
    price.source = u"test"_s;
    return withModelCalls(session, [&price](ModelCallData &call) {
        if (!call.response.usage.isEmpty())
            call.cost = CostCalculator::cost(call.response.usage, price);
    });
}

Transcript transcriptWith(const QList<Message> &messages)
{
    Transcript transcript;
    transcript.title = u"A test"_s;
    transcript.created = QDateTime(QDate(2024, 5, 1), QTime(9, 30), Qt::UTC);
    transcript.providerKind = u"openai"_s;
    transcript.config.model.model = u"gpt-test"_s;
    transcript.messages = messages;
    return transcript;
}

// ---------------------------------------------------------------------------
// Markdown, read back the way CommonMark reads fenced code blocks

struct FencedBlock
{
    QString info;
    QString content;
};

struct MarkdownReading
{
    QList<FencedBlock> blocks;
    QStringList outsideLines; // every line not inside a fence
};

MarkdownReading readMarkdown(const QString &markdown)
{
    static const QRegularExpression fenceLine(u"^ {0,3}(`{3,}|~{3,})(.*)$"_s);
    MarkdownReading reading;
    QString open;
    FencedBlock block;
    QStringList content;
    for (const QString &line : markdown.split(u'\n')) {
        const QRegularExpressionMatch fence = fenceLine.match(line);
        if (open.isEmpty()) {
            if (fence.hasMatch()
                && !(fence.captured(1).front() == u'`' && fence.captured(2).contains(u'`'))) {
                open = fence.captured(1);
                block = {fence.captured(2).trimmed(), {}};
                content.clear();
            } else {
                reading.outsideLines.append(line);
            }
        } else if (fence.hasMatch() && fence.captured(1).front() == open.front()
                   && fence.captured(1).size() >= open.size() && fence.captured(2).trimmed().isEmpty()) {
            block.content = content.join(u'\n');
            reading.blocks.append(block);
            open.clear();
        } else {
            content.append(line);
        }
    }
    return reading;
}

QStringList blockContents(const MarkdownReading &reading)
{
    QStringList contents;
    for (const FencedBlock &block : reading.blocks)
        contents.append(block.content);
    return contents;
}

// ---------------------------------------------------------------------------
// HTML, read back as XML

struct HtmlReading
{
    QString error;
    QStringList elements;       // every element name, in document order
    QStringList attributeNames; // every attribute name
    QString text;               // all character data outside <style>
    QString style;
    QList<QXmlStreamAttributes> details;
    QString rootNamespace;
};

HtmlReading readHtml(const QByteArray &html)
{
    HtmlReading reading;
    QXmlStreamReader xml(html);
    QStringList stack;
    while (!xml.atEnd()) {
        switch (xml.readNext()) {
        case QXmlStreamReader::StartElement:
            if (stack.isEmpty())
                reading.rootNamespace = xml.namespaceUri().toString();
            stack.append(xml.name().toString());
            reading.elements.append(xml.name().toString());
            for (const QXmlStreamAttribute &attribute : xml.attributes())
                reading.attributeNames.append(attribute.name().toString());
            if (xml.name() == u"details")
                reading.details.append(xml.attributes());
            break;
        case QXmlStreamReader::EndElement: stack.removeLast(); break;
        case QXmlStreamReader::Characters:
            if (stack.value(stack.size() - 1) == u"style")
                reading.style += xml.text();
            else
                reading.text += xml.text();
            break;
        default: break;
        }
    }
    if (xml.hasError())
        reading.error = u"%1 at line %2, column %3"_s.arg(xml.errorString())
                            .arg(xml.lineNumber())
                            .arg(xml.columnNumber());
    return reading;
}

// The element the reader just started, as "name[child child]": text trimmed, empty text left out.
QString elementStructure(QXmlStreamReader &xml)
{
    QStringList parts;
    while (!xml.atEnd()) {
        const auto token = xml.readNext();
        if (token == QXmlStreamReader::StartElement) {
            const QString name = xml.name().toString();
            parts.append(name + u'[' + elementStructure(xml) + u']');
        } else if (token == QXmlStreamReader::Characters) {
            if (const QString text = xml.text().toString().trimmed(); !text.isEmpty())
                parts.append(text);
        } else if (token == QXmlStreamReader::EndElement) {
            break;
        }
    }
    return parts.join(u' ');
}

/*
    The first assistant message's content as a compact string such as
    "h3[Title] p[use code[x]]", so a test can state what the Markdown became.
*/
QString assistantContentStructure(const QByteArray &html)
{
    QXmlStreamReader xml(html);
    bool inAssistant = false;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const QString classes = xml.attributes().value(u"class"_s).toString();
        if (xml.name() == u"section")
            inAssistant = classes == u"message assistant";
        else if (inAssistant && xml.name() == u"div" && classes == u"content")
            return elementStructure(xml);
    }
    return {};
}

// ---------------------------------------------------------------------------
// OTLP, read back

struct OtlpSpan
{
    QString traceId;
    QString spanId;
    QString parentSpanId;
    QString name;
    int kind = 0;
    qint64 start = 0;
    qint64 end = 0;
    QHash<QString, QJsonObject> attributes; // key -> AnyValue
    QJsonArray events;
    int statusCode = 0;
    QString statusMessage;

    QString string(const QString &key) const
    {
        return attributes.value(key).value(u"stringValue"_s).toString();
    }
    qint64 integer(const QString &key) const
    {
        return attributes.value(key).value(u"intValue"_s).toString().toLongLong();
    }
    QList<QJsonObject> eventsNamed(const QString &name) const
    {
        QList<QJsonObject> result;
        for (const QJsonValue &event : events) {
            if (event[u"name"_s].toString() == name)
                result.append(event.toObject());
        }
        return result;
    }
};

QHash<QString, QJsonObject> keyValues(const QJsonArray &array)
{
    QHash<QString, QJsonObject> result;
    for (const QJsonValue &value : array)
        result.insert(value[u"key"_s].toString(), value[u"value"_s].toObject());
    return result;
}

QList<OtlpSpan> readSpans(const QByteArray &otlp)
{
    QList<OtlpSpan> spans;
    const QJsonObject root = QJsonDocument::fromJson(otlp).object();
    for (const QJsonValue &resourceSpans : root[u"resourceSpans"_s].toArray()) {
        for (const QJsonValue &scopeSpans : resourceSpans[u"scopeSpans"_s].toArray()) {
            for (const QJsonValue &value : scopeSpans[u"spans"_s].toArray()) {
                OtlpSpan span;
                span.traceId = value[u"traceId"_s].toString();
                span.spanId = value[u"spanId"_s].toString();
                span.parentSpanId = value[u"parentSpanId"_s].toString();
                span.name = value[u"name"_s].toString();
                span.kind = value[u"kind"_s].toInt();
                span.start = value[u"startTimeUnixNano"_s].toString().toLongLong();
                span.end = value[u"endTimeUnixNano"_s].toString().toLongLong();
                span.attributes = keyValues(value[u"attributes"_s].toArray());
                span.events = value[u"events"_s].toArray();
                span.statusCode = value[u"status"_s][u"code"_s].toInt();
                span.statusMessage = value[u"status"_s][u"message"_s].toString();
                spans.append(span);
            }
        }
    }
    return spans;
}

QList<OtlpSpan> spansWithOperation(const QList<OtlpSpan> &spans, const QString &operation)
{
    QList<OtlpSpan> result;
    for (const OtlpSpan &span : spans) {
        if (span.string(u"gen_ai.operation.name"_s) == operation)
            result.append(span);
    }
    return result;
}

const OtlpSpan *spanById(const QList<OtlpSpan> &spans, const QString &spanId)
{
    for (const OtlpSpan &span : spans) {
        if (span.spanId == spanId)
            return &span;
    }
    return nullptr;
}

const OtlpSpan *toolSpan(const QList<OtlpSpan> &spans, const QString &callId)
{
    for (const OtlpSpan &span : spans) {
        if (span.string(u"gen_ai.tool.call.id"_s) == callId)
            return &span;
    }
    return nullptr;
}

bool isHexId(const QString &id, int length)
{
    static const QRegularExpression hex(u"^[0-9a-f]+$"_s);
    return id.size() == length && hex.match(id).hasMatch() && id != QString(length, u'0');
}

enum class Format { Markdown, Html, Otlp, OtlpWithContent };

QByteArray exportAs(Format format, const Transcript &transcript)
{
    switch (format) {
    case Format::Markdown: return exportMarkdown(transcript).toUtf8();
    case Format::Html: return exportHtml(transcript);
    case Format::Otlp: return exportOtlpJson(transcript, {false, u"1.0"_s});
    case Format::OtlpWithContent: return exportOtlpJson(transcript, {true, u"1.0"_s});
    }
    return {};
}

} // namespace

Q_DECLARE_METATYPE(Format)
Q_DECLARE_METATYPE(Loopscope::Transcript)
Q_DECLARE_METATYPE(QList<Loopscope::Message>)
Q_DECLARE_METATYPE(Loopscope::ExportFormat)

class ExportsTest : public QObject
{
    Q_OBJECT

private:
    Transcript m_session;
    QList<OtlpSpan> m_spans;

    static void addFormatRows()
    {
        QTest::addColumn<Format>("format");
        QTest::newRow("Markdown") << Format::Markdown;
        QTest::newRow("HTML") << Format::Html;
        QTest::newRow("OTLP") << Format::Otlp;
        QTest::newRow("OTLP with content") << Format::OtlpWithContent;
    }

private slots:
    void initTestCase()
    {
        qRegisterMetaType<TurnResult>();
        m_session = genuineSession();
        QCOMPARE(m_session.messages.size(), 11);
        QVERIFY(historyIsWellFormed(m_session.messages));
        QCOMPARE(m_session.trace.size(), 3);
        QString error;
        const QByteArray otlp = exportOtlpJson(m_session, {}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_spans = readSpans(otlp);
        QVERIFY(!m_spans.isEmpty());
    }

    // --- Cost -------------------------------------------------------------

    void exportsShowWhatEachTurnAndTheSessionCost_data()
    {
        QTest::addColumn<Format>("format");
        QTest::addColumn<QStringList>("expected");
        // Turn 1: 250 in × $10/M + 50 out × $20/M = $0.0035; turn 2: 30 × $10/M + 11 × $20/M =
        // $0.00052; turn 3 failed before the model answered: nothing to price.
        QTest::newRow("Markdown") << Format::Markdown
                                  << QStringList{
                                         u"**Cost:** $0.0040"_s,      u"## Cost per turn"_s,
                                         u"| 250 | 50 | $0.0035 |"_s, u"| 30 | 11 | $0.0005 |"_s,
                                         u"| 0 | 0 | — |"_s,          u"**Session** | | | **$0.0040** |"_s};
        QTest::newRow("HTML") << Format::Html
                              << QStringList{u"<dt>Cost</dt><dd>$0.0040</dd>"_s, u"<h2>Cost per turn</h2>"_s,
                                             u"<td>250</td><td>50</td><td>$0.0035</td>"_s,
                                             u"<td>30</td><td>11</td><td>$0.0005</td>"_s,
                                             u"<th>Session</th><td></td><td></td><th>$0.0040</th>"_s};
    }

    void exportsShowWhatEachTurnAndTheSessionCost()
    {
        QFETCH(Format, format);
        QFETCH(QStringList, expected);
        const QString exported = QString::fromUtf8(exportAs(format, pricedSession(m_session)));
        for (const QString &part : std::as_const(expected))
            QVERIFY2(exported.contains(part), qPrintable(part + u"\n\n"_s + exported));
    }

    void otlpSpansCarryTheCost()
    {
        QString error;
        const QList<OtlpSpan> spans = readSpans(exportOtlpJson(pricedSession(m_session), {}, &error));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const auto costOf = [](const OtlpSpan &span) {
            return span.attributes.value(u"loopscope.cost.usd"_s).value(u"doubleValue"_s);
        };
        QList<double> chats;
        for (const OtlpSpan &span : spansWithOperation(spans, u"chat"_s)) {
            if (span.statusCode != 2) // a failed call has no usage and so no cost
                chats.append(costOf(span).toDouble());
            else
                QVERIFY(costOf(span).isUndefined());
        }
        // (100 × 10 + 20 × 20) / 1e6, (150 × 10 + 30 × 20) / 1e6, (10 × 10 + 5 × 20) / 1e6, (20 × 10 + 6 ×
        // 20) / 1e6
        const QList<double> expected{0.0014, 0.0021, 0.0002, 0.00032};
        QCOMPARE(chats.size(), expected.size());
        for (int i = 0; i < expected.size(); ++i)
            QVERIFY2(qAbs(chats.at(i) - expected.at(i)) < 1e-12, qPrintable(QString::number(chats.at(i))));
        const QList<OtlpSpan> turns = spansWithOperation(spans, u"invoke_agent"_s);
        QCOMPARE(turns.size(), 3);
        QVERIFY(qAbs(costOf(turns.at(0)).toDouble() - 0.0035) < 1e-12);
        QVERIFY(qAbs(costOf(turns.at(1)).toDouble() - 0.00052) < 1e-12);
        QVERIFY(costOf(turns.at(2)).isUndefined()); // unknown, not $0
        // The conventions' usage attributes are there as before.
        QCOMPARE(spansWithOperation(spans, u"chat"_s).constFirst().integer(u"gen_ai.usage.input_tokens"_s),
                 100);
    }

    void otlpCountsCachedInputTokens()
    {
        const Transcript cached = withModelCalls(m_session, [](ModelCallData &call) {
            if (!call.response.usage.isEmpty()) {
                call.response.usage.cacheReadTokens = 4;
                call.response.usage.cacheWriteTokens = 2;
            }
        });
        const OtlpSpan chat
            = spansWithOperation(readSpans(exportOtlpJson(cached, {})), u"chat"_s).constFirst();
        QCOMPARE(chat.integer(u"gen_ai.usage.cache_read.input_tokens"_s), 4);
        QCOMPARE(chat.integer(u"gen_ai.usage.cache_creation.input_tokens"_s), 2);
    }

    void otlpRecordsTopPAsTheRequestSetIt_data()
    {
        QTest::addColumn<double>("topP"); // NaN: unset
        QTest::newRow("unset: no attribute") << qQNaN();
        QTest::newRow("set") << 0.9;
        QTest::newRow("zero is a value") << 0.0;
    }

    void otlpRecordsTopPAsTheRequestSetIt()
    {
        QFETCH(double, topP);
        const Transcript sampled = withModelCalls(m_session, [topP](ModelCallData &call) {
            ModelRequest request = call.request.whole();
            request.options.topP = std::isnan(topP) ? std::nullopt : std::optional(topP);
            call.request = request;
        });
        const OtlpSpan chat
            = spansWithOperation(readSpans(exportOtlpJson(sampled, {})), u"chat"_s).constFirst();
        QCOMPARE(chat.attributes.contains(u"gen_ai.request.top_p"_s), !std::isnan(topP));
        if (!std::isnan(topP))
            QCOMPARE(chat.attributes.value(u"gen_ai.request.top_p"_s).value(u"doubleValue"_s).toDouble(-1),
                     topP);
    }

    void aSessionRecordedWithoutCostsIsPricedOnExport()
    {
        // As recorded before costs were kept, against OpenAI: the shipped price table prices it
        // (gpt-4o at $2.5 / $10 per million): turn 1 250 × 2.5 + 50 × 10, turn 2 30 × 2.5 + 11 × 10.
        Transcript old = withModelCalls(m_session, [](ModelCallData &call) {
            call.provider = u"openai"_s;
            call.model = u"gpt-4o"_s;
            call.response.model = u"gpt-4o-2024-08-06"_s;
            call.cost.reset();
        });
        old.providerKind = u"openai"_s;
        old.baseUrl = QUrl(u"https://api.openai.com/v1"_s);
        const QString markdown = exportMarkdown(old);
        QVERIFY2(markdown.contains(u"**Cost:** $0.0013"_s), qPrintable(markdown));
        QVERIFY2(markdown.contains(u"| $0.0011 |"_s), qPrintable(markdown));
    }

    void aSessionWithoutKnownPricesShowsNoCost()
    {
        // The fixture's model is "gpt-test": no table knows it, so the cost is unknown, not $0.
        const QString markdown = exportMarkdown(m_session);
        QVERIFY2(markdown.contains(u"**Cost:** —"_s), qPrintable(markdown));
        QVERIFY(!markdown.contains(u"$0"_s));
    }

    // --- Markdown ---------------------------------------------------------

    void markdownShowsEachKindOfMessage_data()
    {
        QTest::addColumn<QList<Message>>("messages");
        QTest::addColumn<QString>("expected");

        const ToolCall price = call(u"c1"_s, u"get_price"_s, uR"({"item":"widget"})"_s);
        QTest::newRow("a user message sits under a User heading")
            << QList<Message>{Message::user(u"Hello *there*"_s)} << u"## User\n\nHello *there*\n"_s;
        QTest::newRow("an assistant message keeps its Markdown, its headings below the role")
            << QList<Message>{Message::assistant(u"# Plan\n\n- one\n- two"_s)}
            << u"## Assistant\n\n### Plan\n\n- one\n- two\n"_s;
        QTest::newRow("a system message sits under a System heading")
            << QList<Message>{Message::system(u"Be brief."_s)} << u"## System\n\nBe brief.\n"_s;
        QTest::newRow("a tool call shows its arguments as a fenced JSON block")
            << QList<Message>{Message::assistant({}, {price}), Message::toolResult(price, priceResult, false)}
            << u"### Tool call `get_price` (`c1`)\n\n```json\n{\n    \"item\": \"widget\"\n}\n```\n"_s;
        QTest::newRow("a result follows its call, fenced")
            << QList<Message>{Message::assistant({}, {price}), Message::toolResult(price, priceResult, false)}
            << u"```\n\n**Result**\n\n```text\n4.20 EUR\n```"_s;
        QTest::newRow("a failed result is marked as an error")
            << QList<Message>{Message::assistant({}, {price}),
                              Message::toolResult(price, warehouseError, true)}
            << u"**Result (error)**\n\n```text\nthe warehouse is closed\n```"_s;
        QTest::newRow("arguments that are not JSON are shown as they came")
            << QList<Message>{Message::assistant({}, {call(u"c2"_s, u"lookup"_s, u"{not json"_s)})}
            << u"*The arguments are not valid JSON:*\n\n```text\n{not json\n```"_s;
        QTest::newRow("a call nothing answered says so")
            << QList<Message>{Message::assistant({}, {price})} << u"*No result was recorded.*"_s;
        QTest::newRow("a result that answers no call stands alone")
            << QList<Message>{Message::user(u"hi"_s),
                              Message::toolResult(call(u"c9"_s, u"lookup"_s, {}), u"orphan"_s, false)}
            << u"### Tool result `lookup` (`c9`)\n\n**Result**\n\n```text\norphan\n```"_s;
        QTest::newRow("raw HTML in a message is made inert, code spans stay as they are")
            << QList<Message>{Message::user(u"Hi <script>x</script> and `<b>` or ``a`<i>``"_s)}
            << u"Hi &lt;script>x&lt;/script> and `<b>` or ``a`<i>``\n"_s;
        QTest::newRow("empty arguments are an empty object")
            << QList<Message>{Message::assistant({}, {call(u"c6"_s, u"now"_s, u"{}"_s)})}
            << u"```json\n{}\n```"_s;
        QTest::newRow("markup in a tool name stays code")
            << QList<Message>{Message::assistant({}, {call(u"c5"_s, u"a`b*c"_s, u"{}"_s)})}
            << u"### Tool call ``a`b*c`` (`c5`)"_s;
    }

    void markdownShowsEachKindOfMessage()
    {
        QFETCH(QList<Message>, messages);
        QFETCH(QString, expected);

        const QString markdown = exportMarkdown(transcriptWith(messages));

        QVERIFY2(markdown.contains(expected), qPrintable(markdown));
    }

    void markdownStartsWithTheTitleAndAMetadataLine()
    {
        const QString markdown = exportMarkdown(m_session);

        QVERIFY2(markdown.startsWith(u"# Widget prices\n\n**Model:** `gpt-test` · **Provider:** openai "
                                     "(`https://api.example.com/v1`) · **Agent:** pricer · **Created:** "
                                     "2024-05-01 09:30 UTC · **Updated:** 2024-05-01 09:45 UTC\n\n"
                                     "**Tools:** `get_price`, `lookup`, `fail` · **Turns:** 3 · "
                                     "**Tokens:** 280 in, 61 out · **Cost:** —\n\n"_s),
                 qPrintable(markdown.left(600)));
        QVERIFY(markdown.contains(u"## System prompt\n\n```text\nAnswer briefly.\n```"_s));
    }

    void markdownTitleCannotAddMarkup()
    {
        Transcript transcript = transcriptWith({});
        transcript.title = u"*Big* [link](x) <b>\n# not a heading"_s;

        const QString markdown = exportMarkdown(transcript);

        QCOMPARE(markdown.section(u'\n', 0, 0), u"# \\*Big\\* \\[link\\](x) \\<b\\> \\# not a heading"_s);
    }

    void markdownOfASessionHasEveryCallAndResult()
    {
        const QString markdown = exportMarkdown(m_session);
        const MarkdownReading reading = readMarkdown(markdown);
        const QStringList blocks = blockContents(reading);

        for (const Message &message : std::as_const(m_session.messages)) {
            if (message.role == Message::Role::Tool)
                QVERIFY2(blocks.contains(message.text), qPrintable(message.text));
            for (const ToolCall &toolCall : message.toolCalls)
                QVERIFY(markdown.contains(u" (`"_s + toolCall.id + u"`)\n"_s));
        }
        QCOMPARE(reading.outsideLines.filter(QRegularExpression(u"^## User$"_s)).size(), 3);
        QCOMPARE(reading.outsideLines.filter(QRegularExpression(u"^## Assistant$"_s)).size(), 4);
        QCOMPARE(
            reading.outsideLines.filter(QRegularExpression(u"^\\*\\*Result \\(error\\)\\*\\*$"_s)).size(), 2);
        QVERIFY(blocks.contains(u"print(\"`hi`\")"_s)); // the answer's own fence
    }

    void eachTurnNamesTheModelThatAnsweredIt_data()
    {
        QTest::addColumn<Format>("format");
        QTest::addColumn<QStringList>("inOrder");
        QTest::newRow("Markdown")
            << Format::Markdown
            << QStringList{u"**Models:** `model-a`, `model-b` · **Providers:** openai, anthropic"_s,
                           u"First question"_s,
                           u"## Assistant\n\n**Model:** `model-a` (openai)\n\nAnswered by model-a"_s,
                           u"Second question"_s,
                           u"## Assistant\n\n**Model:** `model-b` (anthropic)\n\nAnswered by model-b"_s};
        QTest::newRow("HTML") << Format::Html
                              << QStringList{u"<dt>Models</dt><dd>model-a, model-b</dd>"_s,
                                             u"<dt>Providers</dt><dd>openai, anthropic</dd>"_s,
                                             u"First question"_s,
                                             u">Model: model-a (openai)</div>"_s,
                                             u"Answered by model-a"_s,
                                             u"Second question"_s,
                                             u">Model: model-b (anthropic)</div>"_s,
                                             u"Answered by model-b"_s};
    }

    void eachTurnNamesTheModelThatAnsweredIt()
    {
        QFETCH(Format, format);
        QFETCH(QStringList, inOrder);
        const Transcript session = reopenedSessionWithTwoModels();
        QCOMPARE(session.messages.size(), 4);

        const QString exported = QString::fromUtf8(exportAs(format, session));

        qsizetype from = 0;
        for (const QString &part : std::as_const(inOrder)) {
            const qsizetype at = exported.indexOf(part, from);
            QVERIFY2(at >= 0, qPrintable(part + u"\n\n"_s + exported));
            from = at + part.size();
        }
    }

    void markdownFencesHoldContentWithBackticks_data()
    {
        QTest::addColumn<QString>("content");
        QTest::newRow("a fence inside") << u"before\n```\nafter"_s;
        QTest::newRow("a longer fence inside") << u"````\n```\n````"_s;
        QTest::newRow("inline code") << u"use `x` here"_s;
        QTest::newRow("a tilde fence inside") << u"~~~\n```"_s;
        QTest::newRow("backticks at the end") << u"ends with ```"_s;
        QTest::newRow("only backticks") << u"``````"_s;
    }

    void markdownFencesHoldContentWithBackticks()
    {
        QFETCH(QString, content);
        const ToolCall lookup = call(u"c1"_s, u"lookup"_s, u"{}"_s);
        const Transcript transcript
            = transcriptWith({Message::assistant({}, {lookup}), Message::toolResult(lookup, content, false),
                              Message::user(u"next"_s)});

        const MarkdownReading reading = readMarkdown(exportMarkdown(transcript));

        QVERIFY(blockContents(reading).contains(content));
        QVERIFY(reading.outsideLines.contains(u"## User"_s));
        QVERIFY(reading.outsideLines.contains(u"next"_s));
    }

    void markdownClosesAFenceAMessageLeftOpen()
    {
        const MarkdownReading reading = readMarkdown(exportMarkdown(m_session));

        QVERIFY(blockContents(reading).contains(u"let x = 1;"_s));
        // The third question comes after the unclosed answer and must still be text.
        QVERIFY(reading.outsideLines.contains(u"Fail, please."_s));
    }

    // --- HTML -------------------------------------------------------------

    void htmlIsWellFormedXhtml_data()
    {
        QTest::addColumn<Transcript>("transcript");
        QTest::newRow("a genuine session") << m_session;
        QTest::newRow("an empty transcript") << Transcript{};
        Transcript hostile = transcriptWith({Message::user(u"<![CDATA[ ]]> &amp; &nbsp; </p></section>"_s),
                                             Message::assistant(u"**unclosed *emphasis `code"_s)});
        hostile.title = u"\"quotes\" & <tags>"_s;
        QTest::newRow("content that looks like markup") << hostile;
    }

    void htmlIsWellFormedXhtml()
    {
        QFETCH(Transcript, transcript);

        const QByteArray html = exportHtml(transcript);
        const HtmlReading reading = readHtml(html);

        QVERIFY2(reading.error.isEmpty(), qPrintable(reading.error));
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        QCOMPARE(reading.rootNamespace, u"http://www.w3.org/1999/xhtml"_s);
        QCOMPARE(reading.elements.mid(0, 2), (QStringList{u"html"_s, u"head"_s}));
        QVERIFY(reading.elements.contains(u"body"_s));
        // A browser reads "<div/>" as an unclosed div: only void elements may self-close.
        static const QRegularExpression selfClosed(u"<(\\w+)[^<>]*/>"_s);
        for (const auto &match : selfClosed.globalMatch(QString::fromUtf8(html))) {
            QVERIFY2(QStringList({u"meta"_s, u"br"_s, u"hr"_s}).contains(match.captured(1)),
                     qPrintable(match.captured(0)));
        }
    }

    void htmlShowsHostileContentAsText_data()
    {
        QTest::addColumn<Transcript>("transcript");
        const QString payload = u"<script>alert(\"x\")</script><img src=x onerror=alert(1)>"_s;
        const ToolCall hostileCall = call(u"c1"_s, payload, u"{\"q\":\"%1\"}"_s.arg(u"<script>"_s));

        Transcript title = transcriptWith({});
        title.title = payload;
        QTest::newRow("in the title") << title;
        QTest::newRow("in a user message") << transcriptWith({Message::user(payload)});
        QTest::newRow("in an assistant answer") << transcriptWith({Message::assistant(u"# "_s + payload)});
        QTest::newRow("in a code span") << transcriptWith({Message::assistant(u"`"_s + payload + u"`"_s)});
        QTest::newRow("in a code block")
            << transcriptWith({Message::assistant(u"```\n"_s + payload + u"\n```"_s)});
        QTest::newRow("in a table") << transcriptWith(
            {Message::assistant(u"| a |\n|---|\n| "_s + payload + u" |"_s)});
        QTest::newRow("in a tool name and arguments") << transcriptWith(
            {Message::assistant({}, {hostileCall}), Message::toolResult(hostileCall, u"ok"_s, false)});
        QTest::newRow("in a tool result")
            << transcriptWith({Message::assistant({}, {call(u"c1"_s, u"t"_s, u"{}"_s)}),
                               Message::toolResult(call(u"c1"_s, u"t"_s, u"{}"_s), payload, true)});
        Transcript model = transcriptWith({});
        model.config.model.model = payload;
        model.config.systemPrompt = payload;
        QTest::newRow("in the model name and system prompt") << model;
    }

    void htmlShowsHostileContentAsText()
    {
        QFETCH(Transcript, transcript);

        const QByteArray html = exportHtml(transcript);
        const HtmlReading reading = readHtml(html);

        QVERIFY2(reading.error.isEmpty(), qPrintable(reading.error));
        QVERIFY(!reading.elements.contains(u"script"_s));
        QVERIFY(!reading.elements.contains(u"img"_s));
        for (const QString &name : reading.attributeNames)
            QVERIFY2(!name.startsWith(u"on"_s) && name != u"src" && name != u"href", qPrintable(name));
        QVERIFY(!html.toLower().contains("<script"));
        QVERIFY(!html.toLower().contains("<img"));
        QVERIFY(reading.text.contains(u"<script>"_s)); // shown, as text
    }

    void htmlIsSelfContainedAndFollowsTheColourScheme()
    {
        const QByteArray html = exportHtml(m_session);
        const HtmlReading reading = readHtml(html);

        QVERIFY2(reading.error.isEmpty(), qPrintable(reading.error));
        for (const QString &element : {u"script"_s, u"link"_s, u"img"_s, u"iframe"_s, u"object"_s, u"embed"_s,
                                       u"base"_s, u"form"_s, u"svg"_s})
            QVERIFY2(!reading.elements.contains(element), qPrintable(element));
        for (const QString &attribute : {u"src"_s, u"href"_s, u"srcset"_s, u"action"_s, u"style"_s})
            QVERIFY2(!reading.attributeNames.contains(attribute), qPrintable(attribute));
        QVERIFY(!reading.style.isEmpty());
        QVERIFY(!reading.style.contains(u"url("_s));
        QVERIFY(!reading.style.contains(u"@import"_s));
        QVERIFY(reading.style.contains(u"@media (prefers-color-scheme: dark)"_s));
        QVERIFY(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                              "style-src 'unsafe-inline'; img-src data:\"/>"));
    }

    void htmlFoldsEachToolCallWithItsResult()
    {
        const HtmlReading reading = readHtml(exportHtml(m_session));

        QStringList classes;
        for (const QXmlStreamAttributes &attributes : reading.details)
            classes.append(attributes.value(u"class"_s).toString());
        QCOMPARE(classes, (QStringList{u"system-prompt"_s, u"tool-call"_s, u"tool-call"_s,
                                       u"tool-call error"_s, u"tool-call error"_s}));
        QVERIFY(reading.details.at(3).hasAttribute(u"open"_s)); // failures are shown unfolded
        QVERIFY(!reading.details.at(1).hasAttribute(u"open"_s));
        QVERIFY(reading.text.contains(warehouseError));
        QVERIFY(reading.text.contains(u"\"item\": \"widget\""_s)); // indented arguments
    }

    void htmlSurvivesCharactersXmlForbids()
    {
        const QString raw = u"esc \x1b[31m nul "_s + QChar(0) + u" lone "_s + QChar(0xd800) + u" end"_s;
        const ToolCall tool = call(u"c1"_s, u"shell"_s, u"{}"_s);

        const HtmlReading reading = readHtml(exportHtml(
            transcriptWith({Message::assistant({}, {tool}), Message::toolResult(tool, raw, false)})));

        QVERIFY2(reading.error.isEmpty(), qPrintable(reading.error));
        QVERIFY(reading.text.contains(u"esc \ufffd[31m nul \ufffd lone \ufffd end"_s));
    }

    void htmlConvertsMarkdownMinimally_data()
    {
        QTest::addColumn<QString>("markdown");
        QTest::addColumn<QString>("structure");
        QTest::newRow("a heading moves below the role") << u"# Title"_s << u"h3[Title]"_s;
        QTest::newRow("lines of a paragraph keep their breaks") << u"one\ntwo"_s << u"p[one br[] two]"_s;
        QTest::newRow("a fenced block keeps its language") << u"```py\nx < 1\n```"_s << u"pre[code[x < 1]]"_s;
        QTest::newRow("a code span, bold and emphasis")
            << u"use `a*b` **now** *please*"_s << u"p[use code[a*b] strong[now] em[please]]"_s;
        QTest::newRow("snake_case stays text") << u"call snake_case_name"_s << u"p[call snake_case_name]"_s;
        QTest::newRow("a list") << u"- one\n- two"_s << u"ul[li[one] li[two]]"_s;
        QTest::newRow("an ordered list") << u"1. one\n2. two"_s << u"ol[li[one] li[two]]"_s;
        QTest::newRow("a table") << u"| a | b |\n|---|:-:|\n| 1 | `2` |"_s
                                 << u"table[thead[tr[th[a] th[b]]] tbody[tr[td[1] td[code[2]]]]]"_s;
        QTest::newRow("a quote") << u"> quoted"_s << u"blockquote[p[quoted]]"_s;
        QTest::newRow("a link stays text")
            << u"[site](https://example.com)"_s << u"p[[site](https://example.com)]"_s;
        QTest::newRow("an unclosed fence runs to the end") << u"```\nopen"_s << u"pre[code[open]]"_s;
    }

    void htmlConvertsMarkdownMinimally()
    {
        QFETCH(QString, markdown);
        QFETCH(QString, structure);

        const QByteArray html = exportHtml(transcriptWith({Message::assistant(markdown)}));

        QCOMPARE(assistantContentStructure(html), structure);
    }

    // --- OTLP -------------------------------------------------------------

    void otlpNamesTheServiceAndScope()
    {
        const QJsonObject root
            = QJsonDocument::fromJson(exportOtlpJson(m_session, {false, u"0.9.1"_s})).object();
        const QJsonObject resourceSpans = root[u"resourceSpans"_s][0].toObject();

        const auto resource = keyValues(resourceSpans[u"resource"_s][u"attributes"_s].toArray());
        QCOMPARE(resource.value(u"service.name"_s), (QJsonObject{{u"stringValue"_s, u"loopscope"_s}}));
        QCOMPARE(resource.value(u"service.version"_s), (QJsonObject{{u"stringValue"_s, u"0.9.1"_s}}));
        QCOMPARE(resourceSpans[u"scopeSpans"_s][0][u"scope"_s].toObject(),
                 (QJsonObject{{u"name"_s, u"loopscope"_s}, {u"version"_s, u"0.9.1"_s}}));
    }

    void otlpHasOneTracePerTurn()
    {
        QSet<QString> traces;
        QList<OtlpSpan> roots;
        for (const OtlpSpan &span : std::as_const(m_spans)) {
            traces.insert(span.traceId);
            if (span.parentSpanId.isEmpty())
                roots.append(span);
        }
        QCOMPARE(traces.size(), 3);
        QCOMPARE(roots.size(), 3);
        for (const OtlpSpan &root : std::as_const(roots))
            QCOMPARE(root.string(u"gen_ai.operation.name"_s), u"invoke_agent"_s);
        // Every span belongs to the trace of its turn.
        for (const OtlpSpan &span : std::as_const(m_spans)) {
            const OtlpSpan *ancestor = &span;
            while (!ancestor->parentSpanId.isEmpty())
                ancestor = spanById(m_spans, ancestor->parentSpanId);
            QCOMPARE(ancestor->traceId, span.traceId);
        }
    }

    void otlpSpansHaveValidIdsAndParents()
    {
        QSet<QString> spanIds;
        for (const OtlpSpan &span : std::as_const(m_spans)) {
            QVERIFY2(isHexId(span.traceId, 32), qPrintable(span.traceId));
            QVERIFY2(isHexId(span.spanId, 16), qPrintable(span.spanId));
            QVERIFY2(!spanIds.contains(span.spanId), qPrintable(span.spanId));
            spanIds.insert(span.spanId);
        }
        for (const OtlpSpan &span : std::as_const(m_spans)) {
            if (span.parentSpanId.isEmpty())
                continue;
            const OtlpSpan *parent = spanById(m_spans, span.parentSpanId);
            QVERIFY2(parent, qPrintable(span.name));
            QCOMPARE(parent->traceId, span.traceId);
        }
    }

    void otlpSpansFollowTheGenAiConventions_data()
    {
        QTest::addColumn<QString>("operation");
        QTest::addColumn<QString>("nameAttribute"); // the name is "{operation} {value of this}"
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("count");
        QTest::addColumn<QStringList>("strings");
        QTest::addColumn<QStringList>("booleans");

        QTest::newRow("a turn is an internal invoke_agent span")
            << u"invoke_agent"_s << u"gen_ai.agent.name"_s << 1 << 3
            << QStringList{u"gen_ai.agent.name"_s, u"gen_ai.provider.name"_s, u"gen_ai.request.model"_s,
                           u"gen_ai.conversation.id"_s}
            << QStringList{};
        QTest::newRow("a model call is a client chat span")
            << u"chat"_s << u"gen_ai.request.model"_s << 3 << 5
            << QStringList{u"gen_ai.provider.name"_s, u"gen_ai.request.model"_s}
            << QStringList{u"gen_ai.request.stream"_s};
        QTest::newRow("a tool call is an internal execute_tool span")
            << u"execute_tool"_s << u"gen_ai.tool.name"_s << 1 << 4
            << QStringList{u"gen_ai.tool.name"_s, u"gen_ai.tool.call.id"_s, u"gen_ai.tool.type"_s}
            << QStringList{};
    }

    void otlpSpansFollowTheGenAiConventions()
    {
        QFETCH(QString, operation);
        QFETCH(QString, nameAttribute);
        QFETCH(int, kind);
        QFETCH(int, count);
        QFETCH(QStringList, strings);
        QFETCH(QStringList, booleans);

        const QList<OtlpSpan> spans = spansWithOperation(m_spans, operation);

        QCOMPARE(spans.size(), count);
        for (const OtlpSpan &span : spans) {
            QCOMPARE(span.name, QString(operation + u' ' + span.string(nameAttribute)));
            QCOMPARE(span.kind, kind);
            for (const QString &key : strings) {
                QVERIFY2(span.attributes.value(key).value(u"stringValue"_s).isString(), qPrintable(key));
                QVERIFY2(!span.string(key).isEmpty(), qPrintable(key));
            }
            for (const QString &key : booleans)
                QVERIFY2(span.attributes.value(key).value(u"boolValue"_s).isBool(), qPrintable(key));
            QVERIFY(span.statusCode == 1 || span.statusCode == 2);
            if (span.statusCode == 2)
                QVERIFY(!span.string(u"error.type"_s).isEmpty());
        }
    }

    void otlpKeepsTheLoopAsIterationSpans()
    {
        QStringList names;
        for (const OtlpSpan &span : std::as_const(m_spans)) {
            if (span.name.startsWith(u"iteration "_s)) {
                names.append(span.name);
                QCOMPARE(span.kind, 1);
                QCOMPARE(span.name,
                         QString(u"iteration "_s
                                 + QString::number(span.integer(u"loopscope.iteration.number"_s))));
                QVERIFY(spanById(m_spans, span.parentSpanId)->name.startsWith(u"invoke_agent "_s));
            }
        }
        QCOMPARE(names, (QStringList{u"iteration 1"_s, u"iteration 2"_s, u"iteration 1"_s, u"iteration 2"_s,
                                     u"iteration 1"_s}));
        for (const OtlpSpan &span : spansWithOperation(m_spans, u"execute_tool"_s))
            QVERIFY(spanById(m_spans, span.parentSpanId)->name.startsWith(u"iteration "_s));
    }

    void otlpTimesAreOrdered()
    {
        for (const OtlpSpan &span : std::as_const(m_spans)) {
            QVERIFY2(span.start > 1'600'000'000'000'000'000LL, qPrintable(span.name)); // nanoseconds, not µs
            QVERIFY2(span.start <= span.end, qPrintable(span.name));
            if (const OtlpSpan *parent = spanById(m_spans, span.parentSpanId)) {
                QVERIFY2(parent->start <= span.start, qPrintable(span.name));
                QVERIFY2(span.end <= parent->end, qPrintable(span.name));
            }
            for (const QJsonValue &event : span.events) {
                const qint64 time = event[u"timeUnixNano"_s].toString().toLongLong();
                QVERIFY2(span.start <= time && time <= span.end, qPrintable(event[u"name"_s].toString()));
            }
        }
    }

    void otlpTokenCountsMatchTheTrace()
    {
        Trace trace;
        QVERIFY(trace.fromJson(m_session.trace));
        TokenUsage fromCalls;
        for (int id = 0; id < trace.size(); ++id) {
            if (const auto *modelCall = std::get_if<ModelCallData>(&trace.node(id).payload))
                fromCalls += modelCall->response.usage;
        }
        QCOMPARE(fromCalls, (TokenUsage{280, 61}));

        TokenUsage chats;
        for (const OtlpSpan &span : spansWithOperation(m_spans, u"chat"_s)) {
            chats.inputTokens += span.integer(u"gen_ai.usage.input_tokens"_s);
            chats.outputTokens += span.integer(u"gen_ai.usage.output_tokens"_s);
        }
        QCOMPARE(chats, fromCalls);

        QList<TokenUsage> turns;
        for (const OtlpSpan &span : spansWithOperation(m_spans, u"invoke_agent"_s))
            turns.append({span.integer(u"gen_ai.usage.input_tokens"_s),
                          span.integer(u"gen_ai.usage.output_tokens"_s)});
        QCOMPARE(turns, (QList<TokenUsage>{{250, 50}, {30, 11}, {0, 0}}));
        for (int i = 0; i < 3; ++i)
            QCOMPARE(turns.at(i), trace.node(trace.roots().at(i)).data<TurnData>().usage);

        const OtlpSpan firstChat = spansWithOperation(m_spans, u"chat"_s).constFirst();
        QCOMPARE(firstChat.attributes.value(u"gen_ai.usage.input_tokens"_s),
                 (QJsonObject{{u"intValue"_s, u"100"_s}})); // int64 as a string, as OTLP/JSON wants
        QCOMPARE(
            firstChat.attributes.value(u"gen_ai.response.finish_reasons"_s),
            (QJsonObject{
                {u"arrayValue"_s,
                 QJsonObject{{u"values"_s, QJsonArray{QJsonObject{{u"stringValue"_s, u"tool_calls"_s}}}}}}}));
    }

    void exportsShowTheNoticesTheChatShowed_data()
    {
        QTest::addColumn<Format>("format");
        QTest::addColumn<QStringList>("inOrder");
        // The retry, which recovered, follows the first question and precedes its answer; the failure
        // ends the last turn.
        QTest::newRow("Markdown") << Format::Markdown
                                  << QStringList{u"What does a widget cost?"_s,
                                                 u"> **Recovered by retrying:** Recovered after 2 attempts: "
                                                 "attempt 1 failed (HTTP 503)."_s,
                                                 u"A widget costs"_s, u"Fail, please."_s,
                                                 u"> **Error:** the provider failed (500)"_s};
        QTest::newRow("HTML") << Format::Html
                              << QStringList{
                                     u"What does a widget cost?"_s,
                                     u"<p class=\"notice\"><strong>Recovered by retrying:</strong> "
                                     "Recovered after 2 attempts: attempt 1 failed (HTTP 503).</p>"_s,
                                     u"A widget costs"_s, u"Fail, please."_s,
                                     u"<p class=\"notice error\"><strong>Error:</strong> the provider "
                                     "failed (500)</p>"_s};
    }

    void exportsShowTheNoticesTheChatShowed()
    {
        QFETCH(Format, format);
        QFETCH(QStringList, inOrder);
        const QString exported = QString::fromUtf8(exportAs(format, m_session));
        qsizetype from = 0;
        for (const QString &part : std::as_const(inOrder)) {
            const qsizetype at = exported.indexOf(part, from);
            QVERIFY2(at >= 0, qPrintable(part + u"\n\n"_s + exported));
            from = at + part.size();
        }
    }

    void otlpRecordsRetriesShieldChecksAndErrorsAsEvents()
    {
        const QList<OtlpSpan> chats = spansWithOperation(m_spans, u"chat"_s);
        const QList<QJsonObject> retries = chats.constFirst().eventsNamed(u"loopscope.retry"_s);
        QCOMPARE(retries.size(), 1);
        const auto retry = keyValues(retries.constFirst()[u"attributes"_s].toArray());
        QCOMPARE(retry.value(u"http.response.status_code"_s), (QJsonObject{{u"intValue"_s, u"503"_s}}));
        QCOMPARE(retry.value(u"loopscope.retry.attempt"_s), (QJsonObject{{u"intValue"_s, u"1"_s}}));

        const QList<OtlpSpan> turns = spansWithOperation(m_spans, u"invoke_agent"_s);
        const QList<QJsonObject> checks = turns.constFirst().eventsNamed(u"loopscope.shield_check"_s);
        QCOMPARE(checks.size(), 2); // the input and the output
        QCOMPARE(
            keyValues(checks.constFirst()[u"attributes"_s].toArray()).value(u"loopscope.shield.passed"_s),
            (QJsonObject{{u"boolValue"_s, true}}));
        // No check is lost: those made before a tool ran sit on its iteration, naming the call.
        Trace trace;
        QVERIFY(trace.fromJson(m_session.trace));
        int recordedChecks = 0;
        for (int id = 0; id < trace.size(); ++id)
            recordedChecks += trace.node(id).kind == TraceKind::ShieldCheck;
        int exportedChecks = 0;
        QStringList checkedCalls;
        for (const OtlpSpan &span : std::as_const(m_spans)) {
            for (const QJsonObject &check : span.eventsNamed(u"loopscope.shield_check"_s)) {
                ++exportedChecks;
                const auto attributes = keyValues(check[u"attributes"_s].toArray());
                if (attributes.contains(u"gen_ai.tool.call.id"_s))
                    checkedCalls.append(
                        attributes.value(u"gen_ai.tool.call.id"_s)[u"stringValue"_s].toString());
            }
        }
        QCOMPARE(exportedChecks, recordedChecks);
        checkedCalls.sort();
        QCOMPARE(checkedCalls, (QStringList{u"c1"_s, u"c2"_s, u"c3"_s})); // c4 never got that far

        // The third turn failed: its model call, its iteration's exception, the turn itself.
        const OtlpSpan &failedChat = chats.constLast();
        QCOMPARE(failedChat.statusCode, 2);
        QCOMPARE(failedChat.statusMessage, u"the provider failed (500)"_s);
        QCOMPARE(failedChat.string(u"error.type"_s), u"_OTHER"_s);
        const OtlpSpan *iteration = spanById(m_spans, failedChat.parentSpanId);
        const QList<QJsonObject> exceptions = iteration->eventsNamed(u"exception"_s);
        QCOMPARE(exceptions.size(), 1);
        QCOMPARE(keyValues(exceptions.constFirst()[u"attributes"_s].toArray()).value(u"exception.type"_s),
                 (QJsonObject{{u"stringValue"_s, u"provider"_s}}));
        QCOMPARE(turns.constLast().statusCode, 2);
        QCOMPARE(turns.constLast().string(u"error.type"_s), u"failed"_s);
        QCOMPARE(turns.constFirst().statusCode, 1);

        QCOMPARE(toolSpan(m_spans, u"c1"_s)->statusCode, 1);
        QCOMPARE(toolSpan(m_spans, u"c3"_s)->statusCode, 2);
        QCOMPARE(toolSpan(m_spans, u"c3"_s)->string(u"error.type"_s), u"tool_error"_s);
        QCOMPARE(toolSpan(m_spans, u"c4"_s)->string(u"error.type"_s), u"tool_error"_s); // arguments not JSON
    }

    void otlpExportsEveryModelCallAsAChatSpanAlsoTheModelShieldsUnderItsChecks()
    {
        // A real agent whose model shield judges the question and the answer: each check's call is a
        // model call nested under the check's (event) node.
        ScriptedModelClient client;
        Workbench workbench;
        Trace trace;
        Agent agent(&client, &workbench, &trace);
        AgentConfig config;
        config.name = u"guarded"_s;
        config.model.model = u"gpt-test"_s;
        ModelShield guard;
        guard.model = u"llama-guard3:1b"_s;
        config.shields.model = guard;
        agent.setConfig(config);
        client.setResponder([](const ModelRequest &request) {
            return request.options.model == u"llama-guard3:1b"
                       ? ScriptedModelClient::text(u"safe"_s, {40, 1})
                       : ScriptedModelClient::text(u"Hello there."_s, {12, 3});
        });
        QSignalSpy finished(&agent, &Agent::turnFinished);
        QVERIFY(agent.send(u"Hi"_s));
        QTRY_COMPARE(finished.size(), 1);
        const Transcript transcript = transcriptOf(agent, trace);

        const QList<OtlpSpan> spans = readSpans(exportOtlpJson(transcript, {}));
        QList<int> calls;
        for (int id = 0; id < trace.size(); ++id) {
            if (trace.node(id).kind == TraceKind::ModelCall)
                calls.append(id);
        }
        QCOMPARE(calls.size(), 3); // the question's check, the answer, the answer's check
        const QList<OtlpSpan> chats = spansWithOperation(spans, u"chat"_s);
        QCOMPARE(chats.size(), calls.size());
        const OtlpSpan turn = spansWithOperation(spans, u"invoke_agent"_s).constFirst();
        // The turn names the agent's model, not the guard's that was asked first.
        QCOMPARE(turn.string(u"gen_ai.request.model"_s), u"gpt-test"_s);
        QStringList guardParents;
        TokenUsage exported;
        for (const OtlpSpan &chat : chats) {
            QCOMPARE(chat.traceId, turn.traceId);
            QCOMPARE(chat.kind, 3); // CLIENT, as every chat span
            QCOMPARE(chat.statusCode, 1);
            exported.inputTokens += chat.integer(u"gen_ai.usage.input_tokens"_s);
            exported.outputTokens += chat.integer(u"gen_ai.usage.output_tokens"_s);
            if (chat.string(u"gen_ai.request.model"_s) == u"llama-guard3:1b") {
                QCOMPARE(chat.name, u"chat llama-guard3:1b"_s);
                QCOMPARE(chat.integer(u"gen_ai.usage.input_tokens"_s), 40);
                guardParents.append(chat.parentSpanId);
            }
        }
        // Under the turn's span, where the checks are its events; every token counted once.
        QCOMPARE(guardParents, (QStringList{turn.spanId, turn.spanId}));
        QCOMPARE(turn.eventsNamed(u"loopscope.shield_check"_s).size(), 2);
        QCOMPARE(exported, (TokenUsage{92, 5}));
        QSet<QString> ids;
        for (const OtlpSpan &span : spans)
            ids.insert(span.spanId);
        QCOMPARE(ids.size(), spans.size());
    }

    void otlpLeavesContentOutUnlessAskedFor_data()
    {
        QTest::addColumn<bool>("includeContent");
        QTest::newRow("by default") << false;
        QTest::newRow("when asked for") << true;
    }

    void otlpLeavesContentOutUnlessAskedFor()
    {
        QFETCH(bool, includeContent);

        const QByteArray otlp = exportOtlpJson(m_session, {includeContent, {}});
        const QList<OtlpSpan> spans = readSpans(otlp);

        const OtlpSpan *price = toolSpan(spans, u"c1"_s);
        const OtlpSpan *failed = toolSpan(spans, u"c3"_s);
        const OtlpSpan turn = spansWithOperation(spans, u"invoke_agent"_s).constFirst();
        if (includeContent) {
            QCOMPARE(price->string(u"gen_ai.tool.call.arguments"_s), u"{\"item\":\"widget\"}"_s);
            QCOMPARE(price->string(u"gen_ai.tool.call.result"_s), priceResult);
            QVERIFY(!failed->attributes.contains(u"gen_ai.tool.call.result"_s)); // only a successful result
            QCOMPARE(failed->statusMessage, warehouseError);
            const QJsonArray input
                = QJsonDocument::fromJson(turn.string(u"gen_ai.input.messages"_s).toUtf8()).array();
            QCOMPARE(input[0][u"role"_s].toString(), u"user"_s);
            QCOMPARE(input[0][u"parts"_s][0][u"content"_s].toString(),
                     u"What does a widget cost? <b>now</b>"_s);
            QVERIFY(turn.string(u"gen_ai.output.messages"_s).contains(u"# Price"_s));
        } else {
            for (const OtlpSpan &span : spans) {
                for (const QString &key : {u"gen_ai.tool.call.arguments"_s, u"gen_ai.tool.call.result"_s,
                                           u"gen_ai.input.messages"_s, u"gen_ai.output.messages"_s})
                    QVERIFY2(!span.attributes.contains(key), qPrintable(key));
            }
            QVERIFY(failed->statusMessage.isEmpty());
            QVERIFY(!otlp.contains("4.20 EUR"));
            QVERIFY(!otlp.contains("What does a widget cost"));
            QVERIFY(!otlp.contains("widget\\\""));
        }
    }

    // --- Attachments ------------------------------------------------------

    void exportsShowAMessagesImagesAndNameItsOtherFiles_data()
    {
        QTest::addColumn<Format>("format");
        QTest::newRow("Markdown") << Format::Markdown;
        QTest::newRow("HTML") << Format::Html;
    }

    void exportsShowAMessagesImagesAndNameItsOtherFiles()
    {
        QFETCH(Format, format);
        const QByteArray png = Testing::pngBytes(QSize(64, 48));
        const Attachment image = *AttachmentLoader::fromBytes(u"chart [v2].png"_s, png).attachment;
        const Attachment notes
            = *AttachmentLoader::fromBytes(u"notes.md"_s, "# Notes\nShip it.\n").attachment;
        const Transcript transcript
            = transcriptWith({Message::user(u"What does the chart say?"_s, {image, notes}),
                              Message::assistant(u"Sales went up."_s)});
        const QString dataUrl = u"data:image/png;base64,"_s + QString::fromLatin1(png.toBase64());

        if (format == Format::Markdown) {
            const QString markdown = exportMarkdown(transcript);
            // The image where it was sent, whole, in a Markdown image the name cannot break out of.
            QVERIFY2(markdown.contains(u"![chart \\[v2\\].png]("_s + dataUrl + u")\n"_s),
                     qPrintable(markdown.left(400)));
            QVERIFY(markdown.contains(u"64 × 48"_s));
            // The other file by its name and type; its contents are the model's, not the reader's.
            QVERIFY(markdown.contains(u"notes.md (text/markdown"_s));
            QVERIFY(!markdown.contains(u"Ship it."_s));
            // After the question, before the answer.
            QVERIFY(markdown.indexOf(u"What does the chart say?"_s) < markdown.indexOf(dataUrl));
            QVERIFY(markdown.indexOf(u"notes.md"_s) < markdown.indexOf(u"Sales went up."_s));
        } else {
            const QByteArray html = exportHtml(transcript);
            const HtmlReading reading = readHtml(html);
            QVERIFY2(reading.error.isEmpty(), qPrintable(reading.error));
            QCOMPARE(reading.elements.count(u"img"_s), 1);
            QXmlStreamReader xml(html);
            QString src;
            while (!xml.atEnd() && src.isEmpty()) {
                if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"img")
                    src = xml.attributes().value(u"src"_s).toString();
            }
            // Self-contained: the bytes in the page, and the page's policy lets a browser show only those.
            QCOMPARE(src, dataUrl);
            QVERIFY(html.contains("img-src data:"));
            QVERIFY(reading.text.contains(u"chart [v2].png · PNG image · 64 × 48"_s));
            QVERIFY(reading.text.contains(u"notes.md · text/markdown"_s));
            QVERIFY(!reading.text.contains(u"Ship it."_s));
        }
    }

    void aToolResultsImageShowsUnderItsResult_data()
    {
        QTest::addColumn<Format>("format");
        QTest::newRow("Markdown") << Format::Markdown;
        QTest::newRow("HTML") << Format::Html;
    }

    // An MCP tool's screenshot went to the model as an image: the reader sees it under the result.
    void aToolResultsImageShowsUnderItsResult()
    {
        QFETCH(Format, format);
        const QByteArray png = Testing::pngBytes(QSize(20, 20));
        const Attachment image = *AttachmentLoader::fromBytes(u"get-tiny-image-1.png"_s, png).attachment;
        const ToolCall call{u"call_1"_s, u"get-tiny-image"_s, u"{}"_s};
        Message result = Message::toolResult(call, u"Here is a tiny image."_s, false);
        result.attachments = {image};
        const Transcript transcript
            = transcriptWith({Message::user(u"Show me"_s), Message::assistant(QString(), {call}), result,
                              Message::assistant(u"A red square."_s)});
        const QString dataUrl = u"data:image/png;base64,"_s + QString::fromLatin1(png.toBase64());
        const QString text = format == Format::Markdown ? exportMarkdown(transcript)
                                                        : QString::fromUtf8(exportHtml(transcript));
        QVERIFY2(text.contains(dataUrl), qPrintable(text.left(600)));
        QVERIFY(text.indexOf(u"Here is a tiny image."_s) < text.indexOf(dataUrl));
        QVERIFY(text.indexOf(dataUrl) < text.indexOf(u"A red square."_s));
        if (format == Format::Html)
            QVERIFY(readHtml(exportHtml(transcript)).error.isEmpty());
    }

    void anImageWithoutItsBytesIsNamedNotShown()
    {
        // E.g. a session whose attachment table lost the image: nothing to show, the name still says what it
        // was.
        Attachment image
            = *AttachmentLoader::fromBytes(u"lost.png"_s, Testing::pngBytes(QSize(8, 8))).attachment;
        image.bytes.clear();
        const Transcript transcript = transcriptWith({Message::user(u"Look"_s, {image})});

        const QString markdown = exportMarkdown(transcript);
        QVERIFY(!markdown.contains(u"data:"_s));
        QVERIFY(markdown.contains(u"lost.png (PNG image"_s));
        const HtmlReading reading = readHtml(exportHtml(transcript));
        QVERIFY(!reading.elements.contains(u"img"_s));
        QVERIFY(reading.text.contains(u"lost.png · PNG image"_s));
    }

    // The conventions' content is opt-in, a question's files too: then an image is a blob part, a file its
    // text.
    void otlpLeavesAttachmentsOutUnlessAskedForContent_data()
    {
        QTest::addColumn<bool>("includeContent");
        QTest::newRow("by default") << false;
        QTest::newRow("when asked for") << true;
    }

    void otlpLeavesAttachmentsOutUnlessAskedForContent()
    {
        QFETCH(bool, includeContent);
        const QByteArray png = Testing::pngBytes(QSize(32, 32));
        const Attachment image = *AttachmentLoader::fromBytes(u"secret-diagram.png"_s, png).attachment;
        const Attachment notes = *AttachmentLoader::fromBytes(u"notes.md"_s, "Ship on Friday.").attachment;
        ScriptedModelClient client;
        client.enqueue(ScriptedModelClient::text(u"A diagram."_s, {1600, 3}));
        Workbench workbench;
        Trace trace;
        Agent agent(&client, &workbench, &trace);
        QSignalSpy finished(&agent, &Agent::turnFinished);
        QVERIFY(agent.send(u"What is this?"_s, {image, notes}));
        QTRY_COMPARE(finished.size(), 1);
        const Transcript transcript = transcriptOf(agent, trace);
        // The recorded request holds the image: that is where the export would find it.
        QVERIFY(QJsonDocument(transcript.trace).toJson().contains(png.toBase64()));

        QString error;
        const QByteArray otlp = exportOtlpJson(transcript, {includeContent, {}}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QList<OtlpSpan> spans = readSpans(otlp);
        if (!includeContent) {
            QVERIFY(!otlp.contains(png.toBase64().left(40)));
            QVERIFY(!otlp.contains("secret-diagram"));
            QVERIFY(!otlp.contains("Ship on Friday"));
            return;
        }
        const OtlpSpan turn = spansWithOperation(spans, u"invoke_agent"_s).constFirst();
        const QJsonArray input
            = QJsonDocument::fromJson(turn.string(u"gen_ai.input.messages"_s).toUtf8()).array();
        const QJsonArray parts = input[0][u"parts"_s].toArray();
        QCOMPARE(parts.size(), 3);
        QCOMPARE(parts[0][u"type"_s].toString(), u"blob"_s);
        QCOMPARE(parts[0][u"modality"_s].toString(), u"image"_s);
        QCOMPARE(parts[0][u"mime_type"_s].toString(), u"image/png"_s);
        QCOMPARE(QByteArray::fromBase64(parts[0][u"content"_s].toString().toLatin1()), png);
        QCOMPARE(parts[1][u"type"_s].toString(), u"text"_s);
        QVERIFY(parts[1][u"content"_s].toString().contains(u"notes.md"_s));
        QVERIFY(parts[1][u"content"_s].toString().contains(u"Ship on Friday."_s));
        QCOMPARE(parts[2][u"content"_s].toString(), u"What is this?"_s);
    }

    void otlpSaysTheWaitingApartFromTheMachinesTime()
    {
        // A turn of 20 s whose one tool call was held 12 s for the user's approval.
        constexpr qint64 second = 1'000'000;
        constexpr qint64 t0 = 1'700'000'000 * second;
        Trace trace;
        TurnData turnData;
        turnData.input = u"Delete the build folder"_s;
        const int turn = trace.begin(-1, TraceKind::Turn, u"turn"_s, t0, turnData);
        const int iteration
            = trace.begin(turn, TraceKind::Iteration, u"iteration 1"_s, t0 + second, IterationData{});
        ToolCallData callData;
        callData.call = call(u"c1"_s, u"run_command"_s, u"{}"_s);
        const int tool
            = trace.begin(iteration, TraceKind::ToolCall, u"run_command"_s, t0 + 2 * second, callData);
        const int wait = trace.begin(tool, TraceKind::Wait, u"Waiting for your approval"_s, t0 + 3 * second,
                                     WaitData{u"approval"_s, u"allowed"_s});
        trace.finish(wait, TraceStatus::Ok, t0 + 15 * second);
        trace.finish(tool, TraceStatus::Ok, t0 + 16 * second);
        trace.finish(iteration, TraceStatus::Ok, t0 + 19 * second);
        trace.finish(turn, TraceStatus::Ok, t0 + 20 * second);
        Transcript transcript = transcriptWith({Message::user(turnData.input)});
        transcript.trace = trace.toJson();

        QString error;
        const QList<OtlpSpan> spans = readSpans(exportOtlpJson(transcript, {}, &error));
        QVERIFY2(error.isEmpty(), qPrintable(error));

        QCOMPARE(spans.size(), 3);
        const OtlpSpan &turnSpan = spans.at(0);
        QCOMPARE(turnSpan.end - turnSpan.start, 20 * second * 1000); // the span stays the whole step
        QCOMPARE(turnSpan.integer(u"loopscope.working_ms"_s), 8000);
        QCOMPARE(turnSpan.integer(u"loopscope.waiting_ms"_s), 12000);
        const OtlpSpan &toolSpan = spans.at(2);
        QCOMPARE(toolSpan.integer(u"loopscope.working_ms"_s), 2000);
        QCOMPARE(toolSpan.integer(u"loopscope.waiting_ms"_s), 12000);
        const QList<QJsonObject> waits = toolSpan.eventsNamed(u"loopscope.wait"_s);
        QCOMPARE(waits.size(), 1);
        QCOMPARE(
            keyValues(waits.at(0).value(u"attributes"_s).toArray()).value(u"loopscope.wait.duration_ms"_s),
            (QJsonObject{{u"intValue"_s, u"12000"_s}}));
        // A session nobody was waited for says nothing of waiting.
        for (const OtlpSpan &span : std::as_const(m_spans))
            QVERIFY(!span.attributes.contains(u"loopscope.waiting_ms"_s));
    }

    void otlpReportsATraceItCannotRead()
    {
        Transcript broken = m_session;
        broken.trace = QJsonArray{QJsonObject{{u"kind"_s, u"no such kind"_s}}};
        QString error;

        QVERIFY(exportOtlpJson(broken, {}, &error).isEmpty());
        QVERIFY(!error.isEmpty());
        QVERIFY(exportMarkdown(broken).contains(u"## User"_s)); // the conversation still exports
        QVERIFY(readHtml(exportHtml(broken)).error.isEmpty());
    }

    void exportFormatsAreNamedAsOnTheCommandLine()
    {
        QCOMPARE(exportFormatNamed(u"md"_s), std::optional(ExportFormat::Markdown));
        QCOMPARE(exportFormatNamed(u"html"_s), std::optional(ExportFormat::Html));
        QCOMPARE(exportFormatNamed(u"otlp"_s), std::optional(ExportFormat::OtlpJson));
        QVERIFY(!exportFormatNamed(u"pdf"_s));
        QVERIFY(!exportFormatNamed(u"MD"_s));
    }

    void exportToAFileWritesWhatTheFormatExports_data()
    {
        QTest::addColumn<ExportFormat>("format");
        QTest::addColumn<QByteArray>("expected");
        QTest::newRow("markdown") << ExportFormat::Markdown << exportMarkdown(m_session).toUtf8();
        QTest::newRow("html") << ExportFormat::Html << exportHtml(m_session);
        QTest::newRow("otlp") << ExportFormat::OtlpJson << exportOtlpJson(m_session);
    }

    void exportToAFileWritesWhatTheFormatExports()
    {
        QFETCH(ExportFormat, format);
        QFETCH(QByteArray, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"session.export"_s);
        QString error;

        QVERIFY2(exportTranscriptToFile(m_session, format, path, &error), qPrintable(error));

        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), expected);
    }

    void exportingATraceItCannotReadReportsItAndLeavesTheFileAlone()
    {
        Transcript broken = m_session;
        broken.trace = QJsonArray{QJsonObject{{u"kind"_s, u"no such kind"_s}}};
        QTemporaryDir dir;
        const QString fresh = dir.filePath(u"fresh.otlp.json"_s);
        const QString existing = dir.filePath(u"existing.otlp.json"_s);
        QFile previous(existing);
        QVERIFY(previous.open(QIODevice::WriteOnly));
        previous.write("the previous export");
        previous.close();
        QString error;

        QVERIFY(!exportTranscriptToFile(broken, ExportFormat::OtlpJson, fresh, &error));
        QVERIFY(error.contains(u"trace"_s));
        QVERIFY(!QFileInfo::exists(fresh));
        QVERIFY(!exportTranscriptToFile(broken, ExportFormat::OtlpJson, existing, &error));
        QVERIFY(previous.open(QIODevice::ReadOnly));
        QCOMPARE(previous.readAll(), QByteArray("the previous export"));
    }

    void exportToAFolderThatDoesNotExistSaysWhere()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"missing/session.md"_s);
        QString error;

        QVERIFY(!exportTranscriptToFile(m_session, ExportFormat::Markdown, path, &error));
        QVERIFY2(error.contains(QDir::toNativeSeparators(path)), qPrintable(error));
    }

    void otlpIdsBelongToTheSessionAndItsTurns()
    {
        // A later export of a longer session keeps the earlier turns' ids.
        Transcript earlier = m_session;
        earlier.trace = QJsonArray{m_session.trace.at(0), m_session.trace.at(1)};
        const QList<OtlpSpan> earlierSpans = readSpans(exportOtlpJson(earlier));
        const QString thirdTrace = m_spans.constLast().traceId;
        QCOMPARE(earlierSpans.size(), m_spans.size() - 3); // the third turn: invoke_agent, iteration, chat
        QVERIFY(std::none_of(earlierSpans.cbegin(), earlierSpans.cend(),
                             [&thirdTrace](const OtlpSpan &span) { return span.traceId == thirdTrace; }));
        for (qsizetype i = 0; i < earlierSpans.size(); ++i) {
            QCOMPARE(earlierSpans.at(i).traceId, m_spans.at(i).traceId);
            QCOMPARE(earlierSpans.at(i).spanId, m_spans.at(i).spanId);
        }

        // Another session (created at another time) gets other ids.
        Transcript other = m_session;
        other.created = other.created.addSecs(1);
        const QList<OtlpSpan> otherSpans = readSpans(exportOtlpJson(other));
        QCOMPARE(otherSpans.size(), m_spans.size());
        QVERIFY(otherSpans.constFirst().traceId != m_spans.constFirst().traceId);
        QVERIFY(otherSpans.constFirst().spanId != m_spans.constFirst().spanId);
        QVERIFY(otherSpans.constFirst().string(u"gen_ai.conversation.id"_s)
                != m_spans.constFirst().string(u"gen_ai.conversation.id"_s));
    }

    // --- All formats ------------------------------------------------------

    void exportsAreDeterministic_data() { addFormatRows(); }

    void exportsAreDeterministic()
    {
        QFETCH(Format, format);
        // What a save and a reopen give: the trace through its JSON text.
        Transcript reloaded = m_session;
        reloaded.trace = QJsonDocument::fromJson(QJsonDocument(m_session.trace).toJson()).array();

        const QByteArray first = exportAs(format, m_session);

        QVERIFY(!first.isEmpty());
        QCOMPARE(exportAs(format, m_session), first);
        QCOMPARE(exportAs(format, reloaded), first);
    }

    void exportsNeverContainTheApiKey_data() { addFormatRows(); }

    void exportsNeverContainTheApiKey()
    {
        QFETCH(Format, format);
        const QString apiKey = u"sk-export-secret-123456"_s;

        // An OpenAI-compatible server that fails once echoing the key, as
        // providers do, then asks for a tool and answers.
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler([&apiKey](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (exchange.requestIndex() == 0) {
                exchange.respondJson(
                    500, {{u"error"_s,
                           QJsonObject{{u"message"_s, QString(u"Server error for key "_s + apiKey)}}}});
                return;
            }
            const auto sse
                = [](const QJsonObject &delta, const QJsonValue &finish, const QJsonObject &extra = {}) {
                      QJsonObject body{{u"id"_s, u"chatcmpl-1"_s},
                                       {u"model"_s, u"gpt-test"_s},
                                       {u"choices"_s, QJsonArray{QJsonObject{{u"index"_s, 0},
                                                                             {u"delta"_s, delta},
                                                                             {u"finish_reason"_s, finish}}}}};
                      for (auto it = extra.begin(); it != extra.end(); ++it)
                          body.insert(it.key(), it.value());
                      return FakeHttpServer::sseEvent(QJsonDocument(body).toJson(QJsonDocument::Compact));
                  };
            const bool answered = request.body.contains("\"role\":\"tool\"");
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            if (answered) {
                exchange.send(sse({{u"content"_s, u"Done."_s}}, u"stop"_s));
            } else {
                exchange.send(sse(
                    {{u"tool_calls"_s,
                      QJsonArray{QJsonObject{
                          {u"index"_s, 0},
                          {u"id"_s, u"call_1"_s},
                          {u"type"_s, u"function"_s},
                          {u"function"_s, QJsonObject{{u"name"_s, u"echo"_s}, {u"arguments"_s, u"{}"_s}}}}}}},
                    u"tool_calls"_s));
            }
            exchange.send(
                sse({}, QJsonValue::Null,
                    {{u"usage"_s, QJsonObject{{u"prompt_tokens"_s, 12}, {u"completion_tokens"_s, 3}}}}));
            exchange.send("data: [DONE]\n\n");
            exchange.end();
        });

        QNetworkAccessManager network;
        ProviderEndpoint endpoint;
        endpoint.baseUrl = QUrl(server.baseUrl().toString() + u"/v1"_s);
        endpoint.apiKey = apiKey;
        HttpModelClient client(&network, std::make_unique<OpenAiProtocol>(), endpoint);
        client.retryPolicy().setBaseDelayMs(5);
        Workbench workbench;
        workbench.add(std::make_shared<FunctionTool>(
            ToolSchema{u"echo"_s, u"echo"_s, objectSchema()},
            [](const QJsonObject &, ToolContext &) { return ToolResult::success(u"echoed"_s); }));
        Trace trace;
        Agent agent(&client, &workbench, &trace);
        AgentConfig config;
        config.model.model = u"gpt-test"_s;
        agent.setConfig(config);
        QSignalSpy finished(&agent, &Agent::turnFinished);

        QVERIFY(agent.send(u"Echo something."_s));
        QVERIFY(QTest::qWaitFor([&] { return !finished.isEmpty(); }, 20000));

        // The key really went over the wire, and the trace recorded the attempts redacted.
        QCOMPARE(finished.constFirst().first().value<TurnResult>().outcome, TurnOutcome::Answered);
        QCOMPARE(server.requests().size(), 3);
        const QByteArray authorization = "Bearer "_ba + apiKey.toUtf8();
        QCOMPARE(server.requests().constFirst().header("Authorization"), authorization);
        const QByteArray traceJson = QJsonDocument(trace.toJson()).toJson();
        QVERIFY(traceJson.contains("[redacted]"));
        QVERIFY(traceJson.contains("Server error for key"));

        Transcript transcript = transcriptOf(agent, trace);
        // Even a base URL that carries the key is exported without it.
        transcript.baseUrl = QUrl(u"http://user:%1@127.0.0.1:%2/v1?key=%1"_s.arg(apiKey).arg(server.port()));

        const QByteArray exported = exportAs(format, transcript);

        QVERIFY(!exported.isEmpty());
        QVERIFY(exported.contains("echoed") || format == Format::Otlp);
        QVERIFY(!exported.contains(apiKey.toUtf8()));
        QVERIFY(!exported.contains("export-secret"));
    }
};

QTEST_MAIN(ExportsTest)
#include "tst_exports.moc"
