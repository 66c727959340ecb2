#include "agent/session/agentlistmodel.h"
#include "agent/session/agentstore.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

AgentPreset preset(const QString &name, const QString &instructions)
{
    AgentPreset agent;
    agent.name = name;
    agent.instructions = instructions;
    return agent;
}

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

} // namespace

class AgentStoreTest : public QObject
{
    Q_OBJECT

private slots:
    void anEditMakesANewVersionAndTheOldOneIsKept()
    {
        QTemporaryDir dir;
        AgentStore store(dir.path());
        QString error;

        const auto first = store.save({}, preset(u"billing"_s, u"Answer invoices."_s), &error);
        QVERIFY2(first, qPrintable(error));
        QCOMPARE(first->version, 1);
        AgentPreset edited = *first;
        edited.instructions = u"Answer invoices politely."_s;
        edited.provider = u"Local"_s;
        const auto second = store.save(u"billing"_s, edited, &error);
        QVERIFY2(second, qPrintable(error));
        QCOMPARE(second->version, 2);
        // Saving what is already stored is no edit.
        QCOMPARE(store.save(u"billing"_s, *second, &error)->version, 2);

        const QList<AgentVersion> history = store.history(u"billing"_s);
        QCOMPARE(history.size(), 2);
        QCOMPARE(history.at(0).definition.instructions, u"Answer invoices."_s);
        QCOMPARE(history.at(1).definition, *second);
        QVERIFY(history.at(1).time.isValid());
        QCOMPARE(store.definition(u"billing"_s, 1)->value(u"instructions"_s).toString(),
                 u"Answer invoices."_s);
        QCOMPARE(store.definition(u"billing"_s, 2)->value(u"provider"_s).toString(), u"Local"_s);
        QVERIFY(!store.definition(u"billing"_s, 3));
        QCOMPARE(store.roster().find(u"billing"_s)->version, 2);
    }

    void theAgentsAndTheirVersionsSurviveReopening()
    {
        QTemporaryDir dir;
        QString error;
        {
            AgentStore store(dir.path());
            AgentPreset triage = preset(u"triage"_s, u"Route."_s);
            triage.handoffs = {u"billing"_s};
            QVERIFY(store.save({}, preset(u"billing"_s, u"Bill."_s), &error));
            QVERIFY2(store.save({}, triage, &error), qPrintable(error));
            triage.instructions = u"Route carefully."_s;
            QVERIFY(store.save(u"triage"_s, triage, &error));
        }
        AgentStore reopened(dir.path());
        QVERIFY2(reopened.load(&error), qPrintable(error));

        QCOMPARE(reopened.roster().agents.size(), 2);
        QCOMPARE(reopened.roster().find(u"triage"_s)->version, 2);
        QCOMPARE(reopened.roster().find(u"triage"_s)->instructions, u"Route carefully."_s);
        QCOMPARE(reopened.history(u"triage"_s).size(), 2);
        QCOMPARE(reopened.history(u"triage"_s).at(0).definition.instructions, u"Route."_s);
        // The stored file is an agents file `loopscope run --agents` reads as it is.
        const std::optional<AgentRoster> file = AgentRoster::load(reopened.agentsPath(), &error);
        QVERIFY2(file, qPrintable(error));
        QCOMPARE(*file, reopened.roster());
    }

    void aBadImportChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::newRow("not JSON") << "{\"agents\": ["_ba;
        QTest::newRow("duplicate names")
            << R"({"agents":[{"name":"a","instructions":"x"},{"name":"a","instructions":"y"}]})"_ba;
        QTest::newRow("a handoff to an unknown agent")
            << R"({"agents":[{"name":"a","instructions":"x","handoffs":["nobody"]}]})"_ba;
        QTest::newRow("a sub-agent cycle")
            << R"({"agents":[{"name":"a","instructions":"x","subagents":["b"]},{"name":"b","instructions":"y","subagents":["a"]}]})"_ba;
        QTest::newRow("an unknown provider type")
            << R"({"agents":[{"name":"billing","instructions":"x","provider":["a"]}]})"_ba;
    }

    void aBadImportChangesNothing()
    {
        QFETCH(QByteArray, file);
        QTemporaryDir dir;
        AgentStore store(dir.path());
        QString error;
        QVERIFY(store.save({}, preset(u"billing"_s, u"Bill."_s), &error));
        const AgentRoster before = store.roster();
        const QByteArray agentsBefore = contents(store.agentsPath());
        const QByteArray historyBefore = contents(store.historyPath());
        const QString path = dir.filePath(u"import.json"_s);
        writeFile(path, file);
        QString expected;
        QVERIFY(!AgentRoster::load(path, &expected));
        QSignalSpy changed(&store, &AgentStore::changed);

        QVERIFY(!store.importFile(path, &error));

        QCOMPARE(error, expected); // the agents file's own message
        QCOMPARE(store.roster(), before);
        QCOMPARE(store.history(u"billing"_s).size(), 1);
        QCOMPARE(contents(store.agentsPath()), agentsBefore);
        QCOMPARE(contents(store.historyPath()), historyBefore);
        QCOMPARE(changed.count(), 0);
    }

    void anImportAddsNewAgentsAndVersionsChangedOnes()
    {
        QTemporaryDir dir;
        AgentStore store(dir.path());
        QString error;
        QVERIFY(store.save({}, preset(u"billing"_s, u"Bill."_s), &error));
        QVERIFY(store.save({}, preset(u"support"_s, u"Help."_s), &error));
        const QString path = dir.filePath(u"import.json"_s);
        writeFile(path, R"({"agents":[{"name":"billing","instructions":"Bill twice."},
                                      {"name":"support","instructions":"Help."},
                                      {"name":"triage","instructions":"Route.","handoffs":["billing"]}]})"_ba);

        QVERIFY2(store.importFile(path, &error), qPrintable(error));

        QCOMPARE(store.roster().find(u"billing"_s)->version, 2);
        QCOMPARE(store.roster().find(u"billing"_s)->instructions, u"Bill twice."_s);
        QCOMPARE(store.roster().find(u"support"_s)->version, 1); // the same: no new version
        QCOMPARE(store.roster().find(u"triage"_s)->version, 1);
        // What is exported reads back as the same agents.
        const QString exported = dir.filePath(u"export.json"_s);
        QVERIFY2(store.exportFile(exported, &error), qPrintable(error));
        QCOMPARE(*AgentRoster::load(exported, &error), store.roster());
    }

    void anAgentOthersNameCannotBeRemovedAndARenameIsFollowed()
    {
        QTemporaryDir dir;
        AgentStore store(dir.path());
        QString error;
        QVERIFY(store.save({}, preset(u"billing"_s, u"Bill."_s), &error));
        AgentPreset triage = preset(u"triage"_s, u"Route."_s);
        triage.handoffs = {u"billing"_s};
        QVERIFY(store.save({}, triage, &error));

        QVERIFY(!store.remove(u"billing"_s, &error));
        QVERIFY2(error.contains(u"triage"_s), qPrintable(error));
        QVERIFY(store.roster().find(u"billing"_s));

        const auto renamed = store.save(u"billing"_s, preset(u"invoices"_s, u"Bill."_s), &error);
        QVERIFY2(renamed, qPrintable(error));
        QCOMPARE(store.roster().find(u"triage"_s)->handoffs, QStringList{u"invoices"_s});
        QCOMPARE(store.history(u"invoices"_s).size(), 2); // its history went with it
        QVERIFY(store.history(u"billing"_s).isEmpty());
    }

    void aBadEditIsRefusedAndNothingIsStored_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("instructions");
        QTest::addColumn<QString>("problem");
        QTest::newRow("a name with a space") << u"two words"_s << u"x"_s << u"name"_s;
        QTest::newRow("a taken name") << u"billing"_s << u"x"_s << u"already an agent named"_s;
    }

    void aBadEditIsRefusedAndNothingIsStored()
    {
        QFETCH(QString, name);
        QFETCH(QString, instructions);
        QFETCH(QString, problem);
        QTemporaryDir dir;
        AgentStore store(dir.path());
        QString error;
        QVERIFY(store.save({}, preset(u"billing"_s, u"Bill."_s), &error));

        QVERIFY(!store.save({}, preset(name, instructions), &error));
        QVERIFY2(error.contains(problem), qPrintable(error));
        QCOMPARE(store.roster().agents.size(), 1);
    }

    void aFileThatCannotBeReadIsNeverWrittenOver()
    {
        QTemporaryDir dir;
        AgentStore store(dir.path());
        const QByteArray broken = R"({"agents":[{"name":"a","instructions":"x","handoffs":["gone"]}]})"_ba;
        writeFile(store.agentsPath(), broken);
        QString error;

        QVERIFY(!store.load(&error));
        QVERIFY2(error.contains(u"gone"_s), qPrintable(error));
        QVERIFY(!store.save({}, preset(u"billing"_s, u"Bill."_s), &error));
        QVERIFY2(error.contains(u"not written over"_s), qPrintable(error));
        QCOMPARE(contents(store.agentsPath()), broken);
    }

    void aDuplicateTakesAFreeNameAsItsFirstVersion()
    {
        QTemporaryDir dir;
        AgentStore store(dir.path());
        QString error;
        AgentPreset billing = preset(u"billing"_s, u"Bill."_s);
        QVERIFY(store.save({}, billing, &error));
        billing.instructions = u"Bill again."_s;
        QVERIFY(store.save(u"billing"_s, billing, &error));

        const auto copy = store.duplicate(u"billing"_s, &error);
        const auto second = store.duplicate(u"billing"_s, &error);

        QCOMPARE(copy->name, u"billing-copy"_s);
        QCOMPARE(copy->version, 1);
        QCOMPARE(copy->instructions, u"Bill again."_s);
        QCOMPARE(second->name, u"billing-copy-2"_s);
    }

    void theListFollowsTheStore()
    {
        QTemporaryDir dir;
        AgentStore store(dir.path());
        AgentListModel model(&store);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QString error;
        QVERIFY(store.save({}, preset(u"billing"_s, u"Bill."_s), &error));
        QVERIFY(store.save({}, preset(u"triage"_s, u"Route."_s), &error));
        QVERIFY(store.save(u"billing"_s, preset(u"billing"_s, u"Bill more."_s), &error));

        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0).data().toString(), u"billing"_s);
        QCOMPARE(model.index(0).data(AgentListModel::VersionRole).toInt(), 2);
        QCOMPARE(model.rowOf(u"triage"_s), 1);
        QVERIFY(store.remove(u"billing"_s, &error));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.rowOf(u"billing"_s), -1);
    }
};

QTEST_GUILESS_MAIN(AgentStoreTest)
#include "tst_agentstore.moc"
