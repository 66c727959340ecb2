#include "agent/eval/evalsuite.h"
#include "agent/eval/expectationevaluator.h"

#include <QJsonDocument>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

// A three-iteration turn: the calculator and the clock, then the calculator again, then the answer.
EvalObservation answeredTurn()
{
    EvalObservation observed;
    observed.outcome = u"answered"_s;
    observed.answer = u"17% of 2340 is 397.8; 1942.2 is left."_s;
    observed.iterations = 3;
    observed.toolCalls
        = {{u"calculator"_s, u"{\"expression\":\"0.17*2340\"}"_s, u"0.17*2340 = 397.8"_s, false},
           {u"current_time"_s, u"{\"timezone\":\"UTC\",\"format\":{\"style\":\"iso\"}}"_s,
            u"2026-11-22T03:29:30+00:00"_s, false},
           {u"calculator"_s, u"{\"expression\":\"2340-397.8\",\"precision\":2}"_s, u"2340-397.8 = 1942.2"_s,
            false}};
    return observed;
}

EvalObservation withToolError()
{
    EvalObservation observed = answeredTurn();
    observed.toolCalls[1].isError = true;
    observed.toolCalls[1].result = u"Unknown time zone \"Mars/Olympus\""_s;
    return observed;
}

EvalObservation endedAs(const QString &outcome, const QString &error)
{
    EvalObservation observed = answeredTurn();
    observed.outcome = outcome;
    observed.answer.clear();
    observed.error = error;
    return observed;
}

EvalObservation costing(double usd)
{
    EvalObservation observed = answeredTurn();
    observed.costUsd = usd;
    return observed;
}

EvalObservation retrieving(const QStringList &paths)
{
    EvalObservation observed = answeredTurn();
    observed.retrievedPaths = paths;
    return observed;
}

EvalObservation replayed(const QString &difference)
{
    EvalObservation observed = answeredTurn();
    observed.replayDifference = difference;
    return observed;
}

// The expectations as a suite writes them, read by the suite's own reader.
EvalExpectations expectations(const QByteArray &expect, bool replay = false)
{
    QString error;
    const QByteArray source = replay ? R"("session": ")" + QByteArray(LOOPSCOPE_EXAMPLE_SESSION) + "\""
                                     : QByteArray(R"("prompt": "p")");
    const QByteArray line = R"({"name": "c", )" + source + R"(, "expect": )" + expect + "}";
    const std::optional<QList<EvalCase>> cases = EvalSuite::parse(line, QDir::current(), &error);
    if (!cases)
        qFatal("the test's expectations do not parse: %s", qPrintable(error));
    return cases->constFirst().expect;
}

} // namespace

class ExpectationEvaluatorTest : public QObject
{
    Q_OBJECT

private slots:
    void eachExpectationPassesOrSaysWhatWasWrong_data()
    {
        QTest::addColumn<QByteArray>("expect");
        QTest::addColumn<EvalObservation>("observed");
        QTest::addColumn<QStringList>("failures");
        QTest::addColumn<QStringList>("errors");

        const EvalObservation turn = answeredTurn();
        const QString answer = u"(answer: \"17% of 2340 is 397.8; 1942.2 is left.\")"_s;

        QTest::newRow("nothing expected, an answer") << "{}"_ba << turn << QStringList() << QStringList();
        QTest::newRow("answer_contains a string")
            << R"({"answer_contains": "397.8"})"_ba << turn << QStringList() << QStringList();
        QTest::newRow("answer_contains a list, one missing")
            << R"({"answer_contains": ["397.8", "Paris", "1942.2"]})"_ba << turn
            << QStringList{u"the answer does not contain \"Paris\" "_s + answer} << QStringList();
        QTest::newRow("answer_matches")
            << R"({"answer_matches": "is \\d+\\.\\d;"})"_ba << turn << QStringList() << QStringList();
        QTest::newRow("answer_matches, no match")
            << R"({"answer_matches": "^\\d+$"})"_ba << turn
            << QStringList{u"the answer does not match /^\\d+$/ "_s + answer} << QStringList();
        QTest::newRow("tool_called by name")
            << R"({"tool_called": ["current_time"]})"_ba << turn << QStringList() << QStringList();
        QTest::newRow("tool_called with exact arguments")
            << R"({"tool_called": [{"name": "calculator", "arguments": {"expression": "2340-397.8", "precision": 2}}]})"_ba
            << turn << QStringList() << QStringList();
        QTest::newRow("tool_called with a regular expression")
            << R"({"tool_called": [{"name": "calculator", "arguments": {"expression": {"matches": "^0\\.17\\*"}}}]})"_ba
            << turn << QStringList() << QStringList();
        QTest::newRow("tool_called with a nested object")
            << R"({"tool_called": [{"name": "current_time", "arguments": {"format": {"style": {"matches": "^is"}}}}]})"_ba
            << turn << QStringList() << QStringList();
        QTest::newRow("tool_called, no call matches the expression")
            << R"({"tool_called": [{"name": "calculator", "arguments": {"expression": {"matches": "^17"}}}]})"_ba
            << turn
            << QStringList{u"calculator was never called with expression matching /^17/ (2 calls; in the "
                           u"first, "
                           "expression is \"0.17*2340\")"_s}
            << QStringList();
        QTest::newRow("tool_called, a field missing")
            << R"({"tool_called": [{"name": "current_time", "arguments": {"timezone": "UTC", "locale": "fr"}}]})"_ba
            << turn
            << QStringList{u"current_time was never called with locale = \"fr\", timezone = \"UTC\" (1 call; "
                           u"in "
                           "the first, it has no locale)"_s}
            << QStringList();
        QTest::newRow("tool_called, a nested value differs")
            << R"({"tool_called": [{"name": "current_time", "arguments": {"format": {"style": "rfc"}}}]})"_ba
            << turn
            << QStringList{u"current_time was never called with format = {\"style\":\"rfc\"} (1 call; in the "
                           u"first, "
                           "format.style is \"iso\")"_s}
            << QStringList();
        QTest::newRow("tool_called, never called")
            << R"({"tool_called": ["read_file"]})"_ba << turn
            << QStringList{u"read_file was not called (called: calculator, current_time)"_s} << QStringList();
        QTest::newRow("tool_not_called") << R"({"tool_not_called": ["read_file", "search_files"]})"_ba << turn
                                         << QStringList() << QStringList();
        QTest::newRow("tool_not_called, but called")
            << R"({"tool_not_called": "calculator"})"_ba << turn
            << QStringList{u"calculator was called, expected not to be (2 calls; the first with "
                           "{\"expression\":\"0.17*2340\"})"_s}
            << QStringList();
        QTest::newRow("max_iterations")
            << R"({"max_iterations": 3})"_ba << turn << QStringList() << QStringList();
        QTest::newRow("max_iterations, more")
            << R"({"max_iterations": 2})"_ba << turn
            << QStringList{u"the turn took 3 iterations, expected at most 2"_s} << QStringList();
        QTest::newRow("no_error_results")
            << R"({"no_error_results": true})"_ba << turn << QStringList() << QStringList();
        QTest::newRow("no_error_results, an error")
            << R"({"no_error_results": true})"_ba << withToolError()
            << QStringList{u"current_time returned an error: \"Unknown time zone \"Mars/Olympus\"\""_s}
            << QStringList();
        QTest::newRow("no_error_results false lets errors pass")
            << R"({"no_error_results": false})"_ba << withToolError() << QStringList() << QStringList();
        QTest::newRow("outcome") << R"({"outcome": "answered"})"_ba << turn << QStringList() << QStringList();
        QTest::newRow("outcome differs")
            << R"({"outcome": "forced_final"})"_ba << turn
            << QStringList{u"the turn ended as answered, expected forced_final"_s} << QStringList();
        QTest::newRow("outcome names a limit the turn hit")
            << R"({"outcome": "error_limit"})"_ba << endedAs(u"error_limit"_s, u"too many errors"_s)
            << QStringList() << QStringList();
        QTest::newRow("no answer where one was expected")
            << "{}"_ba << endedAs(u"error_limit"_s, u"3 iterations in a row ended in errors"_s)
            << QStringList{u"the turn ended without an answer (error_limit): 3 iterations in a row ended in errors"_s}
            << QStringList();
        QTest::newRow("a model that failed is an error, not a failure")
            << R"({"answer_contains": "397.8"})"_ba
            << endedAs(u"failed"_s, u"the API key was rejected (401)"_s)
            << QStringList{u"the answer does not contain \"397.8\" (answer: \"\")"_s}
            << QStringList{u"the turn ended without an answer (failed): the API key was rejected (401)"_s};
        QTest::newRow("a model that failed is an error whatever outcome was expected")
            << R"({"outcome": "answered"})"_ba << endedAs(u"failed"_s, u"could not reach localhost"_s)
            << QStringList()
            << QStringList{u"the turn ended without an answer (failed): could not reach localhost"_s};
        QTest::newRow("a failure that was expected")
            << R"({"outcome": "failed"})"_ba << endedAs(u"failed"_s, u"could not reach localhost"_s)
            << QStringList() << QStringList();
        QTest::newRow("max_cost_usd without prices")
            << R"({"max_cost_usd": 0.01})"_ba << turn << QStringList()
            << QStringList{u"cost expectations need prices: not every model call of this turn has a known "
                           u"price (set prices in "
                           "the provider profile or the suite's model)"_s};
        QTest::newRow("max_cost_usd, cheaper")
            << R"({"max_cost_usd": 0.01})"_ba << costing(0.005) << QStringList() << QStringList();
        QTest::newRow("max_cost_usd, dearer")
            << R"({"max_cost_usd": 0.01})"_ba << costing(0.02)
            << QStringList{u"the turn cost $0.0200, expected at most $0.0100"_s} << QStringList();
        const EvalObservation searched = retrieving({u"/docs/handbook/refunds.md"_s, u"/docs/canteen.md"_s});
        QTest::newRow("retrieved, a source found")
            << R"({"retrieved": "handbook/refunds"})"_ba << searched << QStringList() << QStringList();
        QTest::newRow("retrieved, a source missing")
            << R"({"retrieved": ["canteen.md", "travel.md"]})"_ba << searched
            << QStringList{u"no passage from \"travel.md\" was retrieved (found: /docs/handbook/refunds.md, "
                           "/docs/canteen.md)"_s}
            << QStringList();
        QTest::newRow("retrieved, nothing was searched")
            << R"({"retrieved": "refunds.md"})"_ba << turn
            << QStringList{u"no passage from \"refunds.md\" was retrieved: the turn found no passage"_s}
            << QStringList();
        QTest::newRow("a replay that reproduced")
            << "{}"_ba << replayed({}) << QStringList() << QStringList();
        QTest::newRow("a replay that diverged")
            << "{}"_ba << replayed(u"diverged at model call 2: the tools differ"_s)
            << QStringList{u"diverged at model call 2: the tools differ"_s} << QStringList();
    }

    void eachExpectationPassesOrSaysWhatWasWrong()
    {
        QFETCH(QByteArray, expect);
        QFETCH(EvalObservation, observed);
        QFETCH(QStringList, failures);
        QFETCH(QStringList, errors);

        const EvalVerdict verdict = ExpectationEvaluator::evaluate(expectations(expect), observed);

        QCOMPARE(verdict.failures, failures);
        QCOMPARE(verdict.errors, errors);
        QCOMPARE(verdict.passed(), failures.isEmpty() && errors.isEmpty());
    }

    void aReplayMayBeExpectedNotToReproduce()
    {
        const EvalExpectations expect
            = expectations(R"({"reproduced": false, "answer_contains": "397.8"})", true);

        const EvalVerdict verdict
            = ExpectationEvaluator::evaluate(expect, replayed(u"diverged at model call 1: …"_s));

        QVERIFY(verdict.passed());
    }
};

QTEST_GUILESS_MAIN(ExpectationEvaluatorTest)
#include "tst_expectationevaluator.moc"
