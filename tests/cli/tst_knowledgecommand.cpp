#include "app/cli/knowledgecommand.h"

#include "tests/support/fakeembeddings.h"
#include "tests/support/fakehttpserver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

using namespace Loopscope;
using namespace Loopscope::Cli;
using namespace Loopscope::Testing;
using namespace Qt::StringLiterals;

namespace {

struct Output
{
    int code = -1;
    QString out;
    QString err;
};

bool writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

} // namespace

Q_DECLARE_METATYPE(Loopscope::ProviderKind)

class TestKnowledgeCommand final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_docs;
    QTemporaryDir m_data;

    Output knowledge(const QStringList &arguments)
    {
        Output output;
        QTextStream out(&output.out);
        QTextStream err(&output.err);
        output.code = KnowledgeCommand(&out, &err, m_data.path())
                          .exec(QStringList{u"loopscope"_s, u"knowledge"_s} + arguments);
        return output;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(writeFile(m_docs.filePath(u"guide.md"_s),
                          "# Guide\n\nIntro.\n\n## Proxy\n\nSet HTTPS_PROXY for a proxy server.\n"));
        QVERIFY(writeFile(m_docs.filePath(u"notes.txt"_s), "Nothing about networks here.\n"));
        QVERIFY(writeFile(m_docs.filePath(u"logo.png"_s), QByteArray("\x89PNG\0\0", 6)));
    }

    void addIndexesAtOnceAndListsWhatItSkipped()
    {
        const Output added = knowledge({u"add"_s, u"docs"_s, m_docs.path()});
        QCOMPARE(added.code, int(KnowledgeCommand::Success));
        QVERIFY2(added.out.contains(u"docs: files indexed 2"_s), qPrintable(added.out));
        QVERIFY2(added.out.contains(u"skipped "_s + m_docs.filePath(u"logo.png"_s)), qPrintable(added.out));
        QVERIFY2(added.err.contains(u"indexing: 3 of 3 files"_s), qPrintable(added.err));
    }

    void indexAgainSkipsUnchangedFiles()
    {
        const Output again = knowledge({u"index"_s, u"docs"_s});
        QCOMPARE(again.code, int(KnowledgeCommand::Success));
        QVERIFY2(again.out.contains(u"files indexed 0 (passages 0), unchanged 2"_s), qPrintable(again.out));
    }

    void listShowsTheBaseWithItsCounts()
    {
        const Output listed = knowledge({u"list"_s});
        QCOMPARE(listed.code, int(KnowledgeCommand::Success));
        QVERIFY2(listed.out.startsWith(u"docs: files 2, passages 3"_s), qPrintable(listed.out));
        QVERIFY(listed.out.contains(u"1 skipped"_s));
        QVERIFY(listed.out.contains(QDir::toNativeSeparators(m_docs.path())));
    }

    void searchAsJsonGivesHitsBestFirst()
    {
        const Output found
            = knowledge({u"search"_s, u"docs"_s, u"How do I use a \"proxy (NEAR server*?"_s, u"--json"_s});
        QCOMPARE(found.code, int(KnowledgeCommand::Success));
        const QJsonArray hits = QJsonDocument::fromJson(found.out.toUtf8()).array();
        QCOMPARE(hits.size(), 1);
        const QJsonObject hit = hits.first().toObject();
        QCOMPARE(hit.value(u"path"_s).toString(), m_docs.filePath(u"guide.md"_s));
        QCOMPARE(hit.value(u"startLine"_s).toInt(), 5);
        QCOMPARE(hit.value(u"endLine"_s).toInt(), 7);
        QVERIFY(hit.value(u"score"_s).toDouble() > 0);
        QVERIFY(hit.value(u"text"_s).toString().contains(u"HTTPS_PROXY"_s));
    }

    void searchAsTextShowsWhereEachPassageIs()
    {
        const Output found = knowledge({u"search"_s, u"docs"_s, u"networks proxy"_s, u"--top-k"_s, u"1"_s});
        QCOMPARE(found.code, int(KnowledgeCommand::Success));
        QVERIFY2(found.out.startsWith(m_docs.filePath(u"guide.md"_s) + u":5-7  score "_s),
                 qPrintable(found.out));
        QVERIFY(!found.out.contains(u"notes.txt"_s));
    }

    void badUsageExitsWithTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("no command") << QStringList{};
        QTest::newRow("an unknown command") << QStringList{u"grow"_s};
        QTest::newRow("an unknown base") << QStringList{u"index"_s, u"nope"_s};
        QTest::newRow("search in an unknown base") << QStringList{u"search"_s, u"nope"_s, u"x"_s};
        QTest::newRow("add without a path") << QStringList{u"add"_s, u"more"_s};
        QTest::newRow("add a base that exists") << QStringList{u"add"_s, u"docs"_s, u"."_s};
        QTest::newRow("an invalid name") << QStringList{u"add"_s, u"../x"_s, u"."_s};
        QTest::newRow("top-k zero") << QStringList{u"search"_s, u"docs"_s, u"x"_s, u"--top-k"_s, u"0"_s};
        QTest::newRow("a provider without an embedding model")
            << QStringList{u"add"_s, u"more"_s, u"."_s, u"--provider"_s, u"ollama"_s};
        QTest::newRow("an embedding model for search")
            << QStringList{u"search"_s, u"docs"_s, u"x"_s, u"--embedding-model"_s, u"m"_s};
        QTest::newRow("an unknown provider") << QStringList{
            u"add"_s, u"more"_s, u"."_s, u"--embedding-model"_s, u"m"_s, u"--provider"_s, u"x"_s};
        QTest::newRow("Anthropic, which has no embeddings") << QStringList{
            u"add"_s, u"more"_s, u"."_s, u"--embedding-model"_s, u"m"_s, u"--provider"_s, u"anthropic"_s};
    }

    void badUsageExitsWithTwo()
    {
        QFETCH(QStringList, arguments);
        const Output output = knowledge(arguments);
        QCOMPARE(output.code, int(KnowledgeCommand::BadUsage));
        QVERIFY(output.err.startsWith(u"loopscope knowledge: "_s));
    }

    void indexingAMissingFolderExitsWithOne()
    {
        QTemporaryDir gone;
        QVERIFY(writeFile(gone.filePath(u"a.txt"_s), "alpha\n"));
        QCOMPARE(knowledge({u"add"_s, u"gone"_s, gone.path()}).code, int(KnowledgeCommand::Success));
        QVERIFY(gone.remove());
        const Output again = knowledge({u"index"_s, u"gone"_s});
        QCOMPARE(again.code, int(KnowledgeCommand::Failed));
        QVERIFY2(again.err.contains(gone.path()), qPrintable(again.err));
    }

    void addWithAnEmbeddingModelEmbedsAndSearchesHybrid_data()
    {
        QTest::addColumn<ProviderKind>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("OpenAI-compatible") << ProviderKind::OpenAi << u"meaning-openai"_s;
        QTest::newRow("Ollama") << ProviderKind::Ollama << u"meaning-ollama"_s;
        QTest::newRow("Gemini") << ProviderKind::Gemini << u"meaning-gemini"_s;
    }

    void addWithAnEmbeddingModelEmbedsAndSearchesHybrid()
    {
        QFETCH(ProviderKind, kind);
        QFETCH(QString, name);
        QTemporaryDir docs;
        QVERIFY(writeFile(docs.filePath(u"garage.md"_s), "# Garage\n\nThe automobile needs new tyres.\n"));
        QVERIFY(writeFile(docs.filePath(u"recipes.md"_s), "# Recipes\n\nBoil the pasta.\n"));
        FakeHttpServer server;
        QVERIFY(server.listen());
        server.setHandler(embeddingsHandler(kind, conceptVector));
        qputenv("LOOPSCOPE_TEST_EMBEDDINGS_KEY", "secret-key-123");
        const QString url = kind == ProviderKind::OpenAi ? server.baseUrl().toString() + u"/v1"_s
                                                         : server.baseUrl().toString();

        const Output added = knowledge({u"add"_s, name, docs.path(), u"--embedding-model"_s, u"concepts"_s,
                                        u"--provider"_s, providerKindName(kind), u"--base-url"_s, url,
                                        u"--api-key-env"_s, u"LOOPSCOPE_TEST_EMBEDDINGS_KEY"_s});
        QCOMPARE(added.code, int(KnowledgeCommand::Success));
        QVERIFY2(added.out.contains(u"passages embedded 2 (1 requests"_s), qPrintable(added.out));
        QVERIFY2(added.err.contains(u"embedding: 2 of 2 passages"_s), qPrintable(added.err));
        // The provider and the model are recorded with the base, the key is not: only its variable.
        QFile definition(m_data.filePath(name + u".json"_s));
        QVERIFY(definition.open(QIODevice::ReadOnly));
        const QByteArray saved = definition.readAll();
        QVERIFY(saved.contains("\"concepts\"") && saved.contains("LOOPSCOPE_TEST_EMBEDDINGS_KEY"));
        QVERIFY(!saved.contains("secret-key-123"));

        // "car" is in no document: only the vector of the question finds the garage.
        const Output found = knowledge({u"search"_s, name, u"my car"_s, u"--json"_s, u"--top-k"_s, u"1"_s});
        QCOMPARE(found.code, int(KnowledgeCommand::Success));
        const QJsonArray hits = QJsonDocument::fromJson(found.out.toUtf8()).array();
        QCOMPARE(hits.size(), 1);
        const QJsonObject hit = hits.first().toObject();
        QCOMPARE(hit.value(u"path"_s).toString(), docs.filePath(u"garage.md"_s));
        QCOMPARE(hit.value(u"bm25"_s).toDouble(), 0.0);
        QVERIFY(hit.value(u"cosine"_s).toDouble() > 0.9);
        QVERIFY(hit.value(u"fused"_s).toDouble() > 0);
        QCOMPARE(hit.value(u"score"_s).toDouble(), hit.value(u"fused"_s).toDouble());

        const Output listed = knowledge({u"list"_s});
        QVERIFY2(listed.out.contains(
                     u"embeddings: concepts (%1), passages embedded 2 of 2"_s.arg(providerKindName(kind))),
                 qPrintable(listed.out));
    }

    void aMissingKeyLeavesTheBaseSearchableByItsWords()
    {
        QTemporaryDir docs;
        QVERIFY(writeFile(docs.filePath(u"garage.md"_s), "# Garage\n\nThe automobile needs new tyres.\n"));
        qunsetenv("LOOPSCOPE_TEST_NO_SUCH_KEY");
        const Output added
            = knowledge({u"add"_s, u"keyless"_s, docs.path(), u"--embedding-model"_s, u"m"_s, u"--base-url"_s,
                         u"http://127.0.0.1:9"_s, u"--api-key-env"_s, u"LOOPSCOPE_TEST_NO_SUCH_KEY"_s});
        QCOMPARE(added.code, int(KnowledgeCommand::Failed));
        QVERIFY2(added.err.contains(u"LOOPSCOPE_TEST_NO_SUCH_KEY"_s)
                     && added.err.contains(u"by their words"_s),
                 qPrintable(added.err));
        const Output found = knowledge({u"search"_s, u"keyless"_s, u"tyres"_s, u"--json"_s});
        QCOMPARE(found.code, int(KnowledgeCommand::Success));
        QCOMPARE(QJsonDocument::fromJson(found.out.toUtf8()).array().size(), 1);
        QVERIFY2(found.err.contains(u"words only"_s), qPrintable(found.err));
    }

    void removeForgetsTheBase()
    {
        QCOMPARE(knowledge({u"remove"_s, u"docs"_s}).code, int(KnowledgeCommand::Success));
        QVERIFY(!knowledge({u"list"_s}).out.contains(u"docs:"_s));
        QCOMPARE(knowledge({u"search"_s, u"docs"_s, u"proxy"_s}).code, int(KnowledgeCommand::BadUsage));
        QVERIFY(QFile::exists(m_docs.filePath(u"guide.md"_s)));
    }
};

QTEST_GUILESS_MAIN(TestKnowledgeCommand)
#include "tst_knowledgecommand.moc"
