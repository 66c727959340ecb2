#include "agent/transcript/transcriptimport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace Loopscope;

namespace {

const QDateTime ImportedAt(QDate(2024, 6, 3), QTime(14, 0, 5, 250), Qt::UTC);

const ToolCall WeatherCall{u"call_abc"_s, u"weather"_s, uR"({"city":"Zürich"})"_s, {}};

} // namespace

class TestTranscriptImport : public QObject
{
    Q_OBJECT

private slots:
    void openAiConversationsBecomeTranscripts_data();
    void openAiConversationsBecomeTranscripts();
    void anythingElseIsRefusedWithWhatAndWhere_data();
    void anythingElseIsRefusedWithWhatAndWhere();
    void importedSessionsAreDatedWhenImportedAndSaveLikeAnyOther();
    void filesAreReadWithTheSameChecksAsSessions();
};

void TestTranscriptImport::openAiConversationsBecomeTranscripts_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QList<Message>>("messages");
    QTest::addColumn<QString>("systemPrompt");
    QTest::addColumn<QString>("title");

    QTest::newRow("a question and its answer")
        << R"([{"role": "user", "content": "Hi there"}, {"role": "assistant", "content": "Hello!"}])"_ba
        << QList<Message>{Message::user(u"Hi there"_s), Message::assistant(u"Hello!"_s)} << QString()
        << u"Hi there"_s;
    QTest::newRow("leading system and developer messages become the system prompt")
        << R"([{"role": "system", "content": "Be brief."}, {"role": "developer", "content": "Answer in German."},
               {"role": "user", "content": "Weather?"}])"_ba
        << QList<Message>{Message::user(u"Weather?"_s)} << u"Be brief.\n\nAnswer in German."_s
        << u"Weather?"_s;
    QTest::newRow("a later system message stays in the history")
        << R"([{"role": "user", "content": "a"}, {"role": "system", "content": "Now be formal."}])"_ba
        << QList<Message>{Message::user(u"a"_s), Message::system(u"Now be formal."_s)} << QString() << u"a"_s;
    QTest::newRow("text parts are joined by line breaks")
        << R"([{"role": "user", "content": [{"type": "text", "text": "Line one"}, {"type": "text", "text": "Zwei 🌦"}]}])"_ba
        << QList<Message>{Message::user(u"Line one\nZwei 🌦"_s)} << QString() << u"Line one Zwei 🌦"_s;
    QTest::newRow("a tool call and its result")
        << R"([{"role": "user", "content": "Weather in Zürich?"},
               {"role": "assistant", "content": null, "tool_calls": [{"id": "call_abc", "type": "function",
                "function": {"name": "weather", "arguments": "{\"city\":\"Zürich\"}"}}]},
               {"role": "tool", "tool_call_id": "call_abc", "content": "sunny"},
               {"role": "assistant", "content": "It is sunny."}])"_ba
        << QList<Message>{Message::user(u"Weather in Zürich?"_s), Message::assistant({}, {WeatherCall}),
                          Message::toolResult(WeatherCall, u"sunny"_s, false),
                          Message::assistant(u"It is sunny."_s)}
        << QString() << u"Weather in Zürich?"_s;
    QTest::newRow("arguments written as an object become JSON text")
        << R"([{"role": "assistant", "tool_calls": [{"id": "call_abc",
                "function": {"name": "weather", "arguments": {"city": "Zürich"}}}]},
               {"role": "tool", "tool_call_id": "call_abc", "content": [{"type": "text", "text": "sunny"}]}])"_ba
        << QList<Message>{Message::assistant({}, {WeatherCall}),
                          Message::toolResult(WeatherCall, u"sunny"_s, false)}
        << QString() << u"Imported conversation"_s;
    QTest::newRow("parallel calls answered in another order, one result naming its tool")
        << R"([{"role": "user", "content": "Two things"},
               {"role": "assistant", "content": "Checking.", "tool_calls": [
                 {"id": "a", "type": "function", "function": {"name": "weather", "arguments": "{}"}},
                 {"id": "b", "type": "function", "function": {"name": "clock", "arguments": "{}"}}]},
               {"role": "tool", "tool_call_id": "b", "content": "12:00"},
               {"role": "tool", "tool_call_id": "a", "name": "forecast", "content": "rain"}])"_ba
        << QList<Message>{Message::user(u"Two things"_s),
                          Message::assistant(u"Checking."_s, {ToolCall{u"a"_s, u"weather"_s, u"{}"_s, {}},
                                                              ToolCall{u"b"_s, u"clock"_s, u"{}"_s, {}}}),
                          Message::toolResult(ToolCall{u"b"_s, u"clock"_s, {}, {}}, u"12:00"_s, false),
                          Message::toolResult(ToolCall{u"a"_s, u"forecast"_s, {}, {}}, u"rain"_s, false)}
        << QString() << u"Two things"_s;
    QTest::newRow("fields Loopscope does not keep are ignored")
        << R"([{"role": "user", "name": "alice", "content": "Hi"},
               {"role": "assistant", "content": "Hey", "refusal": null, "annotations": []}])"_ba
        << QList<Message>{Message::user(u"Hi"_s), Message::assistant(u"Hey"_s)} << QString() << u"Hi"_s;
    QTest::newRow("a long first question is cut for the title")
        << "[{\"role\": \"user\", \"content\": \"" + QByteArray(30, 'a') + "\\n\\n  " + QByteArray(100, 'b')
               + "\"}]"
        << QList<Message>{Message::user(QString(30, u'a') + u"\n\n  "_s + QString(100, u'b'))} << QString()
        << QString(QString(30, u'a') + u' ' + QString(49, u'b'));
}

void TestTranscriptImport::openAiConversationsBecomeTranscripts()
{
    QFETCH(QByteArray, json);
    QFETCH(QList<Message>, messages);
    QFETCH(QString, systemPrompt);
    QFETCH(QString, title);

    const TranscriptLoadResult imported = TranscriptImport::fromOpenAiMessages(json, ImportedAt);
    QVERIFY2(imported.transcript, qPrintable(imported.error));
    QCOMPARE(imported.error, QString());
    QCOMPARE(imported.upgradedFrom, 0);
    QCOMPARE(imported.transcript->messages, messages);
    QCOMPARE(imported.transcript->config.systemPrompt, systemPrompt);
    QCOMPARE(imported.transcript->title, title);
    QCOMPARE(imported.transcript->trace, QJsonArray());
    QVERIFY(historyIsWellFormed(imported.transcript->messages));
}

void TestTranscriptImport::anythingElseIsRefusedWithWhatAndWhere_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("error");

    QTest::newRow("an empty file") << QByteArray() << u"The file is empty."_s;
    QTest::newRow("not JSON") << "role: user"_ba << u"The file is not valid JSON: illegal value at line 1"_s;
    QTest::newRow("a request body instead of its messages")
        << R"({"model": "gpt-4o", "messages": []})"_ba
        << u"An OpenAI conversation is a JSON array of messages; this is an object."_s;
    QTest::newRow("no messages") << "[]"_ba
                                 << u"The conversation has no user or assistant messages to import."_s;
    QTest::newRow("only a system prompt")
        << R"([{"role": "system", "content": "Be brief."}])"_ba
        << u"The conversation has no user or assistant messages to import."_s;
    QTest::newRow("a message that is text") << R"([{"role": "user", "content": "a"}, "b"])"_ba
                                            << u"messages[1] must be an object, not a string."_s;
    QTest::newRow("a message without a role")
        << R"([{"content": "a"}])"_ba << u"messages[0].role is missing."_s;
    QTest::newRow("the legacy function role")
        << R"([{"role": "function", "name": "f", "content": "a"}])"_ba
        << u"messages[0].role must be one of system, developer, user, assistant, tool; it is \"function\"."_s;
    QTest::newRow("content that is a number")
        << R"([{"role": "user", "content": 5}])"_ba
        << u"messages[0].content must be a string or an array of text parts, "
           "not a number."_s;
    QTest::newRow("a user message without content")
        << R"([{"role": "user", "content": null}])"_ba
        << u"messages[0].content must be a string or an array of text "
           "parts, not null."_s;
    QTest::newRow("an image part")
        << R"([{"role": "user", "content": [{"type": "text", "text": "What is this?"},
               {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}]}])"_ba
        << u"messages[0].content[1] is of type \"image_url\"; only text parts can be imported."_s;
    QTest::newRow("a text part without text") << R"([{"role": "user", "content": [{"type": "text"}]}])"_ba
                                              << u"messages[0].content[0].text is missing."_s;
    QTest::newRow("a part that is a string") << R"([{"role": "user", "content": ["hi"]}])"_ba
                                             << u"messages[0].content[0] must be an object, not a string."_s;
    QTest::newRow("tool calls on a user message")
        << R"([{"role": "user", "content": "a", "tool_calls": []}])"_ba
        << u"messages[0].tool_calls is only allowed on assistant messages."_s;
    QTest::newRow("a tool call without its function")
        << R"([{"role": "user", "content": "a"}, {"role": "assistant", "tool_calls": [{"id": "c"}]}])"_ba
        << u"messages[1].tool_calls[0].function is missing."_s;
    QTest::newRow("a tool call of another type")
        << R"([{"role": "assistant", "tool_calls": [{"id": "c", "type": "retrieval", "function": {}}]}])"_ba
        << u"messages[0].tool_calls[0].type must be one of function; it is \"retrieval\"."_s;
    QTest::newRow("a tool call without an id")
        << R"([{"role": "assistant", "tool_calls": [{"id": "", "function": {"name": "f", "arguments": "{}"}}]}])"_ba
        << u"messages[0].tool_calls[0].id must not be empty."_s;
    QTest::newRow("a tool call without a name")
        << R"([{"role": "assistant", "tool_calls": [{"id": "c", "function": {"arguments": "{}"}}]}])"_ba
        << u"messages[0].tool_calls[0].function.name is missing."_s;
    QTest::newRow("arguments that are a number")
        << R"([{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": 1}}]}])"_ba
        << u"messages[0].tool_calls[0].function.arguments must be a string of JSON or an object, not a number."_s;
    QTest::newRow("a result for a call nobody made")
        << R"([{"role": "user", "content": "a"}, {"role": "tool", "tool_call_id": "call_9", "content": "x"}])"_ba
        << u"messages[1].tool_call_id \"call_9\" answers no earlier tool call."_s;
    QTest::newRow("a result without its call id")
        << R"([{"role": "tool", "content": "x"}])"_ba << u"messages[0].tool_call_id is missing."_s;
    QTest::newRow("a call id on a user message")
        << R"([{"role": "user", "content": "a", "tool_call_id": "c"}])"_ba
        << u"messages[0].tool_call_id is only allowed on tool messages."_s;
    QTest::newRow("a call left without its result")
        << R"([{"role": "user", "content": "a"}, {"role": "assistant", "tool_calls": [
               {"id": "c", "function": {"name": "f", "arguments": "{}"}}]}, {"role": "user", "content": "b"}])"_ba
        << u"The conversation cannot be continued as it is: 1 tool call left without a result."_s;
    QTest::newRow("a call answered twice")
        << R"([{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "{}"}}]},
               {"role": "tool", "tool_call_id": "c", "content": "1"},
               {"role": "tool", "tool_call_id": "c", "content": "2"}])"_ba
        << u"The conversation cannot be continued as it is: tool result for unknown or already answered call "
           "'c'."_s;
    QTest::newRow("a duplicate key")
        << R"([{"role": "user", "role": "assistant", "content": "a"}])"_ba
        << u"The key \"role\" appears twice in messages[0] (at line 1, column 2)."_s;
    QTest::newRow("deep nesting") << QByteArray(1000, '[') + QByteArray(1000, ']')
                                  << u"more than 512 levels deep"_s;
}

void TestTranscriptImport::anythingElseIsRefusedWithWhatAndWhere()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, error);
    const TranscriptLoadResult imported = TranscriptImport::fromOpenAiMessages(json, ImportedAt);
    QVERIFY(!imported.transcript);
    QVERIFY2(imported.error.contains(error), qPrintable(u"The error was: "_s + imported.error));
}

void TestTranscriptImport::importedSessionsAreDatedWhenImportedAndSaveLikeAnyOther()
{
    const QDateTime importedAt = ImportedAt.toOffsetFromUtc(3600);
    const TranscriptLoadResult imported = TranscriptImport::fromOpenAiMessages(
        R"([{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}])"_ba, importedAt);
    QVERIFY2(imported.transcript, qPrintable(imported.error));
    QCOMPARE(imported.transcript->created, ImportedAt);
    QCOMPARE(imported.transcript->created.timeSpec(), Qt::UTC);
    QCOMPARE(imported.transcript->updated, ImportedAt);
    QCOMPARE(imported.transcript->providerKind, QString());
    QCOMPARE(imported.transcript->tools, QStringList());

    const TranscriptLoadResult reloaded
        = TranscriptFile::parse(TranscriptFile::serialize(*imported.transcript));
    QVERIFY2(reloaded.transcript, qPrintable(reloaded.error));
    QCOMPARE(*reloaded.transcript, *imported.transcript);
}

void TestTranscriptImport::filesAreReadWithTheSameChecksAsSessions()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"chat.json"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"([{"role": "user", "content": "From a file"}])");
    file.close();

    const TranscriptLoadResult imported = TranscriptImport::loadOpenAiMessages(path, ImportedAt);
    QVERIFY2(imported.transcript, qPrintable(imported.error));
    QCOMPARE(imported.transcript->messages, QList<Message>{Message::user(u"From a file"_s)});

    const TranscriptLoadResult folder = TranscriptImport::loadOpenAiMessages(dir.path(), ImportedAt);
    QVERIFY(!folder.transcript);
    QVERIFY2(folder.error.endsWith(u"is a folder, not a file."_s), qPrintable(folder.error));
}

QTEST_GUILESS_MAIN(TestTranscriptImport)
#include "tst_transcriptimport.moc"
