#include "agent/config/providerprofile.h"
#include "agent/transcript/transcript.h"
#include "tests/support/democonversation.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/headlessprocess.h"
#include "tests/support/openaicompletion.h"
#include "tests/support/processtable.h"
#include "tests/support/testfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <csignal>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

const QString apiKey = u"sk-eval-secret-0123456789"_s;

// One case of a suite, as a JSON line.
QByteArray caseLine(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

// The demo model's three-iteration turn (tests/support/democonversation.cpp), asked live.
QJsonObject demoCase(const QString &name, const QJsonObject &expect)
{
    return {{u"name"_s, name},
            {u"prompt"_s, QString::fromUtf8(DemoConversation::question)},
            {u"tools"_s, QJsonArray{u"calculator"_s, u"current_time"_s}},
            {u"expect"_s, expect}};
}

const QJsonObject demoPasses{
    {u"answer_contains"_s, QJsonArray{u"397.8"_s, u"1942.2"_s}},
    {u"tool_called"_s,
     QJsonArray{QJsonObject{{u"name"_s, u"calculator"_s},
                            {u"arguments"_s,
                             QJsonObject{{u"expression"_s, QJsonObject{{u"matches"_s, u"^0\\.17"_s}}}}}},
                QJsonObject{{u"name"_s, u"current_time"_s},
                            {u"arguments"_s, QJsonObject{{u"timezone"_s, u"UTC"_s}}}}}},
    {u"max_iterations"_s, 3},
    {u"no_error_results"_s, true},
    // A model on this machine costs nothing: a known $0, so the limit is checked and passes.
    {u"max_cost_usd"_s, 0.001},
    {u"outcome"_s, u"answered"_s}};

struct TestCase
{
    QString name;
    QString failure; // the failure's message attribute, if any
    QString error;
    bool skipped = false;
    QString systemOut;
};

struct Report
{
    QXmlStreamAttributes suite;
    QList<TestCase> cases;
    bool wellFormed = false;
};

Report readReport(const QString &path)
{
    Report report;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return report;
    QXmlStreamReader xml(&file);
    while (xml.readNextStartElement()) {
        if (xml.name() == u"testsuites")
            continue;
        if (xml.name() != u"testsuite") {
            xml.skipCurrentElement();
            continue;
        }
        report.suite = xml.attributes();
        while (xml.readNextStartElement()) {
            TestCase testCase;
            testCase.name = xml.attributes().value(u"name"_s).toString();
            while (xml.readNextStartElement()) {
                const QString message = xml.attributes().value(u"message"_s).toString();
                if (xml.name() == u"failure")
                    testCase.failure = message;
                else if (xml.name() == u"error")
                    testCase.error = message;
                else if (xml.name() == u"skipped")
                    testCase.skipped = true;
                if (xml.name() == u"system-out")
                    testCase.systemOut = xml.readElementText();
                else
                    xml.skipCurrentElement();
            }
            report.cases.append(testCase);
        }
    }
    report.wellFormed = !xml.hasError();
    return report;
}

// Eval streams: one chunk with the answer, then the end.
FakeHttpServer::Handler answering(const QString &answer)
{
    return [answer](const HttpRequestRecord &, HttpExchange &exchange) {
        const QJsonObject chunk{
            {u"model"_s, u"gpt-4o-mini"_s},
            {u"choices"_s, QJsonArray{QJsonObject{{u"index"_s, 0},
                                                  {u"delta"_s, QJsonObject{{u"content"_s, answer}}},
                                                  {u"finish_reason"_s, u"stop"_s}}}}};
        exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
        exchange.send(FakeHttpServer::sseEvent(QJsonDocument(chunk).toJson(QJsonDocument::Compact))
                      + "data: [DONE]\n\n");
        exchange.end();
    };
}

// A streamed answer that calls one tool.
QByteArray toolCallAnswer(const QString &name, const QJsonObject &arguments)
{
    const QJsonObject call{
        {u"index"_s, 0},
        {u"id"_s, u"call_1"_s},
        {u"type"_s, u"function"_s},
        {u"function"_s, QJsonObject{{u"name"_s, name},
                                    {u"arguments"_s, QString::fromUtf8(QJsonDocument(arguments).toJson(
                                                         QJsonDocument::Compact))}}}};
    const auto chunk = [](const QJsonObject &delta, const QJsonValue &finish) {
        const QJsonObject object{
            {u"model"_s, u"gpt-4o-mini"_s},
            {u"choices"_s,
             QJsonArray{QJsonObject{{u"index"_s, 0}, {u"delta"_s, delta}, {u"finish_reason"_s, finish}}}}};
        return FakeHttpServer::sseEvent(QJsonDocument(object).toJson(QJsonDocument::Compact));
    };
    return chunk({{u"tool_calls"_s, QJsonArray{call}}}, QJsonValue::Null) + chunk({}, u"tool_calls"_s)
           + "data: [DONE]\n\n";
}

QString lastUserMessage(const HttpRequestRecord &request)
{
    QString text;
    for (const QJsonValue &message : request.json().value(u"messages"_s).toArray()) {
        if (message[u"role"_s].toString() == u"user")
            text = message[u"content"_s].toString();
    }
    return text;
}

} // namespace

class EvalCommandTest : public QObject
{
    Q_OBJECT

private:
    FakeHttpServer m_server;
    QTemporaryDir m_dir;

    struct Run
    {
        int exitCode = -1;
        QString out;
        QString err;
    };

    QStringList providerArguments() const
    {
        return {
            u"--provider"_s, u"openai"_s,      u"--base-url"_s,    m_server.baseUrl().toString() + u"/v1"_s,
            u"--model"_s,    u"gpt-4o-mini"_s, u"--api-key-env"_s, u"LOOPSCOPE_TEST_KEY"_s};
    }

    QString writeSuite(const QString &name, const QByteArray &lines)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        file.write(lines);
        return path;
    }

    static HeadlessProcess loopscope()
    {
        HeadlessProcess process(QStringLiteral(LOOPSCOPE_EXECUTABLE),
                                QDir::tempPath() + u"/loopscope-tst-evalcommand-config"_s);
        process.setEnvironmentVariable(u"LOOPSCOPE_TEST_KEY"_s, apiKey);
        return process;
    }

    static Run textOf(const HeadlessProcess::Result &result)
    {
        return {result.exitCode, QString::fromUtf8(result.out), QString::fromUtf8(result.err)};
    }

    static Run run(const QStringList &arguments)
    {
        return textOf(loopscope().run(QStringList{u"eval"_s} + arguments));
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_server.listen());
        QVERIFY(m_dir.isValid());
        // Beside the suite: a replay case names it by a relative path.
        QVERIFY(QFile::copy(QStringLiteral(LOOPSCOPE_EXAMPLE_SESSION),
                            m_dir.filePath(u"recorded.loopscope.json"_s)));
    }

    void init()
    {
        DemoConversation::install(m_server, 0);
        const FakeHttpServer::Handler demo = m_server.handler();
        m_server.setHandler([demo](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (lastUserMessage(request) == u"wait forever")
                exchange.stall();
            else
                demo(request, exchange);
        });
    }

    void passingAndFailingCasesAreReportedInSuiteOrder_data()
    {
        QTest::addColumn<QString>("jobs");
        QTest::newRow("one at a time") << u"1"_s;
        QTest::newRow("three at once") << u"3"_s;
    }

    void passingAndFailingCasesAreReportedInSuiteOrder()
    {
        QFETCH(QString, jobs);
        const QString suite
            = writeSuite(u"regressions.jsonl"_s,
                         caseLine(demoCase(u"share and time"_s, demoPasses))
                             + caseLine(demoCase(u"no clock"_s, {{u"tool_not_called"_s, u"current_time"_s}}))
                             + caseLine({{u"name"_s, u"recorded turn"_s},
                                         {u"session"_s, u"recorded.loopscope.json"_s},
                                         {u"expect"_s, QJsonObject{{u"answer_contains"_s, u"1942.2"_s},
                                                                   {u"max_iterations"_s, 3}}}}));
        const QString reportPath = m_dir.filePath(u"report-%1.xml"_s.arg(jobs));
        const int requestsBefore = int(m_server.requests().size());

        const Run result
            = run(providerArguments() << u"--jobs"_s << jobs << u"--junit"_s << reportPath << suite);

        QCOMPARE(result.exitCode, 1);
        const QStringList lines = result.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines.at(0), u"PASS share and time"_s);
        QCOMPARE(lines.at(1),
                 u"FAIL no clock: current_time was called, expected not to be (1 call; the first with "
                 "{\"timezone\":\"UTC\"})"_s);
        QCOMPARE(lines.at(2), u"PASS recorded turn"_s);
        QVERIFY2(QRegularExpression(u"^3 cases: 2 passed, 1 failed \\(\\d+\\.\\d s\\)$"_s)
                     .match(lines.at(3))
                     .hasMatch(),
                 qPrintable(lines.at(3)));
        // Two live turns of three model calls each; the replay asks no one.
        QCOMPARE(m_server.requests().size() - requestsBefore, 6);
        QCOMPARE(m_server.requests().constLast().header("authorization"), "Bearer "_ba + apiKey.toUtf8());

        const Report report = readReport(reportPath);
        QVERIFY(report.wellFormed);
        QCOMPARE(report.suite.value(u"name"_s), u"regressions"_s);
        QCOMPARE(report.suite.value(u"tests"_s), u"3"_s);
        QCOMPARE(report.suite.value(u"failures"_s), u"1"_s);
        QCOMPARE(report.suite.value(u"errors"_s), u"0"_s);
        QCOMPARE(report.cases.size(), 3);
        QCOMPARE(report.cases.at(0).name, u"share and time"_s);
        QVERIFY(report.cases.at(0).failure.isEmpty());
        QVERIFY2(report.cases.at(0).systemOut.contains(
                     u"calculator {\"expression\":\"0.17*2340\"} -> 0.17*2340 = 397.8"_s),
                 qPrintable(report.cases.at(0).systemOut));
        QVERIFY(report.cases.at(0).systemOut.contains(u"| What is left | `calculator` | **1942.2** |"_s));
        QCOMPARE(report.cases.at(1).failure, lines.at(1).mid(u"FAIL no clock: "_s.size()));
        QCOMPARE(report.cases.at(2).name, u"recorded turn"_s);
        QVERIFY(report.cases.at(2).failure.isEmpty() && report.cases.at(2).error.isEmpty());

        QFile reportFile(reportPath);
        QVERIFY(reportFile.open(QIODevice::ReadOnly));
        QVERIFY(!reportFile.readAll().contains(apiKey.toUtf8()));
        QVERIFY(!result.out.contains(apiKey) && !result.err.contains(apiKey));
    }

    void aSuiteThatPassesExitsZero()
    {
        const QString suite = writeSuite(
            u"green.jsonl"_s,
            caseLine(demoCase(u"share and time"_s, demoPasses))
                + caseLine({{u"name"_s, u"recorded turn"_s}, {u"session"_s, u"recorded.loopscope.json"_s}}));

        const Run result = run(providerArguments() << suite);

        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.out.startsWith(
                     u"PASS share and time\nPASS recorded turn\n2 cases: 2 passed, 0 failed ("_s),
                 qPrintable(result.out));
        QCOMPARE(result.err, QString());
    }

    void aLiveCaseSendsItsAttachmentsReadBesideTheSuite()
    {
        QVERIFY(QDir(m_dir.path()).mkpath(u"inputs"_s));
        QFile note(m_dir.filePath(u"inputs/orders.csv"_s));
        QVERIFY(note.open(QIODevice::WriteOnly));
        note.write("order,total\n1001,42.50\n");
        note.close();
        m_server.setHandler(answering(u"The total is 42.50."_s));
        const QString suite = writeSuite(
            u"attached.jsonl"_s, caseLine({{u"name"_s, u"reads the csv"_s},
                                           {u"prompt"_s, u"What is the total?"_s},
                                           {u"attachments"_s, QJsonArray{u"inputs/orders.csv"_s}},
                                           {u"expect"_s, QJsonObject{{u"answer_contains"_s, u"42.50"_s}}}}));

        const Run result = run(providerArguments() << suite);

        QVERIFY2(result.exitCode == 0, qPrintable(result.out + result.err));
        const QJsonArray parts = m_server.requests().constLast().lastMessageParts();
        QCOMPARE(parts.size(), 2);
        const QString attached = parts.at(0).toObject().value(u"text"_s).toString();
        QVERIFY2(attached.contains(u"orders.csv"_s) && attached.contains(u"1001,42.50"_s),
                 qPrintable(attached));
        QCOMPARE(parts.at(1).toObject().value(u"text"_s).toString(), u"What is the total?"_s);
    }

    void aCaseSearchesItsKnowledgeBaseAndExpectsTheSourceItFound()
    {
        const QString dataHome = m_dir.filePath(u"knowledge-data"_s);
        const QString docs = m_dir.filePath(u"knowledge-docs"_s);
        const QString handbook = docs + u"/handbook.md"_s;
        QVERIFY(Testing::writeFile(
            handbook, "# Refunds\n\nRefunds above 500 euros\nare approved by the finance lead.\n"));
        HeadlessProcess process = loopscope();
        process.setEnvironmentVariable(u"XDG_DATA_HOME"_s, dataHome);
        const Run added = textOf(process.run({u"knowledge"_s, u"add"_s, u"docs"_s, docs}));
        QVERIFY2(added.exitCode == 0, qPrintable(added.err));
        m_server.setHandler(answering(u"The finance lead."_s));
        const QJsonObject question{{u"prompt"_s, u"Who approves refunds?"_s},
                                   {u"knowledge"_s, u"docs"_s},
                                   {u"retrieve"_s, u"auto"_s}};
        QJsonObject found = question;
        found.insert(u"name"_s, u"finds the handbook"_s);
        found.insert(u"expect"_s, QJsonObject{{u"retrieved"_s, u"handbook.md"_s}});
        QJsonObject missing = question;
        missing.insert(u"name"_s, u"expects the travel policy"_s);
        missing.insert(u"expect"_s, QJsonObject{{u"retrieved"_s, u"travel.md"_s}});
        const QString suite = writeSuite(u"knowledge.jsonl"_s, caseLine(found) + caseLine(missing));

        const Run result = textOf(process.run(QStringList{u"eval"_s} << providerArguments() << suite));

        QCOMPARE(result.exitCode, 1);
        const QStringList lines = result.out.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.at(0), u"PASS finds the handbook"_s);
        QCOMPARE(lines.at(1), u"FAIL expects the travel policy: no passage from \"travel.md\" was retrieved "
                              "(found: %1)"_s.arg(QFileInfo(handbook).absoluteFilePath()));
    }

    void anUnknownKnowledgeBaseIsNamedAndNothingRuns()
    {
        HeadlessProcess process = loopscope();
        process.setEnvironmentVariable(u"XDG_DATA_HOME"_s, m_dir.filePath(u"no-knowledge"_s));
        const QString suite = writeSuite(
            u"unknownbase.jsonl"_s,
            caseLine({{u"name"_s, u"x"_s}, {u"prompt"_s, u"p"_s}, {u"knowledge"_s, u"nowhere"_s}}));
        const int requestsBefore = int(m_server.requests().size());

        const Run result = textOf(process.run(QStringList{u"eval"_s} << providerArguments() << suite));

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(
            result.err.contains(
                u"line 1: there is no knowledge base named \"nowhere\" (see loopscope knowledge list)"_s),
            qPrintable(result.err));
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void aCaseSearchesTheKnowledgeBasesOfItsAgent()
    {
        const QString dataHome = m_dir.filePath(u"agent-knowledge-data"_s);
        const QString docs = m_dir.filePath(u"agent-knowledge-docs"_s);
        QVERIFY(Testing::writeFile(docs + u"/handbook.md"_s,
                                   "# Refunds\n\nRefunds are approved by the finance lead.\n"));
        HeadlessProcess process = loopscope();
        process.setEnvironmentVariable(u"XDG_DATA_HOME"_s, dataHome);
        const Run added = textOf(process.run({u"knowledge"_s, u"add"_s, u"handbook"_s, docs}));
        QVERIFY2(added.exitCode == 0, qPrintable(added.err));
        const QString agents = writeSuite(
            u"clerks.json"_s,
            R"({"agents": [{"name": "clerk", "instructions": "Answer.", "tools": [], "knowledge": ["handbook"]}]})");
        m_server.setHandler(answering(u"The finance lead."_s));
        // No "knowledge" in the case: the agent's base is the one searched before the turn.
        const QString suite
            = writeSuite(u"agentknowledge.jsonl"_s,
                         caseLine({{u"name"_s, u"the clerk finds the handbook"_s},
                                   {u"prompt"_s, u"Who approves refunds?"_s},
                                   {u"agents"_s, agents},
                                   {u"agent"_s, u"clerk"_s},
                                   {u"retrieve"_s, u"auto"_s},
                                   {u"expect"_s, QJsonObject{{u"retrieved"_s, u"handbook.md"_s}}}}));

        const Run result = textOf(process.run(QStringList{u"eval"_s} << providerArguments() << suite));

        QVERIFY2(result.exitCode == 0, qPrintable(result.out + result.err));
        QCOMPARE(result.out.split(u'\n', Qt::SkipEmptyParts).value(0),
                 u"PASS the clerk finds the handbook"_s);
    }

    void anAgentsUnknownKnowledgeBaseFailsTheSuiteBeforeAnyRequest()
    {
        HeadlessProcess process = loopscope();
        process.setEnvironmentVariable(u"XDG_DATA_HOME"_s, m_dir.filePath(u"no-agent-knowledge"_s));
        const QString agents = writeSuite(
            u"lost.json"_s,
            R"({"agents": [{"name": "clerk", "instructions": "Answer.", "knowledge": ["nowhere"]}]})");
        const QString suite = writeSuite(u"lostbase.jsonl"_s, caseLine({{u"name"_s, u"x"_s},
                                                                        {u"prompt"_s, u"p"_s},
                                                                        {u"agents"_s, agents},
                                                                        {u"agent"_s, u"clerk"_s}}));
        const int requestsBefore = int(m_server.requests().size());

        const Run result = textOf(process.run(QStringList{u"eval"_s} << providerArguments() << suite));

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(
            result.err.contains(u"line 1: agent \"clerk\" searches the knowledge base \"nowhere\": there "
                                "is no knowledge base named \"nowhere\""_s),
            qPrintable(result.err));
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void aCaseRunsAsTheAgentItNamesOfTheSuitesAgentsFile()
    {
        const QString agents = writeSuite(u"team.json"_s,
                                          R"({"agents": [{"name": "triage", "instructions": "You route."},
                           {"name": "billing", "instructions": "You bill.", "model": "billing-model"}]})");
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const QJsonArray messages = request.json().value(u"messages"_s).toArray();
            answering(u"Speaking: "_s + messages.first()[u"content"_s].toString())(request, exchange);
        });
        const QString suite = writeSuite(
            u"agents.jsonl"_s,
            caseLine({{u"name"_s, u"as billing"_s},
                      {u"prompt"_s, u"Who are you?"_s},
                      {u"agent"_s, u"billing"_s},
                      {u"expect"_s, QJsonObject{{u"answer_contains"_s, QJsonArray{u"You bill."_s}}}}})
                + caseLine(
                    {{u"name"_s, u"as the first"_s},
                     {u"prompt"_s, u"Who are you?"_s},
                     {u"expect"_s, QJsonObject{{u"answer_contains"_s, QJsonArray{u"You route."_s}}}}}));
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result = run(providerArguments() << u"--agents"_s << agents << suite);

        QVERIFY2(result.exitCode == 0, qPrintable(result.out + result.err));
        QVERIFY2(result.out.startsWith(u"PASS as billing\nPASS as the first\n"_s), qPrintable(result.out));
        QCOMPARE(m_server.requests().size(), requestsBefore + 2);
        QCOMPARE(m_server.requests().at(requestsBefore).json().value(u"model"_s).toString(),
                 u"billing-model"_s);
    }

    // An agent of the suite on a saved provider profile of its own is asked there, as `run` asks it;
    // one on a profile that is not saved fails the suite before any case runs.
    void anAgentOnASavedProfileIsAskedOnThatProfilesServer_data()
    {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("error"); // empty: the case runs there and passes
        QTest::newRow("a saved profile") << u"Other"_s << QString();
        QTest::newRow("a profile that is not saved")
            << u"Nowhere"_s
            << u"agent \"local\" runs on the provider profile \"Nowhere\", which is not a saved profile"_s;
    }

    void anAgentOnASavedProfileIsAskedOnThatProfilesServer()
    {
        QFETCH(QString, profile);
        QFETCH(QString, error);
        FakeHttpServer other;
        QVERIFY(other.listen());
        other.setHandler(answering(u"From the other profile."_s));
        const QString settingsPath
            = QDir::tempPath() + u"/loopscope-tst-evalcommand-config/Loopscope/Loopscope.conf"_s;
        {
            QSettings settings(settingsPath, QSettings::IniFormat);
            ProviderProfileStore(&settings).save(
                openAiTestProfile(other.baseUrl(), u"Other"_s, u"LOOPSCOPE_TEST_KEY"_s));
        }
        const auto removeSettings = qScopeGuard([settingsPath] { QFile::remove(settingsPath); });
        const QString agents = writeSuite(
            u"profiles.json"_s,
            uR"({"agents": [{"name": "local", "instructions": "Answer.", "provider": "%1", "tools": []}]})"_s
                .arg(profile)
                .toUtf8());
        const QString suite = writeSuite(
            u"profiles.jsonl"_s,
            caseLine({{u"name"_s, u"on its own profile"_s},
                      {u"prompt"_s, u"Hello"_s},
                      {u"expect"_s, QJsonObject{{u"answer_contains"_s, QJsonArray{u"other profile"_s}}}}}));
        const qsizetype requestsBefore = m_server.requests().size();

        const Run result = run(providerArguments() << u"--agents"_s << agents << suite);

        QCOMPARE(m_server.requests().size(), requestsBefore);
        if (error.isEmpty()) {
            QVERIFY2(result.exitCode == 0, qPrintable(result.out + result.err));
            QCOMPARE(other.requests().size(), 1);
        } else {
            QCOMPARE(result.exitCode, 2);
            QVERIFY2(result.err.contains(error), qPrintable(result.err));
            QCOMPARE(other.requests().size(), 0);
        }
    }

    void anAgentTheFileLacksIsNamedAndNothingRuns_data()
    {
        QTest::addColumn<QJsonObject>("extra");
        QTest::addColumn<bool>("suiteAgents");
        QTest::addColumn<QString>("message");
        QTest::newRow("the case's agents file")
            << QJsonObject{{u"agents"_s, u"team.json"_s}, {u"agent"_s, u"nobody"_s}} << false
            << u"line 1: \"agent\": there is no agent named \"nobody\" in its agents file"_s;
        QTest::newRow("the suite's agents file")
            << QJsonObject{{u"agent"_s, u"nobody"_s}} << true
            << u"line 1: there is no agent \"nobody\" (the agents are triage)"_s;
        QTest::newRow("no agents file") << QJsonObject{{u"agent"_s, u"nobody"_s}} << false
                                        << u"line 1: \"agent\": nobody names an agent of an agents file"_s;
        QTest::newRow("a broken agents file")
            << QJsonObject{{u"agents"_s, u"broken.json"_s}} << false << u"line 1: \"agents\": "_s;
        QTest::newRow("an agent with a whole MCP server")
            << QJsonObject{{u"agents"_s, u"mcpteam.json"_s}} << false
            << u"agent \"filer\" has every tool of the MCP server \"files\", and eval runs no MCP servers"_s;
    }

    void anAgentTheFileLacksIsNamedAndNothingRuns()
    {
        QFETCH(QJsonObject, extra);
        QFETCH(bool, suiteAgents);
        QFETCH(QString, message);
        const QString agents
            = writeSuite(u"team.json"_s, R"({"agents": [{"name": "triage", "instructions": "You route."}]})");
        writeSuite(u"broken.json"_s, R"({"agents": [{"name": "a", "handoffs": ["b"]}]})");
        writeSuite(u"mcpteam.json"_s,
                   R"({"agents": [{"name": "filer", "instructions": "i", "tools": ["mcp:files"]}]})");
        QJsonObject line{{u"name"_s, u"x"_s}, {u"prompt"_s, u"p"_s}};
        for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
            line.insert(it.key(), it.value());
        const QString suite = writeSuite(u"badagent.jsonl"_s, caseLine(line));
        const qsizetype requestsBefore = m_server.requests().size();

        QStringList arguments = providerArguments();
        if (suiteAgents)
            arguments << u"--agents"_s << agents;
        const Run result = run(arguments << suite);

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(message), qPrintable(result.err));
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void aMalformedLineIsNamedAndNothingRuns_data()
    {
        QTest::addColumn<QByteArray>("badLine");
        QTest::addColumn<QString>("error");

        QTest::newRow("not JSON") << "{\"name\": \"broken\", \"prompt\": }\n"_ba
                                  << u"line 3: not JSON: "_s; // then Qt's words for it
        QTest::newRow("unknown expectation")
            << "{\"name\": \"typo\", \"prompt\": \"p\", \"expect\": {\"answer_contain\": \"x\"}}\n"_ba
            << u"line 3: unknown field \"answer_contain\" in \"expect\""_s;
        QTest::newRow("a session that is not there")
            << "{\"name\": \"gone\", \"session\": \"gone.loopscope.json\"}\n"_ba
            << u"line 3: cannot read the session \"%1\""_s.arg(m_dir.filePath(u"gone.loopscope.json"_s));
    }

    void aMalformedLineIsNamedAndNothingRuns()
    {
        QFETCH(QByteArray, badLine);
        QFETCH(QString, error);
        const QString suite
            = writeSuite(u"broken.jsonl"_s, caseLine(demoCase(u"fine"_s, demoPasses)) + "\n" + badLine);
        const int requestsBefore = int(m_server.requests().size());

        const Run result = run(providerArguments() << suite);

        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.startsWith(u"loopscope eval: %1: %2"_s.arg(suite, error)),
                 qPrintable(result.err));
        QCOMPARE(result.out, QString());
        QCOMPARE(m_server.requests().size(), requestsBefore);
    }

    void aCaseWithoutAModelOrKeyIsBadUsage()
    {
        const QString suite
            = writeSuite(u"nomodel.jsonl"_s, caseLine({{u"name"_s, u"x"_s}, {u"prompt"_s, u"p"_s}}));

        const Run noModel = run({suite});
        const Run noKey
            = run({u"--model"_s, u"m"_s, u"--api-key-env"_s, u"LOOPSCOPE_TEST_UNSET_KEY"_s, suite});

        QCOMPARE(noModel.exitCode, 2);
        QCOMPARE(
            noModel.err,
            u"loopscope eval: %1: line 1: name the model in the case (\"model\") or with --model\n"_s.arg(
                suite));
        QCOMPARE(noKey.exitCode, 2);
        QVERIFY2(noKey.err.contains(
                     u"line 1: no API key: set the environment variable LOOPSCOPE_TEST_UNSET_KEY"_s),
                 qPrintable(noKey.err));
    }

    void savedSessionsOpenAndHoldNoKey()
    {
        const QString suite = writeSuite(
            u"saved.jsonl"_s,
            caseLine(demoCase(u"share/time"_s, demoPasses))
                + caseLine({{u"name"_s, u"recorded turn"_s}, {u"session"_s, u"recorded.loopscope.json"_s}}));
        const QString folder = m_dir.filePath(u"sessions"_s);

        const Run result = run(providerArguments() << u"--save-sessions"_s << folder << suite);

        QCOMPARE(result.exitCode, 0);
        QCOMPARE(QDir(folder).entryList(QDir::Files),
                 (QStringList{u"recorded turn.loopscope.json"_s, u"share-time.loopscope.json"_s}));
        for (const QString &name : QDir(folder).entryList(QDir::Files)) {
            const TranscriptLoadResult loaded = TranscriptFile::load(QDir(folder).filePath(name));
            QVERIFY2(loaded.transcript, qPrintable(loaded.error));
            QCOMPARE(loaded.transcript->turnCount(), 1);
            QVERIFY(loaded.transcript->messages.constLast().text.contains(u"1942.2"_s));
            QFile file(QDir(folder).filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(!file.readAll().contains(apiKey.toUtf8()));
        }
    }

    void aCaseThatOutlivesItsTimeoutIsAnError()
    {
        const QString suite = writeSuite(
            u"slow.jsonl"_s,
            caseLine({{u"name"_s, u"slow"_s}, {u"prompt"_s, u"wait forever"_s}, {u"timeout_seconds"_s, 1}})
                + caseLine(demoCase(u"after it"_s, demoPasses)));
        const QString reportPath = m_dir.filePath(u"slow.xml"_s);

        const Run result = run(providerArguments() << u"--junit"_s << reportPath << suite);

        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.out.startsWith(u"ERROR slow: timed out after 1 s\nPASS after it\n"
                                       "2 cases: 1 passed, 0 failed, 1 error ("_s),
                 qPrintable(result.out));
        const Report report = readReport(reportPath);
        QCOMPARE(report.suite.value(u"errors"_s), u"1"_s);
        QCOMPARE(report.cases.at(0).error, u"timed out after 1 s"_s);
    }

    void ctrlCStopsTheRunningCaseSkipsTheRestAndStillWritesTheReport()
    {
        const QString suite = writeSuite(u"interrupted.jsonl"_s,
                                         caseLine({{u"name"_s, u"slow"_s}, {u"prompt"_s, u"wait forever"_s}})
                                             + caseLine(demoCase(u"never run"_s, demoPasses)));
        const QString reportPath = m_dir.filePath(u"interrupted.xml"_s);
        const int requestsBefore = int(m_server.requests().size());
        HeadlessProcess process = loopscope();
        process.start(QStringList{u"eval"_s} + providerArguments() << u"--junit"_s << reportPath << suite);
        QTRY_VERIFY_WITH_TIMEOUT(m_server.requests().size() > requestsBefore, 15000);

        process.interrupt();
        const Run result = textOf(process.finish());

        QCOMPARE(result.exitCode, 130);
        QVERIFY2(result.out.startsWith(u"SKIP slow: cancelled\nSKIP never run: cancelled\n"
                                       "2 cases: 0 passed, 0 failed, 2 not run ("_s),
                 qPrintable(result.out));
        QCOMPARE(m_server.requests().size(), requestsBefore + 1);
        const Report report = readReport(reportPath);
        QVERIFY(report.wellFormed);
        QCOMPARE(report.suite.value(u"skipped"_s), u"2"_s);
        QVERIFY(report.cases.at(0).skipped && report.cases.at(1).skipped);
    }

    void aSecondCtrlCWhileACommandIsEndingHurriesItInsteadOfKillingLoopscope()
    {
        QTemporaryDir workspace;
        QVERIFY(workspace.isValid());
        // The case's command ignores SIGTERM, as does the child it leaves in the background, so the
        // first Ctrl+C waits out the grace before SIGKILL; it writes its process group once both run.
        const QString command = u"trap '' TERM; sleep 300 & sleep 300 & echo $$ > group.pid; wait"_s;
        m_server.setHandler([command](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.beginStream(200, {{"Content-Type", "text/event-stream"}});
            exchange.send(toolCallAnswer(u"run_command"_s, {{u"command"_s, command}}));
            exchange.end();
        });
        const QString suite
            = writeSuite(u"stubborn.jsonl"_s, caseLine({{u"name"_s, u"stubborn"_s},
                                                        {u"prompt"_s, u"Run it"_s},
                                                        {u"tools"_s, QJsonArray{u"run_command"_s}},
                                                        {u"workspace"_s, workspace.path()},
                                                        {u"approve"_s, u"all"_s}}));
        const QString reportPath = m_dir.filePath(u"stubborn.xml"_s);
        HeadlessProcess process = loopscope();
        process.start(QStringList{u"eval"_s} + providerArguments() << u"--junit"_s << reportPath << suite);
        QFile groupFile(workspace.filePath(u"group.pid"_s));
        QTRY_VERIFY_WITH_TIMEOUT(groupFile.size() > 0, 15000);
        QVERIFY(groupFile.open(QIODevice::ReadOnly));
        const qint64 group = groupFile.readAll().trimmed().toLongLong();
        QVERIFY(group > 0);
        const auto cleanUp = qScopeGuard([group] { ::kill(-pid_t(group), SIGKILL); });
        QTRY_COMPARE_WITH_TIMEOUT(ProcessTable::livingInGroup(group).size(), 3, 5000);

        // The first Ctrl+C ends the case and the report is written at once, while the command, which
        // ignores SIGTERM, is still being ended. The second, pressed apart as a person does, comes
        // while Loopscope exits: it must hurry the command's end, not kill Loopscope and leave it.
        process.interrupt();
        QTest::qWait(500);
        process.interrupt();
        const Run result = textOf(process.finish());

        QVERIFY2(result.exitCode == 130, qPrintable(result.out + result.err));
        QVERIFY2(result.out.startsWith(u"SKIP stubborn: cancelled\n"_s), qPrintable(result.out));
        const Report report = readReport(reportPath);
        QVERIFY(report.wellFormed);
        QCOMPARE(report.suite.value(u"skipped"_s), u"1"_s);
        QTRY_COMPARE_WITH_TIMEOUT(ProcessTable::livingInGroup(group), QList<qint64>(), 5000);
    }
};

QTEST_GUILESS_MAIN(EvalCommandTest)
#include "tst_evalcommand.moc"
