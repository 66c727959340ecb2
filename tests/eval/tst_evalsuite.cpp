#include "agent/eval/evalsuite.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

class EvalSuiteTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    void write(const QString &name, const QByteArray &bytes)
    {
        QFile file(m_dir.filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QFile::copy(QStringLiteral(LOOPSCOPE_EXAMPLE_SESSION),
                            m_dir.filePath(u"recorded.loopscope.json"_s)));
        QVERIFY(QDir(m_dir.path()).mkdir(u"notes"_s));
        write(u"notes/program.bin"_s, QByteArray("\x7f"
                                                 "ELF\x02\x01\x01\0\0\0",
                                                 10));
    }

    void aLiveCaseIsReadWithItsExpectations()
    {
        const QByteArray line
            = "{\"name\": \"share\", \"prompt\": \"What is 17% of 2340?\", \"system\": \"Be brief\", "
              "\"model\": \"gpt-4o-mini\", "
              "\"api_key_env\": \"MY_KEY\", \"tools\": [\"calculator\"], \"workspace\": \"notes\", "
              "\"max_iterations\": 4, \"context_window\": 8192, \"compact\": \"drop-oldest\", "
              "\"approve\": \"none\", \"timeout_seconds\": 30, \"expect\": {\"answer_contains\": "
              "[\"397.8\"], "
              "\"answer_matches\": \"[0-9]\", \"tool_called\": [\"calculator\", {\"name\": \"calculator\", "
              "\"arguments\": "
              "{\"expression\": {\"matches\": \"0[.]17\"}}}], \"tool_not_called\": \"read_file\", "
              "\"max_iterations\": 2, "
              "\"no_error_results\": true, \"max_cost_usd\": 0.01, \"outcome\": \"answered\"}}";
        QString error;

        const std::optional<QList<EvalCase>> cases = EvalSuite::parse(
            "\n" + QByteArray(line).replace('\n', ' ') + "\n\n", QDir(m_dir.path()), &error);

        QVERIFY2(cases, qPrintable(error));
        QCOMPARE(cases->size(), 1);
        const EvalCase &evalCase = cases->constFirst();
        QCOMPARE(evalCase.line, 2);
        QCOMPARE(evalCase.name, u"share"_s);
        QCOMPARE(evalCase.system, u"Be brief"_s);
        QVERIFY(!evalCase.isReplay());
        QVERIFY(!evalCase.provider.namesProvider());
        QCOMPARE(evalCase.provider.model, std::optional<QString>(u"gpt-4o-mini"_s));
        QCOMPARE(evalCase.provider.apiKeyEnv, std::optional<QString>(u"MY_KEY"_s));
        QCOMPARE(evalCase.tools, QStringList{u"calculator"_s});
        QCOMPARE(evalCase.workspace, m_dir.filePath(u"notes"_s));
        QCOMPARE(evalCase.maxIterations, std::optional<int>(4));
        QCOMPARE(evalCase.contextWindow, std::optional<qint64>(8192));
        QCOMPARE(evalCase.compaction, std::optional<CompactionStrategy>(CompactionStrategy::DropOldest));
        QVERIFY(!evalCase.approveAll);
        QCOMPARE(evalCase.timeoutSeconds, std::optional<int>(30));
        EvalExpectations expect;
        expect.answerContains = {u"397.8"_s};
        expect.answerMatches = u"[0-9]"_s;
        expect.toolCalled
            = {{u"calculator"_s, {}},
               {u"calculator"_s, {{u"expression"_s, QJsonObject{{u"matches"_s, u"0[.]17"_s}}}}}};
        expect.toolNotCalled = {u"read_file"_s};
        expect.maxIterations = 2;
        expect.noErrorResults = true;
        expect.maxCostUsd = 0.01;
        expect.outcome = u"answered"_s;
        QCOMPARE(evalCase.expect, expect);
    }

    void aCaseAttachesKnowledgeBasesAndExpectsASourceToBeRetrieved()
    {
        QString error;

        const std::optional<QList<EvalCase>> cases = EvalSuite::parse(
            "{\"name\": \"refunds\", \"prompt\": \"Who approves refunds?\", \"knowledge\": [\"handbook\", "
            "\"wiki\"], \"retrieve\": \"auto\", \"expect\": {\"retrieved\": \"handbook/refunds.md\"}}\n"
            "{\"name\": \"by the tool\", \"prompt\": \"p\", \"knowledge\": \"wiki\", \"expect\": "
            "{\"retrieved\": "
            "[\"a.md\", \"b.md\"]}}\n",
            QDir(m_dir.path()), &error);

        QVERIFY2(cases, qPrintable(error));
        QCOMPARE(cases->at(0).knowledge, (QStringList{u"handbook"_s, u"wiki"_s}));
        QVERIFY(cases->at(0).retrieveBeforeTurn);
        QCOMPARE(cases->at(0).expect.retrieved, QStringList{u"handbook/refunds.md"_s});
        QCOMPARE(cases->at(1).knowledge, QStringList{u"wiki"_s});
        QVERIFY(!cases->at(1).retrieveBeforeTurn);
        QCOMPARE(cases->at(1).expect.retrieved, (QStringList{u"a.md"_s, u"b.md"_s}));
    }

    void aByteOrderMarkAndWindowsLineEndsAreNotPartOfTheCases()
    {
        QString error;

        const std::optional<QList<EvalCase>> cases = EvalSuite::parse(
            "\xEF\xBB\xBF{\"name\": \"a\", \"prompt\": \"p\"}\r\n{\"name\": \"b\", \"prompt\": \"q\"}\r\n",
            QDir(m_dir.path()), &error);

        QVERIFY2(cases, qPrintable(error));
        QCOMPARE(cases->size(), 2);
        QCOMPARE(cases->at(1).line, 2);
        QCOMPARE(cases->at(1).prompt, u"q"_s);
    }

    void attachmentsAreReadFromPathsRelativeToTheSuite()
    {
        write(u"notes/plan.md"_s, "# Plan\nShip it.\n");
        QString error;
        const std::optional<QList<EvalCase>> cases = EvalSuite::parse(
            "{\"name\": \"x\", \"prompt\": \"Summarise\", \"attachments\": [\"notes/plan.md\"]}\n"
            "{\"name\": \"y\", \"prompt\": \"Nothing attached\"}\n",
            QDir(m_dir.path()), &error);
        QVERIFY2(cases, qPrintable(error));
        QCOMPARE(cases->at(0).attachments.size(), 1);
        QCOMPARE(cases->at(0).attachments.constFirst().name, u"plan.md"_s);
        QCOMPARE(cases->at(0).attachments.constFirst().text, u"# Plan\nShip it.\n"_s);
        QVERIFY(cases->at(1).attachments.isEmpty());
    }

    void aReplayCaseReadsItsTurnFromTheSessionBesideTheSuite()
    {
        write(u"suite.jsonl"_s,
              "{\"name\": \"recorded\", \"session\": \"recorded.loopscope.json\", \"turn\": 1}"
              "\n");
        QString error;

        const std::optional<EvalSuite> suite = EvalSuite::load(m_dir.filePath(u"suite.jsonl"_s), &error);

        QVERIFY2(suite, qPrintable(error));
        QCOMPARE(suite->name, u"suite"_s);
        const EvalCase &evalCase = suite->cases.constFirst();
        QVERIFY(evalCase.isReplay());
        QCOMPARE(evalCase.sessionPath, m_dir.filePath(u"recorded.loopscope.json"_s));
        QVERIFY(evalCase.recording);
        QCOMPARE(evalCase.recording->userText,
                 u"What is 17% of 2,340, what is left after it, and what time is it in UTC?"_s);
        QCOMPARE(evalCase.workspace, m_dir.path());
    }

    void aBadLineIsNamedWithWhatIsWrong_data()
    {
        QTest::addColumn<QByteArray>("suite");
        QTest::addColumn<QString>("error");

        const QByteArray good = "{\"name\": \"good\", \"prompt\": \"p\"}"
                                "\n";
        QTest::newRow("not JSON") << good + "{\"name\": \"x\",\n"
                                  << u"line 2: not JSON: unterminated object at column 14"_s;
        QTest::newRow("not an object") << good + "[1, 2]\n" << u"line 2: a case must be a JSON object"_s;
        QTest::newRow("unknown field")
            << good + "{\"name\": \"x\", \"prompt\": \"p\", \"expct\": {}}"
            << u"line 2: unknown field \"expct\" (known: name, prompt, system, provider, base_url, model, "
               "api_key_env, session, turn, live_tools, tools, workspace, approve, expect, max_iterations, "
               "timeout_seconds, attachments, context_window, compact, knowledge, retrieve, agents, agent)"_s;
        QTest::newRow("no name") << QByteArray("{\"prompt\": \"p\"}") << u"line 1: a case needs a \"name\""_s;
        QTest::newRow("no prompt") << QByteArray("{\"name\": \"x\"}")
                                   << u"line 1: a case needs a \"prompt\", or a \"session\" to replay"_s;
        QTest::newRow("a name twice")
            << good + "\n" + good << u"line 3: a case named \"good\" came before: names must be unique"_s;
        QTest::newRow("a wrong type")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"max_iterations\": \"3\"}")
            << u"line 1: \"max_iterations\" must be a whole number from 1 to 1000"_s;
        QTest::newRow("an unknown compaction strategy")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"compact\": \"summarize\"}")
            << u"line 1: \"compact\" takes \"auto\", \"trim-tool-results\", \"drop-oldest\" or \"off\""_s;
        QTest::newRow("a context window of nothing")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"context_window\": 0}")
            << u"line 1: \"context_window\" must be a whole number from 1 to 100000000"_s;
        QTest::newRow("unknown tool")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"tools\": [\"calculator\", \"weather\"]}")
            << u"line 1: unknown tool \"weather\": the built-in tools are calculator, current_time, "
               u"read_file, "
               "list_directory, search_files, write_file, edit_file, run_command, fetch_url"_s;
        QTest::newRow("approve") << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"approve\": \"some\"}")
                                 << u"line 1: \"approve\" takes \"all\" or \"none\""_s;
        QTest::newRow("no such workspace")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"workspace\": \"nowhere\"}")
            << u"line 1: the workspace \"%1/nowhere\" is not a folder"_s;
        QTest::newRow("unknown expectation")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"expect\": {\"answer_is\": \"4\"}}")
            << u"line 1: unknown field \"answer_is\" in \"expect\" (known: answer_contains, answer_matches, "
               "tool_called, tool_not_called, max_iterations, no_error_results, max_cost_usd, outcome, "
               "reproduced, "
               "retrieved)"_s;
        QTest::newRow("bad regular expression")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"expect\": {\"answer_matches\": \"(4\"}}")
            << u"line 1: \"answer_matches\" is not a valid regular expression: missing closing parenthesis "
               u"at "
               "offset 2"_s;
        QTest::newRow("bad argument expression")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"expect\": {\"tool_called\": [{\"name\": "
                          "\"calculator\", "
                          "\"arguments\": {\"expression\": {\"matches\": \"[0-\"}}}]}}")
            << u"line 1: \"expression\" is not a valid regular expression: missing terminating ] for "
               u"character "
               "class at offset 3"_s;
        QTest::newRow("tool_called without a name")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"expect\": {\"tool_called\": "
                          "[{\"arguments\": {}}]}}")
            << u"line 1: every entry of \"tool_called\" needs a tool name"_s;
        QTest::newRow("unknown outcome")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"expect\": {\"outcome\": \"done\"}}")
            << u"line 1: unknown outcome \"done\" (known: answered, reflected, summarised, fallback, "
               u"handed_off, "
               "blocked, error_limit, token_budget, time_limit, cancelled, failed, forced_final)"_s;
        QTest::newRow("reproduced on a live case")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"expect\": {\"reproduced\": true}}")
            << u"line 1: \"reproduced\" is for cases that replay a session"_s;
        QTest::newRow("a replay with a prompt")
            << QByteArray("{\"name\": \"x\", \"session\": \"recorded.loopscope.json\", \"prompt\": \"p\"}")
            << u"line 1: a case that replays a session takes its prompt, provider, tools and limits from the "
               "recording: leave out \"prompt\""_s;
        QTest::newRow("a missing session")
            << QByteArray("{\"name\": \"x\", \"session\": \"gone.loopscope.json\"}")
            << u"line 1: cannot read the session \"%1/gone.loopscope.json\": "_s;
        QTest::newRow("a turn the session does not have")
            << QByteArray("{\"name\": \"x\", \"session\": \"recorded.loopscope.json\", \"turn\": 2}")
            << u"line 1: the session \"%1/recorded.loopscope.json\" has 1 turns, not 2"_s;
        QTest::newRow("an attachment that is missing")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"attachments\": [\"gone.png\"]}")
            << u"line 1: Cannot attach '%1/gone.png': the file does not exist."_s;
        QTest::newRow("an attachment that cannot be sent")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"attachments\": [\"notes/program.bin\"]}")
            << u"line 1: Cannot attach 'program.bin': it is "_s;
        QTest::newRow("attachments on a replay")
            << QByteArray("{\"name\": \"x\", \"session\": \"recorded.loopscope.json\", \"attachments\": "
                          "[\"a.txt\"]}")
            << u"line 1: a case that replays a session takes its prompt, provider, tools and limits from the "
               "recording: leave out \"attachments\""_s;
        QTest::newRow("an unknown retrieval") << QByteArray(
            "{\"name\": \"x\", \"prompt\": \"p\", \"knowledge\": \"docs\", \"retrieve\": \"always\"}")
                                              << u"line 1: \"retrieve\" takes \"tool\" or \"auto\""_s;
        QTest::newRow("knowledge on a replay")
            << QByteArray(
                   "{\"name\": \"x\", \"session\": \"recorded.loopscope.json\", \"knowledge\": \"docs\"}")
            << u"line 1: a case that replays a session takes its prompt, provider, tools and limits from the "
               "recording: leave out \"knowledge\""_s;
        QTest::newRow("retrieved that is not a string")
            << QByteArray("{\"name\": \"x\", \"prompt\": \"p\", \"expect\": {\"retrieved\": 3}}")
            << u"line 1: \"retrieved\" must be a non-empty string or a list of them"_s;
        QTest::newRow("no cases") << "\n\n"_ba << u"the suite has no cases: write one JSON object per line"_s;
    }

    void aBadLineIsNamedWithWhatIsWrong()
    {
        QFETCH(QByteArray, suite);
        QFETCH(QString, error);
        const QString expected = error.contains(u"%1"_s) ? error.arg(m_dir.path()) : error;
        QString actual;

        const std::optional<QList<EvalCase>> cases = EvalSuite::parse(suite, QDir(m_dir.path()), &actual);

        QVERIFY(!cases);
        // The reason a file cannot be read comes from the transcript reader or the attachment loader,
        // worded there.
        if (expected.endsWith(u": "_s) || expected.endsWith(u" is "_s))
            QVERIFY2(actual.startsWith(expected), qPrintable(actual));
        else
            QCOMPARE(actual, expected);
    }

    void aMissingSuiteFileIsNamed()
    {
        QString error;

        QVERIFY(!EvalSuite::load(m_dir.filePath(u"missing.jsonl"_s), &error));

        QCOMPARE(error,
                 u"cannot read the suite \"%1\": no such file"_s.arg(m_dir.filePath(u"missing.jsonl"_s)));
    }
};

QTEST_GUILESS_MAIN(EvalSuiteTest)
#include "tst_evalsuite.moc"
