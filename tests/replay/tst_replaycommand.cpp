#include "agent/safety/ruleshield.h"
#include "app/cli/replaycommand.h"
#include "tests/replay/recordingfixture.h"
#include "tests/support/commandoutput.h"

#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;

namespace {

// Runs `loopscope replay` in this process, its output captured.
CommandOutput replay(const QStringList &arguments)
{
    return runCommand<Cli::ReplayCommand>(u"replay"_s, arguments);
}

} // namespace

class ReplayCommandTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString save(const QString &name, const Transcript &transcript)
    {
        const QString path = m_dir.filePath(name);
        QString error;
        if (!TranscriptFile::save(transcript, path, &error))
            qWarning("cannot save %s: %s", qPrintable(path), qPrintable(error));
        return path;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        Transcript changed = fourTurns();
        QVERIFY(changeRecordedResult(changed.trace, u"c2"_s, u"21"_s));
        save(u"same.loopscope.json"_s, fourTurns());
        save(u"changed.loopscope.json"_s, changed);

        Recording blocked;
        auto shield = std::make_shared<RuleShield>();
        QVERIFY(
            !shield->addRule({RuleShield::Rule::Kind::Keyword, u"password"_s, {ShieldStage::Input}, {}, {}}));
        blocked.agent.addShield(shield);
        blocked.run(u"my password is hunter2"_s, {});
        save(u"blocked.loopscope.json"_s, blocked.transcript());
        save(u"empty.loopscope.json"_s, Transcript{});

        QFile garbage(m_dir.filePath(u"garbage.loopscope.json"_s));
        QVERIFY(garbage.open(QIODevice::WriteOnly));
        garbage.write("{ this is not json");
    }

    void theCommandReportsEachTurnAndExitsWithWhatHappened_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("code");
        QTest::addColumn<QStringList>("lines"); // each printed line starts with one of these, in order
        QTest::addColumn<QString>("error");     // what stderr contains

        QTest::newRow("a session that reproduces")
            << QStringList{u"same.loopscope.json"_s} << 0
            << QStringList{u"turn 1: reproduced"_s, u"turn 2: reproduced"_s, u"turn 3: reproduced"_s,
                           u"turn 4: reproduced"_s}
            << QString();
        QTest::newRow("a session with a changed tool result")
            << QStringList{u"changed.loopscope.json"_s} << 1
            << QStringList{u"turn 1: reproduced"_s,
                           u"turn 2: diverged at model call 2: message 8 (tool result of multiply) differs: "
                           "recorded \"20\", now \"21\""_s,
                           u"turn 3: reproduced"_s, u"turn 4: reproduced"_s}
            << QString();
        QTest::newRow("one turn of it") << QStringList{u"--turn"_s, u"2"_s, u"changed.loopscope.json"_s} << 1
                                        << QStringList{u"turn 2: diverged at model call 2"_s} << QString();
        QTest::newRow("live tools that are not built in")
            << QStringList{u"--live-tools"_s, u"--turn"_s, u"1"_s, u"same.loopscope.json"_s} << 1
            << QStringList{u"turn 1: diverged at model call 2: message 4 (tool result of add) differs: "
                           u"recorded \"5\", "
                           "now \"The tool add is not available here"_s}
            << QString();
        QTest::newRow("a session whose only turn was blocked")
            << QStringList{u"blocked.loopscope.json"_s} << 2
            << QStringList{u"turn 1: skipped: No model call was recorded"_s}
            << u"no turn could be replayed"_s;
        QTest::newRow("a session without turns")
            << QStringList{u"empty.loopscope.json"_s} << 2 << QStringList{} << u"has no turns to replay"_s;
        QTest::newRow("a file that is not a session")
            << QStringList{u"garbage.loopscope.json"_s} << 2 << QStringList{} << u"cannot replay"_s;
        QTest::newRow("a file that is not there")
            << QStringList{u"missing.loopscope.json"_s} << 2 << QStringList{} << u"cannot replay"_s;
        QTest::newRow("a turn that is not there")
            << QStringList{u"--turn"_s, u"5"_s, u"same.loopscope.json"_s} << 2 << QStringList{}
            << u"has 4 turns, not 5"_s;
        QTest::newRow("a turn that is not a number")
            << QStringList{u"--turn"_s, u"two"_s, u"same.loopscope.json"_s} << 2 << QStringList{}
            << u"--turn takes a turn number from 1"_s;
        QTest::newRow("no file") << QStringList{} << 2 << QStringList{}
                                 << u"give exactly one saved session file"_s;
        QTest::newRow("an unknown option")
            << QStringList{u"--fast"_s, u"same.loopscope.json"_s} << 2 << QStringList{} << u"fast"_s;
    }

    void theCommandReportsEachTurnAndExitsWithWhatHappened()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, code);
        QFETCH(QStringList, lines);
        QFETCH(QString, error);

        for (QString &argument : arguments) {
            if (argument.endsWith(u".json"_s))
                argument = m_dir.filePath(argument);
        }
        const CommandOutput output = replay(arguments);
        QCOMPARE(output.code, code);
        QCOMPARE(output.lines.size(), lines.size());
        for (int i = 0; i < lines.size(); ++i)
            QVERIFY2(output.lines.at(i).startsWith(lines.at(i)), qPrintable(output.lines.at(i)));
        if (error.isEmpty())
            QCOMPARE(output.errors, QString());
        else
            QVERIFY2(output.errors.contains(error), qPrintable(output.errors));
    }

    void theHelpNamesTheExitCodes()
    {
        const CommandOutput output = replay({u"--help"_s});
        QCOMPARE(output.code, 0);
        const QString help = output.lines.join(u'\n');
        QVERIFY(help.contains(u"replay [options] FILE"_s));
        QVERIFY(help.contains(u"--live-tools"_s));
        QVERIFY(help.contains(u"1  at least one turn diverged"_s));
    }
};

QTEST_GUILESS_MAIN(ReplayCommandTest)
#include "tst_replaycommand.moc"
