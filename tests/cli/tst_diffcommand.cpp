#include "app/cli/diffcommand.h"
#include "tests/replay/recordingfixture.h"
#include "tests/support/commandoutput.h"
#include "translations/translations.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;

namespace {

// Runs `loopscope diff` in this process, its output captured.
CommandOutput diff(const QStringList &arguments)
{
    return runCommand<Cli::DiffCommand>(u"diff"_s, arguments);
}

} // namespace

class DiffCommandTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    // Saved as the app saves sessions.
    void save(const QString &name, const Transcript &transcript)
    {
        QString error;
        QVERIFY2(TranscriptFile::save(transcript, m_dir.filePath(name), &error), qPrintable(error));
    }

    // A session with the standard turn, then "Again?" answered with \a again.
    void record(const QString &name, const QList<Step> &steps, int multiplyBias = 0,
                const QString &again = u"Yes."_s)
    {
        Recording recording;
        recording.tools.multiplyBias = multiplyBias;
        recording.run(question, steps);
        recording.run(u"Again?"_s, {ScriptedModelClient::text(again)});
        save(name, recording.transcript());
    }

private slots:
    void initTestCase()
    {
        Translations::install();
        QVERIFY(m_dir.isValid());
        record(u"recorded.loopscope.json"_s, threeIterations());
        record(u"same.loopscope.json"_s, threeIterations());
        record(u"biased.loopscope.json"_s, threeIterations(), 1);
        record(u"shorter.loopscope.json"_s,
               {ScriptedModelClient::calls({add(u"c1"_s, 2, 3), multiply(u"c2"_s, 4, 5)}),
                ScriptedModelClient::text(answer)});
        record(u"terse.loopscope.json"_s, threeIterations(), 0, u"Yes, again."_s);
        save(u"empty.loopscope.json"_s, Transcript{});
        QFile garbage(m_dir.filePath(u"garbage.loopscope.json"_s));
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write("{ this is not json");
    }

    void theCommandPrintsTheSummaryAndTheStepsAndExitsWithWhatItFound_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("code");
        QTest::addColumn<QStringList>("lines"); // the first printed lines start with these, in order
        QTest::addColumn<QString>("line");      // and one of the lines matches this pattern
        QTest::addColumn<QString>("error");     // what stderr contains

        QTest::newRow("two sessions that did the same")
            << QStringList{u"recorded.loopscope.json"_s, u"same.loopscope.json"_s} << 0
            << QStringList{u"identical"_s, u"A: recorded.loopscope.json, turn 2"_s,
                           u"B: same.loopscope.json, turn 2"_s, u" = question"_s}
            << u"^ ~ tokens +\\d+ in · \\d+ out +\\| \\d+ in · \\d+ out$"_s << QString();
        QTest::newRow("one tool result differs")
            << QStringList{u"--turn"_s, u"1"_s, u"recorded.loopscope.json"_s, u"biased.loopscope.json"_s} << 1
            << QStringList{u"diverged at iteration 1: multiply results differ"_s,
                           u"A: recorded.loopscope.json, turn 1"_s}
            << u"^\\*!     result +20 +\\| 21$"_s << QString();
        QTest::newRow("the number of iterations differs")
            << QStringList{u"--turn"_s, u"1"_s, u"recorded.loopscope.json"_s, u"shorter.loopscope.json"_s}
            << 1
            << QStringList{u"diverged at iteration 2: only the left run calls add (3 iterations against 2)"_s}
            << u"^ < iteration 3 "_s << QString();
        QTest::newRow("only the answer differs")
            << QStringList{u"recorded.loopscope.json"_s, u"terse.loopscope.json"_s} << 1
            << QStringList{u"same steps; the answers differ"_s}
            << u"^\\*! answer +Yes\\. +\\| Yes, again\\.$"_s << QString();
        QTest::newRow("two turns of one session")
            << QStringList{u"--turn"_s,
                           u"1"_s,
                           u"--turn-b"_s,
                           u"2"_s,
                           u"recorded.loopscope.json"_s,
                           u"recorded.loopscope.json"_s}
            << 1
            << QStringList{u"the questions differ"_s, u"A: recorded.loopscope.json, turn 1"_s,
                           u"B: recorded.loopscope.json, turn 2"_s}
            << u"^\\*! question +What is .* \\| Again\\?$"_s << QString();
        QTest::newRow("a turn that is not there")
            << QStringList{u"--turn"_s, u"3"_s, u"recorded.loopscope.json"_s, u"same.loopscope.json"_s} << 2
            << QStringList{} << QString() << u"has 2 turns, not 3"_s;
        QTest::newRow("a turn that is not a number")
            << QStringList{u"--turn-b"_s, u"last"_s, u"recorded.loopscope.json"_s, u"same.loopscope.json"_s}
            << 2 << QStringList{} << QString() << u"take a turn number from 1"_s;
        QTest::newRow("a session without turns")
            << QStringList{u"recorded.loopscope.json"_s, u"empty.loopscope.json"_s} << 2 << QStringList{}
            << QString() << u"has no turns"_s;
        QTest::newRow("a file that is not a session")
            << QStringList{u"garbage.loopscope.json"_s, u"same.loopscope.json"_s} << 2 << QStringList{}
            << QString() << u"cannot read"_s;
        QTest::newRow("a file that is not there")
            << QStringList{u"recorded.loopscope.json"_s, u"missing.loopscope.json"_s} << 2 << QStringList{}
            << QString() << u"cannot read"_s;
        QTest::newRow("one file") << QStringList{u"recorded.loopscope.json"_s} << 2 << QStringList{}
                                  << QString() << u"give two saved session files"_s;
        QTest::newRow("an unknown option")
            << QStringList{u"--fast"_s, u"recorded.loopscope.json"_s, u"same.loopscope.json"_s} << 2
            << QStringList{} << QString() << u"fast"_s;
    }

    void theCommandPrintsTheSummaryAndTheStepsAndExitsWithWhatItFound()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, code);
        QFETCH(QStringList, lines);
        QFETCH(QString, line);
        QFETCH(QString, error);

        for (QString &argument : arguments) {
            if (argument.endsWith(u".json"_s))
                argument = m_dir.filePath(argument);
        }
        const CommandOutput output = diff(arguments);
        QCOMPARE(output.code, code);
        QVERIFY(output.lines.size() >= lines.size());
        for (int i = 0; i < lines.size(); ++i) {
            QString printed = output.lines.at(i);
            printed.replace(m_dir.path() + u'/', QString()); // the sources name the file without its folder
            QVERIFY2(printed.startsWith(lines.at(i)), qPrintable(printed));
        }
        if (!line.isEmpty()) {
            const QRegularExpression pattern(line);
            QVERIFY(pattern.isValid());
            const bool found
                = std::any_of(output.lines.cbegin(), output.lines.cend(),
                              [&](const QString &printed) { return pattern.match(printed).hasMatch(); });
            QVERIFY2(found, qPrintable(output.lines.join(u'\n')));
        }
        if (error.isEmpty())
            QCOMPARE(output.errors, QString());
        else
            QVERIFY2(output.errors.contains(error), qPrintable(output.errors));
        if (code == 2)
            QVERIFY(output.lines.isEmpty());
    }

    void theHelpNamesTheMarksAndTheExitCodes()
    {
        const CommandOutput output = diff({u"--help"_s});
        QCOMPARE(output.code, 0);
        const QString help = output.lines.join(u'\n');
        QVERIFY(help.contains(u"diff [options] A B"_s));
        QVERIFY(help.contains(u"--turn-b <m>"_s));
        QVERIFY(help.contains(u"1  they differ"_s));
        QVERIFY(help.contains(u"*  the first difference"_s));
    }
};

QTEST_GUILESS_MAIN(DiffCommandTest)
#include "tst_diffcommand.moc"
