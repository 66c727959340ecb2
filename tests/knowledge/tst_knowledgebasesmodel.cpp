#include "agent/session/knowledgebasesmodel.h"

#include "agent/config/providerprofile.h"
#include "tests/support/fakeembeddings.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/nokeychainstore.h"
#include "tests/support/onekeykeychain.h"
#include "tests/support/testfiles.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;
using namespace Loopscope::Testing;

/*
    The knowledge bases as the window lists them, each indexed on a thread of its own: a base over a
    temporary folder "docs", the library and indexes in a second temporary folder (the data folder).
*/
class TestKnowledgeBasesModel final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_docs;
    QTemporaryDir m_data;

    void writeDocuments(int count)
    {
        for (int i = 0; i < count; ++i) {
            QVERIFY(
                writeFile(m_docs.filePath(u"note%1.md"_s.arg(i)),
                          "# Note " + QByteArray::number(i) + "\n\nThe lighthouse keeper logs the tide.\n"));
        }
    }

    QVariant role(const KnowledgeBasesModel &model, const QString &name, int role)
    {
        return model.index(model.rowOf(name)).data(role);
    }

    KnowledgeBaseDefinition notes() const { return {u"notes"_s, {m_docs.path()}, {}}; }

private slots:
    void init()
    {
        QVERIFY(m_docs.isValid() && m_data.isValid());
        QDir(m_docs.path()).removeRecursively();
        QDir(m_data.path()).removeRecursively();
        QDir().mkpath(m_docs.path());
        QDir().mkpath(m_data.path());
    }

    void anAddedBaseIsIndexedInTheBackgroundWithProgress()
    {
        writeDocuments(3);
        KnowledgeBasesModel model(m_data.path());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(&model, &KnowledgeBasesModel::indexingFinished);

        QCOMPARE(model.add(notes()), QString());

        // add() returned before a file was read: the run is on its own thread.
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(role(model, u"notes"_s, KnowledgeBasesModel::IndexingRole).toBool(), true);
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(role(model, u"notes"_s, KnowledgeBasesModel::IndexingRole).toBool(), false);
        QCOMPARE(role(model, u"notes"_s, KnowledgeBasesModel::ProgressDoneRole).toInt(), 3);
        QCOMPARE(role(model, u"notes"_s, KnowledgeBasesModel::ProgressTotalRole).toInt(), 3);
        QTRY_COMPARE(role(model, u"notes"_s, KnowledgeBasesModel::FilesRole).toInt(), 3);
        QVERIFY(role(model, u"notes"_s, KnowledgeBasesModel::ChunksRole).toInt() >= 3);
        QVERIFY(role(model, u"notes"_s, KnowledgeBasesModel::BytesRole).toLongLong() > 0);
        QVERIFY(role(model, u"notes"_s, KnowledgeBasesModel::LastIndexedRole).toDateTime().isValid());
        QCOMPARE(role(model, u"notes"_s, KnowledgeBasesModel::ProblemsRole).toStringList(), QStringList());

        // Another model over the same folder (the app started again) lists it with its status.
        KnowledgeBasesModel reopened(m_data.path());
        QCOMPARE(reopened.names(), QStringList{u"notes"_s});
        QTRY_COMPARE(role(reopened, u"notes"_s, KnowledgeBasesModel::FilesRole).toInt(), 3);
    }

    void embeddingRunsOnTheRunsThreadAndAFailureLeavesTheBaseSearchable_data()
    {
        QTest::addColumn<bool>("endpointWorks");
        QTest::newRow("the endpoint answers") << true;
        QTest::newRow("the endpoint refuses") << false;
    }

    void embeddingRunsOnTheRunsThreadAndAFailureLeavesTheBaseSearchable()
    {
        QFETCH(bool, endpointWorks);
        writeDocuments(3);
        FakeHttpServer server;
        QVERIFY(server.listen());
        const FakeHttpServer::Handler answer = embeddingsHandler(ProviderKind::Ollama, conceptVector);
        server.setHandler([&](const HttpRequestRecord &request, HttpExchange &exchange) {
            if (endpointWorks)
                answer(request, exchange);
            else
                exchange.respondJson(404, {{u"error"_s, u"model \"concepts\" not found"_s}});
        });
        KnowledgeBasesModel model(m_data.path());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(&model, &KnowledgeBasesModel::indexingFinished);
        KnowledgeBaseDefinition base = notes();
        base.embedding = {ProviderKind::Ollama, server.baseUrl(), u"concepts"_s, {}};

        QCOMPARE(model.add(base), QString());

        QTRY_COMPARE(finished.count(), 1);
        const auto outcome = finished.at(0).at(1).value<KnowledgeIndexOutcome>();
        QCOMPARE(outcome.report.filesIndexed, 3);
        QVERIFY(!server.requests().isEmpty());
        QCOMPARE(role(model, u"notes"_s, KnowledgeBasesModel::EmbeddingModelRole).toString(), u"concepts"_s);
        QTRY_VERIFY(role(model, u"notes"_s, KnowledgeBasesModel::ChunksRole).toInt() >= 3);
        const int chunks = role(model, u"notes"_s, KnowledgeBasesModel::ChunksRole).toInt();
        if (endpointWorks) {
            QCOMPARE(outcome.embeddingError, QString());
            QCOMPARE(outcome.embedded, chunks);
            QCOMPARE(role(model, u"notes"_s, KnowledgeBasesModel::ProgressPhaseRole).toInt(),
                     int(KnowledgeIndexJob::Phase::Passages));
            QTRY_COMPARE(role(model, u"notes"_s, KnowledgeBasesModel::EmbeddedChunksRole).toInt(), chunks);
        } else {
            QVERIFY2(outcome.embeddingError.contains(u"searched by its words"_s),
                     qPrintable(outcome.embeddingError));
            QCOMPARE(role(model, u"notes"_s, KnowledgeBasesModel::ProblemsRole).toStringList(),
                     QStringList{outcome.embeddingError});
            QCOMPARE(role(model, u"notes"_s, KnowledgeBasesModel::EmbeddedChunksRole).toInt(), 0);
        }
    }

    void aBaseChosenFromAProfileIsEmbeddedWithTheKeyChatUses_data()
    {
        QTest::addColumn<bool>("inKeyFile");
        QTest::newRow("the profile's key in the keychain") << false;
        QTest::newRow("the profile's key in the key file") << true;
    }

    void aBaseChosenFromAProfileIsEmbeddedWithTheKeyChatUses()
    {
        QFETCH(bool, inKeyFile);
        const QString key = u"sk-only-in-the-secret-store"_s;
        const QString unsetVariable = u"LOOPSCOPE_TEST_KB_KEY_NOT_SET"_s;
        qunsetenv(qPrintable(unsetVariable));
        writeDocuments(2);
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler(embeddingsHandler(ProviderKind::OpenAi, conceptVector));
        const QUrl baseUrl(server.baseUrl().toString() + u"/v1"_s);

        QSettings settings(m_data.filePath(u"settings.ini"_s), QSettings::IniFormat);
        ProviderProfileStore profiles(&settings);
        ProviderProfile profile;
        profile.id = u"embedder"_s;
        profile.name = u"My embedder"_s;
        profile.baseUrl = baseUrl;
        profile.model = u"chat-model"_s;
        profile.keyStorage
            = inKeyFile ? ProviderProfile::KeyStorage::File : ProviderProfile::KeyStorage::Keychain;
        profiles.save(profile);
        NoKeychainStore noKeychain(m_data.filePath(u"keys.json"_s));
        OneKeyKeychain keychain(profile.id, key);
        SecretStore *secrets = inKeyFile ? static_cast<SecretStore *>(&noKeychain) : &keychain;
        if (inKeyFile) {
            QString written = u"not yet"_s;
            noKeychain.keyFile()->write(profile.id, key, this,
                                        [&](const SecretStore::WriteError &error) { written = error; });
            QTRY_COMPARE(written, QString());
        }

        KnowledgeBasesModel model(m_data.path());
        model.setKeyReader(KnowledgeKeyReader(&profiles, secrets));
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(&model, &KnowledgeBasesModel::indexingFinished);
        KnowledgeBaseDefinition base = notes();
        base.embedding = {ProviderKind::OpenAi, baseUrl, u"concepts"_s, unsetVariable, profile.id};

        QCOMPARE(model.add(base), QString());

        QTRY_COMPARE(finished.count(), 1);
        const auto outcome = finished.at(0).at(1).value<KnowledgeIndexOutcome>();
        QCOMPARE(outcome.embeddingError, QString());
        QVERIFY(!server.requests().isEmpty());
        for (const HttpRequestRecord &request : server.requests())
            QCOMPARE(request.header("Authorization"), "Bearer " + key.toUtf8());
        QTRY_VERIFY(role(model, u"notes"_s, KnowledgeBasesModel::ChunksRole).toInt() >= 2);
        QCOMPARE(outcome.embedded, role(model, u"notes"_s, KnowledgeBasesModel::ChunksRole).toInt());
        QCOMPARE(role(model, u"notes"_s, KnowledgeBasesModel::ProblemsRole).toStringList(), QStringList());
        // The definition names the profile, never its key.
        QFile definition(m_data.filePath(u"notes.json"_s));
        QVERIFY(definition.open(QIODevice::ReadOnly));
        const QByteArray saved = definition.readAll();
        QVERIFY(saved.contains("embedder"));
        QVERIFY(!saved.contains(key.toUtf8()));
    }

    void aProfileWithoutAKeyLeavesTheBaseLexicalAndSaysWhy()
    {
        writeDocuments(1);
        QSettings settings(m_data.filePath(u"settings.ini"_s), QSettings::IniFormat);
        ProviderProfileStore profiles(&settings);
        ProviderProfile profile;
        profile.id = u"keyless"_s;
        profile.name = u"Keyless"_s;
        profiles.save(profile);
        OneKeyKeychain keychain(u"someone-else"_s, u"sk-other"_s);
        KnowledgeBasesModel model(m_data.path());
        model.setKeyReader(KnowledgeKeyReader(&profiles, &keychain));
        QSignalSpy finished(&model, &KnowledgeBasesModel::indexingFinished);
        KnowledgeBaseDefinition base = notes();
        base.embedding = {ProviderKind::OpenAi, QUrl(u"http://127.0.0.1:9/v1"_s), u"concepts"_s,
                          u"LOOPSCOPE_TEST_KB_KEY_NOT_SET"_s, profile.id};
        qunsetenv("LOOPSCOPE_TEST_KB_KEY_NOT_SET");

        QCOMPARE(model.add(base), QString());

        QTRY_COMPARE(finished.count(), 1);
        const QStringList problems
            = role(model, u"notes"_s, KnowledgeBasesModel::ProblemsRole).toStringList();
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().contains(u"Keyless"_s)
                     && problems.first().contains(u"searchable by their words"_s),
                 qPrintable(problems.first()));
        QVERIFY(!problems.first().contains(u"sk-other"_s));
        QCOMPARE(role(model, u"notes"_s, KnowledgeBasesModel::EmbeddedChunksRole).toInt(), 0);
    }

    void aBadDefinitionIsRefusedAndNothingIsAdded()
    {
        KnowledgeBasesModel model(m_data.path());
        QVERIFY(!model.add({u"../escape"_s, {m_docs.path()}, {}}).isEmpty());
        QCOMPARE(model.rowCount(), 0);
    }

    void cancelStopsBetweenFilesAndTheNextRunGoesOn()
    {
        writeDocuments(200);
        KnowledgeBasesModel model(m_data.path());
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(&model, &KnowledgeBasesModel::indexingFinished);
        QCOMPARE(model.add(notes()), QString());
        model.cancel(u"notes"_s);
        QTRY_COMPARE(finished.count(), 1);
        const auto cancelled = finished.at(0).at(1).value<KnowledgeIndexOutcome>();
        QVERIFY(cancelled.cancelled);
        QVERIFY(cancelled.report.filesIndexed < 200);

        // The index is usable, and the next run indexes what the cancelled one left.
        model.reindex(u"notes"_s);
        QTRY_COMPARE(finished.count(), 2);
        const auto resumed = finished.at(1).at(1).value<KnowledgeIndexOutcome>();
        QVERIFY(!resumed.cancelled);
        QCOMPARE(resumed.report.filesIndexed + cancelled.report.filesIndexed, 200);
        QTRY_COMPARE(role(model, u"notes"_s, KnowledgeBasesModel::FilesRole).toInt(), 200);
    }

    void aSecondWriterStopsWithAMessage()
    {
        writeDocuments(1);
        KnowledgeBasesModel model(m_data.path());
        QSignalSpy finished(&model, &KnowledgeBasesModel::indexingFinished);
        QCOMPARE(model.add(notes()), QString());
        QTRY_COMPARE(finished.count(), 1);

        // `loopscope knowledge index notes` in another process holds the writer lock.
        QLockFile other(model.library().databasePath(u"notes"_s) + u".lock"_s);
        QVERIFY(other.tryLock(0));
        QSignalSpy message(&model, &KnowledgeBasesModel::message);
        model.reindex(u"notes"_s);
        QTRY_COMPARE(finished.count(), 2);
        const QStringList problems
            = role(model, u"notes"_s, KnowledgeBasesModel::ProblemsRole).toStringList();
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.first().contains(u"another process"_s), qPrintable(problems.first()));
        QCOMPARE(message.count(), 1);
    }

    void removeDeletesTheIndexAndKeepsTheDocuments_data()
    {
        QTest::addColumn<bool>("whileIndexing");
        QTest::addColumn<bool>("quitAtOnce");
        QTest::newRow("after indexing") << false << false;
        QTest::newRow("while indexing") << true << false;
        QTest::newRow("while indexing, the app quitting at once") << true << true;
    }

    void removeDeletesTheIndexAndKeepsTheDocuments()
    {
        QFETCH(bool, whileIndexing);
        QFETCH(bool, quitAtOnce);
        writeDocuments(whileIndexing ? 200 : 2);
        auto model = std::make_unique<KnowledgeBasesModel>(m_data.path());
        QAbstractItemModelTester tester(model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy finished(model.get(), &KnowledgeBasesModel::indexingFinished);
        QCOMPARE(model->add(notes()), QString());
        if (!whileIndexing)
            QTRY_COMPARE(finished.count(), 1);
        const QString database = model->library().databasePath(u"notes"_s);

        QCOMPARE(model->remove(u"notes"_s), QString());

        QCOMPARE(model->rowCount(), 0);
        QCOMPARE(model->names(), QStringList());
        if (quitAtOnce)
            model.reset();
        const KnowledgeLibrary library(m_data.path());
        QTRY_VERIFY(!QFileInfo::exists(database));
        QTRY_VERIFY(!library.base(u"notes"_s));
        QVERIFY(QFileInfo::exists(m_docs.filePath(u"note0.md"_s)));
        if (model)
            QCOMPARE(model->remove(u"notes"_s).isEmpty(), false); // gone: said, not fatal
    }
};

QTEST_GUILESS_MAIN(TestKnowledgeBasesModel)
#include "tst_knowledgebasesmodel.moc"
