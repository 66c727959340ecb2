#include "agent/knowledge/knowledgeindex.h"

#include "agent/knowledge/knowledgequery.h"
#include "agent/knowledge/vectorcache.h"
#include "agent/knowledge/vectorsearch.h"

#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>
#include <QVariant>

#include <algorithm>
#include <atomic>
#include <cstring>

using namespace Qt::StringLiterals;

namespace Loopscope {

QJsonObject KnowledgeHit::toJson() const
{
    QJsonObject json{
        {u"path"_s, path},     {u"startLine"_s, startLine}, {u"endLine"_s, endLine},
        {u"score"_s, score()}, {u"bm25"_s, bm25},           {u"text"_s, text},
    };
    if (page > 0)
        json.insert(u"page"_s, page);
    if (cosine)
        json.insert(u"cosine"_s, *cosine);
    if (fused)
        json.insert(u"fused"_s, *fused);
    return json;
}

static QString nextConnectionName()
{
    static std::atomic<int> counter{0};
    return u"loopscope-knowledge-%1"_s.arg(counter.fetch_add(1));
}

KnowledgeIndex::KnowledgeIndex(QString path, QString connectionName)
    : m_path(std::move(path))
    , m_connectionName(std::move(connectionName))
{}

KnowledgeIndex::~KnowledgeIndex()
{
    if (m_database)
        m_database->close();
    m_database.reset();
    QSqlDatabase::removeDatabase(m_connectionName);
}

std::unique_ptr<KnowledgeIndex> KnowledgeIndex::open(const QString &path, QString *error)
{
    return open(path, false, error);
}

std::unique_ptr<KnowledgeIndex> KnowledgeIndex::openForReading(const QString &path, QString *error)
{
    // SQLite would create an empty file: that is the writer's to do.
    if (!QFileInfo(path).isFile()) {
        *error = tr("The index '%1' does not exist yet: index the knowledge base first.").arg(path);
        return nullptr;
    }
    return open(path, true, error);
}

std::unique_ptr<KnowledgeIndex> KnowledgeIndex::open(const QString &path, bool forReading, QString *error)
{
    std::unique_ptr<KnowledgeIndex> index(new KnowledgeIndex(path, nextConnectionName()));
    if (!QSqlDatabase::isDriverAvailable(u"QSQLITE"_s)) {
        *error = tr("Qt's SQLite driver (QSQLITE) is not installed; on Debian it is the package "
                    "libqt6sql6-sqlite.");
        return nullptr;
    }
    index->m_database
        = std::make_unique<QSqlDatabase>(QSqlDatabase::addDatabase(u"QSQLITE"_s, index->m_connectionName));
    index->m_database->setDatabaseName(path);
    index->m_database->setConnectOptions(u"QSQLITE_BUSY_TIMEOUT=10000"_s);
    if (!index->m_database->open()) {
        *error = tr("Cannot open the index '%1': %2").arg(path, index->m_database->lastError().text());
        return nullptr;
    }
    if (!(forReading ? index->checkSchemaForReading() : index->prepareSchema())) {
        *error = index->m_lastError;
        return nullptr;
    }
    return index;
}

QString KnowledgeIndex::removeFiles(const QString &path)
{
    VectorCache::forget(path);
    for (const QString &file : QStringList{path, path + u"-wal"_s, path + u"-shm"_s}) {
        if (QFile::exists(file) && !QFile::remove(file))
            return tr("Cannot remove '%1'.").arg(file);
    }
    return {};
}

bool KnowledgeIndex::exec(const QString &statement)
{
    QSqlQuery query(*m_database);
    if (query.exec(statement))
        return true;
    return fail(statement, query.lastError().text());
}

bool KnowledgeIndex::fail(const QString &what, const QString &why)
{
    m_lastError = tr("The index '%1' failed (%2): %3").arg(m_path, what, why);
    return false;
}

// The version of the schema in the file: 0 for a new file, -1 when SQLite cannot read it. A writer
// also puts the file in WAL mode.
static int storedVersion(QSqlDatabase &database, bool forWriting = true)
{
    QSqlQuery query(database);
    if (forWriting && !query.exec(u"PRAGMA journal_mode=WAL"_s))
        return -1;
    if (!query.exec(u"SELECT count(*) FROM sqlite_master"_s) || !query.next())
        return -1;
    const int tables = query.value(0).toInt();
    if (!query.exec(u"PRAGMA user_version"_s) || !query.next())
        return -1;
    const int version = query.value(0).toInt();
    return tables == 0 ? 0 : (version == 0 ? -1 : version);
}

bool KnowledgeIndex::checkSchemaForReading()
{
    const int version = storedVersion(*m_database, false);
    if (version == SchemaVersion)
        return exec(u"PRAGMA query_only=ON"_s);
    m_lastError = version == 0 ? tr("The index '%1' is empty: index the knowledge base first.").arg(m_path)
                  : version < 0
                      ? tr("The index '%1' is damaged; the next indexing of its knowledge base rebuilds "
                           "it.")
                            .arg(m_path)
                      : tr("The index '%1' has schema version %2, this Loopscope uses %3; the next "
                           "indexing of its knowledge base brings it up to date.")
                            .arg(m_path)
                            .arg(version)
                            .arg(SchemaVersion);
    return false;
}

bool KnowledgeIndex::prepareSchema()
{
    const int version = storedVersion(*m_database);
    if (version == SchemaVersion)
        return exec(u"PRAGMA synchronous=NORMAL"_s) && exec(u"PRAGMA foreign_keys=ON"_s);
    if (version == 1) {
        // Version 1 only lacks the vectors: what it holds stays, the passages are embedded later.
        if (!upgradeFromVersion1())
            return false;
        m_notices.append(tr("The index '%1' was upgraded from schema version 1 to %2 (room for the passages' "
                            "vectors and PDF pages); what it held is kept.")
                             .arg(m_path)
                             .arg(SchemaVersion));
        return exec(u"PRAGMA synchronous=NORMAL"_s) && exec(u"PRAGMA foreign_keys=ON"_s);
    }
    if (version != 0) {
        // Damaged, or written by another version: an index is derived data, so start it again.
        m_notices.append(version < 0 ? tr("The index '%1' was damaged; it has been rebuilt empty and is "
                                          "filled again by the next indexing.")
                                           .arg(m_path)
                                     : tr("The index '%1' has schema version %2, this Loopscope uses %3; it "
                                          "has been rebuilt empty and is filled again by the next indexing.")
                                           .arg(m_path)
                                           .arg(version)
                                           .arg(SchemaVersion));
        m_database->close();
        if (const QString error = removeFiles(m_path); !error.isEmpty())
            return fail(tr("rebuilding"), error);
        if (!m_database->open())
            return fail(tr("rebuilding"), m_database->lastError().text());
        if (storedVersion(*m_database) != 0)
            return fail(tr("rebuilding"), tr("the new file is not empty"));
    }
    return createSchema() && exec(u"PRAGMA synchronous=NORMAL"_s) && exec(u"PRAGMA foreign_keys=ON"_s);
}

// The passages' vectors, dropped with their passage (a trigger: it holds whatever the connection's pragmas).
static const QStringList vectorStatements{
    u"CREATE TABLE vectors(chunk_id INTEGER PRIMARY KEY, dimensions INTEGER NOT NULL, vector BLOB NOT NULL)"_s,
    u"CREATE TRIGGER chunks_deleted_vectors AFTER DELETE ON chunks BEGIN "
    "DELETE FROM vectors WHERE chunk_id = old.id; END"_s,
};

bool KnowledgeIndex::upgradeFromVersion1()
{
    if (!m_database->transaction())
        return fail(tr("upgrading"), m_database->lastError().text());
    const QStringList statements
        = vectorStatements
          + QStringList{u"ALTER TABLE chunks ADD COLUMN page INTEGER NOT NULL DEFAULT 0"_s,
                        u"PRAGMA user_version=2"_s};
    for (const QString &statement : statements) {
        if (!exec(statement)) {
            m_database->rollback();
            return false;
        }
    }
    return m_database->commit() || fail(tr("upgrading"), m_database->lastError().text());
}

bool KnowledgeIndex::createSchema()
{
    const QStringList statements = QStringList{
        u"CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, "
        "modified INTEGER NOT NULL, hash BLOB NOT NULL)"_s,
        u"CREATE TABLE chunks(id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id), "
        "start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, text TEXT NOT NULL, "
        "page INTEGER NOT NULL DEFAULT 0)"_s,
        u"CREATE INDEX chunks_by_file ON chunks(file_id)"_s,
        // The passages' text is kept once, in chunks; the FTS5 table indexes it (external content).
        u"CREATE VIRTUAL TABLE chunk_text USING fts5(text, content='chunks', content_rowid='id', "
        "tokenize='porter unicode61 remove_diacritics 2')"_s,
        u"CREATE TRIGGER chunks_inserted AFTER INSERT ON chunks BEGIN "
        "INSERT INTO chunk_text(rowid, text) VALUES (new.id, new.text); END"_s,
        u"CREATE TRIGGER chunks_deleted AFTER DELETE ON chunks BEGIN "
        "INSERT INTO chunk_text(chunk_text, rowid, text) VALUES ('delete', old.id, old.text); END"_s,
        u"CREATE TABLE skipped(path TEXT PRIMARY KEY, reason TEXT NOT NULL)"_s,
        u"CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)"_s,
    } + vectorStatements + QStringList{u"PRAGMA user_version=%1"_s.arg(SchemaVersion)};
    if (!m_database->transaction())
        return fail(tr("creating"), m_database->lastError().text());
    for (const QString &statement : statements) {
        if (!exec(statement)) {
            m_database->rollback();
            return false;
        }
    }
    return m_database->commit() || fail(tr("creating"), m_database->lastError().text());
}

QList<KnowledgeHit> KnowledgeIndex::search(const QString &question, int topK, const Embedding &questionVector)
{
    const QString match = KnowledgeQuery::matchExpression(question);
    if (topK <= 0)
        return {};
    if (!questionVector.isEmpty()) {
        const int dimensions = embeddingDimensions();
        if (dimensions > 0 && dimensions != questionVector.size()) {
            fail(tr("searching"), tr("the question's vector has %1 dimensions, the index's vectors %2")
                                      .arg(questionVector.size())
                                      .arg(dimensions));
            return {};
        }
        if (dimensions > 0)
            return hybridSearch(match, topK, questionVector);
    }
    return match.isEmpty() ? QList<KnowledgeHit>() : lexicalSearch(match, topK);
}

QList<KnowledgeHit> KnowledgeIndex::lexicalSearch(const QString &match, int topK)
{
    QSqlQuery query(*m_database);
    query.setForwardOnly(true);
    query.prepare(u"SELECT f.path, c.start_line, c.end_line, bm25(chunk_text), c.text, c.page "
                  "FROM chunk_text JOIN chunks c ON c.id = chunk_text.rowid JOIN files f ON f.id = c.file_id "
                  "WHERE chunk_text MATCH ? ORDER BY bm25(chunk_text) LIMIT ?"_s);
    query.addBindValue(match);
    query.addBindValue(topK);
    if (!query.exec()) {
        fail(tr("searching"), query.lastError().text());
        return {};
    }
    QList<KnowledgeHit> hits;
    while (query.next()) {
        KnowledgeHit hit;
        hit.path = query.value(0).toString();
        hit.startLine = query.value(1).toInt();
        hit.endLine = query.value(2).toInt();
        hit.bm25 = -query.value(3).toDouble();
        hit.text = query.value(4).toString();
        hit.page = query.value(5).toInt();
        hits.append(hit);
    }
    return hits;
}

QList<KnowledgeHit> KnowledgeIndex::hybridSearch(const QString &match, int topK,
                                                 const Embedding &questionVector)
{
    const int candidates = std::max(topK * 4, FusionCandidates);
    QHash<qint64, double> bm25;
    QList<qint64> lexical;
    QSqlQuery query(*m_database);
    query.setForwardOnly(true);
    if (!match.isEmpty()) {
        query.prepare(u"SELECT rowid, bm25(chunk_text) FROM chunk_text WHERE chunk_text MATCH ? "
                      "ORDER BY bm25(chunk_text) LIMIT ?"_s);
        query.addBindValue(match);
        query.addBindValue(candidates);
        if (!query.exec()) {
            fail(tr("searching"), query.lastError().text());
            return {};
        }
        while (query.next()) {
            lexical.append(query.value(0).toLongLong());
            bm25.insert(lexical.last(), -query.value(1).toDouble());
        }
    }
    // Brute force over every vector, held in memory as one block of floats (see VectorCache).
    const std::shared_ptr<const VectorMatrix> matrix = vectorMatrix(int(questionVector.size()));
    if (!matrix)
        return {};
    const std::vector<float> similarity
        = VectorSearch::similarities(VectorSearch::normalized(questionVector), *matrix);
    QList<qint64> nearest;
    for (const qsizetype row : VectorSearch::bestRows(similarity, candidates))
        nearest.append(matrix->ids.at(row));
    // A passage found by its words alone still shows its cosine: the rows are in id order.
    const auto cosineOf = [&](qint64 id) -> std::optional<double> {
        const auto found = std::lower_bound(matrix->ids.cbegin(), matrix->ids.cend(), id);
        if (found == matrix->ids.cend() || *found != id)
            return std::nullopt;
        return similarity[size_t(found - matrix->ids.cbegin())];
    };

    QList<VectorSearch::Scored> fused = VectorSearch::fuse({lexical, nearest});
    if (fused.size() > topK)
        fused.resize(topK);
    QList<KnowledgeHit> hits;
    query.prepare(u"SELECT f.path, c.start_line, c.end_line, c.text, c.page FROM chunks c "
                  "JOIN files f ON f.id = c.file_id WHERE c.id = ?"_s);
    for (const VectorSearch::Scored &entry : std::as_const(fused)) {
        query.addBindValue(entry.id);
        if (!query.exec()) {
            fail(tr("searching"), query.lastError().text());
            return {};
        }
        if (!query.next())
            continue;
        KnowledgeHit hit;
        hit.path = query.value(0).toString();
        hit.startLine = query.value(1).toInt();
        hit.endLine = query.value(2).toInt();
        hit.text = query.value(3).toString();
        hit.page = query.value(4).toInt();
        hit.bm25 = bm25.value(entry.id);
        hit.cosine = cosineOf(entry.id);
        hit.fused = entry.score;
        hits.append(hit);
        query.finish();
    }
    return hits;
}

std::shared_ptr<const VectorMatrix> KnowledgeIndex::vectorMatrix(int dimensions)
{
    // The version is read before the vectors: a write between the two makes the matrix newer than its
    // version says, never older, and the next search, seeing the newer version, reads them again.
    const QString version = meta(u"vectorsVersion"_s);
    if (!version.isEmpty()) {
        if (auto held = VectorCache::find(m_path, version); held && held->dimensions == dimensions)
            return held;
    }
    auto matrix = std::make_shared<VectorMatrix>();
    matrix->version = version;
    matrix->dimensions = dimensions;
    QSqlQuery query(*m_database);
    query.setForwardOnly(true);
    // Counted first so the block is allocated once: growing it would hold two copies for a moment.
    query.prepare(u"SELECT count(*) FROM vectors WHERE dimensions = ?"_s);
    query.addBindValue(dimensions);
    if (!query.exec() || !query.next()) {
        fail(tr("searching"), query.lastError().text());
        return nullptr;
    }
    const qsizetype rows = query.value(0).toLongLong();
    matrix->ids.reserve(rows);
    matrix->values.reserve(size_t(rows) * size_t(dimensions));
    query.prepare(u"SELECT chunk_id, vector FROM vectors WHERE dimensions = ? ORDER BY chunk_id"_s);
    query.addBindValue(dimensions);
    if (!query.exec()) {
        fail(tr("searching"), query.lastError().text());
        return nullptr;
    }
    const qsizetype bytes = qsizetype(dimensions) * qsizetype(sizeof(float));
    while (query.next()) {
        const QByteArray blob = query.value(1).toByteArray();
        if (blob.size() != bytes)
            continue;
        matrix->ids.append(query.value(0).toLongLong());
        const auto *values = reinterpret_cast<const float *>(blob.constData());
        matrix->values.insert(matrix->values.end(), values, values + dimensions);
    }
    if (!version.isEmpty())
        VectorCache::keep(m_path, matrix);
    return matrix;
}

bool KnowledgeIndex::renewVectorsVersion(QSqlQuery &query)
{
    query.prepare(u"INSERT OR REPLACE INTO meta(key, value) VALUES ('vectorsVersion', ?)"_s);
    query.addBindValue(QUuid::createUuid().toString(QUuid::WithoutBraces));
    return query.exec();
}

KnowledgeIndexStatus KnowledgeIndex::status()
{
    KnowledgeIndexStatus status;
    QSqlQuery query(*m_database);
    if (query.exec(u"SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM chunks)"_s) && query.next()) {
        status.files = query.value(0).toInt();
        status.chunks = query.value(1).toInt();
    }
    if (query.exec(u"SELECT value FROM meta WHERE key = 'lastIndexed'"_s) && query.next())
        status.lastIndexed = QDateTime::fromString(query.value(0).toString(), Qt::ISODateWithMs);
    if (query.exec(u"SELECT path, reason FROM skipped ORDER BY path"_s)) {
        while (query.next())
            status.skipped.append({query.value(0).toString(), query.value(1).toString()});
    }
    if (query.exec(u"SELECT count(*) FROM vectors"_s) && query.next())
        status.embeddedChunks = query.value(0).toInt();
    status.embeddingModel = embeddingModel();
    status.bytes = QFileInfo(m_path).size() + QFileInfo(m_path + u"-wal"_s).size();
    return status;
}

QString KnowledgeIndex::meta(const QString &key)
{
    QSqlQuery query(*m_database);
    query.prepare(u"SELECT value FROM meta WHERE key = ?"_s);
    query.addBindValue(key);
    return query.exec() && query.next() ? query.value(0).toString() : QString();
}

QString KnowledgeIndex::embeddingModel()
{
    return meta(u"embeddingModel"_s);
}

int KnowledgeIndex::embeddingDimensions()
{
    return meta(u"embeddingDimensions"_s).toInt();
}

bool KnowledgeIndex::useEmbeddingModel(const QString &model, bool *dropped)
{
    *dropped = false;
    if (embeddingModel() == model)
        return true;
    bool hadVectors = false;
    const bool ok = inTransaction([&](QSqlQuery &query) {
        if (!query.exec(u"SELECT count(*) FROM vectors"_s) || !query.next())
            return false;
        hadVectors = query.value(0).toInt() > 0;
        if (!query.exec(u"DELETE FROM vectors"_s)
            || !query.exec(u"DELETE FROM meta WHERE key = 'embeddingDimensions'"_s))
            return false;
        query.prepare(u"INSERT OR REPLACE INTO meta(key, value) VALUES ('embeddingModel', ?)"_s);
        query.addBindValue(model);
        return query.exec() && renewVectorsVersion(query);
    });
    *dropped = ok && hadVectors;
    return ok;
}

QList<KnowledgePendingChunk> KnowledgeIndex::chunksWithoutVectors(int limit)
{
    QList<KnowledgePendingChunk> chunks;
    QSqlQuery query(*m_database);
    query.setForwardOnly(true);
    query.prepare(u"SELECT c.id, c.text FROM chunks c LEFT JOIN vectors v ON v.chunk_id = c.id "
                  "WHERE v.chunk_id IS NULL ORDER BY c.id LIMIT ?"_s);
    query.addBindValue(limit);
    if (!query.exec()) {
        fail(tr("reading"), query.lastError().text());
        return chunks;
    }
    while (query.next())
        chunks.append({query.value(0).toLongLong(), query.value(1).toString()});
    return chunks;
}

int KnowledgeIndex::countChunksWithoutVectors()
{
    QSqlQuery query(*m_database);
    if (!query.exec(u"SELECT count(*) FROM chunks c LEFT JOIN vectors v ON v.chunk_id = c.id "
                    "WHERE v.chunk_id IS NULL"_s)
        || !query.next()) {
        fail(tr("reading"), query.lastError().text());
        return 0;
    }
    return query.value(0).toInt();
}

bool KnowledgeIndex::storeVectors(const QList<std::pair<qint64, Embedding>> &vectors)
{
    int dimensions = embeddingDimensions();
    for (const auto &[id, vector] : vectors) {
        if (dimensions == 0)
            dimensions = int(vector.size());
        if (vector.isEmpty() || vector.size() != dimensions) {
            m_lastError = tr("A vector of %1 dimensions cannot join the index '%2', whose vectors have %3 "
                             "dimensions: nothing of this batch was stored.")
                              .arg(vector.size())
                              .arg(m_path)
                              .arg(dimensions);
            return false;
        }
    }
    return inTransaction([&](QSqlQuery &query) {
        query.prepare(u"INSERT OR REPLACE INTO meta(key, value) VALUES ('embeddingDimensions', ?)"_s);
        query.addBindValue(QString::number(dimensions));
        bool ok = query.exec();
        // A passage dropped meanwhile gets no vector.
        query.prepare(u"INSERT OR REPLACE INTO vectors(chunk_id, dimensions, vector) "
                      "SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM chunks WHERE id = ?)"_s);
        for (qsizetype i = 0; ok && i < vectors.size(); ++i) {
            query.bindValue(0, vectors[i].first);
            query.bindValue(1, dimensions);
            query.bindValue(2, VectorSearch::toBlob(VectorSearch::normalized(vectors[i].second)));
            query.bindValue(3, vectors[i].first);
            ok = query.exec();
        }
        return ok && renewVectorsVersion(query);
    });
}

QHash<QString, KnowledgeFileRecord> KnowledgeIndex::files()
{
    QHash<QString, KnowledgeFileRecord> files;
    QSqlQuery query(*m_database);
    query.setForwardOnly(true);
    if (!query.exec(u"SELECT path, size, modified, hash FROM files"_s)) {
        fail(tr("reading"), query.lastError().text());
        return files;
    }
    while (query.next()) {
        files.insert(query.value(0).toString(), {query.value(1).toLongLong(), query.value(2).toLongLong(),
                                                 query.value(3).toByteArray()});
    }
    return files;
}

bool KnowledgeIndex::replaceFile(const QString &path, const KnowledgeFileRecord &record,
                                 const QList<KnowledgeChunk> &chunks)
{
    if (!m_database->transaction())
        return fail(tr("writing"), m_database->lastError().text());
    auto rollback = [this](const QSqlQuery &query) {
        fail(tr("writing"), query.lastError().text());
        m_database->rollback();
        return false;
    };
    QSqlQuery query(*m_database);
    query.prepare(u"DELETE FROM chunks WHERE file_id = (SELECT id FROM files WHERE path = ?)"_s);
    query.addBindValue(path);
    if (!query.exec())
        return rollback(query);
    query.prepare(u"INSERT INTO files(path, size, modified, hash) VALUES (?, ?, ?, ?) ON CONFLICT(path) "
                  "DO UPDATE SET size = excluded.size, modified = excluded.modified, hash = excluded.hash "
                  "RETURNING id"_s);
    query.addBindValue(path);
    query.addBindValue(record.size);
    query.addBindValue(record.modified);
    query.addBindValue(record.hash);
    if (!query.exec() || !query.next())
        return rollback(query);
    const qint64 fileId = query.value(0).toLongLong();
    query.finish();
    QSqlQuery insert(*m_database);
    insert.prepare(u"INSERT INTO chunks(file_id, start_line, end_line, text, page) VALUES (?, ?, ?, ?, ?)"_s);
    for (const KnowledgeChunk &chunk : chunks) {
        insert.bindValue(0, fileId);
        insert.bindValue(1, chunk.startLine);
        insert.bindValue(2, chunk.endLine);
        insert.bindValue(3, chunk.text);
        insert.bindValue(4, chunk.page);
        if (!insert.exec())
            return rollback(insert);
    }
    // The file's old passages took their vectors with them.
    if (!renewVectorsVersion(query))
        return rollback(query);
    return m_database->commit() || fail(tr("writing"), m_database->lastError().text());
}

bool KnowledgeIndex::touchFile(const QString &path, const KnowledgeFileRecord &record)
{
    QSqlQuery query(*m_database);
    query.prepare(u"UPDATE files SET size = ?, modified = ? WHERE path = ?"_s);
    query.addBindValue(record.size);
    query.addBindValue(record.modified);
    query.addBindValue(path);
    return query.exec() || fail(tr("writing"), query.lastError().text());
}

bool KnowledgeIndex::removeFile(const QString &path)
{
    return inTransaction([this, &path](QSqlQuery &query) {
        query.prepare(u"DELETE FROM chunks WHERE file_id = (SELECT id FROM files WHERE path = ?)"_s);
        query.addBindValue(path);
        if (!query.exec())
            return false;
        query.prepare(u"DELETE FROM files WHERE path = ?"_s);
        query.addBindValue(path);
        return query.exec() && renewVectorsVersion(query);
    });
}

bool KnowledgeIndex::finishRun(const QList<KnowledgeSkippedFile> &skipped, const QDateTime &when)
{
    return inTransaction([&](QSqlQuery &query) {
        bool ok = query.exec(u"DELETE FROM skipped"_s);
        query.prepare(u"INSERT OR REPLACE INTO skipped(path, reason) VALUES (?, ?)"_s);
        for (qsizetype i = 0; ok && i < skipped.size(); ++i) {
            query.bindValue(0, skipped[i].path);
            query.bindValue(1, skipped[i].reason);
            ok = query.exec();
        }
        if (!ok)
            return false;
        query.prepare(u"INSERT OR REPLACE INTO meta(key, value) VALUES ('lastIndexed', ?)"_s);
        query.addBindValue(when.toString(Qt::ISODateWithMs));
        return query.exec();
    });
}

bool KnowledgeIndex::inTransaction(const std::function<bool(QSqlQuery &)> &body)
{
    if (!m_database->transaction())
        return fail(tr("writing"), m_database->lastError().text());
    QSqlQuery query(*m_database);
    if (!body(query)) {
        fail(tr("writing"), query.lastError().text());
        m_database->rollback();
        return false;
    }
    return m_database->commit() || fail(tr("writing"), m_database->lastError().text());
}

} // namespace Loopscope
