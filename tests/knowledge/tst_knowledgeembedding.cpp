#include "agent/knowledge/knowledgeembedder.h"
#include "agent/knowledge/knowledgeindex.h"
#include "agent/knowledge/knowledgeindexer.h"
#include "agent/knowledge/knowledgelibrary.h"
#include "agent/knowledge/knowledgesearchtool.h"

#include "tests/support/fakeembeddings.h"
#include "tests/support/fakehttpserver.h"
#include "tests/support/testfiles.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(Loopscope::ProviderKind)

namespace {

RetryPolicy noRetries()
{
    RetryPolicy policy(0);
    policy.setBaseDelayMs(1);
    return policy;
}

QStringList fileNamesOf(const QList<KnowledgeHit> &hits)
{
    QStringList names;
    for (const KnowledgeHit &hit : hits)
        names.append(QFileInfo(hit.path).fileName());
    return names;
}

// Every input the server was asked to embed, in the order of the requests.
QStringList inputsSent(const FakeHttpServer &server, ProviderKind kind)
{
    QStringList inputs;
    for (const HttpRequestRecord &request : server.requests())
        inputs += embeddingsInputs(kind, request.json());
    return inputs;
}

} // namespace

/*
    Embedding a knowledge base while indexing it, against an embeddings server
    on 127.0.0.1 in each wire format whose vectors carry meaning
    (conceptVector): batches, an endpoint failing half-way and the run after
    it, vectors of the wrong size, another model, the version 1 index, and the
    hybrid search that finds a passage by meaning.
*/
class TestKnowledgeEmbedding final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_docs;
    QTemporaryDir m_data;
    QNetworkAccessManager m_network;
    KnowledgeBaseDefinition m_base;
    QString m_database;
    static constexpr int Documents = 10;

    static QUrl baseUrl(const FakeHttpServer &server, ProviderKind kind)
    {
        return kind == ProviderKind::OpenAi ? QUrl(server.baseUrl().toString() + u"/v1"_s) : server.baseUrl();
    }

    std::unique_ptr<KnowledgeIndex> openIndex()
    {
        QString error;
        auto index = KnowledgeIndex::open(m_database, &error);
        if (!index)
            qWarning() << error;
        return index;
    }

    struct Outcome
    {
        bool finished = false;
        QString failure;
        QStringList notices;
        int embedded = 0;
    };

    // Embeds what has no vector yet, as `knowledge index` does after the indexer.
    Outcome embed(const FakeHttpServer &server, ProviderKind kind, const QString &model = u"concepts"_s,
                  int batchSize = 4, int sliceSize = 512)
    {
        KnowledgeEmbedder embedder(&m_network, {kind, baseUrl(server, kind), model, u"k-1"_s}, m_database);
        embedder.client().setBatchSize(batchSize);
        embedder.client().setRetryPolicy(noRetries());
        embedder.setSliceSize(sliceSize);
        QSignalSpy finished(&embedder, &KnowledgeEmbedder::finished);
        QSignalSpy failed(&embedder, &KnowledgeEmbedder::failed);
        QSignalSpy notices(&embedder, &KnowledgeEmbedder::notice);
        Outcome outcome;
        if (!embedder.start())
            return outcome;
        if (!QTest::qWaitFor([&] { return !finished.isEmpty() || !failed.isEmpty(); }, 20'000))
            outcome.failure = u"neither finished nor failed in time"_s;
        outcome.finished = !finished.isEmpty();
        outcome.embedded = outcome.finished ? finished.constFirst().at(0).toInt() : 0;
        outcome.failure = failed.isEmpty() ? QString() : failed.constFirst().at(0).toString();
        for (const QList<QVariant> &notice : std::as_const(notices))
            outcome.notices.append(notice.at(0).toString());
        return outcome;
    }

    void addKinds()
    {
        QTest::addColumn<ProviderKind>("kind");
        QTest::newRow("OpenAI-compatible /v1/embeddings") << ProviderKind::OpenAi;
        QTest::newRow("Ollama /api/embed") << ProviderKind::Ollama;
        QTest::newRow("Gemini batchEmbedContents") << ProviderKind::Gemini;
    }

private slots:
    void init()
    {
        m_docs.~QTemporaryDir();
        new (&m_docs) QTemporaryDir();
        m_data.~QTemporaryDir();
        new (&m_data) QTemporaryDir();
        for (int i = 0; i < Documents; ++i)
            QVERIFY(writeFile(m_docs.filePath(u"note%1.txt"_s.arg(i)),
                              "Note " + QByteArray::number(i) + " about the weather forecast.\n"));
        m_base = {u"docs"_s, {m_docs.path()}, {}};
        m_database = m_data.filePath(u"docs.sqlite"_s);
        const KnowledgeIndexReport report = KnowledgeIndexer().run(m_base, m_database);
        QCOMPARE(report.errors, QStringList());
        QCOMPARE(report.chunksWritten, Documents);
    }

    void indexingEmbedsEveryPassageInBatches_data() { addKinds(); }
    void indexingEmbedsEveryPassageInBatches()
    {
        QFETCH(ProviderKind, kind);
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler(embeddingsHandler(kind, conceptVector));

        const Outcome outcome = embed(server, kind, u"concepts"_s, 4);
        QVERIFY2(outcome.finished, qPrintable(outcome.failure));
        QCOMPARE(outcome.embedded, Documents);
        // Ten passages in batches of four: three requests, each passage sent once.
        QCOMPARE(server.requests().size(), 3);
        QCOMPARE(inputsSent(server, kind).size(), Documents);
        auto index = openIndex();
        const KnowledgeIndexStatus status = index->status();
        QCOMPARE(status.embeddedChunks, Documents);
        QCOMPARE(status.embeddingModel, u"concepts"_s);
        QCOMPARE(index->embeddingDimensions(), ConceptDimensions);

        // Nothing left to embed: the next run sends nothing.
        const Outcome again = embed(server, kind);
        QVERIFY(again.finished);
        QCOMPARE(again.embedded, 0);
        QCOMPARE(server.requests().size(), 3);
    }

    void aFailingEndpointLeavesTheBaseSearchableAndTheNextRunResumes_data() { addKinds(); }
    void aFailingEndpointLeavesTheBaseSearchableAndTheNextRunResumes()
    {
        QFETCH(ProviderKind, kind);
        FakeHttpServer server;
        QVERIFY(server.listen());
        const FakeHttpServer::Handler answer = embeddingsHandler(kind, conceptVector);
        bool down = false;
        server.setHandler([&](const HttpRequestRecord &request, HttpExchange &exchange) {
            // The first slice (two requests of two) goes through, then the endpoint goes down.
            if (exchange.requestIndex() >= 2)
                down = true;
            if (down)
                exchange.respondJson(500, {{u"error"_s, u"the model crashed"_s}});
            else
                answer(request, exchange);
        });

        const Outcome failed = embed(server, kind, u"concepts"_s, 2, 4);
        QVERIFY(!failed.finished);
        QVERIFY2(failed.failure.contains(u"HTTP 500"_s) && failed.failure.contains(u"6 passages"_s),
                 qPrintable(failed.failure));
        {
            auto index = openIndex();
            QCOMPARE(index->status().embeddedChunks, 4);
            // Searchable by its words all the same.
            QCOMPARE(index->search(u"note 7"_s, 1).size(), 1);
        }

        down = false;
        server.setHandler(answer);
        const int before = int(inputsSent(server, kind).size());
        const Outcome resumed = embed(server, kind, u"concepts"_s, 2, 4);
        QVERIFY2(resumed.finished, qPrintable(resumed.failure));
        QCOMPARE(resumed.embedded, Documents - 4);
        // Only the passages without a vector were sent again.
        QCOMPARE(int(inputsSent(server, kind).size()) - before, Documents - 4);
        QCOMPARE(openIndex()->status().embeddedChunks, Documents);
    }

    void vectorsOfTheWrongSizeStopTheRunAndLoseNothing()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler(embeddingsHandler(ProviderKind::Ollama, conceptVector));
        QVERIFY(embed(server, ProviderKind::Ollama).finished);
        // A passage added later, and an endpoint that now answers with shorter vectors.
        QVERIFY(writeFile(m_docs.filePath(u"late.txt"_s), "A late note about rain.\n"));
        QCOMPARE(KnowledgeIndexer().run(m_base, m_database).chunksWritten, 1);
        server.setHandler(embeddingsHandler(ProviderKind::Ollama, [](const QString &) {
            return QList<float>{1.0f, 0.0f, 0.0f};
        }));

        const Outcome outcome = embed(server, ProviderKind::Ollama);
        QVERIFY(!outcome.finished);
        QVERIFY2(outcome.failure.contains(u"3 dimensions"_s) && outcome.failure.contains(u"not 6"_s),
                 qPrintable(outcome.failure));
        auto index = openIndex();
        QCOMPARE(index->status().embeddedChunks, Documents);
        QCOMPARE(index->status().chunks, Documents + 1);
        QCOMPARE(index->embeddingDimensions(), ConceptDimensions);
        QCOMPARE(fileNamesOf(index->search(u"late"_s, 1)), QStringList{u"late.txt"_s});
    }

    void anotherModelEmbedsEveryPassageAgainSayingSo()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler(embeddingsHandler(ProviderKind::Ollama, conceptVector));
        QVERIFY(embed(server, ProviderKind::Ollama, u"concepts"_s).finished);
        server.setHandler(embeddingsHandler(ProviderKind::Ollama, [](const QString &text) {
            return QList<float>{float(text.size()), 1.0f};
        }));

        const Outcome outcome = embed(server, ProviderKind::Ollama, u"lengths"_s);
        QVERIFY2(outcome.finished, qPrintable(outcome.failure));
        QCOMPARE(outcome.embedded, Documents);
        QCOMPARE(outcome.notices.size(), 1);
        QVERIFY2(outcome.notices.first().contains(u"\"concepts\""_s)
                     && outcome.notices.first().contains(u"\"lengths\""_s)
                     && outcome.notices.first().contains(u"embedded again"_s),
                 qPrintable(outcome.notices.first()));
        auto index = openIndex();
        QCOMPARE(index->embeddingModel(), u"lengths"_s);
        QCOMPARE(index->embeddingDimensions(), 2);
    }

    void hybridSearchFindsAPassageThatSharesNoWordWithTheQuestion_data() { addKinds(); }
    void hybridSearchFindsAPassageThatSharesNoWordWithTheQuestion()
    {
        QFETCH(ProviderKind, kind);
        QVERIFY(writeFile(m_docs.filePath(u"garage.md"_s),
                          "# Garage\n\nThe automobile needs new tyres and its engine checked.\n"));
        QVERIFY(writeFile(m_docs.filePath(u"recipes.md"_s), "# Recipes\n\nBoil the pasta in the kitchen.\n"));
        QVERIFY(writeFile(m_docs.filePath(u"shop.md"_s), "# Shop\n\nKeep the car park of the shop free.\n"));
        QVERIFY(KnowledgeIndexer().run(m_base, m_database).errors.isEmpty());
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler(embeddingsHandler(kind, conceptVector));
        QVERIFY(embed(server, kind).finished);

        const QString question = u"When does my car go to the mechanic?"_s;
        auto index = openIndex();
        // By words alone, only the shop's "car park" is found.
        QCOMPARE(fileNamesOf(index->search(question, 3)), QStringList{u"shop.md"_s});
        const QList<KnowledgeHit> hits = index->search(question, 3, conceptVector(question));
        QCOMPARE(hits.size(), 3);
        const QStringList names = fileNamesOf(hits);
        QVERIFY2(names.contains(u"garage.md"_s), qPrintable(names.join(u", "_s)));
        const KnowledgeHit &garage = hits.at(names.indexOf(u"garage.md"_s));
        QCOMPARE(garage.bm25, 0.0);
        QVERIFY(garage.cosine.has_value() && garage.fused.has_value());
        QVERIFY(*garage.cosine > 0.9);
        // Both rankings put the shop's car park high, so it leads; the garage follows, then the rest.
        QCOMPARE(names.first(), u"shop.md"_s);
        QVERIFY(hits.first().bm25 > 0);
        for (qsizetype i = 1; i < hits.size(); ++i)
            QVERIFY(hits.at(i - 1).score() >= hits.at(i).score());
        // A question vector of another model's size is an error, not a wrong answer.
        QVERIFY(index->search(question, 3, {1.0f, 2.0f}).isEmpty());
        QVERIFY2(index->lastError().contains(u"2 dimensions"_s), qPrintable(index->lastError()));
    }

    void knowledgeSearchEmbedsTheQuestionWithoutBlockingAndRecordsTheModel()
    {
        QVERIFY(writeFile(m_docs.filePath(u"garage.md"_s),
                          "# Garage\n\nThe automobile needs new tyres and its engine checked.\n"));
        QVERIFY(KnowledgeIndexer().run(m_base, m_database).errors.isEmpty());
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler(embeddingsHandler(ProviderKind::Ollama, conceptVector));
        QVERIFY(embed(server, ProviderKind::Ollama).finished);
        const int requestsBefore = int(server.requests().size());

        const KnowledgeSearchTool tool(
            {{u"docs"_s, m_database, {ProviderKind::Ollama, server.baseUrl(), u"concepts"_s, {}}}});
        QFuture<ToolResult> future
            = tool.start({{u"query"_s, u"car"_s}, {u"top_k"_s, 2}}, std::make_shared<ToolContext>());
        // The question's embedding is a request answered by this thread's event loop: nothing is done yet.
        QVERIFY(!future.isFinished());
        QTRY_VERIFY_WITH_TIMEOUT(future.isFinished(), 10'000);
        QCOMPARE(int(server.requests().size()), requestsBefore + 1);
        const ToolResult result = future.result();
        QVERIFY2(!result.isError, qPrintable(result.content));
        QVERIFY2(result.content.contains(u"garage.md"_s), qPrintable(result.content));
        const RetrievalData retrieval
            = RetrievalData::fromJson(result.details.value(QString(RetrievalDetailsKey)).toObject());
        QCOMPARE(retrieval.embeddingModel, u"concepts"_s);
        QCOMPARE(QFileInfo(retrieval.hits.first().path).fileName(), u"garage.md"_s);
        QVERIFY(retrieval.hits.first().cosine.has_value());
        QVERIFY(retrieval.hits.first().fused.has_value());
    }

    void aQuestionThatCannotBeEmbeddedIsSearchedByItsWordsSayingSo()
    {
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler(embeddingsHandler(ProviderKind::Ollama, conceptVector));
        QVERIFY(embed(server, ProviderKind::Ollama).finished);
        server.setHandler([](const HttpRequestRecord &, HttpExchange &exchange) {
            exchange.respondJson(404, {{u"error"_s, u"model not found"_s}});
        });
        QFutureWatcher<KnowledgeQueryVectors> watcher;
        QSignalSpy finished(&watcher, &QFutureWatcherBase::finished);
        const QList<AttachedKnowledgeBase> bases{
            {u"docs"_s, m_database, {ProviderKind::Ollama, server.baseUrl(), u"concepts"_s, {}}}};
        watcher.setFuture(KnowledgeSearchTool::embedQuestion(bases, u"note 3 weather"_s));
        QVERIFY(finished.wait(10'000));
        const KnowledgeQueryVectors vectors = watcher.result();
        QVERIFY(vectors.byBase.isEmpty());
        QVERIFY2(vectors.error.contains(u"by its words only"_s), qPrintable(vectors.error));
        const KnowledgeSearchRecord record
            = KnowledgeSearchTool::search(bases, u"note 3 weather"_s, 2, vectors);
        QCOMPARE(record.hits.size(), 2);
        QVERIFY(!record.hits.first().hit.fused.has_value());
        QVERIFY2(record.error.contains(u"model not found"_s), qPrintable(record.error));
    }

    void aVersion1IndexIsUpgradedKeepingItsPassages()
    {
        const QString path = m_data.filePath(u"v1.sqlite"_s);
        {
            // The schema of version 1, as the first release wrote it, with one file and one passage.
            QSqlDatabase old = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"v1"_s);
            old.setDatabaseName(path);
            QVERIFY(old.open());
            QSqlQuery query(old);
            for (
                const QString &statement : {
                    u"CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT "
                    "NULL, modified INTEGER NOT NULL, hash BLOB NOT NULL)"_s,
                    u"CREATE TABLE chunks(id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES "
                    u"files(id), "
                    "start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, text TEXT NOT NULL)"_s,
                    u"CREATE INDEX chunks_by_file ON chunks(file_id)"_s,
                    u"CREATE VIRTUAL TABLE chunk_text USING fts5(text, content='chunks', content_rowid='id', "
                    "tokenize='porter unicode61 remove_diacritics 2')"_s,
                    u"CREATE TRIGGER chunks_inserted AFTER INSERT ON chunks BEGIN "
                    "INSERT INTO chunk_text(rowid, text) VALUES (new.id, new.text); END"_s,
                    u"CREATE TRIGGER chunks_deleted AFTER DELETE ON chunks BEGIN "
                    "INSERT INTO chunk_text(chunk_text, rowid, text) VALUES ('delete', old.id, old.text); END"_s,
                    u"CREATE TABLE skipped(path TEXT PRIMARY KEY, reason TEXT NOT NULL)"_s,
                    u"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"_s,
                    u"INSERT INTO files VALUES (1, '/docs/garage.md', 10, 0, x'00')"_s,
                    u"INSERT INTO chunks VALUES (1, 1, 1, 3, 'The automobile needs new tyres.')"_s,
                    u"PRAGMA user_version=1"_s,
                })
                QVERIFY2(query.exec(statement), qPrintable(query.lastError().text()));
            old.close();
        }
        QSqlDatabase::removeDatabase(u"v1"_s);

        m_database = path;
        auto index = openIndex();
        QVERIFY(index);
        QCOMPARE(index->notices().size(), 1);
        QVERIFY2(index->notices().first().contains(u"upgraded from schema version 1"_s),
                 qPrintable(index->notices().first()));
        QCOMPARE(index->status().chunks, 1);
        QCOMPARE(fileNamesOf(index->search(u"tyres"_s, 1)), QStringList{u"garage.md"_s});
        index.reset();
        QVERIFY(openIndex()->notices().isEmpty()); // upgraded once

        // The passage kept is embedded like any other, and deleting it drops its vector.
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler(embeddingsHandler(ProviderKind::Ollama, conceptVector));
        QVERIFY(embed(server, ProviderKind::Ollama).finished);
        index = openIndex();
        QCOMPARE(index->status().embeddedChunks, 1);
        QCOMPARE(fileNamesOf(index->search(u"car"_s, 1, conceptVector(u"car"_s))),
                 QStringList{u"garage.md"_s});
        QVERIFY(index->removeFile(u"/docs/garage.md"_s));
        QCOMPARE(index->status().embeddedChunks, 0);
    }
};

QTEST_MAIN(TestKnowledgeEmbedding)
#include "tst_knowledgeembedding.moc"
