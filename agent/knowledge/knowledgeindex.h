#pragma once

#include "agent/knowledge/embeddingsclient.h"
#include "agent/knowledge/knowledgechunker.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <utility>

QT_BEGIN_NAMESPACE
class QSqlDatabase;
class QSqlQuery;
QT_END_NAMESPACE

namespace Loopscope {

struct VectorMatrix;

// One passage a search found, and why it ranked.
struct KnowledgeHit
{
    QString path; // absolute
    int startLine = 0;
    int endLine = 0; // of the page, for a PDF
    double bm25 = 0; // FTS5's bm25(), sign turned: higher is better; 0 when it shares no word
    QString text;
    std::optional<double> cosine; // with the query's vector, when the base has embeddings
    std::optional<double> fused;  // reciprocal rank fusion of the two rankings: what a hybrid search ranks by
    int page = 0;                 // 1-based page of a PDF; 0 for other documents

    double score() const { return fused.value_or(bm25); }
    // path, startLine, endLine, page (PDF), score, bm25, cosine?, fused?, text
    QJsonObject toJson() const;
    bool operator==(const KnowledgeHit &) const = default;
};

// What the index remembers of a file, to tell on the next run whether it changed.
struct KnowledgeFileRecord
{
    qint64 size = 0;
    qint64 modified = 0; // milliseconds since the epoch
    QByteArray hash;
};

struct KnowledgeSkippedFile
{
    QString path;
    QString reason;
    bool operator==(const KnowledgeSkippedFile &) const = default;
};

struct KnowledgeIndexStatus
{
    int files = 0;
    int chunks = 0;
    qint64 bytes = 0;      // the database with its write-ahead log
    QDateTime lastIndexed; // invalid before the first complete run
    QList<KnowledgeSkippedFile> skipped;
    QString embeddingModel; // the model of the vectors held; empty for a lexical index
    int embeddedChunks = 0; // passages with a vector
};

// A passage waiting for its vector.
struct KnowledgePendingChunk
{
    qint64 id = 0;
    QString text;
    bool operator==(const KnowledgePendingChunk &) const = default;
};

/*!
    One knowledge base's index: an SQLite database (through Qt SQL) with the
    files, their passages and an FTS5 table over the passages for BM25 search.
    It runs in WAL mode, so searches read while an indexer writes, and every
    file's change is one transaction, so a process killed while indexing leaves
    the index as it was after the last whole file. The schema carries a version
    (PRAGMA user_version): a version 1 index (before embeddings) is upgraded in
    place with a notice; an index of another version, or one SQLite finds
    damaged, is rebuilt empty, with a notice saying so, for the indexer to fill.

    Version 2 adds a passage's PDF page and the passages' vectors (normalised float32 BLOBs, one per
    passage, dropped with it) and records in its meta the embedding model and
    the vectors' dimensions, so a search with a query vector is hybrid: BM25
    and cosine rankings fused by reciprocal rank fusion (VectorSearch).

    A connection belongs to the thread that opened it: open one per thread.
*/
class KnowledgeIndex final
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::KnowledgeIndex)

public:
    static constexpr int SchemaVersion = 2;
    // How many passages each ranking of a hybrid search offers to the fusion, at least.
    static constexpr int FusionCandidates = 50;

    ~KnowledgeIndex();
    KnowledgeIndex(const KnowledgeIndex &) = delete;
    KnowledgeIndex &operator=(const KnowledgeIndex &) = delete;

    // Opens or creates the index at path (upgrading or rebuilding it as the class comment says); nullptr
    // with *error set when it cannot. Only a writer, holding the base's lock (KnowledgeIndexer), does this.
    static std::unique_ptr<KnowledgeIndex> open(const QString &path, QString *error);
    // Opens the index at path to search it or read its status, changing nothing: an index that does not
    // exist, has another schema version or is damaged is an error saying that the next indexing (which
    // holds the writer's lock) builds it, never created or rebuilt here behind an indexer's back.
    static std::unique_ptr<KnowledgeIndex> openForReading(const QString &path, QString *error);

    // Deletes the database at path with its write-ahead log; an empty string, or why not.
    static QString removeFiles(const QString &path);

    // Said once after open(): e.g. that a damaged index was rebuilt.
    QStringList notices() const { return m_notices; }
    QString lastError() const { return m_lastError; }

    // The best passages for a question (KnowledgeQuery), at most topK; empty when no word matches.
    // With the question's vector (of the index's embedding model) and vectors in the index: the BM25 and
    // cosine rankings fused, so a passage that shares no word with the question can still be found.
    QList<KnowledgeHit> search(const QString &question, int topK, const Embedding &questionVector = {});
    KnowledgeIndexStatus status();

    // Embeddings. The model the vectors come from, and their dimensions (0 before the first vector).
    QString embeddingModel();
    int embeddingDimensions();
    // Makes model the one of the index; a different one drops every vector (*dropped is then true):
    // vectors of two models cannot be compared.
    bool useEmbeddingModel(const QString &model, bool *dropped);
    // The first passages without a vector, at most limit, and how many there are in all.
    QList<KnowledgePendingChunk> chunksWithoutVectors(int limit);
    int countChunksWithoutVectors();
    // Stores the vectors (normalised) in one transaction; all must have the index's dimensions (the first
    // vectors set them), else nothing is stored and lastError() says why.
    bool storeVectors(const QList<std::pair<qint64, Embedding>> &vectors);

    // Writing, for the indexer.
    QHash<QString, KnowledgeFileRecord> files();
    bool replaceFile(const QString &path, const KnowledgeFileRecord &record,
                     const QList<KnowledgeChunk> &chunks);
    bool touchFile(const QString &path, const KnowledgeFileRecord &record);
    bool removeFile(const QString &path);
    bool finishRun(const QList<KnowledgeSkippedFile> &skipped, const QDateTime &when);

private:
    KnowledgeIndex(QString path, QString connectionName);
    static std::unique_ptr<KnowledgeIndex> open(const QString &path, bool forReading, QString *error);
    bool prepareSchema();
    bool checkSchemaForReading();
    bool createSchema();
    bool upgradeFromVersion1();
    QString meta(const QString &key);
    QList<KnowledgeHit> lexicalSearch(const QString &match, int topK);
    QList<KnowledgeHit> hybridSearch(const QString &match, int topK, const Embedding &questionVector);
    // The index's vectors of that size, from the process's VectorCache when it holds the current ones.
    std::shared_ptr<const VectorMatrix> vectorMatrix(int dimensions);
    // Every write that changes the vectors (or drops them with their passages) gives them a new version.
    bool renewVectorsVersion(QSqlQuery &query);
    bool exec(const QString &statement);
    // Runs body in one transaction: committed when it returns true, else rolled back, lastError() saying why.
    bool inTransaction(const std::function<bool(QSqlQuery &)> &body);
    bool fail(const QString &what, const QString &why);

    QString m_path;
    QString m_connectionName;
    // Qt SQL stays out of this header: its users need no Qt SQL of their own.
    std::unique_ptr<QSqlDatabase> m_database;
    QStringList m_notices;
    QString m_lastError;
};

} // namespace Loopscope
