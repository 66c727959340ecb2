#include "agent/debug/stepdebugger.h"
#include "agent/knowledge/knowledgeindex.h"
#include "agent/loop/agentpreset.h"
#include "agent/loop/agentteam.h"
#include "agent/replay/recordededits.h"
#include "agent/replay/replayrun.h"
#include "agent/replay/replayworkbench.h"
#include "agent/replay/requestcomparison.h"
#include "agent/replay/transcriptfork.h"
#include "agent/replay/transcriptreplay.h"
#include "agent/safety/ruleshield.h"
#include "agent/session/knowledgecontextsource.h"
#include "tests/replay/recordingfixture.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;
using OnDivergence = ReplayModelClient::OnDivergence;

Q_DECLARE_METATYPE(Loopscope::ScriptedModelClient::Step)
Q_DECLARE_METATYPE(Loopscope::AgentConfig)
Q_DECLARE_METATYPE(Loopscope::ModelRequest)
Q_DECLARE_METATYPE(Loopscope::TurnOutcome)

namespace {

// A replay of one recorded turn on its own real tools.
struct Replay
{
    Tools tools;
    Workbench workbench;
    std::unique_ptr<ReplayRun> run;
    std::unique_ptr<QSignalSpy> finished;
    std::unique_ptr<QSignalSpy> diverged;

    explicit Replay(const RecordedTurn &turn, int multiplyBias = 0)
        : tools(multiplyBias)
    {
        tools.install(workbench);
        run = std::make_unique<ReplayRun>(turn, &workbench);
        finished = std::make_unique<QSignalSpy>(run.get(), &ReplayRun::finished);
        diverged = std::make_unique<QSignalSpy>(run.get(), &ReplayRun::diverged);
    }

    bool waitForEnd()
    {
        return QTest::qWaitFor([this] { return !finished->isEmpty(); }, 20000);
    }
    TurnResult result() const { return finished->constFirst().at(1).value<TurnResult>(); }
    bool reproduced() const { return finished->constFirst().at(0).toBool(); }
    Divergence divergence() const
    {
        return {diverged->constFirst().at(0).toInt(), diverged->constFirst().at(1).toString()};
    }
    QStringList providers() const
    {
        QStringList names;
        for (int i = 0; i < run->trace()->size(); ++i) {
            if (const auto *data = std::get_if<ModelCallData>(&run->trace()->node(i).payload))
                names.append(data->provider);
        }
        return names;
    }
};

// Edits while recording, as a user at the debugger would: multiply's arguments, and the system message of
// call 3.
class EditingInterceptor final : public Interceptor
{
public:
    int modelCalls = 0;

    void interceptModelCall(const ModelCallCheckpoint &checkpoint, ModelCallDecision decision) override
    {
        if (++modelCalls != 3) {
            decision.proceed();
            return;
        }
        ModelRequest edited = checkpoint.request;
        edited.messages[0].text += u" Answer in one sentence."_s;
        decision.proceed(edited);
    }
    void interceptToolCall(const ToolCallCheckpoint &checkpoint, ToolCallDecision decision) override
    {
        if (checkpoint.call.name == u"multiply")
            decision.allowWithArguments(json({{u"a"_s, 4}, {u"b"_s, 6}}));
        else
            decision.allow();
    }
};

ModelRequest baseRequest()
{
    ModelRequest request;
    request.messages = {Message::system(u"Be brief."_s), Message::user(u"What is 2 + 3?"_s),
                        Message::assistant({}, {add(u"c1"_s, 2, 3)}),
                        Message::toolResult(add(u"c1"_s, 2, 3), u"5"_s, false)};
    const QJsonObject integer{{u"type"_s, u"integer"_s}, {u"minimum"_s, 0}};
    request.tools = {ToolSchema{u"add"_s, u"add tool"_s,
                                objectSchema({{u"a"_s, integer}, {u"b"_s, integer}}, {u"a"_s, u"b"_s})}};
    request.options.model = u"m"_s;
    request.options.temperature = 0.2;
    return request;
}

// A recorded turn replayed as `loopscope replay` does: on stand-ins of the tools it was offered, stopping
// where it diverges.
struct OfflineReplay
{
    Workbench workbench;
    std::unique_ptr<ReplayRun> run;
    std::unique_ptr<QSignalSpy> finished;

    explicit OfflineReplay(const RecordedTurn &turn)
    {
        ReplayWorkbench::fill(workbench, turn);
        run = std::make_unique<ReplayRun>(turn, &workbench);
        run->setOnDivergence(OnDivergence::Stop);
        finished = std::make_unique<QSignalSpy>(run.get(), &ReplayRun::finished);
    }
    // Whether it ran to its end and reproduced; *summary says how it went.
    bool reproduces(QString *summary)
    {
        if (!run->start() || !QTest::qWaitFor([this] { return !finished->isEmpty(); }, 20000))
            return false;
        *summary = run->report()->summary();
        return run->report()->reproduced;
    }
};

// The team a live turn hands off to: one agent, as a session makes it from an agents file, on real tools.
class OneAgentTeam final : public AgentTeam
{
public:
    explicit OneAgentTeam(AgentConfig config)
        : m_config(std::move(config))
    {
        m_tools.install(m_workbench);
    }
    std::optional<Member> member(const QString &name) override
    {
        if (name != m_config.name)
            return std::nullopt;
        return Member{m_config, &m_workbench, nullptr};
    }

private:
    AgentConfig m_config;
    Tools m_tools;
    Workbench m_workbench;
};

QStringList toolNames(const ModelRequest &request)
{
    QStringList names;
    for (const ToolSchema &tool : request.tools)
        names.append(tool.name);
    return names;
}

} // namespace

class ReplayTest : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        qRegisterMetaType<TurnResult>();
        qRegisterMetaType<AgentEvent>();
        qRegisterMetaType<ReplayReport>();
    }

    // --- Recording ----------------------------------------------------------

    void aRecordedTurnHoldsWhatTheTraceShows()
    {
        Recording recording;
        recording.run(u"What is 2 + 3?"_s,
                      {ScriptedModelClient::calls({add(u"c0"_s, 2, 3)}), ScriptedModelClient::text(u"5."_s)});
        const QList<Message> historyBefore = recording.agent.history();
        const TurnResult result = recording.run(question, threeIterations());
        QCOMPARE(result.text, answer);

        // Settings changed after the turn do not change what it ran with.
        Transcript transcript = recording.transcript();
        transcript.config.systemPrompt = u"Changed later."_s;
        transcript.config.model.model = u"another-model"_s;
        transcript.config.maxIterations = 4;
        const auto turns = RecordedTurn::fromTranscript(transcript);
        QVERIFY(turns);
        QCOMPARE(turns->size(), 2);
        const RecordedTurn &turn = turns->at(1);
        QVERIFY2(turn.isReplayable(), qPrintable(turn.notReplayable));
        QCOMPARE(turn.turnIndex, 1);
        QCOMPARE(turn.userText, question);
        QCOMPARE(turn.history, historyBefore);
        QCOMPARE(turn.answer, answer);
        QCOMPARE(turn.outcome, u"answered"_s);
        QCOMPARE(turn.config, recordingConfig());
        QCOMPARE(turn.modelCalls.size(), 3);
        QCOMPARE(turn.modelCalls.at(2).response->text, answer);
        QStringList calls;
        for (const RecordedToolCall &recorded : turn.toolCalls)
            calls.append(recorded.call.id + u'=' + recorded.result.content);
        QCOMPARE(calls, (QStringList{u"c1=5"_s, u"c2=20"_s, u"c3=25"_s}));
        QCOMPARE(turn.tools(), recording.workbench.schemas());
    }

    void aTurnWithoutAModelCallCannotBeReplayed()
    {
        Recording recording;
        auto shield = std::make_shared<RuleShield>();
        QVERIFY(
            !shield->addRule({RuleShield::Rule::Kind::Keyword, u"password"_s, {ShieldStage::Input}, {}, {}}));
        recording.agent.addShield(shield);
        QCOMPARE(recording.run(u"my password is hunter2"_s, {}).outcome, TurnOutcome::Blocked);

        const QList<RecordedTurn> turns = recording.turns();
        QCOMPARE(turns.size(), 1);
        QVERIFY(!turns.first().isReplayable());
        QVERIFY(turns.first().notReplayable.contains(u"No model call"_s));
        Workbench workbench;
        ReplayRun run(turns.first(), &workbench);
        QVERIFY(!run.start());
    }

    void aMalformedTraceIsRefusedWithTheReason()
    {
        Transcript transcript;
        transcript.trace = QJsonArray{QJsonObject{{u"kind"_s, u"turn"_s}}};
        QString error;
        QVERIFY(!RecordedTurn::fromTranscript(transcript, &error));
        QVERIFY(error.contains(u"malformed"_s));
    }

    // --- Replaying ----------------------------------------------------------

    void aRecordedTurnReplaysWithoutTheModelAndReproduces_data()
    {
        QTest::addColumn<AgentConfig>("config");
        QTest::addColumn<QList<Step>>("steps");
        QTest::addColumn<TurnOutcome>("outcome");
        QTest::addColumn<int>("toolCalls");

        QTest::newRow("three iterations with parallel tool calls")
            << recordingConfig() << threeIterations() << TurnOutcome::Answered << 3;
        QTest::newRow("a tool error fed back to the model")
            << recordingConfig()
            << QList<Step>{ScriptedModelClient::calls({call(u"c1"_s, u"fail"_s)}),
                           ScriptedModelClient::text(u"The disk is on fire."_s)}
            << TurnOutcome::Answered << 1;
        AgentConfig reflect = recordingConfig();
        reflect.maxIterations = 2;
        reflect.toolLessFinalIteration = false;
        QTest::newRow("a loop that ends in a reflection after the limit: forced final")
            << reflect
            << QList<Step>{ScriptedModelClient::calls({add(u"c1"_s, 2, 3)}),
                           ScriptedModelClient::calls({multiply(u"c2"_s, 4, 5)}),
                           ScriptedModelClient::text(u"5 and 20."_s)}
            << TurnOutcome::ForcedFinal << 2;
        AgentConfig summary = reflect;
        summary.postLoop = PostLoopMode::Summary;
        QTest::newRow("a loop that ends in a summary")
            << summary
            << QList<Step>{ScriptedModelClient::calls({add(u"c1"_s, 2, 3)}),
                           ScriptedModelClient::calls({multiply(u"c2"_s, 4, 5)})}
            << TurnOutcome::Summarised << 2;
        QTest::newRow("a direct answer")
            << recordingConfig() << QList<Step>{ScriptedModelClient::text(u"Hello."_s)}
            << TurnOutcome::Answered << 0;
        QTest::newRow("a model call that failed")
            << recordingConfig()
            << QList<Step>{ScriptedModelClient::calls({add(u"c1"_s, 2, 3)}),
                           ScriptedModelClient::failure(u"The provider is down."_s, 503)}
            << TurnOutcome::Failed << 1;
    }

    void aTurnThatSummarisedEarlierTurnsReplaysFromWhatItSent()
    {
        AgentConfig config = recordingConfig();
        config.model.contextWindow = 4000;
        config.compaction = CompactionStrategy::Summarise;
        config.compactionPrompt = u"Summarise tersely."_s;
        Recording recording(config);
        int summaries = 0;
        recording.client.setResponder([&summaries](const ModelRequest &request) {
            if (request.messages.constFirst().text == u"Summarise tersely."_s) {
                ++summaries;
                return ScriptedModelClient::text(u"Notes: long questions were asked and answered."_s);
            }
            return ScriptedModelClient::text(u"Answered."_s);
        });
        int turn = 0;
        while (summaries == 0 && turn < 12)
            QCOMPARE(recording.run(u"Question %1: %2"_s.arg(++turn).arg(QString(6000, u'q')), {}).outcome,
                     TurnOutcome::Answered);
        QCOMPARE(summaries, 1);
        const QList<ModelRequest> sent = recording.client.requests();
        const RecordedTurn summarised = recording.turns().constLast();
        QVERIFY2(summarised.isReplayable(), qPrintable(summarised.notReplayable));
        // The summary was written before the turn's first request, which already carries it.
        QCOMPARE(summarised.modelCalls.size(), 1);
        QVERIFY(summarised.modelCalls.constFirst().request.messages.constFirst().text.startsWith(
            u"Earlier in this conversation"_s));

        Replay replay(summarised);
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());
        QVERIFY2(replay.reproduced(), qPrintable(replay.run->report()->summary()));
        QCOMPARE(replay.run->modelClient()->requests(), QList<ModelRequest>{sent.constLast()});
        QCOMPARE(summaries, 1);
    }

    void aRecordedTurnReplaysWithoutTheModelAndReproduces()
    {
        QFETCH(AgentConfig, config);
        QFETCH(QList<Step>, steps);
        QFETCH(TurnOutcome, outcome);
        QFETCH(int, toolCalls);

        Recording recording(config);
        const TurnResult recorded = recording.run(question, steps);
        QCOMPARE(recorded.outcome, outcome);
        const QList<ModelRequest> recordedRequests = recording.client.requests();
        const QList<RecordedTurn> turns = recording.turns();
        QCOMPARE(turns.size(), 1);

        Replay replay(turns.first());
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());

        QVERIFY2(replay.reproduced(), qPrintable(replay.run->report()->summary()));
        QCOMPARE(replay.run->report()->summary(), u"reproduced"_s);
        QCOMPARE(replay.diverged->size(), 0);
        QCOMPARE(replay.result().outcome, recorded.outcome);
        QCOMPARE(replay.result().text, recorded.text);
        QCOMPARE(replay.result().error, recorded.error);
        QCOMPARE(executedToolCalls(*replay.run->trace(), replay.result().traceNode).size(), toolCalls);
        // The model saw the same requests, and the recording answered them: not the model, not the tools.
        QCOMPARE(replay.run->modelClient()->requests(), recordedRequests);
        QCOMPARE(recording.client.requests().size(), recordedRequests.size());
        QCOMPARE(replay.tools.runs.load(), 0);
        QCOMPARE(replay.run->toolResults().suppliedCount(), toolCalls);
        QVERIFY(!replay.providers().isEmpty());
        QCOMPARE(replay.providers(), QStringList(replay.providers().size(), u"replay"_s));
        QCOMPARE(replay.run->agent()->history(),
                 recording.agent.history()); // the conversation ends where the recorded one did
    }

    // --retrieve auto: the search before the first iteration is replayed from its recorded hits (the index
    // is gone by then), and the replayed turn shows it as the recorded one did.
    void anAutomaticRetrievalIsReplayedFromItsRecordedHits()
    {
        QTemporaryDir folder;
        const QString database = folder.filePath(u"notes.sqlite"_s);
        {
            QString error;
            const auto index = KnowledgeIndex::open(database, &error);
            QVERIFY2(index, qPrintable(error));
            QVERIFY(index->replaceFile(folder.filePath(u"refunds.md"_s), {41, 0, "sha1"},
                                       {{1, 2, u"Refunds are approved by the finance lead."_s, 0}}));
        }
        Recording recording;
        recording.agent.setContextSource(std::make_shared<KnowledgeContextSource>(
            QList<AttachedKnowledgeBase>{{u"notes"_s, database, {}}}));
        const TurnResult recorded
            = recording.run(u"who approves refunds"_s, {ScriptedModelClient::text(u"The finance lead."_s)});
        QCOMPARE(recorded.outcome, TurnOutcome::Answered);
        const auto retrievalOf = [](const Trace &trace, int turnNode) -> std::optional<RetrievalData> {
            for (int child : trace.node(turnNode).children) {
                if (const auto *retrieval = std::get_if<RetrievalData>(&trace.node(child).payload))
                    return *retrieval;
            }
            return std::nullopt;
        };
        const std::optional<RetrievalData> searched = retrievalOf(recording.trace, recorded.traceNode);
        QVERIFY(searched);
        QCOMPARE(searched->hits.size(), 1);
        const QList<RecordedTurn> turns = recording.turns();
        QCOMPARE(turns.size(), 1);
        QCOMPARE(turns.first().retrieval, searched);
        QVERIFY(KnowledgeIndex::removeFiles(database).isEmpty());

        Replay replay(turns.first());
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());

        QVERIFY2(replay.reproduced(), qPrintable(replay.run->report()->summary()));
        // The same passages went to the model, once (in the system message), and the trace shows the search.
        QCOMPARE(replay.run->modelClient()->requests(), recording.client.requests());
        QCOMPARE(retrievalOf(*replay.run->trace(), replay.result().traceNode), searched);
    }

    // A 5 MB image in the first message of a 20-iteration turn: the session file holds it once, not
    // once in the history and again in the recorded requests; it reopens (both ways of reading) and
    // replays offline with the image in every request.
    void anImageIsStoredOnceAndTheSessionReopensAndReplays()
    {
        QByteArray bytes(5 * 1024 * 1024, Qt::Uninitialized);
        QRandomGenerator(25).fillRange(reinterpret_cast<quint32 *>(bytes.data()), bytes.size() / 4);
        Attachment image;
        image.kind = Attachment::Kind::Image;
        image.name = u"photo.png"_s;
        image.mimeType = u"image/png"_s;
        image.bytes = bytes;
        image.fileSize = bytes.size();
        image.pixelSize = QSize(1600, 1200);
        image.sha256 = QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex();

        AgentConfig config = recordingConfig();
        config.maxIterations = 25;
        Recording recording(config);
        QList<Step> steps;
        for (int i = 0; i < 19; ++i)
            steps.append(ScriptedModelClient::calls({add(u"c%1"_s.arg(i), i, 1)}));
        steps.append(ScriptedModelClient::text(u"A photo."_s));
        QCOMPARE(recording.run(u"What is in the photo?"_s, steps, {image}).outcome, TurnOutcome::Answered);
        const QList<ModelRequest> recordedRequests = recording.client.requests();
        QCOMPARE(recordedRequests.size(), 20);
        QCOMPARE(recordedRequests.constLast().messages.at(1).attachments, QList<Attachment>{image});

        QTemporaryDir dir;
        const QString path = dir.filePath(u"photo.loopscope.json"_s);
        const Transcript transcript = recording.transcript();
        QVERIFY(TranscriptFile::save(transcript, path));
        const QByteArray base64 = bytes.toBase64();
        const QByteArray saved = [&path] {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        }();
        QCOMPARE(saved.count(base64.first(64)), 1);
        // The image once, and the rest of the session (its 20 requests and answers) well under a megabyte.
        QVERIFY2(saved.size() < base64.size() + 1024 * 1024,
                 qPrintable(u"%1 bytes for %2 of base64"_s.arg(saved.size()).arg(base64.size())));

        const TranscriptLoadResult checked = TranscriptFile::load(path);
        QVERIFY2(checked.transcript, qPrintable(checked.error));
        QCOMPARE(checked.upgradedFrom, 0);
        QCOMPARE(*checked.transcript, transcript);
        const TranscriptLoadResult opened = TranscriptFile::load(path, TranscriptFile::TraceForm::ForestOnly);
        QVERIFY2(opened.transcript, qPrintable(opened.error));
        QCOMPARE(opened.transcript->messages, transcript.messages);
        QVERIFY(opened.trace && checked.trace);
        QVERIFY(opened.trace->nodes == checked.trace->nodes);

        const std::optional<QList<RecordedTurn>> turns = RecordedTurn::fromTranscript(*checked.transcript);
        QVERIFY(turns && turns->size() == 1);
        Replay replay(turns->first());
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());
        QVERIFY2(replay.reproduced(), qPrintable(replay.run->report()->summary()));
        QCOMPARE(replay.run->modelClient()->requests(), recordedRequests);

        // A fork at the question keeps the image, and its file holds it once too.
        const std::optional<Transcript> forked = TranscriptFork::fork(*checked.transcript, 1);
        QVERIFY(forked);
        QCOMPARE(forked->messages.constFirst().attachments, QList<Attachment>{image});
        const QByteArray forkedFile = TranscriptFile::serialize(*forked);
        QCOMPARE(forkedFile.count(base64.first(64)), 1);
        QCOMPARE(TranscriptFile::parse(forkedFile).transcript->messages, forked->messages);
    }

    void aForcedFinalRecordedUnderItsOlderNameStillReproduces_data()
    {
        QTest::addColumn<QString>("olderName");
        QTest::addColumn<bool>("reproduces");
        QTest::newRow("answered") << u"answered"_s << true;
        QTest::newRow("reflected") << u"reflected"_s << true;
        QTest::newRow("an outcome that is not an answer") << u"fallback"_s << false;
    }

    void aForcedFinalRecordedUnderItsOlderNameStillReproduces()
    {
        QFETCH(QString, olderName);
        QFETCH(bool, reproduces);
        AgentConfig config = recordingConfig();
        config.maxIterations = 2;
        Recording recording(config);
        QCOMPARE(recording
                     .run(question, {ScriptedModelClient::calls({add(u"c1"_s, 2, 3)}),
                                     ScriptedModelClient::text(u"5, I think."_s)})
                     .outcome,
                 TurnOutcome::ForcedFinal);
        QList<RecordedTurn> turns = recording.turns();
        QCOMPARE(turns.size(), 1);
        // Files saved before forced_final existed name the outcome otherwise.
        turns.first().outcome = olderName;

        Replay replay(turns.first());
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());

        QCOMPARE(replay.result().outcome, TurnOutcome::ForcedFinal);
        QVERIFY2(replay.reproduced() == reproduces, qPrintable(replay.run->report()->summary()));
    }

    void theRecordedAnswerStreamsInPieces()
    {
        Recording recording;
        recording.run(question, threeIterations());
        Replay replay(recording.turns().first());
        QSignalSpy deltas(replay.run->modelClient(), &ModelClient::textDelta);
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());
        QVERIFY(deltas.size() > 1);
        QString streamed;
        for (const QList<QVariant> &args : deltas)
            streamed += args.first().toString();
        QCOMPARE(streamed, answer);
    }

    void aChangedToolResultDivergesAtTheNextModelCall_data()
    {
        QTest::addColumn<QString>("callId");
        QTest::addColumn<QString>("result");
        QTest::addColumn<bool>("isError");
        QTest::addColumn<int>("multiplyBias");
        QTest::addColumn<int>("expectedCall");
        QTest::addColumn<QString>("expectedWhat");

        QTest::newRow("a recorded result changed")
            << u"c2"_s << u"21"_s << false << 0 << 2
            << u"message 5 (tool result of multiply) differs: recorded \"20\", now \"21\""_s;
        QTest::newRow("a recorded result turned into an error")
            << u"c3"_s << u"25"_s << true << 0 << 3
            << u"message 7 (tool result of add) differs: recorded a success, now an error"_s;
        QTest::newRow("a tool that behaves differently now, run live")
            << QString() << QString() << false << 1 << 2
            << u"message 5 (tool result of multiply) differs: recorded \"20\", now \"21\""_s;
    }

    void aChangedToolResultDivergesAtTheNextModelCall()
    {
        QFETCH(QString, callId);
        QFETCH(QString, result);
        QFETCH(bool, isError);
        QFETCH(int, multiplyBias);
        QFETCH(int, expectedCall);
        QFETCH(QString, expectedWhat);

        Recording recording;
        recording.run(question, threeIterations());
        Replay replay(recording.turns().first(), multiplyBias);
        replay.run->setOnDivergence(OnDivergence::Stop);
        if (!callId.isEmpty())
            QVERIFY(replay.run->setToolResult(callId, {result, isError}));
        else
            replay.run->setToolSource(RecordedToolResults::Source::Live);
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());

        QCOMPARE(replay.diverged->size(), 1);
        QCOMPARE(replay.divergence(), (Divergence{expectedCall, expectedWhat}));
        QVERIFY(!replay.reproduced());
        const QString stopped
            = u"The replay diverged from the recording at model call %1; stopped."_s.arg(expectedCall);
        QCOMPARE(replay.result().outcome, TurnOutcome::Failed);
        QCOMPARE(replay.result().error, stopped);
        QCOMPARE(replay.run->report()->summary(),
                 u"diverged at model call %1: %2"_s.arg(expectedCall).arg(expectedWhat));
        QCOMPARE(replay.run->modelClient()->requests().size(), expectedCall);
    }

    void unchangedToolsRunLiveStillReproduce()
    {
        Recording recording;
        recording.run(question, threeIterations());
        Replay replay(recording.turns().first());
        replay.run->setToolSource(RecordedToolResults::Source::Live);
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());
        QVERIFY2(replay.reproduced(), qPrintable(replay.run->report()->summary()));
        QCOMPARE(replay.tools.runs.load(), 3);
        QCOMPARE(replay.run->toolResults().suppliedCount(), 0);
    }

    void stoppingAfterADivergenceFailsTheTurnSayingWhere()
    {
        Recording recording;
        recording.run(question, threeIterations());
        Replay replay(recording.turns().first());
        QVERIFY(replay.run->setToolResult(u"c2"_s, ToolResult::success(u"21"_s)));
        QVERIFY(replay.run->start());

        QTRY_COMPARE(replay.diverged->size(), 1);
        QVERIFY(replay.run->isWaitingForDecision());
        QVERIFY(replay.run->isRunning());
        QTest::qWait(50);
        QCOMPARE(replay.finished->size(), 0); // it waits for the user

        replay.run->stop();
        QVERIFY(replay.waitForEnd());
        QVERIFY(!replay.reproduced());
        QCOMPARE(replay.result().outcome, TurnOutcome::Failed);
        QCOMPARE(replay.result().error,
                 u"The replay diverged from the recording at model call 2; stopped."_s);
        QVERIFY(!replay.run->isWaitingForDecision());
    }

    void continuingLiveAfterADivergenceCompletesTheTurn_data()
    {
        QTest::addColumn<bool>("decideWhenDiverged");
        QTest::newRow("the user decides when it diverges") << true;
        QTest::newRow("the policy goes live at once") << false;
    }

    void continuingLiveAfterADivergenceCompletesTheTurn()
    {
        QFETCH(bool, decideWhenDiverged);

        Recording recording;
        recording.run(question, threeIterations());
        ScriptedModelClient live;
        live.enqueue({ScriptedModelClient::calls({add(u"c9"_s, 5, 21)}),
                      ScriptedModelClient::text(u"Now it makes 26."_s)});
        Replay replay(recording.turns().first());
        QVERIFY(replay.run->setToolResult(u"c2"_s, ToolResult::success(u"21"_s)));
        if (!decideWhenDiverged) {
            replay.run->setOnDivergence(OnDivergence::GoLive);
            replay.run->setLiveClient(&live);
        }
        QVERIFY(replay.run->start());
        if (decideWhenDiverged) {
            QTRY_VERIFY(replay.run->isWaitingForDecision());
            QCOMPARE(live.requests().size(), 0);
            QVERIFY(replay.run->continueLive(&live));
        }
        QVERIFY(replay.waitForEnd());

        QCOMPARE(replay.divergence().modelCall, 2);
        QVERIFY(!replay.reproduced());
        QCOMPARE(replay.result().outcome, TurnOutcome::Answered);
        QCOMPARE(replay.result().text, u"Now it makes 26."_s);
        // The divergent request and the one after it went to the live model.
        QCOMPARE(live.requests().size(), 2);
        QCOMPARE(live.requests().first(), replay.run->modelClient()->requests().at(1));
        QCOMPARE(replay.providers(), (QStringList{u"replay"_s, u"scripted"_s, u"scripted"_s}));
        // The new call has no recording: its tool ran.
        QCOMPARE(replay.tools.runs.load(), 1);
        QCOMPARE(lastToolResult(replay.run->agent()->history()), u"26"_s);
    }

    void aRecordingThatRunsOutIsADivergence()
    {
        Recording recording;
        recording.run(question, threeIterations());
        RecordedTurn turn = recording.turns().first();
        turn.modelCalls.removeLast();
        Replay replay(turn);
        replay.run->setOnDivergence(OnDivergence::Stop);
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());
        QCOMPARE(
            replay.divergence(),
            (Divergence{
                3, u"the recording has no model call 3: the recorded turn ended after 2 model calls"_s}));
        QCOMPARE(replay.result().outcome, TurnOutcome::Failed);
    }

    void aTurnThatEndsSoonerThanItsRecordingIsADivergence()
    {
        Recording recording;
        recording.run(question, {ScriptedModelClient::calls({call(u"c1"_s, u"fail"_s)}),
                                 ScriptedModelClient::text(u"The disk is on fire."_s)});
        RecordedTurn turn = recording.turns().first();
        turn.config.maxConsecutiveErrors = 1; // now one failed iteration ends the turn
        Replay replay(turn);
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());
        QCOMPARE(replay.result().outcome, TurnOutcome::ErrorLimit);
        QCOMPARE(replay.diverged->size(), 1);
        QCOMPARE(replay.divergence(),
                 (Divergence{
                     2, u"the replayed turn ended before model call 2; the recording has 2 model calls"_s}));
        QVERIFY(!replay.reproduced());
        QVERIFY(replay.run->report()->differences.contains(
            u"the turn ended differently: recorded answered, now error_limit"_s));
    }

    void aStoppedRecordingIsStoppedAtTheSamePoint_data()
    {
        QTest::addColumn<QList<Step>>("steps");
        QTest::addColumn<Agent::State>("stopIn");
        QTest::addColumn<TurnOutcome>("outcome");
        const QList<Step> hangs{ScriptedModelClient::calls({add(u"c1"_s, 2, 3)}),
                                ScriptedModelClient::hang()};
        const QList<Step> waits{ScriptedModelClient::calls({add(u"c1"_s, 2, 3), call(u"c2"_s, u"wait"_s)})};
        QTest::newRow("cancelled while waiting for the model")
            << hangs << Agent::State::WaitingForModel << TurnOutcome::Cancelled;
        QTest::newRow("cancelled while a tool runs")
            << waits << Agent::State::RunningTools << TurnOutcome::Cancelled;
        QTest::newRow("out of time while waiting for the model")
            << hangs << Agent::State::WaitingForModel << TurnOutcome::TimeLimit;
        QTest::newRow("out of time while a tool runs")
            << waits << Agent::State::RunningTools << TurnOutcome::TimeLimit;
    }

    void aStoppedRecordingIsStoppedAtTheSamePoint()
    {
        QFETCH(QList<Step>, steps);
        QFETCH(Agent::State, stopIn);
        QFETCH(TurnOutcome, outcome);

        AgentConfig config = recordingConfig();
        if (outcome == TurnOutcome::TimeLimit)
            config.turnTimeLimitMs = 300;
        Recording recording(config);
        recording.client.enqueue(steps);
        QVERIFY(recording.agent.send(question));
        if (outcome == TurnOutcome::Cancelled) {
            QTRY_VERIFY(recording.agent.state() == stopIn
                        && recording.tools.runs > int(stopIn == Agent::State::RunningTools));
            recording.agent.cancel();
        }
        QTRY_COMPARE(recording.finished.size(), 1);
        QCOMPARE(recording.finished.constFirst().first().value<TurnResult>().outcome, outcome);

        Replay replay(recording.turns().first());
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());
        QVERIFY2(replay.reproduced(), qPrintable(replay.run->report()->summary()));
        QCOMPARE(replay.result().outcome, outcome);
        QCOMPARE(replay.tools.runs.load(), 0);
    }

    // --- The debugger during a replay ----------------------------------------

    void aStepDebuggerPausesTheReplayAndWhatTheUserChangesDiverges_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<bool>("reproduced");
        QTest::addColumn<QString>("expectedWhat");
        QTest::addColumn<int>("toolRuns");

        QTest::newRow("pausing and going on reproduces") << u"nothing"_s << true << QString() << 0;
        QTest::newRow("edited arguments run the tool and diverge")
            << u"arguments"_s << false
            << u"message 5 (tool result of multiply) differs: recorded \"20\", now \"24\""_s << 1;
        QTest::newRow("a result typed by hand diverges")
            << u"result"_s << false
            << u"message 5 (tool result of multiply) differs: recorded \"20\", now \"7\""_s << 0;
    }

    void aStepDebuggerPausesTheReplayAndWhatTheUserChangesDiverges()
    {
        QFETCH(QString, change);
        QFETCH(bool, reproduced);
        QFETCH(QString, expectedWhat);
        QFETCH(int, toolRuns);

        Recording recording;
        recording.run(question, threeIterations());
        StepDebugger debugger;
        debugger.setEnabled(true);
        StepDebugger::Breakpoints breakpoints;
        breakpoints.modelCalls = true;
        breakpoints.toolNames = {u"multiply"_s};
        debugger.setBreakpoints(breakpoints);
        Replay replay(recording.turns().first());
        replay.run->setOnDivergence(OnDivergence::Stop);
        replay.run->agent()->addInterceptor(&debugger);
        connect(replay.run->agent(), &Agent::event, &debugger, &StepDebugger::observe);
        QVERIFY(replay.run->start());

        // Held before the first model call: nothing has been answered yet.
        QTRY_VERIFY(debugger.currentStop() && debugger.currentStop()->modelCall);
        QCOMPARE(debugger.currentStop()->modelCall->request, recording.client.requests().first());
        QCOMPARE(replay.run->modelClient()->requests().size(), 0);
        debugger.resume();

        QTRY_VERIFY(debugger.currentStop() && debugger.currentStop()->toolCall);
        QCOMPARE(debugger.currentStop()->toolCall->call, multiply(u"c2"_s, 4, 5));
        if (change == u"arguments")
            QVERIFY(debugger.editArguments(json({{u"a"_s, 4}, {u"b"_s, 6}})));
        else if (change == u"result")
            QVERIFY(debugger.supplyResult(ToolResult::success(u"7"_s)));
        // Let every later stop go at once.
        connect(&debugger, &StepDebugger::paused, &debugger, [&debugger] { debugger.resume(); });
        debugger.resume();
        QVERIFY(replay.waitForEnd());
        replay.run->agent()->removeInterceptor(&debugger);

        QCOMPARE(replay.reproduced(), reproduced);
        QCOMPARE(replay.tools.runs.load(), toolRuns);
        if (reproduced) {
            QCOMPARE(replay.diverged->size(), 0);
            QCOMPARE(replay.result().text, answer);
        } else {
            QCOMPARE(replay.divergence(), (Divergence{2, expectedWhat}));
        }
    }

    void editsMadeWhileRecordingAreMadeAgain()
    {
        Recording recording;
        EditingInterceptor editor;
        recording.agent.addInterceptor(&editor);
        recording.client.enqueue(threeIterations());
        // The model's next call depends on the edited result: 4 × 6 = 24.
        QVERIFY(recording.agent.send(question));
        QTRY_COMPARE(recording.finished.size(), 1);
        recording.agent.removeInterceptor(&editor);
        QCOMPARE(recording.client.requests().at(1).messages.at(4).text, u"24"_s);
        QVERIFY(recording.client.requests().at(2).messages.at(0).text.endsWith(u"one sentence."_s));

        const RecordedTurn turn = recording.turns().first();
        QCOMPARE(turn.toolCalls.at(1).originalArguments, multiply(u"c2"_s, 4, 5).arguments);
        QVERIFY(turn.modelCalls.at(2).originalRequest);
        Replay replay(turn);
        replay.run->setOnDivergence(OnDivergence::Stop);
        QVERIFY(replay.run->start());
        QVERIFY(replay.waitForEnd());
        QVERIFY2(replay.reproduced(), qPrintable(replay.run->report()->summary()));
        QCOMPARE(replay.run->modelClient()->requests(), recording.client.requests());
        QCOMPARE(replay.tools.runs.load(), 0);
    }

    // --- Comparing requests --------------------------------------------------

    void theFirstDifferenceBetweenRequestsIsDescribed_data()
    {
        QTest::addColumn<ModelRequest>("recorded");
        QTest::addColumn<ModelRequest>("now");
        QTest::addColumn<QString>("expected");

        const ModelRequest base = baseRequest();
        QTest::newRow("the same request") << base << base << QString();
        ModelRequest r = base;
        r.options.stream = false;
        QTest::newRow("only how the answer arrives") << base << r << QString();
        r = base;
        r.tools[0].parameters
            = QJsonDocument::fromJson(
                  QJsonDocument(r.tools[0].parameters).toJson().replace("\"minimum\": 0", "\"minimum\": 0.0"))
                  .object();
        QTest::newRow("a schema number read back as a double") << base << r << QString();
        r = base;
        r.messages[3].text = u"6"_s;
        QTest::newRow("a tool result")
            << base << r << u"message 4 (tool result of add) differs: recorded \"5\", now \"6\""_s;
        r = base;
        r.messages[3].isError = true;
        QTest::newRow("a tool result that is an error now")
            << base << r << u"message 4 (tool result of add) differs: recorded a success, now an error"_s;
        r = base;
        r.messages[2].toolCalls[0].arguments = json({{u"a"_s, 2}, {u"b"_s, 4}});
        QTest::newRow("the arguments of a tool call")
            << base << r
            << u"message 3 (assistant message calling add) differs: the arguments of tool call 1 (add): "
               "recorded \"{\"a\":2,\"b\":3}\", now \"{\"a\":2,\"b\":4}\""_s;
        r = base;
        r.messages.append(Message::user(u"And now?"_s));
        QTest::newRow("a message more")
            << base << r << u"message 5 (user message) is new: the recording has 4 messages"_s;
        r = base;
        r.messages.removeLast();
        QTest::newRow("a message less")
            << base << r << u"message 4 (tool result of add) is missing: the replay has 3 messages"_s;
        r = base;
        r.messages[1].role = Message::Role::System;
        QTest::newRow("another role")
            << base << r
            << u"message 2 (user message) differs: recorded as user message, now system message"_s;
        ModelRequest longText = base;
        longText.messages[1].text = QString(100, u'a') + u'X' + QString(20, u'b');
        r = longText;
        r.messages[1].text = QString(100, u'a') + u'Y' + QString(20, u'b');
        QTest::newRow("a long text, shown around the difference")
            << longText << r
            << u"message 2 (user message) differs: recorded \"…%1X%2\", now \"…%1Y%2\""_s.arg(
                   QString(39, u'a'), QString(20, u'b'));
        r = base;
        r.tools.append(ToolSchema{u"echo"_s, u"echo tool"_s, {}});
        QTest::newRow("another tool") << base << r << u"the tools differ: recorded add; now add, echo"_s;
        r = base;
        r.tools[0].description = u"adds"_s;
        QTest::newRow("a tool's description")
            << base << r << u"the description of tool add differs: recorded \"add tool\", now \"adds\""_s;
        r = base;
        r.toolChoice = ToolChoice::None;
        QTest::newRow("the tool choice")
            << base << r << u"the tool choice differs: recorded auto, now none"_s;
        r = base;
        r.options.model = u"n"_s;
        QTest::newRow("the model") << base << r << u"the model differs: recorded \"m\", now \"n\""_s;
        r = base;
        r.options.temperature.reset();
        QTest::newRow("the temperature")
            << base << r << u"the temperature differs: recorded 0.2, now unset"_s;
        r = base;
        r.options.topP = 0.9;
        QTest::newRow("top p") << base << r << u"top p differs: recorded unset, now 0.9"_s;
    }

    void theFirstDifferenceBetweenRequestsIsDescribed()
    {
        QFETCH(ModelRequest, recorded);
        QFETCH(ModelRequest, now);
        QFETCH(QString, expected);
        QCOMPARE(RequestComparison::difference(recorded, now).value_or(QString()), expected);
    }

    // --- Forking --------------------------------------------------------------

    void theTurnsOfASessionAreFoundInItsMessages()
    {
        const Transcript transcript = fourTurns();
        QCOMPARE(transcript.messages.size(), 10);
        QCOMPARE(TranscriptFork::turnSpans(transcript),
                 (QList<TurnSpan>{{0, 0, 4, false}, {1, 4, 8, false}, {2, 8, 10, true}, {3, 8, 10, false}}));
    }

    void aTurnBlockedByAShieldSitsBetweenItsNeighbours()
    {
        Recording recording;
        auto shield = std::make_shared<RuleShield>();
        QVERIFY(
            !shield->addRule({RuleShield::Rule::Kind::Keyword, u"password"_s, {ShieldStage::Input}, {}, {}}));
        recording.agent.addShield(shield);
        recording.run(u"Hi"_s, {ScriptedModelClient::text(u"Hello."_s)});
        recording.run(u"my password is hunter2"_s, {});
        recording.run(u"Bye"_s, {ScriptedModelClient::text(u"Goodbye."_s)});
        const Transcript transcript = recording.transcript();
        QCOMPARE(TranscriptFork::turnSpans(transcript),
                 (QList<TurnSpan>{{0, 0, 2, false}, {1, 2, 2, false}, {2, 2, 4, false}}));
        QCOMPARE(TranscriptFork::fork(transcript, 2)->trace.size(), 2);
        QCOMPARE(TranscriptFork::fork(transcript, 1)->trace.size(), 0);
    }

    void aForkKeepsTheMessagesAndTheTurnsBeforeThePoint_data()
    {
        QTest::addColumn<int>("messageCount");
        QTest::addColumn<QList<int>>("turns");

        QTest::newRow("nothing") << 0 << QList<int>{};
        QTest::newRow("inside the first turn, after its tool result") << 3 << QList<int>{};
        QTest::newRow("after the first turn") << 4 << QList<int>{0};
        QTest::newRow("after the second turn") << 8 << QList<int>{0, 1};
        QTest::newRow("the last question without its answer") << 9 << QList<int>{0, 1};
        QTest::newRow("everything, with the replaced turn") << 10 << QList<int>{0, 1, 2, 3};
    }

    void aForkKeepsTheMessagesAndTheTurnsBeforeThePoint()
    {
        QFETCH(int, messageCount);
        QFETCH(QList<int>, turns);

        const Transcript source = fourTurns();
        const QDateTime now(QDate(2025, 1, 2), QTime(3, 4), Qt::UTC);
        QString error;
        const std::optional<Transcript> forked = TranscriptFork::fork(source, messageCount, &error, now);
        QVERIFY2(forked, qPrintable(error));
        QCOMPARE(forked->messages, source.messages.first(messageCount));
        QJsonArray expectedTrace;
        for (int turn : turns)
            expectedTrace.append(source.trace.at(turn));
        QCOMPARE(forked->trace, expectedTrace);
        QCOMPARE(forked->title, u"Sums (fork)"_s);
        QCOMPARE(forked->created, now);
        QCOMPARE(forked->updated, now);
        QCOMPARE(forked->config, source.config);
        QCOMPARE(forked->tools, source.tools);
        QCOMPARE(forked->providerKind, source.providerKind);
        Trace trace;
        QVERIFY(trace.fromJson(forked->trace));
        QVERIFY(historyIsWellFormed(forked->messages));
    }

    void aForkThatWouldCutToolCallsFromTheirResultsIsRefused_data()
    {
        QTest::addColumn<int>("messageCount");
        QTest::addColumn<QString>("error");
        QTest::newRow("between a call and its result")
            << 6 << u"Message 6 calls tools whose results come after it: fork after the results."_s;
        QTest::newRow("before the start") << -1 << u"A fork keeps from 0 to 10 messages, not -1."_s;
        QTest::newRow("past the end") << 11 << u"A fork keeps from 0 to 10 messages, not 11."_s;
    }

    void aForkThatWouldCutToolCallsFromTheirResultsIsRefused()
    {
        QFETCH(int, messageCount);
        QFETCH(QString, error);
        QString why;
        QVERIFY(!TranscriptFork::fork(fourTurns(), messageCount, &why));
        QCOMPARE(why, error);
    }

    void aForkAtAnIterationKeepsItsToolResults_data()
    {
        QTest::addColumn<int>("turn");
        QTest::addColumn<int>("iteration");
        QTest::addColumn<int>("messageCount"); // -1: refused
        QTest::addColumn<QString>("error");

        QTest::newRow("the first turn's tool iteration") << 0 << 1 << 3 << QString();
        QTest::newRow("the first turn's answer") << 0 << 2 << 4 << QString();
        QTest::newRow("the second turn's tool iteration") << 1 << 1 << 7 << QString();
        QTest::newRow("the last turn") << 3 << 1 << 10 << QString();
        QTest::newRow("a replaced turn")
            << 2 << 1 << -1
            << u"Turn 3 was asked again later (regenerated or edited): its messages are no longer in the "
               "conversation."_s;
        QTest::newRow("an iteration that never ran") << 0 << 3 << -1 << u"Turn 1 has no iteration 3."_s;
        QTest::newRow("a turn that never ran") << 7 << 1 << -1 << u"The session has no turn 8."_s;
    }

    void aForkAtAnIterationKeepsItsToolResults()
    {
        QFETCH(int, turn);
        QFETCH(int, iteration);
        QFETCH(int, messageCount);
        QFETCH(QString, error);

        const Transcript source = fourTurns();
        QString why;
        const std::optional<Transcript> forked
            = TranscriptFork::forkAtIteration(source, turn, iteration, &why);
        if (messageCount < 0) {
            QVERIFY(!forked);
            QCOMPARE(why, error);
            return;
        }
        QVERIFY2(forked, qPrintable(why));
        QCOMPARE(forked->messages, source.messages.first(messageCount));
    }

    // --- Whole sessions -------------------------------------------------------

    void aSessionReplaysTurnByTurnAndReportsEach()
    {
        Transcript transcript = fourTurns();
        QVERIFY(changeRecordedResult(transcript.trace, u"c2"_s, u"21"_s));
        const auto turns = RecordedTurn::fromTranscript(transcript);
        QVERIFY(turns);

        // Without a tool provider the workbench holds stand-ins: only recorded results are there.
        TranscriptReplay replay(*turns);
        QSignalSpy replayed(&replay, &TranscriptReplay::turnReplayed);
        QSignalSpy finished(&replay, &TranscriptReplay::finished);
        replay.start();
        QTRY_COMPARE(finished.size(), 1);
        QCOMPARE(finished.first().first().toBool(), false);
        QStringList lines;
        for (const QList<QVariant> &args : replayed)
            lines.append(
                u"turn %1: %2"_s.arg(args.at(0).toInt() + 1).arg(args.at(1).value<ReplayReport>().summary()));
        QCOMPARE(
            lines,
            (QStringList{
                u"turn 1: reproduced"_s,
                u"turn 2: diverged at model call 2: message 8 (tool result of multiply) differs: recorded \"20\", now \"21\""_s,
                u"turn 3: reproduced"_s, u"turn 4: reproduced"_s}));
        QCOMPARE(replay.reproducedCount(), 3);
        QCOMPARE(replay.notReproducedCount(), 1);
    }

    void aStandInToolAnswersALiveCallWithAnError()
    {
        Recording recording;
        recording.run(question, threeIterations());
        Workbench workbench;
        ReplayWorkbench::fill(workbench, recording.turns().first());
        QCOMPARE(workbench.schemas(), recording.workbench.schemas());
        ToolContext context;
        const ToolResult result = workbench.find(u"add"_s)->invoke({}, context);
        QVERIFY(result.isError);
        QVERIFY(result.content.contains(u"only its recorded results"_s));
    }

    // Recorded by a ChatSession over HTTP on 127.0.0.1 (tst_subagents' fake OpenAI server, agents from
    // an agents file): triage hands the question to billing, which asks the researcher (a sub-agent)
    // and answers with what it said. Neither the agents file nor a team is here: the replay goes on
    // as billing from what the recording holds, and the sub-agent's call answers from the recording.
    void aRecordedMultiAgentTurnReplaysOfflineWithoutItsAgents()
    {
        const TranscriptLoadResult loaded
            = TranscriptFile::load(QFINDTESTDATA("fixtures/handoff-subagent.loopscope.json"));
        QVERIFY2(loaded.transcript && loaded.trace, qPrintable(loaded.error));
        // What the fixture is: a handoff that went on, and a sub-agent's turn under billing's call.
        const auto count = [&loaded](auto matches) {
            return std::count_if(loaded.trace->nodes.cbegin(), loaded.trace->nodes.cend(), matches);
        };
        QCOMPARE(count([](const TraceNode &node) {
                     return node.kind == TraceKind::Handoff && !node.children.isEmpty();
                 }),
                 1);
        QCOMPARE(
            count([](const TraceNode &node) { return node.kind == TraceKind::Turn && node.parent >= 0; }), 1);
        const auto turns = RecordedTurn::fromTranscript(*loaded.transcript);
        QVERIFY(turns);
        QCOMPARE(turns->size(), 1);
        const RecordedTurn &turn = turns->first();
        QVERIFY2(turn.isReplayable(), qPrintable(turn.notReplayable));
        QCOMPARE(turn.config.name, u"triage"_s);
        QCOMPARE(turn.handoffTools, (QHash<QString, QString>{{u"transfer_to_billing"_s, u"billing"_s}}));
        QCOMPARE(turn.handedTo.size(), 1);
        const RecordedAgent &billing = turn.handedTo.constFirst();
        QCOMPARE(billing.name, u"billing"_s);
        QCOMPARE(billing.config.systemPrompt, u"You bill."_s);
        QCOMPARE(billing.config.model.model, u"billing-model"_s);
        QCOMPARE(billing.config.version, 2);
        QCOMPARE(billing.tools.size(), 1);
        QCOMPARE(billing.tools.constFirst().name, u"ask_researcher"_s);

        OfflineReplay offline(turn);
        QString summary;
        QVERIFY2(offline.reproduces(&summary), qPrintable(summary));
        const ReplayRun &run = *offline.run;
        const auto result = offline.finished->first().at(1).value<TurnResult>();
        QCOMPARE(result.agent, u"billing"_s);
        QCOMPARE(result.text, u"Billing: Invoice 7 was paid on 3 May."_s);
        // Triage's request and billing's two; the researcher's answer is its call's recorded result.
        QCOMPARE(run.modelClient()->requests().size(), 3);
        QCOMPARE(run.modelClient()->requests().at(1).messages.constFirst(), Message::system(u"You bill."_s));
        QCOMPARE(toolNames(run.modelClient()->requests().at(1)), QStringList{u"ask_researcher"_s});
        // The replay's trace has billing's part, as the recording's has.
        const Trace &trace = *run.trace();
        const QList<int> parts = trace.node(result.traceNode).children;
        QCOMPARE(parts.size(), 2);
        QCOMPARE(trace.node(parts.at(1)).kind, TraceKind::Handoff);
        QCOMPARE(trace.node(parts.at(1)).children.size(), 2); // billing's two iterations

        // As `loopscope replay` runs the session.
        TranscriptReplay replay(*turns);
        QSignalSpy replayed(&replay, &TranscriptReplay::finished);
        replay.start();
        QTRY_COMPARE(replayed.size(), 1);
        QCOMPARE(replay.reproducedCount(), 1);
    }

    // Billing ran as its agents file defined it: its instructions, and its last iteration (3 of 3) still
    // offering its tools, where the session's loop takes them away. The replay goes on as billing from
    // that recorded definition, not from the session's configuration the turn started with.
    void aHandedToAgentReplaysWithItsRecordedDefinitionNotTheSessions()
    {
        AgentPreset billing;
        billing.name = u"billing"_s;
        billing.version = 3;
        billing.instructions = u"You bill."_s;
        billing.maxIterations = 3;
        billing.toolLessFinalIteration = false;
        const AgentConfig session = recordingConfig();
        QVERIFY(session.toolLessFinalIteration);
        OneAgentTeam team(billing.configOver(session));
        Recording recording(session);
        recording.workbench.add(std::make_shared<HandoffTool>(u"billing"_s));
        recording.agent.setTeam(&team);
        const TurnResult recorded = recording.run(
            question, {ScriptedModelClient::calls({ScriptedModelClient::call(
                           u"h1"_s, u"transfer_to_billing"_s, uR"({"reason":"sums"})"_s)}),
                       ScriptedModelClient::calls({add(u"c1"_s, 2, 3)}), ScriptedModelClient::text(answer)});
        QCOMPARE(recorded.agent, u"billing"_s);
        QCOMPARE(recorded.text, answer);

        const RecordedTurn turn = recording.turns().value(0);
        QVERIFY2(turn.isReplayable(), qPrintable(turn.notReplayable));
        QCOMPARE(turn.modelCalls.size(), 3);
        QCOMPARE(turn.handedTo.size(), 1);

        OfflineReplay offline(turn);
        QString summary;
        QVERIFY2(offline.reproduces(&summary), qPrintable(summary));
        // The requests after the handoff are billing's: its instructions and its tools, to the last.
        const QList<ModelRequest> &requests = offline.run->modelClient()->requests();
        QCOMPARE(requests.size(), 3);
        const QStringList billingTools{u"add"_s, u"multiply"_s, u"fail"_s, u"wait"_s};
        QCOMPARE(toolNames(requests.at(0)), billingTools + QStringList{u"transfer_to_billing"_s});
        for (int i : {1, 2}) {
            QCOMPARE(requests.at(i).messages.constFirst().role, Message::Role::System);
            QVERIFY2(requests.at(i).messages.constFirst().text.startsWith(u"You bill."_s),
                     qPrintable(requests.at(i).messages.constFirst().text));
            QCOMPARE(toolNames(requests.at(i)), billingTools);
            QCOMPARE(requests.at(i), turn.modelCalls.at(i).request);
        }
        QCOMPARE(requests.at(2).toolChoice, ToolChoice::Auto);
        // What the replay went on as.
        const AgentConfig &config = turn.handedTo.constFirst().config;
        QCOMPARE(config.systemPrompt, u"You bill."_s);
        QCOMPARE(config.toolLessFinalIteration, false);
        QCOMPARE(config.version, 3);
        QCOMPARE(config.definition, billing.definitionJson());
    }

private:
    static QString lastToolResult(const QList<Message> &history)
    {
        for (auto it = history.crbegin(); it != history.crend(); ++it) {
            if (it->role == Message::Role::Tool)
                return it->text;
        }
        return {};
    }
};

QTEST_GUILESS_MAIN(ReplayTest)
#include "tst_replay.moc"
