#include "agent/trace/trace.h"
#include "agent/transcript/transcript.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

#include <limits>

using namespace Qt::StringLiterals;
using namespace Loopscope;

namespace {

constexpr qint64 T0 = 1'714'555'800'123'456;                    // May 2024, in microseconds
constexpr qint64 BeyondDoublePrecision = 9'007'199'254'740'993; // 2^53 + 1

QDateTime utc(int day, int hour, int minute, int ms)
{
    return QDateTime(QDate(2024, 5, day), QTime(hour, minute, 7, ms), Qt::UTC);
}

ToolCall weatherCall()
{
    return {u"call_1"_s, u"weather"_s, uR"({"city":"Zürich"})"_s,
            QJsonObject{{u"thoughtSignature"_s, u"c2ln"_s}}};
}

ModelCallData sampleModelCall()
{
    ModelCallData data;
    data.provider = u"openai"_s;
    data.model = u"gpt-4o-mini"_s;
    ModelRequest request;
    request.messages
        = {Message::system(u"Be brief."_s), Message::user(u"Wetter in Zürich? 東京は？ 🌦"_s)};
    request.tools
        = {ToolSchema{u"weather"_s, u"Current weather"_s,
                      QJsonObject{{u"type"_s, u"object"_s}, {u"required"_s, QJsonArray{u"city"_s}}}}};
    request.options.model = u"gpt-4o-mini"_s;
    request.options.temperature = 0.2;
    request.options.topP = 0.9;
    data.request = request;
    data.originalRequest = request;
    data.originalRequest->messages.removeLast();
    data.response.toolCalls = {weatherCall()};
    data.response.finishReason = FinishReason::ToolCalls;
    data.response.usage = {1200, 34};
    data.response.raw
        = QJsonObject{{u"tiny"_s, 1e-7}, {u"big"_s, BeyondDoublePrecision}, {u"null"_s, QJsonValue()}};
    ModelAttempt attempt;
    attempt.startedUs = T0 + 20;
    attempt.endedUs = T0 + 400'000;
    attempt.httpStatus = 429;
    attempt.error = u"HTTP 429"_s;
    attempt.retryInMs = 1500;
    attempt.request = QJsonObject{{u"method"_s, u"POST"_s}, {u"url"_s, u"https://api.example.com/v1"_s}};
    data.attempts = {attempt};
    data.editedByInterceptor = true;
    data.firstTokenUs = 1'700'000'000'250'000;
    return data;
}

// Every node kind and every status, with the awkward values a real session produces.
QJsonArray everyKindTrace()
{
    Trace trace;
    const int turn
        = trace.begin(-1, TraceKind::Turn, u"Wetter ☀ — \"quoted\", back\\slash,\nnew line"_s, T0,
                      TurnData{u"Researcher 🔬"_s, u"Wetter?"_s, u"Sonnig."_s, u"answered"_s, {1300, 120}});
    const int iteration = trace.begin(turn, TraceKind::Iteration, u"Iteration 1"_s, T0 + 10,
                                      IterationData{1, 8, false, true});
    const int compaction = trace.begin(
        iteration, TraceKind::Compaction, u"Compaction: 9,000 → 5,000 tokens"_s, T0 + 15,
        CompactionData{u"trim-tool-results+drop-oldest"_s, 10'000, 9000, 5000,
                       QJsonObject{{u"replaced"_s,
                                    QJsonArray{QJsonObject{{u"messageIndex"_s, 2},
                                                           {u"role"_s, u"tool"_s},
                                                           {u"toolCallId"_s, u"call_0"_s},
                                                           {u"toolName"_s, u"weather"_s},
                                                           {u"tokens"_s, 3900},
                                                           {u"replacement"_s, u"[This result … removed]"_s}},
                                               QJsonObject{{u"messageIndex"_s, 0},
                                                           {u"role"_s, u"user"_s},
                                                           {u"tokens"_s, 100},
                                                           {u"dropped"_s, true},
                                                           {u"text"_s, u"Früher: \"quoted\""_s}}}}}});
    trace.finish(compaction, TraceStatus::Ok, T0 + 16);
    const int modelCall
        = trace.begin(iteration, TraceKind::ModelCall, u"gpt-4o-mini"_s, T0 + 20, sampleModelCall());
    const int retry = trace.begin(modelCall, TraceKind::Retry, u"HTTP 429"_s, T0 + 400'000,
                                  RetryData{1, 429, u"rate limited"_s, 1500});
    trace.finish(retry, TraceStatus::Ok, T0 + 1'900'000);
    trace.finish(modelCall, TraceStatus::Ok, T0 + 2'000'000);
    const int toolA = trace.begin(iteration, TraceKind::ToolCall, u"weather"_s, T0 + 2'000'100,
                                  ToolCallData{weatherCall(),
                                               uR"({"city":"Zurich"})"_s,
                                               u"sunny, 21 °C"_s,
                                               false,
                                               u"allowed"_s,
                                               {u"asked"_s, QString()},
                                               QJsonObject{{u"mcp"_s, QJsonObject{{u"server"_s, u"weather"_s},
                                                                                  {u"durationMs"_s, 12}}}}});
    const int toolB = trace.begin(iteration, TraceKind::ToolCall, u"run_shell"_s, T0 + 2'000'200,
                                  ToolCallData{ToolCall{u"call_2"_s, u"run_shell"_s, u"{}"_s, {}},
                                               {},
                                               u"The user denied this call."_s,
                                               true,
                                               u"denied"_s,
                                               {}});
    const int shield
        = trace.begin(toolB, TraceKind::ShieldCheck, u"rules"_s, T0 + 2'000'300,
                      ShieldCheckData{u"rules"_s, u"tool_call"_s, u"run_shell"_s, false, u"rm -rf"_s});
    trace.finish(shield, TraceStatus::Blocked, T0 + 2'000'301);
    const int wait = trace.begin(toolB, TraceKind::Wait, u"Waiting for your approval"_s, T0 + 2'000'302,
                                 WaitData{u"approval"_s, u"denied"_s});
    trace.finish(wait, TraceStatus::Denied, T0 + 2'000'400);
    trace.finish(toolB, TraceStatus::Denied, T0 + 2'000'500);
    const int retrieval = trace.begin(
        toolA, TraceKind::Retrieval, u"\"Wetter Zürich\": 2 passages"_s, T0 + 2'000'550,
        RetrievalData{
            u"Wetter Zürich"_s,
            {u"notes"_s, u"Ärger"_s},
            u"nomic-embed-text"_s,
            5,
            {RetrievalHit{u"notes"_s, u"/home/ü/notes/wetter.md"_s, 3, 9, 4.25, 0.8125, 0.0328,
                          u"# Wetter\n\n\tSonnig, \"21 °C\" 東京"_s},
             RetrievalHit{u"Ärger"_s, u"/home/ü/a.txt"_s, 1, 1, 0.5, std::nullopt, std::nullopt, {}}},
            41'000,
            1'250,
            u"the knowledge base \"old\" cannot be read"_s});
    trace.finish(retrieval, TraceStatus::Ok, T0 + 2'000'590);
    trace.finish(toolA, TraceStatus::Ok, T0 + 2'000'600); // after toolB's child: ids are not pre-order
    trace.finish(iteration, TraceStatus::Ok, T0 + 2'000'700);
    const int reflection = trace.begin(turn, TraceKind::Reflection, u"Reflection"_s, T0 + 3'000'000,
                                       TextData{u"Ich hätte zuerst lesen sollen.\n\t– Notiz"_s});
    trace.finish(reflection, TraceStatus::Ok, T0 + 3'500'000);
    const int summary = trace.begin(turn, TraceKind::Summary, u"Summary"_s, T0 + 3'600'000, TextData{});
    trace.finish(summary, TraceStatus::Skipped, T0 + 3'600'001);
    const int error = trace.begin(turn, TraceKind::Error, u"Unknown tool"_s, T0 + 3'700'000,
                                  ErrorData{u"The model called \"fly\"."_s, u"unknown_tool"_s});
    trace.finish(error, TraceStatus::Error, T0 + 3'700'000);
    const int mcpServer = trace.begin(
        turn, TraceKind::McpServer, u"MCP server weather"_s, T0 + 3'800'000,
        McpServerData{
            u"weather"_s, QJsonObject{{u"protocolVersion"_s, u"2025-11-25"_s}, {u"toolCount"_s, 2}}, {}, {}});
    const int oauth = trace.begin(
        mcpServer, TraceKind::McpAuth, u"OAuth token: POST https://as.example/token → 200"_s, T0 + 3'810'000,
        McpAuthData{u"weather"_s, u"token"_s, u"POST"_s, u"https://as.example/token"_s, 200, {}});
    trace.finish(oauth, TraceStatus::Ok, T0 + 3'820'000);
    trace.finish(mcpServer, TraceStatus::Ok, T0 + 3'900'000);
    trace.finish(turn, TraceStatus::Ok, T0 + 4'000'000);

    const int second = trace.begin(-1, TraceKind::Turn, u"Rechnung?"_s, BeyondDoublePrecision,
                                   TurnData{u"Triage"_s, u"Where is my invoice?"_s, {}, {}, {}});
    const int handoff = trace.begin(second, TraceKind::Handoff, u"→ billing"_s, BeyondDoublePrecision + 1,
                                    HandoffData{u"billing"_s, u"invoices"_s, u"call_9"_s});
    trace.finish(handoff, TraceStatus::Ok, std::numeric_limits<qint64>::max());
    const int bare = trace.begin(second, TraceKind::Iteration, u"without a payload"_s, T0 + 5'000'000);
    trace.finish(bare, TraceStatus::Cancelled, T0 + 5'000'001);
    trace.begin(second, TraceKind::Error, u"kind and payload disagree"_s, T0 + 5'000'002,
                TextData{u"text"_s});
    return trace.toJson(); // the second turn is still running
}

Transcript sampleTranscript()
{
    Transcript t;
    t.title = u"Wetter in Zürich — \"heute\""_s;
    t.created = utc(1, 9, 30, 123);
    t.updated = utc(2, 17, 5, 0);
    t.providerKind = u"openai"_s;
    t.baseUrl = QUrl(u"https://api.example.com/v1"_s);
    t.config.name = u"researcher"_s;
    t.config.systemPrompt = u"Antworte kurz.\nUse tools."_s;
    t.config.model.model = u"gpt-4o-mini"_s;
    t.config.model.temperature = 0.35;
    t.config.model.topP = 0.85;
    t.config.model.maxOutputTokens = 2048;
    t.config.model.contextWindow = 128000;
    t.config.compaction = CompactionStrategy::DropOldest;
    t.config.compactAtPercent = 70;
    t.config.model.stream = false;
    t.config.maxIterations = 6;
    t.config.wrapUpIterations = 1;
    t.config.toolLessFinalIteration = false;
    t.config.maxParallelTools = 2;
    t.config.toolTimeoutMs = 5'000;
    t.config.maxConsecutiveErrors = 5;
    t.config.maxRepeatedCalls = 2;
    t.config.tokenBudget = 5'000'000'000;
    t.config.postLoop = PostLoopMode::Summary;
    t.config.summaryFormat = u"{tool_name}: {result}"_s;
    t.tools = {u"calculator"_s, u"read_file"_s};
    t.messages = {
        Message::system(u"A note the user pinned."_s),
        Message::user(u"Wie ist das Wetter in Zürich? 東京は？ 🌦"_s),
        Message::assistant(u"Ich schaue nach."_s,
                           {weatherCall(), ToolCall{u"call_2"_s, u"run_shell"_s, u"{}"_s, {}}}),
        Message::toolResult(weatherCall(), u"sunny, 21 °C"_s, false),
        Message::toolResult(ToolCall{u"call_2"_s, u"run_shell"_s, {}, {}}, u"denied"_s, true),
        Message::assistant(u"Sonnig, 21 °C."_s),
        Message::user(u"Where is my invoice?"_s),
    };
    t.trace = everyKindTrace();
    return t;
}

QJsonObject sampleJson()
{
    return QJsonDocument::fromJson(TranscriptFile::serialize(sampleTranscript())).object();
}

// \a current with the value at \a path (keys and indices, e.g. {"messages", 1, "role"})
// replaced; an undefined value removes the key.
QJsonValue replaced(QJsonValue current, QList<QVariant> path, const QJsonValue &value)
{
    if (path.isEmpty())
        return value;
    const QVariant step = path.takeFirst();
    if (step.typeId() == QMetaType::Int) {
        QJsonArray array = current.toArray();
        array[step.toInt()] = replaced(array.at(step.toInt()), path, value);
        return array;
    }
    QJsonObject object = current.toObject();
    const QString key = step.toString();
    if (path.isEmpty() && value.isUndefined())
        object.remove(key);
    else
        object[key] = replaced(object.value(key), path, value);
    return object;
}

QByteArray sampleWith(const QList<QVariant> &path, const QJsonValue &value)
{
    return QJsonDocument(replaced(sampleJson(), path, value).toObject()).toJson();
}

QByteArray formatOneFixture()
{
    QFile file(QFINDTESTDATA("fixtures/v1-session.loopscope.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

QByteArray fixtureWith(const QList<QVariant> &path, const QJsonValue &value)
{
    return QJsonDocument(
               replaced(QJsonDocument::fromJson(formatOneFixture()).object(), path, value).toObject())
        .toJson();
}

QByteArray utf16(const QByteArray &utf8, bool bigEndian, bool withBom)
{
    QByteArray bytes = withBom ? (bigEndian ? "\xFE\xFF"_ba : "\xFF\xFE"_ba) : QByteArray();
    for (QChar c : QString::fromUtf8(utf8)) {
        const char high = char(c.unicode() >> 8);
        const char low = char(c.unicode() & 0xFF);
        bytes.append(bigEndian ? high : low).append(bigEndian ? low : high);
    }
    return bytes;
}

} // namespace

class TestTranscript : public QObject
{
    Q_OBJECT

private slots:
    void roundTripOfEveryTraceNodeKindIsByteStable();
    void equalTranscriptsAreWrittenAsEqualBytes();
    void textsStartingWithAByteOrderMarkKeepIt();
    void savedFileHasTheDocumentedShape();
    void savingAndLoadingGoesThroughTheDisk();
    void turnCountCountsTheQuestions();

    void savedFilesCarryNoSecret_data();
    void savedFilesCarryNoSecret();
    void secretsInAHandEditedFileAreDroppedOnLoad();

    void formatOneIsUpgradedOnLoad();
    void anUpgradedSessionIsSavedInTheCurrentFormat();
    void formatTwoLoadsAndIsSavedWithRequestDeltas();
    void newerFormatsAreRefusedWithAClearMessage();
    void openingForTheWindowReadsWhatTheCheckedReaderReads_data();
    void openingForTheWindowReadsWhatTheCheckedReaderReads();

    void malformedFilesAreRefusedWithWhatAndWhere_data();
    void malformedFilesAreRefusedWithWhatAndWhere();
    void lenientButValidFilesLoad_data();
    void lenientButValidFilesLoad();
    void pathsThatAreNotReadableSessionFilesAreRefused_data();
    void pathsThatAreNotReadableSessionFilesAreRefused();
    void filesBeyondTheLimitAreRefusedBeforeReading();
    void tooManyValuesAreRefusedBeforeParsing();
    void giantStringsLoad();
    void aHundredMegabyteSessionLoads();
    void damagedCopiesOfAValidFileNeverLoadWithoutAnError();
};

void TestTranscript::roundTripOfEveryTraceNodeKindIsByteStable()
{
    const Transcript original = sampleTranscript();
    const QByteArray first = TranscriptFile::serialize(original);
    const TranscriptLoadResult loaded = TranscriptFile::parse(first);
    QVERIFY2(loaded.transcript, qPrintable(loaded.error));
    QCOMPARE(loaded.error, QString());
    QCOMPARE(loaded.upgradedFrom, 0);
    QCOMPARE(loaded.transcript->messages, original.messages);
    QCOMPARE(loaded.transcript->config, original.config);
    QCOMPARE(*loaded.transcript, original);
    QCOMPARE(TranscriptFile::serialize(*loaded.transcript), first);

    // The trace in the file is the one Trace wrote, and reads back into the same tree.
    Trace trace;
    QString error;
    QVERIFY2(trace.fromJson(loaded.transcript->trace, &error), qPrintable(error));
    QCOMPARE(trace.toJson(), original.trace);
    QSet<int> kinds;
    QSet<int> statuses;
    for (int id = 0; id < trace.size(); ++id) {
        kinds.insert(int(trace.node(id).kind));
        statuses.insert(int(trace.node(id).status));
    }
    QCOMPARE(kinds.size(), int(LastTraceKind) + 1); // every kind
    QCOMPARE(statuses.size(), 7);
}

void TestTranscript::equalTranscriptsAreWrittenAsEqualBytes()
{
    Transcript a = sampleTranscript();
    Transcript b = sampleTranscript();
    // The same instants in other zones, and a config that went through JSON.
    b.created = a.created.toOffsetFromUtc(5 * 3600 + 1800);
    b.updated = a.updated.toLocalTime();
    b.config = AgentConfig::fromJson(a.config.toJson());
    QCOMPARE(TranscriptFile::serialize(b), TranscriptFile::serialize(a));
}

void TestTranscript::textsStartingWithAByteOrderMarkKeepIt()
{
    // Qt's parser drops a raw U+FEFF at the start of a string and sorts keys by it.
    const QString bom(QChar(0xFEFF));
    Transcript original = sampleTranscript();
    original.title = bom + u"pasted from Notepad"_s;
    original.messages.append(Message::user(bom));
    original.trace[0] = replaced(original.trace.at(0), {u"data"_s, u"input"_s}, QString(bom + u"x"_s));
    const QByteArray saved = TranscriptFile::serialize(original);
    QVERIFY(!saved.contains("\xEF\xBB\xBF"));
    const TranscriptLoadResult loaded = TranscriptFile::parse(saved);
    QVERIFY2(loaded.transcript, qPrintable(loaded.error));
    QCOMPARE(*loaded.transcript, original);
    QCOMPARE(TranscriptFile::serialize(*loaded.transcript), saved);

    // Written raw by another program, in a value and at the start of a key.
    const QByteArray raw = QByteArray(saved)
                               .replace("\\ufeffpasted", "\xEF\xBB\xBFpasted")
                               .replace("\"agentName\"", "\"\xEF\xBB\xBFzz\"");
    const TranscriptLoadResult fromRaw = TranscriptFile::parse(raw);
    QVERIFY2(fromRaw.transcript, qPrintable(fromRaw.error));
    QCOMPARE(fromRaw.transcript->title, original.title);
    const QByteArray resaved = TranscriptFile::serialize(*fromRaw.transcript);
    QCOMPARE(TranscriptFile::serialize(*TranscriptFile::parse(resaved).transcript), resaved);
    QVERIFY(resaved.contains("\"\\ufeffzz\""));
}

void TestTranscript::savedFileHasTheDocumentedShape()
{
    const QByteArray bytes = TranscriptFile::serialize(sampleTranscript());
    const QJsonObject json = QJsonDocument::fromJson(bytes).object();
    QCOMPARE(json.keys(), (QStringList{u"agent"_s, u"created"_s, u"formatVersion"_s, u"messages"_s,
                                       u"title"_s, u"trace"_s, u"updated"_s}));
    QCOMPARE(json.value(u"formatVersion"_s).toInt(), 4);
    QCOMPARE(json.value(u"created"_s).toString(), u"2024-05-01T09:30:07.123Z"_s);
    QCOMPARE(json.value(u"updated"_s).toString(), u"2024-05-02T17:05:07.000Z"_s);
    const QJsonObject agent = json.value(u"agent"_s).toObject();
    QCOMPARE(agent.keys(), (QStringList{u"config"_s, u"provider"_s, u"tools"_s}));
    QCOMPARE(agent.value(u"provider"_s).toObject(),
             (QJsonObject{{u"kind"_s, u"openai"_s}, {u"baseUrl"_s, u"https://api.example.com/v1"_s}}));
    QCOMPARE(
        agent.value(u"config"_s).toObject().value(u"model"_s).toObject().value(u"temperature"_s).toDouble(),
        0.35);
    QCOMPARE(json.value(u"messages"_s).toArray().at(3).toObject().value(u"toolCallId"_s).toString(),
             u"call_1"_s);
    // Indented by two spaces a level (four made most of a long session's bytes whitespace), UTF-8,
    // not escapes, ending in a line break.
    QVERIFY(bytes.contains("\n  \"agent\": {\n    \"config\": {\n"));
    QVERIFY(!bytes.contains("\n   \"")); // no key indented by an odd number of spaces
    QVERIFY(bytes.contains("Zürich"));
    QVERIFY(bytes.endsWith("}\n"));
}

void TestTranscript::savingAndLoadingGoesThroughTheDisk()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"weather.loopscope.json"_s);
    QString error;
    QVERIFY2(TranscriptFile::save(sampleTranscript(), path, &error), qPrintable(error));
    Transcript changedTranscript = sampleTranscript();
    changedTranscript.title = u"Renamed"_s;
    QVERIFY2(TranscriptFile::save(changedTranscript, path, &error), qPrintable(error));

    const TranscriptLoadResult loaded = TranscriptFile::load(path);
    QVERIFY2(loaded.transcript, qPrintable(loaded.error));
    QCOMPARE(*loaded.transcript, changedTranscript);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{u"weather.loopscope.json"_s});

    QVERIFY(!TranscriptFile::save(sampleTranscript(), dir.filePath(u"missing/folder/x.loopscope.json"_s),
                                  &error));
    QVERIFY2(error.contains(u"missing/folder/x.loopscope.json"_s) && error.contains(u"cannot be written"_s),
             qPrintable(error));
}

void TestTranscript::turnCountCountsTheQuestions()
{
    QCOMPARE(sampleTranscript().turnCount(), 2);
    QCOMPARE(Transcript().turnCount(), 0);
}

void TestTranscript::savedFilesCarryNoSecret_data()
{
    QTest::addColumn<QString>("baseUrl");
    QTest::addColumn<QString>("savedUrl");

    QTest::newRow("a key in the query")
        << u"https://generativelanguage.googleapis.com/v1beta?key=AIzaSECRET123"_s
        << u"https://generativelanguage.googleapis.com/v1beta?key=[redacted]"_s;
    QTest::newRow("an api_key beside other parameters")
        << u"https://proxy.example.com/v1?region=eu&api_key=sk-SECRET123"_s
        << u"https://proxy.example.com/v1?region=eu&api_key=[redacted]"_s;
    QTest::newRow("a user and password")
        << u"https://alice:SECRET123@llm.example.com:8443/v1"_s << u"https://llm.example.com:8443/v1"_s;
    QTest::newRow("both at once") << u"http://bob:SECRET123@localhost:11434/api?key=SECRET123"_s
                                  << u"http://localhost:11434/api?key=[redacted]"_s;
    QTest::newRow("nothing to hide") << u"https://api.openai.com/v1"_s << u"https://api.openai.com/v1"_s;
}

void TestTranscript::savedFilesCarryNoSecret()
{
    QFETCH(QString, baseUrl);
    QFETCH(QString, savedUrl);
    Transcript transcript = sampleTranscript();
    transcript.baseUrl = QUrl(baseUrl);

    QTemporaryDir dir;
    const QString path = dir.filePath(u"s.loopscope.json"_s);
    QVERIFY(TranscriptFile::save(transcript, path));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(!bytes.contains("SECRET123"));
    QVERIFY(!bytes.contains("alice") && !bytes.contains("bob"));
    const TranscriptLoadResult loaded = TranscriptFile::load(path);
    QVERIFY2(loaded.transcript, qPrintable(loaded.error));
    QCOMPARE(loaded.transcript->baseUrl.toString(QUrl::FullyEncoded), savedUrl);
}

void TestTranscript::secretsInAHandEditedFileAreDroppedOnLoad()
{
    const TranscriptLoadResult loaded
        = TranscriptFile::parse(sampleWith({u"agent"_s, u"provider"_s, u"baseUrl"_s},
                                           u"https://u:SECRET123@api.example.com/v1?key=SECRET123"_s));
    QVERIFY2(loaded.transcript, qPrintable(loaded.error));
    QCOMPARE(loaded.transcript->baseUrl.toString(QUrl::FullyEncoded),
             u"https://api.example.com/v1?key=[redacted]"_s);
}

void TestTranscript::formatOneIsUpgradedOnLoad()
{
    const TranscriptLoadResult loaded
        = TranscriptFile::load(QFINDTESTDATA("fixtures/v1-session.loopscope.json"));
    QVERIFY2(loaded.transcript, qPrintable(loaded.error));
    QCOMPARE(loaded.upgradedFrom, 1);
    const Transcript &t = *loaded.transcript;
    QCOMPARE(t.title, u"How much is 17% of 2,340?"_s);
    QCOMPARE(t.created, QDateTime(QDate(2024, 3, 2), QTime(9, 15, 27), Qt::UTC));
    QCOMPARE(t.updated, t.created);
    QCOMPARE(t.providerKind, u"openai"_s);
    QCOMPARE(t.baseUrl, QUrl());
    QCOMPARE(t.config.model.model, u"gpt-4o-mini"_s);
    QCOMPARE(t.config.systemPrompt, u"You are a careful assistant. Use the calculator for arithmetic."_s);
    QCOMPARE(t.config.maxIterations, AgentConfig().maxIterations);
    QCOMPARE(t.tools, QStringList());

    const ToolCall call{u"call_Qx7ZbV1u"_s, u"calculator"_s, uR"({"expression":"2340*0.17"})"_s, {}};
    const QList<Message> expected{
        Message::user(u"How much is 17% of 2,340, and what is left after it?"_s),
        Message::assistant({}, {call}),
        Message::toolResult(call, u"397.8"_s, false),
        Message::assistant(u"17% of 2,340 is **397.80**, which leaves **1,942.20**."_s),
    };
    QCOMPARE(t.messages, expected);
    QVERIFY(historyIsWellFormed(t.messages));
    QCOMPARE(t.turnCount(), 1);

    Trace trace;
    QVERIFY(trace.fromJson(t.trace));
    QCOMPARE(trace.size(), 6);
    QCOMPARE(trace.node(4).kind, TraceKind::Iteration); // numbered in pre-order
    const auto *tool = std::get_if<ToolCallData>(&trace.node(3).payload);
    QVERIFY(tool);
    QCOMPARE(tool->call, call);
    QCOMPARE(tool->result, u"397.8"_s);
}

void TestTranscript::anUpgradedSessionIsSavedInTheCurrentFormat()
{
    const TranscriptLoadResult upgraded = TranscriptFile::parse(formatOneFixture());
    QVERIFY2(upgraded.transcript, qPrintable(upgraded.error));
    const QByteArray saved = TranscriptFile::serialize(*upgraded.transcript);
    QCOMPARE(QJsonDocument::fromJson(saved).object().value(u"formatVersion"_s).toInt(),
             Transcript::formatVersion);
    QVERIFY(!QJsonDocument::fromJson(saved).object().contains(u"version"_s));
    const TranscriptLoadResult reloaded = TranscriptFile::parse(saved);
    QVERIFY2(reloaded.transcript, qPrintable(reloaded.error));
    QCOMPARE(reloaded.upgradedFrom, 0);
    QCOMPARE(*reloaded.transcript, *upgraded.transcript);
}

void TestTranscript::formatTwoLoadsAndIsSavedWithRequestDeltas()
{
    // Format 2 kept every model call's whole request and wire body (a copy of the example session).
    const QString path = QFINDTESTDATA("fixtures/v2-session.loopscope.json");
    const TranscriptLoadResult old = TranscriptFile::load(path);
    QVERIFY2(old.transcript, qPrintable(old.error));
    QCOMPARE(old.upgradedFrom, 2);
    QVERIFY(old.trace);
    Trace trace;
    trace.assign(*old.trace);
    QList<int> calls;
    for (int id = 0; id < trace.size(); ++id) {
        if (trace.node(id).kind == TraceKind::ModelCall)
            calls.append(id);
    }
    QCOMPARE(calls.size(), 3);
    QCOMPARE(trace.node(calls.at(2)).data<ModelCallData>().request.messageCount(), 6);

    // Saved again, as the app does (from the trace), later calls refer to the ones before.
    Transcript upgraded = *old.transcript;
    upgraded.trace = trace.toJson();
    const QByteArray saved = TranscriptFile::serialize(upgraded);
    QVERIFY(saved.contains("\"requestDelta\""));
    QVERIFY(saved.size() < QFileInfo(path).size());
    const TranscriptLoadResult reloaded = TranscriptFile::parse(saved);
    QVERIFY2(reloaded.transcript, qPrintable(reloaded.error));
    QCOMPARE(reloaded.upgradedFrom, 0);
    Trace again;
    again.assign(*reloaded.trace);
    QCOMPARE(again.size(), trace.size());
    for (int id = 0; id < trace.size(); ++id)
        QVERIFY2(again.node(id) == trace.node(id), qPrintable(u"node %1 differs"_s.arg(id)));
    QCOMPARE(reloaded.transcript->messages, old.transcript->messages);
}

void TestTranscript::newerFormatsAreRefusedWithAClearMessage()
{
    // A newer file may look entirely different: only its version is read.
    const TranscriptLoadResult loaded = TranscriptFile::parse(R"({"formatVersion": 5, "chats": []})"_ba);
    QVERIFY(!loaded.transcript);
    QCOMPARE(loaded.error,
             u"This session was saved by a newer Loopscope (format 5); this version reads up to "
             "format 4."_s);
}

void TestTranscript::openingForTheWindowReadsWhatTheCheckedReaderReads_data()
{
    QTest::addColumn<QByteArray>("bytes");
    const QByteArray saved = TranscriptFile::serialize(sampleTranscript());
    QTest::newRow("every trace node kind") << saved;
    QTest::newRow("compact JSON") << QJsonDocument(sampleJson()).toJson(QJsonDocument::Compact);
    QTest::newRow("a UTF-8 byte order mark") << "\xEF\xBB\xBF"_ba + saved;
    QTest::newRow("raw byte order marks in a value and a key")
        << QByteArray(saved)
               .replace("\"Be brief.\"", "\"\xEF\xBB\xBF"
                                         "Be brief.\"")
               .replace("\"agentName\"", "\"\xEF\xBB\xBFzz\"");
    QTest::newRow("escapes in keys and values") << QByteArray(saved)
                                                       .replace("\"title\"", "\"\\u0074itle\"")
                                                       .replace("Be brief.", "Be\\n\\u00e4brief.");
    QTest::newRow("format 1") << formatOneFixture();
    QFile formatTwo(QFINDTESTDATA("fixtures/v2-session.loopscope.json"));
    QVERIFY(formatTwo.open(QIODevice::ReadOnly));
    const QByteArray formatTwoBytes = formatTwo.readAll();
    QTest::newRow("format 2") << formatTwoBytes;
    // Format 3 with request deltas, as the app saves format 2 again.
    const TranscriptLoadResult old = TranscriptFile::parse(formatTwoBytes);
    QVERIFY(old.transcript && old.trace);
    Trace trace;
    trace.assign(*old.trace);
    Transcript upgraded = *old.transcript;
    upgraded.trace = trace.toJson();
    QTest::newRow("request deltas") << TranscriptFile::serialize(upgraded);
    QTest::newRow("a delta whose base is not a model call")
        << TranscriptFile::serialize(upgraded).replace("\"base\": 3", "\"base\": 2");
    QTest::newRow("a fractional time") << sampleWith({u"trace"_s, 0, u"startedUs"_s}, 1.5);
    QTest::newRow("a whole time written with a fraction") << sampleWith({u"trace"_s, 0, u"endedUs"_s}, 2.0);
    QTest::newRow("a duplicate key in a trace node")
        << QByteArray(saved).replace("\"label\":", "\"label\": \"twice\", \"label\":");
    QTest::newRow("a truncated file") << saved.first(saved.size() / 2);
}

void TestTranscript::openingForTheWindowReadsWhatTheCheckedReaderReads()
{
    QFETCH(QByteArray, bytes);
    const TranscriptLoadResult checked = TranscriptFile::parse(bytes);
    const TranscriptLoadResult opened = TranscriptFile::parse(bytes, TranscriptFile::TraceForm::ForestOnly);
    QCOMPARE(opened.error, checked.error);
    QCOMPARE(opened.upgradedFrom, checked.upgradedFrom);
    QCOMPARE(opened.transcript.has_value(), checked.transcript.has_value());
    if (!checked.transcript)
        return;
    Transcript withoutTrace = *checked.transcript;
    withoutTrace.trace = {};
    QCOMPARE(*opened.transcript, withoutTrace);
    QVERIFY(opened.trace && checked.trace);
    QCOMPARE(opened.trace->roots, checked.trace->roots);
    QCOMPARE(opened.trace->nodes.size(), checked.trace->nodes.size());
    for (size_t id = 0; id < checked.trace->nodes.size(); ++id) {
        QVERIFY2(opened.trace->nodes[id] == checked.trace->nodes[id],
                 qPrintable(u"node %1 differs"_s.arg(id)));
    }
}

void TestTranscript::malformedFilesAreRefusedWithWhatAndWhere_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("error");

    const QByteArray valid = TranscriptFile::serialize(sampleTranscript());
    const QJsonValue none(QJsonValue::Undefined); // removes the key

    // Not a session at all
    QTest::newRow("an empty file") << QByteArray() << u"The file is empty."_s;
    QTest::newRow("only white space") << "\n \t\r\n"_ba << u"The file is empty."_s;
    QTest::newRow("a byte order mark and nothing else") << "\xEF\xBB\xBF"_ba << u"The file is empty."_s;
    QTest::newRow("truncated in the middle")
        << valid.left(valid.size() / 2) << u"The file ends too early (at line "_s;
    QTest::newRow("truncated one byte short") << valid.chopped(2) << u"probably truncated"_s;
    QTest::newRow("binary garbage") << QByteArray(
        "\x7F"
        "ELF\x02\x01\x01\0\0\0",
        10) << u"The file holds binary data (a zero byte at line 1, column 8), not JSON text."_s;
    QTest::newRow("binary garbage without a zero byte")
        << "\x89PNG\r\n\x1A\n"_ba << u"The file is not valid JSON: illegal value at line 1, column 1."_s;
    QTest::newRow("plain text") << "Hello"_ba << u"The file is not valid JSON: illegal value at line 1"_s;
    QTest::newRow("UTF-16 little-endian with a byte order mark")
        << utf16(valid, false, true) << u"The file is UTF-16 or UTF-32 text; session files are UTF-8."_s;
    QTest::newRow("UTF-16 big-endian without a byte order mark")
        << utf16(valid, true, false) << u"The file is UTF-16 text; session files are UTF-8."_s;
    QTest::newRow("UTF-32 big-endian") << QByteArray("\0\0\xFE\xFF\0\0\0{", 8) << u"UTF-16 or UTF-32"_s;
    QTest::newRow("invalid UTF-8 in a string")
        << QByteArray(valid).replace("Antworte kurz.", "Antworte \xC3\x28kurz")
        << u"invalid UTF8 string at line"_s;
    QTest::newRow("garbage after the object") << valid + "}"_ba << u"garbage at the end of the document"_s;
    QTest::newRow("NaN") << R"({"formatVersion": NaN})"_ba << u"The file is not valid JSON: illegal number"_s;
    QTest::newRow("Infinity") << R"({"formatVersion": 2, "title": -Infinity})"_ba << u"illegal"_s;
    QTest::newRow("a number too large for a double")
        << R"({"formatVersion": 1e999})"_ba
        << u"The file is not valid JSON: illegal number at line 1, column 24."_s;
    QTest::newRow("deep nesting")
        << "{\"formatVersion\": 2, \"title\": " + QByteArray(600, '[') + QByteArray(600, ']') + "}"
        << u"The file nests objects and arrays more than 512 levels deep (at line 1, column 542)."_s;
    QTest::newRow("deep nesting that never closes") << QByteArray(100'000, '[') << u"more than 512 levels"_s;
    QTest::newRow("an array at the top") << "[]"_ba << u"a session is a JSON object, this is an array."_s;

    // Duplicate keys, which a JSON parser would silently resolve
    QTest::newRow("a duplicate key at the top")
        << R"({"formatVersion": 2, "title": "a", "title": "b"})"_ba
        << u"The key \"title\" appears twice in the top-level object (at line 1, column 1)."_s;
    QTest::newRow("a duplicate key in a message")
        << QByteArray(valid).replace(R"("role": "user",)", R"("role": "user", "role": "assistant",)")
        << u"The key \"role\" appears twice in messages[1] (at line "_s;
    QTest::newRow("a duplicate key written with an escape")
        << R"({"formatVersion": 2, "agent": {"tools": [], "t\u006fols": []}})"_ba
        << u"The key \"tools\" appears twice in agent (at line 1, column 31)."_s;

    // Versions
    QTest::newRow("no version") << R"({"title": "x"})"_ba << u"it has no formatVersion"_s;
    QTest::newRow("a version as text") << sampleWith({u"formatVersion"_s}, u"2"_s)
                                       << u"formatVersion must be a whole number, not a string."_s;
    QTest::newRow("a fractional version")
        << sampleWith({u"formatVersion"_s}, 1.5)
        << u"formatVersion must be a whole number from 1 to 9223372036854775807; it is 1.5."_s;
    QTest::newRow("version zero") << sampleWith(
        {u"formatVersion"_s},
        0) << u"formatVersion must be a whole number from 1 to 9223372036854775807; it is 0."_s;
    QTest::newRow("a far future version")
        << sampleWith({u"formatVersion"_s}, 1e15) << u"newer Loopscope (format 1000000000000000)"_s;

    // Fields of format 2
    QTest::newRow("a role that is a number") << sampleWith({u"messages"_s, 3, u"role"_s}, 7)
                                             << u"messages[3].role must be a string, not a number."_s;
    QTest::newRow("an unknown role")
        << sampleWith({u"messages"_s, 0, u"role"_s}, u"bot"_s)
        << u"messages[0].role must be one of system, user, assistant, tool; it is "
           "\"bot\"."_s;
    QTest::newRow("a message that is not an object")
        << sampleWith({u"messages"_s, 2}, u"hi"_s) << u"messages[2] must be an object, not a string."_s;
    QTest::newRow("a message without text")
        << sampleWith({u"messages"_s, 1, u"text"_s}, none) << u"messages[1].text is missing."_s;
    QTest::newRow("a nested array instead of text")
        << sampleWith({u"messages"_s, 1, u"text"_s}, QJsonArray{QJsonArray{QJsonArray{}}})
        << u"messages[1].text must be a string, not an array."_s;
    QTest::newRow("tool calls on a user message")
        << sampleWith({u"messages"_s, 1, u"toolCalls"_s}, QJsonArray{})
        << u"messages[1].toolCalls is only allowed on assistant messages."_s;
    QTest::newRow("a tool call without a name")
        << sampleWith({u"messages"_s, 2, u"toolCalls"_s, 1, u"name"_s}, none)
        << u"messages[2].toolCalls[1].name is missing."_s;
    QTest::newRow("tool call arguments as an object")
        << sampleWith({u"messages"_s, 2, u"toolCalls"_s, 0, u"arguments"_s}, QJsonObject{})
        << u"messages[2].toolCalls[0].arguments must be a string, not an object."_s;
    QTest::newRow("a tool result without its call id")
        << sampleWith({u"messages"_s, 4, u"toolCallId"_s}, none) << u"messages[4].toolCallId is missing."_s;
    QTest::newRow("isError as a string") << sampleWith({u"messages"_s, 4, u"isError"_s}, u"yes"_s)
                                         << u"messages[4].isError must be true or false, not a string."_s;
    QTest::newRow("a call id on a user message")
        << sampleWith({u"messages"_s, 6, u"toolCallId"_s}, u"x"_s)
        << u"messages[6].toolCallId is only allowed on tool messages."_s;
    QTest::newRow("messages as an object")
        << sampleWith({u"messages"_s}, QJsonObject{}) << u"messages must be an array, not an object."_s;
    QTest::newRow("a title that is null")
        << sampleWith({u"title"_s}, QJsonValue()) << u"title must be a string, not null."_s;
    QTest::newRow("a creation time that is not a time")
        << sampleWith({u"created"_s}, u"yesterday"_s)
        << u"created must be a date and time in ISO 8601 with its zone, such as 2024-05-01T09:30:00.000Z; it "
           u"is "
           "\"yesterday\"."_s;
    QTest::newRow("a time whose UTC year has five digits")
        << sampleWith({u"updated"_s}, u"9999-12-31T23:00:00-05:00"_s) << u"updated must be a date and time"_s;
    QTest::newRow("a time whose UTC year is zero")
        << sampleWith({u"created"_s}, u"0001-01-01T00:00:00+05:00"_s) << u"created must be a date and time"_s;
    QTest::newRow("a time without its zone") << sampleWith({u"updated"_s}, u"2024-05-01T09:30:00"_s)
                                             << u"updated must be a date and time in ISO 8601"_s;
    QTest::newRow("no agent") << sampleWith({u"agent"_s}, none) << u"agent is missing."_s;
    QTest::newRow("a provider kind that is a number")
        << sampleWith({u"agent"_s, u"provider"_s, u"kind"_s}, 1)
        << u"agent.provider.kind must be a string, not a number."_s;
    QTest::newRow("a base URL that is not http")
        << sampleWith({u"agent"_s, u"provider"_s, u"baseUrl"_s}, u"file:///etc/passwd"_s)
        << u"agent.provider.baseUrl must be an http or https URL; it is \"file:///etc/passwd\"."_s;
    QTest::newRow("a fractional iteration limit")
        << sampleWith({u"agent"_s, u"config"_s, u"maxIterations"_s}, 2.5)
        << u"agent.config.maxIterations must be a whole number from 1 to 2147483647; it is 2.5."_s;
    QTest::newRow("a negative iteration limit")
        << sampleWith({u"agent"_s, u"config"_s, u"maxIterations"_s}, -3) << u"it is -3."_s;
    QTest::newRow("an iteration limit beyond 32 bits")
        << sampleWith({u"agent"_s, u"config"_s, u"maxIterations"_s}, 1e20) << u"it is 1e+20."_s;
    QTest::newRow("a token budget beyond 64 bits")
        << sampleWith({u"agent"_s, u"config"_s, u"tokenBudget"_s}, 1e300)
        << u"agent.config.tokenBudget must be a whole number from 0 to 9223372036854775807"_s;
    QTest::newRow("a temperature out of range")
        << sampleWith({u"agent"_s, u"config"_s, u"model"_s, u"temperature"_s}, 7)
        << u"agent.config.model.temperature must be a number from 0 to 2; it is 7."_s;
    QTest::newRow("a top p out of range")
        << sampleWith({u"agent"_s, u"config"_s, u"model"_s, u"topP"_s}, 1.5)
        << u"agent.config.model.topP must be a number from 0 to 1; it is 1.5."_s;
    QTest::newRow("an unknown post-loop mode")
        << sampleWith({u"agent"_s, u"config"_s, u"postLoop"_s}, u"sometimes"_s)
        << u"agent.config.postLoop must be one of reflect, summary, none; it is \"sometimes\"."_s;
    QTest::newRow("a tool name that is a number")
        << sampleWith({u"agent"_s, u"tools"_s, 1}, 5) << u"agent.tools[1] must be a string, not a number."_s;
    QTest::newRow("a giant value in an error is cut")
        << sampleWith({u"agent"_s, u"config"_s, u"postLoop"_s}, QString(100'000, u'x'))
        << u"; it is \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…\"."_s;
    QTest::newRow("a trace that is an object")
        << sampleWith({u"trace"_s}, QJsonObject{}) << u"trace must be an array, not an object."_s;
    QTest::newRow("a trace node of an unknown kind")
        << sampleWith({u"trace"_s, 1, u"children"_s, 0, u"kind"_s}, u"teleport"_s)
        << u"The trace is malformed. Trace node 1/0: unknown kind \"teleport\"."_s;
    QTest::newRow("a trace node payload of the wrong type")
        << sampleWith({u"trace"_s, 0, u"data"_s, u"usage"_s}, 12)
        << u"The trace is malformed. Trace node 0: the field \"data.usage\" must be an object."_s;

    // Fields of format 1
    QTest::newRow("format 1 content that is a number")
        << fixtureWith({u"history"_s, 3, u"content"_s}, 42)
        << u"history[3].content must be a string, not a number."_s;
    QTest::newRow("format 1 without a time") << fixtureWith({u"savedAt"_s}, none) << u"savedAt is missing."_s;
    QTest::newRow("format 1 tool result without its call")
        << fixtureWith({u"history"_s, 2, u"tool_call_id"_s}, none)
        << u"history[2].tool_call_id is missing."_s;
    QTest::newRow("format 1 trace with a broken node")
        << fixtureWith({u"trace"_s, 0, u"children"_s, 0, u"children"_s, 1, u"status"_s}, u"fine"_s)
        << u"The trace is malformed. Trace node 0/0/1: unknown status \"fine\"."_s;
}

void TestTranscript::malformedFilesAreRefusedWithWhatAndWhere()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, error);
    const TranscriptLoadResult loaded = TranscriptFile::parse(bytes);
    QVERIFY(!loaded.transcript);
    QVERIFY2(loaded.error.contains(error), qPrintable(u"The error was: "_s + loaded.error));
    // Opening it in the window, through the fast reader, says the same.
    const TranscriptLoadResult opened = TranscriptFile::parse(bytes, TranscriptFile::TraceForm::ForestOnly);
    QVERIFY(!opened.transcript);
    QCOMPARE(opened.error, loaded.error);
}

void TestTranscript::lenientButValidFilesLoad_data()
{
    QTest::addColumn<QByteArray>("bytes");

    QTest::newRow("a UTF-8 byte order mark")
        << "\xEF\xBB\xBF"_ba + TranscriptFile::serialize(sampleTranscript());
    QTest::newRow("compact JSON") << QJsonDocument(sampleJson()).toJson(QJsonDocument::Compact);
    QTest::newRow("unknown keys from a later minor change")
        << sampleWith({u"agent"_s, u"config"_s, u"futureLimit"_s}, 3);
    QTest::newRow("config keys left out") << sampleWith({u"agent"_s, u"config"_s}, QJsonObject{});
    QTest::newRow("times with an offset and no milliseconds")
        << sampleWith({u"created"_s}, u"2024-05-01T11:30:07+02:00"_s);
    QTest::newRow("unknown times") << sampleWith({u"created"_s}, u""_s);
    QTest::newRow("no base URL") << sampleWith({u"agent"_s, u"provider"_s, u"baseUrl"_s}, u""_s);
    QTest::newRow("the same key in different objects")
        << R"({"formatVersion": 2, "title": "", "created": "", "updated": "",
              "agent": {"provider": {"kind": "", "baseUrl": ""}, "config": {"name": "a", "model": {"model": "m"}},
                        "tools": []},
              "messages": [{"role": "user", "text": "hi"}], "trace": []})"_ba;
}

void TestTranscript::lenientButValidFilesLoad()
{
    QFETCH(QByteArray, bytes);
    const TranscriptLoadResult loaded = TranscriptFile::parse(bytes);
    QVERIFY2(loaded.transcript, qPrintable(loaded.error));
    QCOMPARE(loaded.error, QString());
    // Whatever was read is written in the current form, and that is stable.
    const QByteArray saved = TranscriptFile::serialize(*loaded.transcript);
    QCOMPARE(TranscriptFile::serialize(*TranscriptFile::parse(saved).transcript), saved);
}

void TestTranscript::pathsThatAreNotReadableSessionFilesAreRefused_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("error");

    QTest::newRow("no path") << u"empty"_s << u"No file was named."_s;
    QTest::newRow("a missing file") << u"missing"_s << u"does not exist."_s;
    QTest::newRow("a folder") << u"folder"_s << u"is a folder, not a file."_s;
    QTest::newRow("a pipe, which would block") << u"fifo"_s << u"is not a regular file."_s;
    QTest::newRow("a device, which would not end") << u"device"_s << u"/dev/zero is not a regular file."_s;
    QTest::newRow("a file without read permission") << u"unreadable"_s << u"cannot be read: "_s;
    // A regular file whose read fails, for anyone (root included): offset 0 is not mapped.
    QTest::newRow("a file whose reading fails") << u"failing"_s << u"/proc/self/mem cannot be read: "_s;
}

void TestTranscript::pathsThatAreNotReadableSessionFilesAreRefused()
{
    QFETCH(QString, kind);
    QFETCH(QString, error);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString path = dir.filePath(kind);
    if (kind == u"empty"_s) {
        path.clear();
    } else if (kind == u"folder"_s) {
        QVERIFY(QDir(dir.path()).mkdir(kind));
    } else if (kind == u"fifo"_s) {
        QCOMPARE(mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == u"device"_s) {
        path = u"/dev/zero"_s;
    } else if (kind == u"failing"_s) {
        path = u"/proc/self/mem"_s;
    } else if (kind == u"unreadable"_s) {
        if (geteuid() == 0)
            QSKIP("root reads files without read permission");
        QVERIFY(TranscriptFile::save(sampleTranscript(), path));
        QVERIFY(QFile::setPermissions(path, QFileDevice::WriteOwner));
    }
    const TranscriptLoadResult loaded = TranscriptFile::load(path);
    QVERIFY(!loaded.transcript);
    QVERIFY2(loaded.error.contains(error), qPrintable(u"The error was: "_s + loaded.error));
}

void TestTranscript::filesBeyondTheLimitAreRefusedBeforeReading()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"huge.loopscope.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // Sparse: it takes no disk space, and would take 512 MB of memory if it were read.
    QVERIFY(file.resize(TranscriptFile::maxFileBytes + 1));
    file.close();
    const TranscriptLoadResult loaded = TranscriptFile::load(path);
    QVERIFY(!loaded.transcript);
    QCOMPARE(loaded.error, u"The file is 513 MB; Loopscope opens session files of up to 512 MB."_s);
}

void TestTranscript::tooManyValuesAreRefusedBeforeParsing()
{
    // 32 MB of zeros would take a JSON parser about 300 MB of memory.
    const QByteArray many
        = "{\"formatVersion\": 2, \"trace\": [" + "0,"_ba.repeated(TranscriptFile::maxJsonValues) + "0]}";
    const TranscriptLoadResult loaded = TranscriptFile::parse(many);
    QVERIFY(!loaded.transcript);
    QVERIFY2(loaded.error.startsWith(u"The file holds more than "_s)
                 && loaded.error.contains(u"JSON values, more than any session needs (at line 1, column "_s),
             qPrintable(loaded.error));
}

void TestTranscript::giantStringsLoad()
{
    Transcript transcript = sampleTranscript();
    transcript.title = QString(20'000'000, u'ü');
    transcript.messages.last().text = QString(20'000'000, u'"'); // every one escaped in the file
    const TranscriptLoadResult loaded = TranscriptFile::parse(TranscriptFile::serialize(transcript));
    QVERIFY2(loaded.transcript, qPrintable(loaded.error));
    QCOMPARE(loaded.transcript->title.size(), 20'000'000);
    QCOMPARE(loaded.transcript->messages.last().text, transcript.messages.last().text);
}

void TestTranscript::aHundredMegabyteSessionLoads()
{
    Transcript big = sampleTranscript();
    // 1,000 long answers of 100 kB each (shared in memory, not in the file), and their questions.
    const QString answer = QString(u"Die Antwort lautet: 42 — "_s).repeated(4'000);
    for (int i = 0; i < 1'000; ++i) {
        big.messages.append(Message::user(u"Question %1?"_s.arg(i)));
        big.messages.append(Message::assistant(answer));
    }
    QTemporaryDir dir;
    const QString path = dir.filePath(u"big.loopscope.json"_s);
    QString error;
    QVERIFY2(TranscriptFile::save(big, path, &error), qPrintable(error));
    QVERIFY(QFileInfo(path).size() > 100'000'000);
    QVERIFY(QFileInfo(path).size() < TranscriptFile::maxFileBytes);

    const TranscriptLoadResult loaded = TranscriptFile::load(path);
    QVERIFY2(loaded.transcript, qPrintable(loaded.error));
    QCOMPARE(loaded.transcript->messages.size(), big.messages.size());
    QCOMPARE(loaded.transcript->messages.last(), big.messages.last());
    QCOMPARE(loaded.transcript->turnCount(), 1'002);
}

void TestTranscript::damagedCopiesOfAValidFileNeverLoadWithoutAnError()
{
    const QByteArray valid = TranscriptFile::serialize(sampleTranscript());
    QRandomGenerator random(20240501); // the same damage every run
    for (int i = 0; i < 2'000; ++i) {
        QByteArray damaged = valid;
        switch (i % 4) {
        case 0: damaged.truncate(random.bounded(damaged.size() - 2)); break; // cut before the last "}"
        case 1: damaged[random.bounded(damaged.size())] = char(random.bounded(256)); break;
        case 2: damaged.remove(random.bounded(damaged.size()), 1 + random.bounded(40)); break;
        case 3:
            damaged.insert(random.bounded(damaged.size()), "{[\"\\,:"_ba.mid(random.bounded(6), 1));
            break;
        }
        const TranscriptLoadResult loaded = TranscriptFile::parse(damaged);
        QCOMPARE(loaded.transcript.has_value(), loaded.error.isEmpty());
        if (!loaded.transcript)
            QVERIFY2(loaded.error.endsWith(u'.'), qPrintable(loaded.error));
        else
            QVERIFY2(i % 4 != 0, "a truncated file loaded");
    }
}

QTEST_GUILESS_MAIN(TestTranscript)
#include "tst_transcript.moc"
