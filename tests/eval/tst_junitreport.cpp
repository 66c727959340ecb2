#include "agent/eval/junitreport.h"

#include <QTest>
#include <QXmlStreamReader>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

EvalCaseResult result(const QString &name, EvalCaseResult::Status status, const QStringList &messages)
{
    EvalCaseResult result;
    result.name = name;
    result.status = status;
    result.messages = messages;
    result.durationMs = 1250;
    result.observation.outcome = u"answered"_s;
    result.observation.iterations = 2;
    result.observation.answer = u"4 < 5 & \"quoted\""_s;
    result.observation.toolCalls = {{u"calculator"_s, u"{\"expression\":\"2+2\"}"_s, u"2+2 = 4"_s, false}};
    return result;
}

struct Element
{
    QString name;
    QXmlStreamAttributes attributes;
    QString text;
};

// Every element of the report with its attributes and text; fails the test on XML that does not parse.
QList<Element> read(const QByteArray &xml)
{
    QList<Element> elements;
    QXmlStreamReader reader(xml);
    while (!reader.atEnd()) {
        reader.readNext();
        if (reader.isStartElement())
            elements.append({reader.name().toString(), reader.attributes(), {}});
        else if (reader.isCharacters() && !reader.isWhitespace() && !elements.isEmpty())
            elements.last().text += reader.text();
    }
    if (reader.hasError())
        qWarning() << "the report is not well-formed:" << reader.errorString();
    return reader.hasError() ? QList<Element>() : elements;
}

} // namespace

class JUnitReportTest : public QObject
{
    Q_OBJECT

private slots:
    void theReportCountsEachKindOfResult()
    {
        const QList<EvalCaseResult> results{
            result(u"passes"_s, EvalCaseResult::Status::Passed, {}),
            result(u"fails"_s, EvalCaseResult::Status::Failed,
                   {u"the answer does not contain \"5\""_s,
                    u"the turn took 2 iterations, expected at most 1"_s}),
            result(u"errs"_s, EvalCaseResult::Status::Error, {u"timed out after 30 s"_s}),
            result(u"skipped"_s, EvalCaseResult::Status::Skipped, {u"cancelled"_s})};

        const QList<Element> elements = read(JUnitReport::toXml(u"smoke"_s, results, 4321));

        QCOMPARE(elements.size(),
                 2 + 4 + 3 + 4); // suites, suite, cases, their failure/error/skipped, system-outs
        QCOMPARE(elements.at(0).name, u"testsuites"_s);
        const Element &suite = elements.at(1);
        QCOMPARE(suite.name, u"testsuite"_s);
        QCOMPARE(suite.attributes.value(u"name"_s), u"smoke"_s);
        QCOMPARE(suite.attributes.value(u"tests"_s), u"4"_s);
        QCOMPARE(suite.attributes.value(u"failures"_s), u"1"_s);
        QCOMPARE(suite.attributes.value(u"errors"_s), u"1"_s);
        QCOMPARE(suite.attributes.value(u"skipped"_s), u"1"_s);
        QCOMPARE(suite.attributes.value(u"time"_s), u"4.321"_s);

        QStringList names;
        for (const Element &element : elements)
            names.append(element.name);
        QCOMPARE(names.mid(2), (QStringList{u"testcase"_s, u"system-out"_s, u"testcase"_s, u"failure"_s,
                                            u"system-out"_s, u"testcase"_s, u"error"_s, u"system-out"_s,
                                            u"testcase"_s, u"skipped"_s, u"system-out"_s}));
        const Element &passes = elements.at(2);
        QCOMPARE(passes.attributes.value(u"classname"_s), u"smoke"_s);
        QCOMPARE(passes.attributes.value(u"time"_s), u"1.250"_s);
        const Element &failure = elements.at(5);
        QCOMPARE(failure.attributes.value(u"message"_s), u"the answer does not contain \"5\""_s);
        QCOMPARE(failure.attributes.value(u"type"_s), u"expectation"_s);
        QCOMPARE(failure.text,
                 u"the answer does not contain \"5\"\nthe turn took 2 iterations, expected at most 1"_s);
        QCOMPARE(elements.at(8).attributes.value(u"message"_s), u"timed out after 30 s"_s);
        QCOMPARE(elements.at(11).attributes.value(u"message"_s), u"cancelled"_s);
    }

    void systemOutHoldsTheAnswerAndTheToolCalls()
    {
        const QList<Element> elements
            = read(JUnitReport::toXml(u"s"_s, {result(u"c"_s, EvalCaseResult::Status::Passed, {})}, 0));

        QCOMPARE(elements.constLast().name, u"system-out"_s);
        QCOMPARE(elements.constLast().text,
                 u"outcome: answered, iterations: 2\n"
                 "answer:\n4 < 5 & \"quoted\"\n"
                 "tool calls:\ncalculator {\"expression\":\"2+2\"} -> 2+2 = 4\n"_s);
    }

    void textXmlCannotHoldIsReplacedAndTheReportStillParses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shown");

        QTest::newRow("markup") << u"<b>&amp;</b> \"x\" 'y'"_s << u"<b>&amp;</b> \"x\" 'y'"_s;
        QTest::newRow("control characters") << u"a\u0001b\u001bc\td"_s << u"a\uFFFDb\uFFFDc\td"_s;
        QTest::newRow("a lone surrogate") << QString(u"x"_s + QChar(0xD800) + u"y"_s) << u"x\uFFFDy"_s;
        QTest::newRow("an emoji") << u"ok \U0001F600"_s << u"ok \U0001F600"_s;
    }

    void textXmlCannotHoldIsReplacedAndTheReportStillParses()
    {
        QFETCH(QString, text);
        QFETCH(QString, shown);

        const QList<Element> elements = read(JUnitReport::toXml(
            text, {result(text, EvalCaseResult::Status::Failed, {u"the answer was "_s + text})}, 0));

        QVERIFY(!elements.isEmpty());
        QCOMPARE(elements.at(1).attributes.value(u"name"_s), shown);
        QCOMPARE(elements.at(2).attributes.value(u"name"_s), shown);
        QCOMPARE(elements.at(3).attributes.value(u"message"_s), QString(u"the answer was "_s + shown));
    }
};

QTEST_GUILESS_MAIN(JUnitReportTest)
#include "tst_junitreport.moc"
